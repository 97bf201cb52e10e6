/* Inflate tests: isal_inflate, isal_inflate_stateless, the header readers and dictionaries.
 *
 * Evidence:
 *  - round trips of both corpora (../shared/corpus/{calgary,canterbury} beside the repository, or
 *    under STOA_CORPUS=dir, or the files of that dir; generated text when none exists) compressed by zlib (levels 0-9, five strategies, windows 9..15, raw / zlib /
 *    gzip), libdeflate (levels 1-12, loaded with dlopen) and the gzip command (-1..-9): a full
 *    matrix on a few small files, a sample of it on the rest;
 *  - every way of splitting input and output (1 byte, random, 16 KiB in / 64 KiB out) giving
 *    what one call gives, for stored, fixed and dynamic blocks and every wrapper;
 *  - every crc_flag, multi-member gzip, trailing data, hist_bits, dictionaries, the gzip and zlib
 *    header readers (fitting, overflowing, resumed, 1 byte at a time);
 *  - hand-built streams provoking every error code; every truncation point and random byte
 *    flips of small streams (bounded loops: each call must make progress or stop); buffers that
 *    end at a guard page; more than 4 GiB of output in one stream; avail_in and avail_out near
 *    2^32 over a sparse mapping;
 *  - Debian's libisal in a separate process on the same inputs (tests/inflate_oracle.c), and the
 *    drop-in run of that program on stoa's compat libisal.so.2.
 *
 * Everything random comes from test_rand(), so STOA_SEED=N repeats a run. Under AddressSanitizer
 * (or with STOA_TEST_QUICK=1) the sampled parts shrink.
 *
 * Built with -DAGAINST_SYSTEM (and without stoa's -Iinclude, linked with -lisal) the same
 * source checks its own expectations against Debian's ISA-L 2.30; the oracle tests are left out
 * of that build. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libdeflate.h>
#include <zlib.h>

#include <isa-l/igzip_lib.h>

#include "oracle.h"
#include "testutil.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static int quick; /* ASan or STOA_TEST_QUICK: smaller samples */

/* What Debian's ISA-L 2.30 gets wrong, tolerated only in the -DAGAINST_SYSTEM build (stoa must
 * do it right):
 *  - isal_inflate on a raw or zlib stream may consume up to 8 bytes past the end of the stream
 *    (bits it had buffered are not given back at the end; gzip streams end exactly);
 *  - the zlib DICTID is returned byte-swapped (RFC 1950 stores it most significant byte first);
 *  - after an error or on truncated input, isal_inflate_stateless can leave next_in / avail_in
 *    pointing outside the input (it gives back a negative count of buffered bits);
 *  - isal_inflate re-reads a gzip or zlib header that arrives over several calls with a fresh
 *    header struct each call, so FHCRC / FEXTRA gzip headers and FDICT zlib headers split
 *    across calls fail; isal_read_gzip_header loses FNAME / FCOMMENT read byte by byte or
 *    resumed after an _OVERFLOW with a larger buffer. */
#ifdef AGAINST_SYSTEM
#define ISAL230_QUIRKS 1
#else
#define ISAL230_QUIRKS 0
#endif

static double now_sec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- data ---------------------------------------------------------------------------------- */

struct sample {
	char name[80];
	uint8_t *data;
	size_t len;
};

#define MAX_SAMPLES 64
static struct sample samples[MAX_SAMPLES];
static size_t nsamples;
static int corpus_found;

static void add_sample(const char *name, uint8_t *data, size_t len)
{
	assert_true(nsamples < MAX_SAMPLES);
	struct sample *s = &samples[nsamples++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->data = data;
	s->len = len;
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct stat st;
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		fclose(f);
		return NULL;
	}
	uint8_t *p = malloc((size_t)st.st_size + 1);
	assert_non_null(p);
	*len = fread(p, 1, (size_t)st.st_size, f);
	fclose(f);
	return p;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order (so STOA_SEED repeats a run). */
static void load_dir(const char *dir, const char *label)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	print_message("corpus: %s\n", dir);
	char *names[64];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 64) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0)
			continue;
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), name_cmp);
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX + 320], nm[80];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		size_t len;
		uint8_t *p = read_file(path, &len);
		if (p && nsamples < MAX_SAMPLES - 8) {
			snprintf(nm, sizeof(nm), "%s/%s", label, names[i]);
			add_sample(nm, p, len);
			corpus_found = 1;
		} else {
			free(p);
		}
		free(names[i]);
	}
}

/* Text-like bytes: words from a small vocabulary, so matches of every length and distance
 * occur. */
static void gen_text(uint8_t *p, size_t n)
{
	static const char *words[] = { "the ",    "inflate ", "block ", "of ",     "stream ",
				       "huffman ", "a ",       "window ", "and ",    "distance ",
				       "\n",       "length ",  "code ",   "symbol ", "42 " };
	size_t i = 0;
	while (i < n) {
		const char *w = words[test_rand_below(sizeof(words) / sizeof(words[0]))];
		for (size_t k = 0; w[k] && i < n; k++)
			p[i++] = (uint8_t)w[k];
	}
}

static void load_samples(void)
{
	if (nsamples)
		return;
	char dir[PATH_MAX + 64];
	const char *env = getenv("STOA_CORPUS");
	if (env && *env) {
		snprintf(dir, sizeof(dir), "%s/calgary", env);
		load_dir(dir, "calgary");
		snprintf(dir, sizeof(dir), "%s/canterbury", env);
		load_dir(dir, "canterbury");
		if (!corpus_found)
			load_dir(env, "corpus");
	} else {
		/* <repo>/<build>/tests/test_inflate -> <repo>/../shared/corpus */
		char exe[PATH_MAX];
		ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		assert_true(k > 0);
		exe[k] = '\0';
		*strrchr(exe, '/') = '\0';
		snprintf(dir, sizeof(dir), "%s/../../../shared/corpus/calgary", exe);
		load_dir(dir, "calgary");
		snprintf(dir, sizeof(dir), "%s/../../../shared/corpus/canterbury", exe);
		load_dir(dir, "canterbury");
	}
	if (!corpus_found) {
		print_message("no corpus found (set STOA_CORPUS=dir): using generated text\n");
		static const size_t sizes[] = { 3000, 11000, 53000, 150000, 400000 };
		for (size_t i = 0; i < 5; i++) {
			uint8_t *p = malloc(sizes[i]);
			assert_non_null(p);
			gen_text(p, sizes[i]);
			char nm[32];
			snprintf(nm, sizeof(nm), "gen/text%zu", sizes[i]);
			add_sample(nm, p, sizes[i]);
		}
	}
	/* Always: incompressible bytes (stored blocks), one long run, a short period. */
	size_t n = 70000;
	uint8_t *r = malloc(n), *z = malloc(n), *per = malloc(n);
	assert_true(r && z && per);
	test_fill_random(r, n);
	memset(z, 'z', n);
	for (size_t i = 0; i < n; i++)
		per[i] = (uint8_t)"abcabd"[i % 6] ^ (uint8_t)((i / 6000) & 1);
	add_sample("gen/random", r, n);
	add_sample("gen/run", z, n);
	add_sample("gen/period", per, n);
}

static const struct sample *find_sample(const char *suffix)
{
	for (size_t i = 0; i < nsamples; i++) {
		size_t a = strlen(samples[i].name), b = strlen(suffix);
		if (a >= b && strcmp(samples[i].name + a - b, suffix) == 0)
			return &samples[i];
	}
	return NULL;
}

/* A few small samples for the full matrices: named corpus files when present. */
static size_t small_samples(const struct sample **out, size_t max)
{
	static const char *names[] = { "/grammar.lsp", "/xargs.1", "/fields.c", "/paper4" };
	size_t n = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && n < max; i++) {
		const struct sample *s = find_sample(names[i]);
		if (s)
			out[n++] = s;
	}
	for (size_t i = 0; i < nsamples && n < 2; i++)
		if (samples[i].len < 60000)
			out[n++] = &samples[i];
	return n;
}

/* ---- compressors --------------------------------------------------------------------------- */

enum wrapper { W_RAW, W_ZLIB, W_GZIP };
static const char *const wrapper_name[] = { "raw", "zlib", "gzip" };
static const int wrapper_flag[] = { ISAL_DEFLATE, ISAL_ZLIB, ISAL_GZIP };

struct zbuf {
	uint8_t *p;
	size_t len;
};

static int zwbits(enum wrapper w, int wbits)
{
	return w == W_RAW ? -wbits : w == W_GZIP ? wbits + 16 : wbits;
}

/* zlib deflate of in; dict (may be NULL) set before the data. */
static struct zbuf z_compress_dict(const uint8_t *in, size_t n, enum wrapper w, int level,
				   int wbits, int strategy, const uint8_t *dict, size_t dict_len)
{
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	int rc = deflateInit2(&zs, level, Z_DEFLATED, zwbits(w, wbits), 8, strategy);
	if (rc != Z_OK)
		TEST_FAIL("deflateInit2(level %d, wbits %d, strategy %d): %d\n", level, wbits,
			  strategy, rc);
	if (dict)
		assert_int_equal(deflateSetDictionary(&zs, dict, (uInt)dict_len), Z_OK);
	struct zbuf b;
	size_t cap = deflateBound(&zs, n) + 64;
	b.p = malloc(cap);
	assert_non_null(b.p);
	zs.next_in = (Bytef *)(uintptr_t)in;
	zs.avail_in = (uInt)n;
	zs.next_out = b.p;
	zs.avail_out = (uInt)cap;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	b.len = zs.total_out;
	deflateEnd(&zs);
	return b;
}

static struct zbuf z_compress(const uint8_t *in, size_t n, enum wrapper w, int level, int wbits,
			      int strategy)
{
	return z_compress_dict(in, n, w, level, wbits, strategy, NULL, 0);
}

/* libdeflate through dlopen, so the test links only what tests/tests.mk gives every test. */
static struct {
	void *lib;
	__typeof__(libdeflate_alloc_compressor) *alloc;
	__typeof__(libdeflate_free_compressor) *free_c;
	__typeof__(libdeflate_deflate_compress) *raw;
	__typeof__(libdeflate_zlib_compress) *zlib;
	__typeof__(libdeflate_gzip_compress) *gzip;
	__typeof__(libdeflate_deflate_compress_bound) *bound;
} ld;

static void ld_open(void)
{
	if (ld.lib)
		return;
	ld.lib = dlopen("libdeflate.so.0", RTLD_NOW | RTLD_LOCAL);
	if (!ld.lib)
		TEST_FAIL("dlopen(libdeflate.so.0): %s (install libdeflate-dev)\n", dlerror());
	*(void **)&ld.alloc = dlsym(ld.lib, "libdeflate_alloc_compressor");
	*(void **)&ld.free_c = dlsym(ld.lib, "libdeflate_free_compressor");
	*(void **)&ld.raw = dlsym(ld.lib, "libdeflate_deflate_compress");
	*(void **)&ld.zlib = dlsym(ld.lib, "libdeflate_zlib_compress");
	*(void **)&ld.gzip = dlsym(ld.lib, "libdeflate_gzip_compress");
	*(void **)&ld.bound = dlsym(ld.lib, "libdeflate_deflate_compress_bound");
	assert_true(ld.alloc && ld.free_c && ld.raw && ld.zlib && ld.gzip && ld.bound);
}

static struct zbuf ld_compress(const uint8_t *in, size_t n, enum wrapper w, int level)
{
	ld_open();
	struct libdeflate_compressor *c = ld.alloc(level);
	assert_non_null(c);
	struct zbuf b;
	size_t cap = ld.bound(c, n) + 64;
	b.p = malloc(cap);
	assert_non_null(b.p);
	b.len = w == W_RAW ? ld.raw(c, in, n, b.p, cap)
		: w == W_ZLIB ? ld.zlib(c, in, n, b.p, cap)
			      : ld.gzip(c, in, n, b.p, cap);
	assert_true(b.len > 0);
	ld.free_c(c);
	return b;
}

/* The gzip command, through a temporary file. */
static struct zbuf gzip_cmd(const uint8_t *in, size_t n, int level)
{
	const char *tmpdir = getenv("TMPDIR");
	char path[PATH_MAX], cmd[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/stoa_inflate_XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, in, n), (ssize_t)n);
	close(fd);
	snprintf(cmd, sizeof(cmd), "gzip -c -%d < '%s'", level, path);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	struct zbuf b;
	size_t cap = n + n / 8 + 1024;
	b.p = malloc(cap);
	assert_non_null(b.p);
	b.len = fread(b.p, 1, cap, f);
	assert_int_equal(pclose(f), 0);
	unlink(path);
	assert_true(b.len > 18 && b.len < cap);
	return b;
}

/* ---- decoders ------------------------------------------------------------------------------ */

struct result {
	int rc;                   /* the library's code, or END_INPUT / OUT_OVERFLOW when it stalled */
	size_t out_len;           /* bytes written to out */
	uint32_t crc;             /* state->crc at the end */
	uint32_t total_out;       /* state->total_out at the end */
	int block_state;          /* state->block_state at the end */
	size_t in_left;           /* input bytes not consumed */
	size_t calls;             /* isal_inflate calls */
	uint32_t dict_id;         /* state->dict_id after ISAL_NEED_DICT */
};

