/* Concurrency: the library's shared state under threads, for ThreadSanitizer (make check-tsan).
 *
 * The library's state shared between threads: each dispatched function's pointer, resolved on
 * its first call; the CPU feature word; the deflate code tables built once; inflate's fixed-code
 * tables, built once; the erasure-code helpers' cache of encode and decode tables. Checked here,
 * each part in NTHREADS threads:
 *  1. the first call of every dispatched function, all threads released at once by a barrier
 *     (each walking the functions in its own order): the process's first use of the library, so
 *     this test runs first and nothing before it may call the library;
 *  2. stoa_ec_recover on loss patterns every thread shares and on patterns of its own, for
 *     several codes, while one more thread keeps calling stoa_ec_cache_clear;
 *  3. independent hash managers, and deflate and inflate streams, one set per thread.
 * Every thread's results must be right (and in part 1 equal across threads). The test also runs
 * in the ordinary builds, where it checks the results; under -fsanitize=thread a data race
 * fails it. Assertions happen in the main thread: the workers count their failures. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "common/dispatch.h"
#include "isa-l.h"
#include "isa-l_crypto.h"
#include "stoa.h"
#include "testutil.h"

#define NTHREADS 16
#define LEN      4096

static uint8_t src[8][LEN];
static atomic_int failures;
static char first_failure[200];

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c) && atomic_fetch_add(&failures, 1) == 0)                                   \
			snprintf(first_failure, sizeof(first_failure), "%s:%d: %s", __FILE__,      \
			         __LINE__, #c);                                                    \
	} while (0)

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* ---- 1. first calls -------------------------------------------------------------------- */

static uint64_t call_crc(void)
{
	uint8_t dst[LEN];
	uint64_t v[5] = { crc16_t10dif(1, src[0], LEN), crc16_t10dif_copy(2, dst, src[0], LEN),
		          crc32_ieee(3, src[0], LEN), crc32_gzip_refl(4, src[0], LEN),
		          crc32_iscsi(src[0], LEN, 5) };
	CHECK(memcmp(dst, src[0], LEN) == 0);
	return mix(0, v, sizeof(v));
}

static uint64_t call_crc64(void)
{
	uint64_t (*const f[8])(uint64_t, const unsigned char *, uint64_t) = {
		crc64_ecma_refl,  crc64_ecma_norm,  crc64_iso_refl,      crc64_iso_norm,
		crc64_jones_refl, crc64_jones_norm, crc64_rocksoft_refl, crc64_rocksoft_norm,
	};
	uint64_t v[8];
	for (int i = 0; i < 8; i++)
		v[i] = f[i](7, src[1], LEN);
	return mix(0, v, sizeof(v));
}

static uint64_t call_raid(void)
{
	uint8_t *b = test_alloc64(7 * LEN);
	void *arr[7];
	for (int i = 0; i < 7; i++) {
		arr[i] = b + i * LEN;
		memcpy(arr[i], src[i], LEN);
	}
	CHECK(xor_gen(6, LEN, arr) == 0 && xor_check(6, LEN, arr) == 0);
	CHECK(pq_gen(7, LEN, arr) == 0 && pq_check(7, LEN, arr) == 0);
	memset(arr[0], 0, LEN);
	CHECK(isal_zero_detect(arr[0], LEN) == 0 && isal_zero_detect(arr[1], LEN) != 0);
	const uint64_t h = mix(0, b + 5 * LEN, 2 * LEN);
	free(b);
	return h;
}

static uint64_t call_ec(void)
{
	unsigned char a[6 * 4], tbls[32 * 4 * 2], *data[4], *code[2], *code2[2], *dot;
	unsigned char *b = malloc(9 * LEN);
	for (int i = 0; i < 4; i++)
		data[i] = src[i];
	code[0] = b, code[1] = b + LEN, code2[0] = b + 2 * LEN, code2[1] = b + 3 * LEN;
	dot = b + 4 * LEN;
	gf_gen_cauchy1_matrix(a, 6, 4);
	ec_init_tables(4, 2, a + 16, tbls);
	ec_encode_data(LEN, 4, 2, tbls, data, code);
	memset(code2[0], 0, 2 * LEN);
	for (int i = 0; i < 4; i++)
		ec_encode_data_update(LEN, 4, 2, i, tbls, data[i], code2);
	CHECK(memcmp(code[0], code2[0], 2 * LEN) == 0);
	gf_vect_dot_prod(LEN, 4, tbls, data, dot);
	CHECK(memcmp(dot, code[0], LEN) == 0);
	memset(dot, 0, LEN);
	for (int i = 0; i < 4; i++)
		gf_vect_mad(LEN, 4, i, tbls, data[i], dot);
	CHECK(memcmp(dot, code[0], LEN) == 0);
	unsigned char t[32];
	gf_vect_mul_init(0x53, t);
	CHECK(gf_vect_mul(LEN, t, src[5], b + 5 * LEN) == 0);
	const uint64_t h = mix(mix(0, code[0], 2 * LEN), b + 5 * LEN, LEN);
	free(b);
	return h;
}

