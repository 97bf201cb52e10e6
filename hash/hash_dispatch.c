/* Hash engine tables, best first, and the exported entry points: the managers' init (which picks
 * the engines), the checked isal_* API and the older one, and the one-call stoa_* hashes. */
#include "hash_internal.h"
#include "isa-l_crypto/isal_crypto_api.h"

#ifdef STOA_ARCH
#include STOA_ARCH_HEADER(hash, hash)
#else
#define HASH_ARCH_SINGLES(alg, S)
#define HASH_ARCH_LANES(alg, L)
#endif

/*
 * Single-stream engines: the one-call hashes use the first usable one (the entries of
 * stoa_<alg>_variants are the one-call hash on each engine; <alg>_singles holds the engines
 * themselves), and every manager uses it for its few-jobs moments. Lane engines: one init
 * variant each, which sets the manager up with that lane engine and the best single-stream
 * engine. The architecture's engines (HASH_ARCH_SINGLES, HASH_ARCH_LANES) come first, each list
 * expanded once per table below so that the parallel tables stay in step.
 */
#define HASH_ONESHOT_FN(alg, token, x1, x2, fast)                                                  \
	static void stoa_##alg##_##token(const void *buf, size_t len, unsigned char *digest)       \
	{                                                                                          \
		alg##_oneshot(x1, buf, len, digest);                                               \
	}
#define HASH_ONESHOT_ENTRY(alg, token, x1, x2, fast) STOA_ENTRY(token, stoa_##alg##_##token)
#define HASH_SINGLE(alg, token, x1, x2, fast) { x1, x2, fast },

#define HASH_LANE_INDEX(alg, token, width, fn, few_fast, few_slow, half) alg##_lane_index_##token,
#define HASH_INIT_FN(alg, token, width, fn, few_fast, few_slow, half)                              \
	static void alg##_init_##token(ISAL_##alg##_HASH_CTX_MGR *m)                               \
	{                                                                                          \
		unsigned single =                                                                  \
			hash_single_pick(stoa_##alg##_variants, STOA_COUNT(alg##_singles));        \
		alg##_mgr_setup(m, alg##_lane_index_##token, single);                              \
	}
#define HASH_INIT_ENTRY(alg, token, width, fn, few_fast, few_slow, half)                           \
	STOA_ENTRY(token, alg##_init_##token)
#define HASH_LANES(alg, token, width, fn, few_fast, few_slow, half)                                \
	{ width, fn, few_fast, few_slow, half },

#define HASH_TABLES(alg)                                                                           \
	HASH_ARCH_SINGLES(alg, HASH_ONESHOT_FN)                                                    \
	HASH_ONESHOT_FN(alg, portable, alg##_x1_portable, NULL, 0)                                 \
	const struct stoa_variant stoa_##alg##_variants[] = {                                      \
		HASH_ARCH_SINGLES(alg, HASH_ONESHOT_ENTRY) STOA_BASE(stoa_##alg##_portable),       \
	};                                                                                         \
	const struct alg##_single alg##_singles[] = {                                              \
		HASH_ARCH_SINGLES(alg, HASH_SINGLE){ alg##_x1_portable, NULL, 0 },                 \
	};                                                                                         \
	enum { HASH_ARCH_LANES(alg, HASH_LANE_INDEX) alg##_lane_index_portable };                  \
	HASH_ARCH_LANES(alg, HASH_INIT_FN)                                                         \
	HASH_INIT_FN(alg, portable, 0, NULL, 0, 0, NULL)                                           \
	const struct stoa_variant alg##_ctx_mgr_init_variants[] = {                                \
		HASH_ARCH_LANES(alg, HASH_INIT_ENTRY) STOA_BASE(alg##_init_portable),              \
	};                                                                                         \
	const struct alg##_lanes alg##_lane_engines[] = {                                          \
		HASH_ARCH_LANES(alg, HASH_LANES){ 0, NULL, 0, 0, NULL },                           \
	};

unsigned hash_single_pick(const struct stoa_variant *table, size_t count)
{
	return (unsigned)(stoa_select(table, count) - table);
}

unsigned hash_few(unsigned alg, unsigned width, unsigned few, int fast)
{
#ifdef HASH_ARCH_FEW
	return HASH_ARCH_FEW(alg, width, few, fast);
#else
	(void)alg;
	(void)width;
	(void)fast;
	return few;
#endif
}

/* The API's type names are upper case; the engines' prefixes lower case. */
#define ISAL_sha1_HASH_CTX_MGR   ISAL_SHA1_HASH_CTX_MGR
#define ISAL_sha256_HASH_CTX_MGR ISAL_SHA256_HASH_CTX_MGR
#define ISAL_sha512_HASH_CTX_MGR ISAL_SHA512_HASH_CTX_MGR
#define ISAL_md5_HASH_CTX_MGR    ISAL_MD5_HASH_CTX_MGR

HASH_TABLES(sha1)
HASH_TABLES(sha256)
HASH_TABLES(sha512)
HASH_TABLES(md5)

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
