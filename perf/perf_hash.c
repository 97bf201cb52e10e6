/* Multi-buffer hash benchmark cases: SHA-1, SHA-256, SHA-512 and MD5 managers with 1, 2, 4, 8,
 * 16, 32 and 64 jobs in flight, and stoa's one-call hashes; OpenSSL's one-shot EVP_Digest over
 * the same messages beside each.
 *
 * A call (function <alg>_mb) hashes `jobs` whole messages of the row's size: the manager's init
 * (the variant under test: each stoa variant is a lane engine, "single-stream" none, so every
 * job goes through the best single-stream engine; "dispatch" what the public init picks), one
 * ENTIRE submit per message, then flushes until the manager is empty. Bytes counted: jobs x len, as
 * isa-l_crypto's multi-buffer perf programs count them (aggregate throughput). The peer does
 * the same messages one after another with EVP_Digest, a fetch of the digest each time included,
 * as a caller of that one-shot pays.
 *
 * Built with -DPERF_LIB_ISAL_CRYPTO against isa-l_crypto's headers and library, the manager
 * cases measure that library with the same calls. */
#include "perf.h"

#if defined(PERF_LIB_STOA) || defined(PERF_LIB_ISAL_CRYPTO)

#include <string.h>

/* The older entry points are marked deprecated; both libraries have them. */
#define ISAL_UNIT_TEST
#include "isa-l_crypto/md5_mb.h"
#include "isa-l_crypto/sha1_mb.h"
#include "isa-l_crypto/sha256_mb.h"
#include "isa-l_crypto/sha512_mb.h"
#if defined(PERF_LIB_STOA)
#include "stoa.h"
#endif

#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_OPENSSL)
#include <openssl/evp.h>
#define HASH_HAVE_PEER 1
#endif

static const size_t hash_sizes[] = { 64, 1024, 4096, 65536, 0 };
static const size_t hash_quick_sizes[] = { 4096, 65536, 0 };

static size_t align64(size_t n)
{
	return (n + 63) & ~(size_t)63;
}

/* The first digest word as a number, whatever its width; folded in job order. */
static uint64_t fold(uint64_t acc, uint64_t word)
{
	return acc * 0x9e3779b97f4a7c15ull + word;
}

/* One algorithm's manager case for a job count: memory is the manager, the contexts, then the
 * messages. */
