/* pq_gen and pq_check on 256-bit vectors, products by 2 with add and VPBLENDVB. */
#define RAID_W 32
#define RAID_GFNI 0
#define RAID_SFX avx2
#include "raid_simd.h"
#include "pq_tpl.h"
