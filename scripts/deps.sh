#!/bin/sh
# Makes sure the Debian packages that stoa's build and tests use are present, for this machine's
# architecture: a package installed only for another architecture (libisal-dev:arm64 beside an
# amd64 build) does not count, since the build cannot link it. As root, installs what is missing
# with apt-get; otherwise names it and fails. Packages named as arguments are checked too
# (scripts/cross.sh adds its cross compiler and qemu-user). (nasm is not among them: it builds
# only the upstream ISA-L that make perf_report compares against.)
set -eu

PKGS="build-essential clang libcmocka-dev zlib1g-dev libssl-dev libdeflate-dev libisal-dev gzip pigz isal libpython3.11-testsuite $*"
ARCH=$(dpkg --print-architecture)

installed() {
	for a in "$ARCH" all; do
		dpkg-query -W -f='${Status}' "$1:$a" 2>/dev/null | grep -q "install ok installed" && return 0
	done
	return 1
}

missing=""
for p in $PKGS; do
	installed "$p" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "stoa: missing Debian packages for $ARCH:$missing" >&2
	echo "stoa: install them with: sudo apt-get install$missing" >&2
	exit 1
fi
echo "stoa: installing$missing ($ARCH)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
