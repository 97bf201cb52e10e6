/* perf_report_writer: turns the drivers' CSV output into the text and HTML reports.
 *
 *   perf_report_writer --out BASE [--host H] [--date D] [--note TEXT]... [--cli CLI.csv]
 *                      FILE.csv...
 *
 * Each CSV comes from one driver build (one library, plus the peers measured in the stoa build);
 * its "# key: value" lines describe the run. The files may hold several runs appended (one per
 * function), so repeated header and meta lines are expected. Peers in the ratio table come in the
 * order the files are given. The HTML is one file: inline CSS and SVG, no scripts. The igzip
 * module's rows, and the command benchmark's CSV (--cli, from perf/cli_bench.sh), get a section
 * of their own. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STOA "stoa"
#define MAX_FIELDS 15

struct row {
	char *library, *module, *function, *variant, *params, *bytes_counted, *mode, *check;
	size_t size;
	unsigned long long bytes_per_call, calls;
	int threads, rounds;
	double mbps, cpb, median; /* cpb NAN when the driver had no cycle source */
};

struct meta {
	char *key, *value;
	int source;
};

struct source {
	const char *path;
	char *library;
};

/* The distinct (function, params, mode) triples, in the order they first appear, with stoa's
 * rows first so the tables follow the stoa build's registry order. */
struct key {
	const char *module, *function, *params, *mode;
};

struct report;

/* A module's rows and what its section keeps of its own (data, owned by the section). */
struct report_part {
	const struct report_section *section;
	struct row *rows;
	size_t nrows, caprows;
	void *data;
};

/* A module whose rows do not fit the per-size tables (their size or result means something
 * else) writes a section of its own from them. */
struct report_section {
	const char *module;                /* its rows leave the per-size tables for the section */
	const char *option;                /* "--name": a further input file it reads, or NULL */
	void (*read_option)(struct report_part *part, const char *path);
	void (*write)(struct report *rep, struct report_part *part, FILE *out, int html);
};

/* Everything the report is written from, passed down to every writer. */
struct report {
	struct row *rows; /* the per-size rows */
	size_t nrows, caprows;
	struct meta *metas;
	size_t nmetas, capmetas;
	struct source sources[16];
	size_t nsources;
	const char *notes[16];
	size_t nnotes;
	struct key *keys;
	size_t nkeys, capkeys;
	size_t sizes[64];
	size_t nsizes;
	const char **peers; /* libraries other than stoa, in file order */
	size_t npeers, cappeers;
	char *series_names[64]; /* a series keeps the colour its name got first */
	size_t nseries_names;
	struct report_part parts[8];
	size_t nparts;
};

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("perf_report_writer: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static char *dup_str(const char *s)
{
	char *d = strdup(s);
	if (!d)
		die("out of memory");
	return d;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (!p)
		die("out of memory");
	return p;
}

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 64;
	p = realloc(p, *cap * elem);
	if (!p)
		die("out of memory");
	return p;
}

static const char *meta_get(const struct report *rep, int source, const char *key)
{
	for (size_t i = 0; i < rep->nmetas; i++)
		if (rep->metas[i].source == source && strcmp(rep->metas[i].key, key) == 0)
			return rep->metas[i].value;
	return NULL;
}

static void add_meta(struct report *rep, int source, const char *key, const char *value)
{
	if (meta_get(rep, source, key))
		return;
	rep->metas = grow(rep->metas, &rep->capmetas, rep->nmetas + 1, sizeof(*rep->metas));
	rep->metas[rep->nmetas++] = (struct meta){ dup_str(key), dup_str(value), source };
}

/* perf_report may run every driver more than once (rounds, for a noisy machine): a row seen
 * again keeps its best measurement. A different result is kept as a row of its own, so the
 * result check reports it. */
static int merge_round(struct report *rep, char **field)
{
	for (size_t i = 0; i < rep->nrows; i++) {
		struct row *r = &rep->rows[i];
		if (strcmp(r->library, field[0]) || strcmp(r->function, field[2]) ||
		    strcmp(r->variant, field[3]) || strcmp(r->params, field[4]) ||
		    r->size != (size_t)strtoull(field[5], NULL, 10) ||
		    r->threads != atoi(field[8]) || strcmp(r->mode, field[9]))
			continue;
		if (strcmp(r->check, field[14]))
			return 0;
		double mbps = strtod(field[11], NULL);
		if (mbps > r->mbps) {
			r->calls = strtoull(field[10], NULL, 10);
			r->mbps = mbps;
			r->cpb = field[12][0] ? strtod(field[12], NULL) : NAN;
			r->median = strtod(field[13], NULL);
		}
		r->rounds++;
		return 1;
	}
	return 0;
}

static void read_csv(struct report *rep, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		die("cannot open %s", path);
	if (rep->nsources == sizeof(rep->sources) / sizeof(rep->sources[0]))
		die("too many input files");
	int src = (int)rep->nsources++;
	rep->sources[src].path = path;
	char line[65536];
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#') {
			char *colon = strstr(line, ": ");
			if (colon) {
				*colon = '\0';
				add_meta(rep, src, line + 2, colon + 2);
			}
			continue;
		}
		if (!line[0] || strncmp(line, "library,", 8) == 0)
			continue;
		char *field[MAX_FIELDS];
		int n = 0;
		for (char *p = line;; p++) {
			if (n == MAX_FIELDS)
				die("%s: too many fields in '%s'", path, line);
			field[n++] = p;
			p = strchr(p, ',');
			if (!p)
				break;
			*p = '\0';
		}
		if (n != MAX_FIELDS)
			die("%s: expected %d fields, got %d", path, MAX_FIELDS, n);
		if (merge_round(rep, field))
			continue;
		rep->rows = grow(rep->rows, &rep->caprows, rep->nrows + 1, sizeof(*rep->rows));
		struct row *r = &rep->rows[rep->nrows++];
		r->library = dup_str(field[0]);
		r->module = dup_str(field[1]);
		r->function = dup_str(field[2]);
		r->variant = dup_str(field[3]);
		r->params = dup_str(field[4]);
		r->size = (size_t)strtoull(field[5], NULL, 10);
		r->bytes_per_call = strtoull(field[6], NULL, 10);
		r->bytes_counted = dup_str(field[7]);
		r->threads = atoi(field[8]);
		r->mode = dup_str(field[9]);
		r->calls = strtoull(field[10], NULL, 10);
		r->mbps = strtod(field[11], NULL);
		r->cpb = field[12][0] ? strtod(field[12], NULL) : NAN;
		r->median = strtod(field[13], NULL);
		r->check = dup_str(field[14]);
		r->rounds = 1;
	}
	fclose(f);
	const char *lib = meta_get(rep, src, "library");
	rep->sources[src].library = dup_str(lib ? lib : path);
}

static int same_key(const struct row *r, const struct key *k)
{
	return strcmp(r->function, k->function) == 0 && strcmp(r->params, k->params) == 0 &&
	       strcmp(r->mode, k->mode) == 0;
}

static void collect(struct report *rep)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < rep->nrows; i++) {
			const struct row *r = &rep->rows[i];
			if ((strcmp(r->library, STOA) == 0) != (pass == 0))
				continue;
			size_t k;
			for (k = 0; k < rep->nkeys && !same_key(r, &rep->keys[k]); k++)
				;
			if (k == rep->nkeys) {
				rep->keys = grow(rep->keys, &rep->capkeys, rep->nkeys + 1, sizeof(*rep->keys));
				rep->keys[rep->nkeys++] =
					(struct key){ r->module, r->function, r->params, r->mode };
			}
			size_t s;
			for (s = 0; s < rep->nsizes && rep->sizes[s] != r->size; s++)
				;
			if (s == rep->nsizes && rep->nsizes < sizeof(rep->sizes) / sizeof(rep->sizes[0]))
				rep->sizes[rep->nsizes++] = r->size;
		}
	}
	/* Sizes ascending. */
	for (size_t a = 1; a < rep->nsizes; a++)
		for (size_t b = a; b > 0 && rep->sizes[b - 1] > rep->sizes[b]; b--) {
			size_t t = rep->sizes[b];
			rep->sizes[b] = rep->sizes[b - 1];
			rep->sizes[b - 1] = t;
		}
	for (size_t i = 0; i < rep->nrows; i++) {
		if (strcmp(rep->rows[i].library, STOA) == 0)
			continue;
		size_t p;
		for (p = 0; p < rep->npeers && strcmp(rep->peers[p], rep->rows[i].library); p++)
			;
		if (p == rep->npeers) {
			rep->peers = grow(rep->peers, &rep->cappeers, rep->npeers + 1, sizeof(*rep->peers));
			rep->peers[rep->npeers++] = rep->rows[i].library;
		}
	}
}

