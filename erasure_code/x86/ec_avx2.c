/* Erasure-code kernels on 256-bit vectors, products by nibble lookups (VPSHUFB) in the portable
 * tables. A row needs two table registers and a source two nibble registers, so with sixteen YMM
 * registers a block is up to six rows by one vector, or two rows by two. */
#define EC_W        32
#define EC_GFNI     0
#define EC_SFX      avx2
#define EC_RMAX     6
#define EC_COLS     1
#define EC_COLS_FEW 2
#include "ec_tpl.h"
