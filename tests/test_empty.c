/* Every function that takes a buffer, called with a NULL pointer and length 0.
 *
 * ISA-L's API allows a NULL buffer with length 0 (next_in = NULL, avail_in = 0 is how a stream
 * is finished or flushed without more input), and real callers pass it. The result must be that
 * of an empty input, with nothing read or written. memcpy(dst, NULL, 0) and NULL + 0 are
 * undefined behaviour in C, which the sanitizer builds stop on: make test SAN=1 (gcc: ASan +
 * UBSan) and make check-clang-san (clang's UBSan also reports NULL + 0).
 *
 * Every variant of every dispatched function in the modules' tables is called; a function this
 * file does not know fails the test, so that a new one gets its NULL/0 call here. (The
 * compressor's and decompressor's internal functions, which the API never hands a NULL, get a
 * pointer to an inaccessible page with length 0 instead.) Then the
 * APIs around them: the hash managers' old and checked submits, the stoa_ec helpers, XTS, and
 * deflate and inflate (every level, wrapper and flush, stateless and streaming, NULL input and
 * NULL output between pieces of real streams, dictionaries, the wrapper header functions). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <zlib.h>

#include "hash/hash_internal.h"
#include "igzip/deflate_internal.h"
#include "igzip/inflate_internal.h"
#include "isa-l.h"
#include "isa-l_crypto.h"
#include "stoa.h"
#include "testutil.h"

typedef uint16_t crc16_fn(uint16_t, const unsigned char *, uint64_t);
typedef uint16_t crc16_copy_fn(uint16_t, unsigned char *, unsigned char *, uint64_t);
typedef uint32_t adler_copy_fn(uint32_t, unsigned char *, const unsigned char *, uint64_t);
typedef uint32_t gzip_copy_fn(uint32_t, uint8_t *, const uint8_t *, uint64_t);
typedef uint32_t crc32_fn(uint32_t, const unsigned char *, uint64_t);
typedef unsigned int iscsi_fn(unsigned char *, int, unsigned int);
typedef uint64_t crc64_fn(uint64_t, const unsigned char *, uint64_t);
typedef int raid_fn(int, int, void **);
typedef int zero_fn(void *, size_t);
typedef void ec_fn(int, int, int, unsigned char *, unsigned char **, unsigned char **);
typedef void ec_update_fn(int, int, int, int, unsigned char *, unsigned char *, unsigned char **);
typedef void dot_fn(int, int, unsigned char *, unsigned char **, unsigned char *);
typedef void mad_fn(int, int, int, unsigned char *, unsigned char *, unsigned char **);
typedef int mul_fn(int, unsigned char *, void *, void *);
typedef void oneshot_fn(const void *, size_t, unsigned char *);
typedef void xts_fn(uint8_t *, uint8_t *, uint8_t *, uint64_t, const uint8_t *, uint8_t *);
typedef void keyexp_fn(const uint8_t *, uint8_t *, uint8_t *);

static int name_is(const char *name, const char *prefix)
{
	return strncmp(name, prefix, strlen(prefix)) == 0;
}

static void empty_digest(const char *alg, unsigned char *d)
{
	const EVP_MD *md = alg[0] == 'm'           ? EVP_md5()
	                   : strstr(alg, "sha1")   ? EVP_sha1()
	                   : strstr(alg, "sha256") ? EVP_sha256()
	                                           : EVP_sha512();
	assert_int_equal(EVP_Digest("", 0, d, NULL, md, NULL), 1);
}

/* A hash manager initialised by one lane-engine variant: the old submit with NULL, 0 as ENTIRE,
 * and as FIRST, UPDATE and LAST pieces, and the checked one with FIRST and LAST pieces give the
 * empty message's digest; the checked ENTIRE refuses NULL (isa-l_crypto's rule). SHA digests
 * are big-endian words, MD5's little-endian. */
