/* stoa_perf: runs the registry's cases and prints one row per library, function, variant and
 * size. See perf/README.md for the options and the method. */
#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf.h"
#ifndef PERF_LIB_ISAL_CRYPTO
#include "perf_igzip.h"
#endif

#ifdef PERF_LIB_STOA
#include "cpu.h"
#include "dispatch.h"
#include "stoa.h"
#endif
#ifdef PERF_ISAL_UPSTREAM
#include "isal_api.h"
#endif

#ifndef PERF_LIB_DESCRIBE
#define PERF_LIB_DESCRIBE ""
#endif

#define MIB (1024u * 1024u)
#define LINE 64

static const size_t default_sizes[] = { 64, 512, 4096, 65536, 1048576, 0 };

struct options {
	enum { OUT_TEXT, OUT_CSV, OUT_JSON } out;
	const char *filter;
	size_t sizes[32]; /* 0-terminated; sizes[0] == 0: each case's own list */
	int cold;
	int threads;
	unsigned time_ms;
	unsigned reps;
	int list, list_functions, cpu;
	int roundtrip; /* --roundtrip: perf_roundtrip.c's table instead of the cases */
	const char *roundtrip_pair; /* --roundtrip-pair LIB: its paired form against LIB */
	const char *cls; /* --class: what runs on that CPU class, one row per implementation */
	const char *pair; /* --pair LIB: this build's library against stoa's LIB, paired */
	int quick; /* --quick: the public function and the peers only, at each case's quick sizes */
};

/* Everything measured for one row. */
struct result {
	double mbps, median_mbps, cycles_per_byte; /* cycles_per_byte < 0: not available */
	uint64_t calls;
	uint64_t check;
};

/* One implementation of a case, as the rows name it. */
struct impl {
	const char *library;
	const char *variant;
	perf_fn fn;
	perf_run_fn *run;
};

#define MAX_IMPLS 32
#define MAX_REPS 256
#define MAX_THREADS 256

/* A thread's memory: warm mode uses the first instance only; cold mode walks them all. */
struct arena {
	uint8_t *base;
	size_t bytes;
};

/* What the workers of one measurement share. */
struct job {
	const struct perf_case *pc;
	const struct impl *im;
	size_t size;
	void *state;
	size_t stride, count, step; /* instances: cold walk visits count of them, step apart */
	uint64_t rep_ns;
	unsigned reps;
	int threads;
	uint64_t batch; /* calls between clock reads, set by thread 0's calibration */
	pthread_barrier_t barrier;
	struct arena *arenas;
	/* Per thread and repetition. */
	uint64_t t0[MAX_THREADS][MAX_REPS], t1[MAX_THREADS][MAX_REPS];
	uint64_t cycles[MAX_THREADS][MAX_REPS], calls[MAX_THREADS][MAX_REPS];
	int cycles_ok[MAX_THREADS];
	uint64_t sink[MAX_THREADS];
};

struct worker {
	struct job *job;
	int id;
};

static int failures;

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("stoa_perf: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

/* Deterministic test data, the same in every build, so results can be compared across
 * libraries: splitmix64 over a seed per thread. */
static void fill_data(uint8_t *p, size_t n, uint64_t seed)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ull + 0x1234567ull;
	size_t i = 0;
	while (i < n) {
		uint64_t z = (s += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		size_t k = n - i < 8 ? n - i : 8;
		memcpy(p + i, &z, k);
		i += k;
	}
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

static size_t footprint(const struct perf_case *pc, size_t size)
{
	return pc->footprint ? pc->footprint(size) : size;
}

static uint64_t bytes_per_call(const struct perf_case *pc, size_t size)
{
	return pc->bytes_per_call ? pc->bytes_per_call(size) : size;
}

/* Sizes like 64, 4K, 1M (binary multiples). */
static size_t parse_size(const char *s)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		die("bad size '%s'", s);
	if (*end == 'k' || *end == 'K')
		v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		v <<= 20, end++;
	else if (*end == 'g' || *end == 'G')
		v <<= 30, end++;
	if (*end == 'i' && end[1] == 'B')
		end += 2;
	else if (*end == 'B')
		end++;
	if (*end || v == 0)
		die("bad size '%s'", s);
	return (size_t)v;
}

static void parse_sizes(const char *list, size_t *out, size_t cap)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", list);
	size_t n = 0;
	for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n + 1 >= cap)
			die("too many sizes");
		out[n++] = parse_size(tok);
	}
	out[n] = 0;
	if (!n)
		die("--sizes needs at least one size");
}

/* Human form of a size: 64B, 4KiB, 1MiB. */
static const char *size_name(size_t size, char *buf, size_t cap)
{
	if (size >= MIB && size % MIB == 0)
		snprintf(buf, cap, "%zuMiB", size / MIB);
	else if (size >= 1024 && size % 1024 == 0)
		snprintf(buf, cap, "%zuKiB", size / 1024);
	else
		snprintf(buf, cap, "%zuB", size);
	return buf;
}

/* --filter: comma-separated patterns; "=name" matches a function name exactly, anything else
 * is a substring of "module/function params", or with a final '$' its end ("level=1$" is not
 * level=10). */
static int case_selected(const struct perf_case *pc, const char *filter)
{
	if (!filter || !*filter)
		return 1;
	char name[256], buf[512];
	snprintf(name, sizeof(name), "%s/%s%s%s", pc->module, pc->function, *pc->params ? " " : "",
		 pc->params);
	snprintf(buf, sizeof(buf), "%s", filter);
	for (char *save, *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		const size_t pl = strlen(p), nl = strlen(name);
		if (*p == '=') {
			if (strcmp(pc->function, p + 1) == 0)
				return 1;
		} else if (pl && p[pl - 1] == '$') {
			if (pl - 1 <= nl && memcmp(name + nl - (pl - 1), p, pl - 1) == 0)
				return 1;
		} else if (strstr(name, p)) {
			return 1;
		}
	}
	return 0;
}

static const size_t *case_sizes(const struct perf_case *pc, const struct options *o)
{
	static const size_t none[] = { 0 };
	if (o->quick && pc->quick_sizes && !pc->quick_sizes[0])
		return none;
	if (o->sizes[0])
		return o->sizes;
	const size_t *own = pc->sizes ? pc->sizes : default_sizes;
	/* (A case whose own list is empty, an input that is absent, stays out.) */
	return o->quick && pc->quick_sizes && own[0] ? pc->quick_sizes : own;
}

