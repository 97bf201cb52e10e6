/* Hash module internals: the engine shapes, the engine tables the manager picks from, and the
 * variant tables that tests and the benchmark walk.
 *
 * Two kinds of engine do the compression. A single-stream engine (x1) hashes whole blocks of one
 * message, optionally with an x2 form that interleaves two messages to hide instruction latency
 * (SHA-NI). A lane engine hashes the same number of blocks from `width` messages at once, one per
 * vector lane, with the states kept transposed in the manager: digest[word][lane], the layout of
 * isa-l_crypto's manager structure, whose row length (its MAX_LANES) is the engine's stride.
 *
 * The manager (hash_mgr_tpl.h) holds up to `width` contexts in lanes. When it must make progress
 * (all lanes full on submit, or a flush) it looks at how many lanes are active: up to `few` of
 * them go through the single-stream engine one or two at a time, more through the lane engine,
 * so one or two jobs hash at single-stream speed and many at the lanes' aggregate. */
#ifndef STOA_HASH_INTERNAL_H
#define STOA_HASH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dispatch.h"

/* The older entry points are marked deprecated; this module defines and calls them. */
#ifndef ISAL_UNIT_TEST
#define ISAL_UNIT_TEST
#endif
#include "isa-l_crypto/md5_mb.h"
#include "isa-l_crypto/sha1_mb.h"
#include "isa-l_crypto/sha256_mb.h"
#include "isa-l_crypto/sha512_mb.h"

#pragma GCC visibility push(hidden)

#define HASH_ENGINE_TYPES(alg, word, nw, stride)                                                   \
	typedef void alg##_x1_fn(word st[nw], const uint8_t *data, uint64_t nblocks);              \
	typedef void alg##_x2_fn(word a[nw], word b[nw], const uint8_t *da, const uint8_t *db,     \
	                         uint64_t nblocks);                                                \
	typedef void alg##_lanes_fn(word digest[nw][stride], uint8_t *const *data,                 \
	                            uint64_t nblocks);                                             \
	struct alg##_single {                                                                      \
		alg##_x1_fn *x1;                                                                   \
		alg##_x2_fn *x2; /* NULL: none */                                                  \
		int fast;        /* hardware rounds: worth more lanes of a lane engine */          \
	};                                                                                         \
	struct alg##_lanes {                                                                       \
		unsigned width; /* lanes; 0: no lane engine, the single-stream engine only */      \
		alg##_lanes_fn *fn;                                                                \
		/* Active jobs up to which the single-stream engine beats these lanes, with a      \
		 * fast (hardware) or a portable single-stream engine; measured (perf_hash.c). */  \
		unsigned few_fast, few_slow;                                                       \
		/* Optional: the same engine on the first width / 2 lanes only, for when no more   \
		 * than that are active (the manager moves them there for the call). */            \
		alg##_lanes_fn *half;                                                              \
	};

HASH_ENGINE_TYPES(sha1, uint32_t, 5, 16)
HASH_ENGINE_TYPES(sha256, uint32_t, 8, 16)
HASH_ENGINE_TYPES(sha512, uint64_t, 8, 8)
HASH_ENGINE_TYPES(md5, uint32_t, 4, 32)

/* FIPS 180-4 section 5.3 and RFC 1321 section 3.3 initial values. */
extern const uint32_t sha1_iv[5];
extern const uint32_t sha256_iv[8];
extern const uint64_t sha512_iv[8];
extern const uint32_t md5_iv[4];
/* FIPS 180-4 sections 4.2.2 and 4.2.3 round constants, 64-byte aligned. */
extern const uint32_t sha256_k[64];
extern const uint64_t sha512_k[80];
extern const uint32_t md5_t[64]; /* RFC 1321 section 3.4 */
/* FIPS 180-4 section 4.2.2, as X(K[t]) for t = 0..63: sha256_k and SSE's broadcast copy. */
/* clang-format off */
#define SHA256_K_LIST(X) \
	X(0x428a2f98) X(0x71374491) X(0xb5c0fbcf) X(0xe9b5dba5) X(0x3956c25b) X(0x59f111f1) \
	X(0x923f82a4) X(0xab1c5ed5) X(0xd807aa98) X(0x12835b01) X(0x243185be) X(0x550c7dc3) \
	X(0x72be5d74) X(0x80deb1fe) X(0x9bdc06a7) X(0xc19bf174) X(0xe49b69c1) X(0xefbe4786) \
	X(0x0fc19dc6) X(0x240ca1cc) X(0x2de92c6f) X(0x4a7484aa) X(0x5cb0a9dc) X(0x76f988da) \
	X(0x983e5152) X(0xa831c66d) X(0xb00327c8) X(0xbf597fc7) X(0xc6e00bf3) X(0xd5a79147) \
	X(0x06ca6351) X(0x14292967) X(0x27b70a85) X(0x2e1b2138) X(0x4d2c6dfc) X(0x53380d13) \
	X(0x650a7354) X(0x766a0abb) X(0x81c2c92e) X(0x92722c85) X(0xa2bfe8a1) X(0xa81a664b) \
	X(0xc24b8b70) X(0xc76c51a3) X(0xd192e819) X(0xd6990624) X(0xf40e3585) X(0x106aa070) \
	X(0x19a4c116) X(0x1e376c08) X(0x2748774c) X(0x34b0bcb5) X(0x391c0cb3) X(0x4ed8aa4a) \
	X(0x5b9cca4f) X(0x682e6ff3) X(0x748f82ee) X(0x78a5636f) X(0x84c87814) X(0x8cc70208) \
	X(0x90befffa) X(0xa4506ceb) X(0xbef9a3f7) X(0xc67178f2)
