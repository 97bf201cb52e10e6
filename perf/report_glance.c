/* The report's first page after the summary: the questions a reader brings, each answered by one
 * table or chart from rows measured elsewhere in the report (headline rows with cycles per byte
 * beside MB/s, warm against cold caches, thread scaling, the Calgary corpus per file and
 * weighted, the erasure-code k+p sweep). */
#include "report.h"

/* The peer a headline row is set against: the first ISA-L build that measured the key (the CSVs
 * come upstream first), else the first peer that did. */
static const struct row *headline_peer(const struct report *rep, const struct key *k, size_t size)
{
	const struct row *any = NULL;
	for (size_t p = 0; p < rep->npeers; p++) {
		const struct row *r = find(rep, rep->peers[p], k, size);
		if (r && strncmp(rep->peers[p], "isa-l", 5) == 0)
			return r;
		if (r && !any)
			any = r;
	}
	return any;
}

static const struct key *key_find(const struct report *rep, const char *function,
                                  const char *params, const char *mode, int threads)
{
	for (size_t k = 0; k < rep->nkeys; k++) {
		const struct key *x = &rep->keys[k];
		if (!strcmp(x->function, function) && !strcmp(x->params, params) &&
		    !strcmp(x->mode, mode) && x->threads == threads)
			return x;
	}
	return NULL;
}

/* A header row; a name starting with '<' is left-aligned (without the '<'). */
static void head_row(struct table *t, const char *const *names)
{
	table_row(t);
	for (; *names; names++)
		table_cell(t, 1, **names == '<' ? "s" : NULL, "%s", *names + (**names == '<'));
	table_end_row(t);
}

static void cell_mbps(struct table *t, const struct row *r)
{
	if (r && r->mbps > 0)
		table_cell(t, 0, NULL, "%.1f", r->mbps);
	else
		table_cell(t, 0, NULL, "-");
}

static void cell_cpb(struct table *t, const struct row *r)
{
	if (r && !isnan(r->cpb))
		table_cell(t, 0, NULL, "%.3f", r->cpb);
	else
		table_cell(t, 0, NULL, "-");
}

/* a over b, coloured outside the noise band when it compares stoa with a peer. */
static void cell_ratio(struct table *t, double a, double b, int coloured)
{
	if (a > 0 && b > 0)
		table_cell(t, 0, coloured ? ratio_class(a / b) : NULL, "%.2f", a / b);
	else
		table_cell(t, 0, NULL, "-");
}

/* The size a function's headline row is read at: 64 KiB when it was measured, else its
 * largest. */
static size_t headline_size(const struct report *rep, const struct key *k)
{
	size_t best = 0;
	for (size_t s = 0; s < rep->nsizes; s++)
		if (find(rep, STOA, k, rep->sizes[s])) {
			if (rep->sizes[s] == 65536)
				return 65536;
			best = rep->sizes[s];
		}
	return best;
}

/* One key per function heads it: its first (warm, one thread), or for the multi-buffer hash
 * managers the 16-job one (sixteen jobs fill AVX-512's 32-bit lanes). */
static int headline_key(const struct report *rep, size_t k)
{
	const struct key *key = &rep->keys[k];
	if (strcmp(key->mode, "warm") || key->threads != 1 || is_calibration(key->function))
		return 0;
	size_t first = rep->nkeys, sixteen = rep->nkeys;
	for (size_t i = 0; i < rep->nkeys; i++) {
		const struct key *x = &rep->keys[i];
		if (strcmp(x->function, key->function) || strcmp(x->mode, "warm") ||
		    x->threads != 1)
			continue;
		if (first == rep->nkeys)
			first = i;
		if (strcmp(x->params, "jobs=16") == 0)
			sixteen = i;
	}
	return k == (sixteen < rep->nkeys ? sixteen : first);
}

