/* pq_gen and pq_check on 512-bit vectors: products by GF2P8AFFINEQB, three-way XORs by
 * VPTERNLOGQ. */
#define RAID_W 64
#define RAID_GFNI 1
#define RAID_SFX avx512_gfni
#include "raid_simd.h"
#include "pq_tpl.h"
