#!/bin/sh
# make perf_report: runs every driver build function by function, then the igzip commands, and
# writes the report. perf/perf.mk calls it with the settings in the environment:
#
#   DIR                 where the CSV files go (emptied first)
#   OUT                 the report's base name (OUT.txt, OUT.html)
#   DRIVERS             "path:name ..." : the stoa build first, then the ISA-L builds found
#   WRITER, IGZIP_CMD   the report writer; stoa's igzip command (may be empty)
#   NOTES               "text;text": what could not be measured
#   FULL                1: every variant, size and level, two rounds (else the quick selection)
#   PERF_TIME, PERF_ROUNDS, PERF_ARGS, PERF_COLD, PERF_THREADS, PERF_IGZIP_TIME,
#   PERF_IGZIP_MIX_TIME, PERF_CLI, PERF_ROUNDTRIP, STOA_CORPUS, HOST, DATE   as perf/perf.mk
#                       describes them
#   ISAL_UPSTREAM_SO    upstream ISA-L's libisal.so.2, for the paired round trip (may be empty)
#
# Each function runs in every driver before the next function starts, so the libraries meet the
# same load on a shared machine. Progress goes to stderr with the time left, estimated from the
# rows still to run at the pace of those done (a row of a large igzip input counts for more).
set -u

