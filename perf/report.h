/* perf_report_writer's shared declarations: the rows read from the drivers' CSV files, the report
 * made of them, and the writers that the generic part (report.c), the HTML part (report_html.c)
 * and the module sections (report_sections.c) share. */
#ifndef STOA_PERF_REPORT_H
#define STOA_PERF_REPORT_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STOA "stoa"

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
	int threads;
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
	const char *module; /* its rows leave the per-size tables for the section */
	const char *option; /* "--name": a further input file it reads, or NULL */
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
	/* The noise band the run measured: stoa's stream_read (the same code in every build)
	 * against each peer's read lo..hi; a ratio q with max(q, 1/q) <= noise is a tie. */
	double noise, noise_lo, noise_hi;
	size_t noise_pairs;
};

/* Results that must be equal (same function, size and input) but are not. */
struct mismatch {
	const struct row *a, *b;
};

/* The run-wide facts every report starts with: each a label and a value. */
struct fact {
	char label[128];
	char value[8192];
};

struct series {
	char name[128];
	const char *colour; /* NULL: the colour this name has everywhere */
	double v[64];       /* per group; NAN when absent */
};

struct text_cell {
	char *text;
	int row, col, left;
};

/* A table written as text (kept until table_end, which sizes the columns to their contents and
 * splits a table wider than 100 columns into parts that repeat its leading left-aligned columns)
 * or HTML (written as it goes). */
struct table {
	FILE *out;
	int html, col, row;
	struct text_cell *cells;
	size_t ncells, cap;
};

/* report.c: memory and messages (die exits with status 2). */
__attribute__((noreturn, format(printf, 1, 2))) void die(const char *fmt, ...);
char *dup_str(const char *s);
void *xcalloc(size_t n, size_t size);
void *grow(void *p, size_t *cap, size_t need, size_t elem);

/* report.c: the rows. find gives a library's row for a key and size (its "dispatch" variant when
 * it has one); check_results the pairs that should be equal and are not. */
int same_key(const struct row *r, const struct key *k);
const struct row *find(const struct report *rep, const char *library, const struct key *k,
                       size_t size);
/* The per-size rows in the full table's order, by key as the tables list them and then by size:
 * an allocated array (the caller frees it) of *n rows. */
const struct row **rows_in_order(const struct report *rep, size_t *n);
const char *size_name(size_t size, char *buf, size_t cap);
const char *key_name(const struct key *k, char *buf, size_t cap);
size_t check_results(const struct report *rep, struct mismatch *out, size_t cap, size_t *compared);
double geomean_ratio(const struct report *rep, const char *peer, size_t *count);
/* The calibration function (the same code in every build), left out of means and summaries. */
int is_calibration(const char *function);
/* "up" / "down" for a ratio outside the noise band (set_noise), NULL inside it. */
const char *ratio_class(double q);
void set_noise(double noise);
/* The summary the report starts with: the noise band, each peer's geometric mean and the rows
 * outside the band below 1. */
void write_summary(const struct report *rep, FILE *out, int html);
/* report_glance.c: the questions a reader brings, answered after the summary. */
void write_glance(struct report *rep, FILE *out, int html);

/* report.c: text that is written as plain text or as HTML, as html says. */
void html_text(FILE *out, const char *s);
void table_start(struct table *t, FILE *out, int html);
void table_row(struct table *t);
void table_end_row(struct table *t);
void table_end(struct table *t);
/* A cell: head or data; cls "s" left-aligns, "up"/"down" colour a ratio (HTML). */
void table_cell(struct table *t, int head, const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void heading(FILE *out, int html, int level, const char *text);
void para(FILE *out, int html, const char *text);

/* report_html.c */
const char *series_colour(struct report *rep, const char *name);
void svg_legend(struct report *rep, FILE *out, double x, double y, double width,
                const struct series *ser, size_t nser);
void html_report(struct report *rep, FILE *out, const struct fact *facts, size_t nfacts);

/* The module sections, in the order they are written; NULL-terminated. */
extern const struct report_section *const sections[];

#endif