/* A library's row for one key and size: its "dispatch" variant when it has one, else its first
 * row (a peer such as zlib has one variant of its own name). */
static const struct row *find(const struct report *rep, const char *library, const struct key *k,
			      size_t size)
{
	const struct row *any = NULL;
	for (size_t i = 0; i < rep->nrows; i++) {
		const struct row *r = &rep->rows[i];
		if (r->size != size || strcmp(r->library, library) || !same_key(r, k))
			continue;
		if (strcmp(r->variant, "dispatch") == 0)
			return r;
		if (!any)
			any = r;
	}
	return any;
}

static const char *size_name(size_t size, char *buf, size_t cap)
{
	if (size >= 1048576 && size % 1048576 == 0)
		snprintf(buf, cap, "%zuMiB", size / 1048576);
	else if (size >= 1024 && size % 1024 == 0)
		snprintf(buf, cap, "%zuKiB", size / 1024);
	else
		snprintf(buf, cap, "%zuB", size);
	return buf;
}

/* A key as the tables show it; rows not measured warm (the default) name their mode. */
static const char *key_name(const struct key *k, char *buf, size_t cap)
{
	int warm = strcmp(k->mode, "warm") == 0;
	snprintf(buf, cap, "%s%s%s%s%s", k->function, *k->params ? " " : "", k->params,
		 warm ? "" : " ", warm ? "" : k->mode);
	return buf;
}

/* The first source that describes the stoa build, for machine-wide facts. */
static int stoa_source(const struct report *rep)
{
	for (size_t s = 0; s < rep->nsources; s++)
		if (strcmp(rep->sources[s].library, STOA) == 0)
			return (int)s;
	return 0;
}

/* Results that must be equal (same function, size and input) but are not. */
struct mismatch {
	const struct row *a, *b;
};

static size_t check_results(const struct report *rep, struct mismatch *out, size_t cap,
			    size_t *compared)
{
	size_t n = 0;
	*compared = 0;
	for (size_t k = 0; k < rep->nkeys; k++) {
		for (size_t s = 0; s < rep->nsizes; s++) {
			const struct row *ref = NULL;
			for (size_t i = 0; i < rep->nrows; i++) {
				const struct row *r = &rep->rows[i];
				if (r->size != rep->sizes[s] || !same_key(r, &rep->keys[k]))
					continue;
				if (!ref) {
					ref = r;
					continue;
				}
				++*compared;
				if (strcmp(r->check, ref->check) && n < cap)
					out[n++] = (struct mismatch){ ref, r };
			}
		}
	}
	return n;
}

/* Geometric mean of stoa/peer over every key and size the peer has. */
static double geomean_ratio(const struct report *rep, const char *peer, size_t *count)
{
	double logsum = 0;
	*count = 0;
	for (size_t k = 0; k < rep->nkeys; k++)
		for (size_t s = 0; s < rep->nsizes; s++) {
			const struct row *a = find(rep, STOA, &rep->keys[k], rep->sizes[s]);
			const struct row *b = find(rep, peer, &rep->keys[k], rep->sizes[s]);
			if (a && b && a->mbps > 0 && b->mbps > 0) {
				logsum += log(a->mbps / b->mbps);
				++*count;
			}
		}
	return *count ? exp(logsum / (double)*count) : NAN;
}

/* The run-wide facts every report starts with: each a label and a value. */
struct fact {
	char label[128];
	char value[8192];
};

static size_t gather_facts(const struct report *rep, struct fact *f, size_t cap, const char *host,
			   const char *date)
{
	size_t n = 0;
	int st = stoa_source(rep);
#define FACT(lbl, ...)                                                                             \
	do {                                                                                       \
		if (n < cap) {                                                                     \
			snprintf(f[n].label, sizeof(f[n].label), "%s", lbl);                       \
			snprintf(f[n].value, sizeof(f[n].value), __VA_ARGS__);                     \
			n++;                                                                       \
		}                                                                                  \
	} while (0)
	const char *v;
	FACT("date", "%s", date);
	FACT("host", "%s", host);
	if ((v = meta_get(rep, st, "cpu_model")))
		FACT("cpu", "%s", v);
	if ((v = meta_get(rep, st, "stoa_cpu_report")))
		FACT("stoa_cpu_report", "%s", v);
	/* stoa first, then the peers' builds in the order given. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t s = 0; s < rep->nsources; s++) {
			if (((int)s == st) != (pass == 0))
				continue;
			char lbl[96];
			snprintf(lbl, sizeof(lbl), "library %s", rep->sources[s].library);
			v = meta_get(rep, (int)s, "library_detail");
			FACT(lbl, "%s", v ? v : "(no detail)");
		}
	for (size_t i = 0; i < rep->nnotes; i++)
		FACT("not measured", "%s", rep->notes[i]);
	/* Cycle sources can differ per build only if the builds ran under different rules; say so
	 * when they do. */
	if ((v = meta_get(rep, st, "cycles")))
		FACT("cycles", "%s", v);
	for (size_t s = 0; s < rep->nsources; s++) {
		const char *o = meta_get(rep, (int)s, "cycles");
		if (o && v && strcmp(o, v) && (int)s != st) {
			char lbl[96];
			snprintf(lbl, sizeof(lbl), "cycles (%s)", rep->sources[s].library);
			FACT(lbl, "%s", o);
		}
	}
	static const char *const keys_shown[] = { "mode", "threads", "timing", "data", "units",
						   "variants_not_supported_by_cpu",
						   "not_benchmarked" };
	for (size_t i = 0; i < sizeof(keys_shown) / sizeof(keys_shown[0]); i++)
		if ((v = meta_get(rep, st, keys_shown[i])))
			FACT(keys_shown[i], "%s", v);
	FACT("bytes counted",
	     "per call as the full table's 'bytes' column says (CRC: the buffer length)");
	int rounds = 1;
	for (size_t i = 0; i < rep->nrows; i++)
		if (rep->rows[i].rounds > rounds)
			rounds = rep->rows[i].rounds;
	FACT("peers", "measured in the same run, interleaved function by function%s; each row is "
		      "the best repetition%s, the median beside it shows the noise",
	     rounds > 1 ? " in several rounds" : "", rounds > 1 ? " of its best round" : "");
	if (rounds > 1)
		FACT("rounds", "%d: every driver ran every function %d times, one whole pass after "
			       "another",
		     rounds, rounds);
#undef FACT
	return n;
}

/* Text report. */

static void text_report(struct report *rep, FILE *out, const struct fact *facts, size_t nfacts)
{
	char b1[64], b2[32];
	fprintf(out, "stoa performance report\n=======================\n\n");
	for (size_t i = 0; i < nfacts; i++)
		fprintf(out, "%-24s %s\n", facts[i].label, facts[i].value);

	struct mismatch mm[64];
	size_t compared, nmm = check_results(rep, mm, 64, &compared);
	fprintf(out, "%-24s ", "result check");
	if (!nmm)
		fprintf(out, "every library and variant gave the same result for the same input "
			     "(%zu comparisons)\n",
			compared);
	else
		fprintf(out, "%zu MISMATCHES of %zu comparisons:\n", nmm, compared);
	for (size_t i = 0; i < nmm; i++)
		fprintf(out, "    %s %s: %s:%s %s vs %s:%s %s\n", mm[i].a->function,
			size_name(mm[i].a->size, b2, sizeof(b2)), mm[i].a->library,
			mm[i].a->variant, mm[i].a->check, mm[i].b->library, mm[i].b->variant,
			mm[i].b->check);

	fprintf(out, "\nRATIO TABLE: stoa's dispatched function MB/s divided by each peer's MB/s, "
		     "same run (> 1: stoa faster)\n\n");
	fprintf(out, "%-22s %7s %10s", "function", "size", "stoa MB/s");
	for (size_t p = 0; p < rep->npeers; p++) {
		char h[64];
		snprintf(h, sizeof(h), "%s MB/s", rep->peers[p]);
		fprintf(out, "  %20s %6s", h, "ratio");
	}
	fprintf(out, "\n");
	for (size_t k = 0; k < rep->nkeys; k++) {
		for (size_t s = 0; s < rep->nsizes; s++) {
			const struct row *a = find(rep, STOA, &rep->keys[k], rep->sizes[s]);
			if (!a)
				continue;
			fprintf(out, "%-22s %7s %10.1f", key_name(&rep->keys[k], b1, sizeof(b1)),
				size_name(rep->sizes[s], b2, sizeof(b2)), a->mbps);
			for (size_t p = 0; p < rep->npeers; p++) {
				const struct row *b = find(rep, rep->peers[p], &rep->keys[k], rep->sizes[s]);
				if (b && b->mbps > 0)
					fprintf(out, "  %20.1f %6.2f", b->mbps, a->mbps / b->mbps);
				else
					fprintf(out, "  %20s %6s", "-", "-");
			}
			fprintf(out, "\n");
		}
	}
	fprintf(out, "%-22s %7s %10s", "geometric mean", "", "");
	for (size_t p = 0; p < rep->npeers; p++) {
		size_t cnt;
		double g = geomean_ratio(rep, rep->peers[p], &cnt);
		char h[32];
		snprintf(h, sizeof(h), "(%zu pairs)", cnt);
		if (cnt)
			fprintf(out, "  %20s %6.2f", h, g);
		else
			fprintf(out, "  %20s %6s", h, "-");
	}
	for (size_t i = 0; i < rep->nparts; i++)
		rep->parts[i].section->write(rep, &rep->parts[i], out, 0);
	fprintf(out, "\n\nFULL TABLE (MB/s = 10^6 bytes/s, best repetition; median of all "
		     "repetitions beside it)\n\n");
	fprintf(out, "%-15s %-22s %-10s %7s %-6s %10s %9s %10s %8s\n", "library", "function",
		"variant", "size", "bytes", "MB/s", "cycles/B", "median", "calls");
	for (size_t k = 0; k < rep->nkeys; k++)
		for (size_t s = 0; s < rep->nsizes; s++)
			for (size_t i = 0; i < rep->nrows; i++) {
				const struct row *r = &rep->rows[i];
				if (r->size != rep->sizes[s] || !same_key(r, &rep->keys[k]))
					continue;
				char cpb[32];
				if (isnan(r->cpb))
					snprintf(cpb, sizeof(cpb), "-");
				else
					snprintf(cpb, sizeof(cpb), "%.3f", r->cpb);
				fprintf(out, "%-15s %-22s %-10s %7s %-6s %10.1f %9s %10.1f %8llu\n",
					r->library, key_name(&rep->keys[k], b1, sizeof(b1)), r->variant,
					size_name(r->size, b2, sizeof(b2)), r->bytes_counted,
					r->mbps, cpb, r->median, r->calls);
			}
}