/* --quick leaves out the per-variant rows. */
static int quick_run;

#ifdef PERF_LIB_STOA
static const struct stoa_func *variants_of(const struct perf_case *pc)
{
	return stoa_find_func(pc->table ? pc->table : pc->function);
}
#endif

/* The implementations a case times in this build, in row order; unsupported stoa variants are
 * named in *skipped. */
static size_t case_impls(const struct perf_case *pc, struct impl *out, char *skipped,
			 size_t skipped_cap)
{
	size_t n = 0;
	if (skipped_cap)
		skipped[0] = '\0';
	const char *cls = perf_class_name();
	out[n++] = (struct impl){ PERF_LIBRARY, cls ? cls : "dispatch", pc->api, pc->run };
#ifdef PERF_LIB_STOA
	const struct stoa_func *f = cls || quick_run ? NULL : variants_of(pc);
	for (size_t i = 0; f && i < f->count && n < MAX_IMPLS; i++) {
		const struct stoa_variant *v = &f->variants[i];
		const char *name = v->name;
		if (pc->base_variant && strcmp(name, "base") == 0)
			name = pc->base_variant;
		if (stoa_variant_usable(v)) {
			out[n++] = (struct impl){ "stoa", name, PERF_FN(v->fn), pc->run };
		} else if (skipped_cap) {
			size_t len = strlen(skipped);
			snprintf(skipped + len, skipped_cap - len, "%s%s", len ? " " : "", v->name);
		}
	}
#else
	(void)skipped;
#endif
	for (size_t i = 0; i < pc->npeers && n < MAX_IMPLS; i++) {
		const struct perf_peer *p = &pc->peers[i];
		perf_run_fn *run = p->run ? p->run : pc->run;
		if (!perf_class_peer_ok(p->library))
			continue;
		out[n++] = (struct impl){ p->library, cls ? cls : p->variant, p->fn, run };
	}
	return n;
}

/* Runs `calls` calls: warm mode on instance 0, cold mode walking the pool. */
static uint64_t run_calls(const struct job *j, int thread, uint64_t calls, size_t *pos)
{
	struct perf_call c = { j->im->fn, j->arenas[thread].base, j->size, j->state, 0 };
	if (j->count <= 1)
		return j->im->run(&c, calls);
	uint64_t acc = 0;
	size_t at = *pos;
	for (uint64_t i = 0; i < calls; i++) {
		c.mem = j->arenas[thread].base + at * j->stride;
		acc += j->im->run(&c, 1);
		at += j->step;
		if (at >= j->count)
			at -= j->count;
	}
	*pos = at;
	return acc;
}

/* Finds a batch (calls between clock reads) that takes about 1/16 of a repetition, then keeps
 * running batches for the rest of the warm-up: a repetition's time, and at least 10 ms so the
 * core has settled into the clock its vector units run at. */
static uint64_t calibrate(const struct job *j, size_t *pos, uint64_t *acc)
{
	uint64_t n = 1, t, start = perf_now_ns();
	for (;;) {
		uint64_t t0 = perf_now_ns();
		*acc += run_calls(j, 0, n, pos);
		t = perf_now_ns() - t0;
		if (t >= j->rep_ns / 16 || n >= (1ull << 40))
			break;
		n *= t < j->rep_ns / 256 ? 8 : 2;
	}
	uint64_t warm = j->rep_ns > 10000000u ? j->rep_ns : 10000000u;
	while (perf_now_ns() - start < warm)
		*acc += run_calls(j, 0, n, pos);
	return n;
}

/* A repetition lasts at least rep_ns: whole batches until the clock says so. */
static uint64_t timed_rep(const struct job *j, int thread, size_t *pos, uint64_t *acc,
			  uint64_t *t0, uint64_t *t1)
{
	uint64_t calls = 0, now, start = perf_now_ns();
	do {
		*acc += run_calls(j, thread, j->batch, pos);
		calls += j->batch;
		now = perf_now_ns();
	} while (now - start < j->rep_ns);
	*t0 = start;
	*t1 = now;
	return calls;
}

static void *worker_main(void *arg)
{
	const struct worker *w = arg;
	struct job *j = w->job;
	struct perf_cycles pc;
	uint64_t acc = 0, t0, t1;
	size_t pos = (size_t)w->id * 7919 % (j->count ? j->count : 1);

	j->cycles_ok[w->id] = perf_cycles_open(&pc) == 0;
	if (w->id == 0)
		j->batch = calibrate(j, &pos, &acc);
	pthread_barrier_wait(&j->barrier);
	/* Thread 0 is warm from calibrating; the others warm up on their own memory. */
	if (j->threads > 1 && w->id)
		timed_rep(j, w->id, &pos, &acc, &t0, &t1);
	for (unsigned r = 0; r < j->reps; r++) {
		pthread_barrier_wait(&j->barrier);
		uint64_t c0 = perf_cycles_read(&pc);
		j->calls[w->id][r] =
			timed_rep(j, w->id, &pos, &acc, &j->t0[w->id][r], &j->t1[w->id][r]);
		j->cycles[w->id][r] = perf_cycles_read(&pc) - c0;
	}
	perf_cycles_close(&pc);
	j->sink[w->id] = acc;
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Any value the optimiser must assume is used. */
static volatile uint64_t global_sink;

static void measure(struct job *j, struct result *res)
{
	pthread_t tid[MAX_THREADS];
	struct worker w[MAX_THREADS];
	if (pthread_barrier_init(&j->barrier, NULL, (unsigned)j->threads))
		die("pthread_barrier_init failed");
	for (int t = 0; t < j->threads; t++)
		w[t] = (struct worker){ j, t };
	for (int t = 1; t < j->threads; t++)
		if (pthread_create(&tid[t], NULL, worker_main, &w[t]))
			die("pthread_create failed");
	worker_main(&w[0]);
	for (int t = 1; t < j->threads; t++)
		pthread_join(tid[t], NULL);
	pthread_barrier_destroy(&j->barrier);

	double bytes = (double)bytes_per_call(j->pc, j->size);
	double mbps[MAX_REPS];
	int cyc_ok = perf_cycles_valid();
	for (int t = 0; t < j->threads; t++) {
		cyc_ok &= j->cycles_ok[t];
		global_sink += j->sink[t];
	}
	res->mbps = 0;
	res->cycles_per_byte = -1;
	for (unsigned r = 0; r < j->reps; r++) {
		uint64_t start = UINT64_MAX, end = 0, cyc = 0, calls = 0;
		for (int t = 0; t < j->threads; t++) {
			if (j->t0[t][r] < start)
				start = j->t0[t][r];
			if (j->t1[t][r] > end)
				end = j->t1[t][r];
			cyc += j->cycles[t][r];
			calls += j->calls[t][r];
		}
		double ns = (double)(end - start), total = bytes * (double)calls;
		mbps[r] = total / (ns > 0 ? ns : 1) * 1e3; /* bytes/ns = GB/s; x1000 = MB/s */
		if (mbps[r] > res->mbps) {
			res->mbps = mbps[r];
			res->cycles_per_byte = cyc_ok ? (double)cyc / total : -1;
			res->calls = calls;
		}
	}
	qsort(mbps, j->reps, sizeof(mbps[0]), cmp_double);
	res->median_mbps = j->reps % 2 ? mbps[j->reps / 2]
				       : (mbps[j->reps / 2 - 1] + mbps[j->reps / 2]) / 2;
}

/* Metadata. */

static void cpu_model(char *buf, size_t cap)
{
	snprintf(buf, cap, "unknown");
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) == 0) {
			const char *v = strchr(line, ':');
			if (v) {
				v += 1 + (v[1] == ' ');
				snprintf(buf, cap, "%s", v);
				buf[strcspn(buf, "\n")] = '\0';
			}
			break;
		}
	}
	fclose(f);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	size_t len = strlen(buf);
	snprintf(buf + len, cap - len, " (%ld online cpus)", n);
}