/* clang-format on */

/* RFC 1321 section 3.4: T[i] = floor(2^32 * abs(sin(i + 1))), as X(T[i]) for i = 0..63, for each
 * table that holds them (md5_t, and SSE's broadcast copy). */
/* clang-format off */
#define MD5_T_LIST(X)                                                                              \
	X(0xd76aa478) X(0xe8c7b756) X(0x242070db) X(0xc1bdceee) X(0xf57c0faf) X(0x4787c62a)        \
	X(0xa8304613) X(0xfd469501) X(0x698098d8) X(0x8b44f7af) X(0xffff5bb1) X(0x895cd7be)        \
	X(0x6b901122) X(0xfd987193) X(0xa679438e) X(0x49b40821) X(0xf61e2562) X(0xc040b340)        \
	X(0x265e5a51) X(0xe9b6c7aa) X(0xd62f105d) X(0x02441453) X(0xd8a1e681) X(0xe7d3fbc8)        \
	X(0x21e1cde6) X(0xc33707d6) X(0xf4d50d87) X(0x455a14ed) X(0xa9e3e905) X(0xfcefa3f8)        \
	X(0x676f02d9) X(0x8d2a4c8a) X(0xfffa3942) X(0x8771f681) X(0x6d9d6122) X(0xfde5380c)        \
	X(0xa4beea44) X(0x4bdecfa9) X(0xf6bb4b60) X(0xbebfbc70) X(0x289b7ec6) X(0xeaa127fa)        \
	X(0xd4ef3085) X(0x04881d05) X(0xd9d4d039) X(0xe6db99e5) X(0x1fa27cf8) X(0xc4ac5665)        \
	X(0xf4292244) X(0x432aff97) X(0xab9423a7) X(0xfc93a039) X(0x655b59c3) X(0x8f0ccc92)        \
	X(0xffeff47d) X(0x85845dd1) X(0x6fa87e4f) X(0xfe2ce6e0) X(0xa3014314) X(0x4e0811a1)        \
	X(0xf7537e82) X(0xbd3af235) X(0x2ad7d2bb) X(0xeb86d391)
/* clang-format on */

/* Portable engines. */
sha1_x1_fn sha1_x1_portable;
sha256_x1_fn sha256_x1_portable;
sha512_x1_fn sha512_x1_portable;
md5_x1_fn md5_x1_portable;

/* Engine tables, parallel to the variant tables below: entry i of <alg>_singles goes with entry
 * i of stoa_<alg>_variants (the one-call hash on that engine), entry i of <alg>_lane_engines
 * with entry i of <alg>_ctx_mgr_init_variants. */
extern const struct sha1_single sha1_singles[];
extern const struct sha256_single sha256_singles[];
extern const struct sha512_single sha512_singles[];
extern const struct md5_single md5_singles[];
extern const struct sha1_lanes sha1_lane_engines[];
extern const struct sha256_lanes sha256_lane_engines[];
extern const struct sha512_lanes sha512_lane_engines[];
extern const struct md5_lanes md5_lane_engines[];

extern const struct stoa_variant stoa_sha1_variants[];
extern const struct stoa_variant stoa_sha256_variants[];
extern const struct stoa_variant stoa_sha512_variants[];
extern const struct stoa_variant stoa_md5_variants[];
extern const struct stoa_variant sha1_ctx_mgr_init_variants[];
extern const struct stoa_variant sha256_ctx_mgr_init_variants[];
extern const struct stoa_variant sha512_ctx_mgr_init_variants[];
extern const struct stoa_variant md5_ctx_mgr_init_variants[];
extern const size_t hash_single_count[4], hash_lanes_count[4]; /* sha1 sha256 sha512 md5 */

/* Index of the single-stream engine this process uses (the first usable entry). */
unsigned hash_single_pick(const struct stoa_variant *table, size_t count);
/* The `few` of a manager for algorithm alg (0-3 as in hash_single_count), lane engines `width`
 * wide and a single stream with hardware rounds (fast) or without: the table's few_fast or
 * few_slow (few), or the architecture's choice for this CPU (HASH_ARCH_FEW). */
unsigned hash_few(unsigned alg, unsigned width, unsigned few, int fast);

/* A manager set up with lane engine `lanes` and single-stream engine `single` (indices into the
 * tables above; the CPU must support both), for tests and benchmarks that pin an engine. The
 * public init picks the best of each. */