#define MGR_EMPTY(alg, ALGU, WORDS, WORD_BYTES, BIG)                                               \
	static ISAL_##ALGU##_HASH_CTX *alg##_piece(ISAL_##ALGU##_HASH_CTX_MGR *mgr,                \
	                                           ISAL_##ALGU##_HASH_CTX *ctx, int checked,       \
	                                           ISAL_HASH_CTX_FLAG flag)                        \
	{                                                                                          \
		ISAL_##ALGU##_HASH_CTX *out = NULL;                                                \
		if (checked)                                                                       \
			assert_int_equal(                                                          \
			    isal_##alg##_ctx_mgr_submit(mgr, ctx, &out, NULL, 0, flag), 0);        \
		else                                                                               \
			out = alg##_ctx_mgr_submit(mgr, ctx, NULL, 0, flag);                       \
		for (int i = 0; !out && i < 64; i++)                                               \
			out = alg##_ctx_mgr_flush(mgr);                                            \
		assert_ptr_equal(out, ctx);                                                        \
		return out;                                                                        \
	}                                                                                          \
	static void alg##_mgr_empty(void (*init)(ISAL_##ALGU##_HASH_CTX_MGR *))                    \
	{                                                                                          \
		ISAL_##ALGU##_HASH_CTX_MGR *mgr = test_alloc64(sizeof(*mgr));                      \
		ISAL_##ALGU##_HASH_CTX *ctx = test_alloc64(sizeof(*ctx)), *out = NULL;             \
		unsigned char want[64], got[64];                                                   \
		empty_digest(#alg, want);                                                          \
		for (int way = 0; way < 3; way++) {                                                \
			init(mgr);                                                                 \
			isal_hash_ctx_init(ctx);                                                   \
			if (way == 0) {                                                            \
				out = alg##_piece(mgr, ctx, 0, ISAL_HASH_ENTIRE);                  \
			} else if (way == 1) {                                                     \
				alg##_piece(mgr, ctx, 0, ISAL_HASH_FIRST);                         \
				alg##_piece(mgr, ctx, 0, ISAL_HASH_UPDATE);                        \
				out = alg##_piece(mgr, ctx, 0, ISAL_HASH_LAST);                    \
			} else {                                                                   \
				assert_int_equal(isal_##alg##_ctx_mgr_submit(mgr, ctx, &out, NULL, \
				                                             0, ISAL_HASH_ENTIRE), \
				                 ISAL_CRYPTO_ERR_NULL_SRC);                        \
				alg##_piece(mgr, ctx, 1, ISAL_HASH_FIRST);                         \
				out = alg##_piece(mgr, ctx, 1, ISAL_HASH_LAST);                    \
			}                                                                          \
			assert_ptr_equal(out, ctx);                                                \
			assert_int_equal(ctx->error, ISAL_HASH_CTX_ERROR_NONE);                    \
			for (int w = 0; w < WORDS; w++)                                            \
				for (int b = 0; b < WORD_BYTES; b++)                               \
					got[w * WORD_BYTES + b] =                                  \
					    (uint8_t)(ctx->job.result_digest[w] >>                 \
					              (8 * (BIG ? WORD_BYTES - 1 - b : b)));       \
			assert_memory_equal(got, want, WORDS *WORD_BYTES);                         \
		}                                                                                  \
		free(mgr);                                                                         \
		free(ctx);                                                                         \
	}
MGR_EMPTY(sha1, SHA1, 5, 4, 1)
MGR_EMPTY(sha256, SHA256, 8, 4, 1)
MGR_EMPTY(sha512, SHA512, 8, 8, 1)
MGR_EMPTY(md5, MD5, 4, 4, 0)

/* Where the internal functions get their empty buffers: the first byte of a guard page. */
static uint8_t *nothing;

/* One variant of a table function with NULL buffers and length 0. Returns 0 when the name is
 * not known here. */
static int call_empty(const char *name, stoa_fnptr f)
{
	static unsigned char tables[32 * 4 * 4], key[32], exp[16 * 15], dec[16 * 15], tw[16];
	unsigned char *none[4] = { NULL, NULL, NULL, NULL };
	if (strcmp(name, "crc16_t10dif") == 0) {
		assert_int_equal(((crc16_fn *)f)(0x1234, NULL, 0), 0x1234);
	} else if (strcmp(name, "crc16_t10dif_copy") == 0) {
		assert_int_equal(((crc16_copy_fn *)f)(0x1234, NULL, NULL, 0), 0x1234);
	} else if (strcmp(name, "inf_table_double") == 0) {
		((inf_double_fn *)f)(NULL, 0);
	} else if (strcmp(name, "inf_adler32_copy") == 0) {
		assert_int_equal(((adler_copy_fn *)f)(0x12345678u, NULL, NULL, 0), 0x12345678u);
	} else if (strcmp(name, "inf_crc32_gzip_copy") == 0) {
		assert_int_equal(((gzip_copy_fn *)f)(0x12345678u, NULL, NULL, 0), 0x12345678u);
	} else if (name_is(name, "crc32_iscsi")) {
		assert_int_equal(((iscsi_fn *)f)(NULL, 0, 0x89abcdefu), 0x89abcdefu);
	} else if (name_is(name, "crc32_") || strcmp(name, "isal_adler32") == 0) {
		assert_int_equal(((crc32_fn *)f)(0x12345678u, NULL, 0), 0x12345678u);
	} else if (name_is(name, "crc64_")) {
		assert_true(((crc64_fn *)f)(0x0123456789abcdefull, NULL, 0) ==
		            0x0123456789abcdefull);
	} else if (name_is(name, "xor_") || name_is(name, "pq_")) {
		assert_int_equal(((raid_fn *)f)(4, 0, (void **)none), 0);
	} else if (strcmp(name, "isal_zero_detect") == 0) {
		assert_int_equal(((zero_fn *)f)(NULL, 0), 0);
	} else if (strcmp(name, "ec_encode_data") == 0) {
		((ec_fn *)f)(0, 2, 2, tables, none, none + 2);
	} else if (strcmp(name, "ec_encode_data_update") == 0) {
		((ec_update_fn *)f)(0, 2, 2, 1, tables, NULL, none);
	} else if (strcmp(name, "gf_vect_dot_prod") == 0) {
		((dot_fn *)f)(0, 2, tables, none, NULL);
	} else if (strcmp(name, "gf_vect_mad") == 0) {
		((mad_fn *)f)(0, 2, 1, tables, NULL, NULL);
	} else if (strcmp(name, "gf_vect_mul") == 0) {
		/* (A NULL buffer is refused, as documented.) */
		assert_int_equal(((mul_fn *)f)(0, tables, NULL, NULL), -1);
		assert_int_equal(((mul_fn *)f)(0, tables, key, key), 0);
	} else if (name_is(name, "stoa_sha") || strcmp(name, "stoa_md5") == 0) {
		unsigned char want[64], got[64];
		empty_digest(name + 5, want);
		((oneshot_fn *)f)(NULL, 0, got);
		assert_memory_equal(got, want,
		                    strstr(name, "512") ? 64
		                    : name[8] == '2'    ? 32
		                    : name[5] == 'm'    ? 16
		                                        : 20);
	} else if (name_is(name, "sha1_ctx")) {
		sha1_mgr_empty((void (*)(ISAL_SHA1_HASH_CTX_MGR *))f);
	} else if (name_is(name, "sha256_ctx")) {
		sha256_mgr_empty((void (*)(ISAL_SHA256_HASH_CTX_MGR *))f);
	} else if (name_is(name, "sha512_ctx")) {
		sha512_mgr_empty((void (*)(ISAL_SHA512_HASH_CTX_MGR *))f);
	} else if (name_is(name, "md5_ctx")) {
		md5_mgr_empty((void (*)(ISAL_MD5_HASH_CTX_MGR *))f);
	} else if (name_is(name, "XTS_AES_")) {
		/* The unchecked forms read and write nothing below 16 bytes. */
		((xts_fn *)f)(strstr(name, "expanded") ? exp : key,
		              strstr(name, "expanded") ? exp : key, tw, 0, NULL, NULL);
	} else if (name_is(name, "aes_keyexp_")) {
		((keyexp_fn *)f)(key, exp, dec); /* (fixed-size buffers only) */
	} else if (strcmp(name, "inflate_huff") == 0) {
		struct inf_priv *t = malloc(sizeof(*t));
		assert_non_null(t);
		inf_build_fixed(t, INF_HIST);
		struct inf_ctx c = { { nothing, nothing, 0, 0 },
			             nothing,
			             nothing,
			             nothing,
			             nothing,
			             nothing,
			             0,
			             t };
		assert_int_equal(((inf_block_fn *)f)(&c), INF_NEED_IN);
		free(t);
	} else if (strcmp(name, "defl_lvl0") == 0) {
		static uint16_t head[1u << DEFL_LVL0_HASH_BITS];
		uint8_t out[64];
		struct BitBuf2 b;
		bw_init(&b, out, sizeof(out));
		const struct defl_win w = { nothing, 0, 0, 0, DEFL_WIN_SIZE, 0, 0 };
		assert_int_equal(((defl_lvl0_fn *)f)(&b, defl_default_codes(), head, &w, 0, 0), 0);
		assert_ptr_equal(b.m_out_buf, out);
	} else if (name_is(name, "defl_tok_lvl")) {
		static uint16_t hash[1u << 16];
		static uint32_t tok[64];
		static struct defl_lvl L;
		L.par = defl_params((uint32_t)(name[12] - '0'));
		L.hash_bits = 16;
		L.hash = hash;
		L.tok = tok;
		L.tok_cap = 64;
		defl_lvl_block_reset(&L);
		const struct defl_win w = { nothing, 0, 0, 0, DEFL_WIN_SIZE, 0, 0 };
		assert_int_equal(((defl_tok_fn *)f)(&L, &w, 0, 0), 0);
		assert_int_equal(L.ntok, 0);
	} else if (strcmp(name, "defl_write_tokens") == 0) {
		uint8_t out[64];
		struct BitBuf2 b;
		bw_init(&b, out, sizeof(out));
		assert_int_equal(((defl_write_tokens_fn *)f)(&b, defl_default_codes(),
		                                             (const uint32_t *)nothing, 0),
		                 0);
	} else if (strcmp(name, "defl_entropy") == 0) {
		assert_int_equal(((defl_entropy_fn *)f)((const uint32_t *)nothing, 0), 0);
	} else if (strcmp(name, "defl_path") == 0) {
		/* No positions: the path's end costs nothing, and nothing else is written. */
		static struct defl_opt o;
		o.cost[0] = 7;
		o.choice[0] = 7;
		((defl_path_fn *)f)(&o, nothing, 0, NULL);
		assert_int_equal(o.cost[0], 0);
		assert_int_equal(o.choice[0], 7);
	} else {
		return 0;
	}
	return 1;
}

static void test_table_functions(void **state)
{
	(void)state;
	unsigned long calls = 0, funcs = 0;
	for (size_t m = 0; stoa_modules[m]; m++) {
		const struct stoa_module *mod = stoa_modules[m];
		for (size_t i = 0; i < mod->count; i++, funcs++) {
			const struct stoa_func *sf = &mod->funcs[i];
			for (size_t v = 0; v < sf->count; v++) {
				if (!stoa_variant_usable(&sf->variants[v]))
					continue;
				if (!call_empty(sf->name, sf->variants[v].fn))
					fail_msg("%s: no NULL/0 call in test_empty.c", sf->name);
				calls++;
			}
		}
	}
	print_message("%lu functions of the variant tables, %lu usable variants, each with NULL "
	              "buffers and length 0\n",
	              funcs, calls);
}

/* The public entry points that are not table functions themselves. */
static void test_other_entry_points(void **state)
{
	(void)state;
	unsigned char *none[8] = { NULL };
	unsigned char key[32] = { 1 }, tw[16] = { 2 }, buf[32];
	assert_int_equal(isal_aes_xts_enc_128(key, key, tw, 0, NULL, NULL),
	                 ISAL_CRYPTO_ERR_NULL_SRC);
	assert_int_equal(isal_aes_xts_dec_256(key, key, tw, 0, buf, NULL),
	                 ISAL_CRYPTO_ERR_NULL_DST);
	assert_int_equal(isal_aes_xts_enc_256(key, key, tw, 0, buf, buf), ISAL_CRYPTO_ERR_CIPH_LEN);
	/* Empty objects and fragments: nothing to encode or recover. */
	assert_int_equal(stoa_ec_fragment_len(0, 4), 0);
	assert_int_equal(stoa_ec_pad_len(0, 4), 0);
	/* (An object of size 0 is refused, as documented.) */
	assert_int_equal(stoa_ec_encode(4, 2, STOA_EC_CAUCHY, NULL, 0, none, NULL, none + 4),
	                 STOA_EC_EINVAL);
	const int lost[1] = { 1 };
	unsigned char *frags[6] = { buf, buf, buf, buf, buf, buf };
	assert_int_equal(stoa_ec_recover(4, 2, STOA_EC_CAUCHY, 0, frags, lost, 1), 0);
	assert_int_equal(stoa_ec_recover(4, 2, STOA_EC_CAUCHY, 0, frags, NULL, 0), 0);
	/* The _base functions ISA-L exports. */
	assert_int_equal(crc32_iscsi_base(NULL, 0, 7), 7);
	assert_int_equal(crc16_t10dif_copy_base(7, NULL, NULL, 0), 7);
	assert_int_equal(xor_gen_base(3, 0, (void **)none), 0);
	assert_int_equal(pq_check_base(4, 0, (void **)none), 0);
	assert_int_equal(gf_vect_mul_base(0, buf, NULL, NULL), -1);
	assert_int_equal(gf_vect_mul_base(0, buf, buf, buf), 0);
	ec_encode_data_base(0, 2, 2, buf, none, none + 2);
	struct isal_huff_histogram h;
	memset(&h, 0, sizeof(h));
	isal_update_histogram(NULL, 0, &h);
	for (size_t i = 0; i < ISAL_DEF_LIT_LEN_SYMBOLS; i++)
		assert_true(h.lit_len_histogram[i] == 0);
	print_message("XTS, stoa_ec_encode/recover, the exported _base functions and "
	              "isal_update_histogram with NULL/0\n");
}

/* Inflate out[0 .. n) with zlib (raw, gzip or zlib by windowBits) and compare. */
static void zlib_check(const uint8_t *cmp, size_t m, int wbits, const uint8_t *want, size_t n)
{
	uint8_t *plain = malloc(n + 1);
	assert_non_null(plain);
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, wbits), Z_OK);
	z.next_in = (uint8_t *)(uintptr_t)cmp;
	z.avail_in = (uInt)m;
	z.next_out = plain;
	z.avail_out = (uInt)n + 1;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	assert_int_equal(z.total_out, n);
	if (n)
		assert_memory_equal(plain, want, n);
	inflateEnd(&z);
	free(plain);
}

