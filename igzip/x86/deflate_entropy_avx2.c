/* The entropy of a histogram (defl_entropy) on 256-bit vectors, eight counts a step: the exact
 * value of the portable loop. A count c below 2^24 converts to a float exactly, and that float's
 * exponent is floor(log2 c) while its mantissa's top four bits are the four bits after c's
 * leading one, the index into DEFL_LG256_FRAC that the portable code takes from the normalized
 * count; VPSHUFB looks the fractions up. The products c * 256 log2 c take 64-bit lanes. A count
 * of 2^24 or more (never in a block, whose counts stay below its 256 KiB of input) sends the
 * whole histogram to the portable loop.
 *
 * Streaming levels 1-3 weigh each 16 KiB of input this way (deflate_stream.c's checkpoints):
 * on Zen 3 the portable loop took 5% of streaming level 1's time. */
#include <immintrin.h>

#include "deflate_arch.h"

/* The counts at h (n < 8 of them: the rest zero). */
static inline __m256i load_part(const uint32_t *h, uint32_t n)
{
	const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), lane);
	return _mm256_maskload_epi32((const int *)h, mask);
}

uint64_t defl_entropy_avx2(const uint32_t *h, uint32_t n)
{
	static const uint8_t frac16[16] = { DEFL_LG256_FRAC };
	const __m256i frac = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)frac16));
	const __m256i zero = _mm256_setzero_si256(), nib = _mm256_set1_epi32(15);
	const __m256i exp_bias = _mm256_set1_epi32(127 << 8), low32 = _mm256_set1_epi64x(0xffffffff);
	__m256i sum = _mm256_setzero_si256(), total = _mm256_setzero_si256();
	__m256i any = _mm256_setzero_si256();
	for (uint32_t i = 0; i < n; i += 8) {
		const __m256i c = n - i >= 8 ? _mm256_loadu_si256((const __m256i *)(h + i))
		                             : load_part(h + i, n - i);
		any = _mm256_or_si256(any, c);
		/* c, or 1 where c is 0 (the compare gives -1 there). */
		const __m256i c1 = _mm256_sub_epi32(c, _mm256_cmpeq_epi32(c, zero));
		const __m256i f = _mm256_castps_si256(_mm256_cvtepi32_ps(c1));
		/* 256 * exponent: the biased exponent moved up a byte, less the bias. */
		const __m256i e = _mm256_sub_epi32(
		    _mm256_and_si256(_mm256_srli_epi32(f, 15), _mm256_set1_epi32(0xff00)), exp_bias);
		/* The index sits in each lane's low byte and the other bytes are zero, which looks
		 * up frac[0] = 0. */
		const __m256i fr = _mm256_shuffle_epi8(frac, _mm256_and_si256(_mm256_srli_epi32(f, 19), nib));
		const __m256i lg = _mm256_add_epi32(e, fr);
		sum = _mm256_add_epi64(sum, _mm256_mul_epu32(c, lg));
		sum = _mm256_add_epi64(
		    sum, _mm256_mul_epu32(_mm256_srli_epi64(c, 32), _mm256_srli_epi64(lg, 32)));
		total = _mm256_add_epi64(total, _mm256_and_si256(c, low32));
		total = _mm256_add_epi64(total, _mm256_srli_epi64(c, 32));
	}
	if (!_mm256_testz_si256(any, _mm256_set1_epi32((int)0xff000000)))
		return defl_entropy_portable(h, n);
	uint64_t s[4], t[4];
	_mm256_storeu_si256((__m256i *)s, sum);
	_mm256_storeu_si256((__m256i *)t, total);
	const uint64_t all = t[0] + t[1] + t[2] + t[3];
	return all ? all * defl_lg256((uint32_t)all) - (s[0] + s[1] + s[2] + s[3]) : 0;
}
