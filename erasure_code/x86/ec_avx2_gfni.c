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
 * at 1 MiB 0.82 of ISA-L's with four, level with one). With 8 (Zen 4) four ran faster from six
 * sources on: at 1 MiB 6+3, 8+3, 10+4, 12+4 decode of two losses 0.71-0.79 of ISA-L's with one,
 * 1.01-1.05 with four; 16+4 0.82-0.93 against 1.01. Prefetching each source 512-2048 bytes
 * ahead made one vector slower still (0.49-0.64). */
#define EC_COLS_FAR      1
#define EC_FAR_BEYOND_L2 1
#include "ec_tpl.h"