static const int zlib_wbits[5] = { -15, 31, -15, 15, -15 };

/* Deflate: every level, wrapper and flush, stateless and streaming, with next_in NULL (the
 * whole input, or between its pieces) and next_out NULL with no room between calls. */
static void test_deflate(void **state)
{
	(void)state;
	static uint8_t lb[ISAL_DEF_LVL3_DEFAULT], out[4096];
	static const uint8_t text[] = "an empty call between two pieces: an empty call";
	struct isal_zstream *s = malloc(sizeof(*s));
	assert_non_null(s);
	unsigned long cases = 0;
	for (uint32_t level = 0; level <= ISAL_DEF_MAX_LEVEL; level++) {
		for (uint16_t wrapper = 0; wrapper < 5; wrapper++) {
			for (int mode = 0; mode < 5; mode++) {
				/* Streaming with each flush; stateless with NO_FLUSH and
				 * FULL_FLUSH. */
				const int stateless = mode >= 3;
				const int flush = mode < 3    ? mode
				                  : mode == 3 ? NO_FLUSH
				                              : FULL_FLUSH;
				for (int piece = 0; piece < 2; piece++, cases++) {
					isal_deflate_init(s);
					s->level = level;
					s->level_buf = lb;
					s->level_buf_size = sizeof(lb);
					s->gzip_flag = wrapper;
					s->flush = flush;
					size_t n = 0;
					uint32_t produced = 0;
					if (stateless) {
						/* No room at all, then the whole (empty) input. */
						s->end_of_stream = 1;
						assert_int_equal(isal_deflate_stateless(s),
						                 STATELESS_OVERFLOW);
						assert_null(s->next_out);
						s->next_out = out;
						s->avail_out = sizeof(out);
						assert_int_equal(isal_deflate_stateless(s),
						                 COMP_OK);
						assert_null(s->next_in);
						produced = s->total_out;
						zlib_check(out, produced, zlib_wbits[wrapper], text,
						           0);
						continue;
					}
					/* Piece 1: a call with no input and no room, then (piece) a
					 * real piece, then NULL input and NULL output calls. */
					assert_int_equal(isal_deflate(s), COMP_OK);
					assert_true(s->next_in == NULL && s->next_out == NULL);
					if (piece) {
						s->next_in = (uint8_t *)(uintptr_t)text;
						s->avail_in = 20;
						s->next_out = out;
						s->avail_out = sizeof(out);
						assert_int_equal(isal_deflate(s), COMP_OK);
						produced = s->total_out;
						n = 20;
						s->next_in = NULL;
						s->next_out = NULL;
						s->avail_out = 0;
						assert_int_equal(isal_deflate(s), COMP_OK);
						s->next_in = (uint8_t *)(uintptr_t)text + 20;
						s->avail_in = sizeof(text) - 20;
						n = sizeof(text);
					}
					s->end_of_stream = 1;
					for (int calls = 0; s->internal_state.state != ZSTATE_END;
					     calls++) {
						assert_true(calls < 100);
						s->next_out = out + produced;
						s->avail_out = (uint32_t)sizeof(out) - produced;
						assert_int_equal(isal_deflate(s), COMP_OK);
						produced = s->total_out;
						if (!s->avail_in)
							s->next_in = NULL;
					}
					zlib_check(out, produced, zlib_wbits[wrapper], text, n);
				}
			}
		}
	}
	/* Dictionaries: NULL is refused; an empty one is no dictionary. */
	isal_deflate_init(s);
	assert_int_equal(isal_deflate_set_dict(s, NULL, 0), ISAL_INVALID_STATE);
	struct isal_dict *d = malloc(sizeof(*d));
	assert_non_null(d);
	assert_int_not_equal(isal_deflate_process_dict(s, d, NULL, 0), COMP_OK);
	assert_int_equal(isal_deflate_process_dict(s, d, out, 0), COMP_OK);
	assert_int_equal(isal_deflate_reset_dict(s, d), COMP_OK);
	s->end_of_stream = 1;
	s->next_out = out;
	s->avail_out = sizeof(out);
	assert_int_equal(isal_deflate_stateless(s), COMP_OK);
	zlib_check(out, s->total_out, -15, text, 0);
	/* Wrapper headers with no room and no name, comment or extra buffers. */
	struct isal_gzip_header gh;
	isal_gzip_header_init(&gh);
	struct isal_zlib_header zh = { 7, 0, 0, 0 };
	isal_deflate_init(s);
	assert_true(isal_write_gzip_header(s, &gh) > 0);
	assert_true(isal_write_zlib_header(s, &zh) > 0);
	assert_true(s->next_out == NULL && s->total_out == 0);
	free(d);
	free(s);
	print_message("deflate: %lu cases (every level, wrapper, flush; stateless and "
	              "streaming) with NULL input and output, dictionaries, header writers\n",
	              cases);
}

