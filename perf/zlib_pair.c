/* zlib_pair: two libz.so.1 builds timed through the zlib API in paired, alternating runs.
 *
 *   build/zlib_pair [--reps N] [--levels 169] [--deflate 012] [--inflate 012] [--sources zab]
 *                   [--wbits 15] [A.so B.so] FILE...
 *
 * A defaults to compat/libz.so.1 beside this program (stoa's), B to $STOA_PERF_ZLIBNG or
 * /tmp/zlib-ng/build-compat/libz.so.1; both are opened with RTLD_DEEPBIND beside Debian's zlib,
 * which is linked in and makes the "zlib" streams. Per file and level: deflate and inflate in
 * mode 0 (one call, Z_FINISH, room for all), 1 (64 KiB of output room per call), 2 (16 KiB),
 * 3 (4 KiB), 4 (1 KiB); deflate takes 64 KiB of input per streaming call, inflate 16 KiB.
 * Inflate runs on the stream of Debian's zlib (source z), of A (a) and of B (b) at that level.
 * Each measurement runs A and B one after the other, REPS times, swapping who goes first, in
 * thread CPU time, and prints both best speeds, their ratio (A over B) and the median of the
 * per-pair ratios: on a shared machine only such same-moment ratios mean anything. Every stream
 * is checked against the input once (inflated by Debian's zlib) before it is timed. */
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define MAX_REPS 99

struct zlib_fns {
	const char *(*version)(void);
	int (*deflate_init2)(z_streamp, int, int, int, int, int, const char *, int);
	int (*deflate)(z_streamp, int);
	int (*deflate_reset)(z_streamp);
	int (*inflate_init2)(z_streamp, int, const char *, int);
	int (*inflate)(z_streamp, int);
	int (*inflate_reset)(z_streamp);
};

enum { LIB_A, LIB_B, LIB_ZLIB, NLIBS };
static struct zlib_fns libs[NLIBS];
static z_stream dstreams[NLIBS][10], istreams[NLIBS];

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "zlib_pair: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	exit(2);
}

static void open_lib(struct zlib_fns *f, const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
	if (!h)
		die("cannot open", dlerror());
	*(void **)&f->version = dlsym(h, "zlibVersion");
	*(void **)&f->deflate_init2 = dlsym(h, "deflateInit2_");
	*(void **)&f->deflate = dlsym(h, "deflate");
	*(void **)&f->deflate_reset = dlsym(h, "deflateReset");
	*(void **)&f->inflate_init2 = dlsym(h, "inflateInit2_");
	*(void **)&f->inflate = dlsym(h, "inflate");
	*(void **)&f->inflate_reset = dlsym(h, "inflateReset");
	if (!f->version || !f->deflate_init2 || !f->deflate || !f->deflate_reset ||
	    !f->inflate_init2 || !f->inflate || !f->inflate_reset)
		die("not a zlib", path);
}

static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static size_t out_chunk(int mode)
{
	static const size_t chunks[] = { 0, 64 * 1024, 16 * 1024, 4 * 1024, 1024 };
	return chunks[mode];
}

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* One stream of in[0, n) into out[0, room) by library l; its length. */
static size_t run_deflate(int l, int level, const uint8_t *in, size_t n, uint8_t *out, size_t room,
                          int mode)
{
	const struct zlib_fns *f = &libs[l];
	z_stream *z = &dstreams[l][level];
	f->deflate_reset(z);
	z->next_in = (Bytef *)(uintptr_t)in;
	z->next_out = out;
	int rc;
	if (!mode) {
		z->avail_in = (uInt)n;
		z->avail_out = (uInt)room;
		rc = f->deflate(z, Z_FINISH);
	} else {
		const uint8_t *const end = in + n;
		do {
			if (!z->avail_in)
				z->avail_in = (uInt)min_size((size_t)(end - z->next_in), 64 * 1024);
			z->avail_out = (uInt)min_size(room - z->total_out, out_chunk(mode));
			const int last = z->next_in + z->avail_in == end;
			rc = f->deflate(z, last ? Z_FINISH : Z_NO_FLUSH);
		} while (rc == Z_OK || rc == Z_BUF_ERROR);
	}
	if (rc != Z_STREAM_END)
		die("deflate failed", NULL);
	return z->total_out;
}