/* The largest cache of cpu0 (the last level), from sysfs; 0 when unknown. */
static size_t llc_bytes(void)
{
	size_t best = 0;
	for (int i = 0; i < 16; i++) {
		char path[128], text[64];
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(text, sizeof(text), f)) {
			char *end;
			unsigned long long v = strtoull(text, &end, 10);
			if (*end == 'K')
				v <<= 10;
			else if (*end == 'M')
				v <<= 20;
			if (v > best)
				best = (size_t)v;
		}
		fclose(f);
	}
	return best;
}

/* Where the measured library's code lives, and a guard against timing stoa by mistake: stoa's
 * compat library is also called libisal.so.2, so an LD_LIBRARY_PATH could swap it in. */
static void library_detail(char *buf, size_t cap)
{
#ifdef PERF_LIB_STOA
	snprintf(buf, cap, "stoa %s%s%s", stoa_version(), *PERF_LIB_DESCRIBE ? ", " : "",
		 PERF_LIB_DESCRIBE);
#else
	const struct perf_case *pc = &perf_modules[0]->cases[0];
	Dl_info info;
	const char *where = "?";
	if (dladdr((void *)(uintptr_t)pc->api, &info) && info.dli_fname)
		where = info.dli_fname;
	if (dlsym(RTLD_DEFAULT, "stoa_version"))
		die("this ISA-L build resolved %s to stoa (%s), not ISA-L; check LD_LIBRARY_PATH",
		    pc->function, where);
#if defined(PERF_ISAL_UPSTREAM)
	(void)where;
	snprintf(buf, cap, "ISA-L %s (isal_get_version_str), %s", isal_get_version_str(),
		 PERF_LIB_DESCRIBE);
#else
	snprintf(buf, cap, "ISA-L%s%s, code in %s", *PERF_LIB_DESCRIBE ? ", " : "",
		 PERF_LIB_DESCRIBE, where);
#endif
#endif
}

/* Output. */

struct meta {
	const char *key;
	char value[8192];
};

#define MAX_META 24
static struct meta metas[MAX_META];
static int nmeta;

