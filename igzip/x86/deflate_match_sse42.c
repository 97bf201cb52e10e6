/* Levels 1-2 for x86-64-v2 (SSE4.2): ../deflate_match_tpl.h with the SSE2 match extension, which
 * the portable build that CPUs without AVX2 would otherwise take lacks. */
#include "deflate_arch.h"
#include "deflate_extend.h"

#define DEFL_MATCH_SUFFIX sse42
#define DEFL_EXTEND_FROM8 defl_extend_from8_x86
#define DEFL_SAME_MAX     defl_same_max_x86
#define DEFL_PREFIX_MAX   defl_prefix_max_x86
#include "../deflate_match_tpl.h"
