/* aarch64 erasure-code kernels: their declarations and their entries in ec_dispatch.c's tables.
 * Each kernel file defines all five functions. */
#ifndef STOA_EC_ARM_ARCH_H
#define STOA_EC_ARM_ARCH_H

#include "../ec_internal.h"
#include "common/arm/tokens.h"

#pragma GCC visibility push(hidden)

/* Advanced SIMD, products by TBL nibble lookups in the portable tables (ec_neon.c). */
EC_DECLARE_VARIANTS(neon)
/* ec_neon.c's engine, which the SVE kernels hand 128-bit passes where it is shorter: rows [0,
 * rows) of dst, ec_portable's arguments. */
void ec_run_neon(size_t len, size_t k, size_t rows, const uint8_t *tbls, size_t rstride,
		 size_t jstride, const uint8_t *const *src, uint8_t *const *dst, int accumulate);
/* SVE at the CPU's vector length, the same lookups (ec_sve.c, ec_sve2.c: ec_sve_tpl.h); SVE2
 * adds EOR3. */
EC_DECLARE_VARIANTS(sve)
EC_DECLARE_VARIANTS(sve2)

#pragma GCC visibility pop

/* The entries ahead of each table's portable one: every table has the same three. */
#define EC_ARCH_ENTRIES(name)                                                                      \
	STOA_ENTRY(sve2, stoa_##name##_sve2)                                                       \
	STOA_ENTRY(sve, stoa_##name##_sve)                                                         \
	STOA_ENTRY(neon, stoa_##name##_neon)

#endif