#define CALL_MGR(alg, ALGU)                                                                        \
	static uint64_t call_##alg(void)                                                           \
	{                                                                                          \
		ISAL_##ALGU##_HASH_CTX_MGR *m = test_alloc64(sizeof(*m));                          \
		ISAL_##ALGU##_HASH_CTX *c = test_alloc64(4 * sizeof(*c)), *out = NULL;             \
		CHECK(isal_##alg##_ctx_mgr_init(m) == 0);                                          \
		for (int i = 0; i < 4; i++) {                                                      \
			isal_hash_ctx_init(&c[i]);                                                 \
			CHECK(isal_##alg##_ctx_mgr_submit(m, &c[i], &out, src[i], LEN - i,         \
			                                  ISAL_HASH_ENTIRE) == 0);                 \
		}                                                                                  \
		do                                                                                 \
			CHECK(isal_##alg##_ctx_mgr_flush(m, &out) == 0);                           \
		while (out);                                                                       \
		uint64_t h = 0;                                                                    \
		for (int i = 0; i < 4; i++) {                                                      \
			CHECK(isal_hash_ctx_complete(&c[i]));                                      \
			h = mix(h, c[i].job.result_digest, sizeof(c[i].job.result_digest));        \
		}                                                                                  \
		unsigned char d[64] = { 0 };                                                       \
		stoa_##alg(src[7], LEN, d);                                                        \
		h = mix(h, d, sizeof(d));                                                          \
		free(m);                                                                           \
		free(c);                                                                           \
		return h;                                                                          \
	}
CALL_MGR(sha1, SHA1)
CALL_MGR(sha256, SHA256)
CALL_MGR(sha512, SHA512)
CALL_MGR(md5, MD5)

static uint64_t call_aes(void)
{
	uint8_t key[64], tw[16], enc[16 * 15], dec[16 * 15], enc2[16 * 15], dec2[16 * 15];
	uint8_t ct[LEN], pt[LEN];
	memcpy(key, src[6], 64);
	memcpy(tw, src[6] + 64, 16);
	uint64_t h = 0;
	CHECK(isal_aes_xts_enc_128(key + 16, key, tw, LEN, src[0], ct) == 0);
	CHECK(isal_aes_xts_dec_128(key + 16, key, tw, LEN, ct, pt) == 0);
	CHECK(memcmp(pt, src[0], LEN) == 0);
	h = mix(h, ct, LEN);
	CHECK(isal_aes_keyexp_128(key + 16, enc2, dec2) == 0);
	CHECK(isal_aes_keyexp_128(key, enc, dec) == 0);
	CHECK(isal_aes_xts_enc_128_expanded_key(enc2, enc, tw, LEN, src[0], pt) == 0);
	CHECK(memcmp(pt, ct, LEN) == 0);
	CHECK(isal_aes_xts_dec_128_expanded_key(enc2, dec, tw, LEN, ct, pt) == 0);
	CHECK(memcmp(pt, src[0], LEN) == 0);
	CHECK(isal_aes_xts_enc_256(key + 32, key, tw, LEN - 5, src[1], ct) == 0);
	CHECK(isal_aes_xts_dec_256(key + 32, key, tw, LEN - 5, ct, pt) == 0);
	CHECK(memcmp(pt, src[1], LEN - 5) == 0);
	h = mix(h, ct, LEN - 5);
	CHECK(isal_aes_keyexp_256(key + 32, enc2, dec2) == 0);
	CHECK(isal_aes_keyexp_256(key, enc, dec) == 0);
	CHECK(isal_aes_xts_enc_256_expanded_key(enc2, enc, tw, LEN - 5, src[1], pt) == 0);
	CHECK(memcmp(pt, ct, LEN - 5) == 0);
	CHECK(isal_aes_xts_dec_256_expanded_key(enc2, dec, tw, LEN - 5, ct, pt) == 0);
	CHECK(memcmp(pt, src[1], LEN - 5) == 0);
	CHECK(isal_aes_keyexp_192(key, enc, dec) == 0);
	return mix(h, enc, 16 * 13);
}

/* One level, inflated back (isal_adler32 through the zlib wrapper, inf_adler32_copy for level
 * 0's stored blocks; with gzip set the gzip wrapper, crc32_gzip_refl and inf_crc32_gzip_copy):
 * one-shot over src[2], or
 * with stream set streaming over all of src (32 KiB in 4 KiB pieces), which at level 1 passes the
 * long-block checkpoint at 16 KiB that weighs histograms (defl_entropy) and no one-shot call of
 * LEN bytes reaches. */
static uint64_t deflate_level(uint32_t level, int stream, int gzip)
{
	const size_t len = stream ? 8 * LEN : LEN;
	const uint8_t *const in = stream ? src[0] : src[2];
	struct isal_zstream *s = malloc(sizeof(*s));
	struct inflate_state *st = malloc(sizeof(*st));
	const size_t lb_size = level > 3 ? ISAL_DEF_LVL10_DEFAULT : ISAL_DEF_LVL3_DEFAULT;
	uint8_t *lb = malloc(lb_size), *c = malloc(2 * len), *back = malloc(len);
	CHECK(s && st && lb && c && back);
	if (!s || !st || !lb || !c || !back)
		return 0;
	if (stream)
		isal_deflate_init(s);
	else
		isal_deflate_stateless_init(s);
	s->level = level;
	s->level_buf = lb;
	s->level_buf_size = (uint32_t)lb_size;
	s->gzip_flag = gzip ? IGZIP_GZIP : IGZIP_ZLIB;
	s->next_out = c;
	s->avail_out = (uint32_t)(2 * len);
	if (stream) {
		for (int i = 0; i < 8; i++) {
			s->next_in = src[i];
			s->avail_in = LEN;
			s->end_of_stream = i == 7;
			CHECK(isal_deflate(s) == COMP_OK && s->avail_in == 0);
		}
		CHECK(s->internal_state.state == ZSTATE_END);
	} else {
		s->next_in = (uint8_t *)(uintptr_t)in;
		s->avail_in = LEN;
		CHECK(isal_deflate_stateless(s) == COMP_OK);
	}
	isal_inflate_init(st);
	st->crc_flag = gzip ? ISAL_GZIP : ISAL_ZLIB;
	st->next_in = c;
	st->avail_in = s->total_out;
	st->next_out = back;
	st->avail_out = (uint32_t)len;
	CHECK(isal_inflate_stateless(st) == ISAL_DECOMP_OK && st->total_out == len);
	CHECK(memcmp(back, in, len) == 0);
	const uint64_t h = mix(0, c, s->total_out);
	free(s);
	free(st);
	free(lb);
	free(c);
	free(back);
	return h;
}

static uint64_t call_deflate0(void)
{
	return deflate_level(0, 0, 0) * 31 + deflate_level(0, 0, 1);
}
static uint64_t call_deflate1(void)
{
	return deflate_level(1, 0, 0);
}
static uint64_t call_deflate2(void)
{
	return deflate_level(2, 0, 0);
}
static uint64_t call_deflate3(void)
{
	return deflate_level(3, 0, 0);
}

/* Level 10's path (defl_path). */
static uint64_t call_deflate10(void)
{
	return deflate_level(10, 0, 0);
}

static uint64_t call_deflate_stream(void)
{
	return deflate_level(1, 1, 0);
}

/* A fixed-code stream (zlib's Z_FIXED) inflated one-shot and in 100-byte pieces: the process's
 * first fixed block builds the shared fixed-code tables (inf_fixed_shared), and threads arriving
 * while one builds them build their own. */
static uint64_t call_inflate_fixed(void)
{
	uLongf zn = compressBound(LEN);
	uint8_t *z = malloc(zn), *back = malloc(LEN);
	struct inflate_state *st = malloc(sizeof(*st));
	CHECK(z && back && st);
	if (!z || !back || !st)
		return 0;
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	CHECK(deflateInit2(&zs, 6, Z_DEFLATED, -15, 8, Z_FIXED) == Z_OK);
	zs.next_in = src[2];
	zs.avail_in = LEN;
	zs.next_out = z;
	zs.avail_out = (uInt)zn;
	CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END);
	zn = zs.total_out;
	deflateEnd(&zs);
	CHECK(((z[0] >> 1) & 3) == 1);
	for (int piece = 0; piece < 2; piece++) {
		isal_inflate_init(st);
		st->next_in = z;
		st->avail_in = piece ? 0 : (uint32_t)zn;
		st->next_out = back;
		st->avail_out = LEN;
		if (!piece) {
			CHECK(isal_inflate_stateless(st) == ISAL_DECOMP_OK);
		} else {
			while (st->block_state != ISAL_BLOCK_FINISH && st->next_in < z + zn) {
				const size_t left = (size_t)(z + zn - st->next_in);
				st->avail_in = (uint32_t)(left < 100 ? left : 100);
				CHECK(isal_inflate(st) == ISAL_DECOMP_OK);
			}
		}
		CHECK(st->total_out == LEN && memcmp(back, src[2], LEN) == 0);
	}
	const uint64_t h = mix(0, z, zn);
	free(z);
	free(back);
	free(st);
	return h;
}