static void headline_table(const struct report *rep, FILE *out, int html)
{
	char b1[160], b2[32];
	heading(out, html, 3, "Headline: each function at 64 KiB, MB/s and cycles per byte");
	para(out, html,
	     "One row per function (its first parameters; 16 jobs for the multi-buffer hash "
	     "managers), warm caches, one thread, at 64 KiB (or the largest size measured), "
	     "against the first ISA-L build that measured it (OpenSSL for stoa_sha*). Cycles per "
	     "byte count the bytes the row's MB/s counts, from the cycle source the facts above "
	     "name.");
	struct table t;
	table_start(&t, out, html);
	head_row(&t, (const char *const[]){ "<function and parameters", "size", "stoa MB/s",
	                                    "stoa cycles/B", "<peer", "peer MB/s", "peer cycles/B",
	                                    "stoa / peer", NULL });
	for (size_t k = 0; k < rep->nkeys; k++) {
		const struct key *key = &rep->keys[k];
		if (!headline_key(rep, k))
			continue;
		size_t size = headline_size(rep, key);
		const struct row *a = size ? find(rep, STOA, key, size) : NULL;
		if (!a)
			continue;
		const struct row *b = headline_peer(rep, key, size);
		table_row(&t);
		table_cell(&t, 0, "s", "%s", key_name(key, b1, sizeof(b1)));
		table_cell(&t, 0, NULL, "%s", size_name(size, b2, sizeof(b2)));
		cell_mbps(&t, a);
		cell_cpb(&t, a);
		table_cell(&t, 0, "s", "%s", b ? b->library : "-");
		cell_mbps(&t, b);
		cell_cpb(&t, b);
		cell_ratio(&t, a->mbps, b ? b->mbps : 0, 1);
		table_end_row(&t);
	}
	table_end(&t);
}

static void warm_cold_table(const struct report *rep, FILE *out, int html)
{
	char b1[160], b2[32];
	heading(out, html, 3, "Warm and cold caches");
	para(out, html,
	     "Warm: the buffers stay in the caches after the warm-up. Cold: each call's buffers "
	     "come from a pool four times the last-level cache, in a scattered order, so that "
	     "they arrive from memory. The cases measured cold are PERF_COLD's.");
	struct table t;
	table_start(&t, out, html);
	head_row(&t, (const char *const[]){ "<function and parameters", "size", "stoa warm MB/s",
	                                    "cycles/B", "stoa cold MB/s", "cycles/B", "cold / warm",
	                                    "<peer", "peer cold MB/s", "stoa / peer cold", NULL });
	size_t n = 0;
	for (size_t k = 0; k < rep->nkeys; k++) {
		const struct key *cold = &rep->keys[k];
		if (strcmp(cold->mode, "cold") || cold->threads != 1)
			continue;
		const struct key *warm = key_find(rep, cold->function, cold->params, "warm", 1);
		for (size_t s = 0; warm && s < rep->nsizes; s++) {
			const struct row *w = find(rep, STOA, warm, rep->sizes[s]);
			const struct row *c = find(rep, STOA, cold, rep->sizes[s]);
			if (!w || !c)
				continue;
			const struct row *pc = headline_peer(rep, cold, rep->sizes[s]);
			table_row(&t);
			table_cell(&t, 0, "s", "%s", key_name(warm, b1, sizeof(b1)));
			table_cell(&t, 0, NULL, "%s", size_name(rep->sizes[s], b2, sizeof(b2)));
			cell_mbps(&t, w);
			cell_cpb(&t, w);
			cell_mbps(&t, c);
			cell_cpb(&t, c);
			cell_ratio(&t, c->mbps, w->mbps, 0);
			table_cell(&t, 0, "s", "%s", pc ? pc->library : "-");
			cell_mbps(&t, pc);
			cell_ratio(&t, c->mbps, pc ? pc->mbps : 0, 1);
			table_end_row(&t);
			n++;
		}
	}
	table_end(&t);
	if (!n)
		para(out, html, "No case was measured cold in this run (PERF_COLD empty).");
}