/* Inflate: empty calls on a fresh state for every wrapper, and a real stream for each wrapper
 * fed a byte at a time with NULL input and NULL output calls between (headers and block
 * headers cut at every byte, so the stash of a partial header meets NULL input). */
static void test_inflate(void **state)
{
	(void)state;
	static const uint8_t text[] = "a stream fed a byte at a time, with empty calls between";
	static const uint32_t flags[5] = { ISAL_DEFLATE, ISAL_GZIP, ISAL_GZIP_NO_HDR_VER, ISAL_ZLIB,
		                           ISAL_ZLIB_NO_HDR_VER };
	struct inflate_state *st = malloc(sizeof(*st));
	uint8_t cmp[256], out[256];
	assert_non_null(st);
	for (int w = 0; w < 5; w++) {
		isal_inflate_init(st);
		st->crc_flag = flags[w];
		st->next_out = NULL;
		st->avail_out = 0;
		assert_int_equal(isal_inflate(st), ISAL_DECOMP_OK);
		assert_true(st->next_in == NULL && st->next_out == NULL);
		assert_int_equal(isal_inflate_stateless(st), ISAL_END_INPUT);
		assert_true(st->next_in == NULL && st->next_out == NULL);
		isal_inflate_init(st);
		assert_int_equal(isal_inflate_set_dict(st, NULL, 0), COMP_OK);
		/* A real stream (dynamic codes, level 3) from stoa's deflate. */
		struct isal_zstream *s = malloc(sizeof(*s));
		static uint8_t lb[ISAL_DEF_LVL3_DEFAULT];
		assert_non_null(s);
		isal_deflate_init(s);
		s->level = 3;
		s->level_buf = lb;
		s->level_buf_size = sizeof(lb);
		s->gzip_flag = (uint16_t)w;
		s->end_of_stream = 1;
		s->next_in = (uint8_t *)(uintptr_t)text;
		s->avail_in = sizeof(text);
		s->next_out = cmp;
		s->avail_out = sizeof(cmp);
		assert_int_equal(isal_deflate_stateless(s), COMP_OK);
		const size_t m = s->total_out;
		free(s);
		isal_inflate_init(st);
		st->crc_flag = flags[w];
		size_t pos = 0, got = 0;
		for (int calls = 0; st->block_state != ISAL_BLOCK_FINISH; calls++) {
			assert_true(calls < 4000);
			const int empty_in = calls % 3 == 1, empty_out = calls % 3 == 2;
			st->next_in = empty_in || pos == m ? NULL : cmp + pos;
			st->avail_in = empty_in || pos == m ? 0 : 1;
			st->next_out = empty_out ? NULL : out + got;
			st->avail_out = empty_out ? 0 : (uint32_t)(sizeof(out) - got);
			assert_int_equal(isal_inflate(st), ISAL_DECOMP_OK);
			if (!empty_in && pos < m)
				pos += 1 - st->avail_in;
			if (!empty_out)
				got = st->total_out;
			else
				assert_null(st->next_out);
		}
		assert_int_equal(got, sizeof(text));
		assert_memory_equal(out, text, sizeof(text));
	}
	/* Header readers: no input, then a whole header with NULL and with empty field
	 * buffers. */
	struct isal_gzip_header gh;
	struct isal_zlib_header zh;
	isal_gzip_header_init(&gh);
	isal_inflate_init(st);
	assert_int_equal(isal_read_gzip_header(st, &gh), ISAL_END_INPUT);
	isal_inflate_init(st);
	assert_int_equal(isal_read_zlib_header(st, &zh), ISAL_END_INPUT);
	static const uint8_t gz[] = { 0x1f, 0x8b, 8, 0x1c, 0,   0,   0, 0,   0,
		                      3,    2,    0, 'x',  'y', 'n', 0, 'c', 0 };
	/* NULL field buffers skip the fields; buffers of length 0 overflow at once. */
	uint8_t one[1];
	for (int nul = 0; nul < 2; nul++) {
		isal_gzip_header_init(&gh);
		if (!nul) {
			gh.extra = one;
			gh.name = (char *)one;
			gh.comment = (char *)one;
		}
		isal_inflate_init(st);
		st->next_in = (uint8_t *)(uintptr_t)gz;
		st->avail_in = sizeof(gz);
		assert_int_equal(isal_read_gzip_header(st, &gh),
		                 nul ? ISAL_DECOMP_OK : ISAL_EXTRA_OVERFLOW);
	}
	free(st);
	print_message("inflate: empty calls for every wrapper, streams fed a byte at a time with "
	              "NULL input and output between, header readers with no input and NULL "
	              "field buffers\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_functions),
		cmocka_unit_test(test_other_entry_points),
		cmocka_unit_test(test_deflate),
		cmocka_unit_test(test_inflate),
	};
	nothing = guard_alloc(0, GUARD_BACK);
	const int r = cmocka_run_group_tests_name("empty", tests, NULL, NULL);
	guard_free(nothing, 0, GUARD_BACK);
	return r;
}
