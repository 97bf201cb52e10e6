/* Levels 1-2 built for AVX2 + BMI1/BMI2: the same code as ../deflate_match_tpl.h, compiled with
 * shlx/shrx/tzcnt available, which keeps more of the pair loop's state in registers. */
#include "deflate_arch.h"

#define DEFL_MATCH_SUFFIX avx2
#include "../deflate_match_tpl.h"
