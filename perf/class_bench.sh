#!/bin/sh
# The CPU-class benchmark (make perf_classes): for every class this CPU can run, each library's
# code for that class on the cells of issue 21, then the table of stoa's ratios.
#
#   perf/class_bench.sh OUTDIR STOA_DRIVER [UPSTREAM_DRIVER] [CRYPTO_DRIVER]
#
# Writes OUTDIR/<library>.csv (the drivers' rows, variant = class) and prints the table
# (perf/class_table.awk). Environment: CLASS_ROUNDS (default 2: whole passes, best kept),
# CLASS_TIME (default "--time 200 --reps 200"), CLASS_IGZIP_TIME (default "--time 60 --reps 12"),
# CLASS_ONLY (a class name: that class alone), CLASS_GROUPS (a grep -E pattern over the groups
# below: those alone), STOA_CORPUS (the igzip corpora, as for make perf_report), CLASS_PIN (0:
# leave the drivers unpinned).
#
# CLASS_PAIR=LIB (stoa's shared library, build/libstoa.so) makes it the paired table instead: the
# ISA-L drivers run each group with --class and --pair LIB, timing their library and stoa's in
# one process, in rotating turns on the same buffers (perf/perf_pair.c), and the table
# (perf/class_pair_table.awk) gives the median of the per-turn ratios, their quartiles and a
# control (stoa against a second copy of itself); igzip's deflate cells check that each
# library's output inflates back instead of comparing outputs. CLASS_PAIR_TIME (default
# "--time 200 --reps 200": up to 200 rounds of 1 ms turns per library) and CLASS_ROUNDS
# (default 1 here; with more, the table gives the median of the passes' medians and their
# min-max, the spread that matters on a shared VM) time it. Writes OUTDIR/pair.csv.
#
# CLASS_RECHECK=R (paired only) runs each cell whose first pass read below R
# CLASS_RECHECK_PASSES more times (default 2), pinned to the CPUs in turn, so that such a cell
# shows the median of its passes and their min-max: a single pass on the shared VM put cells at
# 0.92-0.94 that read 0.98-1.02 in every rerun, while a cell that is behind stays behind.
#
# Within a round the libraries' runs of a cell are pinned to one CPU (taskset), round r to CPU
# r mod the CPUs online: on a shared VM one vCPU can run a whole process 30% slower than the other
# for minutes (Zen 5 VM: the same EC 2+1 call 40-45 GB/s on one, 61-65 on the other, both
# libraries alike), and a library whose runs all landed there lost the cell.
set -e
out=$1
stoa=$2
upstream=${3:-}
crypto=${4:-}
[ -n "$out" ] && [ -x "$stoa" ] || {
	echo "usage: $0 OUTDIR STOA_DRIVER [UPSTREAM_DRIVER] [CRYPTO_DRIVER]" >&2
	exit 2
}
pair=${CLASS_PAIR:-}
if [ -n "$pair" ]; then
	[ -f "$pair" ] || { echo "$0: CLASS_PAIR=$pair: no such library" >&2; exit 2; }
	rounds=${CLASS_ROUNDS:-1}
	timing=${CLASS_PAIR_TIME:---time 200 --reps 200}
else
	rounds=${CLASS_ROUNDS:-2}
	timing=${CLASS_TIME:---time 200 --reps 200}