static struct inflate_state *new_state(void)
{
	struct inflate_state *st = malloc(sizeof(*st));
	assert_non_null(st);
	/* Garbage, so anything the library reads before init sets it shows up under sanitizers
	 * and in the results. */
	memset(st, 0xa5, sizeof(*st));
	return st;
}

static void inflate_oneshot(const uint8_t *in, size_t in_len, uint8_t *out, size_t cap,
			    int crc_flag, struct result *r)
{
	struct inflate_state *st = new_state();
	isal_inflate_init(st);
	st->crc_flag = (uint32_t)crc_flag;
	st->next_in = (uint8_t *)(uintptr_t)in;
	st->avail_in = (uint32_t)in_len;
	st->next_out = out;
	st->avail_out = (uint32_t)cap;
	r->rc = isal_inflate_stateless(st);
	r->calls = 1;
	assert_true(st->next_out >= out && st->next_out <= out + cap);
	r->out_len = (size_t)(st->next_out - out);
	if (!ISAL230_QUIRKS || r->rc == ISAL_DECOMP_OK) {
		assert_true(st->next_in >= in && st->next_in <= in + in_len);
		assert_int_equal((size_t)(in + in_len - st->next_in), st->avail_in);
	}
	r->in_left = st->avail_in;
	r->crc = st->crc;
	r->total_out = st->total_out;
	r->block_state = st->block_state;
	if (r->rc == ISAL_DECOMP_OK)
		assert_int_equal(st->total_out, (uint32_t)r->out_len);
	free(st);
}

/* How a streaming decode splits its buffers: fixed steps (0 = everything left), or random steps
 * of 1..max when random is set. */
struct chunking {
	const char *name;
	size_t in_step, out_step;
	int random;
};

static const struct chunking whole = { "whole", 0, 0, 0 };
static const struct chunking chunkings[] = {
	{ "whole", 0, 0, 0 },
	{ "in 1 / out all", 1, 0, 0 },
	{ "in all / out 1", 0, 1, 0 },
	{ "in 1 / out 1", 1, 1, 0 },
	{ "16 KiB in / 64 KiB out", 16384, 65536, 0 },
	{ "random 1..4096", 4096, 4096, 1 },
	{ "random 1..64 in / 1..100000 out", 64, 100000, 1 },
	{ "in 7 / out 300", 7, 300, 0 },
};
#define N_CHUNKINGS (sizeof(chunkings) / sizeof(chunkings[0]))

static size_t step(size_t max, int random, size_t left)
{
	if (max == 0 || max > left)
		max = left;
	if (!random || max <= 1)
		return max;
	/* Log-uniform, so both tiny and large pieces are common. */
	unsigned bits = (unsigned)test_rand_below(64 - (unsigned)__builtin_clzll(max) + 1);
	size_t lim = bits >= 63 ? max : ((size_t)1 << bits);
	if (lim > max)
		lim = max;
	return 1 + (size_t)test_rand_below(lim);
}

/* isal_inflate in pieces until the stream finishes, an error, or a stall. A call that consumes
 * no input, writes no output and changes no state while both are available fails the test (a
 * hang); a stall with all input given is END_INPUT, with the output full OUT_OVERFLOW. */
static void run_stream(struct inflate_state *st, const uint8_t *in, size_t in_len, uint8_t *out,
		       size_t cap, const struct chunking *ch, struct result *r)
{
	const uint8_t *end = in + in_len;
	size_t produced = 0, limit = 4 * (in_len + cap) + 1000;
	uint32_t total_start = st->total_out;
	int stalls = 0;
	memset(r, 0, sizeof(*r));
	assert_true(st->next_in >= in && st->next_in <= end);
	for (;;) {
		if (++r->calls > limit)
			TEST_FAIL("%s: no end after %zu calls (in %zu, out %zu)\n", ch->name,
				  r->calls, in_len, produced);
		size_t in_left = (size_t)(end - st->next_in);
		st->avail_in = (uint32_t)step(ch->in_step, ch->random, in_left);
		st->next_out = out + produced;
		uint32_t give_out = (uint32_t)step(ch->out_step, ch->random, cap - produced);
		st->avail_out = give_out;
		const uint8_t *before_in = st->next_in;
		int before_state = (int)st->block_state;
		int rc = isal_inflate(st);
		if (st->next_in < in || st->next_in > end)
			TEST_FAIL("%s: next_in moved out of the input (%td)\n", ch->name,
				  st->next_in - in);
		size_t wrote = (size_t)(st->next_out - (out + produced));
		assert_true(st->next_out >= out + produced);
		assert_int_equal(wrote, give_out - st->avail_out);
		produced += wrote;
		if (st->total_out - total_start != (uint32_t)produced)
			TEST_FAIL("%s: total_out %u after %zu bytes written (rc %d)\n", ch->name,
				  st->total_out, produced, rc);
		if (rc < 0 || rc == ISAL_NEED_DICT) {
			r->rc = rc;
			break;
		}
		if (rc != ISAL_DECOMP_OK)
			TEST_FAIL("%s: isal_inflate returned %d\n", ch->name, rc);
		if (st->block_state == ISAL_BLOCK_FINISH) {
			r->rc = ISAL_DECOMP_OK;
			break;
		}
		if (st->next_in != before_in || wrote || (int)st->block_state != before_state) {
			stalls = 0;
			continue;
		}
		/* With all input given, waiting for more is END_INPUT even when the output is full
		 * too (the decoder may still hold output; the callers check block_state). */
		if (in_left == 0) {
			r->rc = ISAL_END_INPUT;
			break;
		}
		if (produced == cap) {
			r->rc = ISAL_OUT_OVERFLOW;
			break;
		}
		if (++stalls > 2)
			TEST_FAIL("%s: isal_inflate made no progress with %u input and %u output "
				  "bytes available (block_state %d)\n",
				  ch->name, st->avail_in, st->avail_out, st->block_state);
	}
	r->out_len = produced;
	r->crc = st->crc;
	r->total_out = st->total_out;
	r->block_state = st->block_state;
	r->in_left = (size_t)(end - st->next_in);
	r->dict_id = st->dict_id;
}

/* A fresh stream (init, crc_flag, hist_bits, optional dictionary) decoded by run_stream. */
static void inflate_chunked(const uint8_t *in, size_t in_len, uint8_t *out, size_t cap,
			    int crc_flag, int hist_bits, const uint8_t *dict, size_t dict_len,
			    const struct chunking *ch, struct result *r)
{
	struct inflate_state *st = new_state();
	isal_inflate_init(st);
	st->crc_flag = (uint32_t)crc_flag;
	st->hist_bits = (uint32_t)hist_bits;
	if (dict)
		assert_int_equal(isal_inflate_set_dict(st, (uint8_t *)(uintptr_t)dict,
						       (uint32_t)dict_len),
				 COMP_OK);
	st->next_in = (uint8_t *)(uintptr_t)in;
	run_stream(st, in, in_len, out, cap, ch, r);
	free(st);
}

static uint32_t expected_crc(int crc_flag, const uint8_t *data, size_t len)
{
	switch (crc_flag) {
	case ISAL_GZIP:
	case ISAL_GZIP_NO_HDR:
	case ISAL_GZIP_NO_HDR_VER:
		return (uint32_t)crc32(0, data, (uInt)len);
	case ISAL_ZLIB:
	case ISAL_ZLIB_NO_HDR:
	case ISAL_ZLIB_NO_HDR_VER:
		return (uint32_t)adler32(1, data, (uInt)len);
	default:
		return 0;
	}
}

/* The stream must decode to data exactly: one call (isal_inflate_stateless) and in pieces. */
static void check_result(const char *what, const char *how, const struct result *r,
			 const uint8_t *out, const uint8_t *data, size_t len, int crc_flag,
			 size_t in_left)
{
	/* ISA-L 2.30 (only) may keep up to 8 bytes past the end of raw and zlib streams. */
	int left_ok = r->in_left == in_left ||
		      (ISAL230_QUIRKS && crc_flag != ISAL_GZIP && crc_flag != ISAL_GZIP_NO_HDR_VER &&
		       r->in_left < in_left && r->in_left + 8 >= in_left);
	if (r->rc != ISAL_DECOMP_OK || r->out_len != len ||
	    (len && memcmp(out, data, len) != 0) || !left_ok ||
	    r->crc != expected_crc(crc_flag, data, len))
		TEST_FAIL("%s, %s: rc %d, %zu of %zu bytes%s, %zu input bytes left (want %zu), "
			  "crc 0x%08x (want 0x%08x)\n",
			  what, how, r->rc, r->out_len, len,
			  r->out_len == len && len && memcmp(out, data, len) ? " DIFFERENT" : "",
			  r->in_left, in_left, r->crc, expected_crc(crc_flag, data, len));
}

static size_t roundtrips; /* streams checked, for the summaries */

static void check_stream(const char *what, const uint8_t *s, size_t slen, int crc_flag,
			 const uint8_t *data, size_t len, const struct chunking *ch)
{
	uint8_t *out = malloc(len + 1);
	assert_non_null(out);
	struct result r;
	inflate_oneshot(s, slen, out, len, crc_flag, &r);
	check_result(what, "stateless", &r, out, data, len, crc_flag, 0);
	if (ch) {
		memset(out, 0, len);
		inflate_chunked(s, slen, out, len, crc_flag, 0, NULL, 0, ch, &r);
		check_result(what, ch->name, &r, out, data, len, crc_flag, 0);
		if (r.block_state != ISAL_BLOCK_FINISH)
			TEST_FAIL("%s, %s: block_state %d at the end\n", what, ch->name,
				  r.block_state);
	}
	roundtrips++;
	free(out);
}

static const struct chunking *random_chunking(size_t len)
{
	/* 1-byte steps only on short streams: they cost a call per byte. */
	for (;;) {
		const struct chunking *c = &chunkings[test_rand_below(N_CHUNKINGS)];
		if ((c->in_step == 1 || c->out_step == 1) && len > 100000)
			continue;
		return c;
	}
}

/* ---- round trips ----------------------------------------------------------------------------- */

static const int strategies[] = { Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED };
static const char *const strategy_name[] = { "default", "filtered", "huffman-only", "rle",
					     "fixed" };

static void zlib_case(const struct sample *s, int level, int strat, int wbits, enum wrapper w,
		      const struct chunking *ch)
{
	struct zbuf b = z_compress(s->data, s->len, w, level, wbits, strategies[strat]);
	char what[200];
	snprintf(what, sizeof(what), "%s zlib level %d %s wbits %d %s (%zu -> %zu bytes)", s->name,
		 level, strategy_name[strat], wbits, wrapper_name[w], s->len, b.len);
	check_stream(what, b.p, b.len, wrapper_flag[w], s->data, s->len, ch);
	free(b.p);
}

static void test_zlib_matrix(void **state)
{
	(void)state;
	load_samples();
	double t0 = now_sec();
	const struct sample *small[4];
	size_t nsmall = small_samples(small, quick ? 1 : 3), before = roundtrips;
	for (size_t f = 0; f < nsmall; f++)
		for (int level = 0; level <= 9; level++)
			for (int st = 0; st < 5; st++)
				for (int wbits = 9; wbits <= 15; wbits++)
					for (int w = 0; w < 3; w++)
						zlib_case(small[f], level, st, wbits, (enum wrapper)w,
							  random_chunking(small[f]->len));
	size_t full = roundtrips - before;
	before = roundtrips;
	int per_file = quick ? 2 : 6;
	for (size_t i = 0; i < nsamples; i++) {
		zlib_case(&samples[i], 6, 0, 15, W_GZIP, random_chunking(samples[i].len));
		for (int k = 0; k < per_file; k++)
			zlib_case(&samples[i], (int)test_rand_below(10), (int)test_rand_below(5),
				  9 + (int)test_rand_below(7), (enum wrapper)test_rand_below(3),
				  random_chunking(samples[i].len));
	}
	print_message("zlib: full matrix (levels 0-9 x 5 strategies x wbits 9-15 x raw/zlib/gzip) "
		      "on %zu files = %zu streams; %zu sampled streams over all %zu files; each "
		      "stateless and in pieces (%.1f s)\n",
		      nsmall, full, roundtrips - before, nsamples, now_sec() - t0);
}

static void ld_case(const struct sample *s, int level, enum wrapper w)
{
	struct zbuf b = ld_compress(s->data, s->len, w, level);
	char what[200];
	snprintf(what, sizeof(what), "%s libdeflate level %d %s (%zu -> %zu bytes)", s->name,
		 level, wrapper_name[w], s->len, b.len);
	check_stream(what, b.p, b.len, wrapper_flag[w], s->data, s->len, random_chunking(s->len));
	free(b.p);
}

static void test_libdeflate(void **state)
{
	(void)state;
	load_samples();
	double t0 = now_sec();
	const struct sample *small[4];
	size_t nsmall = small_samples(small, 3), before = roundtrips;
	for (size_t f = 0; f < nsmall; f++)
		for (int level = 1; level <= 12; level++)
			for (int w = 0; w < 3; w++)
				ld_case(small[f], level, (enum wrapper)w);
	size_t full = roundtrips - before;
	before = roundtrips;
	for (size_t i = 0; i < nsamples; i++)
		for (int k = 0; k < (quick ? 1 : 3); k++)
			ld_case(&samples[i], 1 + (int)test_rand_below(12),
				(enum wrapper)test_rand_below(3));
	print_message("libdeflate: levels 1-12 x 3 wrappers on %zu files = %zu streams, %zu "
		      "sampled over all files (%.1f s)\n",
		      nsmall, full, roundtrips - before, now_sec() - t0);
}

