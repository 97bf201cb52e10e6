/* pq_gen and pq_check on 512-bit vectors, products by 2 with add and a byte-masked reduction. */
#define RAID_W 64
#define RAID_GFNI 0
#define RAID_SFX avx512
#include "raid_simd.h"
#include "pq_tpl.h"
