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
	       strcmp(r->mode, k->mode) == 0 && r->threads == k->threads;
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
				    (struct key){ r->module, r->function, r->params, r->mode,
				                  r->threads };
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

/* stoa's and a peer's rows of one key and size (a and b, when the caller wants them) and stoa's
 * MB/s over the peer's; NAN when either is missing. */
static double pair_ratio(const struct report *rep, const char *peer, size_t k, size_t s,
                         const struct row **a_out, const struct row **b_out)
{
	const struct row *a = find(rep, STOA, &rep->keys[k], rep->sizes[s]);
	const struct row *b = find(rep, peer, &rep->keys[k], rep->sizes[s]);
	if (a_out)
		*a_out = a;
	if (b_out)
		*b_out = b;
	return a && b && a->mbps > 0 && b->mbps > 0 ? a->mbps / b->mbps : NAN;
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

/* A key as the tables show it; rows not measured warm (the default) name their mode, rows of more
 * than one thread their count. */
const char *key_name(const struct key *k, char *buf, size_t cap)
{
	int warm = strcmp(k->mode, "warm") == 0;
	char threads[32] = "";
	if (k->threads > 1)
		snprintf(threads, sizeof(threads), " %d threads", k->threads);
	snprintf(buf, cap, "%s%s%s%s%s%s", k->function, *k->params ? " " : "", k->params,
	         warm ? "" : " ", warm ? "" : k->mode, threads);
	return buf;
}

int is_calibration(const char *function)
{
	return strcmp(function, "stream_read") == 0;
}

static double noise_band = 1.02;

void set_noise(double noise)
{
	noise_band = noise;
}

const char *ratio_class(double q)
{
	return q > noise_band ? "up" : q * noise_band < 1 ? "down" : NULL;
}

/* The band from the calibration rows: every stoa/peer ratio of stream_read, whose code is the
 * same in every build, so that it differs from 1 only by the machine's noise. At least 2%: a
 * ratio printed with two decimals says no more. */
static void measure_noise(struct report *rep)
{
	rep->noise = 1.02;
	rep->noise_lo = rep->noise_hi = NAN;
	rep->noise_pairs = 0;
	for (size_t k = 0; k < rep->nkeys; k++) {
		if (!is_calibration(rep->keys[k].function))
			continue;
		for (size_t p = 0; p < rep->npeers; p++)
			for (size_t s = 0; s < rep->nsizes; s++) {
				double q = pair_ratio(rep, rep->peers[p], k, s, NULL, NULL);
				if (isnan(q))
					continue;
				if (!rep->noise_pairs || q < rep->noise_lo)
					rep->noise_lo = q;
				if (!rep->noise_pairs || q > rep->noise_hi)
					rep->noise_hi = q;
				rep->noise_pairs++;
				if (q > rep->noise)
					rep->noise = q;
				if (1 / q > rep->noise)
					rep->noise = 1 / q;
			}
	}
	set_noise(rep->noise);
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
			if (is_calibration(rep->keys[k].function))
				break;
			const double q = pair_ratio(rep, peer, k, s, NULL, NULL);
			if (!isnan(q)) {
				logsum += log(q);
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

/* Text from column `indent` (where the cursor is), wrapped at 100 columns, continued lines
 * indented as much; ends the line. */
static void wrap_text(FILE *out, int indent, const char *text)
{
	const int width = 100;
	int col = indent;
	for (const char *p = text; *p;) {
		while (*p == ' ')
			p++;
		size_t word = strcspn(p, " ");
		if (!word)
			break;
		if (col > indent && col + 1 + (int)word > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, word, out);
		col += (int)word;
		p += word;
	}
	fputc('\n', out);
}

/* A fact in the text report: its label, then its value wrapped under itself. */
static void text_fact(FILE *out, const char *label, const char *value)
{
	fprintf(out, "%-24s ", label);
	wrap_text(out, 25, value);
}

/* A ratio's text: two decimals, and a mark when it lies outside the noise band. */
static const char *ratio_text(double q, char *buf, size_t cap)
{
	const char *cls = ratio_class(q);
	snprintf(buf, cap, "%.2f%s", q, !cls ? " " : strcmp(cls, "up") ? "-" : "+");
	return buf;
}

void write_summary(const struct report *rep, FILE *out, int html)
{
	char text[1024], b1[128], b2[32], b3[32];
	heading(out, html, 2, "Summary");
	if (rep->noise_pairs)
		snprintf(text, sizeof(text),
		         "Noise band: stream_read, the same code in every build, read %.2f to "
		         "%.2f times itself across the builds (%zu pairs), so a ratio between "
		         "%.2f and %.2f is a tie here; only ratios outside that band are "
		         "coloured (text: marked + or -).",
		         rep->noise_lo, rep->noise_hi, rep->noise_pairs, 1 / rep->noise,
		         rep->noise);
	else
		snprintf(text, sizeof(text),
		         "Noise band: this run has no stream_read rows (the same code in every "
		         "build) to measure it; ratios within 2%% of 1 count as ties.");
	para(out, html, text);
	para(out, html,
	     "Ratio = stoa's MB/s divided by the peer's, for the same function, input and size in "
	     "the same run; above 1 stoa is faster. The geometric mean runs over every row of the "
	     "ratio table the peer has (the igzip section has its own means).");
	struct table t;
	table_start(&t, out, html);
	table_row(&t);
	table_cell(&t, 1, "s", "peer");
	table_cell(&t, 1, NULL, "rows compared");
	table_cell(&t, 1, NULL, "geometric mean");
	table_cell(&t, 1, NULL, "stoa ahead");
	table_cell(&t, 1, NULL, "tie (in the band)");
	table_cell(&t, 1, NULL, "stoa behind");
	table_end_row(&t);
	for (size_t p = 0; p < rep->npeers; p++) {
		size_t cnt, ahead = 0, behind = 0;
		double g = geomean_ratio(rep, rep->peers[p], &cnt);
		for (size_t k = 0; k < rep->nkeys; k++)
			for (size_t s = 0; s < rep->nsizes && !is_calibration(rep->keys[k].function);
			     s++) {
				const double q = pair_ratio(rep, rep->peers[p], k, s, NULL, NULL);
				const char *cls = isnan(q) ? NULL : ratio_class(q);
				ahead += cls && !strcmp(cls, "up");
				behind += cls && !strcmp(cls, "down");
			}
		table_row(&t);
		table_cell(&t, 0, "s", "%s", rep->peers[p]);
		table_cell(&t, 0, NULL, "%zu", cnt);
		if (cnt)
			table_cell(&t, 0, ratio_class(g), "%.2f", g);
		else
			table_cell(&t, 0, NULL, "-");
		table_cell(&t, 0, NULL, "%zu", ahead);
		table_cell(&t, 0, NULL, "%zu", cnt - ahead - behind);
		table_cell(&t, 0, behind ? "down" : NULL, "%zu", behind);
		table_end_row(&t);
	}
	table_end(&t);

	/* The rows behind, every peer in one table. */
	size_t nbehind = 0;
	for (size_t p = 0; p < rep->npeers; p++)
		for (size_t k = 0; k < rep->nkeys; k++)
			for (size_t s = 0; s < rep->nsizes && !is_calibration(rep->keys[k].function);
			     s++) {
				const struct row *a, *b;
				const double q = pair_ratio(rep, rep->peers[p], k, s, &a, &b);
				const char *cls = isnan(q) ? NULL : ratio_class(q);
				if (!cls || strcmp(cls, "down"))
					continue;
				if (!nbehind++) {
					heading(out, html, 3, "Rows where stoa is behind");
					table_start(&t, out, html);
					table_row(&t);
					table_cell(&t, 1, "s", "function and parameters");
					table_cell(&t, 1, NULL, "size");
					table_cell(&t, 1, "s", "peer");
					table_cell(&t, 1, NULL, "stoa MB/s");
					table_cell(&t, 1, NULL, "peer MB/s");
					table_cell(&t, 1, NULL, "stoa / peer");
					table_end_row(&t);
				}
				table_row(&t);
				table_cell(&t, 0, "s", "%s", key_name(&rep->keys[k], b1, sizeof(b1)));
				table_cell(&t, 0, NULL, "%s", size_name(rep->sizes[s], b2, sizeof(b2)));
				table_cell(&t, 0, "s", "%s", rep->peers[p]);
				table_cell(&t, 0, NULL, "%.1f", a->mbps);
				table_cell(&t, 0, NULL, "%.1f", b->mbps);
				table_cell(&t, 0, "down", "%s", ratio_text(q, b3, sizeof(b3)));
				table_end_row(&t);
			}
	if (nbehind)
		table_end(&t);
	else
		para(out, html, "No row of the ratio table is behind outside the noise band.");
}

static void text_report(struct report *rep, FILE *out, const struct fact *facts, size_t nfacts)
{
	char b1[128], b2[32], b3[32];
	fprintf(out, "stoa performance report\n=======================\n\n");
	for (size_t i = 0; i < nfacts; i++)
		text_fact(out, facts[i].label, facts[i].value);

	struct mismatch mm[64];
	size_t compared, nmm = check_results(rep, mm, 64, &compared);
	if (!nmm)
		snprintf(b1, sizeof(b1),
		         "every library and variant gave the same result for the same input "
		         "(%zu comparisons)",
		         compared);
	else
		snprintf(b1, sizeof(b1), "%zu MISMATCHES of %zu comparisons:", nmm, compared);
	text_fact(out, "result check", b1);
	for (size_t i = 0; i < nmm; i++)
		fprintf(out, "    %s %s: %s:%s %s vs %s:%s %s\n", mm[i].a->function,
		        size_name(mm[i].a->size, b2, sizeof(b2)), mm[i].a->library,
		        mm[i].a->variant, mm[i].a->check, mm[i].b->library, mm[i].b->variant,
		        mm[i].b->check);

	write_summary(rep, out, 0);
	write_glance(rep, out, 0);

	/* Ratios only, one column per peer, so that the table stays within a terminal's width;
	 * the peers' MB/s are in the full table. */
	heading(out, 0, 2, "Ratio table");
	para(out, 0,
	     "stoa's dispatched function MB/s divided by each peer's MB/s, same run (above 1: "
	     "stoa faster; + and - mark ratios outside the noise band). The MB/s are in the "
	     "full table.");
	fprintf(out, "%-38s %6s", "function and parameters", "size");
	for (size_t p = 0; p < rep->npeers; p++)
		fprintf(out, " %*s", strlen(rep->peers[p]) > 6 ? (int)strlen(rep->peers[p]) : 6,
		        rep->peers[p]);
	fprintf(out, "\n");
	for (size_t k = 0; k < rep->nkeys; k++) {
		for (size_t s = 0; s < rep->nsizes; s++) {
			const struct row *a = find(rep, STOA, &rep->keys[k], rep->sizes[s]);
			if (!a)
				continue;
			fprintf(out, "%-38s %6s", key_name(&rep->keys[k], b1, sizeof(b1)),
			        size_name(rep->sizes[s], b2, sizeof(b2)));
			for (size_t p = 0; p < rep->npeers; p++) {
				const struct row *b =
				    find(rep, rep->peers[p], &rep->keys[k], rep->sizes[s]);
				int w = strlen(rep->peers[p]) > 6 ? (int)strlen(rep->peers[p]) : 6;
				fprintf(out, " %*s", w,
				        b && b->mbps > 0
				            ? ratio_text(a->mbps / b->mbps, b3, sizeof(b3))
				            : "-");
			}
			fprintf(out, "\n");
		}
	}
	fprintf(out, "%-38s %6s", "geometric mean", "");
	for (size_t p = 0; p < rep->npeers; p++) {
		size_t cnt;
		double g = geomean_ratio(rep, rep->peers[p], &cnt);
		int w = strlen(rep->peers[p]) > 6 ? (int)strlen(rep->peers[p]) : 6;
		if (cnt)
			fprintf(out, " %*.2f ", w - 1, g);
		else
			fprintf(out, " %*s", w, "-");
	}
	fprintf(out, "\n");
	for (size_t i = 0; i < rep->nparts; i++)
		rep->parts[i].section->write(rep, &rep->parts[i], out, 0);
	heading(out, 0, 2, "Full table");
	para(out, 0,
	     "MB/s = 10^6 bytes/s, best repetition; the median of all repetitions beside it. "
	     "Rows by function and parameters, each headed by the bytes a call counts.");
	size_t n;
	const struct row **order = rows_in_order(rep, &n);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = order[i];
		const struct key k = { r->module, r->function, r->params, r->mode, r->threads };
		if (i == 0 || !same_key(order[i - 1], &k)) {
			fprintf(out, "\n%s (bytes counted: %s)\n", key_name(&k, b1, sizeof(b1)),
			        r->bytes_counted);
			fprintf(out, "  %-15s %-15s %7s %10s %9s %10s %8s\n", "library", "variant",
			        "size", "MB/s", "cycles/B", "median", "calls");
		}
		char cpb[32];
		if (isnan(r->cpb))
			snprintf(cpb, sizeof(cpb), "-");
		else
			snprintf(cpb, sizeof(cpb), "%.3f", r->cpb);
		fprintf(out, "  %-15s %-15s %7s %10.1f %9s %10.1f %8llu\n", r->library, r->variant,
		        size_name(r->size, b2, sizeof(b2)), r->mbps, cpb, r->median, r->calls);
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
	memset(t, 0, sizeof(*t));
	t->out = out;
	t->html = html;
	t->row = -1;
	if (html)
		fprintf(out, "<table>\n");
}

void table_row(struct table *t)
{
	t->col = 0;
	t->row++;
	if (t->html)
		fprintf(t->out, "<tr>");
}

void table_end_row(struct table *t)
{
	if (t->html)
		fprintf(t->out, "</tr>\n");
}

/* The text form: columns as wide as their widest cell; when the whole is wider than 100, the
 * leading left-aligned columns (the row's names) are repeated in front of each part. */
static void text_table(struct table *t)
{
	enum { MAXCOL = 64, WIDTH = 100 };
	int width[MAXCOL] = { 0 }, ncols = 0, nrows = t->row + 1, keys = 0;
	for (size_t i = 0; i < t->ncells; i++) {
		const struct text_cell *c = &t->cells[i];
		int len = (int)strlen(c->text);
		if (c->col < MAXCOL && len > width[c->col])
			width[c->col] = len;
		if (c->col + 1 > ncols)
			ncols = c->col + 1 < MAXCOL ? c->col + 1 : MAXCOL;
	}
	/* The key columns: the head row's leading left-aligned cells. */
	for (size_t i = 0; i < t->ncells && t->cells[i].row == 0; i++)
		if (t->cells[i].col == keys && t->cells[i].left && keys < ncols - 1)
			keys++;
	int keyw = 0;
	for (int c = 0; c < keys; c++)
		keyw += width[c] + 1;
	if (keyw > WIDTH / 2)
		keys = 0, keyw = 0;
	char **grid = xcalloc((size_t)nrows * (size_t)ncols, sizeof(*grid));
	int *left = xcalloc((size_t)nrows * (size_t)ncols, sizeof(*left));
	for (size_t i = 0; i < t->ncells; i++) {
		const struct text_cell *c = &t->cells[i];
		if (c->col < ncols) {
			grid[c->row * ncols + c->col] = c->text;
			left[c->row * ncols + c->col] = c->left;
		}
	}
	for (int from = keys, part = 0; from < ncols; part++) {
		int to = from, w = keyw;
		while (to < ncols && (to == from || w + width[to] + 1 <= WIDTH))
			w += width[to++] + 1;
		if (part)
			fputc('\n', t->out);
		for (int r = 0; r < nrows; r++) {
			for (int k = 0; k < keys + to - from; k++) {
				const int c = k < keys ? k : from + k - keys;
				const char *text = grid[r * ncols + c] ? grid[r * ncols + c] : "";
				fprintf(t->out, "%s%*s", k ? " " : "",
				        left[r * ncols + c] ? -width[c] : width[c], text);
			}
			fputc('\n', t->out);
		}
		from = to;
	}
	free(grid);
	free(left);
}

void table_end(struct table *t)
{
	if (t->html) {
		fprintf(t->out, "</table>\n");
		return;
	}
	text_table(t);
	fputc('\n', t->out);
	for (size_t i = 0; i < t->ncells; i++)
		free(t->cells[i].text);
	free(t->cells);
	t->cells = NULL;
	t->ncells = t->cap = 0;
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
		t->cells = grow(t->cells, &t->cap, t->ncells + 1, sizeof(*t->cells));
		/* Trailing blanks of a padded head are the column's minimum width, kept. */
		t->cells[t->ncells++] = (struct text_cell){ dup_str(buf), t->row, t->col,
			                                    cls && strcmp(cls, "s") == 0 };
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
		wrap_text(out, 0, text);
		fputc('\n', out);
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
	measure_noise(rep);

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
