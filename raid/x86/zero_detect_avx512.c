/* isal_zero_detect on 512-bit vectors, the last partial vector by a masked load. */
#define RAID_W 64
#define RAID_GFNI 0
#define RAID_SFX avx512
#include "raid_simd.h"
#include "zero_detect_tpl.h"
