/* Level 0 built for AVX2 + BMI1/BMI2: the same code as ../deflate_lvl0.c, compiled with
 * shlx/shrx/tzcnt available, which keeps more of the loop's state in registers, and with the
 * vector match extension. */
#include "deflate_arch.h"
#include "deflate_extend.h"

#define DEFL_LVL0_FN      defl_lvl0_avx2
#define DEFL_EXTEND_FROM8 defl_extend_from8_x86
#define DEFL_SAME_MAX     defl_same_max_x86
#include "../deflate_lvl0.c"
