/* xor_gen and xor_check on 256-bit vectors. */
#define RAID_W 32
#define RAID_GFNI 0
#define RAID_SFX avx2
#include "raid_simd.h"
#include "xor_tpl.h"
