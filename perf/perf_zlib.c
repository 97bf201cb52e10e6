/* Cases of the zlib API: stoa's libz.so.1 against Debian's zlib and zlib-ng's compat build, the
 * same calls on each (stoa build only).
 *
 *   zlib_api_inflate            one inflate(Z_FINISH) call per stream (inflateReset between)
 *   zlib_api_inflate_stream     16 KiB of input and 64 KiB of output room per call
 *   zlib_api_inflate_stream16k  16 KiB of input and 16 KiB of output room per call
 *   zlib_api_deflate*           one deflate(Z_FINISH) call per stream into deflateBound's room
 *                               (deflateReset between); _stream: 64 KiB of input per call
 * on the concatenated Calgary and Canterbury corpora (STOA_CORPUS, as perf_igzip.c) and the
 * igzip cases' 100 MiB mix (STOA_PERF_IGZIP_MIX=skip leaves it out, =only keeps only it), zlib
 * format. Inflate inputs ("zlib-6") are compressed by Debian's zlib at -1, -6, -9, and inflating
 * is timed in the three libraries as one case (the output is the same); "own-6" cases inflate in
 * each library what that library's deflate made at the level. Deflate at levels 1, 6, 9 is a
 * case per library (the outputs differ by design): zlib_api_deflate is stoa's, _zlib Debian's,
 * _zlibng zlib-ng's; the check value is the compressed size, and each library's first stream
 * is inflated by Debian's zlib and compared with the input.
 *
 * Libraries: Debian's zlib is linked in; stoa's is $STOA_PERF_ZLIB_STOA (default compat/libz.so.1
 * beside this program) and zlib-ng's compat library $STOA_PERF_ZLIBNG (default
 * /tmp/zlib-ng/build-compat/libz.so.1), each opened with dlopen on its own symbols
 * (RTLD_DEEPBIND), so the three share the process without their names clashing. A library that
 * is not there leaves its cases without rows. The cases are of module "igzip" so that
 * perf_report gives them the igzip functions' timing. */
#include "perf.h" /* (perf.mk passes -D_GNU_SOURCE: RTLD_DEEPBIND) */
#include "perf_igzip.h"

#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_ZLIB)
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define DEFAULT_ZLIBNG "/tmp/zlib-ng/build-compat/libz.so.1"

enum lib { LIB_STOA, LIB_ZLIB, LIB_ZLIBNG, NLIBS };
static const char *const lib_names[NLIBS] = { "stoa", "zlib", "zlib-ng" };

/* The calls a case makes, from one library. */
struct zlib_api {
	const char *(*version)(void);
	int (*deflate_init2)(z_streamp, int, int, int, int, int, const char *, int);
	int (*deflate)(z_streamp, int);
	int (*deflate_reset)(z_streamp);
	int (*deflate_end)(z_streamp);
	uLong (*deflate_bound)(z_streamp, uLong);
	int (*inflate_init2)(z_streamp, int, const char *, int);
	int (*inflate)(z_streamp, int);
	int (*inflate_reset)(z_streamp);
};
static struct zlib_api apis[NLIBS];
static int have_lib[NLIBS];

/* Each library's functions stand for it in the driver's rows: a case's run function finds the
 * library from the function it is handed. */
static void lib_stoa(void)
{
}
static void lib_zlib(void)
{
}
static void lib_zlibng(void)
{
}
static const perf_fn lib_fns[NLIBS] = { lib_stoa, lib_zlib, lib_zlibng };

static enum lib lib_of(perf_fn fn)
{
	for (int l = 0; l < NLIBS; l++)
		if (fn == lib_fns[l])
			return (enum lib)l;
	return LIB_ZLIB;
}

static int open_lib(enum lib l, const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
	if (!h)
		return 0;
	struct zlib_api *a = &apis[l];
	*(void **)&a->version = dlsym(h, "zlibVersion");
	*(void **)&a->deflate_init2 = dlsym(h, "deflateInit2_");
	*(void **)&a->deflate = dlsym(h, "deflate");
	*(void **)&a->deflate_reset = dlsym(h, "deflateReset");
	*(void **)&a->deflate_end = dlsym(h, "deflateEnd");
	*(void **)&a->deflate_bound = dlsym(h, "deflateBound");
	*(void **)&a->inflate_init2 = dlsym(h, "inflateInit2_");
	*(void **)&a->inflate = dlsym(h, "inflate");
	*(void **)&a->inflate_reset = dlsym(h, "inflateReset");
	return a->version && a->deflate_init2 && a->deflate && a->deflate_reset && a->deflate_end &&
	       a->deflate_bound && a->inflate_init2 && a->inflate && a->inflate_reset;
}

