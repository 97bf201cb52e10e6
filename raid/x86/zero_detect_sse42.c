/* isal_zero_detect on 128-bit vectors (SSE4.1). */
#define RAID_W 16
#define RAID_GFNI 0
#define RAID_SFX sse42
#include "raid_simd.h"
#include "zero_detect_tpl.h"
