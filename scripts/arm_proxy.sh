#!/bin/sh
# The aarch64 speed table without Arm hardware: PROXIES, not timings (issue 22).
#
#   sh scripts/arm_proxy.sh
#   ISAL_AARCH64=/tmp/isa-l-arm64 ISALC_AARCH64=/tmp/isa-l_crypto-arm64 sh scripts/arm_proxy.sh
#
# Two proxies for each case of perf/arm/proxy_driver.c (`proxy_driver list`):
#
# instructions per byte  The guest instructions qemu-aarch64 executes, counted by the TCG plugin
#      perf/arm/insn_count.c (built here with the host compiler; Debian's qemu-user loads plugins).
#      Each case runs twice, REPS_A and REPS_B repetitions of the same calls on the same data; the
#      difference of the two counts over the extra repetitions' bytes is the calls' cost alone
#      (setup, data generation and the loader cancel out).
# llvm-mca cycles        The calls' cycles per byte in llvm-mca's pipeline models of Neoverse N1
#      and V1, block by block. The plugin also reports the BLOCKS translation blocks that
#      executed the most instructions in each run (a TCG block ends at a branch, so an inner loop
#      without branches in its body is one block); every one of them whose executions grew from
#      the first run to the second is counted (setup such as data generation executes as often in
#      both). Its instructions are taken from objdump of the statically linked driver, branch
#      targets rewritten to "." for llvm-mca, which gives its cycles per iteration in a steady
#      loop; its executions per byte come from the two runs as the instruction counts do. Cycles
#      per byte = the sum over the blocks of cycles per iteration x iterations per byte: every
#      block weighted by how often it runs, the same rule for both libraries. The blocks below
#      the BLOCKS heaviest are left out (the "hot%" column: the counted blocks' share of the
#      call's instructions), and branch mispredictions and cache misses are not modelled, so it
#      is a lower bound of the cost, comparable between the two libraries where hot% is near
#      100% for both.
#
# The second library, when given: upstream ISA-L (ISAL_AARCH64: a tree built for aarch64, with
# include/ and bin/isa-l.a) and isa-l_crypto (ISALC_AARCH64: include/isa-l_crypto/ and
# bin/isa-l_crypto.a); the same driver source is linked against them. This script does not build
# them: e.g. `make -f Makefile.unx host_cpu=aarch64 arch=aarch64 CC=aarch64-linux-gnu-gcc
# AR=aarch64-linux-gnu-ar bin/isa-l.a` in a clone (bin/isa-l_crypto.a for isa-l_crypto).
#
# SVE: qemu 7.2 has no Neoverse V1/V2 model; PROXY_CPU="max,sve-default-vector-length=16" (or
# 32) runs the SVE2 code at 128-bit (256-bit) vectors, STOA_ISA=sve in the environment holds stoa
# to plain SVE (qemu passes the environment to the guest). llvm-mca prints "-" for a block with
# instructions the model's CPU lacks (SVE on N1, SVE2 on V1): PROXY_MCA_CPUS=neoverse-v2 for
# SVE2 code.
#
# Variables: PROXY_CPU (qemu -cpu, default neoverse-n1), PROXY_CASES (an extended regular
# expression over the case names, default all), PROXY_MCA_CPUS (default "neoverse-n1
# neoverse-v1"), LLVM_MCA (default llvm-mca-19, else llvm-mca: LLVM 16 or later knows these
# CPUs), STOA_CORPUS (the corpus directory with calgary/, default ../shared/corpus beside the
# repository), REPS_A and REPS_B (default 1 and 3; deflate and inflate 1 and 2, the 4 KiB cases
# 1 and 33), BLOCKS
# (default 64). The stoa
# library is built for aarch64 into build-aarch64/ (scripts/cross.sh prepares the cross
# compiler); the proxy's own files go to build-aarch64/proxy/.
set -eu

cd "$(dirname "$0")/.."
triple=aarch64-linux-gnu
build="build-aarch64"
out=$build/proxy
cpu=${PROXY_CPU:-neoverse-n1}
mca_cpus=${PROXY_MCA_CPUS:-neoverse-n1 neoverse-v1}
corpus=${STOA_CORPUS:-../shared/corpus}/calgary
reps_a=${REPS_A:-1}
reps_b=${REPS_B:-3}
nblocks=${BLOCKS:-64}
mca=${LLVM_MCA:-}
if [ -z "$mca" ]; then
	mca=llvm-mca
	command -v llvm-mca-19 >/dev/null 2>&1 && mca=llvm-mca-19
fi
command -v "$mca" >/dev/null 2>&1 || mca=""
command -v "$triple-gcc" >/dev/null 2>&1 || sh scripts/cross.sh aarch64 prepare