/* HTML report. */

static void html_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

/* Colour-blind-safe palette (Okabe-Ito plus greys); a series keeps its colour in every chart. */
static const char *const palette[] = { "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9",
				       "#D55E00", "#F0E442", "#000000", "#999999", "#7F3C8D" };
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

static const char *series_colour(struct report *rep, const char *name)
{
	size_t i;
	for (i = 0; i < rep->nseries_names && strcmp(rep->series_names[i], name); i++)
		;
	if (i == rep->nseries_names && rep->nseries_names < 64)
		rep->series_names[rep->nseries_names++] = dup_str(name);
	return palette[i % NPALETTE];
}

/* A round axis step near max/4: 1, 2 or 5 times a power of ten. */
static double nice_step(double max)
{
	double raw = max / 4, p = pow(10, floor(log10(raw > 0 ? raw : 1)));
	double m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

struct series {
	char name[128];
	const char *colour; /* NULL: the colour this name has everywhere */
	double v[64]; /* per group; NAN when absent */
};

/* One panel: groups along x, a bar per series in each group, linear y from 0. The values also
 * sit in each bar's <title>, which browsers show on hover without any script. */
static void svg_panel(struct report *rep, FILE *out, double x0, double y0, double w, double h, const char *title,
		      const char *const *groups, size_t ngroups, const struct series *ser,
		      size_t nser, const char *unit, double refline, int slanted)
{
	double max = refline;
	for (size_t s = 0; s < nser; s++)
		for (size_t g = 0; g < ngroups; g++)
			if (!isnan(ser[s].v[g]) && ser[s].v[g] > max)
				max = ser[s].v[g];
	double step = nice_step(max), top = ceil(max / step) * step;
	if (top <= 0)
		top = 1;
	/* Slanted group labels (long function names) need more room under the axis. */
	double below = slanted ? 90 : 22;
	double left = x0 + 48, bottom = y0 + h - below, ph = h - below - 22, pw = w - 56;
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"t\">", x0 + w / 2, y0 + 13);
	html_text(out, title);
	fprintf(out, "</text>\n");
	for (double t = 0; t <= top * 1.0001; t += step) {
		double y = bottom - t / top * ph;
		fprintf(out,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"g\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" class=\"a\">%g</text>\n",
			left, left + pw, y, y, left - 4, y + 3, t);
	}
	double gw = pw / (double)ngroups, bw = gw * 0.8 / (double)(nser ? nser : 1);
	for (size_t g = 0; g < ngroups; g++) {
		double gx = left + gw * (double)g + gw * 0.1;
		for (size_t s = 0; s < nser; s++) {
			double v = ser[s].v[g];
			if (isnan(v))
				continue;
			double bh = v / top * ph;
			fprintf(out,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>",
				gx + bw * (double)s, bottom - bh, bw > 1.5 ? bw - 0.5 : bw, bh,
				ser[s].colour ? ser[s].colour : series_colour(rep, ser[s].name));
			html_text(out, ser[s].name);
			fprintf(out, ", %s: %.2f %s</title></rect>\n", groups[g], v, unit);
		}
		double lx = gx + gw * 0.4, ly = bottom + 14;
		if (slanted)
			fprintf(out,
				"<text x=\"%.1f\" y=\"%.1f\" class=\"xs\" "
				"transform=\"rotate(-35 %.1f %.1f)\">",
				lx, ly, lx, ly);
		else
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"x\">", lx, ly);
		html_text(out, groups[g]);
		fprintf(out, "</text>\n");
	}
	if (refline > 0) {
		double y = bottom - refline / top * ph;
		fprintf(out,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"r\"/>\n",
			left, left + pw, y, y);
	}
	fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"ax\"/>\n", left,
		left + pw, bottom, bottom);
}

static void svg_legend(struct report *rep, FILE *out, double x, double y, double width, const struct series *ser,
		       size_t nser)
{
	double cx = x, cy = y;
	for (size_t s = 0; s < nser; s++) {
		double wlen = 22 + 7.0 * (double)strlen(ser[s].name);
		if (cx + wlen > x + width) {
			cx = x;
			cy += 16;
		}
		fprintf(out,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"11\" height=\"11\" fill=\"%s\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" class=\"l\">",
			cx, cy, ser[s].colour ? ser[s].colour : series_colour(rep, ser[s].name), cx + 15,
			cy + 10);
		html_text(out, ser[s].name);
		fprintf(out, "</text>\n");
		cx += wlen;
	}
}

static size_t legend_rows(const struct series *ser, size_t nser, double width)
{
	double cx = 0;
	size_t rows_needed = 1;
	for (size_t s = 0; s < nser; s++) {
		double wlen = 22 + 7.0 * (double)strlen(ser[s].name);
		if (cx + wlen > width) {
			cx = 0;
			rows_needed++;
		}
		cx += wlen;
	}
	return rows_needed;
}

/* Per function: one panel per size (each with its own scale, since throughput grows with the
 * size), a bar per library and variant. */
static void html_function_chart(struct report *rep, FILE *out, const struct key *k)
{
	struct series *ser = xcalloc(64, sizeof(*ser)), *one = xcalloc(64, sizeof(*one));
	size_t nser = 0;
	/* stoa's bars first (dispatch, then its variants best first), then the peers'. */
	for (size_t i = 0; i < 2 * rep->nrows && nser < 64; i++) {
		const struct row *r = &rep->rows[i % rep->nrows];
		if (!same_key(r, k) || (strcmp(r->library, STOA) == 0) != (i < rep->nrows))
			continue;
		char name[128];
		snprintf(name, sizeof(name), "%s %s", r->library, r->variant);
		size_t s;
		for (s = 0; s < nser && strcmp(ser[s].name, name); s++)
			;
		if (s == nser) {
			snprintf(ser[nser].name, sizeof(ser[nser].name), "%s", name);
			ser[nser].colour = NULL;
			for (size_t g = 0; g < 64; g++)
				ser[nser].v[g] = NAN;
			nser++;
		}
	}
	/* Bars inside a panel are the series; a panel has one group (its size). */
	const double pw = 190, ph = 210, width = pw * (double)rep->nsizes;
	double lh = 16.0 * (double)legend_rows(ser, nser, width - 20);
	char b1[64];
	fprintf(out, "<h3 id=\"");
	html_text(out, k->function);
	fprintf(out, "\">");
	html_text(out, key_name(k, b1, sizeof(b1)));
	fprintf(out, "</h3>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		     "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
		width, ph + lh + 10, width, ph + lh + 10);
	for (size_t sz = 0; sz < rep->nsizes; sz++) {
		char label[32], title[64];
		const char *groups[1] = { "" };
		size_name(rep->sizes[sz], label, sizeof(label));
		snprintf(title, sizeof(title), "%s (MB/s)", label);
		for (size_t s = 0; s < nser; s++) {
			memcpy(one[s].name, ser[s].name, sizeof(one[s].name));
			one[s].colour = NULL;
			one[s].v[0] = NAN;
		}
		for (size_t i = 0; i < rep->nrows; i++) {
			const struct row *r = &rep->rows[i];
			if (r->size != rep->sizes[sz] || !same_key(r, k))
				continue;
			char name[128];
			snprintf(name, sizeof(name), "%s %s", r->library, r->variant);
			for (size_t s = 0; s < nser; s++)
				if (strcmp(one[s].name, name) == 0)
					one[s].v[0] = r->mbps;
		}
		groups[0] = label;
		svg_panel(rep, out, pw * (double)sz, 0, pw, ph, title, groups, 1, one, nser, "MB/s", 0,
			  0);
	}
	svg_legend(rep, out, 10, ph + 4, width - 20, ser, nser);
	fprintf(out, "</svg>\n");
	free(ser);
	free(one);
}

