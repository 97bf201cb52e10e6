/* stoa: the parts of isa-l_crypto's multi-buffer hash API that every algorithm shares: job
 * status, submit flags, context status and error values, and the macros that read a context.
 *
 * Values and names are isa-l_crypto's (the unprefixed names are the ones its releases before
 * 2.25 used; defining NO_COMPAT_ISAL_CRYPTO_API_2_24 leaves them out, as there). */
#ifndef STOA_ISAL_CRYPTO_MULTI_BUFFER_H
#define STOA_ISAL_CRYPTO_MULTI_BUFFER_H

#ifdef __cplusplus
extern "C" {
#endif

/* Status of the job inside a context. */
typedef enum {
	ISAL_STS_UNKNOWN = 0,
	ISAL_STS_BEING_PROCESSED = 1,
	ISAL_STS_COMPLETED = 2,
	ISAL_STS_INTERNAL_ERROR,
	ISAL_STS_ERROR
} ISAL_JOB_STS;

#define ISAL_HASH_MB_NO_FLAGS 0
#define ISAL_HASH_MB_FIRST    1
#define ISAL_HASH_MB_LAST     2

/* What a submitted buffer is: the start of a message, a middle piece, its end, or all of it. */
typedef enum {
	ISAL_HASH_UPDATE = 0x00,
	ISAL_HASH_FIRST = 0x01,
	ISAL_HASH_LAST = 0x02,
	ISAL_HASH_ENTIRE = 0x03,
} ISAL_HASH_CTX_FLAG;

/* A context is COMPLETE after isal_hash_ctx_init and after its LAST piece; IDLE between pieces;
 * PROCESSING (plus LAST once the final piece is in) while the manager holds it. */
typedef enum {
	ISAL_HASH_CTX_STS_IDLE = 0x00,
	ISAL_HASH_CTX_STS_PROCESSING = 0x01,
	ISAL_HASH_CTX_STS_LAST = 0x02,
	ISAL_HASH_CTX_STS_COMPLETE = 0x04,
} ISAL_HASH_CTX_STS;

/* Set in a context handed straight back by submit because the call was refused. */
typedef enum {
	ISAL_HASH_CTX_ERROR_NONE = 0,
	ISAL_HASH_CTX_ERROR_INVALID_FLAGS = -1,
	ISAL_HASH_CTX_ERROR_ALREADY_PROCESSING = -2,
	ISAL_HASH_CTX_ERROR_ALREADY_COMPLETED = -3,
} ISAL_HASH_CTX_ERROR;

#define isal_hash_ctx_user_data(ctx)  ((ctx)->user_data)
#define isal_hash_ctx_digest(ctx)     ((ctx)->job.result_digest)
#define isal_hash_ctx_processing(ctx) ((ctx)->status & ISAL_HASH_CTX_STS_PROCESSING)
#define isal_hash_ctx_complete(ctx)   ((ctx)->status == ISAL_HASH_CTX_STS_COMPLETE)
#define isal_hash_ctx_status(ctx)     ((ctx)->status)
#define isal_hash_ctx_error(ctx)      ((ctx)->error)
/* Every context starts here, before its first FIRST submit. */
#define isal_hash_ctx_init(ctx)                                                                    \
	do {                                                                                       \
		(ctx)->error = ISAL_HASH_CTX_ERROR_NONE;                                           \
		(ctx)->status = ISAL_HASH_CTX_STS_COMPLETE;                                        \
	} while (0)

#ifndef NO_COMPAT_ISAL_CRYPTO_API_2_24
#define JOB_STS                           ISAL_JOB_STS
#define STS_UNKNOWN                       ISAL_STS_UNKNOWN
#define STS_BEING_PROCESSED               ISAL_STS_BEING_PROCESSED
#define STS_COMPLETED                     ISAL_STS_COMPLETED
#define STS_INTERNAL_ERROR                ISAL_STS_INTERNAL_ERROR
#define STS_ERROR                         ISAL_STS_ERROR
#define HASH_CTX_FLAG                     ISAL_HASH_CTX_FLAG
#define HASH_UPDATE                       ISAL_HASH_UPDATE
#define HASH_FIRST                        ISAL_HASH_FIRST
#define HASH_LAST                         ISAL_HASH_LAST
#define HASH_ENTIRE                       ISAL_HASH_ENTIRE
#define HASH_CTX_STS                      ISAL_HASH_CTX_STS
#define HASH_CTX_STS_IDLE                 ISAL_HASH_CTX_STS_IDLE
#define HASH_CTX_STS_PROCESSING           ISAL_HASH_CTX_STS_PROCESSING
#define HASH_CTX_STS_LAST                 ISAL_HASH_CTX_STS_LAST
#define HASH_CTX_STS_COMPLETE             ISAL_HASH_CTX_STS_COMPLETE
#define HASH_CTX_ERROR                    ISAL_HASH_CTX_ERROR
#define HASH_CTX_ERROR_NONE               ISAL_HASH_CTX_ERROR_NONE
#define HASH_CTX_ERROR_INVALID_FLAGS      ISAL_HASH_CTX_ERROR_INVALID_FLAGS
#define HASH_CTX_ERROR_ALREADY_PROCESSING ISAL_HASH_CTX_ERROR_ALREADY_PROCESSING
#define HASH_CTX_ERROR_ALREADY_COMPLETED  ISAL_HASH_CTX_ERROR_ALREADY_COMPLETED
#define HASH_MB_NO_FLAGS                  ISAL_HASH_MB_NO_FLAGS
#define HASH_MB_FIRST                     ISAL_HASH_MB_FIRST
#define HASH_MB_LAST                      ISAL_HASH_MB_LAST
#define hash_ctx_user_data                isal_hash_ctx_user_data
#define hash_ctx_digest                   isal_hash_ctx_digest
#define hash_ctx_processing               isal_hash_ctx_processing
#define hash_ctx_complete                 isal_hash_ctx_complete
#define hash_ctx_status                   isal_hash_ctx_status
#define hash_ctx_error                    isal_hash_ctx_error
#define hash_ctx_init                     isal_hash_ctx_init
#endif

#ifdef __cplusplus
}
#endif

#endif
