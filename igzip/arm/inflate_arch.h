/* aarch64 inflate kernels: their declarations and their entries in inflate_dispatch.c's tables,
 * in the form of the x86-64 ones (../x86/). */
#ifndef STOA_INFLATE_ARM_ARCH_H
#define STOA_INFLATE_ARM_ARCH_H

#include "../inflate_internal.h"
#include "common/arm/tokens.h"

#pragma GCC visibility push(hidden)

uint32_t adler32_neon(uint32_t init, const unsigned char *buf, uint64_t len);

#pragma GCC visibility pop

#define INFL_ARCH_ENTRIES(name) INFL_ARM_ENTRIES_##name
#define INFL_ARM_ENTRIES_inflate_huff
#define INFL_ARM_ENTRIES_inf_table_double
#define INFL_ARM_ENTRIES_isal_adler32 STOA_ENTRY(neon, adler32_neon)
/* (The copy then NEON's sum: the base entry.) */
#define INFL_ARM_ENTRIES_inf_adler32_copy

#endif
