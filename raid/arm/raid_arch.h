/* aarch64 RAID kernels: their declarations and their entries in raid_dispatch.c's tables. */
#ifndef STOA_RAID_ARM_ARCH_H
#define STOA_RAID_ARM_ARCH_H

#include "../raid_internal.h"
#include "common/arm/tokens.h"

#pragma GCC visibility push(hidden)

/* Advanced SIMD, 128 bytes a step (raid_neon.c). */
raid_fn stoa_xor_gen_neon, stoa_xor_check_neon, stoa_pq_gen_neon, stoa_pq_check_neon;
raid_zero_fn stoa_isal_zero_detect_neon;

#pragma GCC visibility pop

/* The entries ahead of each table's portable one. */
#define RAID_ARCH_ENTRIES(name) STOA_ENTRY(neon, stoa_##name##_neon)

#endif
