/* The instruction sets of ISA-L's and isa-l_crypto's per-instruction-set entry points (internal
 * header), as STOA_CPU_* masks: each such name is stoa's code limited to its set
 * (STOA_DISPATCH_WITHIN), so it never runs an instruction the set lacks, and on a CPU or under a
 * STOA_ISA cap without the whole set it runs the best code inside what is there.
 *
 * The sets are what ISA-L's dispatchers test before choosing each name. Its suffixes:
 *   _sse, _avx, _avx2, _avx512        SSE4 (PSHUFB, PTEST), AVX, AVX2, AVX-512 F/BW/VL (+DQ)
 *   _avx2_gfni, _avx512_gfni          the same with GFNI
 *   CRCs: _00                         SSE4.2 (the crc32 instruction)
 *         _01, _by4, _by8             SSE with PCLMULQDQ
 *         _02, _by8_02, _copy_by4_02  AVX with PCLMULQDQ
 *         _avx2                       AVX2 with GFNI, VAES and VPCLMULQDQ ("AVX2 G2")
 *         _by16_10                    AVX-512 with GFNI, VAES and VPCLMULQDQ ("AVX512 G2")
 *   hashes: _sse_ni, _avx512_ni       SSE or AVX-512 with the SHA extensions; _sb_sse4 SSE4.1 */
#ifndef STOA_X86_ISAL_SETS_H
#define STOA_X86_ISAL_SETS_H

#include "tokens.h"

#define ISAL_SET_sse         STOA_NEED_sse42
#define ISAL_SET_avx         (STOA_NEED_sse42 | STOA_CPU_AVX)
#define ISAL_SET_avx2        STOA_NEED_avx2
#define ISAL_SET_avx512      STOA_NEED_avx512
#define ISAL_SET_avx2_gfni   STOA_NEED_avx2_gfni
#define ISAL_SET_avx512_gfni STOA_NEED_avx512_gfni
#define ISAL_SET_crc_00      STOA_NEED_sse42
#define ISAL_SET_crc_01      STOA_NEED_pclmul
#define ISAL_SET_crc_02      (STOA_NEED_pclmul | STOA_CPU_AVX)
#define ISAL_SET_crc_avx2                                                                          \
	(STOA_NEED_avx2 | STOA_CPU_PCLMUL | STOA_CPU_GFNI | STOA_CPU_VAES | STOA_CPU_VPCLMUL)
#define ISAL_SET_crc_10                                                                            \
	(STOA_NEED_avx512 | STOA_CPU_PCLMUL | STOA_CPU_GFNI | STOA_CPU_VAES | STOA_CPU_VPCLMUL)
#define ISAL_SET_sse_ni    (STOA_NEED_sse42 | STOA_CPU_SHANI)
#define ISAL_SET_avx512_ni (STOA_NEED_avx512 | STOA_CPU_SHANI)

#endif
