/* x86-64 inflate kernels: their declarations and their entries in inflate_dispatch.c's tables. */
#ifndef STOA_INFLATE_X86_ARCH_H
#define STOA_INFLATE_X86_ARCH_H

#include "../inflate_internal.h"
#include "common/x86/tokens.h"

#pragma GCC visibility push(hidden)

inf_block_fn inflate_huff_avx2;
inf_double_fn inf_table_double_avx2;
uint32_t adler32_avx2(uint32_t init, const unsigned char *buf, uint64_t len);
uint32_t adler32_avx512(uint32_t init, const unsigned char *buf, uint64_t len);
uint32_t adler32_copy_avx2(uint32_t init, unsigned char *dst, const unsigned char *buf,
                           uint64_t len);
uint32_t adler32_copy_avx512(uint32_t init, unsigned char *dst, const unsigned char *buf,
                             uint64_t len);

#pragma GCC visibility pop

#define INFL_ARCH_ENTRIES(name)       INFL_X86_ENTRIES_##name
#define INFL_X86_ENTRIES_inflate_huff STOA_ENTRY(avx2, inflate_huff_avx2)
#define INFL_X86_ENTRIES_inf_table_double STOA_ENTRY(avx2, inf_table_double_avx2)
#define INFL_X86_ENTRIES_isal_adler32                                                              \
	STOA_ENTRY(avx512, adler32_avx512) STOA_ENTRY(avx2, adler32_avx2)
#define INFL_X86_ENTRIES_inf_adler32_copy                                                          \
	STOA_ENTRY(avx512, adler32_copy_avx512) STOA_ENTRY(avx2, adler32_copy_avx2)

#endif