/* Inflate comp[0, n) into out[0, room) by library l; the output's length. */
static size_t run_inflate(int l, const uint8_t *comp, size_t n, uint8_t *out, size_t room, int mode)
{
	const struct zlib_fns *f = &libs[l];
	z_stream *z = &istreams[l];
	f->inflate_reset(z);
	z->next_in = (Bytef *)(uintptr_t)comp;
	z->next_out = out;
	int rc;
	if (!mode) {
		z->avail_in = (uInt)n;
		z->avail_out = (uInt)room;
		rc = f->inflate(z, Z_FINISH);
	} else {
		do {
			z->avail_in = (uInt)min_size(n - z->total_in, 16 * 1024);
			z->avail_out = (uInt)min_size(room - z->total_out, out_chunk(mode));
			rc = f->inflate(z, Z_NO_FLUSH);
		} while (rc == Z_OK);
	}
	if (rc != Z_STREAM_END)
		die("inflate failed", NULL);
	return z->total_out;
}

/* What one timed call does. */
struct job {
	int inflating, level, mode;
	const uint8_t *in;
	size_t n, room;
	uint8_t *out;
};

static double time_one(const struct job *j, int l)
{
	const double t0 = cpu_seconds();
	if (j->inflating)
		run_inflate(l, j->in, j->n, j->out, j->room, j->mode);
	else
		run_deflate(l, j->level, j->in, j->n, j->out, j->room, j->mode);
	return cpu_seconds() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Paired runs: each library's best time and the median of B's time over A's. */
static void pair(const struct job *j, int reps, double *best_a, double *best_b, double *median)
{
	double ratios[MAX_REPS];
	*best_a = *best_b = 1e30;
	time_one(j, LIB_A); /* warm-up */
	time_one(j, LIB_B);
	for (int r = 0; r < reps; r++) {
		double a, b;
		if (r & 1) {
			b = time_one(j, LIB_B);
			a = time_one(j, LIB_A);
		} else {
			a = time_one(j, LIB_A);
			b = time_one(j, LIB_B);
		}
		*best_a = a < *best_a ? a : *best_a;
		*best_b = b < *best_b ? b : *best_b;
		ratios[r] = b / a;
	}
	qsort(ratios, (size_t)reps, sizeof(ratios[0]), cmp_double);
	*median = ratios[reps / 2];
}

static uint8_t *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len = -1;
	if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)len)) != NULL && fread(buf, 1, (size_t)len, f) == (size_t)len) {
		fclose(f);
		*n = (size_t)len;
		return buf;
	}
	if (f)
		fclose(f);
	die("cannot read", path);
	return NULL;
}

