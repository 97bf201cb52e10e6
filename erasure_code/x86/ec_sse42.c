/* Erasure-code kernels on 128-bit vectors, products by nibble lookups (PSHUFB, SSSE3) in the
 * portable tables: the x86-64-v2 form of ec_avx2.c. Without VEX a shuffle overwrites its table,
 * so every product takes a copy of both halves: a register copy (free, the renamer absorbs it)
 * where the tables fit the registers, a load from L1 in the few-source kernels, which have more
 * tables than registers. The shapes (the fastest against ISA-L's SSE kernels on a Zen 5): one
 * row four vectors wide, two to four rows two (a third column spilled), five and six rows one. */
#define EC_W         16
#define EC_GFNI      0
#define EC_SFX       sse42
#define EC_RMAX      6
#define EC_COLS      2
#define EC_COLS_MANY 1
#define EC_COLS_FEW  2
#define EC_COLS_ONE  4
#define EC_ACC_STEP  4
#include "ec_tpl.h"