static void threads_table(const struct report *rep, FILE *out, int html)
{
	char b1[160], b2[32];
	heading(out, html, 3, "Threads");
	para(out, html,
	     "Aggregate MB/s of N threads, each calling the function on its own buffers, against "
	     "one thread; the scaling is N threads' MB/s over one thread's (N when nothing else "
	     "shares the cores; the two rows are measured apart, so load can push it past N). The "
	     "cases are PERF_THREADS_CASES'.");
	struct table t;
	table_start(&t, out, html);
	head_row(&t,
	         (const char *const[]){ "<function and parameters", "size", "threads",
	                                "stoa 1 thread MB/s", "stoa N threads MB/s", "stoa scaling",
	                                "<peer", "peer scaling", "stoa / peer, N threads", NULL });
	size_t n = 0;
	for (size_t k = 0; k < rep->nkeys; k++) {
		const struct key *many = &rep->keys[k];
		if (many->threads < 2)
			continue;
		const struct key *one = key_find(rep, many->function, many->params, many->mode, 1);
		for (size_t s = 0; one && s < rep->nsizes; s++) {
			const struct row *a1 = find(rep, STOA, one, rep->sizes[s]);
			const struct row *an = find(rep, STOA, many, rep->sizes[s]);
			if (!a1 || !an)
				continue;
			const struct row *bn = headline_peer(rep, many, rep->sizes[s]);
			const struct row *b1r =
			    bn ? find(rep, bn->library, one, rep->sizes[s]) : NULL;
			table_row(&t);
			table_cell(&t, 0, "s", "%s", key_name(one, b1, sizeof(b1)));
			table_cell(&t, 0, NULL, "%s", size_name(rep->sizes[s], b2, sizeof(b2)));
			table_cell(&t, 0, NULL, "%d", many->threads);
			cell_mbps(&t, a1);
			cell_mbps(&t, an);
			cell_ratio(&t, an->mbps, a1->mbps, 0);
			table_cell(&t, 0, "s", "%s", bn ? bn->library : "-");
			cell_ratio(&t, bn ? bn->mbps : 0, b1r ? b1r->mbps : 0, 0);
			cell_ratio(&t, an->mbps, bn ? bn->mbps : 0, 1);
			table_end_row(&t);
			n++;
		}
	}
	table_end(&t);
	if (!n)
		para(out, html, "No case was measured on more than one thread in this run.");
}

/* The igzip rows (their own section keeps them apart from the per-size rows). */
static const struct report_part *igzip_part(const struct report *rep)
{
	for (size_t p = 0; p < rep->nparts; p++)
		if (strcmp(rep->parts[p].section->module, "igzip") == 0)
			return &rep->parts[p];
	return NULL;
}

static const struct row *zrow(const struct report_part *part, const char *library,
                              const char *function, const char *params)
{
	for (size_t i = 0; i < part->nrows; i++) {
		const struct row *r = &part->rows[i];
		if (!strcmp(r->library, library) && !strcmp(r->function, function) &&
		    !strcmp(r->params, params) && r->threads == 1 && !strcmp(r->mode, "warm"))
			return r;
	}
	return NULL;
}

/* Columns of the Calgary table: a library's row of one function per file. */
struct corpus_col {
	const char *library, *function, *tail, *head;
	double bytes, seconds; /* summed over the files that have a row: the weighted MB/s */
};