fi
ztiming=${CLASS_IGZIP_TIME:---time 60 --reps 12}
here=$(dirname "$0")
mkdir -p "$out"
rm -f "$out"/*.csv "$out"/classes.txt

# The cells: a driver filter (see stoa_perf --help), the sizes, and i for the igzip timing.
groups='ec_encode_data 10+4 |4K,64K,1M
ec_encode_data 4+2 |4K,64K,1M
ec_encode_data 2+1 |4K,64K,1M
=gf_vect_mad|4K,64K,1M
=gf_vect_dot_prod|4K,64K,1M
=ec_encode_data_update|4K,64K,1M
xor_gen 16+1|8K,1M
pq_gen 16+2|8K,1M
=crc16_t10dif|512,4K,64K
=crc16_t10dif_copy|512,4K,64K
=crc32_ieee|512,4K,64K
=crc32_gzip_refl|512,4K,64K
=crc32_iscsi|512,4K,64K
=crc64_ecma_refl|512,4K,64K
=crc64_ecma_norm|512,4K,64K
=crc64_iso_refl|512,4K,64K
=crc64_iso_norm|512,4K,64K
=crc64_jones_refl|512,4K,64K
=crc64_jones_norm|512,4K,64K
=crc64_rocksoft_refl|512,4K,64K
=crc64_rocksoft_norm|512,4K,64K
=XTS_AES_128_enc,=XTS_AES_128_dec|512,4K
=XTS_AES_256_enc,=XTS_AES_256_dec|512,4K
md5_mb jobs=1|4K,64K
sha1_mb jobs=1|4K,64K
sha256_mb jobs=1|4K,64K
sha512_mb jobs=1|4K,64K
isal_inflate_stateless calgary.cat||i
isal_inflate calgary.cat||i
isal_deflate_stateless calgary.cat level=0$,isal_deflate_stateless calgary.cat level=1$,isal_deflate_stateless calgary.cat level=2$,isal_deflate_stateless calgary.cat level=3$||i
isal_deflate calgary.cat||i'
if [ -n "${CLASS_GROUPS:-}" ]; then
	groups=$(printf '%s\n' "$groups" | grep -E "$CLASS_GROUPS" || true)
fi

# Classes: the driver says which this CPU runs; the others are named in the table's notes.
"$stoa" --classes > "$out/classes.txt"
classes=$(awk '$2 == "runs" || $2 == "this" { print $1 }' "$out/classes.txt")
if [ -n "${CLASS_ONLY:-}" ]; then
	classes=$(printf '%s\n' $classes | grep -Fx "$CLASS_ONLY" || true)
fi
[ -n "$classes" ] || { echo "$0: no class to run" >&2; exit 2; }

drivers="$stoa:stoa"
# Paired, the ISA-L drivers load stoa themselves.
[ -n "$pair" ] && drivers=
[ -n "$upstream" ] && [ -x "$upstream" ] && drivers="$drivers $upstream:upstream"
[ -n "$crypto" ] && [ -x "$crypto" ] && drivers="$drivers $crypto:crypto"

pin_cpus=0
if [ "${CLASS_PIN:-1}" != 0 ] && command -v taskset >/dev/null 2>&1; then
	pin_cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 0)
fi

export STOA_PERF_IGZIP_MIX=skip
status=0
round=0
while [ "$round" -lt "$rounds" ]; do
	round=$((round + 1))
	printf '%s\n' "$groups" | while IFS='|' read -r filter sizes kind; do
		[ -n "$filter" ] || continue
		for c in $classes; do
			echo "class_bench: round $round/$rounds $c: $filter" >&2
			for d in $drivers; do
				exe=${d%%:*}
				name=${d##*:}
				# A driver without the group's functions (the crypto one has no CRC).
				[ -n "$("$exe" --list-functions --filter "$filter")" ] || continue
				t=$timing
				[ "$kind" = i ] && t=$ztiming
				pin=
				[ "$pin_cpus" -gt 1 ] && pin="taskset -c $((round % pin_cpus))"
				if [ -n "$pair" ]; then
					$pin "$exe" --csv --class "$c" --pair "$pair" --filter "$filter" \
						${sizes:+--sizes "$sizes"} $timing >> "$out/pair.csv" ||
						echo "class_bench: $name failed on $c: $filter" >&2
					continue
				fi
				$pin "$exe" --csv --class "$c" --filter "$filter" ${sizes:+--sizes "$sizes"} \
					$t >> "$out/$name.csv" || echo "class_bench: $name failed on $c: $filter" >&2
			done
		done
	done
done
if [ -n "$pair" ] && [ -n "${CLASS_RECHECK:-}" ]; then
	# library|function|class|params|size of each cell below the bound, once.
	awk -F, -v bound="$CLASS_RECHECK" '$1 == "pair" && $2 != "library" && $10 + 0 < bound + 0 {
		print $2 "|" $4 "|" $5 "|" $6 "|" $7 }' "$out/pair.csv" | sort -u > "$out/recheck.txt"
	pass=0
	while [ "$pass" -lt "${CLASS_RECHECK_PASSES:-2}" ]; do
		pass=$((pass + 1))
		while IFS='|' read -r lib fn c params size; do
			case $lib in
			*crypto*) exe=$crypto ;;
			*) exe=$upstream ;;
			esac
			[ -n "$exe" ] && [ -x "$exe" ] || continue
			echo "class_bench: recheck $pass $c: $fn $params $size" >&2
			pin=
			[ "$pin_cpus" -gt 1 ] && pin="taskset -c $(((rounds + pass) % pin_cpus))"
			# A case's name is module/function params; the final $ keeps longer names out.
			$pin "$exe" --csv --class "$c" --pair "$pair" --filter "/$fn${params:+ $params}\$" \
				--sizes "$size" $timing >> "$out/pair.csv" ||
				echo "class_bench: recheck failed on $c: $fn $params" >&2
		done < "$out/recheck.txt"
	done
fi
if [ -n "$pair" ]; then
	awk -f "$here/class_common.awk" -f "$here/class_pair_table.awk" "$out/classes.txt" "$out/pair.csv"
else
	awk -f "$here/class_common.awk" -f "$here/class_table.awk" "$out/classes.txt" "$out"/*.csv
fi
exit $status