/* ---- inputs --------------------------------------------------------------------------------- */

enum { N_ZINPUTS = 3, ZIN_MIX = 2 };
static const char *const input_names[N_ZINPUTS] = { "calgary.cat", "canterbury.cat", "mix" };
static uint8_t *input_data[N_ZINPUTS];
static size_t input_len[N_ZINPUTS];

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A corpus's files concatenated in name order (generated text when it is absent). */
static void load_corpus(int i, const char *root)
{
	char dir[PATH_MAX], path[2 * PATH_MAX], *names[256];
	size_t n = 0, len = 0;
	snprintf(dir, sizeof(dir), "%s/%.*s", root, (int)strcspn(input_names[i], "."),
	         input_names[i]);
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d)) && n < 256;)
		if (e->d_name[0] != '.' && (names[n] = strdup(e->d_name)))
			n++;
	if (d)
		closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_name);
	uint8_t *buf = NULL;
	for (size_t k = 0; k < n; k++) {
		struct stat sb;
		snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
		FILE *f = stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? fopen(path, "rb") : NULL;
		uint8_t *grown = f ? realloc(buf, len + (size_t)sb.st_size) : buf;
		if (f && grown) {
			buf = grown;
			len += fread(buf + len, 1, (size_t)sb.st_size, f);
		}
		if (f)
			fclose(f);
		free(names[k]);
	}
	if (!len) {
		static const char *const words[] = { "the ",     "stream ", "of ",
			                             "deflate ", "window ", "and ",
			                             "block\n",  "data, ",  "zlib " };
		free(buf);
		len = 2u << 20;
		buf = malloc(len);
		uint64_t s = 1 + (uint64_t)i;
		for (size_t at = 0; buf && at < len;) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			for (const char *w = words[(s >> 33) % 9]; *w && at < len; w++)
				buf[at++] = (uint8_t)*w;
		}
	}
	input_data[i] = buf;
	input_len[i] = buf ? len : 0;
}

/* The generated mix of the igzip cases (perf_igzip_inputs.c), made when a case first needs it. */
static const uint8_t *mix_data(void)
{
	static uint8_t *mix;
	if (!mix && (mix = malloc(MIX_LEN)) != NULL && make_mix(mix, MIX_LEN)) {
		free(mix);
		mix = NULL;
	}
	return mix;
}

/* ---- cases ---------------------------------------------------------------------------------- */

enum op { OP_INFLATE, OP_INFLATE_STREAM, OP_INFLATE_STREAM16, OP_DEFLATE, OP_DEFLATE_STREAM };
#define N_OPS         5
#define N_INFLATE_OPS 3
#define N_DEFLATE_OPS 2
static const int levels[] = { 1, 6, 9 };
#define NLEVELS 3
/* Inflate: 3 ops x 2 sources x inputs x levels; deflate: 2 ops x 3 libraries x inputs x levels. */
#define N_INFLATE (N_INFLATE_OPS * 2 * N_ZINPUTS * NLEVELS)
#define N_DEFLATE (N_DEFLATE_OPS * NLIBS * N_ZINPUTS * NLEVELS)
#define N_CASES   (N_INFLATE + N_DEFLATE)

struct spec {
	enum op op;
	enum lib lib; /* deflate: whose */
	int input, level;
	int own; /* inflate: each library's own deflate output, not Debian zlib's */
};
static struct spec specs[N_CASES];
static char params[N_CASES][64];
static struct perf_case zlib_cases[N_CASES];
static size_t input_sizes[N_ZINPUTS][2];

/* What every thread of a case reads: the input and, for inflate, the zlib stream each library
 * inflates (one stream shared by all, or each library's own). */
struct zstate {
	const struct spec *spec;
	const uint8_t *orig;
	size_t len;
	uint8_t *comp[NLIBS];
	size_t comp_len[NLIBS];
};

static int is_inflate(enum op op)
{
	return op <= OP_INFLATE_STREAM16;
}

static size_t out_room(size_t size)
{
	return size + size / 8 + 64 * KIB;
}

static size_t zlib_footprint(size_t size)
{
	return out_room(size);
}

/* One zlib stream of in[0, n) by library l at a level, in one deflate(Z_FINISH) call; its
 * length, 0 on failure. */