/* Per peer: stoa/peer for every function (groups) and size (bars), with the parity line. */
static void html_ratio_chart(struct report *rep, FILE *out, const char *peer)
{
	/* A series holds 64 groups. */
	const char *groups[64];
	size_t ng = 0;
	size_t keyidx[64];
	for (size_t k = 0; k < rep->nkeys && ng < 64; k++)
		for (size_t s = 0; s < rep->nsizes; s++)
			if (find(rep, peer, &rep->keys[k], rep->sizes[s]) && find(rep, STOA, &rep->keys[k], rep->sizes[s])) {
				keyidx[ng] = k;
				groups[ng++] = rep->keys[k].function;
				break;
			}
	if (!ng)
		return;
	struct series *ser = xcalloc(rep->nsizes ? rep->nsizes : 1, sizeof(*ser));
	/* Sizes, small to large, in light to dark blues: a palette of their own. */
	static const char *const blues[] = { "#c6dbef", "#9ecae1", "#6baed6", "#3182bd",
					     "#08519c", "#08306b" };
	for (size_t s = 0; s < rep->nsizes; s++) {
		size_name(rep->sizes[s], ser[s].name, sizeof(ser[s].name));
		ser[s].colour = blues[rep->nsizes <= 6 ? s + (7 - rep->nsizes) / 2 : s % 6];
		for (size_t g = 0; g < ng; g++) {
			const struct row *a = find(rep, STOA, &rep->keys[keyidx[g]], rep->sizes[s]);
			const struct row *b = find(rep, peer, &rep->keys[keyidx[g]], rep->sizes[s]);
			ser[s].v[g] = a && b && b->mbps > 0 ? a->mbps / b->mbps : NAN;
		}
	}
	double width = ng > 3 ? 80.0 * (double)ng + 60 : 420, h = 360;
	char title[160];
	snprintf(title, sizeof(title), "stoa / %s (MB/s ratio; line = 1, above: stoa faster)",
		 peer);
	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\">\n",
		width, h + 24, width, h + 24);
	svg_panel(rep, out, 0, 0, width, h, title, groups, ng, ser, rep->nsizes, "x", 1.0, 1);
	svg_legend(rep, out, 50, h + 6, width - 60, ser, rep->nsizes);
	fprintf(out, "</svg>\n");
	free(ser);
}

/* igzip: the inflate and deflate rows get sections of their own. Their size is an input's length
 * and their params name the input, so they do not fit the per-size tables above; deflate's
 * result is the compressed size, which differs between libraries by design. Rows of the
 * functions zlib_deflate and libdeflate_deflate_compress come from the stoa build but measure
 * those libraries. */
struct cli_row {
	char tool[64], level[16], threads[16], op[16];
	double seconds, in_bytes, out_bytes;
};

/* The igzip section's own data, hung on its report part. */
struct zdata {
	const struct row *rows; /* the part's rows */
	size_t nrows;
	const char *libs[16]; /* libraries in the igzip rows: stoa first, then in file order */
	size_t nlibs;
	struct cli_row *clis;
	size_t nclis, capclis;
	const char *cli_notes[32];
	size_t ncli_notes;
};

static struct zdata *zdata_of(struct report_part *part)
{
	if (!part->data) {
		part->data = calloc(1, sizeof(struct zdata));
		if (!part->data)
			die("out of memory");
	}
	return part->data;
}

static const char *zlib_of(const struct row *r)
{
	if (strcmp(r->function, "zlib_deflate") == 0)
		return "zlib";
	if (strcmp(r->function, "libdeflate_deflate_compress") == 0)
		return "libdeflate";
	return r->library;
}

static int is_deflate(const char *function)
{
	return strstr(function, "deflate") && !strstr(function, "inflate");
}

static void zlib_add(struct zdata *z, const char *lib)
{
	for (size_t i = 0; i < z->nlibs; i++)
		if (strcmp(z->libs[i], lib) == 0)
			return;
	if (z->nlibs < sizeof(z->libs) / sizeof(z->libs[0]))
		z->libs[z->nlibs++] = lib;
}

/* The part's rows, and their libraries in order: stoa first, then as the files came. */
static void zdata_prepare(struct zdata *z, const struct report_part *part)
{
	z->rows = part->rows;
	z->nrows = part->nrows;
	z->nlibs = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < z->nrows; i++)
			if ((strcmp(zlib_of(&z->rows[i]), STOA) == 0) == (pass == 0))
				zlib_add(z, zlib_of(&z->rows[i]));
}

/* params "calgary/bib zlib-6" or "mix level=1": the input, and what follows it. */
static const char *split_input(const char *params, char *input, size_t cap)
{
	const char *sp = strrchr(params, ' ');
	size_t n = sp ? (size_t)(sp - params) : strlen(params);
	snprintf(input, cap, "%.*s", (int)n, params);
	return sp ? sp + 1 : "";
}

static const struct row *zfind(const struct zdata *z, const char *lib, const char *function, const char *params,
			       size_t size)
{
	const struct row *any = NULL;
	for (size_t i = 0; i < z->nrows; i++) {
		const struct row *r = &z->rows[i];
		if (r->size != size || strcmp(zlib_of(r), lib) || strcmp(r->function, function) ||
		    strcmp(r->params, params))
			continue;
		if (strcmp(r->variant, "dispatch") == 0)
			return r;
		if (!any)
			any = r;
	}
	return any;
}

/* A deflate row's compressed size in percent of its input; < 0 when the output was wrong. */
static double size_pct(const struct row *r)
{
	unsigned long long c = strtoull(r->check, NULL, 16);
	if (c == 0xbad0bad0bad0bad0ull || !r->size)
		return -1;
	return 100.0 * (double)c / (double)r->size;
}

/* A table written as text (fixed columns) or HTML. */
struct ztab {
	FILE *out;
	int html, col;
};

static void zt_start(struct ztab *t, FILE *out, int html)
{
	t->out = out;
	t->html = html;
	if (html)
		fprintf(out, "<table>\n");
}

static void zt_row(struct ztab *t)
{
	t->col = 0;
	if (t->html)
		fprintf(t->out, "<tr>");
}

static void zt_end_row(struct ztab *t)
{
	fprintf(t->out, t->html ? "</tr>\n" : "\n");
}

static void zt_end(struct ztab *t)
{
	fprintf(t->out, t->html ? "</table>\n" : "\n");
}

/* A cell: head or data; cls "s" left-aligns, "up"/"down" colour a ratio (HTML). */
static void zt_cell(struct ztab *t, int head, const char *cls, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (t->html) {
		fprintf(t->out, "<%s%s%s%s>", head ? "th" : "td", cls ? " class=\"" : "",
			cls ? cls : "", cls ? "\"" : "");
		html_text(t->out, buf);
		fprintf(t->out, "</%s>", head ? "th" : "td");
	} else {
		int w = t->col == 0 ? 26 : t->col == 1 ? 13 : 11;
		fprintf(t->out, "%s%*s", t->col ? " " : "", cls && strcmp(cls, "s") == 0 ? -w : w,
			buf);
	}
	t->col++;
}

static void zt_ratio(struct ztab *t, const struct row *a, const struct row *b)
{
	if (!a || !b || a->mbps <= 0 || b->mbps <= 0) {
		zt_cell(t, 0, NULL, "-");
		return;
	}
	double q = a->mbps / b->mbps;
	zt_cell(t, 0, q >= 1.005 ? "up" : q < 0.995 ? "down" : NULL, "%.2f", q);
}

