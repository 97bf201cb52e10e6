# The paired class table of perf/class_bench.sh (CLASS_PAIR=LIB):
#   awk -f class_common.awk -f class_pair_table.awk classes.txt pair.csv
#
# classes.txt is `stoa_perf --classes`; pair.csv holds the `--pair --csv` lines of the ISA-L
# drivers (perf/perf_pair.c): per cell and class the median of the per-round ratios of stoa's
# speed over ISA-L's (or isa-l_crypto's), their quartiles, and the control (stoa over a second
# copy of itself in the same rounds). A cell run in several passes (CLASS_ROUNDS) shows the
# median of the passes' medians, and the min-max of those medians in place of the quartiles:
# on the shared VM a pass's quartiles can be 1% wide while the next pass, minutes later, reads
# 10% off (prototype runs: 82 of 355 unchanged cells), so the spread across passes is the
# honest dispersion once there are several.
# Prints the ratio table, the quartiles, the control table, then the cells below 1.0 with their
# spread and control, and per class how far the controls strayed from 1.0. With -v csv=1 it
# prints the median ratios as class_table.awk's cell lines instead, for perf_report's writer:
#   cell,ISA-L paired,FUNCTION,PARAMS,SIZE,CLASS,RATIO
$1 != "pair" || $2 == "library" { next }

{
	key = $4 SUBSEP $6 SUBSEP $7
	if (!(key in seen)) {
		seen[key] = 1
		keys[nkey++] = key
	}
	cell = key SUBSEP $5
	np = ++passes[cell]
	pm[cell, np] = $10 + 0
	pc[cell, np] = $13 + 0
	if (np > maxpasses)
		maxpasses = np
	med[cell] = $10 + 0
	q1[cell] = $11 + 0
	q3[cell] = $12 + 0
	ctl[cell] = $13 + 0
	cq1[cell] = $14 + 0
	cq3[cell] = $15 + 0
	smb[cell] = $16 + 0
	pmb[cell] = $17 + 0
	var[cell] = $18
}

# The median of a cell's pass values (v = pm or pc), by insertion sort of a copy.
function pass_median(cell, which,    i, j, n, x, t) {
	n = passes[cell]
	for (i = 1; i <= n; i++) {
		x[i] = which == "m" ? pm[cell, i] : pc[cell, i]
		for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
			t = x[j]; x[j] = x[j - 1]; x[j - 1] = t
		}
	}
	if (n % 2)
		return x[(n + 1) / 2]
	return (x[n / 2] + x[n / 2 + 1]) / 2
}

function table(title, what,    c, i, k, row, any, cell) {
	printf "%s\n\n", title
	print hdr
	for (i = 0; i < nkey; i++) {
		split(keys[i], k, SUBSEP)
		row = sprintf("%-22s %-19s %-7s", k[1], k[2] == "" ? "-" : k[2], size_name(k[3]))
		any = 0
		for (c = 0; c < nclass; c++) {
			cell = keys[i] SUBSEP cname[c]
			if (!(cell in med)) {
				row = row sprintf(" %15s", crun[c] ? "-" : "n/a")
				continue
			}
			any = 1
			if (what == "ratio")
				row = row sprintf(" %15.2f", med[cell])
			else if (what == "iqr")
				row = row sprintf(" %15s", sprintf("%.2f-%.2f", q1[cell], q3[cell]))
			else
				row = row sprintf(" %15s", sprintf("%.2f %.2f-%.2f", ctl[cell], cq1[cell], cq3[cell]))
		}
		if (any)
			print row
	}
	print ""
}

END {
	# Several passes: the median of the medians, the min-max of the medians as the spread.
	for (cell in passes) {
		if (passes[cell] < 2)
			continue
		med[cell] = pass_median(cell, "m")
		ctl[cell] = pass_median(cell, "c")
		q1[cell] = q3[cell] = pm[cell, 1]
		for (i = 2; i <= passes[cell]; i++) {
			if (pm[cell, i] < q1[cell])
				q1[cell] = pm[cell, i]
			if (pm[cell, i] > q3[cell])
				q3[cell] = pm[cell, i]
		}
	}
	if (csv) {
		for (i = 0; i < nkey; i++) {
			split(keys[i], k, SUBSEP)
			for (c = 0; c < nclass; c++)
				if ((keys[i] SUBSEP cname[c]) in med)
					printf "cell,ISA-L paired,%s,%s,%s,%s,%.4f\n", k[1], k[2], k[3],
					       cname[c], med[keys[i] SUBSEP cname[c]]
		}
		exit
	}
	spreadname = maxpasses > 1 ? "min-max of the passes' medians (quartiles where one pass)" : "quartiles (q1-q3) of the per-round ratios"
	hdr = sprintf("%-22s %-19s %-7s", "function", "params", "size")
	for (c = 0; c < nclass; c++)
		hdr = hdr sprintf(" %15s", cname[c])
	table("stoa's speed over ISA-L's (isa-l_crypto's for XTS), median of the per-round ratios in one process", "ratio")
	table("The same: " spreadname, "iqr")
	table("Control: stoa over a second copy of itself in the same rounds, median q1-q3", "control")
	below = 0
	for (i = 0; i < nkey; i++) {
		split(keys[i], k, SUBSEP)
		for (c = 0; c < nclass; c++) {
			cell = keys[i] SUBSEP cname[c]
			if (!(cell in med))
				continue
			n[c]++
			d = ctl[cell] > 1 ? ctl[cell] - 1 : 1 - ctl[cell]
			if (d > worst[c])
				worst[c] = d
			if (med[cell] < 1.0) {
				nbelow[c]++
				if (q3[cell] < 1.0)
					nclear[c]++
				low[below++] = sprintf("%-15s %-22s %-19s %-7s %.3f (spread %.3f-%.3f; control %.3f; stoa %.0f, peer %.0f MB/s; stoa %s)",
					cname[c], k[1], k[2] == "" ? "-" : k[2], size_name(k[3]), med[cell],
					q1[cell], q3[cell], ctl[cell], smb[cell], pmb[cell], var[cell])
			}
		}
	}
	printf "Cells below 1.0: %d\n", below
	for (i = 0; i < below; i++)
		print "  " low[i]
	printf "\nPer class: cells, below 1.0, of those with q3 below 1.0 too, the control furthest from 1.0\n"
	for (c = 0; c < nclass; c++)
		if (n[c])
			printf "  %-16s %4d %4d %4d  %.3f\n", cname[c], n[c], nbelow[c], nclear[c], worst[c]
		else
			printf "  %-16s %s\n", cname[c], crun[c] ? "no cells" : "NOT RUN (this CPU lacks its features)"
}
