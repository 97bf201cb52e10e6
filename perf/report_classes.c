/* The CPU-class section (perf/class_bench.sh, read with --classes FILE: class_table.awk's lines
 * with -v csv=1): per peer, a table of stoa's MB/s over the peer's in each x86 class, one row per
 * function, parameters and size, and in the HTML a chart of every cell's ratio per class on a
 * log scale, so that the cells below 1.0 stand out at a glance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define CL_MAX 8

struct cl_cell {
	char peer[32], function[64], params[64], size[24], cls[32];
	double ratio;
};

struct cl_data {
	char names[CL_MAX][32], about[CL_MAX][256];
	int ran[CL_MAX], nclasses;
	struct cl_cell *cells;
	size_t ncells, cap;
};

static struct cl_data *cl_of(struct report_part *part)
{
	if (!part->data)
		part->data = xcalloc(1, sizeof(struct cl_data));
	return part->data;
}

static void cl_read(struct report_part *part, const char *path)
{
	struct cl_data *d = cl_of(part);
	FILE *f = fopen(path, "r");
	if (!f)
		die("cannot open %s", path);
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		struct cl_cell c;
		int ran;
		char name[32], about[256];
		if (d->nclasses < CL_MAX &&
		    sscanf(line, "class,%31[^,],%d,%255[^\n]", name, &ran, about) == 3) {
			snprintf(d->names[d->nclasses], sizeof(d->names[0]), "%s", name);
			snprintf(d->about[d->nclasses], sizeof(d->about[0]), "%s", about);
			d->ran[d->nclasses++] = ran;
			continue;
		}
		/* PARAMS may be empty: read it apart. */
		char *p = line;
		if (strncmp(p, "cell,", 5))
			continue;
		p += 5;
		char *field[6];
		int n = 0;
		for (; n < 6; n++) {
			field[n] = p;
			p = strchr(p, ',');
			if (!p)
				break;
			*p++ = 0;
		}
		if (n != 5)
			continue;
		snprintf(c.peer, sizeof(c.peer), "%s", field[0]);
		snprintf(c.function, sizeof(c.function), "%s", field[1]);
		snprintf(c.params, sizeof(c.params), "%s", field[2]);
		snprintf(c.size, sizeof(c.size), "%s", field[3]);
		snprintf(c.cls, sizeof(c.cls), "%s", field[4]);
		c.ratio = strtod(field[5], NULL);
		d->cells = grow(d->cells, &d->cap, d->ncells + 1, sizeof(*d->cells));
		d->cells[d->ncells++] = c;
	}
	fclose(f);
}

static int same_row(const struct cl_cell *a, const struct cl_cell *b)
{
	return !strcmp(a->peer, b->peer) && !strcmp(a->function, b->function) &&
	       !strcmp(a->params, b->params) && !strcmp(a->size, b->size);
}

static const struct cl_cell *cl_find(const struct cl_data *d, const struct cl_cell *row,
                                     const char *cls)
{
	for (size_t i = 0; i < d->ncells; i++)
		if (same_row(&d->cells[i], row) && !strcmp(d->cells[i].cls, cls))
			return &d->cells[i];
	return NULL;
}

/* Ratios per class as dots on a log axis from 1/4 to 4, a line at 1.0. */
static void cl_chart(const struct cl_data *d, const char *peer, FILE *out)
{
	const double w = 720, h = 300, left = 60, top = 20, bottom = 60;
	const double colw = (w - left - 10) / d->nclasses, ph = h - top - bottom;
	const double lo = log(0.25), hi = log(4.0);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\">\n", w,
	        h);
	static const double ticks[] = { 0.25, 0.5, 1.0, 2.0, 4.0 };
	for (size_t i = 0; i < sizeof(ticks) / sizeof(ticks[0]); i++) {
		double y = top + ph * (hi - log(ticks[i])) / (hi - lo);
		fprintf(out,
		        "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
		        "<text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n",
		        left, w - 10, y, y, ticks[i] == 1.0 ? "#444" : "#ddd", left - 4, y + 4,
		        ticks[i]);
	}
	for (int c = 0; c < d->nclasses; c++) {
		const double cx = left + colw * (c + 0.5);
		fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\">",
		        cx, h - bottom + 16);
		html_text(out, d->names[c]);
		fprintf(out, "</text>\n");
		size_t k = 0, below = 0;
		for (size_t i = 0; i < d->ncells; i++) {
			const struct cl_cell *e = &d->cells[i];
			if (strcmp(e->peer, peer) || strcmp(e->cls, d->names[c]) || e->ratio <= 0)
				continue;
			double r = fmin(fmax(log(e->ratio), lo), hi);
			double y = top + ph * (hi - r) / (hi - lo);
			/* Spread the dots across the column by their order, to keep them apart. */
			double x = cx - colw * 0.35 + colw * 0.7 * (double)((k * 37) % 100) / 100.0;
			const char *cls = ratio_class(e->ratio);
			fprintf(out,
			        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"><title>%s %s "
			        "%s: %.2f</title></circle>\n",
			        x, y, !cls ? "#888" : strcmp(cls, "up") ? "#c33" : "#3a3", e->function,
			        e->params, e->size, e->ratio);
			k++;
			below += e->ratio < 1.0;
		}
		fprintf(out,
		        "<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\">%zu of %zu "
		        "below 1</text>\n",
		        cx, h - bottom + 32, below, k);
	}
	fprintf(out, "</svg>\n");
}

