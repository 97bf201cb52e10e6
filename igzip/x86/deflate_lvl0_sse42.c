/* Level 0 for x86-64-v2 (SSE4.2): ../deflate_lvl0.c with the SSE2 match extension, 3% faster on
 * Calgary than the portable build that CPUs without AVX2 would otherwise take. */
#include "deflate_arch.h"
#include "deflate_extend.h"

#define DEFL_LVL0_FN      defl_lvl0_sse42
#define DEFL_EXTEND_FROM8 defl_extend_from8_x86
#define DEFL_SAME_MAX     defl_same_max_x86
#include "../deflate_lvl0.c"