static uint64_t call_report(void)
{
	char buf[4096];
	CHECK(stoa_cpu_report(buf, sizeof(buf)) > 0);
	return stoa_cpu_features_enabled();
}

static uint64_t (*const first_calls[])(void) = {
	call_crc,      call_crc64,    call_raid,     call_ec,     call_sha1,
	call_sha256,   call_sha512,   call_md5,      call_aes,    call_deflate0,
	call_deflate1, call_deflate2, call_deflate3, call_deflate10, call_deflate_stream,
	call_inflate_fixed, call_report,
};
#define NCALLS (sizeof(first_calls) / sizeof(first_calls[0]))

/* The table functions the calls above reach (directly, or through isal_deflate / isal_inflate
 * for the compressor's and decompressor's internal ones). */
static const char *const reached[] = {
	"crc16_t10dif",
	"crc16_t10dif_copy",
	"crc32_ieee",
	"crc32_gzip_refl",
	"crc32_iscsi",
	"crc64_ecma_refl",
	"crc64_ecma_norm",
	"crc64_iso_refl",
	"crc64_iso_norm",
	"crc64_jones_refl",
	"crc64_jones_norm",
	"crc64_rocksoft_refl",
	"crc64_rocksoft_norm",
	"xor_gen",
	"xor_check",
	"pq_gen",
	"pq_check",
	"isal_zero_detect",
	"ec_encode_data",
	"ec_encode_data_update",
	"gf_vect_dot_prod",
	"gf_vect_mad",
	"gf_vect_mul",
	"stoa_sha1",
	"stoa_sha256",
	"stoa_sha512",
	"stoa_md5",
	"sha1_ctx_mgr_init",
	"sha256_ctx_mgr_init",
	"sha512_ctx_mgr_init",
	"md5_ctx_mgr_init",
	"XTS_AES_128_enc",
	"XTS_AES_128_enc_expanded_key",
	"XTS_AES_128_dec",
	"XTS_AES_128_dec_expanded_key",
	"XTS_AES_256_enc",
	"XTS_AES_256_enc_expanded_key",
	"XTS_AES_256_dec",
	"XTS_AES_256_dec_expanded_key",
	"aes_keyexp_128",
	"aes_keyexp_192",
	"aes_keyexp_256",
	"inflate_huff",
	"inf_table_double",
	"isal_adler32",
	"inf_adler32_copy",
	"inf_crc32_gzip_copy",
	"defl_lvl0",
	"defl_tok_lvl1",
	"defl_tok_lvl2",
	"defl_tok_lvl3",
	"defl_write_tokens",
	"defl_entropy",
	"defl_path",
};

