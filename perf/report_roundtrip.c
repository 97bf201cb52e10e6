/* The round-trip section (stoa_perf --roundtrip, read with --roundtrip FILE): per level and
 * mode, each library's compressed size, compression speed and the speed at which it inflates its
 * own output, with stoa's inflate speed over each library's at the same level and mode; then the
 * paired form's lines (stoa_perf --roundtrip-pair), where the file has them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct rt_row {
	char library[64], mode[16];
	int level;
	double in, out, comp_mbps, dec_mbps;
};

struct rt_pair {
	char library[256], mode[16];
	int level;
	double in, stoa_out, peer_out, median, q1, q3;
};

/* A libdeflate level against the lowest stoa level whose output is no larger (stoa_level -1:
 * none). */
struct rt_ldpair {
	int ld_level, stoa_level;
	double in, stoa_out, ld_out, median, q1, q3;
};

/* Stoa's inflate on stoa's output at a level against the same inflate on zlib -9's. */
struct rt_z9pair {
	int level;
	double in, stoa_out, z9_out, median, q1, q3;
};

struct rt_data {
	struct rt_z9pair *z9;
	size_t nz9, z9cap;
	struct rt_row *rows;
	size_t nrows, cap;
	struct rt_pair *pairs;
	size_t npairs, pcap;
	struct rt_ldpair *ld;
	size_t nld, ldcap;
};

static struct rt_data *rt_of(struct report_part *part)
{
	if (!part->data)
		part->data = xcalloc(1, sizeof(struct rt_data));
	return part->data;
}

/* roundtrip,LIBRARY,MODE,LEVEL,INPUT_BYTES,COMPRESSED_BYTES,COMPRESS_MBPS,DECOMPRESS_MBPS */
static void rt_read(struct report_part *part, const char *path)
{
	struct rt_data *d = rt_of(part);
	FILE *f = fopen(path, "r");
	if (!f)
		die("cannot open %s", path);
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		struct rt_row r;
		struct rt_pair p;
		struct rt_ldpair q;
		struct rt_z9pair z;
		/* roundtrip_z9pair,LEVEL,INPUT,STOA_BYTES,ZLIB9_BYTES,MEDIAN,Q1,Q3 */
		if (sscanf(line, "roundtrip_z9pair,%d,%lf,%lf,%lf,%lf,%lf,%lf", &z.level, &z.in,
		           &z.stoa_out, &z.z9_out, &z.median, &z.q1, &z.q3) == 7) {
			d->z9 = grow(d->z9, &d->z9cap, d->nz9 + 1, sizeof(*d->z9));
			d->z9[d->nz9++] = z;
			continue;
		}
		/* roundtrip_ldpair,LD_LEVEL,STOA_LEVEL,INPUT,STOA_BYTES,LD_BYTES,MEDIAN,Q1,Q3 */
		if (sscanf(line, "roundtrip_ldpair,%d,%d,%lf,%lf,%lf,%lf,%lf,%lf", &q.ld_level,
		           &q.stoa_level, &q.in, &q.stoa_out, &q.ld_out, &q.median, &q.q1,
		           &q.q3) == 8) {
			d->ld = grow(d->ld, &d->ldcap, d->nld + 1, sizeof(*d->ld));
			d->ld[d->nld++] = q;
			continue;
		}
		/* roundtrip_pair,LIBRARY,MODE,LEVEL,INPUT,STOA_BYTES,PEER_BYTES,MEDIAN,Q1,Q3 */
		if (sscanf(line, "roundtrip_pair,%255[^,],%15[^,],%d,%lf,%lf,%lf,%lf,%lf,%lf",
		           p.library, p.mode, &p.level, &p.in, &p.stoa_out, &p.peer_out, &p.median,
		           &p.q1, &p.q3) == 9) {
			d->pairs = grow(d->pairs, &d->pcap, d->npairs + 1, sizeof(*d->pairs));
			d->pairs[d->npairs++] = p;
			continue;
		}
		if (sscanf(line, "roundtrip,%63[^,],%15[^,],%d,%lf,%lf,%lf,%lf", r.library, r.mode,
		           &r.level, &r.in, &r.out, &r.comp_mbps, &r.dec_mbps) != 7)
			continue;
		d->rows = grow(d->rows, &d->cap, d->nrows + 1, sizeof(*d->rows));
		d->rows[d->nrows++] = r;
	}
	fclose(f);
}

