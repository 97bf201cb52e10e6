/* xor_gen and xor_check on 512-bit vectors, three-way XORs by VPTERNLOGQ. */
#define RAID_W 64
#define RAID_GFNI 0
#define RAID_SFX avx512
#include "raid_simd.h"
#include "xor_tpl.h"
