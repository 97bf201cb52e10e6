/* SHA-512, 8 messages at once in the 8 qword lanes of ZMM registers. */
#include "hash_arch.h"

#define HV_BITS 512
#define MB_NAME sha512_x8_avx512
#include "sha512_mb_tpl.h"

/*
 * Two SHA-512 streams in the two qword lanes of XMM registers, the rounds of both in the same
 * instructions: AVX-512VL has a rotate (vprorq) and a three-input logic function (vpternlogq),
 * so a round is 17 vector instructions for the two (Sigma 4 each, Ch 1, Maj 1, seven additions)
 * where one scalar round needs 22-23 ALU instructions. The message schedule is sha512_avx2.c's
 * two-stream one (block n of each stream in the two 128-bit lanes of YMM registers) with the
 * same rotate and logic function; its words are stored with the two streams side by side, so
 * one 16-byte load gives a round both of its W + K. Zen 4, 4-64 KiB each: 1.65 times the speed
 * of sha512_x2_avx2 (vprorq has a latency of 2 there, so one stream alone this way is slower
 * than the scalar rounds).
 */
#define YS0(x)                                                                                     \
	_mm256_ternarylogic_epi64(_mm256_ror_epi64(x, 1), _mm256_ror_epi64(x, 8),                  \
	                          _mm256_srli_epi64(x, 7), 0x96)
#define YS1(x)                                                                                     \
	_mm256_ternarylogic_epi64(_mm256_ror_epi64(x, 19), _mm256_ror_epi64(x, 61),                \
	                          _mm256_srli_epi64(x, 6), 0x96)
/* W + K of words t, t + 1 (t even), block n of streams a and b in the two 128-bit lanes, goes
 * to wk[2t..2t+3] as a's t, b's t, a's t + 1, b's t + 1. */
#define VSTOREWK(x, t)                                                                             \
	_mm256_store_si256((__m256i *)(wk + 2 * (t)),                                              \
	                   _mm256_permute4x64_epi64(                                               \
	                       _mm256_add_epi64(x, _mm256_broadcastsi128_si256(_mm_load_si128(     \
	                                               (const __m128i *)(sha512_k + (t))))),       \
	                       0xd8))
/* Words t, t+1 replace xa (words t-16, t-15); xb follows xa, xe and xf hold t-8..t-5, xh t-2. */
#define VPAIR(xa, xb, xe, xf, xh, t)                                                               \
	do {                                                                                       \
		xa = _mm256_add_epi64(_mm256_add_epi64(xa, YS0(_mm256_alignr_epi8(xb, xa, 8))),    \
		                      _mm256_add_epi64(_mm256_alignr_epi8(xf, xe, 8), YS1(xh)));   \
		VSTOREWK(xa, t);                                                                   \
		/* The rounds read W + K back from wk[] (an add with a memory operand). */         \
		__asm__ volatile("" ::: "memory");                                                 \
	} while (0)
#define VS1(x)                                                                                     \
	_mm_ternarylogic_epi64(_mm_ror_epi64(x, 14), _mm_ror_epi64(x, 18), _mm_ror_epi64(x, 41),   \
	                       0x96)
#define VS0(x)                                                                                     \
	_mm_ternarylogic_epi64(_mm_ror_epi64(x, 28), _mm_ror_epi64(x, 34), _mm_ror_epi64(x, 39),   \
	                       0x96)
/* T1 = h + W + K + Ch + Sigma1; the next e is d + (h + W + K + Ch) + Sigma1 (Sigma1, the longest
 * term, added last), the next a (in h) T1 + Maj + Sigma0. Ch is vpternlogq 0xca (e ? f : g),
 * Maj 0xe8. */
#define VROUND(a, b, c, d, e, f, g, h, t)                                                          \
	do {                                                                                       \
		__m128i t1_ = _mm_add_epi64(                                                       \
		    _mm_add_epi64(h, _mm_load_si128((const __m128i *)(wk + 2 * (t)))),             \
		    _mm_ternarylogic_epi64(e, f, g, 0xca));                                        \
		__m128i s1_ = VS1(e);                                                              \
		d = _mm_add_epi64(_mm_add_epi64(d, t1_), s1_);                                     \
		t1_ = _mm_add_epi64(t1_, s1_);                                                     \
		h = _mm_add_epi64(_mm_add_epi64(t1_, _mm_ternarylogic_epi64(a, b, c, 0xe8)),       \
		                  VS0(a));                                                         \
	} while (0)