static pthread_barrier_t barrier;

struct first_result {
	int id;
	uint64_t sig[NCALLS];
};

static void *first_worker(void *arg)
{
	struct first_result *r = arg;
	pthread_barrier_wait(&barrier);
	for (size_t i = 0; i < NCALLS; i++) {
		const size_t j = (i + (size_t)r->id * 5) % NCALLS;
		r->sig[j] = first_calls[j]();
	}
	return NULL;
}

static void run_threads(void *(*fn)(void *), void *args, size_t size, int n)
{
	pthread_t t[NTHREADS + 1];
	for (int i = 0; i < n; i++)
		assert_int_equal(pthread_create(&t[i], NULL, fn, (char *)args + (size_t)i * size),
		                 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
}

static void check_failures(void)
{
	if (atomic_load(&failures))
		fail_msg("%d failed checks in the threads, the first %s", atomic_load(&failures),
		         first_failure);
}

static void test_first_calls(void **state)
{
	(void)state;
	for (size_t m = 0; stoa_modules[m]; m++)
		for (size_t i = 0; i < stoa_modules[m]->count; i++) {
			const char *name = stoa_modules[m]->funcs[i].name;
			size_t k = 0;
			while (k < sizeof(reached) / sizeof(reached[0]) && strcmp(reached[k], name))
				k++;
			if (k == sizeof(reached) / sizeof(reached[0]))
				fail_msg("%s: not called by test_first_calls", name);
		}
	static struct first_result res[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		res[i].id = i;
	assert_int_equal(pthread_barrier_init(&barrier, NULL, NTHREADS), 0);
	run_threads(first_worker, res, sizeof(res[0]), NTHREADS);
	pthread_barrier_destroy(&barrier);
	check_failures();
	for (int i = 1; i < NTHREADS; i++)
		for (size_t j = 0; j < NCALLS; j++)
			if (res[i].sig[j] != res[0].sig[j])
				fail_msg("thread %d: call %zu gave another result than thread 0", i,
				         j);
	print_message("%d threads made the first call of every dispatched function at once "
	              "(%zu groups, each in its own order per thread): same results\n",
	              NTHREADS, NCALLS);
}

/* ---- 2. the erasure-code cache ------------------------------------------------------------ */

#define OBJ 3000
static atomic_int clearing;

struct ec_job {
	int id;
};

static void *ec_worker(void *arg)
{
	const int id = ((struct ec_job *)arg)->id;
	static const int codes[3][2] = { { 6, 3 }, { 4, 4 }, { 10, 2 } };
	const int k = codes[id % 3][0], p = codes[id % 3][1], n = k + p;
	const int matrix = id % 2 ? STOA_EC_CAUCHY : STOA_EC_VANDERMONDE;
	const size_t fl = stoa_ec_fragment_len(OBJ, k);
	unsigned char *data[16], *parity[16], *frag[16], *keep[16];
	unsigned char *pad = malloc(stoa_ec_pad_len(OBJ, k) + 1);
	unsigned char *mem = malloc(2 * 16 * fl);
	CHECK(pad && mem);
	if (!pad || !mem)
		return NULL;
	for (int i = 0; i < p; i++)
		parity[i] = mem + (size_t)i * fl;
	CHECK(stoa_ec_encode(k, p, matrix, src[id % 8], OBJ, data, pad, parity) == 0);
	for (int i = 0; i < n; i++) {
		keep[i] = i < k ? data[i] : parity[i - k];
		frag[i] = mem + (size_t)(16 + i) * fl;
	}
	for (int round = 0; round < 60; round++) {
		/* Even rounds: the pattern all threads with this code share; odd: this thread's. */
		int lost[4], nl = 0;
		const int seed = round % 2 ? id * 7 + round : round;
		for (int j = 0; j < p && nl < 2; j++) {
			const int v = (seed + 5 * j) % n;
			int dup = 0;
			for (int q = 0; q < nl; q++)
				dup |= lost[q] == v;
			if (!dup)
				lost[nl++] = v;
		}
		for (int i = 0; i < n; i++)
			memcpy(frag[i], keep[i], fl);
		for (int q = 0; q < nl; q++)
			memset(frag[lost[q]], 0xee, fl);
		CHECK(stoa_ec_recover(k, p, matrix, fl, frag, lost, nl) == 0);
		for (int i = 0; i < n; i++)
			CHECK(memcmp(frag[i], keep[i], fl) == 0);
	}
	free(pad);
	free(mem);
	return NULL;
}

static void *ec_clearer(void *arg)
{
	(void)arg;
	while (atomic_load(&clearing))
		stoa_ec_cache_clear();
	return NULL;
}

static void test_ec_cache(void **state)
{
	(void)state;
	static struct ec_job jobs[NTHREADS];
	pthread_t c;
	atomic_store(&clearing, 1);
	assert_int_equal(pthread_create(&c, NULL, ec_clearer, NULL), 0);
	for (int i = 0; i < NTHREADS; i++)
		jobs[i].id = i;
	run_threads(ec_worker, jobs, sizeof(jobs[0]), NTHREADS);
	atomic_store(&clearing, 0);
	assert_int_equal(pthread_join(c, NULL), 0);
	check_failures();
	print_message("%d threads recovered shared and own loss patterns of three codes, 60 "
	              "rounds each, while a thread cleared the cache\n",
	              NTHREADS);
}

/* ---- 3. independent managers and streams ----------------------------------------------- */

static void *stream_worker(void *arg)
{
	const int id = ((struct ec_job *)arg)->id;
	/* A manager of its own hashing 8 messages of different lengths. */
	ISAL_SHA256_HASH_CTX_MGR *m = test_alloc64(sizeof(*m));
	ISAL_SHA256_HASH_CTX *c = test_alloc64(8 * sizeof(*c)), *out = NULL;
	CHECK(isal_sha256_ctx_mgr_init(m) == 0);
	for (int i = 0; i < 8; i++) {
		isal_hash_ctx_init(&c[i]);
		CHECK(isal_sha256_ctx_mgr_submit(m, &c[i], &out, src[i],
		                                 (uint32_t)(LEN - 97 * i - id),
		                                 ISAL_HASH_ENTIRE) == 0);
	}
	do
		CHECK(isal_sha256_ctx_mgr_flush(m, &out) == 0);
	while (out);
	for (int i = 0; i < 8; i++) {
		unsigned char d[32], w[32];
		stoa_sha256(src[i], (size_t)(LEN - 97 * i - id), d);
		for (int j = 0; j < 8; j++)
			for (int b = 0; b < 4; b++)
				w[4 * j + b] = (uint8_t)(c[i].job.result_digest[j] >> (24 - 8 * b));
		CHECK(memcmp(d, w, 32) == 0);
	}
	free(m);
	free(c);
	/* A deflate stream in 500-byte pieces, inflated in 300-byte steps. */
	struct isal_zstream *s = malloc(sizeof(*s));
	struct inflate_state *st = malloc(sizeof(*st));
	uint8_t *lb = malloc(ISAL_DEF_LVL3_DEFAULT), *cmp = malloc(8 * LEN),
	        *back = malloc(8 * LEN);
	CHECK(s && st && lb && cmp && back);
	if (!s || !st || !lb || !cmp || !back)
		return NULL;
	isal_deflate_init(s);
	s->level = (uint32_t)id % (ISAL_DEF_MAX_LEVEL + 1);
	s->level_buf = lb;
	s->level_buf_size = ISAL_DEF_LVL3_DEFAULT;
	s->gzip_flag = IGZIP_GZIP;
	s->next_out = cmp;
	s->avail_out = 8 * LEN;
	const uint8_t *in = (const uint8_t *)src;
	for (size_t pos = 0; pos < 8 * LEN; pos += 500) {
		s->next_in = (uint8_t *)(uintptr_t)in + pos;
		s->avail_in = (uint32_t)(8 * LEN - pos < 500 ? 8 * LEN - pos : 500);
		s->end_of_stream = pos + 500 >= 8 * LEN;
		CHECK(isal_deflate(s) == COMP_OK && s->avail_in == 0);
	}
	CHECK(s->internal_state.state == ZSTATE_END);
	isal_inflate_init(st);
	st->crc_flag = ISAL_GZIP;
	st->next_in = cmp;
	st->avail_in = s->total_out;
	size_t got = 0;
	for (int calls = 0; st->block_state != ISAL_BLOCK_FINISH && calls < 1000; calls++) {
		st->next_out = back + got;
		st->avail_out = (uint32_t)(8 * LEN - got < 300 ? 8 * LEN - got : 300);
		CHECK(isal_inflate(st) == ISAL_DECOMP_OK);
		got = st->total_out;
	}
	CHECK(got == 8 * LEN && memcmp(back, in, 8 * LEN) == 0);
	free(s);
	free(st);
	free(lb);
	free(cmp);
	free(back);
	return NULL;
}

static void test_streams(void **state)
{
	(void)state;
	static struct ec_job jobs[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		jobs[i].id = i;
	run_threads(stream_worker, jobs, sizeof(jobs[0]), NTHREADS);
	check_failures();
	print_message("%d threads, each with its own SHA-256 manager and a deflate and an inflate "
	              "stream (every level, gzip)\n",
	              NTHREADS);
}

int main(void)
{
	/* The data: no library call may come before test_first_calls. */
	for (int i = 0; i < 8; i++)
		for (size_t j = 0; j < LEN; j++)
			src[i][j] = (uint8_t)(i == 2 || i == 0
			                          ? "deflate the stream "[j % 19] ^ (j / 997)
			                          : (j * 2654435761u + (uint32_t)i * 40503u) >> 13);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_calls),
		cmocka_unit_test(test_ec_cache),
		cmocka_unit_test(test_streams),
	};
	return cmocka_run_group_tests_name("threads", tests, NULL, NULL);
}
