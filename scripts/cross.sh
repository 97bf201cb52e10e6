#!/bin/sh
# Cross build and test under qemu-user (make cross-test TARGET=... runs it):
#
#   sh scripts/cross.sh TARGET [prepare|build|test]     TARGET: aarch64 armhf i686 s390x
#
# prepare  the host's tools (Debian's cross compiler and its libc, qemu-user: installed when run as
#          root, else named) and the target's libraries in build-TARGET/sysroot: glibc, cmocka,
#          zlib, OpenSSL's libcrypto and, where Debian builds it for the target, Debian's igzip
#          command (for the drop-in test), each the target's own .deb unpacked with dpkg -x.
#          Nothing of the target is installed on the host (libisal-dev is not multi-arch: its
#          arm64 package would replace the host's). The .debs come through apt with a package
#          list of its own under build-TARGET/apt, so the host's apt and dpkg setup stay as they
#          are. ISA-L's headers (the same on every architecture) are the host's.
# build    prepare, then the libraries, the igzip command and every test program for the target
#          into build-TARGET/ (the same file names as build/), and the host's ISA-L oracles.
# test     (the default) build, then the whole suite under qemu; exits non-zero on any failure.
#
# The test programs run under qemu-TARGET with QEMU_LD_PREFIX at the sysroot, which holds the
# target's own glibc: its loader, libc and the libraries above are one consistent set (a loader
# from one glibc build with a libc from another hangs in fork). STOA_TEST_WRAPPER names the
# emulator to the suite, which starts every program of the build through it, so no binfmt_misc
# registration is needed.
#
# The reference is x86-64: a differential test compares the target's results with those of the
# host's oracle on Debian's x86-64 ISA-L (build/tests/*_oracle_system, STOA_ORACLE_HOST), made
# from the same seed in the same run. The target's own libisal-built oracles link stoa's compat
# library (ORACLE_ISAL=compat) and check the drop-in ABI and the header layout for the target.
# Extra make arguments come from CROSS_MAKEFLAGS; TEST_ONLY="test_a test_b.sh" builds and runs
# only those test programs and scripts (as make run-tests does).
set -eu

target=${1:-}
step=${2:-test}
case $target in
aarch64) triple=aarch64-linux-gnu debarch=arm64 qemu=qemu-aarch64 ;;
armhf) triple=arm-linux-gnueabihf debarch=armhf qemu=qemu-arm ;;
i686) triple=i686-linux-gnu debarch=i386 qemu=qemu-i386 ;;
s390x) triple=s390x-linux-gnu debarch=s390x qemu=qemu-s390x ;;
*)
	echo "usage: sh scripts/cross.sh aarch64|armhf|i686|s390x [prepare|build|test]" >&2
	exit 2
	;;
esac
case $step in prepare | build | test) ;; *)
	echo "cross: unknown step '$step' (prepare, build or test)" >&2
	exit 2
	;;
esac

cd "$(dirname "$0")/.."
top=$(pwd)
build=build-$target
sysroot=$top/$build/sysroot
jobs=$(nproc 2>/dev/null || echo 2)

# The host side: the suite's own packages (the tests also run host tools: gzip, pigz), the cross
# compiler with its C library, and the emulator.
sh scripts/deps.sh "gcc-$triple" "libc6-dev-$debarch-cross" qemu-user

# The target's packages (the inflate tests load libdeflate at run time; test_zlib_programs.sh
# runs the target's pigz on stoa's libz.so.1). Debian's igzip command (isal, with its libisal2)
# exists for some architectures only; test_dropin.sh runs it on stoa's compat library, and on
# Debian's libisal to tell a defect of stoa from one of Debian's.
target_pkgs="libc6 libgcc-s1 libcmocka0 libcmocka-dev zlib1g zlib1g-dev libssl3 libssl-dev"
target_pkgs="$target_pkgs libdeflate0 pigz"
optional_pkgs="libisal2 isal"

