/* The HTML report: one file, inline CSS and SVG charts, no scripts. */
#include "report.h"

#include <ctype.h>

/* Fourteen colours that stay apart (Tableau's ten, black, yellow and two light ones); within one
 * chart no two series share one. */
static const char *const palette[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	                               "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
	                               "#000000", "#f0e442", "#a6cee3", "#fb9a99" };
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

const char *series_colour(struct report *rep, const char *name)
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

/* One panel: groups along x, a bar per series in each group, linear y from 0. The values also
 * sit in each bar's <title>, which browsers show on hover without any script. */
static void svg_panel(struct report *rep, FILE *out, double x0, double y0, double w, double h,
                      const char *title, const char *const *groups, size_t ngroups,
                      const struct series *ser, size_t nser, const char *unit, double refline,
                      int slanted)
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

void svg_legend(struct report *rep, FILE *out, double x, double y, double width,
                const struct series *ser, size_t nser)
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
		        cx, cy, ser[s].colour ? ser[s].colour : series_colour(rep, ser[s].name),
		        cx + 15, cy + 10);
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
static void html_function_chart(struct report *rep, FILE *out, const struct key *k, size_t index)
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
			ser[nser].colour = palette[nser % NPALETTE];
			for (size_t g = 0; g < 64; g++)
				ser[nser].v[g] = NAN;
			nser++;
		}
	}
	/* The sizes this function was measured at. */
	size_t sizes[64], nsz = 0;
	for (size_t sz = 0; sz < rep->nsizes; sz++)
		for (size_t i = 0; i < rep->nrows; i++)
			if (rep->rows[i].size == rep->sizes[sz] && same_key(&rep->rows[i], k)) {
				sizes[nsz++] = rep->sizes[sz];
				break;
			}
	/* Bars inside a panel are the series; a panel has one group (its size). */
	const double pw = nser > 6 ? 230 : 190, ph = 210;
	const double width = pw * (double)(nsz > 2 ? nsz : 2);
	double lh = 16.0 * (double)legend_rows(ser, nser, width - 20);
	char b1[64];
	fprintf(out, "<h3 id=\"function-%zu\">", index);
	html_text(out, key_name(k, b1, sizeof(b1)));
	fprintf(out,
	        "</h3>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
	        "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
	        width, ph + lh + 10, width, ph + lh + 10);
	for (size_t sz = 0; sz < nsz; sz++) {
		char label[32], title[64];
		const char *groups[1] = { "" };
		size_name(sizes[sz], label, sizeof(label));
		snprintf(title, sizeof(title), "%s (MB/s)", label);
		for (size_t s = 0; s < nser; s++) {
			memcpy(one[s].name, ser[s].name, sizeof(one[s].name));
			one[s].colour = ser[s].colour;
			one[s].v[0] = NAN;
		}
		for (size_t i = 0; i < rep->nrows; i++) {
			const struct row *r = &rep->rows[i];
			if (r->size != sizes[sz] || !same_key(r, k))
				continue;
			char name[128];
			snprintf(name, sizeof(name), "%s %s", r->library, r->variant);
			for (size_t s = 0; s < nser; s++)
				if (strcmp(one[s].name, name) == 0)
					one[s].v[0] = r->mbps;
		}
		groups[0] = label;
		svg_panel(rep, out, pw * (double)sz, 0, pw, ph, title, groups, 1, one, nser, "MB/s",
		          0, 0);
	}
	svg_legend(rep, out, 10, ph + 4, width - 20, ser, nser);
	fprintf(out, "</svg>\n");
	free(ser);
	free(one);
}

/* Per peer: one row per function, parameters and size the peer has, a dot at stoa/peer on a
 * logarithmic axis centred on 1, the noise band grey behind it, the value written at the right.
 * A dot outside the band is green (stoa ahead) or red (behind), inside it grey. */