static void gzip_case(const struct sample *s, int level)
{
	struct zbuf b = gzip_cmd(s->data, s->len, level);
	char what[200];
	snprintf(what, sizeof(what), "%s gzip -%d (%zu -> %zu bytes)", s->name, level, s->len,
		 b.len);
	check_stream(what, b.p, b.len, ISAL_GZIP, s->data, s->len, random_chunking(s->len));
	free(b.p);
}

static void test_gzip_command(void **state)
{
	(void)state;
	load_samples();
	double t0 = now_sec();
	const struct sample *small[4];
	size_t nsmall = small_samples(small, 2), before = roundtrips;
	for (size_t f = 0; f < nsmall; f++)
		for (int level = 1; level <= 9; level++)
			gzip_case(small[f], level);
	for (size_t i = 0; i < nsamples; i++)
		gzip_case(&samples[i], 1 + (int)test_rand_below(9));
	print_message("gzip command: -1..-9 on %zu files and one random level on every file: %zu "
		      "streams (%.1f s)\n",
		      nsmall, roundtrips - before, now_sec() - t0);
}

/* The first block header's BTYPE (RFC 1951 3.2.3) of a zlib-made stream. */
static int first_btype(const struct zbuf *b, enum wrapper w)
{
	size_t at = w == W_RAW ? 0 : w == W_ZLIB ? 2 : 10;
	assert_true(b->len > at);
	return (b->p[at] >> 1) & 3;
}

/* Every chunking, for stored, fixed and dynamic blocks and every wrapper: the same bytes, crc and
 * end state as one call. */
static void test_chunkings(void **state)
{
	(void)state;
	load_samples();
	double t0 = now_sec();
	static const struct {
		const char *name;
		int level, strategy, btype;
	} kinds[] = {
		{ "stored", 0, Z_DEFAULT_STRATEGY, 0 },
		{ "fixed", 6, Z_FIXED, 1 },
		{ "dynamic", 6, Z_DEFAULT_STRATEGY, 2 },
	};
	const struct sample *picks[3];
	size_t np = small_samples(picks, 2);
	const struct sample *big = find_sample("/paper1");
	picks[np++] = big ? big : &samples[0];
	size_t before = roundtrips;
	for (size_t f = 0; f < np; f++) {
		size_t len = picks[f]->len > 65536 ? 65536 : picks[f]->len;
		struct sample cut = *picks[f];
		cut.len = len;
		for (size_t k = 0; k < 3; k++)
			for (int w = 0; w < 3; w++) {
				struct zbuf b = z_compress(cut.data, len, (enum wrapper)w,
							   kinds[k].level, 15, kinds[k].strategy);
				assert_int_equal(first_btype(&b, (enum wrapper)w), kinds[k].btype);
				for (size_t c = 0; c < N_CHUNKINGS; c++) {
					char what[200];
					snprintf(what, sizeof(what), "%s (%zu bytes) %s %s", cut.name,
						 len, kinds[k].name, wrapper_name[w]);
					check_stream(what, b.p, b.len, wrapper_flag[w], cut.data, len,
						     &chunkings[c]);
				}
				free(b.p);
			}
	}
	print_message("%zu streams (stored / fixed / dynamic x raw / zlib / gzip) x %zu "
		      "chunkings incl. 1-byte input and output: identical to one call (%.1f s)\n",
		      (roundtrips - before) / N_CHUNKINGS, N_CHUNKINGS, now_sec() - t0);
}

/* One isal_inflate call per piece (pieces end at cuts[0] < cuts[1] < ... < in_len), all the
 * output room at once: every call returns ISAL_DECOMP_OK, the last ends the stream with all its
 * input used, and the output is want. Returns 0, or 1 after printing what went wrong. */
