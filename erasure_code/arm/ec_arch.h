/* aarch64 erasure-code kernels: their declarations and their entries in ec_dispatch.c's tables.
 * The kernel file defines all five functions. */
#ifndef STOA_EC_ARM_ARCH_H
#define STOA_EC_ARM_ARCH_H

#include "../ec_internal.h"
#include "common/arm/tokens.h"

#pragma GCC visibility push(hidden)

/* Advanced SIMD, products by TBL nibble lookups in the portable tables (ec_neon.c). */
EC_DECLARE_VARIANTS(neon)

#pragma GCC visibility pop

/* The entries ahead of each table's portable one: every table has the same one. */
#define EC_ARCH_ENTRIES(name) STOA_ENTRY(neon, stoa_##name##_neon)

#endif
