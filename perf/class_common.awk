# What perf/class_table.awk and perf/class_pair_table.awk share; each runs after this file:
#   awk -f class_common.awk -f class_table.awk classes.txt ROWS...
# The first file is `stoa_perf --classes` ("name status...; about"): the classes in order, in
# cname[], crun[] (1 when the class ran on this CPU) and cabout[]; `file` counts the files read.
BEGIN {
	FS = ","
	nclass = 0
	nkey = 0
}

FNR == 1 && NR > 1 { file++ }

file == 0 {
	split($0, w, " ")
	cname[nclass] = w[1]
	crun[nclass] = ($0 ~ /runs here|this CPU's class/)
	line = $0
	sub(/^[^;]*; /, "", line)
	cabout[nclass] = line
	nclass++
	next
}

function size_name(n) {
	if (n >= 1048576 && n % 1048576 == 0)
		return (n / 1048576) "MiB"
	if (n >= 1024 && n % 1024 == 0)
		return (n / 1024) "KiB"
	return n "B"
}