static void calgary_table(const struct report *rep, FILE *out, int html)
{
	const struct report_part *part = igzip_part(rep);
	if (!part)
		return;
	const char *up = NULL;
	for (size_t i = 0; i < part->nrows && !up; i++)
		if (strncmp(part->rows[i].library, "isa-l", 5) == 0)
			up = part->rows[i].library;
	struct corpus_col cols[] = {
		{ STOA, "isal_inflate_stateless", "zlib-6", "inflate", 0, 0 },
		{ up, "isal_inflate_stateless", "zlib-6", "inflate", 0, 0 },
		{ STOA, "isal_deflate_stateless", "level=1", "deflate -1", 0, 0 },
		{ up, "isal_deflate_stateless", "level=1", "deflate -1", 0, 0 },
		{ STOA, "isal_deflate_stateless", "level=3", "deflate -3", 0, 0 },
		{ up, "isal_deflate_stateless", "level=3", "deflate -3", 0, 0 },
	};
	const size_t ncols = sizeof(cols) / sizeof(cols[0]);
	/* The files, in the order the rows came. */
	const char *files[64];
	size_t nfiles = 0;
	for (size_t i = 0; i < part->nrows && nfiles < 64; i++) {
		const char *p = part->rows[i].params;
		if (strncmp(p, "calgary/", 8) || strcmp(part->rows[i].library, STOA))
			continue;
		size_t len = strcspn(p, " "), f;
		for (f = 0; f < nfiles && (strncmp(files[f], p, len) || files[f][len] != ' '); f++)
			;
		if (f == nfiles)
			files[nfiles++] = p;
	}
	heading(out, html, 3, "The Calgary corpus, per file and weighted");
	if (!nfiles) {
		para(out, html, "No Calgary rows in this run (corpus absent).");
		return;
	}
	para(out, html,
	     "One call per file: isal_inflate_stateless of the file compressed by zlib -6 "
	     "(MB/s of decompressed bytes), isal_deflate_stateless at levels 1 and 3 (MB/s of "
	     "input bytes), stoa against the first ISA-L build in the rows. The weighted "
	     "row is the whole corpus's bytes over the sum of the files' times, as if the files "
	     "were processed one after another; the ratio columns divide stoa by ISA-L.");
	struct table t;
	table_start(&t, out, html);
	table_row(&t);
	table_cell(&t, 1, "s", "file");
	table_cell(&t, 1, NULL, "bytes");
	for (size_t c = 0; c < ncols; c++) {
		if (c % 2)
			table_cell(&t, 1, NULL, "%s %s MB/s", cols[c].head, up ? up : "ISA-L");
		else
			table_cell(&t, 1, NULL, "%s stoa MB/s", cols[c].head);
		if (c % 2)
			table_cell(&t, 1, NULL, "ratio");
	}
	table_end_row(&t);
	size_t total = 0;
	for (size_t f = 0; f <= nfiles; f++) {
		char name[96];
		const struct row *r[8] = { NULL };
		if (f < nfiles) {
			size_t len = strcspn(files[f], " ");
			snprintf(name, sizeof(name), "%.*s", (int)len, files[f]);
		}
		table_row(&t);
		if (f < nfiles) {
			char params[128];
			size_t bytes = 0;
			for (size_t c = 0; c < ncols; c++) {
				snprintf(params, sizeof(params), "%s %s", name, cols[c].tail);
				r[c] = cols[c].library
				           ? zrow(part, cols[c].library, cols[c].function, params)
				           : NULL;
				if (r[c] && r[c]->mbps > 0) {
					cols[c].bytes += (double)r[c]->size;
					cols[c].seconds += (double)r[c]->size / (r[c]->mbps * 1e6);
					bytes = r[c]->size;
				}
			}
			total += bytes;
			table_cell(&t, 0, "s", "%s", name + 8);
			table_cell(&t, 0, NULL, "%zu", bytes);
			for (size_t c = 0; c < ncols; c++) {
				cell_mbps(&t, r[c]);
				if (c % 2)
					cell_ratio(&t, r[c - 1] ? r[c - 1]->mbps : 0,
					           r[c] ? r[c]->mbps : 0, 1);
			}
		} else {
			table_cell(&t, 0, "s", "weighted (%zu files)", nfiles);
			table_cell(&t, 0, NULL, "%zu", total);
			double w[8];
			for (size_t c = 0; c < ncols; c++) {
				w[c] =
				    cols[c].seconds > 0 ? cols[c].bytes / cols[c].seconds / 1e6 : 0;
				if (w[c] > 0)
					table_cell(&t, 0, NULL, "%.1f", w[c]);
				else
					table_cell(&t, 0, NULL, "-");
				if (c % 2)
					cell_ratio(&t, w[c - 1], w[c], 1);
			}
		}
		table_end_row(&t);
	}
	table_end(&t);
}

/* The erasure-code sweep: ec_encode_data rows "K+P encode" and "K+P decode lost=E". */
struct ec_point {
	int k, p, e; /* e = 0: encode */
};

static int ec_parse(const char *params, struct ec_point *pt)
{
	int k, p, e, n = 0;
	if (sscanf(params, "%d+%d decode lost=%d%n", &k, &p, &e, &n) == 3 && !params[n]) {
		*pt = (struct ec_point){ k, p, e };
		return 1;
	}
	if (sscanf(params, "%d+%d encode%n", &k, &p, &n) == 2 && n && !params[n]) {
		*pt = (struct ec_point){ k, p, 0 };
		return 1;
	}
	return 0;
}

static int ec_before(const struct ec_point *a, const struct ec_point *b)
{
	if (a->k != b->k)
		return a->k < b->k;
	if (a->p != b->p)
		return a->p < b->p;
	return a->e < b->e;
}

#define EC_SIZE 65536
#define EC_MAX  48

/* The sweep's points of one kind (encode, or decode), sorted as Ceph's benchmark page orders
 * them: the simplest k+p on the left, then the erasures within a k+p. */
