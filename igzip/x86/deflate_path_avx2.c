/* Levels 10-12's cheapest path, a match's lengths weighed eight a step (deflate_path.h). */
#include <immintrin.h>
#include <stddef.h>

#include "deflate_arch.h"

#define PATH_LANES 8u
typedef __m256i path_vec;
#define PATH_SUM(lc, rest, l)                                                                     \
	_mm256_add_epi32(_mm256_loadu_si256((const __m256i *)((lc) + (l))),                       \
	                 _mm256_loadu_si256((const __m256i *)((rest) + (l))))
/* Lanes k.. all ones: the mask loaded from 8 - k on. */
static const int32_t path_tail[16] __attribute__((aligned(32))) = { 0,  0,  0,  0,  0,  0,  0,  0,
                                                                    -1, -1, -1, -1, -1, -1, -1, -1 };
#define PATH_SUM_FIRST(lc, rest, l, k)                                                            \
	_mm256_or_si256(PATH_SUM(lc, rest, l),                                                     \
	                _mm256_loadu_si256((const __m256i *)(path_tail + PATH_LANES - (k))))
#define PATH_MIN(a, b) _mm256_min_epu32(a, b)
#define PATH_ONES()    _mm256_set1_epi32(-1)
#define PATH_SPLAT(x)  _mm256_set1_epi32((int)(x))
static inline uint32_t path_least_lane(__m256i v)
{
	__m128i h = _mm_min_epu32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
	h = _mm_min_epu32(h, _mm_shuffle_epi32(h, 0x4e));
	h = _mm_min_epu32(h, _mm_shuffle_epi32(h, 0xb1));
	return (uint32_t)_mm_cvtsi128_si32(h);
}
static inline uint32_t path_first(__m256i y, __m256i want)
{
	const uint32_t eq =
	    (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(y, want)));
	return eq ? (uint32_t)__builtin_ctz(eq) : PATH_LANES;
}

#include "../deflate_path.h"

/* PATH_SUM_FIRST reads up to 7 lanes past the last length it weighs, in the costs and in the
 * path's costs to the end: more of their structs lies there. */
_Static_assert(offsetof(struct defl_opt_costs, len) + (DEFL_MAX_MATCH + 1 + 7) * 4 <=
                   sizeof(struct defl_opt_costs),
               "lengths' costs followed by 7 more words");
_Static_assert(offsetof(struct defl_opt, cost) + (DEFL_OPT_CHUNK + 1 + 7) * 4 <=
                   sizeof(struct defl_opt),
               "path costs followed by 7 more words");

void defl_path_avx2(struct defl_opt *o, const uint8_t *src, uint32_t n,
                    const struct defl_opt_costs *c)
{
	path_walk(o, src, n, c);
}
