# aarch64, included by the Makefile when the compiler targets it (common/arch.h: STOA_ARCH arm).
#
# The gcc/clang -march extension of each feature a variant token may use; the tokens themselves
# are in common/arm/tokens.h. Advanced SIMD is part of the armv8-a baseline.
EXT_ASIMD := simd
EXT_PMULL := aes
EXT_AES := aes
EXT_CRC32 := crc
EXT_SHA1 := sha2
EXT_SHA2 := sha2
EXT_SHA512 := sha3
EXT_SHA3 := sha3
EXT_SVE := sve
EXT_SVE2 := sve2

# The flags for a list of features (STOA_CPU_ names without the prefix): one -march with every
# extension they need.
ARM_SPACE := $(subst ,, )
arch_flags = -march=armv8-a$(subst $(ARM_SPACE),,$(addprefix +,$(sort $(foreach f,$(1),$(or \
	$(EXT_$(f)),$(error common/arm/arch.mk: no extension for $(f)))))))