static size_t compress_with(enum lib l, int level, const uint8_t *in, size_t n, uint8_t *out,
                            size_t room)
{
	const struct zlib_api *a = &apis[l];
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (a->deflate_init2(&z, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY, a->version(),
	                     (int)sizeof(z)) != Z_OK)
		return 0;
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)room;
	const int rc = a->deflate(&z, Z_FINISH);
	const size_t got = rc == Z_STREAM_END ? z.total_out : 0;
	a->deflate_end(&z);
	return got;
}

static void *prepare_spec(int idx, size_t size)
{
	const struct spec *sp = &specs[idx];
	struct zstate *st = calloc(1, sizeof(*st));
	if (!st || size > input_len[sp->input])
		goto fail;
	st->spec = sp;
	st->orig = sp->input == ZIN_MIX ? mix_data() : input_data[sp->input];
	if (!st->orig)
		goto fail;
	st->len = size;
	if (is_inflate(sp->op)) {
		const size_t room = compressBound(size);
		for (int l = 0; l < NLIBS; l++) {
			if (!have_lib[l] || (!sp->own && l != LIB_ZLIB))
				continue;
			st->comp[l] = malloc(room);
			st->comp_len[l] = st->comp[l]
			                      ? compress_with((enum lib)l, sp->level, st->orig,
			                                      size, st->comp[l], room)
			                      : 0;
			if (!st->comp_len[l])
				goto fail;
		}
	}
	return st;
fail:
	fprintf(stderr, "stoa_perf: cannot prepare %s\n", params[idx]);
	exit(2);
}

static void release_state(void *p)
{
	struct zstate *st = p;
	for (int l = 0; st && l < NLIBS; l++)
		free(st->comp[l]);
	free(st);
}

/* A prepare function per case (the driver hands prepare only the size): prep_100 .. prep_219
 * prepare cases 0 .. 119 (three-digit names, so that none reads as octal). */
#define PREP(i)                                                                                    \
	static void *prep_##i(size_t size)                                                         \
	{                                                                                          \
		return prepare_spec(i - 100, size);                                                \
	}
