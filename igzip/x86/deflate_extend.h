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

#endif
