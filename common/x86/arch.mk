# x86-64, included by the Makefile when the compiler targets it (common/arch.h: STOA_ARCH x86).
#
# The compiler flag of each feature a variant token may use; the tokens themselves, and the
# features each one needs, are in common/x86/tokens.h.
FLAG_SSSE3 := -mssse3
FLAG_SSE41 := -msse4.1
FLAG_SSE42 := -msse4.2
FLAG_POPCNT := -mpopcnt
FLAG_PCLMUL := -mpclmul
FLAG_AESNI := -maes
FLAG_SHANI := -msha
FLAG_AVX := -mavx
FLAG_AVX2 := -mavx2
FLAG_BMI1 := -mbmi
FLAG_BMI2 := -mbmi2
FLAG_GFNI := -mgfni
FLAG_VAES := -mvaes
FLAG_VPCLMUL := -mvpclmulqdq
FLAG_AVX512F := -mavx512f
FLAG_AVX512BW := -mavx512bw
FLAG_AVX512VL := -mavx512vl
FLAG_AVX512DQ := -mavx512dq

# The flags for a list of features (STOA_CPU_ names without the prefix).
arch_flags = $(foreach f,$(1),$(or $(FLAG_$(f)),$(error common/x86/arch.mk: no flag for $(f))))