mkdir -p "$out"
echo "arm_proxy: building libstoa.a for aarch64 in $build/" >&2
make --no-print-directory -j2 BUILD="$build" CC="$triple-gcc" HOSTCC=cc \
	CFLAGS="-O2 -g" "$build/libstoa.a" >"$out/make.log" 2>&1 || {
	cat "$out/make.log" >&2
	exit 1
}
cc -O2 -Wall -Wextra -shared -fPIC -o "$out/insn_count.so" perf/arm/insn_count.c

# The drivers: static, not position-independent, so that objdump's addresses are the run's.
drv_flags="-O2 -g -static -no-pie -Wall -Wno-deprecated-declarations"
# shellcheck disable=SC2086
"$triple-gcc" $drv_flags -Iinclude -o "$out/driver_stoa" perf/arm/proxy_driver.c \
	"$build/libstoa.a"
libs=stoa
if [ -n "${ISAL_AARCH64:-}" ] && [ -n "${ISALC_AARCH64:-}" ]; then
	# isa-l.h and isa-l_crypto.h over upstream's per-module headers.
	mkdir -p "$out/upstream_include"
	printf '#include <%s>\n' erasure_code.h raid.h crc.h crc64.h igzip_lib.h \
		>"$out/upstream_include/isa-l.h"
	printf '#include <isa-l_crypto/%s>\n' sha1_mb.h sha256_mb.h sha512_mb.h md5_mb.h \
		aes_xts.h >"$out/upstream_include/isa-l_crypto.h"
	# shellcheck disable=SC2086
	"$triple-gcc" $drv_flags -I"$out/upstream_include" -I"$ISAL_AARCH64/include" \
		-I"$ISALC_AARCH64/include" -o "$out/driver_isal" perf/arm/proxy_driver.c \
		"$ISAL_AARCH64/bin/isa-l.a" "$ISALC_AARCH64/bin/isa-l_crypto.a"
	libs="stoa isal"
fi

# run LIB CASE REPS BLOCKFILE: prints "INSNS BYTES" of one run; the plugin's heaviest blocks
# ("VADDR INSNS EXECUTIONS") go to BLOCKFILE.
run() {
	log=$out/qemu.log
	rm -f "$log"
	bytes=$(qemu-aarch64 -cpu "$cpu" -d plugin -D "$log" \
		-plugin "$out/insn_count.so,blocks=$nblocks" "$out/driver_$1" "$2" "$3" "$corpus" |
		sed -n 's/.* bytes //p')
	sed -n 's/^block //p' "$log" >"$4"
	echo "$(sed -n 's/^insns //p' "$log") $bytes"
}

# The blocks whose executed instructions grew from the first run to the second, heaviest first.
# A block translated more than once has a record per translation: their executions are summed
# in each run before the two are compared. Prints "VADDR INSNS EXECUTIONS_GROWTH" lines.
hot_blocks() {
	awk 'NR == FNR { a[$1 " " $2] += $3; next } { b[$1 " " $2] += $3 }
		END { for (k in b) { d = b[k] - a[k]; if (d > 0) { split(k, f, " ")
			print f[1], f[2], d, d * f[2] } } }' "$1" "$2" |
		sort -k4,4nr | awk '{ print $1, $2, $3 }'
}

# Joins blocks that continue one another (one ends where the next begins) and execute equally
# often: qemu also ends a translation block for its own size limits (long AES rounds, the 64
# steps of MD5), and one loop body should reach llvm-mca whole.
merge_blocks() {
	while read -r va n d; do
		echo "$((va)) $n $d"
	done | sort -n | awk '
		NF == 3 { if (have && $1 == end && $3 == d) { n += $2; end += 4 * $2; next }
			  if (have) printf "0x%x %d %d\n", start, n, d
			  have = 1; start = $1; n = $2; d = $3; end = $1 + 4 * $2 }
		END { if (have) printf "0x%x %d %d\n", start, n, d }'
}

# mca LIB VADDR INSNS MCPU: llvm-mca's cycles per iteration of that block.
mca_cycles() {
	start=$(($2))
	"$triple-objdump" -d --no-show-raw-insn --start-address="$start" \
		--stop-address=$((start + 4 * $3)) "$out/driver_$1" |
		awk -F'\t' '/^ *[0-9a-f]+:\t/ { sub(/\/\/.*/, "", $3); print $2 " " $3 }' |
		sed -E 's/ [0-9a-f]+ <[^>]*>/ ./; s/[[:space:]]+$//' >"$out/block.s"
	"$mca" -mtriple=aarch64 -mcpu="$4" -iterations=200 "$out/block.s" 2>/dev/null |
		awk '/^Iterations:/ { it = $2 } /^Total Cycles:/ { c = $3 }
			END { if (it) printf "%.2f", c / it; else printf "-" }'
}

