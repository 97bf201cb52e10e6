/* Erasure-code kernels on 512-bit vectors, one GF2P8AFFINEQB per product and one three-way XOR
 * per two sources: blocks of up to six rows by two vectors, or one or two rows by four. One
 * vector per row where that is faster than blocks of four: the accumulating calls, passes of one
 * or two rows over data beyond L1 unless many sources stream from beyond L2, and wide passes
 * over more than 16 streams from beyond L2 (16+4 decode at 1 MiB: 1.4-1.6x with one vector). */
#define EC_W        64
#define EC_GFNI     1
#define EC_SFX      avx512_gfni
#define EC_RMAX     6
#define EC_COLS     2
#define EC_COLS_FEW 4
#define EC_COLS_ACC 1
#define EC_COLS_FAR 1
#define EC_COLS_CROWDED 1
/* Those two-row passes beyond L1 fold the sources in one at a time, as ISA-L's
 * gf_2vect_dot_prod does: pairs issue fewer instructions but stall on their loads from L2 (10+4
 * decoding two losses at 64 KiB: 1.18x ISA-L so, 0.90-1.04 in pairs). */
#define EC_FAR_SINGLES 1
/* Near, though, up to the L1 data cache's size (48 KiB on Zen 5), not EC_NEAR_BYTES (10+4
 * decoding two losses at 4 KiB: 1.73x ISA-L so, 1.12 far). */
#define EC_NEAR_L1D 1
/* The row functions start on a cache line: with the start 16 bytes further into one, 2+1 at
 * 64 KiB ran 4-6% slower with the same instructions. */
#define EC_ROWS_ALIGN 64
#include "ec_tpl.h"
