/* Erasure-code kernels on 512-bit vectors, one GF2P8AFFINEQB per product and one three-way XOR
 * per two sources: blocks of up to six rows by two vectors, or one or two rows by four. One
 * vector per row where that measured faster on Zen 4 against blocks of four: the accumulating
 * calls (gf_vect_mad at 4 KiB 183 -> 189 GB/s), and passes of one or two rows over data beyond L1
 * (2+1 decode at 64 KiB 114 -> 116, at 1 MiB 94 -> 98 GB/s; 3+2 at 64 KiB 114 -> 116), unless
 * many sources stream from beyond L2 (4+2 at 1 MiB ran 97 with four vectors, 91 with one). Wider
 * passes over more than 16 streams from beyond L2 also take one (16+4 at 1 MiB: decode 32-37 ->
 * 51-52 GB/s, encode 39 -> 49; ISA-L's one-vector kernels 47-50). */
#define EC_W        64
#define EC_GFNI     1
#define EC_SFX      avx512_gfni
#define EC_RMAX     6
#define EC_COLS     2
#define EC_COLS_FEW 4
#define EC_COLS_ACC 1
#define EC_COLS_FAR 1
#define EC_COLS_CROWDED 1
#include "ec_tpl.h"