static void zt_mbps(struct ztab *t, const struct row *r)
{
	if (r)
		zt_cell(t, 0, NULL, "%.1f", r->mbps);
	else
		zt_cell(t, 0, NULL, "-");
}

static void zt_pct(struct ztab *t, const struct row *r)
{
	double p = r ? size_pct(r) : -2;
	if (p >= 0)
		zt_cell(t, 0, NULL, "%.2f%%", p);
	else
		zt_cell(t, 0, p == -1 ? "down" : NULL, p == -1 ? "BAD" : "-");
}

static void heading(FILE *out, int html, int level, const char *text)
{
	if (html) {
		fprintf(out, "<h%d>", level);
		html_text(out, text);
		fprintf(out, "</h%d>\n", level);
	} else {
		fprintf(out, "\n%s\n", text);
		for (size_t i = strlen(text); i > 0; i--)
			fputc(level == 2 ? '=' : '-', out);
		fprintf(out, "\n\n");
	}
}

static void para(FILE *out, int html, const char *text)
{
	if (html) {
		fprintf(out, "<p>");
		html_text(out, text);
		fprintf(out, "</p>\n");
	} else {
		fprintf(out, "%s\n\n", text);
	}
}

/* The libraries with rows for one function. */
static size_t libs_of(const struct zdata *z, const char *function, const char **out)
{
	size_t n = 0;
	for (size_t l = 0; l < z->nlibs; l++)
		for (size_t i = 0; i < z->nrows; i++)
			if (strcmp(z->rows[i].function, function) == 0 &&
			    strcmp(zlib_of(&z->rows[i]), z->libs[l]) == 0) {
				out[n++] = z->libs[l];
				break;
			}
	return n;
}

/* Distinct (params, size) of a function, in the order the rows came. */
static size_t keys_of(const struct zdata *z, const char *function, const struct row **out,
		      size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < z->nrows && n < cap; i++) {
		const struct row *r = &z->rows[i];
		if (strcmp(r->function, function))
			continue;
		size_t k;
		for (k = 0; k < n && (strcmp(out[k]->params, r->params) || out[k]->size != r->size);
		     k++)
			;
		if (k == n)
			out[n++] = r;
	}
	return n;
}

#define ZKEYS 4096

/* A function's table begun: its keys and libraries found, its heading written, the table
 * opened and its head row started with the input, `second` and bytes columns. Returns the
 * key count; 0 writes nothing. */
static size_t zt_function_start(const struct zdata *z, struct ztab *t, FILE *out, int html, const char *function,
				const char *what, const char *second, const struct row **found,
				const char **libs, size_t *nl)
{
	size_t nk = keys_of(z, function, found, ZKEYS);
	*nl = libs_of(z, function, libs);
	if (!nk)
		return 0;
	char title[160];
	snprintf(title, sizeof(title), "%s (%s)", function, what);
	heading(out, html, 3, title);
	zt_start(t, out, html);
	zt_row(t);
	zt_cell(t, 1, "s", "input");
	zt_cell(t, 1, "s", "%s", second);
	zt_cell(t, 1, NULL, "bytes");
	return nk;
}

/* A body row begun for one key: its input, the rest of its params and its size. Returns
 * stoa's row for the key (NULL when stoa has none). */
static const struct row *zt_key_start(const struct zdata *z, struct ztab *t, const char *function, const struct row *key)
{
	char input[96];
	const char *rest = split_input(key->params, input, sizeof(input));
	const struct row *a = zfind(z, STOA, function, key->params, key->size);
	zt_row(t);
	zt_cell(t, 0, "s", "%s", input);
	zt_cell(t, 0, "s", "%s", rest);
	zt_cell(t, 0, NULL, "%zu", key->size);
	return a;
}

static void inflate_table(const struct zdata *z, FILE *out, int html, const char *function, const char *what)
{
	const struct row *keys_[ZKEYS];
	const char *libs[16];
	struct ztab t;
	size_t nl, nk = zt_function_start(z, &t, out, html, function, what, "compressed by", keys_,
					  libs, &nl);
	if (!nk)
		return;
	zt_cell(&t, 1, NULL, "stoa MB/s");
	for (size_t l = 0; l < nl; l++)
		if (strcmp(libs[l], STOA)) {
			zt_cell(&t, 1, NULL, "%.11s", libs[l]);
			zt_cell(&t, 1, NULL, "stoa/it");
		}
	zt_end_row(&t);
	double logsum[16] = { 0 };
	size_t cnt[16] = { 0 };
	for (size_t k = 0; k < nk; k++) {
		const struct row *a = zt_key_start(z, &t, function, keys_[k]);
		zt_mbps(&t, a);
		for (size_t l = 0; l < nl; l++) {
			if (!strcmp(libs[l], STOA))
				continue;
			const struct row *b = zfind(z, libs[l], function, keys_[k]->params,
						    keys_[k]->size);
			zt_mbps(&t, b);
			zt_ratio(&t, a, b);
			if (a && b && a->mbps > 0 && b->mbps > 0) {
				logsum[l] += log(a->mbps / b->mbps);
				cnt[l]++;
			}
		}
		zt_end_row(&t);
	}
	zt_row(&t);
	zt_cell(&t, 1, "s", "geometric mean");
	zt_cell(&t, 1, NULL, "");
	zt_cell(&t, 1, NULL, "");
	zt_cell(&t, 1, NULL, "");
	for (size_t l = 0; l < nl; l++)
		if (strcmp(libs[l], STOA)) {
			zt_cell(&t, 1, NULL, "%zu rows", cnt[l]);
			if (cnt[l])
				zt_cell(&t, 1, NULL, "%.2f", exp(logsum[l] / (double)cnt[l]));
			else
				zt_cell(&t, 1, NULL, "-");
		}
	zt_end_row(&t);
	zt_end(&t);
}

/* ISA-L's deflate per input and level: MB/s and compressed size per library, and stoa's
 * speed over each. */
static void deflate_table(const struct zdata *z, FILE *out, int html, const char *function, const char *what)
{
	const struct row *keys_[ZKEYS];
	const char *libs[16];
	struct ztab t;
	size_t nl, nk = zt_function_start(z, &t, out, html, function, what, "level", keys_, libs,
					  &nl);
	if (!nk)
		return;
	for (size_t l = 0; l < nl; l++) {
		zt_cell(&t, 1, NULL, "%.11s", libs[l]);
		zt_cell(&t, 1, NULL, "size %%");
		if (strcmp(libs[l], STOA))
			zt_cell(&t, 1, NULL, "stoa/it");
	}
	zt_end_row(&t);
	for (size_t k = 0; k < nk; k++) {
		const struct row *a = zt_key_start(z, &t, function, keys_[k]);
		for (size_t l = 0; l < nl; l++) {
			const struct row *b = zfind(z, libs[l], function, keys_[k]->params,
						    keys_[k]->size);
			zt_mbps(&t, b);
			zt_pct(&t, b);
			if (strcmp(libs[l], STOA))
				zt_ratio(&t, a, b);
		}
		zt_end_row(&t);
	}
	zt_end(&t);
}

/* The other libraries' compressors, one column pair per library and level. */
static void deflate_peer_table(const struct zdata *z, FILE *out, int html)
{
	static const struct {
		const char *function, *params_tail, *label;
	} cols[] = { { "zlib_deflate", "level=1", "zlib -1" },
		     { "zlib_deflate", "level=6", "zlib -6" },
		     { "libdeflate_deflate_compress", "level=1", "libdeflate -1" },
		     { "libdeflate_deflate_compress", "level=6", "libdeflate -6" } };
	const struct row *keys_[ZKEYS];
	size_t nk = keys_of(z, "zlib_deflate", keys_, ZKEYS);
	if (!nk)
		nk = keys_of(z, "libdeflate_deflate_compress", keys_, ZKEYS);
	if (!nk)
		return;
	heading(out, html, 3, "zlib and libdeflate (raw deflate, one call per input)");
	struct ztab t;
	zt_start(&t, out, html);
	zt_row(&t);
	zt_cell(&t, 1, "s", "input");
	zt_cell(&t, 1, NULL, "bytes");
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
		zt_cell(&t, 1, NULL, "%s", cols[c].label);
		zt_cell(&t, 1, NULL, "size %%");
	}
	zt_end_row(&t);
	for (size_t k = 0; k < nk; k++) {
		char input[96], params[128];
		const char *tail = split_input(keys_[k]->params, input, sizeof(input));
		if (strcmp(tail, "level=1"))
			continue;
		zt_row(&t);
		zt_cell(&t, 0, "s", "%s", input);
		zt_cell(&t, 0, NULL, "%zu", keys_[k]->size);
		for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
			snprintf(params, sizeof(params), "%s %s", input, cols[c].params_tail);
			const struct row *r = zfind(z, strstr(cols[c].function, "libdeflate") ?
							    "libdeflate" : "zlib",
						    cols[c].function, params, keys_[k]->size);
			zt_mbps(&t, r);
			zt_pct(&t, r);
		}
		zt_end_row(&t);
	}
	zt_end(&t);
}

