/* The igzip section of the report: the inflate and deflate tables, the size-against-speed
 * charts, and the command benchmark (perf/cli_bench.sh, read with --cli). */
#include "report.h"

/* igzip: the inflate and deflate rows get sections of their own. Their size is an input's length
 * and their params name the input, so they do not fit the per-size tables above; deflate's
 * result is the compressed size, which differs between libraries by design. Rows of the
 * functions zlib_deflate and libdeflate_deflate_compress come from the stoa build but measure
 * those libraries. */
struct cli_row {
	char tool[64], level[16], threads[16], op[16], path[16];
	double seconds, in_bytes, out_bytes;
	double cpu; /* user + system seconds of the command line; 0: not measured */
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

static const struct row *zfind(const struct zdata *z, const char *lib, const char *function,
                               const char *params, size_t size)
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

static void zt_ratio(struct table *t, const struct row *a, const struct row *b)
{
	if (!a || !b || a->mbps <= 0 || b->mbps <= 0) {
		table_cell(t, 0, NULL, "-");
		return;
	}
	double q = a->mbps / b->mbps;
	table_cell(t, 0, ratio_class(q), "%.2f", q);
}

static void zt_mbps(struct table *t, const struct row *r)
{
	if (r)
		table_cell(t, 0, NULL, "%.1f", r->mbps);
	else
		table_cell(t, 0, NULL, "-");
}

static void zt_pct(struct table *t, const struct row *r)
{
	double p = r ? size_pct(r) : -2;
	if (p >= 0)
		table_cell(t, 0, NULL, "%.2f%%", p);
	else
		table_cell(t, 0, p == -1 ? "down" : NULL, p == -1 ? "BAD" : "-");
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
static size_t zt_function_start(const struct zdata *z, struct table *t, FILE *out, int html,
                                const char *function, const char *what, const char *second,
                                const struct row **found, const char **libs, size_t *nl)
{
	size_t nk = keys_of(z, function, found, ZKEYS);
	*nl = libs_of(z, function, libs);
	if (!nk)
		return 0;
	char title[160];
	snprintf(title, sizeof(title), "%s (%s)", function, what);
	heading(out, html, 3, title);
	table_start(t, out, html);
	table_row(t);
	table_cell(t, 1, "s", "input");
	table_cell(t, 1, "s", "%s", second);
	table_cell(t, 1, NULL, "bytes");
	return nk;
}

/* A body row begun for one key: its input, the rest of its params and its size. Returns
 * stoa's row for the key (NULL when stoa has none). */
static const struct row *zt_key_start(const struct zdata *z, struct table *t, const char *function,
                                      const struct row *key)
{
	char input[96];
	const char *rest = split_input(key->params, input, sizeof(input));
	const struct row *a = zfind(z, STOA, function, key->params, key->size);
	table_row(t);
	table_cell(t, 0, "s", "%s", input);
	table_cell(t, 0, "s", "%s", rest);
	table_cell(t, 0, NULL, "%zu", key->size);
	return a;
}

static void inflate_table(const struct zdata *z, FILE *out, int html, const char *function,
                          const char *what)
{
	const struct row *keys_[ZKEYS];
	const char *libs[16];
	struct table t;
	size_t nl, nk = zt_function_start(z, &t, out, html, function, what, "compressed by", keys_,
	                                  libs, &nl);
	if (!nk)
		return;
	table_cell(&t, 1, NULL, "stoa MB/s");
	for (size_t l = 0; l < nl; l++)
		if (strcmp(libs[l], STOA)) {
			table_cell(&t, 1, NULL, "%s MB/s", libs[l]);
			table_cell(&t, 1, NULL, "stoa / %s", libs[l]);
		}
	table_end_row(&t);
	double logsum[16] = { 0 };
	size_t cnt[16] = { 0 };
	for (size_t k = 0; k < nk; k++) {
		const struct row *a = zt_key_start(z, &t, function, keys_[k]);
		zt_mbps(&t, a);
		for (size_t l = 0; l < nl; l++) {
			if (!strcmp(libs[l], STOA))
				continue;
			const struct row *b =
			    zfind(z, libs[l], function, keys_[k]->params, keys_[k]->size);
			zt_mbps(&t, b);
			zt_ratio(&t, a, b);
			if (a && b && a->mbps > 0 && b->mbps > 0) {
				logsum[l] += log(a->mbps / b->mbps);
				cnt[l]++;
			}
		}
		table_end_row(&t);
	}
	table_row(&t);
	table_cell(&t, 1, "s", "geometric mean");
	table_cell(&t, 1, NULL, "%s", "");
	table_cell(&t, 1, NULL, "%s", "");
	table_cell(&t, 1, NULL, "%s", "");
	for (size_t l = 0; l < nl; l++)
		if (strcmp(libs[l], STOA)) {
			table_cell(&t, 1, NULL, "%zu rows", cnt[l]);
			if (cnt[l])
				table_cell(&t, 1, NULL, "%.2f", exp(logsum[l] / (double)cnt[l]));
			else
				table_cell(&t, 1, NULL, "-");
		}
	table_end_row(&t);
	table_end(&t);
}

/* ISA-L's deflate per input and level: MB/s and compressed size per library, and stoa's
 * speed over each. */
static void deflate_table(const struct zdata *z, FILE *out, int html, const char *function,
                          const char *what)
{
	const struct row *keys_[ZKEYS];
	const char *libs[16];
	struct table t;
	size_t nl,
	    nk = zt_function_start(z, &t, out, html, function, what, "level", keys_, libs, &nl);
	if (!nk)
		return;
	for (size_t l = 0; l < nl; l++) {
		table_cell(&t, 1, NULL, "%s MB/s", libs[l]);
		table_cell(&t, 1, NULL, "%s size %%", libs[l]);
		if (strcmp(libs[l], STOA))
			table_cell(&t, 1, NULL, "stoa / %s", libs[l]);
	}
	table_end_row(&t);
	for (size_t k = 0; k < nk; k++) {
		const struct row *a = zt_key_start(z, &t, function, keys_[k]);
		for (size_t l = 0; l < nl; l++) {
			const struct row *b =
			    zfind(z, libs[l], function, keys_[k]->params, keys_[k]->size);
			zt_mbps(&t, b);
			zt_pct(&t, b);
			if (strcmp(libs[l], STOA))
				zt_ratio(&t, a, b);
		}
		table_end_row(&t);
	}
	table_end(&t);
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
	struct table t;
	table_start(&t, out, html);
	table_row(&t);
	table_cell(&t, 1, "s", "input");
	table_cell(&t, 1, NULL, "bytes");
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
		table_cell(&t, 1, NULL, "%s MB/s", cols[c].label);
		table_cell(&t, 1, NULL, "%s size %%", cols[c].label);
	}
	table_end_row(&t);
	for (size_t k = 0; k < nk; k++) {
		char input[96], params[128];
		const char *tail = split_input(keys_[k]->params, input, sizeof(input));
		if (strcmp(tail, "level=1"))
			continue;
		table_row(&t);
		table_cell(&t, 0, "s", "%s", input);
		table_cell(&t, 0, NULL, "%zu", keys_[k]->size);
		for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
			snprintf(params, sizeof(params), "%s %s", input, cols[c].params_tail);
			const struct row *r =
			    zfind(z, strstr(cols[c].function, "libdeflate") ? "libdeflate" : "zlib",
			          cols[c].function, params, keys_[k]->size);
			zt_mbps(&t, r);
			zt_pct(&t, r);
		}
		table_end_row(&t);
	}
	table_end(&t);
}