static void add_meta(const char *key, const char *fmt, ...)
{
	if (nmeta == MAX_META)
		die("too much metadata");
	va_list ap;
	va_start(ap, fmt);
	metas[nmeta].key = key;
	vsnprintf(metas[nmeta].value, sizeof(metas[nmeta].value), fmt, ap);
	va_end(ap);
	nmeta++;
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

/* CSV fields here never hold commas or quotes (checked when the registry is loaded), so they
 * are written bare and the report writer splits on commas. */
static const char *csv_header =
	"library,module,function,variant,params,size,bytes_per_call,bytes_counted,threads,mode,"
	"calls,mb_per_s,cycles_per_byte,median_mb_per_s,check";

static void print_meta(const struct options *o)
{
	if (o->out == OUT_JSON) {
		printf("{\n  \"meta\": {");
		for (int i = 0; i < nmeta; i++) {
			printf("%s\n    ", i ? "," : "");
			json_string(metas[i].key);
			printf(": ");
			json_string(metas[i].value);
		}
		printf("\n  },\n  \"results\": [");
	} else {
		for (int i = 0; i < nmeta; i++)
			printf("# %s: %s\n", metas[i].key, metas[i].value);
		if (o->out == OUT_CSV)
			printf("%s\n", csv_header);
		else
			printf("%-15s %-20s %-10s %-8s %8s %10s %9s %10s  %s\n", "library",
			       "function", "variant", "params", "size", "MB/s", "cycles/B",
			       "median", "check");
	}
	fflush(stdout);
}

static int rows_printed;

static void print_row(const struct options *o, const struct perf_case *pc, const struct impl *im,
		      size_t size, const struct result *r)
{
	char cpb[32], sz[32];
	if (r->cycles_per_byte >= 0)
		snprintf(cpb, sizeof(cpb), "%.3f", r->cycles_per_byte);
	else
		snprintf(cpb, sizeof(cpb), "%s", o->out == OUT_TEXT ? "-" : "");
	const char *mode = o->cold ? "cold" : "warm";
	if (o->out == OUT_CSV) {
		printf("%s,%s,%s,%s,%s,%zu,%" PRIu64 ",%s,%d,%s,%" PRIu64 ",%.1f,%s,%.1f,"
		       "%016" PRIx64 "\n",
		       im->library, pc->module, pc->function, im->variant, pc->params, size,
		       bytes_per_call(pc, size), pc->bytes, o->threads, mode, r->calls, r->mbps,
		       cpb, r->median_mbps, r->check);
	} else if (o->out == OUT_JSON) {
		printf("%s\n    {\"library\": ", rows_printed ? "," : "");
		json_string(im->library);
		printf(", \"module\": ");
		json_string(pc->module);
		printf(", \"function\": ");
		json_string(pc->function);
		printf(", \"variant\": ");
		json_string(im->variant);
		printf(", \"params\": ");
		json_string(pc->params);
		printf(", \"size\": %zu, \"bytes_per_call\": %" PRIu64 ", \"bytes_counted\": ",
		       size, bytes_per_call(pc, size));
		json_string(pc->bytes);
		printf(", \"threads\": %d, \"mode\": \"%s\", \"calls\": %" PRIu64
		       ", \"mb_per_s\": %.1f, \"cycles_per_byte\": %s, \"median_mb_per_s\": %.1f"
		       ", \"check\": \"%016" PRIx64 "\"}",
		       o->threads, mode, r->calls, r->mbps, r->cycles_per_byte >= 0 ? cpb : "null",
		       r->median_mbps, r->check);
	} else {
		printf("%-15s %-20s %-10s %-8s %8s %10.1f %9s %10.1f  %016" PRIx64 "\n",
		       im->library, pc->function, im->variant, *pc->params ? pc->params : "-",
		       size_name(size, sz, sizeof(sz)), r->mbps, cpb, r->median_mbps, r->check);
	}
	rows_printed++;
	fflush(stdout);
}

static void print_end(const struct options *o)
{
	if (o->out == OUT_JSON)
		printf("\n  ]\n}\n");
}

/* Registry checks: names the CSV can carry, and (stoa build) dispatched functions that no case
 * measures, so a new module cannot forget its cases silently. */
static void check_field(const char *what, const char *s)
{
	if (strpbrk(s, ",\"\n"))
		die("registry %s '%s' holds a comma, quote or newline", what, s);
}

static void check_registry(char *uncovered, size_t cap)
{
	uncovered[0] = '\0';
	for (size_t m = 0; perf_modules[m]; m++) {
		for (size_t i = 0; i < perf_modules[m]->count; i++) {
			const struct perf_case *pc = &perf_modules[m]->cases[i];
			check_field("module", pc->module);
			check_field("function", pc->function);
			check_field("params", pc->params);
			check_field("bytes", pc->bytes);
			if (!pc->api || !pc->run)
				die("case %s has no function or run", pc->function);
			for (size_t k = 0; k < pc->npeers; k++) {
				check_field("library", pc->peers[k].library);
				check_field("variant", pc->peers[k].variant);
			}
		}
	}
#ifndef PERF_LIB_STOA
	(void)cap;
#else
	for (size_t m = 0; stoa_modules[m]; m++) {
		for (size_t i = 0; i < stoa_modules[m]->count; i++) {
			const char *name = stoa_modules[m]->funcs[i].name;
			int found = 0;
			for (size_t pm = 0; perf_modules[pm] && !found; pm++) {
				const struct perf_module *mod = perf_modules[pm];
				for (size_t k = 0; k < mod->count; k++) {
					const struct perf_case *pc = &mod->cases[k];
					found |= strcmp(pc->table ? pc->table : pc->function,
							name) == 0;
				}
			}
			if (!found) {
				size_t len = strlen(uncovered);
				snprintf(uncovered + len, cap - len, "%s%s", len ? " " : "", name);
			}
		}
	}
#endif
}

static void list_cases(const struct options *o)
{
	for (size_t m = 0; perf_modules[m]; m++) {
		for (size_t i = 0; i < perf_modules[m]->count; i++) {
			const struct perf_case *pc = &perf_modules[m]->cases[i];
			if (!case_selected(pc, o->filter))
				continue;
			if (o->list_functions) {
				printf("%s\n", pc->function);
				continue;
			}
			struct impl im[MAX_IMPLS];
			char skipped[256], sz[32];
			size_t n = case_impls(pc, im, skipped, sizeof(skipped));
			printf("%s/%s%s%s\n  bytes: %s\n  sizes:", pc->module, pc->function,
			       *pc->params ? " " : "", pc->params, pc->bytes);
			for (const size_t *s = case_sizes(pc, o); *s; s++)
				printf(" %s", size_name(*s, sz, sizeof(sz)));
			printf("\n  runs:");
			for (size_t k = 0; k < n; k++)
				printf(" %s:%s", im[k].library, im[k].variant);
			if (*skipped)
				printf("\n  not supported by this cpu: %s", skipped);
			printf("\n");
		}
	}
}

#ifdef PERF_LIB_STOA
/* --cpu: what the library detected and what it chose, one fact per line: the features (those
 * STOA_ISA turned off marked), the class in force and, per function, the variant and its
 * table. */
static void print_cpu(void)
{
	uint64_t det = stoa_cpu_features(), en = stoa_cpu_features_enabled();
	const char *isa = getenv("STOA_ISA");
	char text[512];
	cpu_model(text, sizeof(text));
	printf("stoa %s, %s: %s\nfeatures:", stoa_version(), stoa_arch.name, text);
	for (int b = 0; b < 64; b++) {
		const char *name = stoa_cpu_feature_name(1ull << b);
		if (name && (det >> b & 1))
			printf(" %s%s", name, en >> b & 1 ? "" : "(off)");
	}
	stoa_isa_describe(en, text, sizeof(text));
	printf("\nSTOA_ISA: %s\nclass: %s\n", isa && *isa ? isa : "(unset)", text);
	for (size_t m = 0; stoa_modules[m]; m++) {
		for (size_t i = 0; i < stoa_modules[m]->count; i++) {
			const struct stoa_func *f = &stoa_modules[m]->funcs[i];
			printf("%-13s %-30s %-12s of", stoa_modules[m]->name, f->name,
			       stoa_select(f->variants, f->count)->name);
			for (size_t v = 0; v < f->count; v++)
				printf(" %s", f->variants[v].name);
			printf("\n");
		}
	}
}
#endif

static void usage(FILE *f)
{
	fprintf(f,
		"usage: stoa_perf [options]\n"
		"  --cpu            print the CPU, the STOA_ISA class and each function's variant\n"
		"  --list           list the cases (and what each runs) and exit\n"
		"  --list-functions print the selected functions' names and exit\n"
		"  --filter PATS    comma-separated: a substring of module/function (a final $: its\n"
		"                   end), or =name\n"
		"  --sizes LIST     e.g. 64,512,4K,64K,1M (default: each case's list)\n"
		"  --cold           buffers from a pool of 4x the last-level cache per thread\n"
		"  --threads N      N threads run each case on their own buffers; MB/s is the sum\n"
		"  --time MS        measured time per row (default 100), split into --reps\n"
		"  --reps N         timed repetitions per row, best counts (default 20)\n"
		"  --csv | --json   machine-readable output (default: a text table)\n"
		"  --class NAME     what each library runs on that CPU class (rows' variant: NAME)\n"
		"  --classes        list the classes and whether this CPU runs them, and exit\n"
		"  --quick          each library's public function and the peers, no per-variant\n"
		"                   rows, at each case's quick sizes (make perf_report's default)\n"
		"  --roundtrip      compress calgary.cat at every level, inflate the library's own\n"
		"                   output (CSV lines, perf/perf_roundtrip.c); with --quick\n"
		"                   fewer calls\n"
		"  --roundtrip-pair LIB  the same at levels 0-3 against LIB (another ISA-L\n"
		"                   build's shared library), paired in one process (stoa build)\n"
		"  --pair LIB       (ISA-L builds) time this build's library against stoa's shared\n"
		"                   library LIB (and LIB against a second copy of itself) in one\n"
		"                   process, in rotating turns of --time/--reps ms, --reps rounds\n"
		"                   of turns; prints the median and quartiles of the per-round\n"
		"                   ratios\n");
}

static void parse_options(int argc, char **argv, struct options *o)
{
	enum { O_CPU = 256, O_LIST, O_LISTF, O_FILTER, O_SIZES, O_COLD, O_THREADS, O_TIME,
	       O_REPS, O_CSV, O_JSON, O_HELP, O_CLASS, O_CLASSES, O_QUICK, O_ROUNDTRIP,
	       O_ROUNDTRIP_PAIR, O_PAIR };
	static const struct option opts[] = {
		{ "cpu", no_argument, NULL, O_CPU },
		{ "list", no_argument, NULL, O_LIST },
		{ "list-functions", no_argument, NULL, O_LISTF },
		{ "filter", required_argument, NULL, O_FILTER },
		{ "sizes", required_argument, NULL, O_SIZES },
		{ "cold", no_argument, NULL, O_COLD },
		{ "threads", required_argument, NULL, O_THREADS },
		{ "time", required_argument, NULL, O_TIME },
		{ "reps", required_argument, NULL, O_REPS },
		{ "csv", no_argument, NULL, O_CSV },
		{ "json", no_argument, NULL, O_JSON },
		{ "help", no_argument, NULL, O_HELP },
		{ "class", required_argument, NULL, O_CLASS },
		{ "classes", no_argument, NULL, O_CLASSES },
		{ "quick", no_argument, NULL, O_QUICK },
		{ "roundtrip", no_argument, NULL, O_ROUNDTRIP },
		{ "roundtrip-pair", required_argument, NULL, O_ROUNDTRIP_PAIR },
		{ "pair", required_argument, NULL, O_PAIR },
		{ NULL, 0, NULL, 0 },
	};
	*o = (struct options){ .out = OUT_TEXT, .threads = 1, .time_ms = 100, .reps = 20 };
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_CPU: o->cpu = 1; break;
		case O_LIST: o->list = 1; break;
		case O_LISTF: o->list_functions = 1; break;
		case O_FILTER: o->filter = optarg; break;
		case O_SIZES: parse_sizes(optarg, o->sizes, PERF_COUNT(o->sizes)); break;
		case O_COLD: o->cold = 1; break;
		case O_THREADS: o->threads = atoi(optarg); break;
		case O_TIME: o->time_ms = (unsigned)atoi(optarg); break;
		case O_REPS: o->reps = (unsigned)atoi(optarg); break;
		case O_CSV: o->out = OUT_CSV; break;
		case O_JSON: o->out = OUT_JSON; break;
		case O_HELP: usage(stdout); exit(0);
		case O_CLASS: o->cls = optarg; break;
		case O_CLASSES: perf_class_list(stdout); exit(0);
		case O_QUICK: o->quick = quick_run = 1; break;
		case O_ROUNDTRIP: o->roundtrip = 1; break;
		case O_ROUNDTRIP_PAIR: o->roundtrip_pair = optarg; break;
		case O_PAIR: o->pair = optarg; break;
		default: usage(stderr); exit(2);
		}
	}
	if (optind < argc) {
		usage(stderr);
		exit(2);
	}
	if (o->threads < 1 || o->threads > MAX_THREADS)
		die("--threads must be 1..%d", MAX_THREADS);
	if (o->reps < 1 || o->reps > MAX_REPS)
		die("--reps must be 1..%d", MAX_REPS);
	if (o->time_ms < 1)
		die("--time must be at least 1 ms");
	if (o->pair && (o->cold || o->threads > 1))
		die("--pair times warm buffers in one thread: no --cold or --threads");
}

