#!/bin/sh
# The command benchmark of make perf_report: gzip, pigz, Debian's igzip and stoa's igzip
# compressing and decompressing the 100 MiB mix, wall clock, best of CLI_REPS. The igzip commands
# also run on each path a user meets: stdin = the mix on stdin to a file (a regular file, which the
# commands map), file = `-o OUT FILE`, stdout = `-c FILE > /dev/null`, pipe = `cat | igzip -c |
# cat`, and -T 2 on the stdout path; CLI_QUICK=1 (make perf_report's default) runs levels 1 and 3
# of the igzip commands and three repetitions.
#
#   perf/cli_bench.sh OUT.csv DRIVER [STOA_IGZIP]
#
# DRIVER is a stoa_perf build: it writes the mix (STOA_PERF_MIX_OUT), so the commands see the
# same bytes as the igzip cases. STOA_IGZIP is stoa's igzip command; when it is absent the note
# says so and its rows are skipped, likewise for any other command not installed. The CSV rows
# are tool,level,threads,op,path,seconds,in_bytes,out_bytes,cpu_seconds; "# note: " lines carry
# what was skipped or failed. The mix lives in a temporary directory that is removed on exit.
set -u
out=$1
driver=$2
stoa_igzip=${3:-}
# Seven: with three, one interrupted run could read 16% slow, and a threaded row's ratio to one
# thread with it.
quick=${CLI_QUICK:-}
if [ -n "$quick" ]; then
	reps=${CLI_REPS:-3}
	levels="1 3"
else
	reps=${CLI_REPS:-7}
	levels="0 1 2 3"
fi

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
# arguments through sh -c), removing OUTPUT (when named) before each run, untimed; prints the best wall-clock
# time in seconds and, after a comma, the least CPU time (user + system of the whole command line,
# from GNU time when it is installed, else empty): on a shared machine the wall clock mostly
# measures the wait for a core, the CPU time the work.
best_of() {
	best=""
	cpu=""
	i=0
	while [ $i -lt "$reps" ]; do
		[ -z "$1" ] || rm -f "$1"
		t0=$(now_ns)
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f '%U %S' -o "$tmp/cpu" sh -c "$2" || return 1
		else
			sh -c "$2" || return 1
		fi
		t1=$(now_ns)
		t=$((t1 - t0))
		if [ -z "$best" ] || [ $t -lt $best ]; then best=$t; fi
		if [ -x /usr/bin/time ]; then
			c=$(awk '{ printf "%.2f", $1 + $2 }' "$tmp/cpu")
			cpu=$(awk -v a="$cpu" -v b="$c" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
		fi
		i=$((i + 1))
	done
	awk -v ns="$best" -v cpu="$cpu" 'BEGIN { printf "%.4f,%s", ns / 1e9, cpu }'
}

rows=""
# run TOOL LEVEL THREADS COMPRESS_CMD DECOMPRESS_CMD (commands read stdin, write stdout): file
# to file; DECOMPRESS_CMD empty: compression only.
run() {
	tool=$1 level=$2 threads=$3 ccmd=$4 dcmd=$5
	gz="$tmp/out.gz"
	if ! s=$(best_of "$gz" "$ccmd < '$tmp/mix' > '$gz'"); then
		note "$tool -$level: compression failed"
		return
	fi
	comp=$(wc -c < "$gz")
	rows="$rows$tool,$level,$threads,compress,stdin,${s%,*},$mix_bytes,$comp,${s#*,}
"
	[ -n "$dcmd" ] || return
	if ! s=$(best_of "$tmp/back" "$dcmd < '$gz' > '$tmp/back'"); then
		note "$tool -$level: decompression failed"
		return
	fi
	if ! cmp -s "$tmp/back" "$tmp/mix"; then
		note "$tool -$level: decompressed output differs from the input"
		return
	fi
	rows="$rows$tool,$level,$threads,decompress,stdin,${s%,*},$comp,$mix_bytes,${s#*,}
"
	rm -f "$gz" "$tmp/back"
}

# paths TOOL LEVEL CMD: compression by CMD (which takes -c, -o and a file name) from a file to a
# file, to /dev/null, from a pipe to a pipe and on two threads to /dev/null; the output size is
# the stdin path's.
paths() {
	tool=$1 level=$2 cmd=$3
	comp=$($cmd -c < "$tmp/mix" | wc -c)
	if s=$(best_of "$tmp/out.gz" "$cmd -k -f -o '$tmp/out.gz' '$tmp/mix'"); then
		rows="$rows$tool,$level,1,compress,file,${s%,*},$mix_bytes,$comp,${s#*,}
"
	else
		note "$tool -$level: compression from a file to a file failed"
	fi
	rm -f "$tmp/out.gz"
	if s=$(best_of "" "$cmd -c '$tmp/mix' > /dev/null"); then
		rows="$rows$tool,$level,1,compress,stdout,${s%,*},$mix_bytes,$comp,${s#*,}
"
	else
		note "$tool -$level: compression to stdout failed"
	fi
	if s=$(best_of "" "cat '$tmp/mix' | $cmd -c | cat > /dev/null"); then
		rows="$rows$tool,$level,1,compress,pipe,${s%,*},$mix_bytes,$comp,${s#*,}
"
	else
		note "$tool -$level: compression from a pipe to a pipe failed"
	fi
	if s=$(best_of "" "$cmd -T 2 -c '$tmp/mix' > /dev/null"); then
		rows="$rows$tool,$level,2,compress,stdout,${s%,*},$mix_bytes,$comp,${s#*,}
"
	else
		note "$tool -$level: compression on two threads failed"
	fi
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
have_debian=
[ -x /usr/bin/igzip ] && have_debian=y
have_stoa=
[ -n "$stoa_igzip" ] && [ -x "$stoa_igzip" ] && have_stoa=y
[ -n "$have_debian" ] || note "Debian igzip (/usr/bin/igzip, package isal): not installed"
# Debian's and stoa's commands level by level, one after the other, so that both meet the same
# load. Decompression is single-threaded: it runs once per level.
for level in $levels; do
	if [ -n "$have_debian" ]; then
		run igzip-debian "$level" 1 "/usr/bin/igzip -$level -c" "/usr/bin/igzip -d -c"
	fi
	if [ -n "$have_stoa" ]; then
		run igzip-stoa "$level" 1 "$stoa_igzip -$level -c" "$stoa_igzip -d -c"
	fi
	if [ -n "$have_debian" ]; then
		paths igzip-debian "$level" "/usr/bin/igzip -$level"
	fi
	if [ -n "$have_stoa" ]; then
		paths igzip-stoa "$level" "$stoa_igzip -$level"
	fi
done
if [ -z "$have_stoa" ]; then
	note "stoa igzip: ${stoa_igzip:-(no path)} not built yet, skipped"
fi

{
	echo "# stoa command benchmark: $mix_bytes-byte mix, best of $reps, wall clock"
	printf '%s' "$notes"
	echo "tool,level,threads,op,path,seconds,in_bytes,out_bytes,cpu_seconds"
	printf '%s' "$rows"
} > "$out"