/* The series a deflate row belongs to in the Pareto picture, or NULL for rows it leaves out:
 * each library's own one-call API is a series (stoa's and ISA-L's isal_deflate_stateless,
 * zlib's deflate, libdeflate), stoa's zlib layer (libz.so.1's one-call deflate) one of its own,
 * zlib-ng through the same zlib-API case another. The streaming cases are not one call, and
 * zlib through the zlib-API case repeats zlib_deflate's library. */
static const char *pareto_series(const struct row *r)
{
	if (strcmp(r->variant, "dispatch") || r->mbps <= 0 || size_pct(r) < 0 || r->threads != 1 ||
	    strcmp(r->mode, "warm"))
		return NULL;
	if (strcmp(r->function, "isal_deflate_stateless") == 0)
		return strcmp(r->library, STOA) ? r->library : "stoa (ISA-L API)";
	if (strcmp(r->function, "zlib_deflate") == 0)
		return "zlib";
	if (strcmp(r->function, "libdeflate_deflate_compress") == 0)
		return "libdeflate";
	if (strcmp(r->function, "zlib_api_deflate") == 0)
		return "stoa zlib layer";
	if (strcmp(r->function, "zlib_api_deflate_zlibng") == 0)
		return "zlib-ng";
	return NULL;
}

/* The Pareto picture for one input: a point per series and level at (MB/s, size %), x on a log
 * scale, a series' levels joined in level order, each point labelled with its level. */
