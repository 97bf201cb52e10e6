# The class table of perf/class_bench.sh:
#   awk -f class_common.awk -f class_table.awk classes.txt ROWS.csv...
#
# classes.txt is `stoa_perf --classes`; the CSVs are --class rows of the drivers (variant = the
# class). Prints, per function, parameters and size, stoa's MB/s over ISA-L's (upstream ISA-L or
# isa-l_crypto) in each class, then over each peer (OpenSSL, libdeflate, zlib) where it ran, the
# best of every round on both sides; then the cells below 1.0, and the classes that did not run.
# With -v csv=1 it prints the same ratios as lines for perf_report's writer (--classes FILE):
#   class,NAME,RUN,ABOUT        one per class, RUN 1 when it ran here (ABOUT to the line's end)
#   cell,PEER,FUNCTION,PARAMS,SIZE,CLASS,RATIO
/^#/ || $1 == "library" { next }

{
	lib = $1
	side = (lib == "stoa") ? "stoa" : (lib ~ /^isa-l/) ? "isal" : lib
	key = $3 SUBSEP $5 SUBSEP $6
	if (!(key in seen)) {
		seen[key] = 1
		keys[nkey++] = key
	}
	cell = key SUBSEP $4 SUBSEP side
	if (!(cell in mbps) || $12 + 0 > mbps[cell])
		mbps[cell] = $12 + 0
	if (side != "stoa" && side != "isal")
		peers[side] = 1
}

function ratio(key, c, other,    a, b) {
	a = key SUBSEP cname[c] SUBSEP "stoa"
	b = key SUBSEP cname[c] SUBSEP other
	if (!(a in mbps) || !(b in mbps) || mbps[b] <= 0)
		return ""
	return mbps[a] / mbps[b]
}

function csv_out(    c, i, k, p, r) {
	for (c = 0; c < nclass; c++) {
		printf "class,%s,%d,%s\n", cname[c], crun[c], cabout[c]
	}
	peers["isal"] = 1
	for (p in peers)
		for (i = 0; i < nkey; i++) {
			split(keys[i], k, SUBSEP)
			for (c = 0; c < nclass; c++) {
				r = ratio(keys[i], c, p)
				if (r != "")
					printf "cell,%s,%s,%s,%s,%s,%.4f\n", p == "isal" ? "ISA-L" : p, k[1], k[2], k[3], cname[c], r
			}
		}
}

END {
	if (csv) {
		csv_out()
		exit
	}
	printf "stoa MB/s over ISA-L's (upstream ISA-L, isa-l_crypto) in each CPU class, best of the rounds on both sides\n\n"
	hdr = sprintf("%-22s %-26s %-7s", "function", "params", "size")
	for (c = 0; c < nclass; c++)
		hdr = hdr sprintf(" %15s", cname[c])
	print hdr
	below = 0
	for (i = 0; i < nkey; i++) {
		split(keys[i], k, SUBSEP)
		row = sprintf("%-22s %-26s %-7s", k[1], k[2] == "" ? "-" : k[2], size_name(k[3]))
		any = 0
		for (c = 0; c < nclass; c++) {
			r = ratio(keys[i], c, "isal")
			if (r == "") {
				row = row sprintf(" %15s", crun[c] ? "-" : "n/a")
				continue
			}
			any = 1
			row = row sprintf(" %15.2f", r)
			if (r < 1.0)
				low[below++] = sprintf("%s %s %s %s: %.2f (stoa %.0f, ISA-L %.0f MB/s)",
					cname[c], k[1], k[2], size_name(k[3]), r,
					mbps[keys[i] SUBSEP cname[c] SUBSEP "stoa"],
					mbps[keys[i] SUBSEP cname[c] SUBSEP "isal"])
		}
		if (any)
			print row
	}
	for (p in peers) {
		printf "\nstoa MB/s over %s's in each class (where the peer's code for the class ran)\n\n", p
		print hdr
		for (i = 0; i < nkey; i++) {
			split(keys[i], k, SUBSEP)
			row = sprintf("%-22s %-26s %-7s", k[1], k[2] == "" ? "-" : k[2], size_name(k[3]))
			any = 0
			for (c = 0; c < nclass; c++) {
				r = ratio(keys[i], c, p)
				if (r == "")
					row = row sprintf(" %15s", crun[c] ? "-" : "n/a")
				else {
					any = 1
					row = row sprintf(" %15.2f", r)
				}
			}
			if (any)
				print row
		}
	}
	printf "\nCells below 1.0 against ISA-L: %d\n", below
	for (i = 0; i < below; i++)
		print "  " low[i]
	printf "\nClasses\n"
	for (c = 0; c < nclass; c++)
		printf "  %-16s %s%s\n", cname[c], crun[c] ? "" : "NOT RUN (this CPU lacks its features; n/a above): ", cabout[c]
}