/* The Pareto picture for one input: a point per library and level at (MB/s, size %), x on a
 * log scale, a library's levels joined in order. */
static void pareto_svg(struct report *rep, const struct zdata *z, FILE *out, const char *input)
{
	struct pt {
		double x, y;
		char label[16];
	};
	struct pt pts[16][16];
	size_t npts[16] = { 0 };
	double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
	for (size_t i = 0; i < z->nrows; i++) {
		const struct row *r = &z->rows[i];
		char in[96];
		const char *tail = split_input(r->params, in, sizeof(in));
		if (strcmp(in, input) || !is_deflate(r->function) ||
		    strcmp(r->function, "isal_deflate") == 0 || strcmp(r->variant, "dispatch") ||
		    r->mbps <= 0 || size_pct(r) < 0)
			continue;
		size_t l;
		for (l = 0; l < z->nlibs && strcmp(z->libs[l], zlib_of(r)); l++)
			;
		if (l == z->nlibs || npts[l] == 16)
			continue;
		struct pt *p = &pts[l][npts[l]++];
		p->x = r->mbps;
		p->y = size_pct(r);
		snprintf(p->label, sizeof(p->label), "-%s", strncmp(tail, "level=", 6) ? tail : tail + 6);
		xmin = fmin(xmin, p->x);
		xmax = fmax(xmax, p->x);
		ymin = fmin(ymin, p->y);
		ymax = fmax(ymax, p->y);
	}
	if (xmax <= 0)
		return;
	double lx0 = floor(log10(xmin)), lx1 = ceil(log10(xmax));
	if (lx1 <= lx0)
		lx1 = lx0 + 1;
	double y0 = floor(ymin / 5) * 5, y1 = ceil(ymax / 5) * 5;
	if (y1 <= y0)
		y1 = y0 + 5;
	const double W = 640, H = 380, L = 56, R = 20, T = 28, B = 44;
	double pw = W - L - R, ph = H - T - B;
#define PX(v) (L + (log10(v) - lx0) / (lx1 - lx0) * pw)
#define PY(v) (T + (y1 - (v)) / (y1 - y0) * ph)
	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\">\n",
		W, H + 20, W, H + 20);
	fprintf(out, "<text x=\"%.1f\" y=\"16\" class=\"t\">", W / 2);
	html_text(out, input);
	fprintf(out, ": size %% against MB/s, stateless (lower right is better)</text>\n");
	for (double d = lx0; d <= lx1 + 1e-9; d++)
		for (int m = 1; m < 10; m++) {
			double v = pow(10, d) * m;
			if (log10(v) > lx1 + 1e-9)
				break;
			double x = PX(v);
			fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"g\"/>",
				x, x, (double)T, T + ph);
			if (m == 1 || m == 2 || m == 5)
				fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"x\">%g</text>\n", x,
					T + ph + 14, v);
		}
	for (double v = y0; v <= y1 + 1e-9; v += 5) {
		double y = PY(v);
		fprintf(out,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"g\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" class=\"a\">%g%%</text>\n",
			L, L + pw, y, y, L - 4, y + 3, v);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"x\">MB/s (log scale)</text>\n",
		L + pw / 2, T + ph + 30);
	for (size_t l = 0; l < z->nlibs; l++) {
		if (!npts[l])
			continue;
		const char *colour = series_colour(rep, z->libs[l]);
		fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
			colour);
		for (size_t k = 0; k < npts[l]; k++)
			fprintf(out, "%.1f,%.1f ", PX(pts[l][k].x), PY(pts[l][k].y));
		fprintf(out, "\"/>\n");
		for (size_t k = 0; k < npts[l]; k++) {
			double x = PX(pts[l][k].x), y = PY(pts[l][k].y);
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>", x,
				y, colour);
			html_text(out, z->libs[l]);
			fprintf(out, " %s: %.1f MB/s, %.2f%%</title></circle>"
				     "<text x=\"%.1f\" y=\"%.1f\" class=\"l\" fill=\"%s\">%s</text>\n",
				pts[l][k].label, pts[l][k].x, pts[l][k].y, x + 5, y - 5, colour,
				pts[l][k].label);
		}
	}
	fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"ax\"/>\n", L,
		L + pw, T + ph, T + ph);
	struct series leg[16];
	size_t nleg = 0;
	for (size_t l = 0; l < z->nlibs; l++)
		if (npts[l]) {
			snprintf(leg[nleg].name, sizeof(leg[nleg].name), "%s", z->libs[l]);
			leg[nleg++].colour = NULL;
		}
	svg_legend(rep, out, L, H + 2, pw, leg, nleg);
	fprintf(out, "</svg>\n");
#undef PX
#undef PY
}

/* The command benchmark's CSV (perf/cli_bench.sh): tool,level,threads,op,seconds,in,out. */
static void read_cli(struct zdata *z, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		die("cannot open %s", path);
	char line[1024];
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#') {
			if (!strncmp(line, "# note: ", 8) &&
			    z->ncli_notes < sizeof(z->cli_notes) / sizeof(z->cli_notes[0]))
				z->cli_notes[z->ncli_notes++] = dup_str(line + 8);
			continue;
		}
		struct cli_row c;
		if (sscanf(line, "%63[^,],%15[^,],%15[^,],%15[^,],%lf,%lf,%lf", c.tool, c.level,
			   c.threads, c.op, &c.seconds, &c.in_bytes, &c.out_bytes) != 7)
			continue;
		z->clis = grow(z->clis, &z->capclis, z->nclis + 1, sizeof(*z->clis));
		z->clis[z->nclis++] = c;
	}
	fclose(f);
}

/* MB/s of a command row: the uncompressed bytes over the wall-clock time. */
static double cli_mbps(const struct cli_row *c)
{
	double raw = strcmp(c->op, "compress") == 0 ? c->in_bytes : c->out_bytes;
	return c->seconds > 0 ? raw / c->seconds / 1e6 : 0;
}

static const struct cli_row *cli_ref(const struct zdata *z, const struct cli_row *c)
{
	const struct cli_row *one = NULL;
	for (size_t i = 0; i < z->nclis; i++) {
		const struct cli_row *r = &z->clis[i];
		if (strcmp(r->tool, "igzip-debian") || strcmp(r->op, c->op))
			continue;
		if (strcmp(r->level, c->level) == 0)
			return r;
		if (strcmp(r->level, "1") == 0)
			one = r;
	}
	return one;
}

/* The same command, operation and level on one thread, for a row run on more. */
static const struct cli_row *cli_one_thread(const struct zdata *z, const struct cli_row *c)
{
	if (strcmp(c->threads, "1") == 0)
		return NULL;
	for (size_t i = 0; i < z->nclis; i++) {
		const struct cli_row *r = &z->clis[i];
		if (!strcmp(r->tool, c->tool) && !strcmp(r->op, c->op) && !strcmp(r->level, c->level) &&
		    !strcmp(r->threads, "1"))
			return r;
	}
	return NULL;
}