static void pareto_svg(struct report *rep, const struct zdata *z, FILE *out, const char *input)
{
	struct pt {
		double x, y;
		int level;
	};
	enum { MAXSER = 12, MAXPTS = 16 };
	struct pt pts[MAXSER][MAXPTS];
	const char *names[MAXSER];
	size_t nser = 0, npts[MAXSER] = { 0 };
	double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
	for (size_t i = 0; i < z->nrows; i++) {
		const struct row *r = &z->rows[i];
		char in[96];
		const char *tail = split_input(r->params, in, sizeof(in)), *name = pareto_series(r);
		if (strcmp(in, input) || !name || strncmp(tail, "level=", 6))
			continue;
		size_t l;
		for (l = 0; l < nser && strcmp(names[l], name); l++)
			;
		if (l == nser) {
			if (nser == MAXSER)
				continue;
			names[nser++] = name;
		}
		if (npts[l] == MAXPTS)
			continue;
		/* In level order, so that the line runs from the fastest level on. */
		struct pt p = { r->mbps, size_pct(r), atoi(tail + 6) };
		size_t at = npts[l]++;
		while (at > 0 && pts[l][at - 1].level > p.level) {
			pts[l][at] = pts[l][at - 1];
			at--;
		}
		pts[l][at] = p;
		xmin = fmin(xmin, p.x);
		xmax = fmax(xmax, p.x);
		ymin = fmin(ymin, p.y);
		ymax = fmax(ymax, p.y);
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
	        W, H + 38, W, H + 38);
	fprintf(out, "<text x=\"%.1f\" y=\"16\" class=\"t\">", W / 2);
	html_text(out, input);
	fprintf(out, ": size %% against MB/s, stateless (lower right is better)</text>\n");
	for (double d = lx0; d <= lx1 + 1e-9; d++)
		for (int m = 1; m < 10; m++) {
			double v = pow(10, d) * m;
			if (log10(v) > lx1 + 1e-9)
				break;
			double x = PX(v);
			fprintf(
			    out,
			    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"g\"/>",
			    x, x, (double)T, T + ph);
			if (m == 1 || m == 2 || m == 5)
				fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"x\">%g</text>\n",
				        x, T + ph + 14, v);
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
	for (size_t l = 0; l < nser; l++) {
		const char *colour = series_colour(rep, names[l]);
		fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
		        colour);
		for (size_t k = 0; k < npts[l]; k++)
			fprintf(out, "%.1f,%.1f ", PX(pts[l][k].x), PY(pts[l][k].y));
		fprintf(out, "\"/>\n");
		for (size_t k = 0; k < npts[l]; k++) {
			double x = PX(pts[l][k].x), y = PY(pts[l][k].y);
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>",
			        x, y, colour);
			html_text(out, names[l]);
			fprintf(out,
			        " -%d: %.1f MB/s, %.2f%%</title></circle>"
			        "<text x=\"%.1f\" y=\"%.1f\" class=\"l\" fill=\"%s\">%d</text>\n",
			        pts[l][k].level, pts[l][k].x, pts[l][k].y, x + 5, y - 5, colour,
			        pts[l][k].level);
		}
	}
	fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"ax\"/>\n", L,
	        L + pw, T + ph, T + ph);
	struct series leg[MAXSER];
	for (size_t l = 0; l < nser; l++) {
		snprintf(leg[l].name, sizeof(leg[l].name), "%s", names[l]);
		leg[l].colour = NULL;
	}
	svg_legend(rep, out, L, H + 2, pw, leg, nser);
	fprintf(out, "</svg>\n");
