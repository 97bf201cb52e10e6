#!/bin/sh
# The igzip command: round trips with gzip and pigz (and zlib through Python, when present) on the
# Calgary and Canterbury corpora, parallel compression, every option and every error case with its
# exit status and no stray files.
#
#   BUILD=build sh tests/test_igzip.sh      (make test runs it so, with the BUILD it built)
#   IGZIP=/path/to/igzip sh tests/test_igzip.sh
#   STOA_CORPUS=/dir/with/calgary/and/canterbury  (default: ../shared/corpus beside the repository)
#
# The corpora are read in place. Everything written goes to a temporary directory that is removed
# on exit. Exit status: 0 when every check passed.

NAME=test_igzip
. "$(dirname "$0")/testlib.sh"
find_igzip
scratch

# ---- corpora -------------------------------------------------------------------------------
files=""
for f in "$STOA_CORPUS"/calgary/* "$STOA_CORPUS"/canterbury/*; do
	[ -f "$f" ] && files="$files $f"
done
if [ -z "$files" ]; then
	echo "test_igzip: no corpus at $STOA_CORPUS; using generated files"
	mkdir gen
	i=0
	while [ $i -lt 6 ]; do
		head -c $((i * 70001)) /dev/urandom >gen/rand$i
		seq 1 $((i * 20000)) >gen/seq$i
		i=$((i + 1))
	done
	files=$(echo "$tmp"/gen/*)
fi
nfiles=0
zlib_py=""
if have python3 && python3 -c 'import gzip' 2>/dev/null; then zlib_py=python3; fi
for f in $files; do
	nfiles=$((nfiles + 1))
	n=$(basename "$f")
	check "$n: igzip | gzip -d" sh -c '"$1" -c "$2" | gzip -dc | cmp -s - "$2"' sh "$IGZIP" "$f"
	check "$n: gzip | igzip -d" sh -c 'gzip -c "$2" | "$1" -dc | cmp -s - "$2"' sh "$IGZIP" "$f"
	check "$n: gzip -9 | igzip -d" sh -c 'gzip -9c "$2" | "$1" -dc | cmp -s - "$2"' sh "$IGZIP" "$f"
	if have pigz; then
		check "$n: igzip | pigz -d" sh -c '"$1" -c "$2" | pigz -dc | cmp -s - "$2"' sh "$IGZIP" "$f"
		check "$n: pigz | igzip -d" sh -c 'pigz -c "$2" | "$1" -dc | cmp -s - "$2"' sh "$IGZIP" "$f"
		check "$n: pigz -1 | igzip -d" sh -c 'pigz -1c "$2" | "$1" -dc | cmp -s - "$2"' sh "$IGZIP" "$f"
	fi
	if [ -n "$zlib_py" ]; then
		check "$n: zlib | igzip -d" sh -c 'python3 -c "import gzip,sys; sys.stdout.buffer.write(gzip.compress(open(sys.argv[1],\"rb\").read()))" "$2" | "$1" -dc | cmp -s - "$2"' sh "$IGZIP" "$f"
	fi
	for l in 0 2 3; do
		check "$n: igzip -$l | gzip -d" sh -c '"$1" -"$3" -c "$2" | gzip -dc | cmp -s - "$2"' sh "$IGZIP" "$f" $l
	done
	check "$n: igzip -T 3 | igzip -d" sh -c '"$1" -T 3 -c "$2" | "$1" -dc | cmp -s - "$2"' sh "$IGZIP" "$f"
done
echo "test_igzip: round trips on $nfiles corpus files (gzip${zlib_py:+, zlib}$(have pigz && echo ', pigz'))"

# ---- parallel compression ------------------------------------------------------------------
# About 3 x the corpora (several 2 MiB blocks per thread), plus sizes around the block size and
# around the quarter blocks a mapped input's last 4 MiB are cut into.
for f in $files; do cat "$f"; done >one
cat one one one >big
head -c 1 big >big_1
: >empty
for sz in 524288 2097151 2097152 2097153 4194304 6291456 6291457; do head -c $sz big >"big_$sz"; done
for t in 1 2 3 4; do
	levels=1
	case $t in 2 | 4) levels="0 1 2 3" ;; esac
	for l in $levels; do
		check "-T $t -$l big | gzip -d" sh -c '"$1" -T "$3" -"$4" -c "$2" | gzip -dc | cmp -s - "$2"' \
			sh "$IGZIP" big $t $l
	done
	for f in empty big_1 big_524288 big_2097151 big_2097152 big_2097153 big_4194304 big_6291456 \
		 big_6291457; do
		check "-T $t $f | gzip -d" sh -c '"$1" -T "$3" -c "$2" | gzip -dc | cmp -s - "$2"' \
			sh "$IGZIP" $f $t
	done
done
# The same bytes for every thread count, at every level, and gzip restores them.
for l in 1 4 6 9; do
	"$IGZIP" -T 1 -$l -c big_6291457 >t1.gz
	"$IGZIP" -T 3 -$l -c big_6291457 >t3.gz
	check "-$l: -T 1 and -T 3 write the same bytes" cmp -s t1.gz t3.gz
	check "-$l -T 3 | gzip -d" sh -c 'gzip -dc t3.gz | cmp -s - big_6291457'
done
rm -f t1.gz t3.gz
"$IGZIP" -T 4 -c big >big.gz
check "-T 4 output passes gzip -t" gzip -t big.gz
check "-T 4 output passes igzip -t" "$IGZIP" -t big.gz
check "-T 2 from a pipe" sh -c 'cat "$2" | "$1" -T 2 | "$1" -d | cmp -s - "$2"' sh "$IGZIP" big
echo "test_igzip: -T 1..4 at levels 0..3 on $(wc -c <big) bytes and block-boundary sizes; -T 1 = -T 3 at -1, -4, -6, -9"

# ---- regular files are mapped, pipes are read ------------------------------------------------
# stdin that is a regular file starts where the caller left its offset (here not on a page
# boundary), and is left at its end like reading would leave it.
tail -c +1001 big_4194304 >big_from1000
for t in 1 2; do
	check "-T $t stdin at offset 1000" sh -c '{ dd bs=1000 skip=1 count=0 2>/dev/null; "$1" -T "$3" -c; } <"$2" | "$1" -dc | cmp -s - big_from1000' \
		sh "$IGZIP" big_4194304 $t
	check "-T $t leaves stdin at its end" sh -c '{ "$1" -T "$3" -c >/dev/null; cat; } <"$2" | cmp -s - empty' \
		sh "$IGZIP" big_2097153 $t
done
"$IGZIP" -n -c big_2097153 >b3.gz
printf 'skip me' >skip7
cat skip7 b3.gz >skip7_b3.gz
check "-d stdin at offset 7" sh -c '{ dd bs=7 skip=1 count=0 2>/dev/null; "$1" -dc; } <skip7_b3.gz | cmp -s - big_2097153' sh "$IGZIP"
check "-d leaves stdin at its end" sh -c '{ "$1" -dc >/dev/null; cat; } <b3.gz | cmp -s - empty' sh "$IGZIP"
check "-d of a mapped file equals -d of a pipe" sh -c '"$1" -dc b3.gz >m.out && cat b3.gz | "$1" -dc >p.out && cmp -s m.out p.out && cmp -s m.out big_2097153' sh "$IGZIP"
# A mapped file is cut into the same blocks whatever the thread count, so its output is too.
for l in 0 1 3; do
	check "-$l: a mapped file gives the same output for -T 1, 2 and 3" sh -c '"$1" -"$3" -T 1 -c "$2" >t1.gz && "$1" -"$3" -T 2 -c "$2" | cmp -s - t1.gz && "$1" -"$3" -T 3 -c "$2" | cmp -s - t1.gz' \
		sh "$IGZIP" big_6291457 $l
done

# ---- files, names, keep and remove -----------------------------------------------------------
mkdir o && cd o || exit 1
cp ../one a
touch -d '2001-02-03 04:05:06' a
expect 0 "compress a" "$IGZIP" a
present a
present a.gz
check "a.gz decompresses" sh -c 'gzip -dc a.gz | cmp -s - ../one'
check "a.gz has a's mtime" test "$(mtime a.gz)" = "$(mtime a)"
check "FNAME stored by default" test "$(byte_at a.gz 3)" = 8
check "MTIME stored by default" test "$(od -An -tu4 -j 4 -N 4 a.gz | tr -d ' ')" = "$(mtime a)"
check "name stored is 'a'" test "$(od -An -c -j 10 -N 2 a.gz | tr -d ' ')" = 'a\0'
expect 2 "existing a.gz without -f" "$IGZIP" a
said "already exists"
check "a.gz untouched" sh -c 'gzip -dc a.gz | cmp -s - ../one'
echo other >b
cp b a
expect 0 "-f overwrites" "$IGZIP" -f a
check "-f output is the new content" sh -c 'gzip -dc a.gz | cmp -s - b'
expect 0 "--force overwrites" "$IGZIP" --force a
cp ../one a
touch -d '2001-02-03 04:05:06' a
expect 0 "--rm" "$IGZIP" -f --rm a
absent a
present a.gz
expect 0 "-d --rm" "$IGZIP" -d --rm a.gz
present a
absent a.gz
same a ../one
check "mtime back on a" test "$(mtime a)" = "$(date -d '2001-02-03 04:05:06' +%s)"
expect 0 "-k keeps" "$IGZIP" -k a
present a
expect 0 "--keep -d -f keeps" "$IGZIP" --keep -d -f a.gz
present a.gz
same a ../one
rm -f a.gz
expect 0 "-n" "$IGZIP" -n a
check "-n: no FNAME" test "$(byte_at a.gz 3)" = 0
check "-n: MTIME 0" test "$(od -An -tu4 -j 4 -N 4 a.gz | tr -d ' ')" = 0
rm -f a.gz
expect 0 "--no-name" "$IGZIP" --no-name -c a
check "--no-name: no FNAME" test "$(byte_at "$tmp/out" 3)" = 0
touch -d '2001-02-03 04:05:06' a
expect 0 "-N" "$IGZIP" -N a
mv a.gz renamed.gz
mv a a.orig
expect 0 "-d -N restores the name" "$IGZIP" -d -N renamed.gz
present a
absent renamed
same a a.orig
check "-d -N restores the mtime" test "$(mtime a)" = "$(date -d '2001-02-03 04:05:06' +%s)"
rm -f a
expect 0 "-d without -N uses the file name" "$IGZIP" -d renamed.gz
present renamed
rm -f renamed
expect 0 "--name -d" "$IGZIP" --name --decompress renamed.gz
present a
rm -f a renamed.gz
mv a.orig a
expect 0 "-S .xz" "$IGZIP" -S .xz a
present a.xz
expect 0 "-d -S .xz" "$IGZIP" -d -f -S .xz a.xz
same a ../one
expect 0 "--suffix _c" "$IGZIP" --suffix _c a
present a_c
rm -f a_c a.xz
expect 0 "-o" "$IGZIP" -o x.out a
check "-o output" sh -c 'gzip -dc x.out | cmp -s - a'
expect 0 "-d -o" "$IGZIP" -d -o y.out x.out
same y.out a
expect 0 "--output from stdin" sh -c '"$1" --output z.gz <a' sh "$IGZIP"
check "stdin -o output" sh -c 'gzip -dc z.gz | cmp -s - a'
rm -f x.out y.out z.gz
for l in 0 1 2 3 4 5 6 7 8 9 fast best; do
	case $l in [0-9]) o=-$l ;; *) o=--$l ;; esac
	expect 0 "$o" "$IGZIP" $o -c a
	check "$o output" sh -c 'gzip -dc <"$1" | cmp -s - a' sh "$tmp/out"
	cp "$tmp/out" "lvl$l.gz"
done
check "-3 not larger than -0" test "$(wc -c <lvl3.gz)" -le "$(wc -c <lvl0.gz)"
check "--best = -9" cmp -s lvl9.gz lvlbest.gz
check "--fast = -1" cmp -s lvl1.gz lvlfast.gz
rm -f lvl*.gz
expect 0 "--threads 2" "$IGZIP" --threads 2 -c ../big
check "--threads 2 output" sh -c 'gzip -dc <"$1" | cmp -s - ../big' sh "$tmp/out"
cd .. || exit 1
no_temp o

# ---- streams, several files, members -------------------------------------------------------
check "stdin to stdout" sh -c 'cat one | "$1" | "$1" -d | cmp -s - one' sh "$IGZIP"
check "- is stdin" sh -c '"$1" -c - <one | "$1" -dc - | cmp -s - one' sh "$IGZIP"
check "--stdout --decompress" sh -c '"$1" --stdout one | "$1" --decompress --stdout | cmp -s - one' sh "$IGZIP"
head -c 1000 one >p1
tail -c 5000 one >p2
cat p1 p2 >p12
check "-c with two files is two members" sh -c '"$1" -c p1 p2 | gzip -dc | cmp -s - p12' sh "$IGZIP"
gzip -c p1 >m1.gz
"$IGZIP" -c p2 >m2.gz
cat m1.gz m2.gz m1.gz >multi.gz
cat p1 p2 p1 >multi.ref
check "multi-member" sh -c '"$1" -dc multi.gz | cmp -s - multi.ref' sh "$IGZIP"
expect 0 "-t multi-member" "$IGZIP" -t multi.gz
cat multi.gz >padded.gz
head -c 1000 /dev/zero >>padded.gz
expect 0 "trailing zeros accepted" "$IGZIP" -dc padded.gz
same "$tmp/out" multi.ref
cat multi.gz >garbage.gz
echo "trailing junk" >>garbage.gz
expect 2 "trailing garbage warns" "$IGZIP" -dc garbage.gz
said "trailing garbage"
same "$tmp/out" multi.ref
expect 2 "-q hides the warning" "$IGZIP" -q -dc garbage.gz
if [ -s "$tmp/err" ]; then bad "-q printed: $(cat "$tmp/err")"; else ok; fi
expect 0 "-dcf passes non-gzip data through" "$IGZIP" -dcf p1
same "$tmp/out" p1
expect 0 "-t" "$IGZIP" -t m1.gz m2.gz
expect 0 "--test -v" "$IGZIP" --test -v m1.gz
said "OK"
expect 0 "-v compress" "$IGZIP" -v -c p1
said "p1:"
expect 0 "--verbose -d" "$IGZIP" --verbose -dc m2.gz
said "m2.gz:"
expect 0 "--quiet" "$IGZIP" --quiet -c p1
expect 0 "-l" "$IGZIP" -l m1.gz m2.gz
check "-l lists m1 sizes" grep -q "^ *$(wc -c <m1.gz) *$(wc -c <p1) .* m1$" "$tmp/out"
check "-l totals" grep -q "(totals)" "$tmp/out"
expect 0 "--list -N" "$IGZIP" --list -N m1.gz
check "-l -N shows the stored name" grep -q " p1$" "$tmp/out"
expect 0 "-lv" "$IGZIP" -lv m1.gz
check "-lv: method, CRC and time columns" grep -q "^method  crc     date  time" "$tmp/out"
check "-lv: the trailer's CRC" grep -q "^defla $(od -An -tx4 -j $(($(wc -c <m1.gz) - 8)) -N4 m1.gz | tr -d ' ') " "$tmp/out"
check "-l from a pipe" sh -c '"$1" -l <m1.gz | grep -q "^ *$(wc -c <m1.gz) *$(wc -c <p1) "' sh "$IGZIP"
# Every optional header field (FEXTRA, FNAME, FCOMMENT, FHCRC), with a good and a bad header CRC.
if [ -n "$zlib_py" ]; then
	python3 - p1 <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
co = zlib.compressobj(6, zlib.DEFLATED, -15)
body = co.compress(data) + co.flush()
hdr = b"\x1f\x8b\x08\x1e" + struct.pack("<I", 1234567890) + b"\x00\x03"
hdr += struct.pack("<H", 6) + b"AB\x02\x00xy" + b"stored.txt\x00" + b"a comment\x00"
trailer = struct.pack("<II", zlib.crc32(data), len(data))
good = hdr + struct.pack("<H", zlib.crc32(hdr) & 0xffff)
bad = hdr + struct.pack("<H", (zlib.crc32(hdr) + 1) & 0xffff)
open("fields.gz", "wb").write(good + body + trailer)
open("badhcrc.gz", "wb").write(bad + body + trailer)
PY
	expect 0 "all header fields" "$IGZIP" -dc fields.gz
	same "$tmp/out" p1
	expect 1 "bad header CRC" "$IGZIP" -t badhcrc.gz
	cp fields.gz f2.gz
	expect 0 "-d -N uses the stored name" "$IGZIP" -d -N f2.gz
	same stored.txt p1
	check "-d -N sets the stored mtime" test "$(mtime stored.txt)" = 1234567890
fi
expect 0 "-h" "$IGZIP" -h
check "-h mentions --rm" grep -q -- "--rm" "$tmp/out"
expect 0 "--help" "$IGZIP" --help
check "--help shows usage" grep -q "Usage" "$tmp/out"
expect 0 "-V" "$IGZIP" -V
check "-V shows igzip" grep -q "igzip" "$tmp/out"
expect 0 "--version" "$IGZIP" --version
expect 1 "an unknown option" "$IGZIP" --no-such-option p1
said "no-such-option"
said "Try 'igzip --help'"
check "an unknown option: two lines, not the usage" test "$(wc -l <"$tmp/err")" -eq 2
expect 0 "-z explicit" "$IGZIP" -z -c p1
expect 0 "--compress explicit" "$IGZIP" --compress -c p1
no_temp .

# ---- errors --------------------------------------------------------------------------------
mkdir e && cd e || exit 1
cp ../m1.gz good.gz
cp ../p1 plain
expect 1 "missing file" "$IGZIP" nosuch
said "nosuch"
expect 1 "missing file -d" "$IGZIP" -d nosuch.gz
said "nosuch.gz"
expect 1 "missing file among good ones" "$IGZIP" -c plain nosuch plain
cat plain plain >pp
check "the good ones are still written" sh -c 'gzip -dc <"$1" | cmp -s - pp' sh "$tmp/out"
# Corrupt: a damaged byte in the middle of the deflate data.
cp ../big.gz corrupt.gz
printf '\377\377\377\377\377\377\377\377' | dd of=corrupt.gz bs=1 seek=100000 conv=notrunc 2>/dev/null
expect 1 "corrupt input" "$IGZIP" -d corrupt.gz
said "corrupt.gz"
absent corrupt
expect 1 "corrupt input -t" "$IGZIP" -t corrupt.gz
# CRC and length fields of the trailer.
cp good.gz badcrc.gz
size=$(wc -c <good.gz)
printf '\125' | dd of=badcrc.gz bs=1 seek=$((size - 8)) conv=notrunc 2>/dev/null
expect 1 "bad CRC" "$IGZIP" -d badcrc.gz
said "crc"
absent badcrc
cp good.gz badlen.gz
printf '\125' | dd of=badlen.gz bs=1 seek=$((size - 3)) conv=notrunc 2>/dev/null
expect 1 "bad length" "$IGZIP" -t badlen.gz
# Truncated: inside the header, the data and the trailer.
for cut in 1 5 12 100 $((size - 5)) $((size - 1)); do
	head -c $cut good.gz >trunc.gz
	expect 1 "truncated at $cut" "$IGZIP" -d trunc.gz
	said "unexpected end of file"
	absent trunc
done
head -c 300000 ../big.gz >trunc.gz
expect 1 "truncated big" "$IGZIP" -d trunc.gz
absent trunc
: >empty.gz
expect 1 "empty .gz" "$IGZIP" -d empty.gz
absent empty
cp plain junk.txt
expect 1 "not gzip" "$IGZIP" -d -S .txt junk.txt
said "not in gzip format"
absent junk
printf '\037\213\010\340\0\0\0\0\0\3' >flags.gz
expect 1 "reserved flags" "$IGZIP" -t flags.gz
printf '\037\213\007\0\0\0\0\0\0\3' >method.gz
expect 1 "unknown method" "$IGZIP" -t method.gz
expect 2 "unknown suffix" "$IGZIP" -d plain
said "unknown suffix"
expect 2 "already has the suffix" "$IGZIP" good.gz
said "already has"
absent good.gz.gz
mkdir adir
expect 2 "directory input" "$IGZIP" adir
said "directory"
expect 1 "output is a directory" "$IGZIP" -f -o adir plain
expect 1 "output directory missing" "$IGZIP" -o nodir/x.gz plain
said "nodir/x.gz"
absent nodir
expect 1 "-o with two inputs" "$IGZIP" -o x.gz plain plain
expect 1 "-o with -c" "$IGZIP" -c -o x.gz plain
expect 1 "bad option" "$IGZIP" --bogus plain
expect 1 "-T 0" "$IGZIP" -T 0 plain
expect 1 "-T x" "$IGZIP" -T x plain
absent plain.gz
absent x.gz
if [ -w /dev/full ]; then
	expect 1 "write error" sh -c '"$1" -c "$2" >/dev/full' sh "$IGZIP" ../big
	said "write failed"
fi
# An output directory the user cannot write to (as root: run as nobody when possible).
mkdir ro
cp plain ro/plain
gzip -c plain >ro/plain2.gz
chmod 555 ro
runas=""
if [ "$(id -u)" = 0 ]; then
	if have setpriv && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		runas="setpriv --reuid=65534 --regid=65534 --clear-groups"
		chmod 755 "$tmp" "$tmp/e"
	else
		runas=skip
	fi
fi
if [ "$runas" != skip ]; then
	expect 1 "unwritable output directory" $runas "$IGZIP" ro/plain
	said "ro/plain.gz"
	expect 1 "unwritable output directory -d" $runas "$IGZIP" -d ro/plain2.gz
	absent ro/plain.gz
	absent ro/plain2
	chmod 600 junk.txt
	expect 1 "unreadable input" $runas "$IGZIP" -c junk.txt
	said "junk.txt"
else
	echo "test_igzip: cannot drop root; unwritable-directory case skipped"
fi
chmod 755 ro
# Terminals: no compressed data written to or read from one without -f.
if have script && script -qc true /dev/null >/dev/null 2>&1; then
	expect 1 "compress to a terminal" script -qec "$IGZIP <plain" /dev/null
	check "terminal refusal message" grep -q "terminal" "$tmp/out"
	expect 1 "decompress from a terminal" script -qec "$IGZIP -d" /dev/null
fi
cd .. || exit 1
no_temp e

# ---- directories (-r) and symbolic links ----------------------------------------------------
mkdir -p r/sub/deep r/other
cp p1 r/a
cp p2 r/sub/b
cp one r/sub/deep/c
cp p1 r/other/d
gzip -c p2 >r/already.gz
ln -s ../p1 r/link
ln -s sub r/dirlink
expect 1 "-r with -o" "$IGZIP" -r -o x.gz r
expect 2 "a directory without -r" "$IGZIP" r
said "use -r"
absent r/a.gz
expect 1 "-r compresses the tree, refuses the link (an error, as gzip -r)" "$IGZIP" -r r
said "symbolic link"
for f in a sub/b sub/deep/c other/d; do present "r/$f.gz"; present "r/$f"; done
absent r/link.gz
absent r/already.gz.gz
absent r/sub/deep/c.gz.gz
check "-r: r/sub/deep/c.gz decompresses" sh -c 'gzip -dc r/sub/deep/c.gz | cmp -s - one'
not_said "already has"
expect 0 "-t -r tests every .gz" "$IGZIP" -t -r -v r
said "r/sub/deep/c.gz"
not_said "r/sub/b:"
expect 0 "-l -r" "$IGZIP" -l -r r
check "-l -r lists five files" grep -q "(totals)" "$tmp/out"
rm r/a r/sub/b r/sub/deep/c r/other/d
expect 0 "-d -r --rm restores the tree" "$IGZIP" -d -r --rm r/sub r/other
check "-d -r: deep file back" cmp -s r/sub/deep/c one
check "-d -r: b back" cmp -s r/sub/b p2
absent r/sub/b.gz
present r/a.gz
expect 1 "a symbolic link is refused (an error, as gzip)" "$IGZIP" r/link
said "symbolic link"
absent r/link.gz
expect 0 "-c follows a symbolic link" "$IGZIP" -c r/link
check "-c of the link is p1" sh -c 'gzip -dc <"$1" | cmp -s - p1' sh "$tmp/out"
expect 0 "-f follows a symbolic link" "$IGZIP" -f r/link
check "-f wrote link.gz" sh -c 'gzip -dc r/link.gz | cmp -s - p1'
no_temp r

finish
