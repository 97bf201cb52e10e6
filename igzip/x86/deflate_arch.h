/* x86-64 deflate kernels: their declarations and their entries in deflate_dispatch.c's tables.
 * Each is a portable file built again with AVX2 and BMI1/BMI2 (shlx, shrx, tzcnt), or for the
 * match finders with SSE4.2 (x86-64-v2), both with the vector match extension of
 * deflate_extend.h. */
#ifndef STOA_DEFLATE_X86_ARCH_H
#define STOA_DEFLATE_X86_ARCH_H

#include "../deflate_internal.h"
#include "common/x86/tokens.h"

#pragma GCC visibility push(hidden)

defl_lvl0_fn defl_lvl0_avx2, defl_lvl0_sse42;
defl_tok_fn defl_tok_lvl1_avx2, defl_tok_lvl2_avx2, defl_tok_lvl1_sse42, defl_tok_lvl2_sse42;
defl_write_tokens_fn defl_write_tokens_avx2;
defl_entropy_fn defl_entropy_avx2;
defl_path_fn defl_path_avx2, defl_path_sse42;

#pragma GCC visibility pop

#define DEFL_ARCH_ENTRIES(name) DEFL_X86_ENTRIES_##name
#define DEFL_X86_ENTRIES_defl_lvl0                                                                  \
	STOA_ENTRY(avx2, defl_lvl0_avx2) STOA_ENTRY(sse42, defl_lvl0_sse42)
#define DEFL_X86_ENTRIES_defl_tok_lvl1                                                             \
	STOA_ENTRY(avx2, defl_tok_lvl1_avx2) STOA_ENTRY(sse42, defl_tok_lvl1_sse42)
#define DEFL_X86_ENTRIES_defl_tok_lvl2                                                             \
	STOA_ENTRY(avx2, defl_tok_lvl2_avx2) STOA_ENTRY(sse42, defl_tok_lvl2_sse42)
#define DEFL_X86_ENTRIES_defl_tok_lvl3
#define DEFL_X86_ENTRIES_defl_write_tokens STOA_ENTRY(avx2, defl_write_tokens_avx2)
#define DEFL_X86_ENTRIES_defl_entropy STOA_ENTRY(avx2, defl_entropy_avx2)
#define DEFL_X86_ENTRIES_defl_path                                                                 \
	STOA_ENTRY(avx2, defl_path_avx2) STOA_ENTRY(sse42, defl_path_sse42)

#endif
