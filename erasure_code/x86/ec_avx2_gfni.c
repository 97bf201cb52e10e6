/* Erasure-code kernels on 256-bit vectors, one GF2P8AFFINEQB per product: blocks of up to four
 * rows by two vectors, which with the sources and matrices fill the sixteen YMM registers, or one
 * or two rows by four. */
#define EC_W        32
#define EC_GFNI     1
#define EC_SFX      avx2_gfni
#define EC_RMAX     4
#define EC_COLS     2
#define EC_COLS_FEW 4
/* One row from many sources three vectors at a time (gf_vect_dot_prod k=10 at 4 KiB: 0.88 of
 * ISA-L's with four, level with three). */
#define EC_COLS_ONE 3
/* One vector per row for passes of one or two rows over more than L2 holds, from up to three
 * sources, and from more where the L1 data cache has 12 ways (Zen 5: 10+4 decode of two losses
 * at 1 MiB 0.82 of ISA-L's with four, level with one); with 8 ways (Zen 4) the same decode ran
 * 0.78 of ISA-L's with one and 1.03 with four. The L1's geometry stands for a cause not found:
 * the buffers measured lay in different cache sets. */
#define EC_COLS_FAR      1
#define EC_FAR_BEYOND_L2 1
#include "ec_tpl.h"
