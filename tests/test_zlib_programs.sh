#!/bin/sh
# Real programs on stoa's libz.so.1, none of them rebuilt:
#
#  1. CPython's own zlib and gzip test suites (Debian's python3.11 and libpython3.11-testsuite),
#     with LD_LIBRARY_PATH at $BUILD/compat; the interpreter must report that it mapped stoa's
#     library (/proc/self/maps) and that zlib.ZLIB_RUNTIME_VERSION is 1.2.13;
#  2. pigz (deflatePrime, deflatePending, deflateSetDictionary, inflateBack, crc32_combine)
#     compresses every corpus file at -1, -6 and -9 with two threads and small blocks on stoa;
#     gzip -t accepts each file and gzip -d restores it; pigz -d on stoa restores the files that
#     gzip -9 made.
#
# run-tests calls it with BUILD set (default: build). STOA_CORPUS=dir overrides the corpus
# location (a directory holding calgary/ and canterbury/). A missing python3.11 test suite or
# pigz is a failure: scripts/deps.sh installs them. Exits non-zero on any failure.
#
# In a cross run (scripts/cross.sh) the pigz is the target's own Debian package, unpacked in the
# sysroot that QEMU_LD_PREFIX names, run through STOA_TEST_WRAPPER on the target's libz.so.1; the
# host's gzip still judges its output. CPython is the host's run only: the sysroot holds no
# target Python.

NAME=test_zlib_programs
. "$(dirname "$0")/testlib.sh"
PYTHON=${PYTHON:-/usr/bin/python3.11}
RUN=${STOA_TEST_WRAPPER:-}
PIGZ=pigz
[ -n "$RUN" ] && PIGZ=${QEMU_LD_PREFIX:-}/usr/bin/pigz
failures=0

fail() {
	echo "test_zlib_programs: FAIL: $*" >&2
	failures=$((failures + 1))
}

COMPAT_DIR=$(cd "$BUILD/compat" 2>/dev/null && pwd)
if [ -z "$COMPAT_DIR" ] || [ ! -f "$COMPAT_DIR/libz.so.1" ]; then
	echo "test_zlib_programs: FAIL: $BUILD/compat/libz.so.1 is missing (make BUILD=$BUILD lib)" >&2
	exit 1
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/stoa_zlibprog.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
corpus_or_generated "$TMP"

# A sanitizer build (make test SAN=1) of the library needs its runtimes loaded first into the
# uninstrumented programs; their own leaks at exit are not ours to report.
PRELOAD=$(san_preload "$COMPAT_DIR/libz.so.1")
if [ -n "$PRELOAD" ]; then
	echo "sanitizer build: the programs run with LD_PRELOAD=$PRELOAD"
	export ASAN_OPTIONS=detect_leaks=0
fi
on_stoa() {
	LD_LIBRARY_PATH="$COMPAT_DIR" LD_PRELOAD="$PRELOAD" $RUN "$@"
}

# ---- CPython ------------------------------------------------------------------------------------
if [ -n "$RUN" ]; then
	echo "cross run: CPython's zlib and gzip suites are left to the host's run"
elif [ ! -x "$PYTHON" ] || ! "$PYTHON" -c 'import test.test_zlib, test.test_gzip' 2>/dev/null; then
	fail "$PYTHON with its test suite (Debian package libpython3.11-testsuite) is missing"
else
	loaded=$(on_stoa "$PYTHON" -c '
import zlib
maps = open("/proc/self/maps").read()
libs = sorted({l.split()[-1] for l in maps.splitlines() if "/libz.so" in l})
print(zlib.ZLIB_RUNTIME_VERSION, " ".join(libs))')
	case "$loaded" in
	"1.2.13 $COMPAT_DIR/libz.so.1") echo "python3.11 runs on $loaded" ;;
	*) fail "python3.11 did not load stoa's libz: '$loaded'" ;;
	esac
	for t in test_zlib test_gzip; do
		if on_stoa "$PYTHON" -m test "$t" >"$TMP/$t.log" 2>&1 &&
			grep -q 'Tests result: SUCCESS' "$TMP/$t.log"; then
			echo "CPython $t on stoa: $(grep -E '^(All|[0-9]+) tests? OK|Ran [0-9]+' "$TMP/$t.log" | head -n 1)"
		else
			tail -n 30 "$TMP/$t.log" >&2
			fail "CPython $t on stoa's libz"
		fi
	done
fi

# ---- pigz ---------------------------------------------------------------------------------------
if ! command -v "$PIGZ" >/dev/null 2>&1 || ! command -v gzip >/dev/null 2>&1; then
	fail "pigz and gzip are needed (Debian packages pigz, gzip)"
else
	echo hello | LD_DEBUG=files on_stoa "$PIGZ" -c >/dev/null 2>"$TMP/ld.log"
	grep -q "calling init: $COMPAT_DIR/libz.so.1" "$TMP/ld.log" ||
		fail "$PIGZ did not load $COMPAT_DIR/libz.so.1 (LD_DEBUG=files)"
	files=0
	for f in "$CORPUS"/*/*; do
		[ -f "$f" ] || continue
		case "$f" in *README*) continue ;; esac
		files=$((files + 1))
		for level in 1 6 9; do
			# Blocks of 32 KiB: many jobs, each primed with the last one's dictionary.
			if ! on_stoa "$PIGZ" -"$level" -p 2 -b 32 -c "$f" >"$TMP/out.gz"; then
				fail "pigz -$level on stoa: $f"
				continue
			fi
			gzip -t "$TMP/out.gz" || fail "gzip -t refuses pigz -$level on stoa: $f"
			gzip -dc "$TMP/out.gz" | cmp -s - "$f" || fail "gzip -d of pigz -$level on stoa: $f"
			on_stoa "$PIGZ" -dc "$TMP/out.gz" | cmp -s - "$f" ||
				fail "pigz -d on stoa of its own -$level: $f"
		done
		gzip -9 -c "$f" >"$TMP/g9.gz"
		on_stoa "$PIGZ" -dc "$TMP/g9.gz" | cmp -s - "$f" || fail "pigz -d on stoa of gzip -9: $f"
		on_stoa "$PIGZ" -t "$TMP/g9.gz" || fail "pigz -t on stoa of gzip -9: $f"
	done
	echo "pigz on stoa: $files files at -1, -6, -9 (two threads, 32 KiB blocks): gzip -t and gzip -d agree; pigz -d restores gzip -9"
fi

if [ $failures -ne 0 ]; then
	echo "test_zlib_programs: $failures failure(s)" >&2
	exit 1
fi
echo "test_zlib_programs: all passed"
