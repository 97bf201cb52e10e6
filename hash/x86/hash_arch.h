/* x86-64 hash engines: their declarations and their entries in hash_dispatch.c's tables. */
#ifndef STOA_HASH_X86_ARCH_H
#define STOA_HASH_X86_ARCH_H

#include "../hash_internal.h"
#include "common/cpu.h"
#include "common/x86/tokens.h"

#pragma GCC visibility push(hidden)

sha1_x1_fn sha1_x1_shani_avx, sha1_x1_shani, sha1_x1_avx2, sha1_x1_sse42;
sha1_x2_fn sha1_x2_shani_avx, sha1_x2_shani;
sha256_x1_fn sha256_x1_shani_avx, sha256_x1_shani, sha256_x1_avx2, sha256_x1_sse42;
sha256_x2_fn sha256_x2_shani_avx, sha256_x2_shani;
sha512_x1_fn sha512_x1_avx512, sha512_x1_avx2, sha512_x1_sse42;
sha512_x2_fn sha512_x2_avx2, sha512_x2_avx512;
sha1_lanes_fn sha1_x16_avx512, sha1_x8_avx2, sha1_x4_sse42;
sha256_lanes_fn sha256_x16_avx512, sha256_x8_avx2, sha256_x4_sse42;
sha512_lanes_fn sha512_x8_avx512, sha512_x4_avx2, sha512_x2_sse42;
md5_lanes_fn md5_x32_avx512, md5_x16_avx512, md5_x16_avx2, md5_x8_avx2, md5_x8_sse42, md5_x4_sse42;

#pragma GCC visibility pop

/*
 * Single-stream engines, best first (ahead of the portable one):
 *   S(alg, token, x1, x2 or NULL, fast: hardware rounds)
 * SHA-512 has no SHA-NI rounds here: scalar BMI2 rounds beside an AVX2 message schedule of two
 * blocks at once (sha512_avx2.c), one stream; with AVX-512VL two streams go through the vector
 * rounds of sha512_avx512.c instead (the avx512 entry's one-call hash is the same scalar single
 * stream). Without SHA-NI, SHA-1 and SHA-256 run their schedule in vectors beside scalar rounds
 * (sha*_x1_tpl.h), with BMI2's rotates where AVX2 is. The SHA-NI engines come twice: shani_avx,
 * where AVX is, enters with the upper vector state cleared (sha_vzu.h).
 */
#define HASH_ARCH_SINGLES(alg, S) HASH_X86_SINGLES_##alg(S)
#define HASH_X86_SINGLES_sha1(S)                                                                   \
	S(sha1, shani_avx, sha1_x1_shani_avx, sha1_x2_shani_avx, 1)                                \
	S(sha1, shani, sha1_x1_shani, sha1_x2_shani, 1)                                            \
	S(sha1, avx2, sha1_x1_avx2, NULL, 0)                                                       \
	S(sha1, sse42, sha1_x1_sse42, NULL, 0)
#define HASH_X86_SINGLES_sha256(S)                                                                 \
	S(sha256, shani_avx, sha256_x1_shani_avx, sha256_x2_shani_avx, 1)                          \
	S(sha256, shani, sha256_x1_shani, sha256_x2_shani, 1)                                      \
	S(sha256, avx2, sha256_x1_avx2, NULL, 0)                                                   \
	S(sha256, sse42, sha256_x1_sse42, NULL, 0)
#define HASH_X86_SINGLES_sha512(S)                                                                 \
	S(sha512, avx512, sha512_x1_avx512, sha512_x2_avx512, 0)                                   \
	S(sha512, avx2, sha512_x1_avx2, sha512_x2_avx2, 0)                                         \
	S(sha512, sse42, sha512_x1_sse42, NULL, 0)
#define HASH_X86_SINGLES_md5(S)

/*
 * Lane engines, best first (ahead of none, the single-stream engine only):
 *   L(alg, token, width, fn, few_fast, few_slow, half or NULL)
 * `few` is the number of busy lanes up to which the single-stream engine takes the jobs, where the
 * lanes' aggregate overtakes it. The crossover points come from timing one call of each engine on
 * 4 and 64 KiB jobs: a pair of SHA-NI streams takes a fraction of one call of the 16 AVX-512 lanes
 * (0.16 for SHA-256), and n jobs take ceil(n / 2) pairs, so the lanes win only from 7 (SHA-1) and
 * 13 (SHA-256) busy ones on; SHA-NI beats the 8 AVX2 lanes always there (not on Zen 3:
 * HASH_ARCH_FEW below). The 8 SHA-512 lanes cost about twice one stream, so up to 2 jobs go to the
 * single stream (with AVX-512VL both at once in its two-stream form); MD5 lanes cost 1.5-1.7
 * single streams, so 2 jobs already go to the lanes, up to 16 (AVX2: 8) in one set. Without SHA-NI
 * the single stream with its schedule in vectors is 2.2-2.6 times one lane's share, so two jobs go
 * through it and three to the lanes; SSE's four lanes likewise. SHA-512's two SSE lanes hash
 * 580-650 MB/s together where the single stream hashes 470 (Zen 3), so one job goes to the single
 * stream and two to the lanes (there; elsewhere see HASH_ARCH_FEW below).
 */
/* On Zen 3 the eight AVX2 SHA-1 lanes outrun a pair of SHA-NI streams once seven are busy (3.5
 * against 2.85 GB/s), where the AVX2 lanes' few_fast of 8 (the Zen 4/5 finding) would send every
 * job to SHA-NI; SHA-256's pair stays ahead there. SHA-512's single stream with SSE runs its
 * rounds unrolled on every CPU but Zen 3 (sha512_x1_tpl.h), and on Zen 5 then outruns the two SSE
 * lanes together (1.15x), so every job goes to it there; elsewhere two jobs go to the lanes (Zen
 * 4, 16 jobs: 650-700 MB/s in the stream, 730-754 in the lanes, isa-l_crypto's 730-756). */
#define HASH_ARCH_FEW(alg, width, few, fast)                                                       \
	((fast) && (alg) == 0 && (width) == 8 && stoa_x86_zen3()    ? 6                            \
	 : !(fast) && (alg) == 2 && (width) == 2 && stoa_x86_zen5() ? 2                            \
	                                                            : (few))
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
	L(sha512, sse42, 2, sha512_x2_sse42, 1, 1, NULL)
#define HASH_X86_LANES_md5(L)                                                                      \
	L(md5, avx512, 32, md5_x32_avx512, 1, 1, md5_x16_avx512)                                   \
	L(md5, avx2, 16, md5_x16_avx2, 1, 1, md5_x8_avx2)                                          \
	L(md5, sse42, 8, md5_x8_sse42, 1, 1, md5_x4_sse42)

#endif