# Relative symbolic links in place of absolute ones, so that /lib/ld-linux-*.so.* and friends
# resolve inside the sysroot rather than on the host.
relink_sysroot() {
	find "$sysroot" -type l | while read -r link; do
		dest=$(readlink "$link")
		case $dest in /*) ;; *) continue ;; esac
		dir=${link%/*}
		rel=$(realpath -m --relative-to="$dir" "$sysroot$dest")
		ln -sfn "$rel" "$link"
	done
}

prepare_sysroot() {
	stamp=$sysroot/.stoa-sysroot
	[ "$(cat "$stamp" 2>/dev/null)" = "$target_pkgs $optional_pkgs" ] && return 0
	apt=$top/$build/apt
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
	: >"$apt/status"
	# The host's sources, the target's architecture, a state of its own.
	set -- -q -o "Dir::State::Lists=$apt/lists" -o "Dir::State::status=$apt/status" \
		-o "Dir::Cache=$apt/cache" -o "APT::Architecture=$debarch" \
		-o "APT::Architectures::=$debarch" -o Debug::NoLocking=1
	[ "$(id -u)" -eq 0 ] && set -- "$@" -o APT::Sandbox::User=root
	echo "cross: fetching the $debarch package lists"
	# A list that fails to download (a mirror in mid-sync: the security index's size not what
	# its Release file says) leaves the others usable; the download below fails, naming the
	# package, if a list it needed is missing.
	apt-get "$@" update >"$apt/update.log" 2>&1 || {
		grep -E '^(E|W|Err):' "$apt/update.log" >&2
		echo "cross: apt-get update failed in part; going on with the lists it fetched" >&2
	}
	pkgs=$target_pkgs
	for p in $optional_pkgs; do
		if apt-cache "$@" policy "$p" 2>/dev/null | grep -q 'Candidate: [^(]'; then
			pkgs="$pkgs $p"
		else
			echo "cross: no $p for $debarch in Debian"
		fi
	done
	echo "cross: downloading $pkgs ($debarch)"
	rm -f "$apt/debs"/*.deb
	# shellcheck disable=SC2086
	(cd "$apt/debs" && apt-get "$@" download $pkgs >"$apt/download.log" 2>&1) || {
		cat "$apt/download.log" >&2
		exit 1
	}
	# Unpacked over what is there, so that a sysroot in use stays usable while packages are
	# added (a clean clone starts from none).
	mkdir -p "$sysroot"
	for deb in "$apt"/debs/*.deb; do
		dpkg -x "$deb" "$sysroot"
	done
	relink_sysroot
	mkdir -p "$sysroot/usr/include"
	cp -r /usr/include/isa-l.h /usr/include/isa-l "$sysroot/usr/include/"
	echo "$target_pkgs $optional_pkgs" >"$stamp"
}

prepare_sysroot
[ "$step" = prepare ] && exit 0

# The target's headers and libraries beside the cross compiler's C library; the libisal-built
# oracles see the sysroot's ISA-L headers (tests/tests.mk keeps stoa's own out of their path).
# Debian's directories are named for the multiarch tuple (i386-linux-gnu for i686-linux-gnu).
ma=$("$triple-gcc" -print-multiarch)
libdirs="$sysroot/usr/lib/$ma $sysroot/lib/$ma"
cflags="-O2 -g -isystem $sysroot/usr/include -isystem $sysroot/usr/include/$ma"
ldflags=""
for d in $libdirs; do
	ldflags="$ldflags -L$d -Wl,-rpath-link,$d"
done

run_make() {
	# shellcheck disable=SC2086
	make --no-print-directory -j"$jobs" BUILD="$build" CC="$triple-gcc" HOSTCC=cc \
		CFLAGS="$cflags" LDFLAGS="$ldflags" ORACLE_ISAL=compat ${CROSS_MAKEFLAGS:-} "$@"
}

echo "cross: building for $target ($triple) in $build/"
if [ -n "${TEST_ONLY:-}" ]; then
	# One line of names for make, however the caller spelled the list.
	# shellcheck disable=SC2086
	TEST_ONLY=$(echo $TEST_ONLY)
	export TEST_ONLY
	only=""
	for t in $TEST_ONLY; do
		case $t in *.sh) ;; *) only="$only $build/tests/$t" ;; esac
	done
	for f in tests/*_oracle.c; do
		n=${f##*/}
		only="$only $build/tests/${n%.c}_system $build/tests/${n%.c}_stoa"
	done
	# shellcheck disable=SC2086
	run_make lib programs $only
else
	run_make lib programs tests
fi
host_oracles=$(for f in tests/*_oracle.c; do
	n=${f##*/}
	echo "build/tests/${n%.c}_system"
done)
# shellcheck disable=SC2086
make --no-print-directory -j"$jobs" $host_oracles
[ "$step" = build ] && exit 0

echo "cross: running the suite under $qemu${STOA_ISA:+ with STOA_ISA=$STOA_ISA}"
start=$(date +%s)
status=0
(
	STOA_TEST_WRAPPER=$qemu QEMU_LD_PREFIX=$sysroot STOA_ORACLE_HOST=$top/build/tests \
		run_make run-tests
	st=$?
	# The CPU time of this subshell's children, the suite: "user system". Not "times | tail":
	# a builtin in a pipeline runs in a subshell of its own, which has no children (0m0.00s).
	times >"$build/suite-times"
	tail -n 1 "$build/suite-times" >"$build/suite-cpu"
	exit $st
) || status=$?
result=passed
[ $status -eq 0 ] || result=FAILED
echo "cross: $target suite $result in $(($(date +%s) - start)) s, CPU (user system)" \
	"$(cat "$build/suite-cpu")"
exit $status
