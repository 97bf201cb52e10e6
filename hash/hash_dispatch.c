/* Hash engine tables, best first, and the exported entry points: the managers' init (which picks
 * the engines), the checked isal_* API and the older one, and the one-call stoa_* hashes. */
#include "hash_internal.h"
#include "isa-l_crypto/isal_crypto_api.h"

/*
 * Single-stream engines: the one-call hashes use the first usable one (the table's entries are
 * the one-call hash on each engine; <alg>_singles holds the engines themselves), and every
 * manager uses it for its few-jobs moments. Lane engines: one init variant each, which sets
 * the manager up with that lane engine and the best single-stream engine. `few` (lane_engines)
 * is where the lanes' aggregate overtakes one stream, from perf_hash.c's job-count sweep on
 * Zen 5.
 */
#if defined(__x86_64__)
#define HASH_SINGLES_SHANI(alg)                                                                    \
	HASH_ONESHOT_FN(alg, shani)                                                                \
	HASH_ONESHOT_FN(alg, portable)                                                             \
	const struct stoa_variant stoa_##alg##_variants[] = {                                      \
		STOA_ENTRY(shani, stoa_##alg##_shani),                                             \
		STOA_BASE(stoa_##alg##_portable),                                                  \
	};                                                                                         \
	const struct alg##_single alg##_singles[] = {                                              \
		{ alg##_x1_shani, alg##_x2_shani, 1 },                                             \
		{ alg##_x1_portable, NULL, 0 },                                                    \
	};
#define HASH_LANES(alg, wide, wide_n, wide_fast, wide_slow, wide_half, narrow, narrow_n,           \
                   narrow_fast, narrow_slow, narrow_half)                                          \
	HASH_INIT_FN(alg, 0)                                                                       \
	HASH_INIT_FN(alg, 1)                                                                       \
	HASH_INIT_FN(alg, 2)                                                                       \
	const struct stoa_variant alg##_ctx_mgr_init_variants[] = {                                \
		STOA_ENTRY(avx512, alg##_init_lanes_0),                                            \
		STOA_ENTRY(avx2, alg##_init_lanes_1),                                              \
		STOA_BASE(alg##_init_lanes_2),                                                     \
	};                                                                                         \
	const struct alg##_lanes alg##_lane_engines[] = {                                          \
		{ wide_n, wide, wide_fast, wide_slow, wide_half },                                 \
		{ narrow_n, narrow, narrow_fast, narrow_slow, narrow_half },                       \
		{ 0, NULL, 0, 0, NULL },                                                           \
	};
#endif

#define HASH_SINGLES_BASE(alg)                                                                     \
	HASH_ONESHOT_FN(alg, portable)                                                             \
	const struct stoa_variant stoa_##alg##_variants[] = {                                      \
		STOA_BASE(stoa_##alg##_portable),                                                  \
	};                                                                                         \
	const struct alg##_single alg##_singles[] = {                                              \
		{ alg##_x1_portable, NULL, 0 },                                                    \
	};
#define HASH_LANES_BASE(alg)                                                                       \
	HASH_INIT_FN(alg, 0)                                                                       \
	const struct stoa_variant alg##_ctx_mgr_init_variants[] = {                                \
		STOA_BASE(alg##_init_lanes_0),                                                     \
	};                                                                                         \
	const struct alg##_lanes alg##_lane_engines[] = {                                          \
		{ 0, NULL, 0, 0, NULL },                                                           \
	};

/* The one-call hash on one single-stream engine: the entries of stoa_<alg>_variants. */
#define HASH_ONESHOT_FN(alg, engine)                                                               \
	static void stoa_##alg##_##engine(const void *buf, size_t len, unsigned char *digest)      \
	{                                                                                          \
		alg##_oneshot(alg##_x1_##engine, buf, len, digest);                                \
	}

#define HASH_INIT_FN(alg, i)                                                                       \
	static void alg##_init_lanes_##i(ISAL_##alg##_HASH_CTX_MGR *m)                             \
	{                                                                                          \
		alg##_mgr_setup(m, i, hash_single_pick(stoa_##alg##_variants, alg##_nsingles));    \
	}

unsigned hash_single_pick(const struct stoa_variant *table, size_t count)
{
	return (unsigned)(stoa_select(table, count) - table);
}

/* The API's type names are upper case; the engines' prefixes lower case. */
#define ISAL_sha1_HASH_CTX_MGR   ISAL_SHA1_HASH_CTX_MGR
#define ISAL_sha256_HASH_CTX_MGR ISAL_SHA256_HASH_CTX_MGR
#define ISAL_sha512_HASH_CTX_MGR ISAL_SHA512_HASH_CTX_MGR
#define ISAL_md5_HASH_CTX_MGR    ISAL_MD5_HASH_CTX_MGR

#if defined(__x86_64__)
HASH_SINGLES_SHANI(sha1)
HASH_SINGLES_SHANI(sha256)
/* SHA-512 has no SHA-NI rounds here: scalar BMI2 rounds beside an AVX2 message schedule of two
 * blocks at once (hash/x86/sha512_avx2.c), one stream; with AVX-512VL two streams go through
 * the vector rounds of hash/x86/sha512_avx512.c instead (the avx512 entry's one-call hash is the
 * same scalar single stream). */
HASH_ONESHOT_FN(sha512, avx512)
HASH_ONESHOT_FN(sha512, avx2)
HASH_ONESHOT_FN(sha512, portable)
const struct stoa_variant stoa_sha512_variants[] = {
	STOA_ENTRY(avx512, stoa_sha512_avx512),
	STOA_ENTRY(avx2, stoa_sha512_avx2),
	STOA_BASE(stoa_sha512_portable),
};
const struct sha512_single sha512_singles[] = {
	{ sha512_x1_avx512, sha512_x2_avx512, 0 },
	{ sha512_x1_avx2, sha512_x2_avx2, 0 },
	{ sha512_x1_portable, NULL, 0 },
};
#else
HASH_SINGLES_BASE(sha1)
HASH_SINGLES_BASE(sha256)
HASH_SINGLES_BASE(sha512)
#endif
HASH_SINGLES_BASE(md5)
#define sha1_nsingles   STOA_COUNT(sha1_singles)
#define sha256_nsingles STOA_COUNT(sha256_singles)
#define sha512_nsingles STOA_COUNT(sha512_singles)
#define md5_nsingles    STOA_COUNT(md5_singles)
#if defined(__x86_64__)
/* Zen 5, 4 and 64 KiB jobs: one pair of SHA-NI streams takes 0.27 (SHA-1) and 0.16 (SHA-256)
 * of the time of one call of the 16 AVX-512 lanes on the same length, and n jobs take
 * ceil(n / 2) pairs, so the lanes win from 7 (SHA-1) and 13 (SHA-256) busy ones on; SHA-NI
 * beats the 8 AVX2 lanes always. One call of the 8 SHA-512 lanes takes 2.1-2.3 times the
 * single stream's time on the same length, so up to 2 jobs go through that (with AVX-512VL
 * both at once in its two-stream form: Zen 4, 1.2 times one stream's time);
 * one set of 16 AVX-512 MD5 lanes takes 1.6-1.7 times the portable single stream's (8 AVX2
 * lanes 1.5 times), so 2 jobs already go to the lanes (4 KiB: 1.18x the two single streams'
 * speed). MD5 runs up to 16 jobs (AVX2: 8) in one set of lanes, more in two. */
HASH_LANES(sha1, sha1_x16_avx512, 16, 6, 1, NULL, sha1_x8_avx2, 8, 8, 1, NULL)
HASH_LANES(sha256, sha256_x16_avx512, 16, 12, 1, NULL, sha256_x8_avx2, 8, 8, 1, NULL)
HASH_LANES(sha512, sha512_x8_avx512, 8, 2, 2, NULL, sha512_x4_avx2, 4, 2, 2, NULL)
HASH_LANES(md5, md5_x32_avx512, 32, 1, 1, md5_x16_avx512, md5_x16_avx2, 16, 1, 1, md5_x8_avx2)
#else
HASH_LANES_BASE(sha1)
HASH_LANES_BASE(sha256)
HASH_LANES_BASE(sha512)
HASH_LANES_BASE(md5)
#endif

const size_t hash_single_count[4] = { STOA_COUNT(stoa_sha1_variants),
	                              STOA_COUNT(stoa_sha256_variants),
	                              STOA_COUNT(stoa_sha512_variants),
	                              STOA_COUNT(stoa_md5_variants) };
const size_t hash_lanes_count[4] = { STOA_COUNT(sha1_ctx_mgr_init_variants),
	                             STOA_COUNT(sha256_ctx_mgr_init_variants),
	                             STOA_COUNT(sha512_ctx_mgr_init_variants),
	                             STOA_COUNT(md5_ctx_mgr_init_variants) };

/* One algorithm's exported functions. */
#define HASH_API(alg, CTX, MGR)                                                                    \
	STOA_DISPATCH(void, alg##_ctx_mgr_init, (MGR * mgr), (mgr))                                \
	STOA_API CTX *alg##_ctx_mgr_submit(MGR *mgr, CTX *ctx, const void *buffer, uint32_t len,   \
	                                   ISAL_HASH_CTX_FLAG flags)                               \
	{                                                                                          \
		return alg##_mgr_submit(mgr, ctx, buffer, len, (int)flags);                        \
	}                                                                                          \
	STOA_API CTX *alg##_ctx_mgr_flush(MGR *mgr)                                                \
	{                                                                                          \
		return alg##_mgr_flush(mgr);                                                       \
	}                                                                                          \
	STOA_API int isal_##alg##_ctx_mgr_init(MGR *mgr)                                           \
	{                                                                                          \
		if (!mgr)                                                                          \
			return ISAL_CRYPTO_ERR_NULL_MGR;                                           \
		alg##_ctx_mgr_init(mgr);                                                           \
		return 0;                                                                          \
	}                                                                                          \
	STOA_API int isal_##alg##_ctx_mgr_submit(MGR *mgr, CTX *ctx_in, CTX **ctx_out,             \
	                                         const void *buffer, const uint32_t len,           \
	                                         const ISAL_HASH_CTX_FLAG flags)                   \
	{                                                                                          \
		if (!mgr)                                                                          \
			return ISAL_CRYPTO_ERR_NULL_MGR;                                           \
		if (!ctx_in || !ctx_out)                                                           \
			return ISAL_CRYPTO_ERR_NULL_CTX;                                           \
		if (!buffer && (len || flags == ISAL_HASH_UPDATE || flags == ISAL_HASH_ENTIRE))    \
			return ISAL_CRYPTO_ERR_NULL_SRC;                                           \
		CTX *out = alg##_mgr_submit(mgr, ctx_in, buffer, len, (int)flags);                 \
		*ctx_out = out;                                                                    \
		return hash_error_code(out ? out->error : ISAL_HASH_CTX_ERROR_NONE);               \
	}                                                                                          \
	STOA_API int isal_##alg##_ctx_mgr_flush(MGR *mgr, CTX **ctx_out)                           \
	{                                                                                          \
		if (!mgr)                                                                          \
			return ISAL_CRYPTO_ERR_NULL_MGR;                                           \
		if (!ctx_out)                                                                      \
			return ISAL_CRYPTO_ERR_NULL_CTX;                                           \
		*ctx_out = alg##_mgr_flush(mgr);                                                   \
		return 0;                                                                          \
	}                                                                                          \
	STOA_DISPATCH(void, stoa_##alg, (const void *buf, size_t len, unsigned char *digest),      \
	              (buf, len, digest))