static void cli_table(const struct zdata *z, FILE *out, int html)
{
	if (!z->nclis && !z->ncli_notes)
		return;
	heading(out, html, 3, "Commands on the 100 MiB mix (perf/cli_bench.sh)");
	para(out, html,
	     "Wall clock, best of CLI_REPS runs (default 7), file to file in a temporary directory "
	     "(in memory where /dev/shm is, see the note), the previous run's output removed "
	     "untimed before each run; MB/s counts uncompressed bytes; the ratio is MB/s over "
	     "Debian's igzip at the same level (-1 when it has no such level), above 1 faster; "
	     "\"vs -T 1\" is a threaded row's MB/s "
	     "over the same command's on one thread.");
	for (size_t i = 0; i < z->ncli_notes; i++)
		para(out, html, z->cli_notes[i]);
	if (!z->nclis)
		return;
	struct ztab t;
	zt_start(&t, out, html);
	zt_row(&t);
	zt_cell(&t, 1, "s", "command");
	zt_cell(&t, 1, "s", "operation");
	zt_cell(&t, 1, NULL, "level");
	zt_cell(&t, 1, NULL, "threads");
	zt_cell(&t, 1, NULL, "seconds");
	zt_cell(&t, 1, NULL, "MB/s");
	zt_cell(&t, 1, NULL, "size %%");
	zt_cell(&t, 1, NULL, "vs igzip");
	zt_cell(&t, 1, NULL, "vs -T 1");
	zt_end_row(&t);
	for (size_t i = 0; i < z->nclis; i++) {
		const struct cli_row *c = &z->clis[i], *ref = cli_ref(z, c);
		double raw = strcmp(c->op, "compress") == 0 ? c->in_bytes : c->out_bytes;
		double comp = strcmp(c->op, "compress") == 0 ? c->out_bytes : c->in_bytes;
		zt_row(&t);
		zt_cell(&t, 0, "s", "%s", c->tool);
		zt_cell(&t, 0, "s", "%s", c->op);
		zt_cell(&t, 0, NULL, "-%s", c->level);
		zt_cell(&t, 0, NULL, "%s", c->threads);
		zt_cell(&t, 0, NULL, "%.3f", c->seconds);
		zt_cell(&t, 0, NULL, "%.1f", cli_mbps(c));
		zt_cell(&t, 0, NULL, "%.2f%%", raw > 0 ? 100 * comp / raw : 0);
		if (ref && cli_mbps(ref) > 0) {
			double q = cli_mbps(c) / cli_mbps(ref);
			zt_cell(&t, 0, q >= 1.005 ? "up" : q < 0.995 ? "down" : NULL, "%.2f", q);
		} else {
			zt_cell(&t, 0, NULL, "-");
		}
		const struct cli_row *one = cli_one_thread(z, c);
		if (one && cli_mbps(one) > 0)
			zt_cell(&t, 0, NULL, "%.2f", cli_mbps(c) / cli_mbps(one));
		else
			zt_cell(&t, 0, NULL, "-");
		zt_end_row(&t);
	}
	zt_end(&t);
}

/* Inflate results must agree across libraries (the same bytes come out); deflate's are sizes. */
static size_t igzip_mismatches(const struct zdata *z, FILE *out, size_t *compared)
{
	size_t n = 0;
	*compared = 0;
	for (size_t i = 0; i < z->nrows; i++) {
		const struct row *a = &z->rows[i];
		if (is_deflate(a->function))
			continue;
		for (size_t j = 0; j < i; j++) {
			const struct row *b = &z->rows[j];
			if (strcmp(a->function, b->function) || strcmp(a->params, b->params) ||
			    a->size != b->size)
				continue;
			++*compared;
			if (strcmp(a->check, b->check)) {
				if (out)
					fprintf(out, "    %s %s: %s:%s %s vs %s:%s %s\n",
						a->function, a->params, a->library, a->variant,
						a->check, b->library, b->variant, b->check);
				n++;
			}
			break;
		}
	}
	for (size_t i = 0; i < z->nrows; i++)
		if (is_deflate(z->rows[i].function) && size_pct(&z->rows[i]) < 0) {
			if (out)
				fprintf(out, "    %s %s: %s:%s wrote output that does not inflate back\n",
					z->rows[i].function, z->rows[i].params, z->rows[i].library,
					z->rows[i].variant);
			n++;
		}
	return n;
}

static void igzip_report(struct report *rep, struct report_part *part, FILE *out, int html)
{
	struct zdata *z = zdata_of(part);
	zdata_prepare(z, part);
	if (!z->nrows && !z->nclis && !z->ncli_notes)
		return;
	heading(out, html, 2, "igzip: inflate and deflate");
	size_t compared, bad = igzip_mismatches(z, NULL, &compared);
	char text[512];
	snprintf(text, sizeof(text),
		 "Inputs: the Calgary and Canterbury files and each corpus concatenated (.cat), and "
		 "for deflate a generated 100 MiB mix (corpus text, random bytes and runs); bytes = "
		 "the input's length. Checks: %zu comparisons of inflate results across libraries "
		 "and variants; %zu problems (inflate results that differ, deflate output that does "
		 "not inflate back)%s.",
		 compared, bad, bad ? " (listed in the text report)" : "");
	para(out, html, text);
	if (bad && !html) {
		igzip_mismatches(z, out, &compared);
		fprintf(out, "\n");
	}
	inflate_table(z, out, html, "isal_inflate_stateless",
		      "one call per stream; MB/s of decompressed bytes");
	inflate_table(z, out, html, "isal_inflate",
		      "16 KiB in and 64 KiB out per call; MB/s of decompressed bytes");
	if (html) {
		heading(out, html, 3, "deflate: size against speed");
		const char *big[] = { "calgary.cat", "canterbury.cat", "mix" };
		for (size_t i = 0; i < 3; i++)
			pareto_svg(rep, z, out, big[i]);
	}
	deflate_table(z, out, html, "isal_deflate_stateless",
		      "raw deflate in one call; MB/s of input bytes; size = compressed / input");
	deflate_table(z, out, html, "isal_deflate",
		      "gzip from 64 KiB input chunks; MB/s of input bytes");
	deflate_peer_table(z, out, html);
	cli_table(z, out, html);

	heading(out, html, 3, "igzip: every row");
	struct ztab t;
	zt_start(&t, out, html);
	zt_row(&t);
	zt_cell(&t, 1, "s", "function");
	zt_cell(&t, 1, "s", "library");
	zt_cell(&t, 1, "s", "variant");
	zt_cell(&t, 1, "s", "params");
	zt_cell(&t, 1, NULL, "bytes");
	zt_cell(&t, 1, NULL, "MB/s");
	zt_cell(&t, 1, NULL, "median");
	zt_cell(&t, 1, NULL, "result");
	zt_end_row(&t);
	for (size_t i = 0; i < z->nrows; i++) {
		const struct row *r = &z->rows[i];
		zt_row(&t);
		zt_cell(&t, 0, "s", "%s", r->function);
		zt_cell(&t, 0, "s", "%s", r->library);
		zt_cell(&t, 0, "s", "%s", r->variant);
		zt_cell(&t, 0, "s", "%s", r->params);
		zt_cell(&t, 0, NULL, "%zu", r->size);
		zt_cell(&t, 0, NULL, "%.1f", r->mbps);
		zt_cell(&t, 0, NULL, "%.1f", r->median);
		zt_cell(&t, 0, "s", "%s", r->check);
		zt_end_row(&t);
	}
	zt_end(&t);
}

static void igzip_read_cli(struct report_part *part, const char *path)
{
	read_cli(zdata_of(part), path);
}

static const struct report_section igzip_section = {
	.module = "igzip",
	.option = "--cli",
	.read_option = igzip_read_cli,
	.write = igzip_report,
};

/* The module sections, in the order they are written. */
static const struct report_section *const sections[] = { &igzip_section };