#define VEIGHT(t) SHA2_EIGHT(VROUND, t)
/* Rounds t0..t0+15 with the schedule of words t0+16..t0+31 between them (none past 79). */
#define VGROUP(t0)                                                                                 \
	do {                                                                                       \
		if ((t0) + 16 < 80) {                                                              \
			VPAIR(x0, x1, x4, x5, x7, (t0) + 16);                                      \
			VPAIR(x1, x2, x5, x6, x0, (t0) + 18);                                      \
			VPAIR(x2, x3, x6, x7, x1, (t0) + 20);                                      \
			VPAIR(x3, x4, x7, x0, x2, (t0) + 22);                                      \
		}                                                                                  \
		VEIGHT((t0));                                                                      \
		if ((t0) + 16 < 80) {                                                              \
			VPAIR(x4, x5, x0, x1, x3, (t0) + 24);                                      \
			VPAIR(x5, x6, x1, x2, x4, (t0) + 26);                                      \
			VPAIR(x6, x7, x2, x3, x5, (t0) + 28);                                      \
			VPAIR(x7, x0, x3, x4, x6, (t0) + 30);                                      \
		}                                                                                  \
		VEIGHT((t0) + 8);                                                                  \
	} while (0)

/* HV_KERNEL: the additions in the order written (see VROUND). */
HV_KERNEL void sha512_x2_avx512(uint64_t sa[8], uint64_t sb[8], const uint8_t *da,
                                const uint8_t *db, uint64_t nblocks)
{
	const __m256i bswap =
	    _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)hv_bswap64));
	uint64_t wk[160] __attribute__((aligned(32)));
	/* State word i of both streams: sa's in the low qword, sb's in the high one. */
	__m128i a = _mm_set_epi64x((long long)sb[0], (long long)sa[0]);
	__m128i b = _mm_set_epi64x((long long)sb[1], (long long)sa[1]);
	__m128i c = _mm_set_epi64x((long long)sb[2], (long long)sa[2]);
	__m128i d = _mm_set_epi64x((long long)sb[3], (long long)sa[3]);
	__m128i e = _mm_set_epi64x((long long)sb[4], (long long)sa[4]);
	__m128i f = _mm_set_epi64x((long long)sb[5], (long long)sa[5]);
	__m128i g = _mm_set_epi64x((long long)sb[6], (long long)sa[6]);
	__m128i h = _mm_set_epi64x((long long)sb[7], (long long)sa[7]);
	for (; nblocks; nblocks--, da += 128, db += 128) {
		__m256i x0, x1, x2, x3, x4, x5, x6, x7;
#define VLOADW(x, j)                                                                               \
	do {                                                                                       \
		x = _mm256_shuffle_epi8(                                                           \
		    _mm256_inserti128_si256(                                                       \
		        _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(da + 16 * (j)))), \
		        _mm_loadu_si128((const __m128i *)(db + 16 * (j))), 1),                     \
		    bswap);                                                                        \
		VSTOREWK(x, 2 * (j));                                                              \
	} while (0)
		VLOADW(x0, 0);
		VLOADW(x1, 1);
		VLOADW(x2, 2);
		VLOADW(x3, 3);
		VLOADW(x4, 4);
		VLOADW(x5, 5);
		VLOADW(x6, 6);
		VLOADW(x7, 7);
#undef VLOADW
		__asm__ volatile("" ::: "memory"); /* as in VPAIR */
		const __m128i a0 = a, b0 = b, c0 = c, d0 = d, e0 = e, f0 = f, g0 = g, h0 = h;
		VGROUP(0);
		VGROUP(16);
		VGROUP(32);
		VGROUP(48);
		VGROUP(64);
		a = _mm_add_epi64(a, a0);
		b = _mm_add_epi64(b, b0);
		c = _mm_add_epi64(c, c0);
		d = _mm_add_epi64(d, d0);
		e = _mm_add_epi64(e, e0);
		f = _mm_add_epi64(f, f0);
		g = _mm_add_epi64(g, g0);
		h = _mm_add_epi64(h, h0);
	}
#define VSTOREST(v, i)                                                                             \
	do {                                                                                       \
		sa[i] = (uint64_t)_mm_cvtsi128_si64(v);                                            \
		sb[i] = (uint64_t)_mm_extract_epi64(v, 1);                                         \
	} while (0)
	VSTOREST(a, 0);
	VSTOREST(b, 1);
	VSTOREST(c, 2);
	VSTOREST(d, 3);
	VSTOREST(e, 4);
	VSTOREST(f, 5);
	VSTOREST(g, 6);
	VSTOREST(h, 7);
#undef VSTOREST
}

/* One stream: sha512_avx2.c's scalar rounds beside the two-block schedule, here with AVX-512VL's
 * rotate and three-input logic in the schedule (a Sigma in 4 instructions, not 8) and its 32
 * vector registers (the AVX2 form spills schedule words). */
#define X5_BITS  256
#define X5_VL    1
#define X5_CORE  sha512_avx512_core
#define X5_NAME1 sha512_x1_avx512
#include "sha512_x1_tpl.h"
