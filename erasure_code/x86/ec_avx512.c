/* Erasure-code kernels on 512-bit vectors, products by nibble lookups (VPSHUFB) in the portable
 * tables: blocks of up to six rows by two vectors, or one or two rows by four. */
#define EC_W        64
#define EC_GFNI     0
#define EC_SFX      avx512
#define EC_RMAX     6
#define EC_COLS     2
#define EC_COLS_FEW 4
#include "ec_tpl.h"
