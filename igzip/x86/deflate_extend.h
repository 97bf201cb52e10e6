/* Match extension with vector compares, for the x86 builds of the match finders (internal
 * header): a variant file includes it and defines DEFL_EXTEND_FROM8 to defl_extend_from8_x86
 * before it includes its template (../deflate_lvl0.c, ../deflate_match_tpl.h).
 *
 * The contract is defl_extend_from8's (../deflate_internal.h). 16 bytes a round with SSE2, one
 * compare and one branch where the portable form's two 8-byte words take two of each: level 0 on
 * the Calgary concatenation +3% (levels 1-3 the same); with wide set in AVX2 builds 32 first
 * (levels 1-2 on pic: +1-5%; level 0 on Calgary and pic: -4%, so it passes 0). */
#ifndef STOA_DEFLATE_EXTEND_X86_H
#define STOA_DEFLATE_EXTEND_X86_H

#include <emmintrin.h>
#ifdef __SSE4_1__
#include <smmintrin.h>
#endif
#ifdef __AVX2__
#include <immintrin.h>
#endif

#include "../deflate_internal.h"

static inline __attribute__((always_inline)) uint32_t defl_extend_from8_x86(const uint8_t *a,
									    const uint8_t *b,
									    uint32_t max,
									    const int wide)
{
	uint32_t n = 8;
#ifdef __AVX2__
	while (wide && n + 24 < max) {
		const __m256i va = _mm256_loadu_si256((const __m256i *)(const void *)(a + n));
		const __m256i vb = _mm256_loadu_si256((const __m256i *)(const void *)(b + n));
		const uint32_t ne = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(va, vb));
		if (ne) {
			n += (uint32_t)__builtin_ctz(ne);
			return n < max ? n : max;
		}
		n += 32;
	}
#else
	(void)wide;
#endif
	while (n + 8 < max) {
		const __m128i va = _mm_loadu_si128((const __m128i *)(const void *)(a + n));
		const __m128i vb = _mm_loadu_si128((const __m128i *)(const void *)(b + n));
		const uint32_t ne = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(va, vb)) ^ 0xffffu;
		if (ne) {
			n += (uint32_t)__builtin_ctz(ne);
			return n < max ? n : max;
		}
		n += 16;
	}
	if (n < max) {
		const uint64_t x = defl_load64(a + n) ^ defl_load64(b + n);
		n += x ? (uint32_t)__builtin_ctzll(x) >> 3 : 8;
	}
	return n < max ? n : max;
}

/* defl_same_max's contract with vector compares: the 258 bytes as 32- (AVX2) or 16-byte (SSE)
 * blocks, the last one overlapping, their differences or-ed together and tested once, written
 * out block by block (as a loop it ran a block a cycle, half the speed of the loads).
 * Inside a run the bytes before a repeat with period d = a - b. When d divides the block width W
 * the bytes at a match those d back exactly when every block equals the W bytes just before a
 * (and the last block, at 258 - W, the W at a + 2 - W, which block 0 has then checked): two
 * loads on that side, not one per block; the loads bound the round (byte runs at levels 1-2:
 * +30%). */
#ifdef __AVX2__
#define DEFL_X86_W        32
#define DEFL_X86_V        __m256i
#define DEFL_X86_LD(p, i) _mm256_loadu_si256((const __m256i *)(const void *)((p) + (i)))
#define DEFL_X86_XOR      _mm256_xor_si256
#define DEFL_X86_OR       _mm256_or_si256
#define DEFL_X86_ZERO(x)  _mm256_testz_si256(x, x)
#else
#define DEFL_X86_W        16
#define DEFL_X86_V        __m128i
#define DEFL_X86_LD(p, i) _mm_loadu_si128((const __m128i *)(const void *)((p) + (i)))
#define DEFL_X86_XOR      _mm_xor_si128
#define DEFL_X86_OR       _mm_or_si128
#ifdef __SSE4_1__
#define DEFL_X86_ZERO(x) _mm_testz_si128(x, x)
#else
#define DEFL_X86_ZERO(x) (_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128())) == 0xffff)
#endif
#endif
/* The differences of the 256 bytes at a from those at b (pat: from the W bytes before a), or-ed
 * in two accumulators. */