static int split_decode(const char *what, const uint8_t *in, size_t in_len, int flag,
			const size_t *cuts, size_t ncuts, const uint8_t *want, size_t want_len,
			uint8_t *out, size_t cap)
{
	struct inflate_state *st = new_state();
	isal_inflate_init(st);
	st->crc_flag = (uint32_t)flag;
	st->next_out = out;
	st->avail_out = (uint32_t)cap;
	size_t from = 0;
	int bad = 0;
	for (size_t k = 0; k <= ncuts && !bad; k++) {
		size_t to = k < ncuts ? cuts[k] : in_len;
		st->next_in = (uint8_t *)(uintptr_t)(in + from);
		st->avail_in = (uint32_t)(to - from);
		int rc = isal_inflate(st);
		if (rc != ISAL_DECOMP_OK) {
			print_error("%s: piece %zu (bytes %zu..%zu) returned %d, block_state %d, "
				    "%u bytes out so far\n",
				    what, k, from, to, rc, (int)st->block_state, st->total_out);
			bad = 1;
		} else if (k < ncuts && st->block_state == ISAL_BLOCK_FINISH) {
			print_error("%s: stream finished in piece %zu (bytes %zu..%zu)\n", what, k,
				    from, to);
			bad = 1;
		}
		from = to;
	}
	size_t got = (size_t)(st->next_out - out);
	if (!bad && (st->block_state != ISAL_BLOCK_FINISH || st->avail_in != 0 ||
		     got != want_len || memcmp(out, want, want_len) != 0)) {
		print_error("%s: block_state %d (want %d), %u input bytes left, %zu of %zu bytes "
			    "out, %s\n",
			    what, (int)st->block_state, (int)ISAL_BLOCK_FINISH, st->avail_in, got,
			    want_len,
			    got == want_len && memcmp(out, want, want_len) == 0 ? "same data"
										: "other data");
		bad = 1;
	}
	free(st);
	return bad;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* A dynamic-block stream (zlib -6, several blocks) given in two pieces cut at every one of its
 * first 400 bytes, so each bit of the first block header (and the gzip header) falls at the end
 * of a piece once; then in three pieces cut at random places over the whole stream, so later
 * block headers get split too. A block header split across input chunks once came back as
 * ISAL_INVALID_BLOCK. */
static void test_split_headers(void **state)
{
	(void)state;
	load_samples();
	double t0 = now_sec();
	const struct sample *s = find_sample("/paper1");
	if (!s)
		s = find_sample("/alice29.txt");
	if (!s)
		s = &samples[0];
	size_t len = s->len > 96 * 1024 ? 96 * 1024 : s->len;
	size_t cap = len + 1024;
	uint8_t *out = malloc(cap);
	assert_non_null(out);
	size_t random_runs = quick ? 300 : 1500, cases = 0;
	int failures = 0;
	static const enum wrapper ws[] = { W_RAW, W_GZIP };
	for (size_t wi = 0; wi < 2; wi++) {
		enum wrapper w = ws[wi];
		struct zbuf b = z_compress(s->data, len, w, 6, 15, Z_DEFAULT_STRATEGY);
		assert_int_equal(first_btype(&b, w), 2);
		char what[200];
		size_t upto = b.len - 1 < 400 ? b.len - 1 : 400;
		for (size_t cut = 1; cut <= upto && failures < 10; cut++) {
			snprintf(what, sizeof(what), "%s (%zu bytes) zlib -6 %s, %zu-byte stream cut "
				 "at %zu", s->name, len, wrapper_name[w], b.len, cut);
			failures += split_decode(what, b.p, b.len, wrapper_flag[w], &cut, 1, s->data,
						 len, out, cap);
			cases++;
		}
		for (size_t r = 0; r < random_runs && failures < 10; r++) {
			size_t cuts[2];
			do {
				cuts[0] = 1 + (size_t)test_rand_below(b.len - 1);
				cuts[1] = 1 + (size_t)test_rand_below(b.len - 1);
			} while (cuts[0] == cuts[1]);
			qsort(cuts, 2, sizeof(cuts[0]), cmp_size);
			snprintf(what, sizeof(what), "%s (%zu bytes) zlib -6 %s, %zu-byte stream cut "
				 "at %zu and %zu", s->name, len, wrapper_name[w], b.len, cuts[0],
				 cuts[1]);
			failures += split_decode(what, b.p, b.len, wrapper_flag[w], cuts, 2, s->data,
						 len, out, cap);
			cases++;
		}
		free(b.p);
	}
	free(out);
	if (failures)
		TEST_FAIL("%d split streams decoded wrongly (the first ones above)\n", failures);
	print_message("%zu decodes of a dynamic-block stream of %s (raw and gzip) in 2 pieces cut "
		      "at each of the first 400 bytes and in 3 pieces cut at random: same output, "
		      "ISAL_BLOCK_FINISH (%.2f s)\n",
		      cases, s->name, now_sec() - t0);
}

static void test_empty_streams(void **state)
{
	(void)state;
	for (int w = 0; w < 3; w++)
		for (int level = 0; level <= 9; level += 3) {
			struct zbuf b = z_compress((const uint8_t *)"", 0, (enum wrapper)w, level, 15,
						   Z_DEFAULT_STRATEGY);
			for (size_t c = 0; c < N_CHUNKINGS; c++)
				check_stream("empty zlib stream", b.p, b.len, wrapper_flag[w],
					     (const uint8_t *)"", 0, &chunkings[c]);
			free(b.p);
		}
	/* A final empty fixed block; a final empty stored block; an empty dynamic block
	 * (libdeflate's choice is checked through ld_compress below). */
	static const uint8_t fixed_empty[] = { 0x03, 0x00 };
	static const uint8_t stored_empty[] = { 0x01, 0x00, 0x00, 0xff, 0xff };
	check_stream("fixed empty block", fixed_empty, sizeof(fixed_empty), ISAL_DEFLATE,
		     (const uint8_t *)"", 0, &chunkings[3]);
	check_stream("stored empty block", stored_empty, sizeof(stored_empty), ISAL_DEFLATE,
		     (const uint8_t *)"", 0, &chunkings[3]);
	for (int w = 0; w < 3; w++) {
		struct zbuf b = ld_compress((const uint8_t *)"", 0, (enum wrapper)w, 6);
		check_stream("empty libdeflate stream", b.p, b.len, wrapper_flag[w],
			     (const uint8_t *)"", 0, &chunkings[1]);
		free(b.p);
	}
	print_message("empty streams: zlib (4 levels x 3 wrappers x %zu chunkings), fixed and "
		      "stored empty final blocks, libdeflate: 0 bytes, crc of nothing\n",
		      N_CHUNKINGS);
}

/* Several gzip members back to back, one of them empty: decode one, reset, continue where the
 * previous member ended. */
static void test_multi_member_gzip(void **state)
{
	(void)state;
	load_samples();
	const struct sample *a = &samples[0], *b = &samples[nsamples > 1 ? 1 : 0];
	struct zbuf m[4] = {
		z_compress(a->data, a->len, W_GZIP, 6, 15, Z_DEFAULT_STRATEGY),
		z_compress((const uint8_t *)"", 0, W_GZIP, 6, 15, Z_DEFAULT_STRATEGY),
		ld_compress(b->data, b->len, W_GZIP, 9),
		z_compress(a->data, a->len / 3, W_GZIP, 0, 15, Z_DEFAULT_STRATEGY),
	};
	const uint8_t *want[4] = { a->data, (const uint8_t *)"", b->data, a->data };
	size_t want_len[4] = { a->len, 0, b->len, a->len / 3 };
	size_t total = 0;
	for (int i = 0; i < 4; i++)
		total += m[i].len;
	uint8_t *all = malloc(total), *out = malloc(a->len + b->len + 1);
	assert_true(all && out);
	for (size_t i = 0, at = 0; i < 4; at += m[i].len, i++)
		memcpy(all + at, m[i].p, m[i].len);

	for (size_t c = 0; c < N_CHUNKINGS; c++) {
		if (chunkings[c].in_step == 1 && chunkings[c].out_step == 1 && quick)
			continue;
		struct inflate_state *st = new_state();
		isal_inflate_init(st);
		st->crc_flag = ISAL_GZIP;
		st->next_in = all;
		for (int i = 0; i < 4; i++) {
			struct result r;
			const uint8_t *from = st->next_in;
			run_stream(st, all, total, out, want_len[i] + 1, &chunkings[c], &r);
			if (r.rc != ISAL_DECOMP_OK || r.out_len != want_len[i] ||
			    memcmp(out, want[i], want_len[i]) != 0 ||
			    r.crc != (uint32_t)crc32(0, want[i], (uInt)want_len[i]))
				TEST_FAIL("member %d, %s: rc %d, %zu bytes (want %zu), crc 0x%08x\n", i,
					  chunkings[c].name, r.rc, r.out_len, want_len[i], r.crc);
			/* The member ends exactly after its trailer. */
			assert_ptr_equal(st->next_in, from + m[i].len);
			isal_inflate_reset(st);
			assert_int_equal(st->crc_flag, ISAL_GZIP);
		}
		assert_ptr_equal(st->next_in, all + total);
		free(st);
	}
	/* Stateless, member by member. */
	const uint8_t *p = all;
	for (int i = 0; i < 4; i++) {
		struct result r;
		size_t left = (size_t)(all + total - p);
		inflate_oneshot(p, left, out, want_len[i], ISAL_GZIP, &r);
		check_result("stateless member", "stateless", &r, out, want[i], want_len[i],
			     ISAL_GZIP, left - m[i].len);
		p += m[i].len;
	}
	print_message("4 gzip members (one empty) in one buffer: decoded one by one with "
		      "isal_inflate_reset between them, under every chunking and stateless\n");
	for (int i = 0; i < 4; i++)
		free(m[i].p);
	free(all);
	free(out);
}

/* ---- crc_flag, trailing data, hist_bits --------------------------------------------------- */

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

/* One stream under one crc_flag, followed by `junk` extra bytes that must stay unread, stateless
 * and under a few chunkings. */
static void check_flag(const char *what, const uint8_t *s, size_t slen, size_t junk, int flag,
		       const uint8_t *data, size_t len)
{
	uint8_t *buf = malloc(slen + junk), *out = malloc(len + 1);
	assert_true(buf && out);
	memcpy(buf, s, slen);
	memset(buf + slen, 0x5a, junk);
	struct result r;
	inflate_oneshot(buf, slen + junk, out, len, flag, &r);
	check_result(what, "stateless", &r, out, data, len, flag, junk);
	static const size_t picks[] = { 0, 1, 3, 5 };
	for (size_t i = 0; i < 4; i++) {
		inflate_chunked(buf, slen + junk, out, len, flag, 0, NULL, 0, &chunkings[picks[i]],
				&r);
		check_result(what, chunkings[picks[i]].name, &r, out, data, len, flag, junk);
		assert_int_equal(r.block_state, ISAL_BLOCK_FINISH);
	}
	free(buf);
	free(out);
}

/* A bad trailer byte (or a missing trailer) must not pass under flag. */
static void check_bad_trailer(const char *what, const uint8_t *s, size_t slen, size_t trailer,
			      int flag, size_t len)
{
	uint8_t *buf = malloc(slen), *out = malloc(len + 1);
	assert_true(buf && out);
	struct result r;
	for (size_t i = 0; i < trailer; i++) {
		memcpy(buf, s, slen);
		buf[slen - trailer + i] ^= (uint8_t)(1u << (i % 8));
		inflate_oneshot(buf, slen, out, len, flag, &r);
		if (r.rc != ISAL_INCORRECT_CHECKSUM)
			TEST_FAIL("%s, trailer byte %zu flipped, stateless: rc %d\n", what, i, r.rc);
		inflate_chunked(buf, slen, out, len, flag, 0, NULL, 0, &chunkings[i % 2 ? 1 : 5],
				&r);
		if (r.rc != ISAL_INCORRECT_CHECKSUM)
			TEST_FAIL("%s, trailer byte %zu flipped, streaming: rc %d\n", what, i, r.rc);
	}
	/* Without the trailer's last byte: not finished. */
	inflate_oneshot(s, slen - 1, out, len, flag, &r);
	if (r.rc != ISAL_END_INPUT)
		TEST_FAIL("%s, last trailer byte missing, stateless: rc %d\n", what, r.rc);
	inflate_chunked(s, slen - 1, out, len, flag, 0, NULL, 0, &chunkings[1], &r);
	if (r.rc != ISAL_END_INPUT || r.block_state == ISAL_BLOCK_FINISH)
		TEST_FAIL("%s, last trailer byte missing, streaming: rc %d, block_state %d\n", what,
			  r.rc, r.block_state);
	free(buf);
	free(out);
}

static void test_crc_flags(void **state)
{
	(void)state;
	load_samples();
	const struct sample *s = find_sample("/paper4");
	if (!s)
		s = &samples[0];
	size_t len = s->len > 20000 ? 20000 : s->len;
	const uint8_t *d = s->data;
	struct zbuf raw = z_compress(d, len, W_RAW, 6, 15, Z_DEFAULT_STRATEGY);
	struct zbuf gz = z_compress(d, len, W_GZIP, 6, 15, Z_DEFAULT_STRATEGY);
	struct zbuf zl = z_compress(d, len, W_ZLIB, 6, 15, Z_DEFAULT_STRATEGY);
	uint8_t *rawg = malloc(raw.len + 8), *rawz = malloc(raw.len + 4);
	assert_true(rawg && rawz);
	memcpy(rawg, raw.p, raw.len);
	put_le32(rawg + raw.len, (uint32_t)crc32(0, d, (uInt)len));
	put_le32(rawg + raw.len + 4, (uint32_t)len);
	memcpy(rawz, raw.p, raw.len);
	put_be32(rawz + raw.len, (uint32_t)adler32(1, d, (uInt)len));

	for (size_t junk = 0; junk <= 16; junk += 16) {
		check_flag("ISAL_DEFLATE", raw.p, raw.len, junk, ISAL_DEFLATE, d, len);
		check_flag("ISAL_GZIP", gz.p, gz.len, junk, ISAL_GZIP, d, len);
		check_flag("ISAL_ZLIB", zl.p, zl.len, junk, ISAL_ZLIB, d, len);
		check_flag("ISAL_GZIP_NO_HDR", raw.p, raw.len, junk, ISAL_GZIP_NO_HDR, d, len);
		check_flag("ISAL_ZLIB_NO_HDR", raw.p, raw.len, junk, ISAL_ZLIB_NO_HDR, d, len);
		check_flag("ISAL_GZIP_NO_HDR_VER", rawg, raw.len + 8, junk, ISAL_GZIP_NO_HDR_VER, d,
			   len);
		check_flag("ISAL_ZLIB_NO_HDR_VER", rawz, raw.len + 4, junk, ISAL_ZLIB_NO_HDR_VER, d,
			   len);
	}
	check_bad_trailer("ISAL_GZIP", gz.p, gz.len, 8, ISAL_GZIP, len);
	check_bad_trailer("ISAL_ZLIB", zl.p, zl.len, 4, ISAL_ZLIB, len);
	check_bad_trailer("ISAL_GZIP_NO_HDR_VER", rawg, raw.len + 8, 8, ISAL_GZIP_NO_HDR_VER, len);
	check_bad_trailer("ISAL_ZLIB_NO_HDR_VER", rawz, raw.len + 4, 4, ISAL_ZLIB_NO_HDR_VER, len);
	print_message("all 7 crc_flag values: crc equal to zlib's crc32 / adler32, the stream "
		      "ends exactly after its trailer (16 trailing bytes left unread); every "
		      "trailer byte flipped -> ISAL_INCORRECT_CHECKSUM; a missing trailer byte "
		      "never finishes\n");
	free(raw.p);
	free(gz.p);
	free(zl.p);
	free(rawg);
	free(rawz);
}

/* hist_bits < 15 limits the distances isal_inflate accepts to 2^hist_bits. */
static void test_hist_bits(void **state)
{
	(void)state;
	load_samples();
	/* 4 KiB of random bytes repeated 20000 bytes later: one match at distance 20000. */
	size_t len = 24096 + 4096;
	uint8_t *d = malloc(len), *out = malloc(len);
	assert_true(d && out);
	test_fill_random(d, len);
	memcpy(d + 20000, d, 4096);
	struct zbuf far = z_compress(d, len, W_RAW, 9, 15, Z_DEFAULT_STRATEGY);
	assert_true(far.len < len - 2000); /* the match was found */
	struct result r;
	for (int hb = 0; hb <= 15; hb++) {
		if (hb >= 1 && hb < 8)
			continue;
		inflate_chunked(far.p, far.len, out, len, ISAL_DEFLATE, hb, NULL, 0, &whole, &r);
		int want_ok = hb == 0 || hb == 15;
		if (want_ok ? r.rc != ISAL_DECOMP_OK || memcmp(out, d, len) != 0 : r.rc >= 0)
			TEST_FAIL("distance 20000 with hist_bits %d: rc %d\n", hb, r.rc);
		if (!want_ok && r.rc != ISAL_INVALID_SYMBOL && r.rc != ISAL_INVALID_LOOKBACK)
			TEST_FAIL("distance 20000 with hist_bits %d: rc %d, want an invalid "
				  "distance code or lookback\n",
				  hb, r.rc);
	}
	/* Streams made with a window of 2^w decode with hist_bits = w. */
	const struct sample *s = find_sample("/paper1");
	if (!s)
		s = &samples[0];
	for (int w = 9; w <= 15; w++) {
		struct zbuf b = z_compress(s->data, s->len, W_RAW, 9, w, Z_DEFAULT_STRATEGY);
		uint8_t *o = malloc(s->len);
		assert_non_null(o);
		inflate_chunked(b.p, b.len, o, s->len, ISAL_DEFLATE, w, NULL, 0, &chunkings[4], &r);
		check_result("window 2^w with hist_bits w", "16K/64K", &r, o, s->data, s->len,
			     ISAL_DEFLATE, 0);
		free(o);
		free(b.p);
	}
	print_message("a distance of 20000 is rejected with hist_bits 8..14 and accepted with 0 and "
		      "15; zlib windows 2^9..2^15 decode with hist_bits 9..15\n");
	free(far.p);
	free(d);
	free(out);
}

/* ---- dictionaries --------------------------------------------------------------------------- */

static void make_dict_data(uint8_t *dict, size_t dict_len, uint8_t *data, size_t len)
{
	gen_text(dict, dict_len);
	/* The data starts with a piece of the dictionary, so its first symbol reaches into it. */
	for (size_t i = 0; i < len; i++)
		data[i] = dict[(dict_len / 3 + i) % dict_len];
	for (size_t i = 300; i < len; i += 97)
		data[i] ^= 0x20;
}

static void test_dictionaries(void **state)
{
	(void)state;
	static const size_t dict_sizes[] = { 1, 100, 1000, 32768, 40000 };
	size_t len = 30000;
	uint8_t *data = malloc(len), *out = malloc(len), *dict = malloc(40000);
	assert_true(data && out && dict);
	struct result r;
	for (size_t k = 0; k < sizeof(dict_sizes) / sizeof(dict_sizes[0]); k++) {
		size_t dl = dict_sizes[k];
		make_dict_data(dict, dl, data, len);
		uint32_t id = (uint32_t)adler32(1, dict, (uInt)dl);

		/* zlib wrapper with FDICT: ISAL_NEED_DICT with the dictionary's id, then the
		 * dictionary and the rest. */
		struct zbuf z = z_compress_dict(data, len, W_ZLIB, 6, 15, Z_DEFAULT_STRATEGY, dict, dl);
		assert_true(z.p[1] & 0x20);
		for (size_t c = 0; c < N_CHUNKINGS; c++) {
			if (chunkings[c].in_step == 1 && chunkings[c].out_step == 1 && quick)
				continue;
			/* ISA-L 2.30 (only) misses FDICT when the 6 header bytes come in pieces. */
			if (ISAL230_QUIRKS && (chunkings[c].in_step == 1 || chunkings[c].random))
				continue;
			struct inflate_state *st = new_state();
			isal_inflate_init(st);
			st->crc_flag = ISAL_ZLIB;
			st->next_in = z.p;
			run_stream(st, z.p, z.len, out, len, &chunkings[c], &r);
			if (r.rc != ISAL_NEED_DICT || r.out_len != 0 ||
			    r.dict_id != (ISAL230_QUIRKS ? __builtin_bswap32(id) : id))
				TEST_FAIL("FDICT stream, %s: rc %d, dict_id 0x%08x (want %d, 0x%08x)\n",
					  chunkings[c].name, r.rc, r.dict_id, ISAL_NEED_DICT, id);
			assert_int_equal(isal_inflate_set_dict(st, dict, (uint32_t)dl), COMP_OK);
			run_stream(st, z.p, z.len, out, len, &chunkings[c], &r);
			check_result("zlib FDICT after isal_inflate_set_dict", chunkings[c].name, &r,
				     out, data, len, ISAL_ZLIB, 0);
			/* Too late for a dictionary now. */
			assert_int_not_equal(isal_inflate_set_dict(st, dict, (uint32_t)dl), COMP_OK);
			free(st);
		}
		inflate_oneshot(z.p, z.len, out, len, ISAL_ZLIB, &r);
		assert_int_equal(r.rc, ISAL_NEED_DICT);
		free(z.p);

		/* Raw deflate against a dictionary: needs it, and decodes with it. */
		struct zbuf raw = z_compress_dict(data, len, W_RAW, 6, 15, Z_DEFAULT_STRATEGY, dict,
						  dl);
		for (size_t c = 0; c < N_CHUNKINGS; c += 2) {
			inflate_chunked(raw.p, raw.len, out, len, ISAL_GZIP_NO_HDR, 0, dict, dl,
					&chunkings[c], &r);
			check_result("raw deflate with isal_inflate_set_dict", chunkings[c].name, &r,
				     out, data, len, ISAL_GZIP_NO_HDR, 0);
		}
		if (dl >= 100) {
			inflate_chunked(raw.p, raw.len, out, len, ISAL_DEFLATE, 0, NULL, 0, &whole, &r);
			if (r.rc != ISAL_INVALID_LOOKBACK)
				TEST_FAIL("raw deflate made with a %zu-byte dictionary, decoded "
					  "without: rc %d (want ISAL_INVALID_LOOKBACK)\n",
					  dl, r.rc);
			inflate_oneshot(raw.p, raw.len, out, len, ISAL_DEFLATE, &r);
			assert_int_equal(r.rc, ISAL_INVALID_LOOKBACK);
		}
		free(raw.p);
	}
	print_message("dictionaries of 1 B to 40 KB: zlib FDICT -> ISAL_NEED_DICT with the "
		      "dictionary's Adler-32, then isal_inflate_set_dict and the rest; raw deflate "
		      "with and without the dictionary; set_dict refused once decoding started\n");
	free(data);
	free(out);
	free(dict);
}

/* ---- header readers ------------------------------------------------------------------------- */

enum { FTEXT = 1, FHCRC = 2, FEXTRA = 4, FNAME = 8, FCOMMENT = 16 };

/* An RFC 1952 member header; returns its length. */
static size_t make_gzip_header(uint8_t *p, int flags, const uint8_t *extra, size_t xlen,
			       const char *name, const char *comment)
{
	size_t n = 0;
	p[n++] = 0x1f;
	p[n++] = 0x8b;
	p[n++] = 8;
	p[n++] = (uint8_t)flags;
	put_le32(p + n, 0x5f5e1234);
	n += 4;
	p[n++] = 2;
	p[n++] = 3;
	if (flags & FEXTRA) {
		p[n++] = (uint8_t)xlen;
		p[n++] = (uint8_t)(xlen >> 8);
		memcpy(p + n, extra, xlen);
		n += xlen;
	}
	if (flags & FNAME) {
		memcpy(p + n, name, strlen(name) + 1);
		n += strlen(name) + 1;
	}
	if (flags & FCOMMENT) {
		memcpy(p + n, comment, strlen(comment) + 1);
		n += strlen(comment) + 1;
	}
	if (flags & FHCRC) {
		uint32_t c = (uint32_t)crc32(0, p, (uInt)n);
		p[n++] = (uint8_t)c;
		p[n++] = (uint8_t)(c >> 8);
	}
	return n;
}

struct hdr_bufs {
	uint8_t extra[64];
	char name[64], comment[64];
};

static void hdr_init(struct isal_gzip_header *h, struct hdr_bufs *b, uint32_t xcap,
		     uint32_t ncap, uint32_t ccap)
{
	isal_gzip_header_init(h);
	memset(b, 0, sizeof(*b));
	h->extra = b->extra;
	h->extra_buf_len = xcap;
	h->name = b->name;
	h->name_buf_len = ncap;
	h->comment = b->comment;
	h->comment_buf_len = ccap;
}

static const uint8_t xfield[12] = { 'S', 'T', 8, 0, 1, 2, 3, 4, 5, 6, 7, 8 };
static const char *const gz_name = "file-name.txt";
static const char *const gz_comment = "a comment, with spaces";

static void check_hdr_fields(const struct isal_gzip_header *h, int flags, const uint8_t *hdr,
			     size_t hlen, int skip_strings)
{
	assert_int_equal(h->text, (flags & FTEXT) ? 1 : 0);
	assert_int_equal(h->time, 0x5f5e1234);
	assert_int_equal(h->xflags, 2);
	assert_int_equal(h->os, 3);
	assert_int_equal(h->flags, (uint32_t)flags);
	if (flags & FEXTRA) {
		assert_int_equal(h->extra_len, sizeof(xfield));
		assert_memory_equal(h->extra, xfield, sizeof(xfield));
	}
	if (flags & FNAME && !skip_strings)
		assert_string_equal(h->name, gz_name);
	if (flags & FCOMMENT && !skip_strings)
		assert_string_equal(h->comment, gz_comment);
	if (flags & FHCRC)
		assert_int_equal(h->hcrc & 0xffff, hdr[hlen - 2] | (hdr[hlen - 1] << 8));
}

/* Header, then isal_inflate for the body, on one state. */
static void check_gzip_member(const uint8_t *m, size_t mlen, size_t hlen, int flags,
			      const uint8_t *data, size_t len, int one_byte)
{
	struct inflate_state *st = new_state();
	struct isal_gzip_header h;
	struct hdr_bufs b;
	hdr_init(&h, &b, 64, 64, 64);
	isal_inflate_init(st);
	st->crc_flag = ISAL_GZIP;
	st->next_in = (uint8_t *)(uintptr_t)m;
	int rc;
	size_t calls = 0;
	if (one_byte) {
		do {
			st->avail_in = 1;
			rc = isal_read_gzip_header(st, &h);
			calls++;
			assert_true(calls <= hlen);
		} while (rc == ISAL_END_INPUT);
		assert_int_equal(calls, hlen);
	} else {
		st->avail_in = (uint32_t)mlen;
		rc = isal_read_gzip_header(st, &h);
	}
	if (rc != ISAL_DECOMP_OK)
		TEST_FAIL("gzip header flags 0x%02x%s: rc %d\n", flags, one_byte ? " byte by byte" : "",
			  rc);
	assert_ptr_equal(st->next_in, m + hlen);
	/* ISA-L 2.30 (only) loses FNAME / FCOMMENT read byte by byte. */
	check_hdr_fields(&h, flags, m, hlen, ISAL230_QUIRKS && one_byte);
	struct result r;
	uint8_t *out = malloc(len + 1);
	assert_non_null(out);
	run_stream(st, m, mlen, out, len, one_byte ? &chunkings[3] : &chunkings[5], &r);
	check_result("body after isal_read_gzip_header", "streaming", &r, out, data, len, ISAL_GZIP,
		     0);
	free(out);
	free(st);
}

static void test_gzip_header(void **state)
{
	(void)state;
	static const uint8_t data[] = "The body of a gzip member with a full header.";
	size_t len = sizeof(data) - 1;
	struct zbuf body = z_compress(data, len, W_RAW, 6, 15, Z_DEFAULT_STRATEGY);
	uint8_t m[512];
	size_t combos = 0;
	for (int flags = 0; flags < 32; flags++) {
		size_t hlen = make_gzip_header(m, flags, xfield, sizeof(xfield), gz_name, gz_comment);
		memcpy(m + hlen, body.p, body.len);
		put_le32(m + hlen + body.len, (uint32_t)crc32(0, data, (uInt)len));
		put_le32(m + hlen + body.len + 4, (uint32_t)len);
		size_t mlen = hlen + body.len + 8;
		check_gzip_member(m, mlen, hlen, flags, data, len, 0);
		check_gzip_member(m, mlen, hlen, flags, data, len, 1);
		/* isal_inflate reads the same header itself; so does the stateless call. */
		char what[64];
		snprintf(what, sizeof(what), "member with header flags 0x%02x", flags);
		check_stream(what, m, mlen, ISAL_GZIP, data, len,
			     ISAL230_QUIRKS && (flags & (FHCRC | FEXTRA)) ? &chunkings[2]
									   : &chunkings[3]);
		combos++;
	}

	/* Fields that overflow their buffers; a larger buffer then resumes the header. */
	int all = FTEXT | FEXTRA | FNAME | FCOMMENT | FHCRC;
	size_t hlen = make_gzip_header(m, all, xfield, sizeof(xfield), gz_name, gz_comment);
	static const struct {
		int code;
		uint32_t x, n, c;
	} small[] = {
		{ ISAL_EXTRA_OVERFLOW, 5, 64, 64 },
		{ ISAL_NAME_OVERFLOW, 64, 13, 64 }, /* strlen(gz_name): no room for the NUL */
		{ ISAL_NAME_OVERFLOW, 64, 3, 64 },
		{ ISAL_COMMENT_OVERFLOW, 64, 64, 10 },
	};
	for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
		struct inflate_state *st = new_state();
		struct isal_gzip_header h;
		struct hdr_bufs b;
		hdr_init(&h, &b, small[i].x, small[i].n, small[i].c);
		isal_inflate_init(st);
		st->next_in = m;
		st->avail_in = (uint32_t)hlen;
		int rc = isal_read_gzip_header(st, &h);
		if (rc != small[i].code)
			TEST_FAIL("buffers %u/%u/%u: rc %d, want %d\n", small[i].x, small[i].n,
				  small[i].c, rc, small[i].code);
		h.extra_buf_len = h.name_buf_len = h.comment_buf_len = 64;
		rc = isal_read_gzip_header(st, &h);
		if (rc != ISAL_DECOMP_OK)
			TEST_FAIL("buffers %u/%u/%u, resumed with 64 bytes each: rc %d\n",
				  small[i].x, small[i].n, small[i].c, rc);
		/* ISA-L 2.30 (only) restarts a resumed name or comment at offset 0. */
		check_hdr_fields(&h, all, m, hlen, ISAL230_QUIRKS);
		assert_ptr_equal(st->next_in, m + hlen);
		free(st);
	}
	/* NULL buffers skip the fields. */
	{
		struct inflate_state *st = new_state();
		struct isal_gzip_header h;
		isal_gzip_header_init(&h);
		isal_inflate_init(st);
		st->next_in = m;
		st->avail_in = (uint32_t)hlen;
		assert_int_equal(isal_read_gzip_header(st, &h), ISAL_DECOMP_OK);
		assert_ptr_equal(st->next_in, m + hlen);
		assert_int_equal(h.extra_len, sizeof(xfield));
		free(st);
	}
	/* A wrong header CRC, a bad magic, another method. */
	static const struct {
		size_t at;
		uint8_t xor;
		int code;
	} bad[] = {
		{ SIZE_MAX, 0x01, ISAL_INCORRECT_CHECKSUM }, /* the FHCRC field itself */
		{ 0, 0x01, ISAL_INVALID_WRAPPER },
		{ 1, 0x80, ISAL_INVALID_WRAPPER },
		{ 2, 0x0f, ISAL_UNSUPPORTED_METHOD },
		{ 20, 0x04, ISAL_INCORRECT_CHECKSUM }, /* inside the extra field */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t c[512];
		memcpy(c, m, hlen);
		c[bad[i].at == SIZE_MAX ? hlen - 1 : bad[i].at] ^= bad[i].xor;
		memcpy(c + hlen, body.p, body.len);
		put_le32(c + hlen + body.len, (uint32_t)crc32(0, data, (uInt)len));
		put_le32(c + hlen + body.len + 4, (uint32_t)len);
		size_t clen = hlen + body.len + 8;
		struct inflate_state *st = new_state();
		struct isal_gzip_header h;
		struct hdr_bufs b;
		hdr_init(&h, &b, 64, 64, 64);
		isal_inflate_init(st);
		st->next_in = c;
		st->avail_in = (uint32_t)clen;
		int rc = isal_read_gzip_header(st, &h);
		if (rc != bad[i].code)
			TEST_FAIL("header byte %zu ^ 0x%02x: rc %d, want %d\n", bad[i].at, bad[i].xor,
				  rc, bad[i].code);
		free(st);
		uint8_t out[128];
		struct result r;
		inflate_oneshot(c, clen, out, sizeof(out), ISAL_GZIP, &r);
		assert_int_equal(r.rc, bad[i].code);
		inflate_chunked(c, clen, out, sizeof(out), ISAL_GZIP, 0, NULL, 0, &chunkings[1], &r);
		assert_int_equal(r.rc, bad[i].code);
	}
	print_message("gzip headers with all %zu flag combinations, whole and 1 byte per call, "
		      "then the body; extra/name/comment overflow codes and resumption; NULL "
		      "buffers; FHCRC, magic and method errors\n",
		      combos);
	free(body.p);
}

