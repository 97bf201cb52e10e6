/* Levels 10-12's cheapest path, a match's lengths weighed four a step (deflate_path.h). */
#include <arm_neon.h>

#include "deflate_arch.h"

#define PATH_LANES 4u
typedef uint32x4_t path_vec;
#define PATH_SUM(lc, rest, l) vaddq_u32(vld1q_u32((lc) + (l)), vld1q_u32((rest) + (l)))
#define PATH_MIN(a, b)        vminq_u32(a, b)
#define PATH_ONES()           vdupq_n_u32(0xffffffffu)
#define PATH_SPLAT(x)         vdupq_n_u32(x)
static inline uint32_t path_least_lane(uint32x4_t v)
{
	return vminvq_u32(v);
}
static inline uint32_t path_first(uint32x4_t y, uint32x4_t want)
{
	/* Each lane's compare narrowed to 16 bits: the lowest set bit's lane. */
	const uint64_t eq = vget_lane_u64(vreinterpret_u64_u16(vmovn_u32(vceqq_u32(y, want))), 0);
	return eq ? (uint32_t)__builtin_ctzll(eq) / 16u : PATH_LANES;
}

#include "../deflate_path.h"

void defl_path_neon(struct defl_opt *o, const uint8_t *src, uint32_t n,
                    const struct defl_opt_costs *c)
{
	path_walk(o, src, n, c);
}