static inline __attribute__((always_inline)) DEFL_X86_V defl_diff256_x86(const uint8_t *a,
									 const uint8_t *b,
									 const int pat)
{
	const DEFL_X86_V p = DEFL_X86_LD(a, -DEFL_X86_W);
	DEFL_X86_V x0 = DEFL_X86_XOR(DEFL_X86_LD(a, 0), pat ? p : DEFL_X86_LD(b, 0));
	DEFL_X86_V x1 =
	    DEFL_X86_XOR(DEFL_X86_LD(a, DEFL_X86_W), pat ? p : DEFL_X86_LD(b, DEFL_X86_W));
#pragma GCC unroll 8
	for (int i = 2 * DEFL_X86_W; i < 256; i += 2 * DEFL_X86_W) {
		x0 = DEFL_X86_OR(x0, DEFL_X86_XOR(DEFL_X86_LD(a, i), pat ? p : DEFL_X86_LD(b, i)));
		x1 = DEFL_X86_OR(x1, DEFL_X86_XOR(DEFL_X86_LD(a, i + DEFL_X86_W),
						  pat ? p : DEFL_X86_LD(b, i + DEFL_X86_W)));
	}
	return DEFL_X86_OR(x0, x1);
}

/* (Reads the W bytes before a: a caller's run has them.) */
static inline __attribute__((always_inline)) int defl_same_max_x86(const uint8_t *a,
								   const uint8_t *b)
{
	const size_t d = (size_t)(a - b);
	const int tail = DEFL_MAX_MATCH - DEFL_X86_W;
	DEFL_X86_V x;
	if ((d & (d - 1)) == 0 && d <= DEFL_X86_W) {
		x = defl_diff256_x86(a, b, 1);
		x = DEFL_X86_OR(x,
				DEFL_X86_XOR(DEFL_X86_LD(a, tail), DEFL_X86_LD(a, 2 - DEFL_X86_W)));
	} else {
		x = defl_diff256_x86(a, b, 0);
		x = DEFL_X86_OR(x, DEFL_X86_XOR(DEFL_X86_LD(a, tail), DEFL_X86_LD(b, tail)));
	}
	return DEFL_X86_ZERO(x);
}
#undef DEFL_X86_ZERO
#undef DEFL_X86_OR
#undef DEFL_X86_XOR
#undef DEFL_X86_V
#undef DEFL_X86_W

/* The common prefix of a and b when both have DEFL_MAX_MATCH readable bytes: every block
 * compared, then the first difference picked by conditional moves, with no branch per block
 * that the match's length would make mispredict (the ends of byte runs, a loop's exit). */
static inline __attribute__((always_inline)) uint32_t defl_prefix_max_x86(const uint8_t *a,
									  const uint8_t *b)
{
	/* q(k) bit i: byte 64 k + i differs */
#ifdef __AVX2__
#define DEFL_X86_M(i)                                                                              \
	(uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(DEFL_X86_LD(a, i), DEFL_X86_LD(b, i)))
#define DEFL_X86_Q(k) ~(DEFL_X86_M(64 * (k)) | DEFL_X86_M(64 * (k) + 32) << 32)
#else
#define DEFL_X86_M(i)                                                                              \
	(uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(DEFL_X86_LD(a, i), DEFL_X86_LD(b, i)))
#define DEFL_X86_Q(k)                                                                              \
	~(DEFL_X86_M(64 * (k)) | DEFL_X86_M(64 * (k) + 16) << 16 | DEFL_X86_M(64 * (k) + 32) << 32 | \
	  DEFL_X86_M(64 * (k) + 48) << 48)
#endif
	const uint64_t q0 = DEFL_X86_Q(0), q1 = DEFL_X86_Q(1), q2 = DEFL_X86_Q(2),
		       q3 = DEFL_X86_Q(3);
	/* Bytes 256 and 257 in the low 16 bits, and a stop at 258. */
	const uint64_t last =
	    (defl_load64(a + DEFL_MAX_MATCH - 8) ^ defl_load64(b + DEFL_MAX_MATCH - 8)) >> 48 |
	    1u << 16;
	uint32_t n = 256 + ((uint32_t)__builtin_ctzll(last) >> 3);
	n = q3 ? 192 + (uint32_t)__builtin_ctzll(q3) : n;
	n = q2 ? 128 + (uint32_t)__builtin_ctzll(q2) : n;
	n = q1 ? 64 + (uint32_t)__builtin_ctzll(q1) : n;
	n = q0 ? (uint32_t)__builtin_ctzll(q0) : n;
	return n;
}
#undef DEFL_X86_Q
#undef DEFL_X86_M
#undef DEFL_X86_LD

#endif
