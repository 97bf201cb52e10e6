/* stoa: isa-l_crypto's multi-buffer SHA-256 API.
 *
 * A manager (ISAL_SHA256_HASH_CTX_MGR) hashes many messages at once, each tracked by a context
 * (ISAL_SHA256_HASH_CTX, initialised with isal_hash_ctx_init from multi_buffer.h). A message goes
 * in as one ENTIRE buffer or as FIRST, UPDATE..., LAST pieces of any length; submit and flush
 * hand contexts back as they finish, in no particular order. A finished context holds the
 * digest in job.result_digest, as ISAL_SHA256_DIGEST_NWORDS native-endian words (word i of the
 * standard big-endian digest). The structures match isa-l_crypto's, field for field; the manager
 * is opaque to callers and stoa keeps its own bookkeeping in it. */
#ifndef STOA_ISAL_CRYPTO_SHA256_MB_H
#define STOA_ISAL_CRYPTO_SHA256_MB_H

#include <stdint.h>
#include <string.h>
#ifndef _MSC_VER
#include <stdbool.h>
#endif

#include "multi_buffer.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ISAL_SHA256_DIGEST_NWORDS       8
#define ISAL_SHA256_MAX_LANES           16
#define ISAL_SHA256_MIN_LANES           4
#define ISAL_SHA256_BLOCK_SIZE          64
#define ISAL_SHA256_PADLENGTHFIELD_SIZE 8

typedef uint32_t sha256_digest_array[ISAL_SHA256_DIGEST_NWORDS][ISAL_SHA256_MAX_LANES];
typedef uint32_t ISAL_SHA256_WORD_T;

typedef struct {
	uint8_t *buffer;
	uint64_t len; /* in blocks */
	DECLARE_ALIGNED(uint32_t result_digest[ISAL_SHA256_DIGEST_NWORDS], 64);
	ISAL_JOB_STS status;
	void *user_data;
} ISAL_SHA256_JOB;

typedef struct {
	sha256_digest_array digest;
	uint8_t *data_ptr[ISAL_SHA256_MAX_LANES];
} ISAL_SHA256_MB_ARGS_X16;

typedef struct {
	ISAL_SHA256_JOB *job_in_lane;
} ISAL_SHA256_LANE_DATA;

typedef struct {
	ISAL_SHA256_MB_ARGS_X16 args;
	DECLARE_ALIGNED(uint32_t lens[ISAL_SHA256_MAX_LANES], 16);
	uint64_t unused_lanes;
	ISAL_SHA256_LANE_DATA ldata[ISAL_SHA256_MAX_LANES];
	uint32_t num_lanes_inuse;
} ISAL_SHA256_MB_JOB_MGR;

typedef struct {
	ISAL_SHA256_MB_JOB_MGR mgr;
} ISAL_SHA256_HASH_CTX_MGR;

/* Allocate 16-byte aligned (the digest inside is 64-byte aligned in any case). */
typedef struct {
	ISAL_SHA256_JOB job; /* first, so a job pointer is its context's pointer */
	ISAL_HASH_CTX_STS status;
	ISAL_HASH_CTX_ERROR error;
	uint64_t total_length; /* bytes submitted since FIRST */
	const void *incoming_buffer;
	uint32_t incoming_buffer_length;
	uint8_t partial_block_buffer[ISAL_SHA256_BLOCK_SIZE * 2];
	uint32_t partial_block_buffer_length;
	void *user_data;
} ISAL_SHA256_HASH_CTX;

/* The checked API. Each returns 0 or an ISAL_CRYPTO_ERR_* code (isal_crypto_api.h):
 * ISAL_CRYPTO_ERR_NULL_MGR, ISAL_CRYPTO_ERR_NULL_CTX (ctx_in or ctx_out), ISAL_CRYPTO_ERR_NULL_SRC
 * (NULL buffer with UPDATE or ENTIRE, or with a non-zero len), and for a refused submit
 * ISAL_CRYPTO_ERR_INVALID_FLAGS, ISAL_CRYPTO_ERR_ALREADY_PROCESSING (the context is still in the
 * manager) or ISAL_CRYPTO_ERR_ALREADY_COMPLETED (UPDATE or LAST without a FIRST since the last
 * LAST). A refused context comes back in *ctx_out with its error member set; nothing else changes.
 * Otherwise *ctx_out is a context that finished its piece (possibly another one) or NULL. */
int isal_sha256_ctx_mgr_init(ISAL_SHA256_HASH_CTX_MGR *mgr);
int isal_sha256_ctx_mgr_submit(ISAL_SHA256_HASH_CTX_MGR *mgr, ISAL_SHA256_HASH_CTX *ctx_in,
                               ISAL_SHA256_HASH_CTX **ctx_out, const void *buffer,
                               const uint32_t len, const ISAL_HASH_CTX_FLAG flags);
/* Works on the held contexts until one finishes; *ctx_out NULL once none is left. */
int isal_sha256_ctx_mgr_flush(ISAL_SHA256_HASH_CTX_MGR *mgr, ISAL_SHA256_HASH_CTX **ctx_out);

/* The older API: the same work, no argument checks; submit returns the context it hands back
 * (the refused one, with its error member set) or NULL. */
ISAL_DEPRECATED("Please use isal_sha256_ctx_mgr_init() instead")
void sha256_ctx_mgr_init(ISAL_SHA256_HASH_CTX_MGR *mgr);
ISAL_DEPRECATED("Please use isal_sha256_ctx_mgr_submit() instead")
ISAL_SHA256_HASH_CTX *sha256_ctx_mgr_submit(ISAL_SHA256_HASH_CTX_MGR *mgr,
                                            ISAL_SHA256_HASH_CTX *ctx, const void *buffer,
                                            uint32_t len, ISAL_HASH_CTX_FLAG flags);
ISAL_DEPRECATED("Please use isal_sha256_ctx_mgr_flush() instead")
ISAL_SHA256_HASH_CTX *sha256_ctx_mgr_flush(ISAL_SHA256_HASH_CTX_MGR *mgr);

#ifndef NO_COMPAT_ISAL_CRYPTO_API_2_24
#define SHA256_DIGEST_NWORDS       ISAL_SHA256_DIGEST_NWORDS
#define SHA256_PADLENGTHFIELD_SIZE ISAL_SHA256_PADLENGTHFIELD_SIZE
#define SHA256_MAX_LANES           ISAL_SHA256_MAX_LANES
#define SHA256_MIN_LANES           ISAL_SHA256_MIN_LANES
#define SHA256_BLOCK_SIZE          ISAL_SHA256_BLOCK_SIZE
#define SHA256_WORD_T              ISAL_SHA256_WORD_T
#define SHA256_JOB                 ISAL_SHA256_JOB
#define SHA256_MB_ARGS_X16         ISAL_SHA256_MB_ARGS_X16
#define SHA256_LANE_DATA           ISAL_SHA256_LANE_DATA
#define SHA256_MB_JOB_MGR          ISAL_SHA256_MB_JOB_MGR
#define SHA256_HASH_CTX_MGR        ISAL_SHA256_HASH_CTX_MGR
#define SHA256_HASH_CTX            ISAL_SHA256_HASH_CTX
#endif

#ifdef __cplusplus
}
#endif

#endif