static void html_ratio_chart(struct report *rep, FILE *out, const char *peer)
{
	struct point {
		size_t key, size;
		double q;
	};
	size_t cap = rep->nkeys * rep->nsizes + 1, n = 0;
	struct point *pt = xcalloc(cap, sizeof(*pt));
	double lo = 1, hi = 1;
	for (size_t k = 0; k < rep->nkeys; k++)
		for (size_t s = 0; s < rep->nsizes; s++) {
			const struct row *a = find(rep, STOA, &rep->keys[k], rep->sizes[s]);
			const struct row *b = find(rep, peer, &rep->keys[k], rep->sizes[s]);
			if (!a || !b || a->mbps <= 0 || b->mbps <= 0)
				continue;
			pt[n] = (struct point){ k, s, a->mbps / b->mbps };
			if (pt[n].q < lo)
				lo = pt[n].q;
			if (pt[n].q > hi)
				hi = pt[n].q;
			n++;
		}
	if (!n) {
		free(pt);
		return;
	}
	/* The axis runs from 1/R to R, R the first of these that holds every point. */
	static const double ranges[] = { 1.25, 1.5, 2, 3, 4, 8, 16, 64 };
	double span = hi > 1 / lo ? hi : 1 / lo, R = 64;
	if (rep->noise > span)
		span = rep->noise;
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (ranges[i] >= span) {
			R = ranges[i];
			break;
		}
	const double label_w = 360, plot_w = 820, value_w = 70, row_h = 15, top = 44;
	const double width = label_w + plot_w + value_w, height = top + row_h * (double)n + 30;
	const double x1 = label_w + plot_w / 2;
#define PX(q) (x1 + log(q) / log(R) * (plot_w / 2 - 6))
	char b1[128], b2[32];
	fprintf(out, "<h3 id=\"peer-");
	for (const char *c = peer; *c; c++)
		fputc(isalnum((unsigned char)*c) ? *c : '-', out);
	fprintf(out, "\">stoa against ");
	html_text(out, peer);
	fprintf(out,
	        "</h3>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	        "viewBox=\"0 0 %.0f %.0f\">\n",
	        width, height, width, height);
	fprintf(out, "<text x=\"%.1f\" y=\"14\" class=\"t\">", x1);
	fprintf(out, "stoa MB/s / ");
	html_text(out, peer);
	fprintf(out, " MB/s (log scale; right of 1: stoa faster; grey: the noise band)</text>\n");
	/* The band and the ticks. */
	fprintf(out,
	        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"band\"/>\n",
	        PX(1 / rep->noise), top - 4, PX(rep->noise) - PX(1 / rep->noise),
	        row_h * (double)n + 8);
	static const double ticks[] = { 1 / 64.0, 1 / 16.0, 1 / 8.0, 0.25, 1 / 3.0, 0.5, 2 / 3.0,
		                        0.8, 1,         1.25,       1.5,       2,    3,         4,
		                        8,   16,        64 };
	for (size_t i = 0; i < sizeof(ticks) / sizeof(ticks[0]); i++) {
		double q = ticks[i];
		if (q < 1 / R * 0.999 || q > R * 1.001)
			continue;
		double x = PX(q);
		fprintf(out,
		        "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"%s\"/>"
		        "<text x=\"%.1f\" y=\"%.1f\" class=\"x\">%.2g</text>"
		        "<text x=\"%.1f\" y=\"%.1f\" class=\"x\">%.2g</text>\n",
		        x, x, top - 6, top + row_h * (double)n + 4, q == 1 ? "r" : "g", x, top - 10,
		        q, x, top + row_h * (double)n + 16, q);
	}
	for (size_t i = 0; i < n; i++) {
		const struct key *k = &rep->keys[pt[i].key];
		double y = top + row_h * (double)i + row_h / 2;
		int first = i == 0 || pt[i - 1].key != pt[i].key;
		if (first && i)
			fprintf(out,
			        "<line x1=\"0\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"sep\"/>\n",
			        width, y - row_h / 2, y - row_h / 2);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"lab\">", label_w - 8, y + 4);
		if (first)
			html_text(out, key_name(k, b1, sizeof(b1)));
		fprintf(out, " %s</text>\n",
		        size_name(rep->sizes[pt[i].size], b2, sizeof(b2)));
		const char *cls = ratio_class(pt[i].q);
		const char *colour = !cls ? "#888" : strcmp(cls, "up") ? "#c62828" : "#2e7d32";
		fprintf(out,
		        "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		        "class=\"stem\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">"
		        "<title>",
		        x1, PX(pt[i].q), y, y, colour, PX(pt[i].q), y, colour);
		html_text(out, key_name(k, b1, sizeof(b1)));
		fprintf(out, " %s: %.3f</title></circle>\n", b2, pt[i].q);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"val\" fill=\"%s\">%.2f</text>\n",
		        width - 8, y + 4, colour, pt[i].q);
	}
