# Sourced by the shell tests (tests/test_*.sh), with $1 the test's name and TMP set:
#  - CORPUS: a directory holding calgary/ (and canterbury/): STOA_CORPUS, ../shared/corpus or
#    /work/shared/corpus, else a few files generated under $TMP/gen;
#  - san_preload LIB: the sanitizer runtimes a sanitizer build (make test SAN=1) of LIB needs
#    loaded first into an uninstrumented program (LD_PRELOAD), or nothing.

san_preload() {
	ldd "$1" | awk '$1 ~ /^lib(asan|ubsan)\.so/ { print $3 }' | sort | tr '\n' ' '
}

CORPUS=""
for dir in "${STOA_CORPUS:-}" ../shared/corpus /work/shared/corpus; do
	if [ -n "$dir" ] && [ -d "$dir/calgary" ]; then
		CORPUS=$dir
		break
	fi
done
if [ -z "$CORPUS" ]; then
	echo "$1: corpus not found (set STOA_CORPUS): using generated files"
	mkdir -p "$TMP/gen/calgary"
	i=0
	while [ $i -lt 3000 ]; do
		echo "line $i of a generated file, with some repeated words words words"
		i=$((i + 1))
	done >"$TMP/gen/calgary/text"
	head -c 300000 /dev/urandom >"$TMP/gen/calgary/random"
	: >"$TMP/gen/calgary/empty"
	CORPUS=$TMP/gen
fi
