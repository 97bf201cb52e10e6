/* isa-l_crypto's per-instruction-set manager entry points (sha1_ctx_mgr_init_avx2,
 * sha256_ctx_mgr_submit_sse_ni, sha512_ctx_mgr_flush_sb_sse4, ...), which its releases up to
 * 2.24 declared and libisal_crypto.so.2 still exports, with their signatures and results.
 *
 * An init name sets the manager up with the lane engine and the single-stream engine that stoa's
 * own init would choose, limited to its instruction set (common/x86/isal_sets.h) and to what this
 * CPU and STOA_ISA allow, down to the portable engine; so a name whose set the CPU lacks (the
 * SHA-NI ones) works where isa-l_crypto's would stop on an illegal instruction. The engines live
 * in the manager, so its submit and flush names are the generic ones, as a manager set up by one
 * init may be driven by any of them. */
#include "../hash_internal.h"
#include "common/x86/isal_sets.h"
#include "isal_names.h"

#define HASH_ISAL(alg, idx, CTX, MGR, isa)                                                         \
	void alg##_ctx_mgr_init_##isa(MGR *mgr);                                                   \
	CTX *alg##_ctx_mgr_submit_##isa(MGR *mgr, CTX *ctx, const void *buffer, uint32_t len,      \
	                                ISAL_HASH_CTX_FLAG flags);                                 \
	CTX *alg##_ctx_mgr_flush_##isa(MGR *mgr);                                                  \
	STOA_API void alg##_ctx_mgr_init_##isa(MGR *mgr)                                           \
	{                                                                                          \
		const struct stoa_variant *lanes = stoa_select_within(                             \
		    alg##_ctx_mgr_init_variants, hash_lanes_count[idx], ISAL_SET_##isa);           \
		const struct stoa_variant *single = stoa_select_within(                            \
		    stoa_##alg##_variants, hash_single_count[idx], ISAL_SET_##isa);                \
		alg##_mgr_setup(mgr, (unsigned)(lanes - alg##_ctx_mgr_init_variants),              \
		                (unsigned)(single - stoa_##alg##_variants));                       \
	}                                                                                          \
	STOA_API CTX *alg##_ctx_mgr_submit_##isa(MGR *mgr, CTX *ctx, const void *buffer,           \
	                                         uint32_t len, ISAL_HASH_CTX_FLAG flags)           \
	{                                                                                          \
		return alg##_mgr_submit(mgr, ctx, buffer, len, (int)flags);                        \
	}                                                                                          \
	STOA_API CTX *alg##_ctx_mgr_flush_##isa(MGR *mgr)                                          \
	{                                                                                          \
		return alg##_mgr_flush(mgr);                                                       \
	}                                                                                          \
	STOA_ISAL_NAME(alg##_ctx_mgr_init_##isa, #alg "_ctx_mgr_init", ISAL_SET_##isa, 0)          \
	STOA_ISAL_NAME(alg##_ctx_mgr_submit_##isa, NULL, ISAL_SET_##isa, 0)                        \
	STOA_ISAL_NAME(alg##_ctx_mgr_flush_##isa, NULL, ISAL_SET_##isa, 0)

#define SHA1_ISAL(isa)   HASH_ISAL(sha1, 0, ISAL_SHA1_HASH_CTX, ISAL_SHA1_HASH_CTX_MGR, isa)
#define SHA256_ISAL(isa) HASH_ISAL(sha256, 1, ISAL_SHA256_HASH_CTX, ISAL_SHA256_HASH_CTX_MGR, isa)
#define SHA512_ISAL(isa) HASH_ISAL(sha512, 2, ISAL_SHA512_HASH_CTX, ISAL_SHA512_HASH_CTX_MGR, isa)
#define MD5_ISAL(isa)    HASH_ISAL(md5, 3, ISAL_MD5_HASH_CTX, ISAL_MD5_HASH_CTX_MGR, isa)

/* The single-buffer SHA-512 manager of SSE4.1 machines. */
#define ISAL_SET_sb_sse4 ISAL_SET_sse

SHA1_ISAL(sse)
SHA1_ISAL(avx)
SHA1_ISAL(avx2)
SHA1_ISAL(avx512)
SHA1_ISAL(sse_ni)
SHA1_ISAL(avx512_ni)
SHA256_ISAL(sse)
SHA256_ISAL(avx)
SHA256_ISAL(avx2)
SHA256_ISAL(avx512)
SHA256_ISAL(sse_ni)
SHA256_ISAL(avx512_ni)
SHA512_ISAL(sse)
SHA512_ISAL(avx)
SHA512_ISAL(avx2)
SHA512_ISAL(avx512)
SHA512_ISAL(sb_sse4)
MD5_ISAL(sse)
MD5_ISAL(avx)
MD5_ISAL(avx2)
MD5_ISAL(avx512)
