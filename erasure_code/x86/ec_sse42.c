/* Erasure-code kernels on 128-bit vectors, products by nibble lookups (PSHUFB, SSSE3) in the
 * portable tables: the x86-64-v2 form of ec_avx2.c. Without VEX a shuffle overwrites its table, so
 * every product reloads its table halves from L1 (loads have ports to spare) instead of holding
 * them in registers. */
#define EC_W        16
#define EC_GFNI     0
#define EC_SFX      sse42
#define EC_RMAX     6
#define EC_COLS     1
#define EC_COLS_FEW 2
#include "ec_tpl.h"
