/* pq_gen and pq_check on 256-bit vectors, products by GF2P8AFFINEQB. */
#define RAID_W 32
#define RAID_GFNI 1
#define RAID_SFX avx2_gfni
#include "raid_simd.h"
#include "pq_tpl.h"