#define PREP10(d)                                                                                  \
	PREP(d##0)                                                                                 \
	PREP(d##1)                                                                                 \
	PREP(d##2) PREP(d##3) PREP(d##4) PREP(d##5) PREP(d##6) PREP(d##7) PREP(d##8) PREP(d##9)
PREP10(10)
PREP10(11)
PREP10(12)
PREP10(13)
PREP10(14)
PREP10(15)
PREP10(16)
PREP10(17)
PREP10(18)
PREP10(19)
PREP10(20)
PREP10(21)
#define PTR10(d)                                                                                   \
	prep_##d##0, prep_##d##1, prep_##d##2, prep_##d##3, prep_##d##4, prep_##d##5, prep_##d##6, \
	    prep_##d##7, prep_##d##8, prep_##d##9
static void *(*const prep_fns[])(size_t) = { PTR10(10), PTR10(11), PTR10(12), PTR10(13),
	                                     PTR10(14), PTR10(15), PTR10(16), PTR10(17),
	                                     PTR10(18), PTR10(19), PTR10(20), PTR10(21) };
_Static_assert(N_CASES <= sizeof(prep_fns) / sizeof(prep_fns[0]), "a prepare function per case");

/* One stream per thread, library, operation and level, made once and reset per call. */
static _Thread_local z_stream streams[NLIBS][N_OPS][NLEVELS];
static _Thread_local int stream_ready[NLIBS][N_OPS][NLEVELS];

static z_stream *stream_for(enum lib l, enum op op, int level_idx)
{
	z_stream *z = &streams[l][op][level_idx];
	if (!stream_ready[l][op][level_idx]) {
		const struct zlib_api *a = &apis[l];
		memset(z, 0, sizeof(*z));
		const int rc =
		    is_inflate(op)
		        ? a->inflate_init2(z, 15, a->version(), (int)sizeof(*z))
		        : a->deflate_init2(z, levels[level_idx], Z_DEFLATED, 15, 8,
		                           Z_DEFAULT_STRATEGY, a->version(), (int)sizeof(*z));
		if (rc != Z_OK)
			return NULL;
		stream_ready[l][op][level_idx] = 1;
	}
	return z;
}

static int level_index(int level)
{
	return level == 1 ? 0 : level == 6 ? 1 : 2;
}

/* The output's fingerprint (the same in every library): FNV-1a of a sample of it. */
static uint64_t sample(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ n;
	for (size_t i = 0; i < n; i += 4093)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t run_inflate(const struct perf_call *c, uint64_t calls)
{
	const struct zstate *st = c->state;
	const enum lib l = lib_of(c->fn);
	const struct zlib_api *a = &apis[l];
	const int src = st->spec->own ? (int)l : LIB_ZLIB;
	const uint8_t *const comp = st->comp[src];
	const size_t out_chunk = st->spec->op == OP_INFLATE_STREAM16 ? 16 * KIB : 64 * KIB;
	z_stream *z = stream_for(l, st->spec->op, level_index(st->spec->level));
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++) {
		if (!z || !comp || a->inflate_reset(z) != Z_OK)
			return 0xbad0bad0bad0bad0ull;
		z->next_in = (Bytef *)(uintptr_t)comp;
		z->next_out = c->mem;
		int rc;
		if (st->spec->op == OP_INFLATE) {
			z->avail_in = (uInt)st->comp_len[src];
			z->avail_out = (uInt)out_room(c->size);
			rc = a->inflate(z, Z_FINISH);
		} else {
			const uint8_t *in_end = comp + st->comp_len[src];
			const uint8_t *out_end = c->mem + out_room(c->size);
			do {
				const size_t in_left = (size_t)(in_end - z->next_in);
				const size_t out_left = (size_t)(out_end - z->next_out);
				z->avail_in = (uInt)(in_left < 16 * KIB ? in_left : 16 * KIB);
				z->avail_out = (uInt)(out_left < out_chunk ? out_left : out_chunk);
				rc = a->inflate(z, Z_NO_FLUSH);
			} while (rc == Z_OK);
		}
		if (rc != Z_STREAM_END || z->total_out != st->len)
			return 0xbad0bad0bad0bad0ull;
		if (c->check && memcmp(c->mem, st->orig, st->len))
			return 0xbad0bad0bad0bad0ull;
		acc += c->check ? sample(c->mem, st->len) : z->total_out;
	}
	return acc;
}

/* Debian's zlib inflates a deflate case's first stream back to its input. */
static int inflates_back(const uint8_t *comp, size_t n, const struct zstate *st)
{
	uint8_t *back = malloc(st->len + 1);
	uLong back_len = st->len + 1;
	const int ok = back && uncompress(back, &back_len, comp, n) == Z_OK &&
	               back_len == st->len && !memcmp(back, st->orig, st->len);
	free(back);
	return ok;
}

static uint64_t run_deflate(const struct perf_call *c, uint64_t calls)
{
	const struct zstate *st = c->state;
	const enum lib l = st->spec->lib;
	const struct zlib_api *a = &apis[l];
	z_stream *z = stream_for(l, st->spec->op, level_index(st->spec->level));
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++) {
		if (!z || a->deflate_reset(z) != Z_OK)
			return 0;
		z->next_in = (Bytef *)(uintptr_t)st->orig;
		z->next_out = c->mem;
		const size_t room = out_room(c->size);
		int rc;
		if (st->spec->op == OP_DEFLATE) {
			z->avail_in = (uInt)st->len;
			z->avail_out = (uInt)a->deflate_bound(z, st->len);
			if (z->avail_out > room)
				return 0;
			rc = a->deflate(z, Z_FINISH);
		} else {
			z->avail_out = (uInt)room;
			const uint8_t *end = st->orig + st->len;
			do {
				const size_t left = (size_t)(end - z->next_in);
				z->avail_in = (uInt)(left < 64 * KIB ? left : 64 * KIB);
				rc = a->deflate(z, left <= 64 * KIB ? Z_FINISH : Z_NO_FLUSH);
			} while (rc == Z_OK);
		}
		if (rc != Z_STREAM_END)
			return 0;
		if (c->check && !inflates_back(c->mem, z->total_out, st)) {
			fprintf(stderr, "stoa_perf: %s deflate level %d: output does not inflate\n",
			        lib_names[l], st->spec->level);
			return 0xbad0bad0bad0bad0ull;
		}
		acc += z->total_out;
	}
	return acc;
}

static const struct perf_peer inflate_peers[] = {
	{ "zlib", "inflate", lib_zlib, NULL },
	{ "zlib-ng", "inflate", lib_zlibng, NULL },
};

static void add_case(size_t *n, enum op op, enum lib l, int input, int level, int own)
{
	static const char *const inflate_fns[N_INFLATE_OPS] = { "zlib_api_inflate",
		                                                "zlib_api_inflate_stream",
		                                                "zlib_api_inflate_stream16k" };
	static const char *const deflate_fns[N_DEFLATE_OPS][NLIBS] = {
		{ "zlib_api_deflate", "zlib_api_deflate_zlib", "zlib_api_deflate_zlibng" },
		{ "zlib_api_deflate_stream", "zlib_api_deflate_stream_zlib",
		  "zlib_api_deflate_stream_zlibng" },
	};
	static const size_t none[] = { 0 };
	const size_t i = (*n)++;
	specs[i] = (struct spec){ op, l, input, level, own };
	const int inflating = is_inflate(op);
	if (inflating)
		snprintf(params[i], sizeof(params[i]), "%s %s-%d", input_names[input],
		         own ? "own" : "zlib", level);
	else
		snprintf(params[i], sizeof(params[i]), "%s level=%d", input_names[input], level);
	struct perf_case *pc = &zlib_cases[i];
	*pc = (struct perf_case){
		.module = "igzip",
		.function = inflating ? inflate_fns[op] : deflate_fns[op - OP_DEFLATE][l],
		.params = params[i],
		.bytes = inflating ? "decompressed bytes" : "input bytes",
		.api = lib_fns[inflating ? LIB_STOA : l],
		.run = inflating ? run_inflate : run_deflate,
		.footprint = zlib_footprint,
		.prepare = prep_fns[i],
		.release = release_state,
		.sizes = input_sizes[input],
	};
	if (inflating) {
		pc->peers = inflate_peers;
		pc->npeers = have_lib[LIB_ZLIBNG] ? 2 : 1;
	}
	/* A quick run keeps level 6 of the Calgary corpus, Debian zlib's stream for inflate. */
	if (input != 0 || level != 6 || own)
		pc->quick_sizes = none;
	if (!have_lib[inflating ? LIB_STOA : l])
		pc->sizes = none; /* the library is not there: no rows */
}

__attribute__((constructor)) static void zlib_setup(void)
{
	apis[LIB_ZLIB] =
	    (struct zlib_api){ zlibVersion,  deflateInit2_, deflate, deflateReset, deflateEnd,
		               deflateBound, inflateInit2_, inflate, inflateReset };
	have_lib[LIB_ZLIB] = 1;
	char self[PATH_MAX], path[PATH_MAX + 32];
	const char *env = getenv("STOA_PERF_ZLIB_STOA");
	const ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[k > 0 ? k : 0] = '\0';
	char *slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, sizeof(path), "%s/compat/libz.so.1", self);
	have_lib[LIB_STOA] = open_lib(LIB_STOA, env && *env ? env : path);
	env = getenv("STOA_PERF_ZLIBNG");
	have_lib[LIB_ZLIBNG] = open_lib(LIB_ZLIBNG, env && *env ? env : DEFAULT_ZLIBNG);

	/* The mix as the igzip cases take it: STOA_PERF_IGZIP_MIX=skip or =only. */
	const char *mix = getenv("STOA_PERF_IGZIP_MIX");
	const int skip_mix = mix && strcmp(mix, "skip") == 0;
	const int only_mix = mix && strcmp(mix, "only") == 0;
	env = getenv("STOA_CORPUS");
	for (int i = 0; i < N_ZINPUTS; i++) {
		const int wanted = i == ZIN_MIX ? !skip_mix : !only_mix;
		if (wanted && i == ZIN_MIX)
			input_len[i] = MIX_LEN;
		else if (wanted)
			load_corpus(i, env && *env ? env : STOA_CORPUS_DEFAULT);
		input_sizes[i][0] = input_len[i];
		input_sizes[i][1] = 0;
	}
	size_t n = 0;
	for (int op = OP_INFLATE; op <= OP_INFLATE_STREAM16; op++)
		for (int own = 0; own < 2; own++)
			for (int i = 0; i < N_ZINPUTS; i++)
				for (int lv = 0; lv < NLEVELS; lv++)
					add_case(&n, (enum op)op, LIB_STOA, i, levels[lv], own);
	for (int op = OP_DEFLATE; op <= OP_DEFLATE_STREAM; op++)
		for (int l = 0; l < NLIBS; l++)
			for (int i = 0; i < N_ZINPUTS; i++)
				for (int lv = 0; lv < NLEVELS; lv++)
					add_case(&n, (enum op)op, (enum lib)l, i, levels[lv], 0);
}

const struct perf_module perf_module_zlib = { "zlib", zlib_cases, N_CASES };
#else
const struct perf_module perf_module_zlib = { "zlib", NULL, 0 };
#endif
