#!/bin/sh
# The drop-in test: Debian's igzip command (package isal, linked to libisal.so.2) run on stoa's
# compat library through LD_LIBRARY_PATH.
#
#  1. the dynamic linker really resolves libisal.so.2 to $BUILD/compat/libisal.so.2 (ldd), the
#     process really maps it (LD_DEBUG), and that library is stoa's (it exports stoa_version);
#  2. every corpus file compressed by igzip -0..-3 on stoa is restored by gzip -d, and by igzip -d
#     on stoa;
#  3. files made by gzip -9 and by pigz are decompressed by igzip -d on stoa, and igzip -t accepts
#     them; a corrupted file is refused.
#
# run-tests calls it with BUILD set (default: build). STOA_CORPUS=dir overrides the corpus
# location (a directory holding calgary/ and canterbury/; default ../shared/corpus beside the
# repository). Exits non-zero on any failure, after printing what failed.
#
# In a cross run (scripts/cross.sh) the igzip is the target's own Debian package, unpacked in the
# sysroot that QEMU_LD_PREFIX names, and runs through STOA_TEST_WRAPPER; ldd cannot read a
# foreign binary, so there the process's own loader (LD_DEBUG) alone says what it mapped. Debian
# builds no isal package for some targets (i386): then there is no binary to test.

NAME=test_dropin
. "$(dirname "$0")/testlib.sh"
RUN=${STOA_TEST_WRAPPER:-}
if [ -n "$RUN" ]; then
	IGZIP=${IGZIP:-${QEMU_LD_PREFIX:-}/usr/bin/igzip}
	if [ ! -x "$IGZIP" ]; then
		echo "test_dropin: no igzip command for this target in Debian: skipped"
		exit 0
	fi
else
	IGZIP=${IGZIP:-/usr/bin/igzip}
fi
failures=0

fail() {
	echo "test_dropin: FAIL: $*" >&2
	failures=$((failures + 1))
}

if [ ! -x "$IGZIP" ]; then
	echo "test_dropin: FAIL: $IGZIP not found (Debian package isal)" >&2
	exit 1
fi
for tool in gzip pigz cmp; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "test_dropin: FAIL: $tool not found" >&2
		exit 1
	fi
done

COMPAT_DIR=$(cd "$BUILD/compat" 2>/dev/null && pwd)
if [ -z "$COMPAT_DIR" ] || [ ! -f "$COMPAT_DIR/libisal.so.2" ]; then
	echo "test_dropin: FAIL: $BUILD/compat/libisal.so.2 is missing (make BUILD=$BUILD lib)" >&2
	exit 1
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/stoa_dropin.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
corpus_or_generated "$TMP"

# A sanitizer build (make test SAN=1) of the compat library needs its runtimes loaded first
# into the uninstrumented igzip; igzip's own leaks at exit are not ours to report.
SAN_PRELOAD=$(san_preload "$COMPAT_DIR/libisal.so.2")
if [ -n "$SAN_PRELOAD" ]; then
	echo "sanitizer build: igzip runs with LD_PRELOAD=$SAN_PRELOAD"
fi

# Run igzip on stoa's library.
stoa_igzip() {
	LD_PRELOAD="$SAN_PRELOAD" ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
		LD_LIBRARY_PATH="$COMPAT_DIR" $RUN "$IGZIP" "$@"
}

# 1. Which library igzip loads.
before=$failures
if [ -z "$RUN" ]; then
	resolved=$(LD_LIBRARY_PATH="$COMPAT_DIR" ldd "$IGZIP" | awk '$1 == "libisal.so.2" { print $3 }')
	if [ "$resolved" != "$COMPAT_DIR/libisal.so.2" ]; then
		fail "ldd resolves libisal.so.2 to '$resolved', not $COMPAT_DIR/libisal.so.2"
	fi
fi
echo hello | LD_DEBUG=files stoa_igzip -c >/dev/null 2>"$TMP/ld.log"
if ! grep -q "calling init: $COMPAT_DIR/libisal.so.2" "$TMP/ld.log"; then
	fail "the igzip process did not load $COMPAT_DIR/libisal.so.2 (LD_DEBUG=files)"
fi
if grep -q "/usr/lib.*/libisal.so" "$TMP/ld.log"; then
	fail "the igzip process also mapped the system's libisal"
fi
if ! nm -D --defined-only "$COMPAT_DIR/libisal.so.2" | grep -q " stoa_version$"; then
	fail "$COMPAT_DIR/libisal.so.2 does not export stoa_version: it is not stoa's"
fi
if [ $failures -eq $before ]; then
	echo "igzip resolves and loads $COMPAT_DIR/libisal.so.2 (stoa's: exports stoa_version)"
fi

