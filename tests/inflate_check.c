/* What every inflate suite (tests/test_inflate_*.c) uses: the samples, the compressors that make
 * the streams, and the decoders that run isal_inflate and check what it did; see
 * inflate_check.h. */
#include "inflate_check.h"

int quick; /* ASan or STOA_TEST_QUICK: smaller samples */

struct test_file samples[MAX_SAMPLES];
size_t nsamples;

static void add_sample(const char *name, uint8_t *data, size_t len)
{
	assert_true(nsamples < MAX_SAMPLES);
	struct test_file *s = &samples[nsamples++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->data = data;
	s->len = len;
}

void load_samples(void)
{
	if (nsamples)
		return;
	/* Room is left for the generated samples below. */
	nsamples = test_load_corpus(samples, MAX_SAMPLES - 8);
	if (nsamples) {
		print_message("corpus: %s\n", test_corpus_dir());
	} else {
		print_message("no corpus found (set STOA_CORPUS=dir): using generated text\n");
		static const size_t sizes[] = { 3000, 11000, 53000, 150000, 400000 };
		for (size_t i = 0; i < 5; i++) {
			uint8_t *p = malloc(sizes[i]);
			assert_non_null(p);
			test_fill_text(p, sizes[i]);
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

const struct test_file *find_sample(const char *suffix)
{
	for (size_t i = 0; i < nsamples; i++) {
		size_t a = strlen(samples[i].name), b = strlen(suffix);
		if (a >= b && strcmp(samples[i].name + a - b, suffix) == 0)
			return &samples[i];
	}
	return NULL;
}

/* A few small samples for the full matrices: named corpus files when present. */
size_t small_samples(const struct test_file **out, size_t max)
{
	static const char *names[] = { "/grammar.lsp", "/xargs.1", "/fields.c", "/paper4" };
	size_t n = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && n < max; i++) {
		const struct test_file *s = find_sample(names[i]);
		if (s)
			out[n++] = s;
	}
	for (size_t i = 0; i < nsamples && n < 2; i++)
		if (samples[i].len < 60000)
			out[n++] = &samples[i];
	return n;
}

const char *const wrapper_name[] = { "raw", "zlib", "gzip" };
const int wrapper_flag[] = { ISAL_DEFLATE, ISAL_ZLIB, ISAL_GZIP };

static int zwbits(enum wrapper w, int wbits)
{
	return w == W_RAW ? -wbits : w == W_GZIP ? wbits + 16 : wbits;
}

/* zlib deflate of in; dict (may be NULL) set before the data. */
struct zbuf z_compress_dict(const uint8_t *in, size_t n, enum wrapper w, int level,
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

struct zbuf z_compress(const uint8_t *in, size_t n, enum wrapper w, int level, int wbits,
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

struct zbuf ld_compress(const uint8_t *in, size_t n, enum wrapper w, int level)
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
struct zbuf gzip_cmd(const uint8_t *in, size_t n, int level)
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

struct inflate_state *new_state(void)
{
	struct inflate_state *st = malloc(sizeof(*st));
	assert_non_null(st);
	/* Garbage, so anything the library reads before init sets it shows up under sanitizers
	 * and in the results. */
	memset(st, 0xa5, sizeof(*st));
	return st;
}

void inflate_oneshot(const uint8_t *in, size_t in_len, uint8_t *out, size_t cap,
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
	assert_true(st->next_in >= in && st->next_in <= in + in_len);
	assert_int_equal((size_t)(in + in_len - st->next_in), st->avail_in);
	r->in_left = st->avail_in;
	r->crc = st->crc;
	r->total_out = st->total_out;
	r->block_state = st->block_state;
	if (r->rc == ISAL_DECOMP_OK)
		assert_int_equal(st->total_out, (uint32_t)r->out_len);
	free(st);
}

const struct chunking whole = { "whole", 0, 0, 0 };
const struct chunking chunkings[] = {
	{ "whole", 0, 0, 0 },
	{ "in 1 / out all", 1, 0, 0 },
	{ "in all / out 1", 0, 1, 0 },
	{ "in 1 / out 1", 1, 1, 0 },
	{ "16 KiB in / 64 KiB out", 16384, 65536, 0 },
	{ "random 1..4096", 4096, 4096, 1 },
	{ "random 1..64 in / 1..100000 out", 64, 100000, 1 },
	{ "in 7 / out 300", 7, 300, 0 },
};

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
void run_stream(struct inflate_state *st, const uint8_t *in, size_t in_len, uint8_t *out,
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
void inflate_chunked(const uint8_t *in, size_t in_len, uint8_t *out, size_t cap,
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
void check_result(const char *what, const char *how, const struct result *r,
			 const uint8_t *out, const uint8_t *data, size_t len, int crc_flag,
			 size_t in_left)
{
	if (r->rc != ISAL_DECOMP_OK || r->out_len != len ||
	    (len && memcmp(out, data, len) != 0) || r->in_left != in_left ||
	    r->crc != expected_crc(crc_flag, data, len))
		TEST_FAIL("%s, %s: rc %d, %zu of %zu bytes%s, %zu input bytes left (want %zu), "
			  "crc 0x%08x (want 0x%08x)\n",
			  what, how, r->rc, r->out_len, len,
			  r->out_len == len && len && memcmp(out, data, len) ? " DIFFERENT" : "",
			  r->in_left, in_left, r->crc, expected_crc(crc_flag, data, len));
}

int zlib_raw_ok(const uint8_t *s, size_t len, uint8_t *out, size_t cap, size_t *out_len)
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

size_t roundtrips; /* streams checked, for the summaries */

void check_stream(const char *what, const uint8_t *s, size_t slen, int crc_flag,
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

const struct chunking *random_chunking(size_t len)
{
	/* 1-byte steps only on short streams: they cost a call per byte. */
	for (;;) {
		const struct chunking *c = &chunkings[test_rand_below(N_CHUNKINGS)];
		if ((c->in_step == 1 || c->out_step == 1) && len > 100000)
			continue;
		return c;
	}
}

int inflate_suite_setup(void **state)
{
	(void)state;
	test_seed();
	quick = test_quick();
	if (quick)
		print_message("quick mode (sanitizer build or STOA_TEST_QUICK=1): smaller samples\n");
	return 0;
}