/* Runs every implementation of one case at one size: fresh identical data for each, one call
 * whose result must agree with the first implementation's, then the timing. */
static void run_case_size(const struct options *o, struct job *j, const struct perf_case *pc,
			  const struct impl *im, size_t nimpl, size_t size, size_t pool)
{
	size_t fp = footprint(pc, size);
	j->pc = pc;
	j->size = size;
	j->state = pc->prepare ? pc->prepare(size) : NULL;
	j->stride = round_up(fp, LINE);
	j->count = o->cold ? pool / j->stride : 1;
	/* Cold walk: a step near count/phi, coprime to count, visits every instance once per pass
	 * in an order the prefetchers do not follow. */
	j->step = 1;
	if (j->count > 2) {
		size_t s = (size_t)((double)j->count * 0.6180339887) | 1, a, b;
		for (;; s += 2) {
			for (a = j->count, b = s; b;) {
				size_t r = a % b;
				a = b;
				b = r;
			}
			if (a == 1)
				break;
		}
		j->step = s % j->count;
	}
	uint64_t first = 0;
	for (size_t k = 0; k < nimpl; k++) {
		for (int t = 0; t < o->threads; t++)
			fill_data(j->arenas[t].base, fp, (uint64_t)t);
		struct perf_call c = { im[k].fn, j->arenas[0].base, size, j->state, 1 };
		struct result r = { 0 };
		r.check = im[k].run(&c, 1);
		if (k == 0)
			first = r.check;
		else if (r.check != first) {
			fprintf(stderr,
				"stoa_perf: MISMATCH %s %s:%s size %zu: %016" PRIx64
				", %s:dispatch gave %016" PRIx64 "\n",
				pc->function, im[k].library, im[k].variant, size, r.check,
				im[0].library, first);
			failures++;
		}
		j->im = &im[k];
		measure(j, &r);
		print_row(o, pc, &im[k], size, &r);
	}
	if (pc->release)
		pc->release(j->state);
}