static size_t ec_points(const struct report *rep, int decode, struct ec_point *pts,
                        const struct key **keys)
{
	size_t n = 0;
	for (size_t k = 0; k < rep->nkeys && n < EC_MAX; k++) {
		const struct key *key = &rep->keys[k];
		struct ec_point pt;
		if (strcmp(key->function, "ec_encode_data") || strcmp(key->mode, "warm") ||
		    key->threads != 1 || !ec_parse(key->params, &pt) || (pt.e > 0) != decode ||
		    !find(rep, STOA, key, EC_SIZE))
			continue;
		size_t at = n++;
		while (at > 0 && ec_before(&pt, &pts[at - 1])) {
			pts[at] = pts[at - 1];
			keys[at] = keys[at - 1];
			at--;
		}
		pts[at] = pt;
		keys[at] = key;
	}
	return n;
}

/* Libraries in the sweep: stoa and every peer with an ec_encode_data row. */
static size_t ec_libraries(const struct report *rep, const struct key *const *keys, size_t n,
                           const char **libs)
{
	size_t nl = 0;
	libs[nl++] = STOA;
	for (size_t p = 0; p < rep->npeers && nl < 8; p++)
		for (size_t i = 0; i < n; i++)
			if (find(rep, rep->peers[p], keys[i], EC_SIZE)) {
				libs[nl++] = rep->peers[p];
				break;
			}
	return nl;
}

/* One line chart of the sweep, GB/s up the y axis, a point per k+p (or k/p/erasures) along x,
 * each library's points joined within a k+p, stoa's values written above its points. */
static void ec_chart(struct report *rep, FILE *out, int decode)
{
	struct ec_point pts[EC_MAX];
	const struct key *keys[EC_MAX];
	const char *libs[8];
	size_t n = ec_points(rep, decode, pts, keys);
	if (!n)
		return;
	size_t nl = ec_libraries(rep, keys, n, libs);
	double max = 0;
	for (size_t l = 0; l < nl; l++)
		for (size_t i = 0; i < n; i++) {
			const struct row *r = find(rep, libs[l], keys[i], EC_SIZE);
			if (r && r->mbps / 1000 > max)
				max = r->mbps / 1000;
		}
	double step = max > 20 ? 10 : max > 8 ? 5 : max > 4 ? 2 : 1, top = ceil(max / step) * step;
	if (top <= 0)
		top = 1;
	const double W = 1300, H = 360, L = 56, R = 16, T = 30, B = 60;
	const double pw = W - L - R, ph = H - T - B, gx = pw / (double)n;
	fprintf(out,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	        "viewBox=\"0 0 %.0f %.0f\">\n",
	        W, H + 24, W, H + 24);
	fprintf(out,
	        "<text x=\"%.1f\" y=\"16\" class=\"t\">ec_encode_data %s, 64 KiB fragments: "
	        "GB/s of %s (higher is better)</text>\n",
	        W / 2, decode ? "decode (k/p/erasures)" : "encode (k+p)",
	        decode ? "(k + lost) x len" : "(k+p) x len");
	for (double v = 0; v <= top + 1e-9; v += step) {
		double y = T + ph - v / top * ph;
		fprintf(out,
		        "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"g\"/>"
		        "<text x=\"%.1f\" y=\"%.1f\" class=\"a\">%g</text>\n",
		        L, L + pw, y, y, L - 4, y + 3, v);
	}
	for (size_t i = 0; i < n; i++) {
		double x = L + gx * ((double)i + 0.5);
		if (pts[i].e)
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"x\">%d/%d/%d</text>\n", x,
			        T + ph + 14, pts[i].k, pts[i].p, pts[i].e);
		else
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"x\">%d+%d</text>\n", x,
			        T + ph + 14, pts[i].k, pts[i].p);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"x\">%s</text>\n", L + pw / 2, T + ph + 32,
	        decode ? "k data / p parity fragments / fragments lost and rebuilt"
	               : "k data + p parity fragments");
	for (size_t l = 0; l < nl; l++) {
		const char *colour = series_colour(rep, libs[l]);
		int open = 0;
		for (size_t i = 0; i < n; i++) {
			const struct row *r = find(rep, libs[l], keys[i], EC_SIZE);
			int same = i > 0 && pts[i].k == pts[i - 1].k && pts[i].p == pts[i - 1].p;
			if (open && (!r || (decode && !same))) {
				fprintf(out, "\"/>\n");
				open = 0;
			}
			if (!r)
				continue;
			if (!open) {
				fprintf(
				    out,
				    "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
				    "points=\"",
				    colour);
				open = 1;
			}
			fprintf(out, "%.1f,%.1f ", L + gx * ((double)i + 0.5),
			        T + ph - r->mbps / 1000 / top * ph);
		}
		if (open)
			fprintf(out, "\"/>\n");
		for (size_t i = 0; i < n; i++) {
			const struct row *r = find(rep, libs[l], keys[i], EC_SIZE);
			if (!r)
				continue;
			double x = L + gx * ((double)i + 0.5),
			       y = T + ph - r->mbps / 1000 / top * ph;
			fprintf(out,
			        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>", x,
			        y, colour);
			html_text(out, libs[l]);
			fprintf(out, " %s: %.2f GB/s</title></circle>\n", keys[i]->params,
			        r->mbps / 1000);
			if (l == 0)
				fprintf(out,
				        "<text x=\"%.1f\" y=\"%.1f\" class=\"x\" "
				        "fill=\"%s\">%.1f</text>\n",
				        x, y - 7, colour, r->mbps / 1000);
		}
	}
	fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"ax\"/>\n", L,
	        L + pw, T + ph, T + ph);
	struct series leg[8];
	for (size_t l = 0; l < nl; l++) {
		snprintf(leg[l].name, sizeof(leg[l].name), "%s", libs[l]);
		leg[l].colour = NULL;
	}
	svg_legend(rep, out, L, H + 6, pw, leg, nl);
	fprintf(out, "</svg>\n");
}