static void cl_table(const struct cl_data *d, const char *peer, FILE *out, int html)
{
	struct table t;
	table_start(&t, out, html);
	table_row(&t);
	table_cell(&t, 1, "s", "function");
	table_cell(&t, 1, "s", "params");
	table_cell(&t, 1, NULL, "size");
	for (int c = 0; c < d->nclasses; c++) /* (x86-64-v3 as v3: the columns fit the page) */
		table_cell(&t, 1, NULL, "%s",
		           strncmp(d->names[c], "x86-64-", 7) ? d->names[c] : d->names[c] + 7);
	table_end_row(&t);
	for (size_t i = 0; i < d->ncells; i++) {
		const struct cl_cell *row = &d->cells[i];
		if (strcmp(row->peer, peer))
			continue;
		/* Each row once: at its first cell. */
		size_t j = 0;
		while (j < i && !same_row(&d->cells[j], row))
			j++;
		if (j < i)
			continue;
		char sz[32];
		table_row(&t);
		table_cell(&t, 0, "s", "%s", row->function);
		table_cell(&t, 0, "s", "%s", *row->params ? row->params : "-");
		table_cell(&t, 0, NULL, "%s",
		           size_name((size_t)strtoull(row->size, NULL, 10), sz, sizeof(sz)));
		for (int c = 0; c < d->nclasses; c++) {
			const struct cl_cell *e = cl_find(d, row, d->names[c]);
			if (e)
				table_cell(&t, 0, ratio_class(e->ratio), "%.2f", e->ratio);
			else
				table_cell(&t, 0, NULL, "%s", d->ran[c] ? "-" : "n/a");
		}
		table_end_row(&t);
	}
	table_end(&t);
}

static void cl_write(struct report *rep, struct report_part *part, FILE *out, int html)
{
	(void)rep;
	struct cl_data *d = cl_of(part);
	if (!d->ncells)
		return;
	heading(out, html, 2, "CPU classes: stoa over ISA-L and the peers on each class's code");
	para(out, html,
	     "perf/class_bench.sh: each x86-64 class this CPU can run, stoa capped by STOA_ISA to "
	     "the class and ISA-L / isa-l_crypto through the entry points their dispatchers pick on "
	     "such a CPU (OpenSSL through OPENSSL_ia32cap; libdeflate and zlib have one path). A "
	     "cell is stoa's MB/s over the peer's for the same function, parameters and size, the "
	     "best of the rounds on both sides. \"ISA-L paired\" (where it ran): the same cells "
	     "with both libraries' code timed in one process, in rotating turns on the same buffers "
	     "(perf/perf_pair.c), the median of the per-round ratios (deflate: each library's own "
	     "output): on a shared machine separate processes cannot resolve 10%, the paired form a "
	     "few percent. A paired cell below 0.98 in its first pass is run twice more and shows "
	     "the median of its three passes (perf_report's CLASS_RECHECK).");
	for (int c = 0; c < d->nclasses; c++) {
		char line[320];
		snprintf(line, sizeof(line), "%s: %s%s", d->names[c],
		         d->ran[c] ? "" : "NOT RUN (this CPU lacks its features): ", d->about[c]);
		para(out, html, line);
	}
	/* ISA-L first, then the other peers in the order they first appear. */
	const char *peers[8];
	int npeers = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < d->ncells && npeers < 8; i++) {
			const char *p = d->cells[i].peer;
			if ((pass == 0) != !strcmp(p, "ISA-L"))
				continue;
			int seen = 0;
			for (int k = 0; k < npeers; k++)
				seen |= !strcmp(peers[k], p);
			if (!seen)
				peers[npeers++] = p;
		}
	for (int k = 0; k < npeers; k++) {
		char title[96];
		size_t below = 0, all = 0;
		for (size_t i = 0; i < d->ncells; i++)
			if (!strcmp(d->cells[i].peer, peers[k])) {
				all++;
				below += d->cells[i].ratio < 1.0;
			}
		snprintf(title, sizeof(title), "stoa over %s: %zu of %zu cells below 1.0", peers[k],
		         below, all);
		heading(out, html, 3, title);
		if (html)
			cl_chart(d, peers[k], out);
		cl_table(d, peers[k], out, html);
	}
}

const struct report_section classes_section = {
	.module = "class",
	.option = "--classes",
	.read_option = cl_read,
	.write = cl_write,
};
