/* x86-64 erasure-code kernels: their declarations and their entries in ec_dispatch.c's tables.
 * Each kernel file (ec_tpl.h at one width, with or without GFNI) defines all five functions. */
#ifndef STOA_EC_X86_ARCH_H
#define STOA_EC_X86_ARCH_H

#include "../ec_internal.h"
#include "common/x86/tokens.h"

#pragma GCC visibility push(hidden)

EC_DECLARE_VARIANTS(sse42)
EC_DECLARE_VARIANTS(avx2)
EC_DECLARE_VARIANTS(avx2_gfni)
EC_DECLARE_VARIANTS(avx512)
EC_DECLARE_VARIANTS(avx512_gfni)

#pragma GCC visibility pop

/* The entries ahead of each table's portable one: every table has the same five. */
#define EC_ARCH_ENTRIES(name)                                                                      \
	STOA_ENTRY(avx512_gfni, stoa_##name##_avx512_gfni)                                         \
	STOA_ENTRY(avx512, stoa_##name##_avx512)                                                   \
	STOA_ENTRY(avx2_gfni, stoa_##name##_avx2_gfni)                                             \
	STOA_ENTRY(avx2, stoa_##name##_avx2)                                                       \
	STOA_ENTRY(sse42, stoa_##name##_sse42)

#endif
