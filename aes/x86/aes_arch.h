/* x86-64 AES engines: their declarations and their entries in aes_dispatch.c's tables. */
#ifndef STOA_AES_X86_ARCH_H
#define STOA_AES_X86_ARCH_H

#include "../aes_internal.h"
#include "common/x86/tokens.h"

#pragma GCC visibility push(hidden)

AES_DECLARE_VARIANTS(aesni)
AES_DECLARE_VARIANTS(aesni_avx)
AES_DECLARE_VARIANTS(vaes)
AES_DECLARE_VARIANTS(vaes256)
aes_keyexp_fn aes_keyexp_128_aesni, aes_keyexp_256_aesni;

#pragma GCC visibility pop

/* XTS: VAES on 512-bit registers, then on 256-bit ones, then AES-NI (in VEX encodings where AVX
 * is: xts_aesni_avx.c). Key expansion has no use for wide vectors: AES-NI's key-assist
 * instruction or nothing (192-bit keys: the portable expansion only). */
#define AES_ARCH_XTS_ENTRIES(impl)                                                                 \
	STOA_ENTRY(vaes, impl##_vaes)                                                              \
	STOA_ENTRY(vaes256, impl##_vaes256)                                                        \
	STOA_ENTRY(aesni_avx, impl##_aesni_avx) STOA_ENTRY(aesni, impl##_aesni)
#define AES_ARCH_KEYEXP_ENTRIES(bits) AES_X86_KEYEXP_##bits
#define AES_X86_KEYEXP_128 STOA_ENTRY(aesni, aes_keyexp_128_aesni)
#define AES_X86_KEYEXP_192
#define AES_X86_KEYEXP_256 STOA_ENTRY(aesni, aes_keyexp_256_aesni)

#endif
