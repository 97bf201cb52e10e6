/* x86-64 RAID kernels: their declarations and their entries in raid_dispatch.c's tables. */
#ifndef STOA_RAID_X86_ARCH_H
#define STOA_RAID_X86_ARCH_H

#include "../raid_internal.h"
#include "common/x86/tokens.h"

#pragma GCC visibility push(hidden)

raid_fn stoa_xor_gen_sse42, stoa_xor_gen_avx2, stoa_xor_gen_avx512;
raid_fn stoa_xor_check_sse42, stoa_xor_check_avx2, stoa_xor_check_avx512;
raid_fn stoa_pq_gen_sse42, stoa_pq_gen_avx2, stoa_pq_gen_avx2_gfni, stoa_pq_gen_avx512,
    stoa_pq_gen_avx512_gfni;
raid_fn stoa_pq_check_sse42, stoa_pq_check_avx2, stoa_pq_check_avx2_gfni, stoa_pq_check_avx512,
    stoa_pq_check_avx512_gfni;
raid_zero_fn stoa_isal_zero_detect_sse42, stoa_isal_zero_detect_avx2, stoa_isal_zero_detect_avx512;

/* The XOR streaming kernel of the AVX2 file, which the AVX-512 variant uses too: n >= 2 sources
 * whose pointers end at top (top[0] the last, top[1 - n] the first), len >= 2 blocks. Returns how
 * many bytes it did; the caller does the rest. */
size_t raid_xor_gen_stream_avx2(size_t n, void *const *top, uint8_t *dst, size_t len);

#pragma GCC visibility pop

/* The entries ahead of each table's portable one. Each needs what its file's flags enable and
 * nothing more: the kernels test for no feature beyond them. */
#define RAID_ARCH_ENTRIES(name) RAID_X86_ENTRIES_##name
#define RAID_X86_ENTRIES_xor_gen                                                                   \
	STOA_ENTRY(avx512, stoa_xor_gen_avx512)                                                    \
	STOA_ENTRY(avx2, stoa_xor_gen_avx2) STOA_ENTRY(sse42, stoa_xor_gen_sse42)
#define RAID_X86_ENTRIES_xor_check                                                                 \
	STOA_ENTRY(avx512, stoa_xor_check_avx512)                                                  \
	STOA_ENTRY(avx2, stoa_xor_check_avx2) STOA_ENTRY(sse42, stoa_xor_check_sse42)
#define RAID_X86_ENTRIES_pq_gen                                                                    \
	STOA_ENTRY(avx512_gfni, stoa_pq_gen_avx512_gfni)                                           \
	STOA_ENTRY(avx512, stoa_pq_gen_avx512)                                                     \
	STOA_ENTRY(avx2_gfni, stoa_pq_gen_avx2_gfni)                                               \
	STOA_ENTRY(avx2, stoa_pq_gen_avx2)                                                         \
	STOA_ENTRY(sse42, stoa_pq_gen_sse42)
#define RAID_X86_ENTRIES_pq_check                                                                  \
	STOA_ENTRY(avx512_gfni, stoa_pq_check_avx512_gfni)                                         \
	STOA_ENTRY(avx512, stoa_pq_check_avx512)                                                   \
	STOA_ENTRY(avx2_gfni, stoa_pq_check_avx2_gfni)                                             \
	STOA_ENTRY(avx2, stoa_pq_check_avx2)                                                       \
	STOA_ENTRY(sse42, stoa_pq_check_sse42)
#define RAID_X86_ENTRIES_isal_zero_detect                                                          \
	STOA_ENTRY(avx512, stoa_isal_zero_detect_avx512)                                           \
	STOA_ENTRY(avx2, stoa_isal_zero_detect_avx2) STOA_ENTRY(sse42, stoa_isal_zero_detect_sse42)

#endif