#undef PX
	fprintf(out, "</svg>\n");
	free(pt);
}

void html_report(struct report *rep, FILE *out, const struct fact *facts, size_t nfacts)
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
	        "svg .band{fill:#e4e4e4}svg .sep{stroke:#eee;stroke-width:1}\n"
	        "svg .lab{font-size:11px;text-anchor:end}svg .val{font-size:11px;text-anchor:end}\n"
	        "svg .stem{stroke-width:1.5;opacity:.5}\n"
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
		fprintf(out,
		        "every library and variant gave the same result for the same input "
		        "(%zu comparisons)",
		        compared);
	else
		fprintf(out, "%zu mismatches of %zu comparisons (see the text report)", nmm,
		        compared);
	fprintf(out, "</dd>\n</dl>\n");

	write_summary(rep, out, 1);
	write_glance(rep, out, 1);

	fprintf(out, "<h2>stoa against each peer</h2>\n<p>One row per function, parameters and "
	             "size that both libraries ran; hover a dot for its value.</p>\n");
	for (size_t p = 0; p < rep->npeers; p++)
		html_ratio_chart(rep, out, rep->peers[p]);

	fprintf(out, "<h2>Ratio table</h2>\n<p>stoa's dispatched function MB/s divided by each "
	             "peer's, measured in the same run; above 1, stoa is faster. Only ratios "
	             "outside the noise band are coloured.</p>\n");
	fprintf(out, "<table>\n<tr><th>function and parameters</th><th>size</th>"
	             "<th>stoa MB/s</th>");
	for (size_t p = 0; p < rep->npeers; p++) {
		fprintf(out, "<th>");
		html_text(out, rep->peers[p]);
		fprintf(out, " MB/s</th><th>stoa / ");
		html_text(out, rep->peers[p]);
		fprintf(out, "</th>");
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
				const struct row *b =
				    find(rep, rep->peers[p], &rep->keys[k], rep->sizes[s]);
				if (b && b->mbps > 0) {
					double q = a->mbps / b->mbps;
					const char *cls = ratio_class(q);
					fprintf(out, "<td>%.1f</td><td%s%s%s>%.2f</td>", b->mbps,
					        cls ? " class=\"" : "", cls ? cls : "",
					        cls ? "\"" : "", q);
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

	fprintf(out, "<h2>Throughput per function, variant and size</h2>\n<p>A panel per size "
	             "measured, each with its own scale; hover a bar for its value.</p>\n");
	for (size_t k = 0; k < rep->nkeys; k++)
		html_function_chart(rep, out, &rep->keys[k], k);

	for (size_t i = 0; i < rep->nparts; i++)
		rep->parts[i].section->write(rep, &rep->parts[i], out, 1);

	fprintf(out, "<h2>Full table</h2>\n<table>\n<tr><th>library</th>"
	             "<th>function and parameters</th><th>variant</th><th>size</th>"
	             "<th>bytes counted</th><th>MB/s</th><th>cycles per byte</th>"
	             "<th>median MB/s</th><th>calls per repetition</th><th>result check value</th>"
	             "</tr>\n");
	size_t n;
	const struct row **order = rows_in_order(rep, &n);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = order[i];
		const struct key k = { r->module, r->function, r->params, r->mode, r->threads };
		fprintf(out, "<tr><td class=\"s\">");
		html_text(out, r->library);
		fprintf(out, "</td><td class=\"s\">");
		html_text(out, key_name(&k, b1, sizeof(b1)));
		fprintf(out, "</td><td class=\"s\">");
		html_text(out, r->variant);
		fprintf(out, "</td><td>%s</td><td class=\"s\">",
		        size_name(r->size, b2, sizeof(b2)));
		html_text(out, r->bytes_counted);
		if (isnan(r->cpb))
			fprintf(out, "</td><td>%.1f</td><td>-</td>", r->mbps);
		else
			fprintf(out, "</td><td>%.1f</td><td>%.3f</td>", r->mbps, r->cpb);
		fprintf(out, "<td>%.1f</td><td>%llu</td><td class=\"s\"><code>", r->median,
		        r->calls);
		html_text(out, r->check);
		fprintf(out, "</code></td></tr>\n");
	}
	free(order);
	fprintf(out, "</table>\n</body>\n</html>\n");
}