/* --pair (perf/perf_pair.c): the same cell, on the same buffers, timed in turns. A round gives
 * each implementation, the linked library's ("peer"), stoa's and stoa's second copy (the
 * control), a turn of PAIR_SUBS batches, in an order that rotates by one every round, so none is
 * always first after another's writes or always last. A turn counts its fastest batch: on the
 * loaded 2-vCPU VM most 1 ms turns lose part of a batch to another process, and the minimum
 * drops those parts where a turn's total keeps them (quartiles of the ratio 0.80-1.25 with the
 * total). A round's ratio is the peer's time over stoa's (stoa's speed over the peer's, as the
 * class table's ratio) and its control the second copy's time over stoa's: load that lasts
 * longer than a round hits both sides alike and cancels, what does not lands in the quartiles. */
enum { PAIR_PEER, PAIR_STOA, PAIR_CONTROL, PAIR_N };
#define PAIR_SUBS 8
/* A cell stops after --reps rounds or this many times --time, at least PAIR_MIN_ROUNDS rounds:
 * a 1 MiB call at x86-64-v2 takes milliseconds, and 200 rounds of it were 20 s a cell. */
#define PAIR_BUDGET     4
#define PAIR_MIN_ROUNDS 31

struct pair_impl {
	perf_fn fn;
	void *state;
	int copy; /* where the case's PERF_LIB_CALLs go: -1 the linked library, else stoa's copy */
};

static uint64_t pair_batch(const struct perf_case *pc, const struct pair_impl *im, uint8_t *mem,
			   size_t size, uint64_t calls, uint64_t *acc)
{
	struct perf_call c = { im->fn, mem, size, im->state, 0 };
	perf_pair_use(im->copy);
	uint64_t t0 = perf_now_ns();
	*acc += pc->run(&c, calls);
	uint64_t t = perf_now_ns() - t0;
	perf_pair_use(-1);
	return t ? t : 1;
}

/* One turn: the fastest of `subs` batches. */
static uint64_t pair_turn(const struct perf_case *pc, const struct pair_impl *im, uint8_t *mem,
			  size_t size, uint64_t calls, int subs, uint64_t *acc)
{
	uint64_t best = UINT64_MAX;
	for (int b = 0; b < subs; b++) {
		uint64_t t = pair_batch(pc, im, mem, size, calls, acc);
		if (t < best)
			best = t;
	}
	return best;
}

static int pair_header_done;

static void pair_print(const struct options *o, const struct perf_case *pc, size_t size,
		       unsigned rounds, uint64_t calls, const double r[3], const double ctl[3],
		       double stoa_mbps, double peer_mbps, const char *variant)
{
	const char *cls = perf_class_name() ? perf_class_name() : "dispatch";
	char sz[32];
	if (o->out == OUT_CSV) {
		if (!pair_header_done++)
			printf("pair,library,module,function,class,params,size,rounds,calls,"
			       "ratio_median,ratio_q1,ratio_q3,control_median,control_q1,control_q3,"
			       "stoa_mb_per_s,peer_mb_per_s,stoa_variant\n");
		printf("pair,%s,%s,%s,%s,%s,%zu,%u,%" PRIu64 ",%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.1f,"
		       "%.1f,%s\n",
		       PERF_LIBRARY, pc->module, pc->function, cls, pc->params, size, rounds, calls,
		       r[1], r[0], r[2], ctl[1], ctl[0], ctl[2], stoa_mbps, peer_mbps,
		       variant ? variant : "?");
	} else {
		if (!pair_header_done++)
			printf("%-22s %-16s %-16s %8s %7s %15s %7s %15s %9s %9s  %s\n", "function",
			       "params", "class", "size", "ratio", "(q1-q3)", "control",
			       "(q1-q3)", "stoa MB/s", "peer MB/s", "stoa variant");
		printf("%-22s %-16s %-16s %8s %7.3f (%5.3f-%5.3f) %7.3f (%5.3f-%5.3f) %9.1f %9.1f  "
		       "%s\n",
		       pc->function, *pc->params ? pc->params : "-", cls,
		       size_name(size, sz, sizeof(sz)), r[1], r[0], r[2], ctl[1], ctl[0], ctl[2],
		       stoa_mbps, peer_mbps, variant ? variant : "?");
	}
	fflush(stdout);
}

