#!/bin/sh
# Runs test programs, test scripts and examples JOBS at a time, prints each one's output in one
# piece when it ends (so parallel runs do not interleave), keeps everything in LOG, and ends with
# the one-line summary. Exit status 1 if any of them failed. STOA_TEST_WRAPPER in the environment
# (an emulator: qemu-aarch64) runs the programs of a cross build.
#
#   tests/run_tests.sh LOG JOBS BUILD test...     (make run-tests calls it so)
#
# The slowest ones are started first when they are named in STOA_TEST_FIRST (space-separated
# basenames), so that one long test does not run alone at the end.
set -u
log=$1 jobs=$2 build=$3
shift 3
work=$(mktemp -d "${TMPDIR:-/tmp}/stoa-tests.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
: >"$log"

# The order: those named in STOA_TEST_FIRST, then the rest as given.
for t in "$@"; do
	for f in ${STOA_TEST_FIRST:-}; do
		[ "${t##*/}" = "$f" ] && echo "$t"
	done
done >"$work/list"
for t in "$@"; do grep -qxF "$t" "$work/list" || echo "$t"; done >>"$work/list"

# shellcheck disable=SC2016
xargs -P "$jobs" -I{} sh -c '
	t=$1 work=$2 log=$3
	out=$work/$(echo "$t" | tr / _)
	start=$(date +%s)
	case "$t" in
	*.sh) BUILD="$4" sh "$t" >"$out" 2>&1 ;;
	*) ${STOA_TEST_WRAPPER:-} "$t" >"$out" 2>&1 ;;
	esac || echo "${t##*/}" >>"$work/failed"
	secs=$(($(date +%s) - start))
	flock "$work/lock" sh -c "{ echo \"== \$1 (\$4 s)\"; cat \"\$2\"; } | tee -a \"\$3\"" \
		sh "$t" "$out" "$log" "$secs"
' sh {} "$work" "$log" "$build" <"$work/list"

failed=$(cat "$work/failed" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')
awk -v progs="$(wc -l <"$work/list")" -v failed="$failed" '
	match($0, /[0-9]+ test\(s\) run/) { checks += substr($0, RSTART) + 0 }
	match($0, /FAILED  \] [0-9]+ test/) { bad += substr($0, RSTART + 10) + 0 }
	match($0, /[0-9]+ checks passed, [0-9]+ failed/) {
		split(substr($0, RSTART, RLENGTH), w, " "); checks += w[1] + w[4]; bad += w[4] }
	END { printf "stoa: %d programs, %d checks, %d failed checks%s\n", progs, checks, bad,
		failed == "" ? "; all passed" : "; FAILED: " failed }' "$log"
[ -z "$failed" ]