#undef PX
#undef PY
}

/* The command benchmark's CSV (perf/cli_bench.sh): tool,level,threads,op,path,seconds,in,out. */
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
		c.cpu = 0;
		if (sscanf(line, "%63[^,],%15[^,],%15[^,],%15[^,],%15[^,],%lf,%lf,%lf,%lf", c.tool,
		           c.level, c.threads, c.op, c.path, &c.seconds, &c.in_bytes, &c.out_bytes,
		           &c.cpu) < 8)
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
		if (strcmp(r->tool, "igzip-debian") || strcmp(r->op, c->op) ||
		    strcmp(r->path, c->path))
			continue;
		if (strcmp(r->level, c->level) == 0 && strcmp(r->threads, c->threads) == 0)
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
		if (!strcmp(r->tool, c->tool) && !strcmp(r->op, c->op) &&
		    !strcmp(r->path, c->path) && !strcmp(r->level, c->level) &&
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
	     "Wall clock, best of CLI_REPS runs (3, or 7 with FULL=1). Paths: stdin = command -c "
	     "< FILE > OUT; file = command -k -f -o OUT FILE; stdout = command -c FILE > "
	     "/dev/null (with -T 2 on the two-thread rows); pipe = cat FILE | command -c | cat > "
	     "/dev/null. OUT is in a temporary directory (in memory where /dev/shm is, see the "
	     "note), the previous run's output removed untimed. MB/s counts uncompressed bytes. "
	     "\"MB/s over Debian igzip\" divides by Debian's igzip on the same path, level and "
	     "threads (gzip and pigz, which have no igzip level of theirs, against its -1), above "
	     "1 faster; \"over one thread\" divides a -T 2 row by the same command on one thread. "
	     "CPU seconds: user + system time of the whole command line (the cats of a pipe "
	     "included), the least of the runs; on a shared machine it shows the work where the "
	     "wall clock mostly shows the wait for a core; \"Debian igzip's CPU over this\" "
	     "compares it the same way as the MB/s, above 1 this command is cheaper. "
	     "Decompression is single-threaded and runs once per level; its level is the one its "
	     "input was compressed at.");
	for (size_t i = 0; i < z->ncli_notes; i++)
		para(out, html, z->cli_notes[i]);
	if (!z->nclis)
		return;
	struct table t;
	table_start(&t, out, html);
	table_row(&t);
	table_cell(&t, 1, "s", "command");
	table_cell(&t, 1, "s", "operation");
	table_cell(&t, 1, "s", "path");
	table_cell(&t, 1, NULL, "level");
	table_cell(&t, 1, NULL, "threads");
	table_cell(&t, 1, NULL, "seconds");
	table_cell(&t, 1, NULL, "MB/s");
	table_cell(&t, 1, NULL, "size %%");
	table_cell(&t, 1, NULL, "MB/s over Debian igzip");
	table_cell(&t, 1, NULL, "over one thread");
	table_cell(&t, 1, NULL, "CPU seconds");
	table_cell(&t, 1, NULL, "Debian igzip's CPU over this");
	table_end_row(&t);
	for (size_t i = 0; i < z->nclis; i++) {
		const struct cli_row *c = &z->clis[i], *ref = cli_ref(z, c);
		double raw = strcmp(c->op, "compress") == 0 ? c->in_bytes : c->out_bytes;
		double comp = strcmp(c->op, "compress") == 0 ? c->out_bytes : c->in_bytes;
		table_row(&t);
		table_cell(&t, 0, "s", "%s", c->tool);
		table_cell(&t, 0, "s", "%s", c->op);
		table_cell(&t, 0, "s", "%s", c->path);
		table_cell(&t, 0, NULL, "-%s", c->level);
		table_cell(&t, 0, NULL, "%s", c->threads);
		table_cell(&t, 0, NULL, "%.3f", c->seconds);
		table_cell(&t, 0, NULL, "%.1f", cli_mbps(c));
		table_cell(&t, 0, NULL, "%.2f%%", raw > 0 ? 100 * comp / raw : 0);
		if (ref && cli_mbps(ref) > 0) {
			double q = cli_mbps(c) / cli_mbps(ref);
			table_cell(&t, 0, ratio_class(q), "%.2f", q);
		} else {
			table_cell(&t, 0, NULL, "-");
		}
		const struct cli_row *one = cli_one_thread(z, c);
		if (one && cli_mbps(one) > 0)
			table_cell(&t, 0, NULL, "%.2f", cli_mbps(c) / cli_mbps(one));
		else
			table_cell(&t, 0, NULL, "-");
		if (c->cpu > 0)
			table_cell(&t, 0, NULL, "%.2f", c->cpu);
		else
			table_cell(&t, 0, NULL, "-");
		if (ref && ref->cpu > 0 && c->cpu > 0)
			table_cell(&t, 0, ratio_class(ref->cpu / c->cpu), "%.2f", ref->cpu / c->cpu);
		else
			table_cell(&t, 0, NULL, "-");
		table_end_row(&t);
	}
	table_end(&t);
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
				fprintf(
				    out,
				    "    %s %s: %s:%s wrote output that does not inflate back\n",
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
	snprintf(
	    text, sizeof(text),
	    "Inputs: the Calgary and Canterbury files and each corpus concatenated (.cat), and "
	    "for deflate a generated 100 MiB mix (corpus text, random bytes and runs) and, at "
	    "levels 0-3, 8 MiB of byte runs (runs); bytes = "
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
	struct table t;
	table_start(&t, out, html);
	table_row(&t);
	table_cell(&t, 1, "s", "function");
	table_cell(&t, 1, "s", "library");
	table_cell(&t, 1, "s", "variant");
	table_cell(&t, 1, "s", "params");
	table_cell(&t, 1, NULL, "bytes");
	table_cell(&t, 1, NULL, "MB/s");
	table_cell(&t, 1, NULL, "median");
	table_cell(&t, 1, NULL, "result");
	table_end_row(&t);
	for (size_t i = 0; i < z->nrows; i++) {
		const struct row *r = &z->rows[i];
		table_row(&t);
		table_cell(&t, 0, "s", "%s", r->function);
		table_cell(&t, 0, "s", "%s", r->library);
		table_cell(&t, 0, "s", "%s", r->variant);
		table_cell(&t, 0, "s", "%s", r->params);
		table_cell(&t, 0, NULL, "%zu", r->size);
		table_cell(&t, 0, NULL, "%.1f", r->mbps);
		table_cell(&t, 0, NULL, "%.1f", r->median);
		table_cell(&t, 0, "s", "%s", r->check);
		table_end_row(&t);
	}
	table_end(&t);
}

static void igzip_read_cli(struct report_part *part, const char *path)
{
	read_cli(zdata_of(part), path);
}

const struct report_section igzip_section = {
	.module = "igzip",
	.option = "--cli",
	.read_option = igzip_read_cli,
	.write = igzip_report,
};
