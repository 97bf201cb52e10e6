/* Erasure-code kernels on 256-bit vectors, one GF2P8AFFINEQB per product: blocks of up to four
 * rows by two vectors, which with the sources and matrices fill the sixteen YMM registers, or one
 * or two rows by four. */
#define EC_W        32
#define EC_GFNI     1
#define EC_SFX      avx2_gfni
#define EC_RMAX     4
#define EC_COLS     2
#define EC_COLS_FEW 4
#include "ec_tpl.h"
