# Sourced by the shell tests (tests/test_*.sh): the corpus location, a scratch directory, and the
# checks that count passes and failures. Before sourcing, a test sets NAME (its name in messages).
#
#   STOA_CORPUS=dir    the corpora (calgary/ and canterbury/ under dir); default ../shared/corpus
#                      beside the repository, as the C tests find it (Makefile: STOA_CORPUS_DEFAULT)
#   BUILD=dir          the build whose programs are tested (default build)
#   TMPDIR=dir         where the scratch directory goes (default /tmp)
#   STOA_TEST_WRAPPER  the emulator a cross build's programs run through (scripts/cross.sh)

set -u

BUILD=${BUILD:-build}
REPO=$(cd "$(dirname "$0")/.." && pwd)
STOA_CORPUS=${STOA_CORPUS:-$REPO/../shared/corpus}

pass=0
fail=0
have() { command -v "$1" >/dev/null 2>&1; }

# A scratch directory, removed on exit (and on INT, TERM, HUP); the test runs inside it. A test
# that needs more clean-up defines cleanup_extra before calling this.
scratch() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$NAME.XXXXXX") || exit 1
	trap 'command -v cleanup_extra >/dev/null && cleanup_extra; chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp" ${run_dir:-}' EXIT
	trap 'exit 1' INT TERM HUP
	cd "$tmp" || exit 1
}

# The igzip command of $BUILD (or $IGZIP), as an absolute path in $IGZIP; exits when it is missing.
# A cross build's igzip runs through the emulator in STOA_TEST_WRAPPER: then $IGZIP is a script
# that execs it, in a directory of its own (run_dir, removed with the scratch directory) outside
# the ones the checks list.
find_igzip() {
	IGZIP=${IGZIP:-$BUILD/igzip}
	case $IGZIP in /*) ;; *) IGZIP=$(pwd)/$IGZIP ;; esac
	if [ ! -x "$IGZIP" ]; then
		echo "$NAME: $IGZIP not found (make BUILD=$BUILD programs)" >&2
		exit 1
	fi
	if [ -n "${STOA_TEST_WRAPPER:-}" ]; then
		run_dir=$(mktemp -d "${TMPDIR:-/tmp}/$NAME.run.XXXXXX") || exit 1
		printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$STOA_TEST_WRAPPER" "$IGZIP" >"$run_dir/igzip"
		chmod 755 "$run_dir" "$run_dir/igzip"
		IGZIP=$run_dir/igzip
	fi
}

# CORPUS: $STOA_CORPUS when it holds calgary/, else a few files generated under DIR/gen
# standing in for it.
corpus_or_generated() {
	CORPUS=$STOA_CORPUS
	[ -d "$CORPUS/calgary" ] && return
	echo "$NAME: corpus not found (set STOA_CORPUS): using generated files"
	mkdir -p "$1/gen/calgary"
	i=0
	while [ $i -lt 3000 ]; do
		echo "line $i of a generated file, with some repeated words words words"
		i=$((i + 1))
	done >"$1/gen/calgary/text"
	head -c 300000 /dev/urandom >"$1/gen/calgary/random"
	: >"$1/gen/calgary/empty"
	CORPUS=$1/gen
}

# The sanitizer runtimes a sanitizer build (make test SAN=1) of library LIB needs loaded first
# into an uninstrumented program (for LD_PRELOAD), or nothing.
san_preload() {
	ldd "$1" 2>/dev/null | awk '$1 ~ /^lib(asan|ubsan)\.so/ { print $3 }' | sort | tr '\n' ' '
}

ok() { pass=$((pass + 1)); }
bad() {
	echo "FAIL: $*"
	[ -s "$tmp/err" ] && sed 's/^/    stderr: /' "$tmp/err" | head -5
	fail=$((fail + 1))
}

# A sanitizer build exits 1 on a finding, like an error: the report in stderr tells them apart.
sanitizer_report() { grep -q -e 'Sanitizer' -e 'runtime error:' "$tmp/err"; }
# True when PROGRAM was built with a sanitizer (slow paths may be cut short).
sanitized() { nm "$1" 2>/dev/null | grep -q -e __asan_init -e __ubsan_handle; }
# expect STATUS DESCRIPTION COMMAND...: COMMAND exits with STATUS; its stdout is kept in $tmp/out
# and its stderr in $tmp/err.
expect() {
	want=$1
	desc=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if sanitizer_report; then
		bad "$desc: sanitizer report"
	elif [ "$rc" -eq "$want" ]; then
		ok
	else
		bad "$desc: exit $rc, want $want"
	fi
}
# check DESCRIPTION COMMAND...: COMMAND succeeds.
check() {
	desc=$1
	shift
	if "$@" 2>"$tmp/err" && ! sanitizer_report; then ok; else bad "$desc"; fi
}
# The last stderr mentions TEXT.
said() {
	if grep -q -- "$1" "$tmp/err"; then ok; else bad "stderr lacks '$1'"; fi
}
# The last stderr does not mention TEXT.
not_said() {
	if grep -q -- "$1" "$tmp/err"; then bad "stderr has '$1'"; else ok; fi
}
# No temporary output files of igzip anywhere under DIR.
no_temp() {
	if find "$1" -name '.*.igzip-*' | grep -q .; then
		bad "temporary file left in $1: $(find "$1" -name '.*.igzip-*')"
	else
		ok
	fi
}
absent() { if [ -e "$1" ] || [ -L "$1" ]; then bad "$1 should not exist"; else ok; fi; }
present() { if [ -e "$1" ]; then ok; else bad "$1 should exist"; fi; }
same() { if cmp -s "$1" "$2"; then ok; else bad "$1 and $2 differ"; fi; }
# Byte N (0-based) of FILE, in decimal.
byte_at() { od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' '; }
mtime() { stat -c %Y "$1"; }

# The closing line, and the exit status: 0 when every check passed.
finish() {
	echo "$NAME: $pass checks passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}