static void test_zlib_header(void **state)
{
	(void)state;
	static const uint8_t data[] = "zlib header test data zlib header test data";
	static const uint8_t dict[] = "header test dictionary";
	size_t len = sizeof(data) - 1, n = 0;
	/* zlib's FLEVEL for each level (deflate.c writes it from level and strategy). */
	static const int flevel[10] = { 0, 0, 1, 1, 1, 1, 2, 3, 3, 3 };
	for (int level = 0; level <= 9; level++)
		for (int w = 9; w <= 15; w++)
			for (int use_dict = 0; use_dict < 2; use_dict++) {
				struct zbuf z = z_compress_dict(data, len, W_ZLIB, level, w,
								Z_DEFAULT_STRATEGY,
								use_dict ? dict : NULL, sizeof(dict));
				for (int one = 0; one < 2; one++) {
					struct inflate_state *st = new_state();
					struct isal_zlib_header h;
					memset(&h, 0xff, sizeof(h));
					isal_inflate_init(st);
					st->next_in = z.p;
					int rc;
					size_t calls = 0, hlen = use_dict ? 6 : 2;
					do {
						st->avail_in = one ? 1 : (uint32_t)z.len;
						rc = isal_read_zlib_header(st, &h);
						calls++;
					} while (rc == ISAL_END_INPUT && calls < 10);
					assert_int_equal(rc, ISAL_DECOMP_OK);
					assert_ptr_equal(st->next_in, z.p + hlen);
					assert_int_equal(h.info, (uint32_t)(w - 8));
					assert_int_equal(h.level, (uint32_t)flevel[level]);
					assert_int_equal(h.dict_flag, (uint32_t)use_dict);
					if (use_dict)
						assert_int_equal(
						    ISAL230_QUIRKS ? __builtin_bswap32(h.dict_id)
								   : h.dict_id,
						    (uint32_t)adler32(1, dict, sizeof(dict)));
					if (one)
						assert_int_equal(calls, hlen);
					free(st);
				}
				free(z.p);
				n++;
			}
	/* A bad header check and a method other than 8. */
	static const uint8_t bad_check[] = { 0x78, 0x9d, 0x03, 0x00, 0, 0, 0, 1 };
	uint8_t method15[2] = { 0x7f, 0 };
	while ((method15[0] * 256 + method15[1]) % 31)
		method15[1]++;
	struct isal_zlib_header h;
	struct inflate_state *st = new_state();
	isal_inflate_init(st);
	st->next_in = (uint8_t *)(uintptr_t)bad_check;
	st->avail_in = sizeof(bad_check);
	assert_int_equal(isal_read_zlib_header(st, &h), ISAL_INCORRECT_CHECKSUM);
	isal_inflate_init(st);
	st->next_in = method15;
	st->avail_in = sizeof(method15);
	assert_int_equal(isal_read_zlib_header(st, &h), ISAL_UNSUPPORTED_METHOD);
	free(st);
	struct result r;
	uint8_t out[16];
	inflate_oneshot(bad_check, sizeof(bad_check), out, sizeof(out), ISAL_ZLIB, &r);
	assert_int_equal(r.rc, ISAL_INCORRECT_CHECKSUM);
	inflate_chunked(bad_check, sizeof(bad_check), out, sizeof(out), ISAL_ZLIB, 0, NULL, 0,
			&chunkings[1], &r);
	assert_int_equal(r.rc, ISAL_INCORRECT_CHECKSUM);
	print_message("isal_read_zlib_header on %zu zlib streams (levels 0-9, windows 2^9..2^15, "
		      "with and without FDICT), whole and byte by byte: info, level, dict_flag, "
		      "dict_id; bad FCHECK -> ISAL_INCORRECT_CHECKSUM, CM 15 -> "
		      "ISAL_UNSUPPORTED_METHOD\n",
		      n);
}

