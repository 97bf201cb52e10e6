/* Level 0 built for AVX2 + BMI1/BMI2: the same code as ../deflate_lvl0.c, compiled with
 * shlx/shrx/tzcnt available, which keeps more of the loop's state in registers. */
#include "deflate_arch.h"

#define DEFL_LVL0_FN defl_lvl0_avx2
#include "../deflate_lvl0.c"
