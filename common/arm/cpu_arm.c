/* aarch64: the CPU probe (the kernel's hardware capabilities), the feature names and the STOA_ISA
 * words. */
#include <sys/auxv.h>

#include "common/cpu.h"
#include "common/dispatch.h"

/* Older C libraries lack the newer bits; the values are the kernel's (asm/hwcap.h). */
#ifndef HWCAP_SHA3
#define HWCAP_SHA3 (1ul << 17)
#endif
#ifndef HWCAP_SHA512
#define HWCAP_SHA512 (1ul << 21)
#endif
#ifndef HWCAP_SVE
#define HWCAP_SVE (1ul << 22)
#endif
#ifndef HWCAP2_SVE2
#define HWCAP2_SVE2 (1ul << 1)
#endif

static uint64_t probe_arm(void)
{
	const unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
	const struct {
		unsigned long hwcap;
		uint64_t feature;
	} map[] = {
		{ HWCAP_ASIMD, STOA_CPU_ASIMD },   { HWCAP_PMULL, STOA_CPU_PMULL },
		{ HWCAP_CRC32, STOA_CPU_CRC32 },   { HWCAP_SHA1, STOA_CPU_SHA1 },
		{ HWCAP_SHA2, STOA_CPU_SHA2 },     { HWCAP_SHA512, STOA_CPU_SHA512 },
		{ HWCAP_SHA3, STOA_CPU_SHA3 },     { HWCAP_AES, STOA_CPU_AES },
		{ HWCAP_SVE, STOA_CPU_SVE },
	};
	uint64_t f = 0;
	for (size_t i = 0; i < STOA_COUNT(map); i++)
		if (hw & map[i].hwcap)
			f |= map[i].feature;
	if (hw2 & HWCAP2_SVE2)
		f |= STOA_CPU_SVE2;
	return f;
}

/* Names as Linux's /proc/cpuinfo spells the flags. */
static const struct stoa_feature features[] = {
	{ STOA_CPU_ASIMD, "asimd", "neon" }, { STOA_CPU_PMULL, "pmull", NULL },
	{ STOA_CPU_CRC32, "crc32", NULL },   { STOA_CPU_SHA1, "sha1", NULL },
	{ STOA_CPU_SHA2, "sha2", NULL },     { STOA_CPU_SHA512, "sha512", NULL },
	{ STOA_CPU_SHA3, "sha3", NULL },     { STOA_CPU_AES, "aes", NULL },
	{ STOA_CPU_SVE, "sve", NULL },       { STOA_CPU_SVE2, "sve2", NULL },
};

/* Classes of real cores, each containing the one before: Cortex-A53 or A72 without the crypto
 * extension; Cortex-A72 and Neoverse N1 (Graviton 2) with it; Neoverse V1 (Graviton 3); Neoverse
 * N2 and V2 (Graviton 4). */
#define ARM_NEON STOA_CPU_ASIMD
#define ARM_CRYPTO                                                                                 \
	(ARM_NEON | STOA_CPU_AES | STOA_CPU_PMULL | STOA_CPU_SHA1 | STOA_CPU_SHA2 | STOA_CPU_CRC32)
#define ARM_SVE (ARM_CRYPTO | STOA_CPU_SHA512 | STOA_CPU_SHA3 | STOA_CPU_SVE)
#define ARM_SVE2 (ARM_SVE | STOA_CPU_SVE2)

static const struct stoa_isa_word words[] = {
	{ "neon", ARM_NEON, 1 },
	{ "crypto", ARM_CRYPTO, 1 },
	{ "sve", ARM_SVE, 1 },
	{ "sve2", ARM_SVE2, 1 },
};

const struct stoa_arch stoa_arch = {
	"aarch64", probe_arm, features, STOA_COUNT(features), words, STOA_COUNT(words),
};