#define HASH_MGR_RUN(alg, ALGU, jobs)                                                              \
	static size_t alg##_footprint_##jobs(size_t size)                                          \
	{                                                                                          \
		return align64(sizeof(ISAL_##ALGU##_HASH_CTX_MGR)) +                               \
		       (jobs)*align64(sizeof(ISAL_##ALGU##_HASH_CTX)) + (jobs)*size;               \
	}                                                                                          \
	static uint64_t alg##_bytes_##jobs(size_t size)                                            \
	{                                                                                          \
		return (uint64_t)(jobs)*size;                                                      \
	}                                                                                          \
	static uint64_t alg##_run_##jobs(const struct perf_call *c, uint64_t calls)                \
	{                                                                                          \
		void (*init)(ISAL_##ALGU##_HASH_CTX_MGR *) =                                       \
		    (void (*)(ISAL_##ALGU##_HASH_CTX_MGR *))c->fn;                                 \
		ISAL_##ALGU##_HASH_CTX_MGR *mgr = (void *)c->mem;                                  \
		uint8_t *ctxmem = c->mem + align64(sizeof(*mgr));                                  \
		size_t cstride = align64(sizeof(ISAL_##ALGU##_HASH_CTX));                          \
		uint8_t *data = ctxmem + (jobs)*cstride;                                           \
		/* The same library's submit and flush as c->fn's init (a paired run's). */        \
		__typeof__(&alg##_ctx_mgr_submit) submit = PERF_LIB_CALL(alg##_ctx_mgr_submit);    \
		__typeof__(&alg##_ctx_mgr_flush) flush = PERF_LIB_CALL(alg##_ctx_mgr_flush);       \
		uint64_t acc = 0;                                                                  \
		for (uint64_t k = 0; k < calls; k++) {                                             \
			init(mgr);                                                                 \
			for (size_t j = 0; j < (jobs); j++) {                                      \
				ISAL_##ALGU##_HASH_CTX *ctx = (void *)(ctxmem + j * cstride);      \
				isal_hash_ctx_init(ctx);                                           \
				submit(mgr, ctx, data + j * c->size, (uint32_t)c->size,            \
				       ISAL_HASH_ENTIRE);                                          \
			}                                                                          \
			while (flush(mgr))                                                         \
				;                                                                  \
			for (size_t j = 0; j < (jobs); j++) {                                      \
				ISAL_##ALGU##_HASH_CTX *ctx = (void *)(ctxmem + j * cstride);      \
				acc = fold(acc, ctx->job.result_digest[0]);                        \
			}                                                                          \
		}                                                                                  \
		return acc;                                                                        \
	}

#ifdef HASH_HAVE_PEER
/* EVP_Digest over the same messages; the first digest word read the way the job holds it. */
#define HASH_PEER_RUN(alg, jobs, evp, wordsz, bigend)                                              \
	static uint64_t alg##_peer_##jobs(const struct perf_call *c, uint64_t calls)               \
	{                                                                                          \
		size_t skip = align64(sizeof(ISAL_##alg##_MGR_T)) +                                \
		              (jobs)*align64(sizeof(ISAL_##alg##_CTX_T));                          \
		const uint8_t *data = c->mem + skip;                                               \
		uint64_t acc = 0;                                                                  \
		for (uint64_t k = 0; k < calls; k++)                                               \
			for (size_t j = 0; j < (jobs); j++) {                                      \
				unsigned char d[64];                                               \
				EVP_Digest(data + j * c->size, c->size, d, NULL, evp(), NULL);     \
				uint64_t w = 0;                                                    \
				for (int b = 0; b < (wordsz); b++)                                 \
					w |= (uint64_t)d[b]                                        \
					     << 8 * ((bigend) ? (wordsz)-1 - b : b);               \
				acc = fold(acc, w);                                                \
			}                                                                          \
		return acc;                                                                        \
	}                                                                                          \
	static const struct perf_peer alg##_peers_##jobs[] = {                                     \
		{ "openssl", "EVP_Digest", PERF_FN(evp), alg##_peer_##jobs },                      \
	};
#define HASH_PEERS(alg, jobs) .peers = alg##_peers_##jobs, .npeers = 1,
#else
#define HASH_PEER_RUN(alg, jobs, evp, wordsz, bigend)
#define HASH_PEERS(alg, jobs)
#endif

#define ISAL_sha1_MGR_T   ISAL_SHA1_HASH_CTX_MGR
#define ISAL_sha1_CTX_T   ISAL_SHA1_HASH_CTX
#define ISAL_sha256_MGR_T ISAL_SHA256_HASH_CTX_MGR
#define ISAL_sha256_CTX_T ISAL_SHA256_HASH_CTX
#define ISAL_sha512_MGR_T ISAL_SHA512_HASH_CTX_MGR
#define ISAL_sha512_CTX_T ISAL_SHA512_HASH_CTX
#define ISAL_md5_MGR_T    ISAL_MD5_HASH_CTX_MGR
#define ISAL_md5_CTX_T    ISAL_MD5_HASH_CTX

#define HASH_JOBS(alg, ALGU, evp, wordsz, bigend)                                                  \
	HASH_MGR_RUN(alg, ALGU, 1)                                                                 \
	HASH_MGR_RUN(alg, ALGU, 2)                                                                 \
	HASH_MGR_RUN(alg, ALGU, 4)                                                                 \
	HASH_MGR_RUN(alg, ALGU, 8)                                                                 \
	HASH_MGR_RUN(alg, ALGU, 16)                                                                \
	HASH_MGR_RUN(alg, ALGU, 32)                                                                \
	HASH_MGR_RUN(alg, ALGU, 64)                                                                \
	HASH_PEER_RUN(alg, 1, evp, wordsz, bigend)                                                 \
	HASH_PEER_RUN(alg, 2, evp, wordsz, bigend)                                                 \
	HASH_PEER_RUN(alg, 4, evp, wordsz, bigend)                                                 \
	HASH_PEER_RUN(alg, 8, evp, wordsz, bigend)                                                 \
	HASH_PEER_RUN(alg, 16, evp, wordsz, bigend)                                                \
	HASH_PEER_RUN(alg, 32, evp, wordsz, bigend)                                                \
	HASH_PEER_RUN(alg, 64, evp, wordsz, bigend)

HASH_JOBS(sha1, SHA1, EVP_sha1, 4, 1)
HASH_JOBS(sha256, SHA256, EVP_sha256, 4, 1)
HASH_JOBS(sha512, SHA512, EVP_sha512, 8, 1)
HASH_JOBS(md5, MD5, EVP_md5, 4, 0)

/* Named for what a call does, the multi-buffer hash of `jobs` messages (isa-l_crypto's
 * <alg>_mb); the variants are those of the manager's init, which picks the lane engine. */
#define HASH_CASE(alg, jobs)                                                                       \
	{                                                                                          \
		.module = "hash", .function = #alg "_mb", .params = "jobs=" #jobs,                 \
		.bytes = "jobs x len: init + submit each + flush", .table = #alg "_ctx_mgr_init",  \
		.base_variant = "single-stream", .api = PERF_FN(alg##_ctx_mgr_init),               \
		.run = alg##_run_##jobs, .bytes_per_call = alg##_bytes_##jobs,                     \
		.footprint = alg##_footprint_##jobs, .sizes = hash_sizes,                          \
		.quick_sizes = hash_quick_sizes, HASH_PEERS(alg, jobs)                             \
	}
#define HASH_CASES(alg)                                                                            \
	HASH_CASE(alg, 1), HASH_CASE(alg, 2), HASH_CASE(alg, 4), HASH_CASE(alg, 8),                \
	    HASH_CASE(alg, 16), HASH_CASE(alg, 32), HASH_CASE(alg, 64)

#if defined(PERF_LIB_STOA)
/* The one-call hashes: one message, the single-stream engines. */
typedef void oneshot_fn(const void *buf, size_t len, unsigned char *digest);
static uint64_t run_oneshot(const struct perf_call *c, uint64_t calls)
{
	oneshot_fn *f = (oneshot_fn *)c->fn;
	uint64_t acc = 0;
	unsigned char d[64];
	for (uint64_t k = 0; k < calls; k++) {
		f(c->mem, c->size, d);
		acc = fold(acc, (uint64_t)d[0] << 24 | d[1] << 16 | d[2] << 8 | d[3]);
	}
	return acc;
}
#ifdef HASH_HAVE_PEER
static uint64_t run_evp_oneshot(const struct perf_call *c, uint64_t calls)
{
	const EVP_MD *(*md)(void) = (const EVP_MD *(*)(void))c->fn;
	uint64_t acc = 0;
	unsigned char d[64];
	for (uint64_t k = 0; k < calls; k++) {
		EVP_Digest(c->mem, c->size, d, NULL, md(), NULL);
		acc = fold(acc, (uint64_t)d[0] << 24 | d[1] << 16 | d[2] << 8 | d[3]);
	}
	return acc;
}
#define ONESHOT_PEER(alg, evp)                                                                     \
	static const struct perf_peer alg##_oneshot_peers[] = {                                    \
		{ "openssl", "EVP_Digest", PERF_FN(evp), run_evp_oneshot },                        \
	};
#define ONESHOT_PEERS(alg) .peers = alg##_oneshot_peers, .npeers = 1,
ONESHOT_PEER(sha1, EVP_sha1)
ONESHOT_PEER(sha256, EVP_sha256)
ONESHOT_PEER(sha512, EVP_sha512)
ONESHOT_PEER(md5, EVP_md5)
#else
#define ONESHOT_PEERS(alg)
#endif
#define ONESHOT_CASE(alg)                                                                          \
	{                                                                                          \
		.module = "hash", .function = "stoa_" #alg, .params = "", .bytes = "len",          \
		.api = PERF_FN(stoa_##alg), .run = run_oneshot, .sizes = hash_sizes,               \
		.quick_sizes = hash_quick_sizes, ONESHOT_PEERS(alg)                                \
	}
#endif

static const struct perf_case hash_cases[] = {
	HASH_CASES(sha1),   HASH_CASES(sha256),   HASH_CASES(sha512),   HASH_CASES(md5),
#if defined(PERF_LIB_STOA)
	ONESHOT_CASE(sha1), ONESHOT_CASE(sha256), ONESHOT_CASE(sha512), ONESHOT_CASE(md5),
#endif
};

const struct perf_module perf_module_hash = { "hash", hash_cases, PERF_COUNT(hash_cases) };

#else

const struct perf_module perf_module_hash = { "hash", NULL, 0 };

#endif