static void report(const char *name, int level, const char *what, int mode, const char *src,
                   size_t n, const struct job *j, int reps)
{
	static const char *const mode_names[] = { "one-call", "out64K", "out16K", "out4K",
		                                  "out1K" };
	double a, b, median;
	pair(j, reps, &a, &b, &median);
	printf("%-16s L%d %-8s %-8s %-4s A %8.1f MB/s  B %8.1f MB/s  A/B %.3f  median %.3f\n", name,
	       level, what, mode_names[mode], src, (double)n / a / 1e6, (double)n / b / 1e6, b / a,
	       median);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int reps = 9, wbits = 15, i = 1;
	const char *levels = "169", *dmodes = "012", *imodes = "012", *sources = "zab";
	for (; i + 1 < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
		const char *opt = argv[i] + 2, *val = argv[i + 1];
		if (!strcmp(opt, "reps"))
			reps = atoi(val);
		else if (!strcmp(opt, "wbits"))
			wbits = atoi(val);
		else if (!strcmp(opt, "levels"))
			levels = val;
		else if (!strcmp(opt, "deflate"))
			dmodes = val;
		else if (!strcmp(opt, "inflate"))
			imodes = val;
		else if (!strcmp(opt, "sources"))
			sources = val;
		else
			die("unknown option", argv[i]);
	}
	if (reps < 1 || reps > MAX_REPS)
		die("--reps must be 1..99", NULL);
	char self[PATH_MAX], lib_a[PATH_MAX + 32];
	const ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[k > 0 ? k : 0] = '\0';
	char *slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(lib_a, sizeof(lib_a), "%s/compat/libz.so.1", self);
	const char *env = getenv("STOA_PERF_ZLIBNG"), *path_a = lib_a;
	const char *path_b = env && *env ? env : "/tmp/zlib-ng/build-compat/libz.so.1";
	if (i + 2 < argc && strstr(argv[i], ".so") && strstr(argv[i + 1], ".so")) {
		path_a = argv[i];
		path_b = argv[i + 1];
		i += 2;
	}
	if (i >= argc)
		die("no input files", NULL);
	open_lib(&libs[LIB_A], path_a);
	open_lib(&libs[LIB_B], path_b);
	libs[LIB_ZLIB] = (struct zlib_fns){ zlibVersion,   deflateInit2_, deflate,     deflateReset,
		                            inflateInit2_, inflate,       inflateReset };
	for (int l = 0; l < NLIBS; l++) {
		const struct zlib_fns *f = &libs[l];
		for (int lv = 1; lv <= 9; lv++)
			if (f->deflate_init2(&dstreams[l][lv], lv, Z_DEFLATED, wbits, 8,
			                     Z_DEFAULT_STRATEGY, f->version(),
			                     (int)sizeof(z_stream)))
				die("deflateInit2_ failed", NULL);
		if (f->inflate_init2(&istreams[l], wbits, f->version(), (int)sizeof(z_stream)))
			die("inflateInit2_ failed", NULL);
	}
	printf("# A %s (%s), B %s (%s); %d pairs per row, thread CPU time, A/B = B's time over "
	       "A's\n",
	       path_a, libs[LIB_A].version(), path_b, libs[LIB_B].version(), reps);

	for (; i < argc; i++) {
		size_t n;
		uint8_t *in = read_file(argv[i], &n);
		const size_t room = n + n / 8 + 65536;
		uint8_t *out = malloc(room), *comp[NLIBS];
		size_t comp_len[NLIBS];
		const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
		for (int l = 0; l < NLIBS; l++)
			if (!(comp[l] = malloc(room)))
				die("out of memory", NULL);
		if (!out)
			die("out of memory", NULL);
		for (const char *lp = levels; *lp >= '1' && *lp <= '9'; lp++) {
			const int level = *lp - '0';
			for (int l = 0; l < NLIBS; l++) {
				comp_len[l] = run_deflate(l, level, in, n, comp[l], room, 0);
				if (run_inflate(LIB_ZLIB, comp[l], comp_len[l], out, room, 0) !=
				        n ||
				    memcmp(out, in, n))
					die("a stream does not inflate back", name);
			}
			printf("%-16s L%d size    zlib %zu  A %zu  B %zu  A/B %.4f  A/zlib %.4f\n",
			       name, level, comp_len[LIB_ZLIB], comp_len[LIB_A], comp_len[LIB_B],
			       (double)comp_len[LIB_A] / (double)comp_len[LIB_B],
			       (double)comp_len[LIB_A] / (double)comp_len[LIB_ZLIB]);
			for (const char *m = dmodes; *m >= '0' && *m <= '4'; m++) {
				const struct job j = { 0, level, *m - '0', in, n, room, out };
				report(name, level, "deflate", j.mode, "", n, &j, reps);
			}
			for (const char *s = sources; *s; s++) {
				const int src = *s == 'a' ? LIB_A : *s == 'b' ? LIB_B : LIB_ZLIB;
				for (const char *m = imodes; *m >= '0' && *m <= '4'; m++) {
					const struct job j = { 1,         level,         *m - '0',
						               comp[src], comp_len[src], room,
						               out };
					report(name, level, "inflate", j.mode,
					       src == LIB_ZLIB ? "zlib"
					       : src == LIB_A  ? "A"
					                       : "B",
					       n, &j, reps);
				}
			}
		}
		for (int l = 0; l < NLIBS; l++)
			free(comp[l]);
		free(out);
		free(in);
	}
	return 0;
}