/* ---- hand-built streams and error codes ----------------------------------------------------- */

/* An LSB-first bit writer (RFC 1951 3.1.1); Huffman codes go in MSB first. */
struct bits {
	uint8_t buf[2048];
	size_t n;
	uint64_t acc;
	unsigned cnt;
};

static void put_bits(struct bits *b, uint32_t v, unsigned n)
{
	b->acc |= (uint64_t)v << b->cnt;
	b->cnt += n;
	while (b->cnt >= 8) {
		assert_true(b->n < sizeof(b->buf));
		b->buf[b->n++] = (uint8_t)b->acc;
		b->acc >>= 8;
		b->cnt -= 8;
	}
}

static void put_code(struct bits *b, uint32_t code, unsigned len)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < len; i++)
		r |= ((code >> i) & 1) << (len - 1 - i);
	put_bits(b, r, len);
}

static size_t bits_end(struct bits *b)
{
	if (b->cnt)
		put_bits(b, 0, 8 - b->cnt);
	return b->n;
}

/* Canonical codes from code lengths (RFC 1951 3.2.2). */
static void canonical(const uint8_t *lens, int n, uint16_t *codes)
{
	int count[16] = { 0 }, next[16];
	for (int i = 0; i < n; i++)
		count[lens[i]]++;
	count[0] = 0;
	int code = 0;
	for (int l = 1; l < 16; l++) {
		code = (code + count[l - 1]) << 1;
		next[l] = code;
	}
	for (int i = 0; i < n; i++)
		codes[i] = lens[i] ? (uint16_t)next[lens[i]]++ : 0;
}

/* Fixed-code symbols (RFC 1951 3.2.6). */
static void fixed_lit(struct bits *b, int sym)
{
	if (sym < 144)
		put_code(b, 0x30 + (uint32_t)sym, 8);
	else if (sym < 256)
		put_code(b, 0x190 + (uint32_t)sym - 144, 9);
	else if (sym < 280)
		put_code(b, (uint32_t)sym - 256, 7);
	else
		put_code(b, 0xc0 + (uint32_t)sym - 280, 8);
}

/* The code-length code every built header uses: 13 lengths of 4 bits and 6 of 5 (complete). */
static uint8_t pre_len(int sym)
{
	return sym <= 12 ? 4 : 5;
}

/* A dynamic block header. seq holds the code-length symbols (0..18), each followed in seq by its
 * extra-bits value when it is 16, 17 or 18; hlit/hdist are the counts the header announces. */
static void put_dynamic_header(struct bits *b, int bfinal, int hlit, int hdist, const int *seq,
			       size_t nseq)
{
	static const uint8_t order[19] = { 16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
					   11, 4,  12, 3, 13, 2, 14, 1, 15 };
	static const unsigned extra[3] = { 2, 3, 7 };
	uint8_t pl[19];
	uint16_t pc[19];
	for (int i = 0; i < 19; i++)
		pl[i] = pre_len(i);
	canonical(pl, 19, pc);
	put_bits(b, (uint32_t)bfinal, 1);
	put_bits(b, 2, 2);
	put_bits(b, (uint32_t)(hlit - 257), 5);
	put_bits(b, (uint32_t)(hdist - 1), 5);
	put_bits(b, 15, 4); /* all 19 code-length code lengths */
	for (int i = 0; i < 19; i++)
		put_bits(b, pl[order[i]], 3);
	for (size_t i = 0; i < nseq; i++) {
		int s = seq[i];
		put_code(b, pc[s], pl[s]);
		if (s >= 16)
			put_bits(b, (uint32_t)seq[++i], extra[s - 16]);
	}
}

/* The plain code-length sequence (no run codes) for lit[0..nlit) and dist[0..ndist). */
static size_t plain_seq(int *seq, const uint8_t *lit, int nlit, const uint8_t *dist, int ndist)
{
	size_t n = 0;
	for (int i = 0; i < nlit; i++)
		seq[n++] = lit[i];
	for (int i = 0; i < ndist; i++)
		seq[n++] = dist[i];
	return n;
}

struct crafted {
	const char *name;
	uint8_t s[2048];
	size_t len;
	int want;             /* the code ISA-L returns, stateless and streaming */
	int want_alt;         /* another acceptable code (0: none) */
	const char *out;      /* expected output when want is ISAL_DECOMP_OK */
};

/* zlib's raw inflate must agree that the stream is valid (or not): checks the builders. */
static int zlib_raw_ok(const uint8_t *s, size_t len, uint8_t *out, size_t cap, size_t *out_len)
{
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	assert_int_equal(inflateInit2(&zs, -15), Z_OK);
	zs.next_in = (Bytef *)(uintptr_t)s;
	zs.avail_in = (uInt)len;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	int rc = inflate(&zs, Z_FINISH);
	*out_len = zs.total_out;
	inflateEnd(&zs);
	return rc == Z_STREAM_END;
}

static size_t build_crafted(struct crafted *c)
{
	size_t n = 0;
	struct bits b;
	uint8_t lit[288], dist[32];
	uint16_t lc[288], dc[32];
	int seq[400];

#define BEGIN(nm, w, alt, o)                                                                       \
	memset(&b, 0, sizeof(b));                                                                  \
	c[n].name = nm;                                                                            \
	c[n].want = w;                                                                             \
	c[n].want_alt = alt;                                                                       \
	c[n].out = o
#define END() (c[n].len = bits_end(&b), memcpy(c[n].s, b.buf, c[n].len), n++)

	BEGIN("block type 3, final", ISAL_INVALID_BLOCK, 0, NULL);
	put_bits(&b, 0x7, 3);
	put_bits(&b, 0, 29);
	END();
	BEGIN("block type 3 after a stored block", ISAL_INVALID_BLOCK, 0, NULL);
	put_bits(&b, 0, 3);
	put_bits(&b, 0, 5);
	put_bits(&b, 1, 16);
	put_bits(&b, 0xfffe, 16);
	put_bits(&b, 'x', 8);
	put_bits(&b, 0x7, 3);
	put_bits(&b, 0, 29);
	END();
	BEGIN("stored block, NLEN not the complement of LEN", ISAL_INVALID_BLOCK, 0, NULL);
	put_bits(&b, 1, 3);
	put_bits(&b, 0, 5);
	put_bits(&b, 5, 16);
	put_bits(&b, 0xfffb, 16);
	for (const char *p = "hello"; *p; p++)
		put_bits(&b, (uint8_t)*p, 8);
	END();
	BEGIN("stored block, valid", ISAL_DECOMP_OK, 0, "hello");
	put_bits(&b, 1, 3);
	put_bits(&b, 0, 5);
	put_bits(&b, 5, 16);
	put_bits(&b, 0xfffa, 16);
	for (const char *p = "hello"; *p; p++)
		put_bits(&b, (uint8_t)*p, 8);
	END();
	for (int sym = 286; sym <= 287; sym++) {
		BEGIN(sym == 286 ? "fixed block, length symbol 286" : "fixed block, length symbol 287",
		      ISAL_INVALID_SYMBOL, 0, NULL);
		put_bits(&b, 3, 3);
		fixed_lit(&b, 'a');
		fixed_lit(&b, sym);
		put_code(&b, 0, 5);
		fixed_lit(&b, 256);
		put_bits(&b, 0, 32);
		END();
	}
	for (int d = 30; d <= 31; d++) {
		BEGIN(d == 30 ? "fixed block, distance symbol 30" : "fixed block, distance symbol 31",
		      ISAL_INVALID_SYMBOL, 0, NULL);
		put_bits(&b, 3, 3);
		fixed_lit(&b, 'a');
		fixed_lit(&b, 'b');
		fixed_lit(&b, 257);
		put_code(&b, (uint32_t)d, 5);
		fixed_lit(&b, 256);
		put_bits(&b, 0, 32);
		END();
	}
	BEGIN("fixed block, distance 2 after one byte", ISAL_INVALID_LOOKBACK, 0, NULL);
	put_bits(&b, 3, 3);
	fixed_lit(&b, 'a');
	fixed_lit(&b, 257);
	put_code(&b, 1, 5);
	fixed_lit(&b, 256);
	put_bits(&b, 0, 32);
	END();
	BEGIN("fixed block, distance 3 after two bytes (second block)", ISAL_INVALID_LOOKBACK, 0,
	      NULL);
	put_bits(&b, 2, 3);
	fixed_lit(&b, 'a');
	fixed_lit(&b, 256);
	put_bits(&b, 3, 3);
	fixed_lit(&b, 'b');
	fixed_lit(&b, 257);
	put_code(&b, 2, 5);
	fixed_lit(&b, 256);
	put_bits(&b, 0, 32);
	END();
	BEGIN("fixed block, distance 2 after two bytes", ISAL_DECOMP_OK, 0, "ababa");
	put_bits(&b, 3, 3);
	fixed_lit(&b, 'a');
	fixed_lit(&b, 'b');
	fixed_lit(&b, 257);
	put_code(&b, 1, 5);
	fixed_lit(&b, 256);
	END();
	BEGIN("fixed block, length 258 by symbol 285 over distance 1", ISAL_DECOMP_OK, 0, NULL);
	put_bits(&b, 3, 3);
	fixed_lit(&b, 'q');
	fixed_lit(&b, 285);
	put_code(&b, 0, 5);
	fixed_lit(&b, 256);
	END();

	/* Dynamic blocks: a valid one first, so the builder itself is checked. */
	memset(lit, 0, sizeof(lit));
	memset(dist, 0, sizeof(dist));
	lit['a'] = lit['b'] = lit[256] = lit[257] = 2;
	dist[0] = dist[1] = 1;
	canonical(lit, 258, lc);
	canonical(dist, 2, dc);
	BEGIN("dynamic block, valid", ISAL_DECOMP_OK, 0, "ababa");
	put_dynamic_header(&b, 1, 258, 2, seq, plain_seq(seq, lit, 258, dist, 2));
	put_code(&b, lc['a'], 2);
	put_code(&b, lc['b'], 2);
	put_code(&b, lc[257], 2);
	put_code(&b, dc[1], 1);
	put_code(&b, lc[256], 2);
	END();

	BEGIN("dynamic block, oversubscribed literal/length code", ISAL_INVALID_BLOCK,
	      ISAL_INVALID_SYMBOL, NULL);
	lit['c'] = 2; /* five codes of length 2 */
	put_dynamic_header(&b, 1, 258, 2, seq, plain_seq(seq, lit, 258, dist, 2));
	put_bits(&b, 0, 32);
	END();
	lit['c'] = 0;

	BEGIN("dynamic block, oversubscribed distance code", ISAL_INVALID_BLOCK, ISAL_INVALID_SYMBOL,
	      NULL);
	dist[2] = 1;
	put_dynamic_header(&b, 1, 258, 3, seq, plain_seq(seq, lit, 258, dist, 3));
	put_bits(&b, 0, 32);
	END();
	dist[2] = 0;

	BEGIN("dynamic block, no code for end-of-block", ISAL_INVALID_BLOCK, ISAL_INVALID_SYMBOL,
	      NULL);
	lit[256] = 0;
	lit['c'] = 2;
	put_dynamic_header(&b, 1, 258, 2, seq, plain_seq(seq, lit, 258, dist, 2));
	put_bits(&b, 0, 32);
	END();
	lit[256] = 2;
	lit['c'] = 0;

	BEGIN("dynamic block, repeat code 16 with nothing to repeat", ISAL_INVALID_BLOCK,
	      ISAL_INVALID_SYMBOL, NULL);
	{
		size_t k = 0;
		seq[k++] = 16;
		seq[k++] = 0;
		k += plain_seq(seq + k, lit + 3, 255, dist, 2);
		put_dynamic_header(&b, 1, 258, 2, seq, k);
	}
	put_bits(&b, 0, 32);
	END();

	BEGIN("dynamic block, code lengths run past HLIT + HDIST", ISAL_INVALID_BLOCK,
	      ISAL_INVALID_SYMBOL, NULL);
	{
		size_t k = plain_seq(seq, lit, 258, dist, 1);
		seq[k++] = 18; /* 11 + 127 zeros where one length is left */
		seq[k++] = 127;
		put_dynamic_header(&b, 1, 258, 2, seq, k);
	}
	put_bits(&b, 0, 32);
	END();

	BEGIN("dynamic block, HLIT announces 287 codes", ISAL_INVALID_BLOCK, ISAL_INVALID_SYMBOL,
	      NULL);
	{
		size_t k = plain_seq(seq, lit, 258, dist, 0);
		for (int i = 258; i < 287; i++)
			seq[k++] = 0;
		k += plain_seq(seq + k, dist, 0, dist, 2);
		put_dynamic_header(&b, 1, 287, 2, seq, k);
	}
	put_bits(&b, 0, 32);
	END();

	/* An incomplete literal/length code: 'a' and end-of-block only (lengths 2, 2). The bits
	 * "11" then match no code. ISA-L accepts the header and rejects the symbol; rejecting
	 * the header is as good. */
	BEGIN("dynamic block, bits that match no code of an incomplete code", ISAL_INVALID_SYMBOL,
	      ISAL_INVALID_BLOCK, NULL);
	memset(lit, 0, sizeof(lit));
	lit['a'] = lit[256] = 2;
	put_dynamic_header(&b, 1, 257, 2, seq, plain_seq(seq, lit, 257, dist, 2));
	put_bits(&b, 3, 2);
	put_bits(&b, 3, 2);
	put_bits(&b, 0xffffffff, 32);
	END();
#undef BEGIN
#undef END
	return n;
}

