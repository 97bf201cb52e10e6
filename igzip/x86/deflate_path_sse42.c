/* Levels 10-12's cheapest path, a match's lengths weighed four a step (deflate_path.h), for
 * x86-64-v2 CPUs (SSE4.1's unsigned minimum). */
#include <smmintrin.h>

#include "deflate_arch.h"

#define PATH_LANES 4u
typedef __m128i path_vec;
#define PATH_SUM(lc, rest, l)                                                                     \
	_mm_add_epi32(_mm_loadu_si128((const __m128i *)((lc) + (l))),                             \
	              _mm_loadu_si128((const __m128i *)((rest) + (l))))
#define PATH_MIN(a, b) _mm_min_epu32(a, b)
#define PATH_ONES()    _mm_set1_epi32(-1)
#define PATH_SPLAT(x)  _mm_set1_epi32((int)(x))
static inline uint32_t path_least_lane(__m128i h)
{
	h = _mm_min_epu32(h, _mm_shuffle_epi32(h, 0x4e));
	h = _mm_min_epu32(h, _mm_shuffle_epi32(h, 0xb1));
	return (uint32_t)_mm_cvtsi128_si32(h);
}
static inline uint32_t path_first(__m128i y, __m128i want)
{
	const uint32_t eq = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(y, want)));
	return eq ? (uint32_t)__builtin_ctz(eq) : PATH_LANES;
}

#include "../deflate_path.h"

void defl_path_sse42(struct defl_opt *o, const uint8_t *src, uint32_t n,
                     const struct defl_opt_costs *c)
{
	path_walk(o, src, n, c);
}
