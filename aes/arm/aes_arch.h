/* aarch64 AES engines: their declarations and their entries in aes_dispatch.c's tables. */
#ifndef STOA_AES_ARM_ARCH_H
#define STOA_AES_ARM_ARCH_H

#include "../aes_internal.h"
#include "common/arm/tokens.h"

#pragma GCC visibility push(hidden)

AES_DECLARE_VARIANTS(aes)
aes_keyexp_fn aes_keyexp_128_aes, aes_keyexp_256_aes;

#pragma GCC visibility pop

/* XTS and key expansion on the Armv8 AES instructions (192-bit keys: the portable expansion
 * only, as on x86-64). */
#define AES_ARCH_XTS_ENTRIES(impl)    STOA_ENTRY(aes, impl##_aes)
#define AES_ARCH_KEYEXP_ENTRIES(bits) AES_ARM_KEYEXP_##bits
#define AES_ARM_KEYEXP_128            STOA_ENTRY(aes, aes_keyexp_128_aes)
#define AES_ARM_KEYEXP_192
#define AES_ARM_KEYEXP_256 STOA_ENTRY(aes, aes_keyexp_256_aes)

#endif
