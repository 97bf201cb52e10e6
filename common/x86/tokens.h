/* x86-64's variant tokens (internal header): the one list of them.
 *
 * A token is the suffix of a kernel file (crc/x86/crc_vpclmul.c) and the name of its table entry.
 * STOA_NEED_<token> is every STOA_CPU_* feature the file's instructions may use: STOA_ENTRY gives
 * the entry that need, and the Makefile reads the STOA_NEED_ lines below to compile the file with
 * the flags of exactly those features (each feature's flag is in common/x86/arch.mk). So a token
 * is added or changed here and nowhere else. Keep each definition in the form
 * #define STOA_NEED_<token> (<STOA_CPU_ or STOA_NEED_ names joined by |>) for the Makefile. */
#ifndef STOA_X86_TOKENS_H
#define STOA_X86_TOKENS_H

#include "stoa.h"

/* clang-format off */
#define STOA_NEED_sse42 (STOA_CPU_SSSE3 | STOA_CPU_SSE41 | STOA_CPU_SSE42 | STOA_CPU_POPCNT)
#define STOA_NEED_pclmul (STOA_NEED_sse42 | STOA_CPU_PCLMUL)
#define STOA_NEED_pclmul_avx (STOA_NEED_pclmul | STOA_CPU_AVX)
#define STOA_NEED_aesni (STOA_NEED_sse42 | STOA_CPU_AESNI | STOA_CPU_PCLMUL)
#define STOA_NEED_aesni_avx (STOA_NEED_aesni | STOA_CPU_AVX)
#define STOA_NEED_shani (STOA_NEED_sse42 | STOA_CPU_SHANI)
/* The same engines where AVX is: they clear the upper vector state on entry (hash/x86/sha_vzu.h). */
#define STOA_NEED_shani_avx (STOA_NEED_shani | STOA_CPU_AVX)
#define STOA_NEED_avx2 (STOA_NEED_sse42 | STOA_CPU_AVX | STOA_CPU_AVX2 | STOA_CPU_BMI1 | \
			STOA_CPU_BMI2)
#define STOA_NEED_avx2_gfni (STOA_NEED_avx2 | STOA_CPU_GFNI)
#define STOA_NEED_avx512 (STOA_NEED_avx2 | STOA_CPU_AVX512F | STOA_CPU_AVX512BW | \
			  STOA_CPU_AVX512VL | STOA_CPU_AVX512DQ)
#define STOA_NEED_avx512_gfni (STOA_NEED_avx512 | STOA_CPU_GFNI)
/* GFNI too: the MSB-first CRCs reverse bits with it. */
#define STOA_NEED_vpclmul (STOA_NEED_avx512 | STOA_CPU_PCLMUL | STOA_CPU_VPCLMUL | STOA_CPU_GFNI)
/* The 256-bit CRC engine for AVX2 CPUs with VPCLMULQDQ (and GFNI for its bit reversal). */
#define STOA_NEED_vpclmul256 (STOA_NEED_avx2 | STOA_CPU_PCLMUL | STOA_CPU_VPCLMUL | STOA_CPU_GFNI)
/* The same engine without GFNI (AMD Zen 3). */
#define STOA_NEED_vpclmul256n (STOA_NEED_avx2 | STOA_CPU_PCLMUL | STOA_CPU_VPCLMUL)
/* VAES on 256-bit registers, for CPUs without AVX-512 (Zen 3, Alder Lake). */
#define STOA_NEED_vaes256 (STOA_NEED_avx2 | STOA_CPU_AESNI | STOA_CPU_PCLMUL | STOA_CPU_VAES | \
			   STOA_CPU_VPCLMUL)
#define STOA_NEED_vaes (STOA_NEED_avx512 | STOA_CPU_AESNI | STOA_CPU_PCLMUL | STOA_CPU_VAES | \
			STOA_CPU_VPCLMUL)
/* clang-format on */

#endif
