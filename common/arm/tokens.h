/* aarch64's variant tokens (internal header): the one list of them, in the form of
 * common/x86/tokens.h, which says how the Makefile reads it. A compiler extension may enable
 * more than one feature (gcc's +crypto enables AES, PMULL, SHA1 and SHA2, +sha3 SHA3 and SHA512:
 * common/arm/arch.mk), so a token that needs one of them needs all. */
#ifndef STOA_ARM_TOKENS_H
#define STOA_ARM_TOKENS_H

#include "stoa.h"

/* clang-format off */
#define STOA_NEED_neon (STOA_CPU_ASIMD)
#define STOA_NEED_pmull (STOA_NEED_neon | STOA_CPU_PMULL | STOA_CPU_AES | STOA_CPU_SHA1 | \
			 STOA_CPU_SHA2)
#define STOA_NEED_aes (STOA_NEED_pmull)
#define STOA_NEED_crc (STOA_CPU_CRC32)
#define STOA_NEED_sha2 (STOA_NEED_pmull)
#define STOA_NEED_sha512 (STOA_NEED_sha2 | STOA_CPU_SHA512 | STOA_CPU_SHA3)
#define STOA_NEED_sve (STOA_NEED_neon | STOA_CPU_SVE)
#define STOA_NEED_sve2 (STOA_NEED_sve | STOA_CPU_SVE2)
/* clang-format on */

#endif
