/* Erasure-code kernels on 512-bit vectors, products by nibble lookups (VPSHUFB) in the portable
 * tables: blocks of up to six rows by two vectors, or one or two rows by four. */
#define EC_W        64
#define EC_GFNI     0
#define EC_SFX      avx512
#define EC_RMAX     6
#define EC_COLS     2
#define EC_COLS_FEW 4
/* One vector per row for passes of one or two rows over more than L2 holds (gf_vect_dot_prod k=10
 * at 1 MiB: 0.90 of ISA-L's with four, 1.05 with one); inside L2 four stay faster. */
#define EC_COLS_FAR      1
#define EC_FAR_BEYOND_L2 1
/* Two vectors per row for one row from up to three sources between L1 and half of L2 (2+1
 * decode at 64 KiB: 0.93-1.03 of ISA-L's with four, 1.21 with two; see EC_FN(mid)). */
#define EC_COLS_MID 2
/* The update kernels load every output row's vector before they store any: with outputs
 * streaming from L3 (10+4 update at 1 MiB) 1.06x faster than each row in turn. The other widths
 * keep row by row (up to 12% slower this way). */
#define EC_ACC_LOADS_FIRST 1
/* Accumulating calls that run from L2 take a loop of their own (gf_vect_mad at 64 KiB: 0.95 of
 * ISA-L's with the general one, 1.08 with it; see EC_FN(acc_loop)). */
#define EC_ACC_MID 1
#include "ec_tpl.h"
