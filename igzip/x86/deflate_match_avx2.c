/* Levels 1-2 built for AVX2 + BMI1/BMI2: the same code as ../deflate_match_tpl.h, compiled with
 * shlx/shrx/tzcnt available, which keeps more of the pair loop's state in registers, and with the
 * vector match extension (32 bytes a round). */
#include "deflate_arch.h"
#include "deflate_extend.h"

#define DEFL_MATCH_SUFFIX avx2
#define DEFL_EXTEND_FROM8 defl_extend_from8_x86
#define DEFL_SAME_MAX     defl_same_max_x86
#define DEFL_PREFIX_MAX   defl_prefix_max_x86
#include "../deflate_match_tpl.h"