static int hash_error_code(int ctx_error)
{
	switch (ctx_error) {
	case ISAL_HASH_CTX_ERROR_NONE:
		return 0;
	case ISAL_HASH_CTX_ERROR_INVALID_FLAGS:
		return ISAL_CRYPTO_ERR_INVALID_FLAGS;
	case ISAL_HASH_CTX_ERROR_ALREADY_PROCESSING:
		return ISAL_CRYPTO_ERR_ALREADY_PROCESSING;
	default:
		return ISAL_CRYPTO_ERR_ALREADY_COMPLETED;
	}
}

HASH_API(sha1, ISAL_SHA1_HASH_CTX, ISAL_SHA1_HASH_CTX_MGR)
HASH_API(sha256, ISAL_SHA256_HASH_CTX, ISAL_SHA256_HASH_CTX_MGR)
HASH_API(sha512, ISAL_SHA512_HASH_CTX, ISAL_SHA512_HASH_CTX_MGR)
HASH_API(md5, ISAL_MD5_HASH_CTX, ISAL_MD5_HASH_CTX_MGR)

static const struct stoa_func hash_funcs[] = {
	STOA_FUNC(stoa_sha1),           STOA_FUNC(stoa_sha256),
	STOA_FUNC(stoa_sha512),         STOA_FUNC(stoa_md5),
	STOA_FUNC(sha1_ctx_mgr_init),   STOA_FUNC(sha256_ctx_mgr_init),
	STOA_FUNC(sha512_ctx_mgr_init), STOA_FUNC(md5_ctx_mgr_init),
};

const struct stoa_module stoa_module_hash = { "hash", hash_funcs, STOA_COUNT(hash_funcs) };
