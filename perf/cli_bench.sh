#!/bin/sh
# The command benchmark of make perf_report: gzip, pigz, Debian's igzip and stoa's igzip
# compressing and decompressing the 100 MiB mix, file to file, wall clock, best of CLI_REPS.
#
#   perf/cli_bench.sh OUT.csv DRIVER [STOA_IGZIP]
#
# DRIVER is a stoa_perf build: it writes the mix (STOA_PERF_MIX_OUT), so the commands see the
# same bytes as the igzip cases. STOA_IGZIP is stoa's igzip command; when it is absent the note
# says so and its rows are skipped, likewise for any other command not installed. The CSV rows
# are tool,level,threads,op,seconds,in_bytes,out_bytes; "# note: " lines carry what was skipped
# or failed. The mix lives in a temporary directory that is removed on exit.
set -u
out=$1
driver=$2
stoa_igzip=${3:-}
# Seven: with three, one interrupted run could read 16% slow, and a threaded row's ratio to one
# thread with it.
reps=${CLI_REPS:-7}

# The files live in memory (tmpfs, /dev/shm) when it is there: on the disk, truncating the
# previous run's 100 MiB output took up to a third of the next timed decompression, and each
# output's writeback ran on the same cores during the next run.
# CLI_TMPDIR chooses another place.
dir=${CLI_TMPDIR:-}
if [ -z "$dir" ]; then
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then dir=/dev/shm; else dir=${TMPDIR:-/tmp}; fi
fi
tmp=$(mktemp -d "$dir/stoa_cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
notes=""
note() { notes="${notes}# note: $*
"; echo "cli_bench: $*" >&2; }
note "files in $dir ($(df -P "$dir" 2>/dev/null | awk 'NR == 2 { print $1 }')); each timed run writes a new output file (the previous one is removed untimed)"

if ! STOA_PERF_MIX_OUT="$tmp/mix" "$driver" --list-functions >/dev/null; then
	echo "cli_bench: $driver could not write the mix" >&2
	exit 1
fi
mix_bytes=$(wc -c < "$tmp/mix")

now_ns() { date +%s%N; }

# best_of OUTPUT CMD: runs the command reps times (stdin and stdout redirected by the caller's
# arguments through sh -c), removing OUTPUT before each run, untimed; prints the best wall-clock
# time in seconds.
best_of() {
	best=""
	i=0
	while [ $i -lt "$reps" ]; do
		rm -f "$1"
		t0=$(now_ns)
		sh -c "$2" || return 1
		t1=$(now_ns)
		t=$((t1 - t0))
		if [ -z "$best" ] || [ $t -lt $best ]; then best=$t; fi
		i=$((i + 1))
	done
	awk -v ns="$best" 'BEGIN { printf "%.4f", ns / 1e9 }'
}

rows=""
# run TOOL LEVEL THREADS COMPRESS_CMD DECOMPRESS_CMD (commands read stdin, write stdout)
run() {
	tool=$1 level=$2 threads=$3 ccmd=$4 dcmd=$5
	gz="$tmp/out.gz"
	if ! s=$(best_of "$gz" "$ccmd < '$tmp/mix' > '$gz'"); then
		note "$tool -$level: compression failed"
		return
	fi
	comp=$(wc -c < "$gz")
	rows="$rows$tool,$level,$threads,compress,$s,$mix_bytes,$comp
"
	if ! s=$(best_of "$tmp/back" "$dcmd < '$gz' > '$tmp/back'"); then
		note "$tool -$level: decompression failed"
		return
	fi
	if ! cmp -s "$tmp/back" "$tmp/mix"; then
		note "$tool -$level: decompressed output differs from the input"
		return
	fi
	rows="$rows$tool,$level,$threads,decompress,$s,$comp,$mix_bytes
"
	rm -f "$gz" "$tmp/back"
}

if command -v gzip >/dev/null; then
	run gzip 1 1 "gzip -1 -c" "gzip -d -c"
else
	note "gzip: not installed"
fi
if command -v pigz >/dev/null; then
	run pigz 1 2 "pigz -1 -p 2 -c" "pigz -d -p 2 -c"
else
	note "pigz: not installed"
fi
if [ -x /usr/bin/igzip ]; then
	for level in 0 1 2 3; do
		run igzip-debian "$level" 1 "/usr/bin/igzip -$level -c" "/usr/bin/igzip -d -c"
	done
else
	note "Debian igzip (/usr/bin/igzip, package isal): not installed"
fi
if [ -n "$stoa_igzip" ] && [ -x "$stoa_igzip" ]; then
	for threads in 1 2; do
		for level in 0 1 2 3; do
			run igzip-stoa "$level" "$threads" "$stoa_igzip -$level -T $threads -c" \
				"$stoa_igzip -d -c"
		done
	done
else
	note "stoa igzip: ${stoa_igzip:-(no path)} not built yet, skipped"
fi

{
	echo "# stoa command benchmark: $mix_bytes-byte mix, best of $reps, wall clock"
	printf '%s' "$notes"
	echo "tool,level,threads,op,seconds,in_bytes,out_bytes"
	printf '%s' "$rows"
} > "$out"