# The function (or assembly label) a block starts in.
symbol() {
	"$triple-nm" -n "$out/driver_$1" | awk -v a=$(($2)) '
		{ v = 0; h = $1; for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		  if (v > a) exit; s = $3 } END { print s }'
}

cases=$("$out/driver_stoa" list 2>/dev/null || qemu-aarch64 "$out/driver_stoa" list)
[ -n "${PROXY_CASES:-}" ] && cases=$(echo "$cases" | grep -E "$PROXY_CASES" || true)

printf '# PROXY, not a timing: qemu-aarch64 -cpu %s, dynamic instructions per byte (insn/B) and\n' "$cpu"
printf '# llvm-mca cycles per byte (%s): every block of the %s heaviest whose executions grow\n' "$mca_cpus" "$nblocks"
printf '# with the repetitions, its cycles per iteration times its executions per byte, summed (hot%% =\n'
printf '# their share of the call'"'"'s instructions; the same rule for both libraries). ratio = stoa /\n'
printf '# ISA-L instructions per byte (below 1: stoa executes fewer).\n'
detail=$out/blocks.txt
: >"$detail"
hdr="case"
for lib in $libs; do
	hdr="$hdr $lib:insn/B"
done
[ "$libs" = "stoa isal" ] && hdr="$hdr ratio"
for lib in $libs; do
	hdr="$hdr $lib:hot%"
	for m in $mca_cpus; do
		hdr="$hdr $lib:${m#neoverse-}:c/B"
	done
done
echo "$hdr" | awk '{ printf "%-24s", $1; for (i = 2; i <= NF; i++) printf " %13s", $i; print "" }'
for c in $cases; do
	ra=$reps_a rb=$reps_b
	# The 4 KiB cases run 32 more calls, not 2: the driver's printf of a checksum that differs
	# between the runs executes a few hundred instructions more or less, 1% of two such calls.
	case $c in deflate* | inflate*) ra=1 rb=2 ;; *_4K) ra=1 rb=33 ;; esac
	line="$c"
	mcacols=""
	ipb_stoa=""
	for lib in $libs; do
		# shellcheck disable=SC2046
		set -- $(run "$lib" "$c" "$ra" "$out/blocks_a")
		ia=$1
		# shellcheck disable=SC2046
		set -- $(run "$lib" "$c" "$rb" "$out/blocks_b")
		ib=$1 bytes=$2
		ipb=$(awk -v a="$ia" -v b="$ib" -v n=$((rb - ra)) -v by="$bytes" \
			'BEGIN { printf "%.3f", (b - a) / (n * by) }')
		line="$line $ipb"
		[ "$lib" = stoa ] && ipb_stoa=$ipb
		[ "$lib" = isal ] && line="$line $(awk -v s="$ipb_stoa" -v i="$ipb" \
			'BEGIN { printf "%.2fx", s / i }')"
		hot_blocks "$out/blocks_a" "$out/blocks_b" | merge_blocks >"$out/hot"
		hot=$(awk -v t=$((ib - ia)) '{ s += $2 * $3 } END { printf "%.0f%%", 100 * s / t }' "$out/hot")
		mcacols="$mcacols $hot"
		for m in $mca_cpus; do
			# Each block's cycles per iteration times its iterations per byte, summed.
			cpb=0
			while read -r va nb d; do
				cyc=-
				[ -n "$mca" ] && cyc=$(mca_cycles "$lib" "$va" "$nb" "$m")
				epb=$(awk -v d="$d" -v n=$((rb - ra)) -v by="$bytes" \
					'BEGIN { printf "%.9f", d / (n * by) }')
				cpb=$(awk -v s="$cpb" -v c="$cyc" -v e="$epb" \
					'BEGIN { if (s == "-" || c == "-") print "-"; else printf "%.4f", s + c * e }')
				echo "$c $lib $m $va($(symbol "$lib" "$va")) insns=$nb iter/B=$epb cycles/iter=$cyc" >>"$detail"
			done <"$out/hot"
			mcacols="$mcacols $(awk -v c="$cpb" 'BEGIN { if (c == "-") print c; else printf "%.3f", c }')"
		done
	done
	echo "$line $mcacols" | awk '{ printf "%-24s", $1; for (i = 2; i <= NF; i++) printf " %13s", $i; print "" }'
done
echo "# the hot blocks (case, library, CPU model, address(function), instructions, iterations per byte, llvm-mca cycles per iteration):"
sed 's/^/#   /' "$detail"
