/* Erasure-code kernels on 512-bit vectors, one GF2P8AFFINEQB per product and one three-way XOR
 * per two sources: blocks of up to six rows by two vectors, or one or two rows by four. */
#define EC_W        64
#define EC_GFNI     1
#define EC_SFX      avx512_gfni
#define EC_RMAX     6
#define EC_COLS     2
#define EC_COLS_FEW 4
#include "ec_tpl.h"