static void pair_case_size(const struct options *o, const struct perf_case *pc, size_t size,
			   uint8_t *mem)
{
	static const char *const names[PAIR_N] = { PERF_LIBRARY, "stoa", "stoa (control)" };
	struct pair_impl im[PAIR_N];
	size_t fp = footprint(pc, size);
	/* The API function's name: a case named for what a call does keeps it in .table. */
	const char *api = pc->table ? pc->table : pc->function;
	im[PAIR_PEER].fn = pc->api;
	im[PAIR_STOA].fn = perf_pair_fn(0, api);
	im[PAIR_CONTROL].fn = perf_pair_fn(1, api);
	if (!im[PAIR_STOA].fn || !im[PAIR_CONTROL].fn) {
		fprintf(stderr, "stoa_perf: --pair: stoa has no %s; skipped\n", api);
		return;
	}
	/* Each library's tables from its own functions. */
	for (int k = 0; k < PAIR_N; k++) {
		im[k].copy = k - 1;
		perf_pair_use(im[k].copy);
		im[k].state = pc->prepare ? pc->prepare(size) : NULL;
	}
	perf_pair_use(-1);

	uint64_t first = 0, acc = 0;
	for (int k = 0; k < PAIR_N; k++) {
		fill_data(mem, fp, 0);
		struct perf_call c = { im[k].fn, mem, size, im[k].state, 1 };
		perf_pair_use(im[k].copy);
		uint64_t check = pc->run(&c, 1);
		perf_pair_use(-1);
		if (pc->own_output) {
			/* The case checked the output itself (a compressor's inflates back). */
			if (check == PERF_BAD_RESULT) {
				fprintf(stderr, "stoa_perf: BAD OUTPUT %s %s size %zu from %s\n",
					pc->function, pc->params, size, names[k]);
				failures++;
			}
		} else if (k == 0)
			first = check;
		else if (check != first) {
			fprintf(stderr,
				"stoa_perf: MISMATCH %s %s size %zu: %s gave %016" PRIx64
				", %s %016" PRIx64 "\n",
				pc->function, pc->params, size, names[k], check, names[0], first);
			failures++;
		}
	}

	/* A batch of about a turn's share on the peer (a turn lasts rep_ns), then every
	 * implementation warmed up in turns for at least 10 ms, so each runs at the clock its
	 * vector units settle at. */
	uint64_t rep_ns = (uint64_t)o->time_ms * 1000000u / o->reps / PAIR_SUBS, calls = 1, t;
	for (;;) {
		t = pair_batch(pc, &im[PAIR_PEER], mem, size, calls, &acc);
		if (t >= rep_ns || calls >= (1ull << 40))
			break;
		calls *= t < rep_ns / 16 ? 8 : 2;
	}
	/* One call longer than a batch's share: fewer batches a turn, so a turn stays near
	 * rep_ns * PAIR_SUBS. */
	int subs = PAIR_SUBS;
	if (calls == 1 && t > rep_ns) {
		uint64_t fit = rep_ns * PAIR_SUBS / t;
		subs = fit < 1 ? 1 : (int)fit;
	}
	for (uint64_t start = perf_now_ns(); perf_now_ns() - start < 10000000u;)
		for (int k = 0; k < PAIR_N; k++)
			pair_batch(pc, &im[k], mem, size, calls, &acc);

	unsigned rounds = o->reps;
	double *ratio = calloc(4 * (size_t)rounds, sizeof(double));
	if (!ratio)
		die("out of memory");
	double *control = ratio + rounds, *stoa_mbps = control + rounds,
	       *peer_mbps = stoa_mbps + rounds;
	double bytes = (double)bytes_per_call(pc, size) * (double)calls;
	uint64_t budget = (uint64_t)o->time_ms * 1000000u * PAIR_BUDGET, begin = perf_now_ns();
	for (unsigned r = 0; r < o->reps; r++) {
		if (r >= PAIR_MIN_ROUNDS && perf_now_ns() - begin > budget) {
			rounds = r;
			break;
		}
		uint64_t ns[PAIR_N];
		for (int i = 0; i < PAIR_N; i++) {
			int k = (int)((r + (unsigned)i) % PAIR_N);
			ns[k] = pair_turn(pc, &im[k], mem, size, calls, subs, &acc);
		}
		ratio[r] = (double)ns[PAIR_PEER] / (double)ns[PAIR_STOA];
		control[r] = (double)ns[PAIR_CONTROL] / (double)ns[PAIR_STOA];
		stoa_mbps[r] = bytes / (double)ns[PAIR_STOA] * 1e3;
		peer_mbps[r] = bytes / (double)ns[PAIR_PEER] * 1e3;
	}
	global_sink += acc;
	double rq[3], cq[3], sq[3], pq[3];
	perf_pair_quartiles(ratio, rounds, rq);
	perf_pair_quartiles(control, rounds, cq);
	perf_pair_quartiles(stoa_mbps, rounds, sq);
	perf_pair_quartiles(peer_mbps, rounds, pq);
	pair_print(o, pc, size, rounds, calls, rq, cq, sq[1], pq[1], perf_pair_variant(0, api));
	free(ratio);
	if (pc->release)
		for (int k = 0; k < PAIR_N; k++)
			pc->release(im[k].state);
}