static const struct rt_row *rt_find(const struct rt_data *d, const char *library, const char *mode,
                                    int level)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (d->rows[i].level == level && !strcmp(d->rows[i].library, library) &&
		    !strcmp(d->rows[i].mode, mode))
			return &d->rows[i];
	return NULL;
}

static void rt_write(struct report *rep, struct report_part *part, FILE *out, int html)
{
	(void)rep;
	struct rt_data *d = rt_of(part);
	if (!d->nrows)
		return;
	heading(out, html, 2, "Round trip: each library inflating its own output");
	para(out, html,
	     "calgary.cat compressed by each library at each of its levels, then inflated by the "
	     "same library (stoa_perf --roundtrip). stateless: raw deflate in one call "
	     "(isal_deflate_stateless; zlib's deflate, libdeflate, zlib-ng in one call each); "
	     "stream: gzip from 64 KiB input chunks (isal_deflate). Inflation in one call "
	     "(isal_inflate_stateless, zlib's and zlib-ng's inflate, libdeflate). MB/s of "
	     "uncompressed bytes both ways; the best of a few calls. stoa/x: stoa's inflate speed "
	     "on its own output over x's on x's own, at the same level and mode.");
	struct table t;
	table_start(&t, out, html);
	table_row(&t);
	table_cell(&t, 1, NULL, "level");
	table_cell(&t, 1, "s", "mode");
	table_cell(&t, 1, "s", "library");
	table_cell(&t, 1, NULL, "size %%");
	table_cell(&t, 1, NULL, "compress MB/s");
	table_cell(&t, 1, NULL, "inflate MB/s");
	table_cell(&t, 1, NULL, "stoa/x inflate");
	table_end_row(&t);
	int max_level = 0;
	for (size_t i = 0; i < d->nrows; i++)
		max_level = d->rows[i].level > max_level ? d->rows[i].level : max_level;
	static const char *const modes[] = { "stateless", "stream" };
	for (int level = 0; level <= max_level; level++)
		for (size_t m = 0; m < 2; m++) {
			const struct rt_row *s = rt_find(d, "stoa", modes[m], level);
			/* stoa first, then the others in file order. */
			for (int pass = 0; pass < 2; pass++)
				for (size_t i = 0; i < d->nrows; i++) {
					const struct rt_row *r = &d->rows[i];
					if (r->level != level || strcmp(r->mode, modes[m]) ||
					    (pass == 0) != (r == s))
						continue;
					table_row(&t);
					table_cell(&t, 0, NULL, "%d", level);
					table_cell(&t, 0, "s", "%s", r->mode);
					table_cell(&t, 0, "s", "%s", r->library);
					table_cell(&t, 0, NULL, "%.2f", 100.0 * r->out / r->in);
					table_cell(&t, 0, NULL, "%.1f", r->comp_mbps);
					table_cell(&t, 0, NULL, "%.1f", r->dec_mbps);
					if (s && r != s && r->dec_mbps > 0) {
						double q = s->dec_mbps / r->dec_mbps;
						table_cell(&t, 0, ratio_class(q), "%.2f", q);
					} else {
						table_cell(&t, 0, NULL, "%s", "");
					}
					table_end_row(&t);
				}
		}
	table_end(&t);
	if (!d->npairs)
		return;
	char text[1024];
	snprintf(text, sizeof(text),
	         "Paired (stoa_perf --roundtrip-pair %s): the peer's shared library loaded beside "
	         "stoa (dlmopen), each library compressing calgary.cat at levels 0-3 and inflating "
	         "its own output in alternation with the other, CPU time, the best of three calls "
	         "per turn; the median and quartiles of the per-turn ratios of the peer's time "
	         "over stoa's (above 1: stoa faster). The drivers above run apart, at different "
	         "moments of the machine's load; these ratios do not.",
	         d->pairs[0].library);
	para(out, html, text);
	table_start(&t, out, html);
	table_row(&t);
	table_cell(&t, 1, NULL, "level");
	table_cell(&t, 1, "s", "mode");
	table_cell(&t, 1, NULL, "stoa size %%");
	table_cell(&t, 1, NULL, "peer size %%");
	table_cell(&t, 1, NULL, "stoa/peer inflate, median");
	table_cell(&t, 1, NULL, "quartiles");
	table_end_row(&t);
	for (size_t i = 0; i < d->npairs; i++) {
		const struct rt_pair *p = &d->pairs[i];
		table_row(&t);
		table_cell(&t, 0, NULL, "%d", p->level);
		table_cell(&t, 0, "s", "%s", p->mode);
		table_cell(&t, 0, NULL, "%.2f", 100.0 * p->stoa_out / p->in);
		table_cell(&t, 0, NULL, "%.2f", 100.0 * p->peer_out / p->in);
		table_cell(&t, 0, ratio_class(p->median), "%.3f", p->median);
		table_cell(&t, 0, NULL, "%.3f-%.3f", p->q1, p->q3);
		table_end_row(&t);
	}
	table_end(&t);
	if (d->nz9) {
		para(out, html,
		     "stoa's inflate on stoa's own output at each level from 4, against the same "
		     "inflate on zlib -9's output (default memory level), one call each, in "
		     "alternation (zlib -9's time over the level's; above 1: stoa's output decodes "
		     "faster).");
		table_start(&t, out, html);
		table_row(&t);
		table_cell(&t, 1, NULL, "stoa level");
		table_cell(&t, 1, NULL, "size %%");
		table_cell(&t, 1, NULL, "zlib -9 size %%");
		table_cell(&t, 1, NULL, "inflate zlib -9 / level, median");
		table_cell(&t, 1, NULL, "quartiles");
		table_end_row(&t);
		for (size_t i = 0; i < d->nz9; i++) {
			const struct rt_z9pair *z = &d->z9[i];
			table_row(&t);
			table_cell(&t, 0, NULL, "%d", z->level);
			table_cell(&t, 0, NULL, "%.2f", 100.0 * z->stoa_out / z->in);
			table_cell(&t, 0, NULL, "%.2f", 100.0 * z->z9_out / z->in);
			table_cell(&t, 0, ratio_class(z->median), "%.3f", z->median);
			table_cell(&t, 0, NULL, "%.3f-%.3f", z->q1, z->q3);
			table_end_row(&t);
		}
		table_end(&t);
	}
	if (!d->nld)
		return;
	para(out, html,
	     "Paired against libdeflate the same way, one call each: for each libdeflate level, the "
	     "lowest stoa level whose output is no larger, each library inflating its own output "
	     "(libdeflate's time over stoa's; above 1: stoa faster).");
	table_start(&t, out, html);
	table_row(&t);
	table_cell(&t, 1, NULL, "libdeflate level");
	table_cell(&t, 1, NULL, "size %%");
	table_cell(&t, 1, NULL, "stoa level");
	table_cell(&t, 1, NULL, "size %%");
	table_cell(&t, 1, NULL, "stoa/libdeflate inflate, median");
	table_cell(&t, 1, NULL, "quartiles");
	table_end_row(&t);
	for (size_t i = 0; i < d->nld; i++) {
		const struct rt_ldpair *q = &d->ld[i];
		table_row(&t);
		table_cell(&t, 0, NULL, "%d", q->ld_level);
		table_cell(&t, 0, NULL, "%.2f", 100.0 * q->ld_out / q->in);
		if (q->stoa_level < 0) {
			table_cell(&t, 0, NULL, "%s", "none as small");
			table_cell(&t, 0, NULL, "%s", "");
			table_cell(&t, 0, NULL, "%s", "");
			table_cell(&t, 0, NULL, "%s", "");
		} else {
			table_cell(&t, 0, NULL, "%d", q->stoa_level);
			table_cell(&t, 0, NULL, "%.2f", 100.0 * q->stoa_out / q->in);
			table_cell(&t, 0, ratio_class(q->median), "%.3f", q->median);
			table_cell(&t, 0, NULL, "%.3f-%.3f", q->q1, q->q3);
		}
		table_end_row(&t);
	}
	table_end(&t);
}

const struct report_section roundtrip_section = {
	.module = "roundtrip",
	.option = "--roundtrip",
	.read_option = rt_read,
	.write = rt_write,
};
