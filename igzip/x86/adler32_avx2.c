/* Adler-32 with AVX2: per 32-byte block, s1 grows by the bytes' sum (vpsadbw) and s2 by 32 times
 * the s1 before the block plus the bytes weighted 32..1 (vpmaddubsw, vpmaddwd). */
#include <immintrin.h>

#include "inflate_arch.h"

#define ADLER_MOD 65521u
/* Blocks per reduction: 32 * s1 accumulations must stay below 2^32 in each lane. */
#define ADLER_BLOCKS 173u

uint32_t adler32_avx2(uint32_t init, const unsigned char *buf, uint64_t len)
{
	uint32_t s1 = (init & 0xffff) % ADLER_MOD, s2 = (init >> 16) % ADLER_MOD;
	const __m256i weights =
	    _mm256_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15,
	                     14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
	const __m256i ones = _mm256_set1_epi16(1);
	const __m256i zero = _mm256_setzero_si256();

	while (len >= 32) {
		uint64_t blocks = len / 32;
		if (blocks > ADLER_BLOCKS)
			blocks = ADLER_BLOCKS;
		len -= blocks * 32;
		__m256i vs1 = zero, vs2 = zero, vps = zero;
		/* s2 gains blocks*32*s1 from the s1 held before this run. */
		s2 += (uint32_t)(blocks * 32) * s1;
		for (uint64_t b = 0; b < blocks; b++) {
			__m256i v = _mm256_loadu_si256((const __m256i *)buf);
			buf += 32;
			vps = _mm256_add_epi32(vps, vs1);
			vs1 = _mm256_add_epi32(vs1, _mm256_sad_epu8(v, zero));
			vs2 = _mm256_add_epi32(
			    vs2, _mm256_madd_epi16(_mm256_maddubs_epi16(v, weights), ones));
		}
		vs2 = _mm256_add_epi32(vs2, _mm256_slli_epi32(vps, 5));
		__m128i a =
		    _mm_add_epi32(_mm256_castsi256_si128(vs1), _mm256_extracti128_si256(vs1, 1));
		a = _mm_add_epi32(a, _mm_unpackhi_epi64(a, a));
		__m128i c =
		    _mm_add_epi32(_mm256_castsi256_si128(vs2), _mm256_extracti128_si256(vs2, 1));
		c = _mm_add_epi32(c, _mm_unpackhi_epi64(c, c));
		c = _mm_add_epi32(c, _mm_shuffle_epi32(c, 1));
		s1 = (s1 + (uint32_t)_mm_cvtsi128_si32(a)) % ADLER_MOD;
		s2 = (s2 % ADLER_MOD + (uint32_t)_mm_cvtsi128_si32(c) % ADLER_MOD) % ADLER_MOD;
	}
	return adler32_portable((s2 << 16) | s1, buf, len);
}
