#!/bin/sh
# Makes sure the Debian packages the build, the tests and the benchmark peers need are present,
# and any packages named as arguments (scripts/cross.sh adds its cross compiler and qemu-user).
# As root, installs what is missing with apt-get; otherwise names it and fails.
set -eu

PKGS="build-essential clang nasm libcmocka-dev zlib1g-dev libssl-dev libdeflate-dev libisal-dev gzip pigz isal $*"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "stoa: missing Debian packages:$missing" >&2
	echo "stoa: install them with: sudo apt-get install$missing" >&2
	exit 1
fi
echo "stoa: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