status=0
stoa=${DRIVERS%% *}
stoa=${stoa%%:*}
quick=
[ "${FULL:-0}" = 1 ] || quick=--quick
rm -f "$DIR"/*.csv "$DIR"/*.list "$DIR"/plan
mkdir -p "$DIR"

for d in $DRIVERS; do
	"${d%%:*}" --list-functions | awk '!seen[$0]++' > "$DIR/${d##*:}.list"
done
funcs=$(cat "$DIR/stoa.list")
zfuncs=" $("$stoa" --list-functions --filter igzip/ | awk '!seen[$0]++' | tr '\n' ' ')"
zmix=$("$stoa" --list-functions --filter " mix level" | awk '!seen[$0]++')
zcorpus=y
if [ ! -d "$STOA_CORPUS/calgary" ] && [ ! -d "$STOA_CORPUS/canterbury" ]; then
	zcorpus=
	NOTES="${NOTES:+$NOTES;}igzip corpora: none at STOA_CORPUS=$STOA_CORPUS (only the generated mix measured)"
fi
export STOA_CORPUS

# The steps, one a line: weight, then the environment and the driver arguments. A step runs in
# every driver that has its function (the name after '=' in --filter, when there is one).
# A step without rows (weight 0: a peer this machine lacks, zlib-ng) is left out: the driver
# refuses a filter that selects nothing.
plan() {
	[ "$1" = 0 ] || printf '%s\t%s\t%s\t%s\n' "$1" "${2:--}" "$3" "$4" >> "$DIR/plan"
}

# Rows a selection gives in the stoa driver (its peers included), weighted by input size: a row
# costs its time, or its calls when one call of a large input outlasts it. Deflate levels above 3
# cost more per byte than level 1 (CPU time of stoa's igzip on a 50 MB mix: 6, 10 and 64 times
# at levels 4, 6 and 9), a fifth of that in the weights' units, which a row's fixed cost
# dominates.
weigh() {
	env $1 "$stoa" --list $quick --filter "$2" $3 2>/dev/null | awk -v reps="$4" '
		function bytes(s) {
			if (s ~ /MiB$/) return s * 1048576
			if (s ~ /KiB$/) return s * 1024
			return s + 0
		}
		BEGIN { split("1.2 1.6 2 3.2 6 12.8", cost) }
		/^[^ ]/ {
			f = 1
			if (match($0, /level=[0-9]+/)) {
				l = substr($0, RSTART + 6, RLENGTH - 6) + 0
				if (l > 3) f = cost[l - 3]
			}
		}
		/^  sizes:/ { n = 0; for (i = 2; i <= NF; i++) sz[++n] = bytes($i) }
		/^  runs:/ {
			for (i = 1; i <= n; i++) w += f * (NF - 1) * (1 + reps * sz[i] / 25e6)
		}
		END { printf "%.0f\n", w * 1.0 }'
}

ndrivers=$(echo $DRIVERS | wc -w)
round=0
while [ $round -lt "$PERF_ROUNDS" ]; do
	round=$((round + 1))
	for f in $funcs; do
		case "$zfuncs" in
		*" $f "*)
			[ -n "$zcorpus" ] || continue
			e="STOA_PERF_IGZIP_MIX=skip STOA_PERF_IGZIP_HIGH=skip"
			w=$(weigh "$e" "=$f" "$PERF_IGZIP_TIME" 14)
			plan "$((w * ndrivers / 2))" "$e" "$PERF_IGZIP_TIME" "=$f" ;;
		*)
			w=$(weigh "" "=$f" "$PERF_TIME" 0)
			plan "$((w * ndrivers / 2))" "" "$PERF_TIME" "=$f" ;;
		esac
	done
	for f in $zmix; do
		w=$(weigh STOA_PERF_IGZIP_MIX=only "=$f" "$PERF_IGZIP_MIX_TIME" 3)
		plan "$((w * ndrivers / 2))" STOA_PERF_IGZIP_MIX=only "$PERF_IGZIP_MIX_TIME" "=$f"
	done
	# stoa's deflate levels above 3 on the other inputs: slow calls, timed as the mix is.
	if [ -n "$zcorpus" ]; then
		e="STOA_PERF_IGZIP_MIX=skip STOA_PERF_IGZIP_HIGH=only"
		w=$(weigh "$e" "=isal_deflate_stateless" "$PERF_IGZIP_MIX_TIME" 3)
		[ "$w" = 0 ] || plan "$w" "$e" "$PERF_IGZIP_MIX_TIME" "=isal_deflate_stateless"
	fi
done
# Cold caches and threads: a pattern naming one case runs as it is, a module or function name
# runs function by function.
extra_steps() {
	mode=$1 patterns=$2
	old_ifs=$IFS
	IFS=,
	for p in $patterns; do
		IFS=$old_ifs
		case "$p" in
		*" "*) list="$p" ;;
		*) list=$("$stoa" --list-functions --filter "$p" | awk '!seen[$0]++ { print "=" $0 }') ;;
		esac
		echo "$list" | while read -r sel; do
			[ -n "$sel" ] || continue
			w=$(weigh "" "$sel" "$PERF_TIME" 0)
			plan "$((w * ndrivers / 2 + 1))" "" "$PERF_TIME $mode" "$sel"
		done
		IFS=,
	done
	IFS=$old_ifs
}
[ -z "$PERF_COLD" ] || extra_steps --cold "$PERF_COLD"
for t in $PERF_THREADS; do
	extra_steps "--threads $t" "$PERF_THREADS_CASES"
done

total=$(awk -F'\t' '{ w += $1 } END { print w + 0 }' "$DIR/plan")
cli_weight=0
if [ "$PERF_CLI" = y ]; then
	# The commands: about a quarter of the rest.
	cli_weight=$((total / 4 + 1))
	total=$((total + cli_weight))
fi
start=$(date +%s)
done_w=0

# progress WEIGHT_DONE TEXT
progress() {
	now=$(date +%s)
	awk -v d="$1" -v t="$total" -v e="$((now - start))" -v what="$2" 'BEGIN {
		pct = t > 0 ? 100 * d / t : 0
		left = d > 0 ? e * (t - d) / d : -1
		msg = sprintf("perf_report: %3d%% %dm%02ds", pct, e / 60, e % 60)
		if (left >= 0 && d > 0)
			msg = msg sprintf(", about %dm%02ds left", left / 60, left % 60)
		printf "%s: %s\n", msg, what > "/dev/stderr"
	}'
}

# Run one plan step in every driver that has its function.
tab=$(printf '\t')
while IFS="$tab" read -r weight envs timing sel; do
	progress "$done_w" "$sel $(echo "$timing" | grep -o -- '--cold\|--threads [0-9]*')"
	# The function a step names: after '=', or the first word of a case's name with its
	# parameters; a driver without it is skipped.
	case "$sel" in
	=*) fname=${sel#=} ;;
	*) fname=${sel%% *} ;;
	esac
	for d in $DRIVERS; do
		exe=${d%%:*} name=${d##*:}
		grep -qx "$fname" "$DIR/$name.list" || continue
		# Levels above 3 are stoa's own.
		case "$envs" in *IGZIP_HIGH=only*) [ "$name" = stoa ] || continue ;; esac
		[ "$envs" != - ] || envs=
		# shellcheck disable=SC2086
		env $envs "$exe" --csv --filter "$sel" $timing $quick $PERF_ARGS \
			< /dev/null >> "$DIR/$name.csv" || status=1
	done
	done_w=$((done_w + weight))
done < "$DIR/plan"

# The round trip (stoa_perf --roundtrip): every driver with igzip compresses and inflates its own
# output once, one driver after the other.
roundtrip=
if [ -n "$zcorpus" ] && [ "${PERF_ROUNDTRIP:-y}" = y ]; then
	progress "$done_w" "round trip (--roundtrip)"
	for d in $DRIVERS; do
		exe=${d%%:*} name=${d##*:}
		grep -qx isal_inflate_stateless "$DIR/$name.list" || continue
		"$exe" --roundtrip $quick < /dev/null >> "$DIR/roundtrip.csv" || status=1
	done
	# The paired form against upstream ISA-L's shared library, where its tree has one.
	if [ -n "${ISAL_UPSTREAM_SO:-}" ] && [ -f "$ISAL_UPSTREAM_SO" ]; then
		"$stoa" --roundtrip-pair "$ISAL_UPSTREAM_SO" $quick < /dev/null \
			>> "$DIR/roundtrip.csv" || status=1
	fi
	roundtrip="--roundtrip $DIR/roundtrip.csv"
fi

# The CPU classes (perf/class_bench.sh): stoa, upstream ISA-L and isa-l_crypto on the code each
# runs on every x86 class this CPU can run; one round (FULL=1: two). PERF_CLASSES=n skips it.
classes=
if [ "${PERF_CLASSES:-y}" = y ]; then
	progress "$done_w" "CPU classes (perf/class_bench.sh)"
	up=- cr=-
	for d in $DRIVERS; do
		case ${d##*:} in upstream) up=${d%%:*} ;; crypto) cr=${d%%:*} ;; esac
	done
	if CLASS_ROUNDS=${CLASS_ROUNDS:-$([ -n "$quick" ] && echo 1 || echo 2)} \
		perf/class_bench.sh "$DIR/classes" "$stoa" "$up" "$cr" > "$DIR/classes.txt" &&
		awk -v csv=1 -f perf/class_common.awk -f perf/class_table.awk "$DIR/classes/classes.txt" \
			"$DIR"/classes/*.csv > "$DIR/classes.csv"; then
		classes="--classes $DIR/classes.csv"
	else
		NOTES="${NOTES:+$NOTES;}CPU classes: perf/class_bench.sh failed"
	fi
	# The same cells paired: both libraries in one process in rotating turns
	# (CLASS_PAIR), which resolves a few percent where separate processes cannot; a table of
	# its own in the report ("ISA-L paired"). PERF_CLASSES_PAIR=n skips it.
	if [ -n "$classes" ] && [ "${PERF_CLASSES_PAIR:-y}" = y ] && [ -f "${STOA_SO:-}" ]; then
		progress "$done_w" "CPU classes, paired (perf/class_bench.sh, CLASS_PAIR)"
		if CLASS_ROUNDS=1 CLASS_PAIR="$STOA_SO" CLASS_RECHECK=${CLASS_RECHECK:-0.98} \
			CLASS_PAIR_TIME=${CLASS_PAIR_TIME:-$([ -n "$quick" ] && echo "--time 100 --reps 60" || echo "--time 200 --reps 200")} \
			perf/class_bench.sh "$DIR/classes_pair" "$stoa" "$up" "$cr" > "$DIR/classes_pair.txt" &&
			awk -v csv=1 -f perf/class_common.awk -f perf/class_pair_table.awk \
				"$DIR/classes_pair/classes.txt" "$DIR/classes_pair/pair.csv" >> "$DIR/classes.csv"; then
			:
		else
			NOTES="${NOTES:+$NOTES;}CPU classes paired: perf/class_bench.sh failed"
		fi
	fi
fi

cli=
if [ "$PERF_CLI" = y ]; then
	progress "$done_w" "commands (perf/cli_bench.sh)"
	if [ -n "$IGZIP_CMD" ] && [ ! -x "$IGZIP_CMD" ]; then
		echo "perf_report: $IGZIP_CMD did not build; its rows are skipped" >&2
	fi
	if CLI_QUICK=${quick:+1} perf/cli_bench.sh "$DIR/cli.csv" "$stoa" "$IGZIP_CMD"; then
		cli="--cli $DIR/cli.csv"
	else
		NOTES="${NOTES:+$NOTES;}igzip commands: perf/cli_bench.sh failed"
	fi
	done_w=$((done_w + cli_weight))
fi
progress "$total" "writing the report"

csvs=""
for name in upstream system crypto stoa; do
	[ -f "$DIR/$name.csv" ] && csvs="$csvs $DIR/$name.csv"
done
IFS=';'
set --
for note in $NOTES; do set -- "$@" --note "$note"; done
unset IFS
# shellcheck disable=SC2086
"$WRITER" --host "$HOST" --date "$DATE" --out "$OUT" "$@" $cli $roundtrip $classes $csvs || exit 1
end=$(date +%s)
echo "perf_report: wrote $OUT.txt and $OUT.html in $(((end - start) / 60))m$(((end - start) % 60))s"
if [ $status != 0 ]; then echo "perf_report: a driver failed (result mismatch?)" >&2; fi
exit $status