static int pair_main(const struct options *o)
{
	char report[1024];
	const char *isa = perf_class_stoa_isa();
	if (perf_pair_open(o->pair, isa) != 0)
		return 2;
	size_t max_fp = 0;
	for (size_t m = 0; perf_modules[m]; m++)
		for (size_t i = 0; i < perf_modules[m]->count; i++) {
			const struct perf_case *pc = &perf_modules[m]->cases[i];
			if (!case_selected(pc, o->filter) || !perf_pair_module_ok(pc->module))
				continue;
			for (const size_t *s = case_sizes(pc, o); *s; s++)
				if (footprint(pc, *s) > max_fp)
					max_fp = footprint(pc, *s);
		}
	if (!max_fp) {
		/* Not an error: a class script's groups include cases a paired run leaves out. */
		fprintf(stderr, "stoa_perf: --pair: no pairable case matches --filter '%s'\n",
			o->filter ? o->filter : "");
		return 0;
	}
	perf_pair_report(0, report, sizeof(report));
	if (o->out == OUT_TEXT)
		printf("# paired: %s against stoa %s; class %s; stoa: %s\n", PERF_LIBRARY, o->pair,
		       perf_class_name() ? perf_class_name() : "(none: each library's own pick)",
		       report);
	size_t bytes = round_up(max_fp, 4096);
	uint8_t *mem = aligned_alloc(4096, bytes);
	if (!mem)
		die("cannot allocate %zu MiB", bytes / MIB);
	fill_data(mem, bytes, 1000);
	for (size_t m = 0; perf_modules[m]; m++)
		for (size_t i = 0; i < perf_modules[m]->count; i++) {
			const struct perf_case *pc = &perf_modules[m]->cases[i];
			if (!case_selected(pc, o->filter))
				continue;
			if (!perf_pair_module_ok(pc->module)) {
				fprintf(stderr, "stoa_perf: --pair: %s is not paired (its cases call "
						"the library by name)\n",
					pc->function);
				continue;
			}
			for (const size_t *s = case_sizes(pc, o); *s; s++)
				pair_case_size(o, pc, *s, mem);
		}
	free(mem);
	if (failures)
		fprintf(stderr, "stoa_perf: %d result mismatch(es); see above\n", failures);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct options o;
	parse_options(argc, argv, &o);
	if (o.cls) {
		int rc = perf_class_apply(o.cls, argv);
		if (rc)
			return rc;
	}

	char uncovered[1024], text[8192];
	check_registry(uncovered, sizeof(uncovered));

	if (o.list || o.list_functions) {
		list_cases(&o);
		return 0;
	}
	if (o.pair)
		return pair_main(&o);
	if (o.roundtrip_pair) {
#if defined(PERF_LIB_STOA) && !defined(PERF_NO_DEFLATE) && !defined(PERF_NO_INFLATE)
		return perf_roundtrip_pair(o.roundtrip_pair, o.quick);
#else
		die("--roundtrip-pair: only the stoa build with igzip has it");
#endif
	}
	if (o.roundtrip) {
#ifndef PERF_LIB_ISAL_CRYPTO
		return perf_roundtrip(o.quick);
#else
		die("--roundtrip: this build has no igzip");
#endif
	}

	char detail[512];
	library_detail(detail, sizeof(detail));
	if (o.cpu) {
#ifdef PERF_LIB_STOA
		print_cpu();
#else
		cpu_model(text, sizeof(text));
		printf("%s; %s\n", detail, text);
#endif
		return 0;
	}

	const char *cycles = perf_cycles_init();
	size_t llc = llc_bytes(), pool = 0;
	add_meta("library", "%s", PERF_LIBRARY);
	add_meta("library_detail", "%s", detail);
	cpu_model(text, sizeof(text));
	add_meta("cpu_model", "%s", text);
#ifdef PERF_LIB_STOA
	stoa_cpu_report(text, sizeof(text));
	add_meta("stoa_cpu_report", "%s", text);
#endif
	add_meta("cycles", "%s", cycles);
	if (perf_class_name())
		add_meta("class", "%s: %s", perf_class_name(), perf_class_about());
	if (o.cold) {
		char llcs[64];
		pool = 4 * (llc ? llc : 64u * MIB);
		if (llc)
			snprintf(llcs, sizeof(llcs), "%zu MiB last-level cache (sysfs)", llc / MIB);
		else
			snprintf(llcs, sizeof(llcs), "last-level cache (size unknown: 64 MiB)");
		add_meta("mode",
			 "cold: each thread walks a %zu MiB pool (4x the %s) in a scattered order",
			 pool / MIB, llcs);
	} else {
		add_meta("mode", "warm: each thread reuses one buffer, in cache after the warm-up");
	}
	add_meta("threads", "%d%s", o.threads,
		 o.threads > 1 ? " (MB/s is the sum over threads; cycles/B per thread)" : "");
	add_meta("timing",
		 "best of %u repetitions of >= %.1f ms each after a calibrating warm-up; "
		 "median also shown",
		 o.reps, (double)o.time_ms / o.reps);
	add_meta("data", "built-in deterministic generator (splitmix64, seed = thread number); "
			 "identical in every build");
	add_meta("units", "MB/s = 10^6 bytes per second, bytes as the row's bytes_counted says; "
			  "cycles/B = cycles per counted byte");
	if (*uncovered)
		add_meta("not_benchmarked", "%s", uncovered);
	add_meta("selection", "%s",
		 o.quick ? "quick: each library's public function and the peers, at each case's "
			   "quick sizes (make perf_report FULL=1 adds every variant and size)"
			 : "full: the public function, every variant this CPU runs, and the peers");

	/* Plan: the largest instance decides the arena size. */
	size_t max_fp = 0;
	char skipped_all[1024] = "";
	for (size_t m = 0; perf_modules[m]; m++) {
		for (size_t i = 0; i < perf_modules[m]->count; i++) {
			const struct perf_case *pc = &perf_modules[m]->cases[i];
			if (!case_selected(pc, o.filter))
				continue;
			for (const size_t *s = case_sizes(pc, &o); *s; s++)
				if (footprint(pc, *s) > max_fp)
					max_fp = footprint(pc, *s);
			struct impl im[MAX_IMPLS];
			char skipped[256];
			case_impls(pc, im, skipped, sizeof(skipped));
			if (*skipped) {
				size_t len = strlen(skipped_all);
				snprintf(skipped_all + len, sizeof(skipped_all) - len, "%s%s(%s)",
					 len ? " " : "", pc->function, skipped);
			}
		}
	}
	if (*skipped_all)
		add_meta("variants_not_supported_by_cpu", "%s", skipped_all);
	if (!max_fp)
		die("no case matches --filter '%s'", o.filter ? o.filter : "");

	struct job *j = calloc(1, sizeof(*j));
	struct arena *arenas = calloc((size_t)o.threads, sizeof(*arenas));
	if (!j || !arenas)
		die("out of memory");
	size_t arena_bytes = round_up(max_fp, 4096);
	if (o.cold && pool > arena_bytes)
		arena_bytes = round_up(pool, 4096);
	for (int t = 0; t < o.threads; t++) {
		arenas[t].bytes = arena_bytes;
		arenas[t].base = aligned_alloc(4096, arena_bytes);
		if (!arenas[t].base)
			die("cannot allocate %zu MiB", arena_bytes / MIB);
		/* Touch every page now, so no page fault lands in a timed repetition. */
		fill_data(arenas[t].base, arena_bytes, 1000 + (uint64_t)t);
	}
	j->arenas = arenas;
	j->threads = o.threads;
	j->reps = o.reps;
	j->rep_ns = (uint64_t)o.time_ms * 1000000u / o.reps;

	print_meta(&o);
	for (size_t m = 0; perf_modules[m]; m++) {
		for (size_t i = 0; i < perf_modules[m]->count; i++) {
			const struct perf_case *pc = &perf_modules[m]->cases[i];
			if (!case_selected(pc, o.filter))
				continue;
			struct impl im[MAX_IMPLS];
			size_t n = case_impls(pc, im, NULL, 0);
			for (const size_t *s = case_sizes(pc, &o); *s; s++)
				run_case_size(&o, j, pc, im, n, *s, arena_bytes);
		}
	}
	print_end(&o);

	for (int t = 0; t < o.threads; t++)
		free(arenas[t].base);
	free(arenas);
	free(j);
	if (failures)
		fprintf(stderr, "stoa_perf: %d result mismatch(es); see above\n", failures);
	return failures ? 1 : 0;
}