static void html_report(struct report *rep, FILE *out, const struct fact *facts, size_t nfacts)
{
	char b1[64], b2[32];
	fprintf(out,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>stoa performance report</title>\n<style>\n"
		"body{font-family:sans-serif;margin:20px;color:#222;max-width:1400px}\n"
		"table{border-collapse:collapse;font-size:13px;margin:8px 0 20px}\n"
		"td,th{border:1px solid #ccc;padding:2px 7px;text-align:right}\n"
		"th{background:#eee}td.s{text-align:left}\n"
		"td.up{background:#d8f0d8}td.down{background:#f6d5d5}\n"
		"dl{display:grid;grid-template-columns:max-content auto;gap:2px 14px;"
		"font-size:13px}\n"
		"dt{font-weight:bold}dd{margin:0;word-break:break-word}\n"
		"svg{display:block;margin:4px 0 16px}\n"
		"svg text{font-family:sans-serif}\n"
		"svg .t{font-size:12px;text-anchor:middle;font-weight:bold}\n"
		"svg .a{font-size:10px;text-anchor:end;fill:#555}\n"
		"svg .x{font-size:10px;text-anchor:middle}svg .xs{font-size:10px;text-anchor:end}\n"
		"svg .l{font-size:11px}\n"
		"svg .g{stroke:#ddd;stroke-width:1}svg .ax{stroke:#333;stroke-width:1}\n"
		"svg .r{stroke:#c00;stroke-width:1.5;stroke-dasharray:4 3}\n"
		".bad{color:#b00;font-weight:bold}\n"
		"</style>\n</head>\n<body>\n<h1>stoa performance report</h1>\n<dl>\n");
	for (size_t i = 0; i < nfacts; i++) {
		fprintf(out, "<dt>");
		html_text(out, facts[i].label);
		fprintf(out, "</dt><dd>");
		html_text(out, facts[i].value);
		fprintf(out, "</dd>\n");
	}
	struct mismatch mm[64];
	size_t compared, nmm = check_results(rep, mm, 64, &compared);
	fprintf(out, "<dt>result check</dt><dd%s>", nmm ? " class=\"bad\"" : "");
	if (!nmm)
		fprintf(out, "every library and variant gave the same result for the same input "
			     "(%zu comparisons)",
			compared);
	else
		fprintf(out, "%zu mismatches of %zu comparisons (see the text report)", nmm,
			compared);
	fprintf(out, "</dd>\n</dl>\n");

	fprintf(out, "<h2>Ratio table</h2>\n<p>stoa's dispatched function MB/s divided by each "
		     "peer's, measured in the same run; above 1, stoa is faster.</p>\n");
	fprintf(out, "<table>\n<tr><th>function</th><th>size</th><th>stoa MB/s</th>");
	for (size_t p = 0; p < rep->npeers; p++) {
		fprintf(out, "<th>");
		html_text(out, rep->peers[p]);
		fprintf(out, " MB/s</th><th>ratio</th>");
	}
	fprintf(out, "</tr>\n");
	for (size_t k = 0; k < rep->nkeys; k++)
		for (size_t s = 0; s < rep->nsizes; s++) {
			const struct row *a = find(rep, STOA, &rep->keys[k], rep->sizes[s]);
			if (!a)
				continue;
			fprintf(out, "<tr><td class=\"s\">");
			html_text(out, key_name(&rep->keys[k], b1, sizeof(b1)));
			fprintf(out, "</td><td>%s</td><td>%.1f</td>",
				size_name(rep->sizes[s], b2, sizeof(b2)), a->mbps);
			for (size_t p = 0; p < rep->npeers; p++) {
				const struct row *b = find(rep, rep->peers[p], &rep->keys[k], rep->sizes[s]);
				if (b && b->mbps > 0) {
					double q = a->mbps / b->mbps;
					/* What prints as 1.00 is a tie, not a loss or a win. */
					const char *cls = "eq";
					if (q >= 1.005)
						cls = "up";
					else if (q < 0.995)
						cls = "down";
					fprintf(out, "<td>%.1f</td><td class=\"%s\">%.2f</td>",
						b->mbps, cls, q);
				} else {
					fprintf(out, "<td>-</td><td>-</td>");
				}
			}
			fprintf(out, "</tr>\n");
		}
	fprintf(out, "<tr><th colspan=\"3\">geometric mean</th>");
	for (size_t p = 0; p < rep->npeers; p++) {
		size_t cnt;
		double g = geomean_ratio(rep, rep->peers[p], &cnt);
		if (cnt)
			fprintf(out, "<th>%zu pairs</th><th>%.2f</th>", cnt, g);
		else
			fprintf(out, "<th>-</th><th>-</th>");
	}
	fprintf(out, "</tr>\n</table>\n");

	fprintf(out, "<h2>stoa against each peer</h2>\n");
	for (size_t p = 0; p < rep->npeers; p++)
		html_ratio_chart(rep, out, rep->peers[p]);

	fprintf(out, "<h2>Throughput per function, variant and size</h2>\n<p>Each panel has its "
		     "own scale; hover a bar for its value.</p>\n");
	for (size_t k = 0; k < rep->nkeys; k++)
		html_function_chart(rep, out, &rep->keys[k]);

	for (size_t i = 0; i < rep->nparts; i++)
		rep->parts[i].section->write(rep, &rep->parts[i], out, 1);

	fprintf(out, "<h2>Full table</h2>\n<table>\n<tr><th>library</th><th>function</th>"
		     "<th>variant</th><th>size</th><th>bytes counted</th><th>MB/s</th>"
		     "<th>cycles/B</th><th>median MB/s</th><th>calls/rep</th><th>result</th>"
		     "</tr>\n");
	for (size_t k = 0; k < rep->nkeys; k++)
		for (size_t s = 0; s < rep->nsizes; s++)
			for (size_t i = 0; i < rep->nrows; i++) {
				const struct row *r = &rep->rows[i];
				if (r->size != rep->sizes[s] || !same_key(r, &rep->keys[k]))
					continue;
				fprintf(out, "<tr><td class=\"s\">");
				html_text(out, r->library);
				fprintf(out, "</td><td class=\"s\">");
				html_text(out, key_name(&rep->keys[k], b1, sizeof(b1)));
				fprintf(out, "</td><td class=\"s\">");
				html_text(out, r->variant);
				fprintf(out, "</td><td>%s</td><td class=\"s\">",
					size_name(r->size, b2, sizeof(b2)));
				html_text(out, r->bytes_counted);
				if (isnan(r->cpb))
					fprintf(out, "</td><td>%.1f</td><td>-</td>", r->mbps);
				else
					fprintf(out, "</td><td>%.1f</td><td>%.3f</td>", r->mbps,
						r->cpb);
				fprintf(out, "<td>%.1f</td><td>%llu</td><td class=\"s\"><code>",
					r->median, r->calls);
				html_text(out, r->check);
				fprintf(out, "</code></td></tr>\n");
			}
	fprintf(out, "</table>\n</body>\n</html>\n");
}

/* Moves each section's rows out of the per-size tables into its part. */
static void claim_rows(struct report *rep)
{
	size_t keep = 0;
	for (size_t i = 0; i < rep->nrows; i++) {
		struct report_part *part = NULL;
		for (size_t p = 0; p < rep->nparts && !part; p++)
			if (strcmp(rep->rows[i].module, rep->parts[p].section->module) == 0)
				part = &rep->parts[p];
		if (!part) {
			rep->rows[keep++] = rep->rows[i];
			continue;
		}
		part->rows = grow(part->rows, &part->caprows, part->nrows + 1, sizeof(*part->rows));
		part->rows[part->nrows++] = rep->rows[i];
	}
	rep->nrows = keep;
}

static void usage(const struct report *rep)
{
	char opts[256] = "";
	for (size_t p = 0; p < rep->nparts; p++)
		if (rep->parts[p].section->option)
			snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts), " [%s FILE]",
				 rep->parts[p].section->option);
	die("usage: perf_report_writer --out BASE [--host H] [--date D] [--note TEXT]...%s "
	    "FILE.csv...",
	    opts);
}

int main(int argc, char **argv)
{
	const char *base = NULL, *host = NULL, *date = NULL;
	char hostbuf[256], datebuf[32];
	struct report *rep = calloc(1, sizeof(*rep));
	int i;
	if (!rep)
		die("out of memory");
	for (size_t p = 0; p < sizeof(sections) / sizeof(sections[0]); p++)
		rep->parts[rep->nparts++].section = sections[p];
	for (i = 1; i < argc; i++) {
		struct report_part *opt_part = NULL;
		for (size_t p = 0; p < rep->nparts && !opt_part; p++)
			if (rep->parts[p].section->option &&
			    strcmp(argv[i], rep->parts[p].section->option) == 0)
				opt_part = &rep->parts[p];
		if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
			base = argv[++i];
		else if (strcmp(argv[i], "--host") == 0 && i + 1 < argc)
			host = argv[++i];
		else if (strcmp(argv[i], "--date") == 0 && i + 1 < argc)
			date = argv[++i];
		else if (strcmp(argv[i], "--note") == 0 && i + 1 < argc) {
			if (rep->nnotes < sizeof(rep->notes) / sizeof(rep->notes[0]))
				rep->notes[rep->nnotes++] = argv[++i];
		} else if (opt_part && i + 1 < argc) {
			opt_part->section->read_option(opt_part, argv[++i]);
		} else if (argv[i][0] == '-')
			usage(rep);
		else
			read_csv(rep, argv[i]);
	}
	if (!base || !rep->nsources)
		die("need --out BASE and at least one CSV file");
	if (!host) {
		if (gethostname(hostbuf, sizeof(hostbuf)))
			snprintf(hostbuf, sizeof(hostbuf), "unknown");
		hostbuf[sizeof(hostbuf) - 1] = '\0';
		host = hostbuf;
	}
	if (!date) {
		time_t now = time(NULL);
		strftime(datebuf, sizeof(datebuf), "%Y-%m-%d", localtime(&now));
		date = datebuf;
	}
	if (!rep->nrows)
		die("no result rows in the input");
	claim_rows(rep);
	collect(rep);

	struct fact *facts = calloc(64, sizeof(*facts));
	if (!facts)
		die("out of memory");
	size_t nfacts = gather_facts(rep, facts, 64, host, date);
	char path[4096];
	snprintf(path, sizeof(path), "%s.txt", base);
	FILE *f = fopen(path, "w");
	if (!f)
		die("cannot write %s", path);
	text_report(rep, f, facts, nfacts);
	if (fclose(f))
		die("cannot write %s", path);
	snprintf(path, sizeof(path), "%s.html", base);
	f = fopen(path, "w");
	if (!f)
		die("cannot write %s", path);
	html_report(rep, f, facts, nfacts);
	if (fclose(f))
		die("cannot write %s", path);
	return 0;
}