void sha1_mgr_setup(ISAL_SHA1_HASH_CTX_MGR *mgr, unsigned lanes, unsigned single);
void sha256_mgr_setup(ISAL_SHA256_HASH_CTX_MGR *mgr, unsigned lanes, unsigned single);
void sha512_mgr_setup(ISAL_SHA512_HASH_CTX_MGR *mgr, unsigned lanes, unsigned single);
void md5_mgr_setup(ISAL_MD5_HASH_CTX_MGR *mgr, unsigned lanes, unsigned single);

/* The template's functions (hash_mgr_tpl.h): the older API's semantics, no argument checks. */
#define HASH_MGR_DECLARE(alg, CTX, MGR)                                                            \
	CTX *alg##_mgr_submit(MGR *m, CTX *ctx, const void *buffer, uint32_t len, int flags);      \
	CTX *alg##_mgr_flush(MGR *m);                                                              \
	void alg##_oneshot(alg##_x1_fn *x1, const void *buf, size_t len, uint8_t *digest);
HASH_MGR_DECLARE(sha1, ISAL_SHA1_HASH_CTX, ISAL_SHA1_HASH_CTX_MGR)
HASH_MGR_DECLARE(sha256, ISAL_SHA256_HASH_CTX, ISAL_SHA256_HASH_CTX_MGR)
HASH_MGR_DECLARE(sha512, ISAL_SHA512_HASH_CTX, ISAL_SHA512_HASH_CTX_MGR)
HASH_MGR_DECLARE(md5, ISAL_MD5_HASH_CTX, ISAL_MD5_HASH_CTX_MGR)

/* The order of the hardware engines' four-word groups, for their own QUAD(i, m, n, o, p): SHA-256's
 * 16 groups of four rounds, group i on message words m and (while i < 12) extending them from
 * the next three groups n, o, p, which rotate through four registers m0..m3. */
#define SHA256_QUADS(QUAD)                                                                         \
	QUAD(0, m0, m1, m2, m3);                                                                   \
	QUAD(1, m1, m2, m3, m0);                                                                   \
	QUAD(2, m2, m3, m0, m1);                                                                   \
	QUAD(3, m3, m0, m1, m2);                                                                   \
	QUAD(4, m0, m1, m2, m3);                                                                   \
	QUAD(5, m1, m2, m3, m0);                                                                   \
	QUAD(6, m2, m3, m0, m1);                                                                   \
	QUAD(7, m3, m0, m1, m2);                                                                   \
	QUAD(8, m0, m1, m2, m3);                                                                   \
	QUAD(9, m1, m2, m3, m0);                                                                   \
	QUAD(10, m2, m3, m0, m1);                                                                  \
	QUAD(11, m3, m0, m1, m2);                                                                  \
	QUAD(12, m0, m1, m2, m3);                                                                  \
	QUAD(13, m1, m2, m3, m0);                                                                  \
	QUAD(14, m2, m3, m0, m1);                                                                  \
	QUAD(15, m3, m0, m1, m2)

/* MD5's 64 steps (RFC 1321 section 3.4) as 16 groups of four, for a lane engine's own
 * FOUR(f, i, s0, s1, s2, s3): the round's function F, G, H or I, the first step, the four
 * rotations. */
#define MD5_FOURS(FOUR)                                                                            \
	FOUR(F, 0, 7, 12, 17, 22);                                                                 \
	FOUR(F, 4, 7, 12, 17, 22);                                                                 \
	FOUR(F, 8, 7, 12, 17, 22);                                                                 \
	FOUR(F, 12, 7, 12, 17, 22);                                                                \
	FOUR(G, 16, 5, 9, 14, 20);                                                                 \
	FOUR(G, 20, 5, 9, 14, 20);                                                                 \
	FOUR(G, 24, 5, 9, 14, 20);                                                                 \
	FOUR(G, 28, 5, 9, 14, 20);                                                                 \
	FOUR(H, 32, 4, 11, 16, 23);                                                                \
	FOUR(H, 36, 4, 11, 16, 23);                                                                \
	FOUR(H, 40, 4, 11, 16, 23);                                                                \
	FOUR(H, 44, 4, 11, 16, 23);                                                                \
	FOUR(I, 48, 6, 10, 15, 21);                                                                \
	FOUR(I, 52, 6, 10, 15, 21);                                                                \
	FOUR(I, 56, 6, 10, 15, 21);                                                                \
	FOUR(I, 60, 6, 10, 15, 21)

/* Big- and little-endian loads and stores; compilers turn these into single moves. */
static inline uint32_t hash_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline uint64_t hash_be64(const uint8_t *p)
{
	return (uint64_t)hash_be32(p) << 32 | hash_be32(p + 4);
}
static inline uint32_t hash_le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}
static inline void hash_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}
static inline void hash_put_be64(uint8_t *p, uint64_t v)
{
	hash_put_be32(p, (uint32_t)(v >> 32));
	hash_put_be32(p + 4, (uint32_t)v);
}
static inline void hash_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}
static inline uint32_t hash_rol32(uint32_t x, int n)
{
	return x << n | x >> (32 - n);
}
static inline uint32_t hash_ror32(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}
static inline uint64_t hash_ror64(uint64_t x, int n)
{
	return x >> n | x << (64 - n);
}

extern const struct stoa_module stoa_module_hash;

#pragma GCC visibility pop

#endif