static void test_error_codes(void **state)
{
	(void)state;
	static struct crafted c[40];
	size_t n = build_crafted(c);
	int seen[16] = { 0 };
	for (size_t i = 0; i < n; i++) {
		uint8_t out[512], zout[512];
		size_t zlen;
		int zok = zlib_raw_ok(c[i].s, c[i].len, zout, sizeof(zout), &zlen);
		if (zok != (c[i].want == ISAL_DECOMP_OK))
			TEST_FAIL("%s: zlib %s it: the test's stream builder is wrong\n", c[i].name,
				  zok ? "accepts" : "rejects");
		struct result r1, r2, r3;
		inflate_oneshot(c[i].s, c[i].len, out, sizeof(out), ISAL_DEFLATE, &r1);
		inflate_chunked(c[i].s, c[i].len, out, sizeof(out), ISAL_DEFLATE, 0, NULL, 0, &whole,
				&r2);
		inflate_chunked(c[i].s, c[i].len, out, sizeof(out), ISAL_DEFLATE, 0, NULL, 0,
				&chunkings[3], &r3);
		int ok1 = r1.rc == c[i].want || (c[i].want_alt && r1.rc == c[i].want_alt);
		int ok2 = r2.rc == c[i].want || (c[i].want_alt && r2.rc == c[i].want_alt);
		int ok3 = r3.rc == c[i].want || (c[i].want_alt && r3.rc == c[i].want_alt);
		if (!ok1 || !ok2 || !ok3)
			TEST_FAIL("%s: stateless %d, streaming %d, 1-byte streaming %d (want %d)\n",
				  c[i].name, r1.rc, r2.rc, r3.rc, c[i].want);
		if (c[i].want == ISAL_DECOMP_OK) {
			if (r3.out_len != zlen || memcmp(out, zout, zlen) != 0 ||
			    (c[i].out && (zlen != strlen(c[i].out) || memcmp(zout, c[i].out, zlen))))
				TEST_FAIL("%s: wrong output\n", c[i].name);
		}
		seen[r1.rc + 8] = 1;
	}
	/* Wrapper errors, checksums, truncation and overflow. */
	static const uint8_t data[] = "0123456789 0123456789 0123456789 abcdefghij";
	size_t len = sizeof(data) - 1;
	struct zbuf gz = z_compress(data, len, W_GZIP, 6, 15, Z_DEFAULT_STRATEGY);
	struct zbuf zl = z_compress(data, len, W_ZLIB, 6, 15, Z_DEFAULT_STRATEGY);
	uint8_t buf[256], out[256];
	struct result r;
	memcpy(buf, gz.p, gz.len);
	buf[0] = 0x1e;
	inflate_oneshot(buf, gz.len, out, len, ISAL_GZIP, &r);
	assert_int_equal(r.rc, ISAL_INVALID_WRAPPER);
	seen[r.rc + 8] = 1;
	memcpy(buf, gz.p, gz.len);
	buf[2] = 7;
	inflate_oneshot(buf, gz.len, out, len, ISAL_GZIP, &r);
	assert_int_equal(r.rc, ISAL_UNSUPPORTED_METHOD);
	seen[r.rc + 8] = 1;
	memcpy(buf, zl.p, zl.len);
	buf[zl.len - 1] ^= 1;
	inflate_oneshot(buf, zl.len, out, len, ISAL_ZLIB, &r);
	assert_int_equal(r.rc, ISAL_INCORRECT_CHECKSUM);
	seen[r.rc + 8] = 1;
	inflate_oneshot(gz.p, gz.len - 9, out, len, ISAL_GZIP, &r);
	assert_int_equal(r.rc, ISAL_END_INPUT);
	seen[r.rc + 8] = 1;
	for (size_t cap = 0; cap < len; cap += 7) {
		inflate_oneshot(gz.p, gz.len, out, cap, ISAL_GZIP, &r);
		if (r.rc != ISAL_OUT_OVERFLOW || r.out_len > cap ||
		    memcmp(out, data, r.out_len) != 0)
			TEST_FAIL("stateless into %zu of %zu bytes: rc %d, %zu written\n", cap, len,
				  r.rc, r.out_len);
	}
	seen[ISAL_OUT_OVERFLOW + 8] = 1;
	static const int codes[] = { ISAL_INVALID_BLOCK,    ISAL_INVALID_SYMBOL,
				     ISAL_INVALID_LOOKBACK, ISAL_INVALID_WRAPPER,
				     ISAL_UNSUPPORTED_METHOD, ISAL_INCORRECT_CHECKSUM,
				     ISAL_END_INPUT,        ISAL_OUT_OVERFLOW };
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (!seen[codes[i] + 8])
			TEST_FAIL("error code %d never provoked\n", codes[i]);
	print_message("%zu hand-built streams (zlib agrees on each) give their codes stateless, "
		      "streaming and byte by byte; wrapper, method, checksum, truncation and "
		      "overflow codes: all 8 error codes provoked\n",
		      n);
	free(gz.p);
	free(zl.p);
}

/* ---- guard pages, truncation, corruption ----------------------------------------------------- */

/* One stream decoded from a buffer that ends (or starts) at an inaccessible page into an output
 * buffer that ends exactly at one: stateless and in pieces. Returns the stateless code. */
static int guarded_decode(const uint8_t *s, size_t slen, int flag, size_t out_cap, int where,
			  const uint8_t *data, size_t len, int must_pass)
{
	uint8_t *in = guard_alloc(slen, where), *out = guard_alloc(out_cap, GUARD_BACK);
	memcpy(in, s, slen);
	struct result r;
	inflate_oneshot(in, slen, out, out_cap, flag, &r);
	int rc = r.rc;
	if (must_pass)
		check_result("guarded", "stateless", &r, out, data, len, flag, 0);
	static const size_t picks[] = { 0, 1, 2, 4, 5 };
	for (size_t i = 0; i < 5; i++) {
		if (chunkings[picks[i]].out_step == 1 && out_cap > 100000)
			continue;
		inflate_chunked(in, slen, out, out_cap, flag, 0, NULL, 0, &chunkings[picks[i]], &r);
		if (must_pass)
			check_result("guarded", chunkings[picks[i]].name, &r, out, data, len, flag, 0);
	}
	guard_free(in, slen, where);
	guard_free(out, out_cap, GUARD_BACK);
	return rc;
}

static void test_guard_pages(void **state)
{
	(void)state;
	load_samples();
	const struct sample *s = find_sample("/fields.c");
	if (!s)
		s = &samples[0];
	size_t len = s->len > 40000 ? 40000 : s->len, cases = 0;
	for (int k = 0; k < 3; k++)
		for (int w = 0; w < 3; w++) {
			int level = k == 0 ? 0 : 6, strat = k == 1 ? Z_FIXED : Z_DEFAULT_STRATEGY;
			struct zbuf b = z_compress(s->data, len, (enum wrapper)w, level, 15, strat);
			int flag = wrapper_flag[w];
			for (int where = 0; where < 2; where++) {
				guarded_decode(b.p, b.len, flag, len, where, s->data, len, 1);
				/* Truncated: never a success, never a fault. */
				for (size_t cut = 1; cut < b.len; cut += 1 + b.len / 9) {
					int rc = guarded_decode(b.p, cut, flag, len, where, s->data,
								len, 0);
					assert_int_not_equal(rc, ISAL_DECOMP_OK);
				}
				/* Corrupt, into an output buffer of the original size. */
				for (int t = 0; t < 8; t++) {
					uint8_t *c = malloc(b.len);
					assert_non_null(c);
					memcpy(c, b.p, b.len);
					c[test_rand_below(b.len)] ^= (uint8_t)(1 + test_rand_below(255));
					guarded_decode(c, b.len, flag, len, where, s->data, len, 0);
					free(c);
				}
				/* Output one byte short. */
				if (len > 0) {
					uint8_t *in = guard_alloc(b.len, where);
					uint8_t *out = guard_alloc(len - 1, GUARD_BACK);
					memcpy(in, b.p, b.len);
					struct result r;
					inflate_oneshot(in, b.len, out, len - 1, flag, &r);
					assert_int_equal(r.rc, ISAL_OUT_OVERFLOW);
					inflate_chunked(in, b.len, out, len - 1, flag, 0, NULL, 0,
							&chunkings[5], &r);
					assert_true(r.rc == ISAL_OUT_OVERFLOW || r.rc == ISAL_END_INPUT);
					assert_int_not_equal(r.block_state, ISAL_BLOCK_FINISH);
					assert_int_equal(r.out_len, len - 1);
					assert_memory_equal(out, s->data, len - 1);
					guard_free(in, b.len, where);
					guard_free(out, len - 1, GUARD_BACK);
				}
				cases++;
			}
			free(b.p);
		}
	print_message("%zu streams (stored / fixed / dynamic x 3 wrappers x input ending and "
		      "starting at a guard page), output ending at a guard page: valid, truncated "
		      "at 9 points, 8 corruptions each, output one byte short\n",
		      cases);
}

/* Every prefix of a small stream: stateless never succeeds; in pieces it never fails (a prefix
 * of a valid stream is not an error yet) and what it writes is a prefix of the data. */
static void test_truncations(void **state)
{
	(void)state;
	uint8_t data[3000];
	gen_text(data, sizeof(data));
	test_fill_random(data + 1000, 300);
	uint8_t *out = malloc(sizeof(data));
	assert_non_null(out);
	size_t points = 0;
	int hist[16] = { 0 };
	for (int k = 0; k < 3; k++)
		for (int w = 0; w < 3; w++) {
			int level = k == 0 ? 0 : 6, strat = k == 1 ? Z_FIXED : Z_DEFAULT_STRATEGY;
			struct zbuf b = z_compress(data, sizeof(data), (enum wrapper)w, level, 15,
						   strat);
			for (size_t cut = 0; cut < b.len; cut++) {
				struct result r;
				inflate_oneshot(b.p, cut, out, sizeof(data), wrapper_flag[w], &r);
				if (r.rc == ISAL_DECOMP_OK || r.rc == ISAL_OUT_OVERFLOW)
					TEST_FAIL("%s, %d, first %zu of %zu bytes: stateless rc %d\n",
						  wrapper_name[w], k, cut, b.len, r.rc);
				hist[r.rc + 8]++;
				const struct chunking *ch = &chunkings[cut % 2 ? 1 : 5];
				inflate_chunked(b.p, cut, out, sizeof(data), wrapper_flag[w], 0, NULL,
						0, ch, &r);
				if (r.rc != ISAL_END_INPUT || r.block_state == ISAL_BLOCK_FINISH ||
				    memcmp(out, data, r.out_len) != 0)
					TEST_FAIL("%s, %d, first %zu of %zu bytes, %s: rc %d, "
						  "block_state %d, %zu bytes out%s\n",
						  wrapper_name[w], k, cut, b.len, ch->name, r.rc,
						  r.block_state, r.out_len,
						  memcmp(out, data, r.out_len) ? " (WRONG)" : "");
				points++;
			}
			free(b.p);
		}
	print_message("%zu truncation points (stored / fixed / dynamic x 3 wrappers): stateless "
		      "END_INPUT %d, INVALID_BLOCK %d, INVALID_SYMBOL %d, other errors %d; in "
		      "pieces always waiting for more, output a prefix of the data\n",
		      points, hist[ISAL_END_INPUT + 8], hist[ISAL_INVALID_BLOCK + 8],
		      hist[ISAL_INVALID_SYMBOL + 8],
		      (int)points - hist[ISAL_END_INPUT + 8] - hist[ISAL_INVALID_BLOCK + 8] -
			  hist[ISAL_INVALID_SYMBOL + 8]);
	free(out);
}

