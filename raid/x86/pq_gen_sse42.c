/* pq_gen and pq_check on 128-bit vectors (SSE4.1), products by 2 with add and PBLENDVB. */
#define RAID_W 16
#define RAID_GFNI 0
#define RAID_SFX sse42
#include "raid_simd.h"
#include "pq_tpl.h"
