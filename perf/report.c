/* perf_report_writer: turns the drivers' CSV output into the text and HTML reports.
 *
 *   perf_report_writer --out BASE [--host H] [--date D] [--note TEXT]... [SECTION OPTION]...
 *                      FILE.csv...
 *
 * Each CSV comes from one driver build (one library, plus the peers measured in the stoa build);
 * its "# key: value" lines describe the run. The files may hold several runs appended (one per
 * function), so repeated header and meta lines are expected. Peers in the ratio table come in the
 * order the files are given. The HTML is one file: inline CSS and SVG, no scripts. A module
 * whose rows do not fit the per-size tables gets a section of its own (report_sections.c), which
 * may read a further file named by an option of its own.
 *
 * This file is the generic part: it reads the CSV files, gathers the rows into keys, sizes and
 * peers, checks that equal inputs gave equal results, and writes the text report. */
#include "report.h"

#define MAX_FIELDS 15

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("perf_report_writer: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

char *dup_str(const char *s)
{
	char *d = strdup(s);
	if (!d)
		die("out of memory");
	return d;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (!p)
		die("out of memory");
	return p;
}

void *grow(void *p, size_t *cap, size_t need, size_t elem)
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

int same_key(const struct row *r, const struct key *k)
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
				rep->keys = grow(rep->keys, &rep->capkeys, rep->nkeys + 1,
				                 sizeof(*rep->keys));
				rep->keys[rep->nkeys++] =
				    (struct key){ r->module, r->function, r->params, r->mode };
			}
			size_t s;
			for (s = 0; s < rep->nsizes && rep->sizes[s] != r->size; s++)
				;
			if (s == rep->nsizes &&
			    rep->nsizes < sizeof(rep->sizes) / sizeof(rep->sizes[0]))
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
			rep->peers =
			    grow(rep->peers, &rep->cappeers, rep->npeers + 1, sizeof(*rep->peers));
			rep->peers[rep->npeers++] = rep->rows[i].library;
		}
	}
}

/* A library's row for one key and size: its "dispatch" variant when it has one, else its first
 * row (a peer library has one variant, named after itself). */
const struct row *find(const struct report *rep, const char *library, const struct key *k,
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

const struct row **rows_in_order(const struct report *rep, size_t *n)
{
	const struct row **order = xcalloc(rep->nrows, sizeof(*order));
	*n = 0;
	for (size_t k = 0; k < rep->nkeys; k++)
		for (size_t s = 0; s < rep->nsizes; s++)
			for (size_t i = 0; i < rep->nrows; i++)
				if (rep->rows[i].size == rep->sizes[s] &&
				    same_key(&rep->rows[i], &rep->keys[k]))
					order[(*n)++] = &rep->rows[i];
	return order;
}

const char *size_name(size_t size, char *buf, size_t cap)
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
const char *key_name(const struct key *k, char *buf, size_t cap)
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

size_t check_results(const struct report *rep, struct mismatch *out, size_t cap, size_t *compared)
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
double geomean_ratio(const struct report *rep, const char *peer, size_t *count)
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
	static const char *const keys_shown[] = { "mode",           "threads",
		                                  "timing",         "data",
		                                  "units",          "variants_not_supported_by_cpu",
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
	FACT("peers",
	     "measured in the same run, interleaved function by function%s; each row is "
	     "the best repetition%s, the median beside it shows the noise",
	     rounds > 1 ? " in several rounds" : "", rounds > 1 ? " of its best round" : "");
	if (rounds > 1)
		FACT("rounds",
		     "%d: every driver ran every function %d times, one whole pass after "
		     "another",
		     rounds, rounds);
#undef FACT
	return n;
}

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
		fprintf(out,
		        "every library and variant gave the same result for the same input "
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
				const struct row *b =
				    find(rep, rep->peers[p], &rep->keys[k], rep->sizes[s]);
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
	size_t n;
	const struct row **order = rows_in_order(rep, &n);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = order[i];
		const struct key k = { r->module, r->function, r->params, r->mode };
		char cpb[32];
		if (isnan(r->cpb))
			snprintf(cpb, sizeof(cpb), "-");
		else
			snprintf(cpb, sizeof(cpb), "%.3f", r->cpb);
		fprintf(out, "%-15s %-22s %-10s %7s %-6s %10.1f %9s %10.1f %8llu\n", r->library,
		        key_name(&k, b1, sizeof(b1)), r->variant,
		        size_name(r->size, b2, sizeof(b2)), r->bytes_counted, r->mbps, cpb,
		        r->median, r->calls);
	}
	free(order);
}

void html_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

void table_start(struct table *t, FILE *out, int html)
{
	t->out = out;
	t->html = html;
	if (html)
		fprintf(out, "<table>\n");
}

void table_row(struct table *t)
{
	t->col = 0;
	if (t->html)
		fprintf(t->out, "<tr>");
}

void table_end_row(struct table *t)
{
	fprintf(t->out, t->html ? "</tr>\n" : "\n");
}

void table_end(struct table *t)
{
	fprintf(t->out, t->html ? "</table>\n" : "\n");
}

/* A cell: head or data; cls "s" left-aligns, "up"/"down" colour a ratio (HTML). */
void table_cell(struct table *t, int head, const char *cls, const char *fmt, ...)
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

void heading(FILE *out, int html, int level, const char *text)
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

void para(FILE *out, int html, const char *text)
{
	if (html) {
		fprintf(out, "<p>");
		html_text(out, text);
		fprintf(out, "</p>\n");
	} else {
		fprintf(out, "%s\n\n", text);
	}
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
	for (size_t p = 0; sections[p]; p++)
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
