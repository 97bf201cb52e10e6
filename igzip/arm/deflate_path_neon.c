/* Levels 10-12's cheapest path, a match's lengths weighed four a step (deflate_path.h). */
#define DEFL_PATH_VECTOR
#include "deflate_arch.h"
#include "../deflate_path.h"

void defl_path_neon(struct defl_opt *o, const uint8_t *src, uint32_t n,
                    const struct defl_opt_costs *c)
{
	path_walk(o, src, n, c);
}
