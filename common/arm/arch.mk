# aarch64, included by the Makefile when the compiler targets it (common/arch.h: STOA_ARCH arm).
#
# The gcc/clang -march extension of each feature a variant token may use; the tokens themselves
# are in common/arm/tokens.h. Advanced SIMD is part of the armv8-a baseline.
EXT_ASIMD := simd
# gcc (12) declares the AES, PMULL, SHA-1 and SHA-256 intrinsics for +crypto, not for +aes or
# +sha2: their callers need +crypto, which is aes and sha2 together.
EXT_PMULL := crypto
EXT_AES := crypto
EXT_CRC32 := crc
EXT_SHA1 := crypto
EXT_SHA2 := crypto
EXT_SHA512 := sha3
EXT_SHA3 := sha3
EXT_SVE := sve
EXT_SVE2 := sve2

# The flags for a list of features (STOA_CPU_ names without the prefix): one -march with every
# extension they need. gcc declares the SHA-512 and SHA-3 intrinsics for armv8.2-a+sha3 (the
# instructions are optional from Armv8.2 on, so a CPU that has them implements Armv8.2).
ARM_SPACE := $(subst ,, )
arm_base = armv8$(if $(filter SHA512 SHA3,$(1)),.2)-a
arch_flags = -march=$(call arm_base,$(1))$(subst $(ARM_SPACE),,$(addprefix +,$(sort $(foreach f,$(1), \
	$(or $(EXT_$(f)),$(error common/arm/arch.mk: no extension for $(f)))))))