/* Random byte flips: every decode ends (bounded, with progress on each call), within its
 * buffers; when both the one-call and the piecewise decode succeed they agree. */
static void test_corruptions(void **state)
{
	(void)state;
	load_samples();
	const struct sample *s = find_sample("/paper4");
	if (!s)
		s = &samples[0];
	size_t len = s->len > 12000 ? 12000 : s->len, trials = quick ? 300 : 1500;
	size_t cap = 2 * len + 1024, failed = 0, passed = 0;
	uint8_t *o1 = malloc(cap), *o2 = malloc(cap);
	assert_true(o1 && o2);
	struct zbuf b[6];
	for (int i = 0; i < 6; i++)
		b[i] = z_compress(s->data, len, (enum wrapper)(i % 3), i < 3 ? 6 : 1, 15,
				  i < 3 ? Z_DEFAULT_STRATEGY : Z_FIXED);
	for (size_t t = 0; t < trials; t++) {
		int i = (int)test_rand_below(6), w = i % 3;
		uint8_t *c = malloc(b[i].len);
		assert_non_null(c);
		memcpy(c, b[i].p, b[i].len);
		int flips = 1 + (int)test_rand_below(3);
		for (int f = 0; f < flips; f++)
			c[test_rand_below(b[i].len)] ^= (uint8_t)(1 + test_rand_below(255));
		struct result r1, r2;
		inflate_oneshot(c, b[i].len, o1, cap, wrapper_flag[w], &r1);
		inflate_chunked(c, b[i].len, o2, cap, wrapper_flag[w], 0, NULL, 0,
				random_chunking(b[i].len), &r2);
		if (r1.rc == ISAL_DECOMP_OK && r2.rc == ISAL_DECOMP_OK &&
		    (r1.out_len != r2.out_len || memcmp(o1, o2, r1.out_len) != 0))
			TEST_FAIL("corrupt stream %zu: both succeed with different output\n", t);
		if (r1.rc == ISAL_DECOMP_OK && w != W_RAW && r1.out_len == len &&
		    memcmp(o1, s->data, len) != 0)
			TEST_FAIL("corrupt stream %zu: wrong data passed the %s checksum\n", t,
				  wrapper_name[w]);
		failed += r1.rc != ISAL_DECOMP_OK;
		passed += r1.rc == ISAL_DECOMP_OK;
		free(c);
	}
	print_message("%zu corrupted streams (1-3 random bytes): %zu rejected, %zu still decode "
		      "(flips in gzip header fields, padding, or raw data); no hang, no overrun\n",
		      trials, failed, passed);
	for (int i = 0; i < 6; i++)
		free(b[i].p);
	free(o1);
	free(o2);
}

/* ---- beyond 32 bits ------------------------------------------------------------------------ */

/* One stream of more than 4 GiB: a self-contained full-flushed block sequence for 1 MiB of data,
 * fed 4200 times, then an empty final block and a gzip trailer (ISIZE modulo 2^32), decoded under
 * ISAL_GZIP_NO_HDR_VER through a 1 MiB output buffer. Checks every output byte, the running
 * CRC and the trailer check, and that no distance is refused after 2^32 bytes. */
static void test_over_4gib(void **state)
{
	(void)state;
	double t0 = now_sec();
	const size_t unit = 1 << 20, reps = 4200;
	uint8_t *data = malloc(unit), *out = malloc(unit);
	assert_true(data && out);
	/* Long matches (a varied 8 KiB period) decode fast; the blocks are still dynamic. */
	gen_text(data, 8192);
	for (size_t i = 8192; i < unit; i++)
		data[i] = data[i - 8192] ^ (i % 997 == 0);
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	assert_int_equal(deflateInit2(&zs, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
	size_t cap = deflateBound(&zs, unit) + 64;
	uint8_t *blk = malloc(cap);
	assert_non_null(blk);
	zs.next_in = data;
	zs.avail_in = (uInt)unit;
	zs.next_out = blk;
	zs.avail_out = (uInt)cap;
	assert_int_equal(deflate(&zs, Z_FULL_FLUSH), Z_OK);
	assert_int_equal(zs.avail_in, 0);
	size_t blk_len = zs.total_out;
	deflateEnd(&zs);

	uLong unit_crc = crc32(0, data, (uInt)unit), crc = 0;
	uint64_t total = (uint64_t)unit * reps;
	for (size_t i = 0; i < reps; i++)
		crc = crc32_combine(crc, unit_crc, (z_off_t)unit);
	uint8_t tail[10] = { 0x03, 0x00 };
	put_le32(tail + 2, (uint32_t)crc);
	put_le32(tail + 6, (uint32_t)total);

	struct inflate_state *st = new_state();
	isal_inflate_init(st);
	st->crc_flag = ISAL_GZIP_NO_HDR_VER;
	uint64_t produced = 0;
	size_t fed = 0;
	int rc = 0;
	for (size_t calls = 0;; calls++) {
		assert_true(calls < 4 * reps + 100);
		if (st->avail_in == 0 && fed <= reps) {
			st->next_in = fed < reps ? blk : tail;
			st->avail_in = (uint32_t)(fed < reps ? blk_len : sizeof(tail));
			fed++;
		}
		st->next_out = out;
		st->avail_out = (uint32_t)unit;
		rc = isal_inflate(st);
		size_t n = (size_t)(st->next_out - out), at = (size_t)(produced % unit);
		size_t first = n < unit - at ? n : unit - at;
		if (memcmp(out, data + at, first) != 0 || memcmp(out + first, data, n - first) != 0)
			TEST_FAIL("wrong output at byte %" PRIu64 "\n", produced);
		produced += n;
		if (rc != ISAL_DECOMP_OK || st->block_state == ISAL_BLOCK_FINISH)
			break;
		if (fed > reps && st->avail_in == 0 && n == 0)
			break;
	}
	if (rc != ISAL_DECOMP_OK || st->block_state != ISAL_BLOCK_FINISH || produced != total ||
	    st->crc != (uint32_t)crc || st->total_out != (uint32_t)total)
		TEST_FAIL("4.1 GiB stream: rc %d, block_state %d, %" PRIu64 " of %" PRIu64
			  " bytes, crc 0x%08x (want 0x%08x), total_out %u\n",
			  rc, st->block_state, produced, total, st->crc, (uint32_t)crc, st->total_out);
	print_message("%" PRIu64 " bytes (> 4 GiB) from one stream of %zu x %zu-byte blocks: data, "
		      "crc 0x%08x, total_out (mod 2^32) and the gzip trailer verified (%.1f s)\n",
		      produced, reps, blk_len, (uint32_t)crc, now_sec() - t0);
	free(st);
	free(blk);
	free(data);
	free(out);
}

/* avail_in and avail_out of 2^32 - 1 over sparse mappings of that size: the decoder stops at the
 * end of the stream and leaves the rest alone. Consuming 4 GiB of real input in one stream is not
 * attempted (test_over_4gib covers the 32-bit counters on the output side). */
static void test_huge_avail(void **state)
{
	(void)state;
	size_t span = (size_t)UINT32_MAX + 1;
	uint8_t *in = mmap(NULL, span, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint8_t *out = mmap(NULL, span, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (in == MAP_FAILED || out == MAP_FAILED) {
		print_message("SKIPPED: cannot map 2 x 4 GiB of address space (%s)\n",
			      strerror(errno));
		if (in != MAP_FAILED)
			munmap(in, span);
		if (out != MAP_FAILED)
			munmap(out, span);
		skip();
	}
	uint8_t data[5000];
	gen_text(data, sizeof(data));
	for (int w = 0; w < 3; w++) {
		struct zbuf b = z_compress(data, sizeof(data), (enum wrapper)w, 6, 15,
					   Z_DEFAULT_STRATEGY);
		memcpy(in, b.p, b.len);
		for (int mode = 0; mode < 2; mode++) {
			struct inflate_state *st = new_state();
			isal_inflate_init(st);
			st->crc_flag = (uint32_t)wrapper_flag[w];
			st->next_in = in;
			st->avail_in = UINT32_MAX;
			st->next_out = out;
			st->avail_out = UINT32_MAX;
			int rc = mode ? isal_inflate(st) : isal_inflate_stateless(st);
			/* ISA-L 2.30 (only) may keep up to 8 bytes past raw / zlib streams. */
			size_t extra = (size_t)(st->next_in - (in + b.len));
			int in_ok = extra == 0 || (ISAL230_QUIRKS && mode && w != W_GZIP && extra <= 8);
			if (rc != ISAL_DECOMP_OK || st->next_out != out + sizeof(data) ||
			    memcmp(out, data, sizeof(data)) != 0 || !in_ok ||
			    st->avail_in != UINT32_MAX - (size_t)(st->next_in - in) ||
			    st->avail_out != UINT32_MAX - sizeof(data) ||
			    (mode && st->block_state != ISAL_BLOCK_FINISH))
				TEST_FAIL("%s %s with avail_in = avail_out = 2^32 - 1: rc %d, %td bytes "
					  "out, avail_in %u (want %u)\n",
					  wrapper_name[w], mode ? "isal_inflate" : "stateless", rc,
					  st->next_out - out, st->avail_in,
					  (uint32_t)(UINT32_MAX - b.len));
			free(st);
		}
		free(b.p);
	}
	munmap(in, span);
	munmap(out, span);
	print_message("raw / zlib / gzip streams with avail_in = avail_out = 2^32 - 1 (sparse 4 GiB "
		      "mappings), stateless and isal_inflate: exact output, exact input consumed\n");
}

/* ---- Debian's libisal in another process ---------------------------------------------------- */

#ifndef AGAINST_SYSTEM
#define ORACLE_COUNT 40

static void check_oracle_coverage(const struct oracle_output *o)
{
	const char *pos = o->text, *l;
	size_t len, lines = 0, ok = 0, errors = 0;
	while ((l = oracle_next_line(&pos, &len, NULL))) {
		lines++;
		const char *rc = strstr(l, " rc=");
		if (!rc || rc > l + len)
			TEST_FAIL("malformed oracle line: %.*s\n", (int)len, l);
		if (strncmp(rc, " rc=0 ", 6) == 0)
			ok++;
		else if (rc[4] == '-')
			errors++;
	}
	print_message("oracle sweep: %zu decodes, %zu succeeded, %zu errors\n", lines, ok, errors);
	assert_true(ok > lines / 3);
	assert_true(errors > lines / 10);
}

static void test_isal_oracle(void **state)
{
	(void)state;
	struct oracle_output sys, ours;
	oracle_run("inflate", ORACLE_SYSTEM, test_seed(), ORACLE_COUNT, &sys);
	oracle_run("inflate", ORACLE_STOA, test_seed(), ORACLE_COUNT, &ours);
	check_oracle_coverage(&sys);
	size_t n = oracle_compare("libisal", &sys, "stoa", &ours, NULL, NULL);
	print_message("Debian libisal vs stoa: %zu decodes (return codes, output hashes, crc, "
		      "total_out, block_state) identical\n",
		      n);
	assert_true(n > 100);
	oracle_free(&sys);
	oracle_free(&ours);
}

static void test_compat_abi(void **state)
{
	(void)state;
	size_t n = oracle_check_compat("inflate", test_seed(), ORACLE_COUNT / 4);
	assert_true(n > 25);
}
#endif

static int setup(void **state)
{
	(void)state;
	test_seed();
	const char *q = getenv("STOA_TEST_QUICK");
	quick = UNDER_ASAN || (q && *q == '1');
	if (quick)
		print_message("quick mode (sanitizer build or STOA_TEST_QUICK=1): smaller samples\n");
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zlib_matrix),
		cmocka_unit_test(test_libdeflate),
		cmocka_unit_test(test_gzip_command),
		cmocka_unit_test(test_chunkings),
		cmocka_unit_test(test_split_headers),
		cmocka_unit_test(test_empty_streams),
		cmocka_unit_test(test_multi_member_gzip),
		cmocka_unit_test(test_crc_flags),
		cmocka_unit_test(test_hist_bits),
		cmocka_unit_test(test_dictionaries),
		cmocka_unit_test(test_gzip_header),
		cmocka_unit_test(test_zlib_header),
		cmocka_unit_test(test_error_codes),
		cmocka_unit_test(test_guard_pages),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_corruptions),
		cmocka_unit_test(test_over_4gib),
		cmocka_unit_test(test_huge_avail),
#ifndef AGAINST_SYSTEM
		cmocka_unit_test(test_isal_oracle),
		cmocka_unit_test(test_compat_abi),
#endif
	};
	/* STOA_TEST_FILTER=test_chunkings (a glob) runs only the matching tests. */
	const char *filter = getenv("STOA_TEST_FILTER");
	if (filter && *filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests_name("inflate", tests, setup, NULL);
}
