/* aarch64 hash engines: their declarations and their entries in hash_dispatch.c's tables, in the
 * form of the x86-64 ones (../x86/hash_arch.h). */
#ifndef STOA_HASH_ARM_ARCH_H
#define STOA_HASH_ARM_ARCH_H

#include "../hash_internal.h"
#include "common/arm/tokens.h"

#pragma GCC visibility push(hidden)

sha1_x1_fn sha1_x1_sha2;
sha1_x2_fn sha1_x2_sha2;
sha256_x1_fn sha256_x1_sha2;
sha256_x2_fn sha256_x2_sha2;
sha512_x1_fn sha512_x1_sha512;
md5_lanes_fn md5_x8_neon, md5_x4_neon;

#pragma GCC visibility pop

/*
 * Single-stream engines, best first (ahead of the portable one):
 *   S(alg, token, x1, x2 or NULL, fast: hardware rounds)
 * The crypto extensions' rounds, one stream or two interleaved (the manager gives two active
 * jobs to the x2 form; SHA-512 has none, see sha512_sha512.c).
 */
#define HASH_ARCH_SINGLES(alg, S)  HASH_ARM_SINGLES_##alg(S)
#define HASH_ARM_SINGLES_sha1(S)   S(sha1, sha2, sha1_x1_sha2, sha1_x2_sha2, 1)
#define HASH_ARM_SINGLES_sha256(S) S(sha256, sha2, sha256_x1_sha2, sha256_x2_sha2, 1)
#define HASH_ARM_SINGLES_sha512(S) S(sha512, sha512, sha512_x1_sha512, NULL, 1)
#define HASH_ARM_SINGLES_md5(S)

/*
 * Lane engines, best first (ahead of none, the single-stream engine only):
 *   L(alg, token, width, fn, few_fast, few_slow, half or NULL)
 * MD5 has no hardware rounds: eight Advanced SIMD lanes, or four when no more than four jobs are
 * active. One set of four lanes costs fewer instructions than one portable stream (see the
 * commit that added them), so a second job already goes to the lanes.
 */
#define HASH_ARCH_LANES(alg, L) HASH_ARM_LANES_##alg(L)
#define HASH_ARM_LANES_sha1(L)
#define HASH_ARM_LANES_sha256(L)
#define HASH_ARM_LANES_sha512(L)
#define HASH_ARM_LANES_md5(L) L(md5, neon, 8, md5_x8_neon, 1, 1, md5_x4_neon)

#endif
