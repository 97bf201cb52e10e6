/* x86-64 hash engines: their declarations and their entries in hash_dispatch.c's tables. */
#ifndef STOA_HASH_X86_ARCH_H
#define STOA_HASH_X86_ARCH_H

#include "../hash_internal.h"
#include "common/x86/tokens.h"

#pragma GCC visibility push(hidden)

sha1_x1_fn sha1_x1_shani, sha1_x1_avx2, sha1_x1_sse42;
sha1_x2_fn sha1_x2_shani;
sha256_x1_fn sha256_x1_shani, sha256_x1_avx2, sha256_x1_sse42;
sha256_x2_fn sha256_x2_shani;
sha512_x1_fn sha512_x1_avx2, sha512_x1_avx512;
sha512_x2_fn sha512_x2_avx2, sha512_x2_avx512;
sha1_lanes_fn sha1_x16_avx512, sha1_x8_avx2, sha1_x4_sse42;
sha256_lanes_fn sha256_x16_avx512, sha256_x8_avx2, sha256_x4_sse42;
sha512_lanes_fn sha512_x8_avx512, sha512_x4_avx2, sha512_lanes2_sse42;
md5_lanes_fn md5_x32_avx512, md5_x16_avx512, md5_x16_avx2, md5_x8_avx2, md5_x8_sse42, md5_x4_sse42;

#pragma GCC visibility pop

/*
 * Single-stream engines, best first (ahead of the portable one):
 *   S(alg, token, x1, x2 or NULL, fast: hardware rounds)
 * SHA-512 has no SHA-NI rounds here: scalar BMI2 rounds beside an AVX2 message schedule of two
 * blocks at once (sha512_avx2.c), one stream; with AVX-512VL two streams go through the vector
 * rounds of sha512_avx512.c instead (the avx512 entry's one-call hash is the same scalar single
 * stream). Without SHA-NI, SHA-1 and SHA-256 run their schedule in vectors beside scalar rounds
 * (sha*_x1_tpl.h), with BMI2's rotates where AVX2 is.
 */
#define HASH_ARCH_SINGLES(alg, S) HASH_X86_SINGLES_##alg(S)
#define HASH_X86_SINGLES_sha1(S)                                                                   \
	S(sha1, shani, sha1_x1_shani, sha1_x2_shani, 1)                                            \
	S(sha1, avx2, sha1_x1_avx2, NULL, 0)                                                       \
	S(sha1, sse42, sha1_x1_sse42, NULL, 0)
#define HASH_X86_SINGLES_sha256(S)                                                                 \
	S(sha256, shani, sha256_x1_shani, sha256_x2_shani, 1)                                      \
	S(sha256, avx2, sha256_x1_avx2, NULL, 0)                                                   \
	S(sha256, sse42, sha256_x1_sse42, NULL, 0)
#define HASH_X86_SINGLES_sha512(S)                                                                 \
	S(sha512, avx512, sha512_x1_avx512, sha512_x2_avx512, 0)                                   \
	S(sha512, avx2, sha512_x1_avx2, sha512_x2_avx2, 0)
#define HASH_X86_SINGLES_md5(S)

/*
 * Lane engines, best first (ahead of none, the single-stream engine only):
 *   L(alg, token, width, fn, few_fast, few_slow, half or NULL)
 * `few` is where the lanes' aggregate overtakes one stream, from perf_hash.c's job-count sweep on
 * Zen 5, 4 and 64 KiB jobs: one pair of SHA-NI streams takes 0.27 (SHA-1) and 0.16 (SHA-256) of
 * the time of one call of the 16 AVX-512 lanes on the same length, and n jobs take ceil(n / 2)
 * pairs, so the lanes win from 7 (SHA-1) and 13 (SHA-256) busy ones on; SHA-NI beats the 8 AVX2
 * lanes always. One call of the 8 SHA-512 lanes takes 2.1-2.3 times the single stream's time on
 * the same length, so up to 2 jobs go through that (with AVX-512VL both at once in its
 * two-stream form: Zen 4, 1.2 times one stream's time); one set of 16 AVX-512 MD5 lanes takes
 * 1.6-1.7 times the portable single stream's (8 AVX2 lanes 1.5 times), so 2 jobs already go to
 * the lanes (4 KiB: 1.18x the two single streams' speed). MD5 runs up to 16 jobs (AVX2: 8) in
 * one set of lanes, more in two. Without SHA-NI the single stream with its schedule in vectors
 * hashes 2.2-2.6 times as fast as one lane's share of the AVX2 or AVX-512 lanes on Skylake-SP
 * (SHA-256 4 KiB: 267 MB/s against 8 lanes' 900 and 16 lanes' 1800; SHA-1 585 against 1900 and
 * 3000), so two jobs go through it and three to the lanes; SSE's four lanes likewise. Two
 * SHA-512 jobs already go to SSE's two lanes, which together run near twice the portable stream.
 */
#define HASH_ARCH_LANES(alg, L) HASH_X86_LANES_##alg(L)
#define HASH_X86_LANES_sha1(L)                                                                     \
	L(sha1, avx512, 16, sha1_x16_avx512, 6, 2, NULL)                                           \
	L(sha1, avx2, 8, sha1_x8_avx2, 8, 2, NULL)                                                 \
	L(sha1, sse42, 4, sha1_x4_sse42, 4, 2, NULL)
#define HASH_X86_LANES_sha256(L)                                                                   \
	L(sha256, avx512, 16, sha256_x16_avx512, 12, 2, NULL)                                      \
	L(sha256, avx2, 8, sha256_x8_avx2, 8, 2, NULL)                                             \
	L(sha256, sse42, 4, sha256_x4_sse42, 4, 2, NULL)
#define HASH_X86_LANES_sha512(L)                                                                   \
	L(sha512, avx512, 8, sha512_x8_avx512, 2, 2, NULL)                                         \
	L(sha512, avx2, 4, sha512_x4_avx2, 2, 2, NULL)                                             \
	L(sha512, sse42, 2, sha512_lanes2_sse42, 1, 1, NULL)
#define HASH_X86_LANES_md5(L)                                                                      \
	L(md5, avx512, 32, md5_x32_avx512, 1, 1, md5_x16_avx512)                                   \
	L(md5, avx2, 16, md5_x16_avx2, 1, 1, md5_x8_avx2)                                          \
	L(md5, sse42, 8, md5_x8_sse42, 1, 1, md5_x4_sse42)

#endif
