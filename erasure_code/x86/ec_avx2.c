/* Erasure-code kernels on 256-bit vectors, products by nibble lookups (VPSHUFB) in the portable
 * tables. A row needs two table registers and a source two nibble registers per vector, so with
 * sixteen YMM registers a block is up to six rows by one vector, or up to four rows by two: with
 * two vectors a row's tables, loaded once, serve both, which halves the table loads of a pass of
 * three or four rows (10+4 encode on Zen 3: 0.97 -> 1.11x ISA-L's AVX2 code). */
#define EC_W         32
#define EC_GFNI      0
#define EC_SFX       avx2
#define EC_RMAX      6
#define EC_COLS      2
#define EC_COLS_FEW  2
#define EC_COLS_MANY 1
/* gf_vect_mad at 4-64 KiB ran 0.91-0.97 or 1.01-1.06 of ISA-L by where the link put its loop
 * (the same code 80 bytes apart); aligned, it keeps the faster place. */
#define EC_ACC_ALIGN 64
#include "ec_tpl.h"