static void ec_table(const struct report *rep, FILE *out, int html, int decode)
{
	struct ec_point pts[EC_MAX];
	const struct key *keys[EC_MAX];
	const char *libs[8];
	size_t n = ec_points(rep, decode, pts, keys);
	if (!n)
		return;
	size_t nl = ec_libraries(rep, keys, n, libs);
	struct table t;
	table_start(&t, out, html);
	table_row(&t);
	table_cell(&t, 1, "s", decode ? "k/p/lost" : "k+p");
	table_cell(&t, 1, NULL, "stoa GB/s");
	table_cell(&t, 1, NULL, "stoa cycles/B");
	for (size_t l = 1; l < nl; l++) {
		table_cell(&t, 1, NULL, "%s GB/s", libs[l]);
		table_cell(&t, 1, NULL, "stoa / %s", libs[l]);
	}
	table_end_row(&t);
	for (size_t i = 0; i < n; i++) {
		const struct row *a = find(rep, STOA, keys[i], EC_SIZE);
		table_row(&t);
		if (decode)
			table_cell(&t, 0, "s", "%d/%d/%d", pts[i].k, pts[i].p, pts[i].e);
		else
			table_cell(&t, 0, "s", "%d+%d", pts[i].k, pts[i].p);
		table_cell(&t, 0, NULL, "%.2f", a->mbps / 1000);
		cell_cpb(&t, a);
		for (size_t l = 1; l < nl; l++) {
			const struct row *b = find(rep, libs[l], keys[i], EC_SIZE);
			if (b)
				table_cell(&t, 0, NULL, "%.2f", b->mbps / 1000);
			else
				table_cell(&t, 0, NULL, "-");
			cell_ratio(&t, a->mbps, b ? b->mbps : 0, 1);
		}
		table_end_row(&t);
	}
	table_end(&t);
}

static void ec_sweep(struct report *rep, FILE *out, int html)
{
	heading(out, html, 3, "Erasure codes: the k+p sweep");
	para(out, html,
	     "ec_encode_data with 64 KiB fragments, drawn as Ceph's erasure-code benchmark page "
	     "draws its plugins: encode per k+p from the simplest on the left, then decode per "
	     "k/p/erasures, the points of one k+p joined. A decode rebuilds the lost fragments "
	     "from k survivors; GB/s counts (k + lost) x 64 KiB for a decode, (k+p) x 64 KiB for "
	     "an encode, as ISA-L's erasure_code_perf does.");
	if (html) {
		ec_chart(rep, out, 0);
		ec_chart(rep, out, 1);
	}
	ec_table(rep, out, html, 0);
	ec_table(rep, out, html, 1);
}

void write_glance(struct report *rep, FILE *out, int html)
{
	heading(out, html, 2, "At a glance");
	headline_table(rep, out, html);
	warm_cold_table(rep, out, html);
	threads_table(rep, out, html);
	calgary_table(rep, out, html);
	ec_sweep(rep, out, html);
}