# 2. Compress with igzip on stoa, decompress with gzip and with igzip on stoa.
nfiles=0
nruns=0
in_bytes=0
for f in "$CORPUS"/calgary/* "$CORPUS"/canterbury/*; do
	[ -f "$f" ] || continue
	nfiles=$((nfiles + 1))
	size=$(wc -c <"$f")
	in_bytes=$((in_bytes + size))
	for level in 0 1 2 3; do
		out="$TMP/c.$level.gz"
		if ! stoa_igzip -$level -c "$f" >"$out"; then
			fail "igzip -$level -c $f exited non-zero on stoa"
			continue
		fi
		if ! gzip -dc <"$out" >"$TMP/d" || ! cmp -s "$f" "$TMP/d"; then
			fail "gzip -d does not restore $f compressed by igzip -$level on stoa"
		fi
		if ! stoa_igzip -dc <"$out" >"$TMP/d2" || ! cmp -s "$f" "$TMP/d2"; then
			fail "igzip -d on stoa does not restore $f compressed by igzip -$level on stoa"
		fi
		nruns=$((nruns + 1))
	done
done
if [ $nfiles -eq 0 ]; then
	fail "no input files under $CORPUS"
fi
echo "igzip -0..-3 on stoa: $nruns streams from $nfiles files ($in_bytes bytes each level), restored by gzip -d and igzip -d"

# igzip's own file handling: -N keeps the name, -k the source, the default suffix .gz.
one=$(ls "$CORPUS"/calgary/* | head -n 1)
cp "$one" "$TMP/named"
if ! stoa_igzip -q -1 -N -k "$TMP/named" || [ ! -f "$TMP/named.gz" ] || [ ! -f "$TMP/named" ]; then
	fail "igzip -1 -N -k $TMP/named did not make named.gz beside the source"
elif ! gzip -lv "$TMP/named.gz" >/dev/null 2>&1 || ! gzip -dc "$TMP/named.gz" | cmp -s - "$one"; then
	fail "gzip cannot read named.gz made by igzip -N on stoa"
elif ! gzip -dcN "$TMP/named.gz" >/dev/null || [ "$(gzip -lN "$TMP/named.gz" | awk 'NR == 2 { print $4 }')" != "$TMP/named" ]; then
	fail "the gzip header written by igzip -N on stoa does not carry the file name"
fi

# 3. Decompress gzip -9 and pigz output with igzip on stoa.
ndec=0
for f in "$CORPUS"/calgary/* "$CORPUS"/canterbury/*; do
	[ -f "$f" ] || continue
	gzip -9 -c "$f" >"$TMP/g9.gz"
	pigz -c -p 2 -b 128 "$f" >"$TMP/pz.gz"
	for src in g9 pz; do
		if ! stoa_igzip -dc "$TMP/$src.gz" >"$TMP/d" || ! cmp -s "$f" "$TMP/d"; then
			fail "igzip -d on stoa does not restore $f from $src.gz"
		fi
		if ! stoa_igzip -t "$TMP/$src.gz" 2>/dev/null; then
			fail "igzip -t on stoa rejects $src.gz made from $f"
		fi
		ndec=$((ndec + 1))
	done
done
# Several gzip members in one file (gzip -d concatenates them).
gzip -c "$one" >"$TMP/multi.gz"
pigz -c "$one" >>"$TMP/multi.gz"
cat "$one" "$one" >"$TMP/multi.expect"
if ! gzip -dc "$TMP/multi.gz" | cmp -s - "$TMP/multi.expect"; then
	fail "gzip itself does not decode the two-member file (test setup)"
fi
if ! stoa_igzip -dc "$TMP/multi.gz" >"$TMP/d" || ! cmp -s "$TMP/multi.expect" "$TMP/d"; then
	# Debian's igzip decodes members one after the other; so must it on stoa.
	if LD_LIBRARY_PATH= $RUN "$IGZIP" -dc "$TMP/multi.gz" 2>/dev/null | cmp -s - "$TMP/multi.expect"; then
		fail "igzip -d on stoa does not decode a two-member gzip file (it does on Debian's libisal)"
	fi
fi
echo "igzip -d and -t on stoa: $ndec files made by gzip -9 and pigz, and a two-member file"

# A corrupted file must be refused, on stoa as on ISA-L.
gzip -9 -c "$one" >"$TMP/bad.gz"
size=$(wc -c <"$TMP/bad.gz")
printf '\377\377\377\377' | dd of="$TMP/bad.gz" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
printf '\001\002\003\004' | dd of="$TMP/bad.gz" bs=1 seek=$((size - 8)) conv=notrunc 2>/dev/null
if stoa_igzip -t "$TMP/bad.gz" 2>/dev/null; then
	fail "igzip -t on stoa accepts a corrupted file"
fi
echo "igzip -t on stoa refuses a corrupted file"

if [ $failures -ne 0 ]; then
	echo "test_dropin: $failures failure(s)" >&2
	exit 1
fi
echo "test_dropin: all passed"
exit 0
