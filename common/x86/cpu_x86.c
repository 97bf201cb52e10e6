/* x86-64: the CPU probe (cpuid and XCR0), the feature names and the STOA_ISA words. */
#include <cpuid.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "common/dispatch.h"
#include "common/x86/cold.h"

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static uint64_t probe_x86(void)
{
	uint32_t a, b, c, d, max_leaf;
	uint64_t f = 0;

	max_leaf = __get_cpuid_max(0, 0);
	if (max_leaf < 1)
		return 0;
	__cpuid(1, a, b, c, d);
	uint32_t c1 = c;
	uint32_t b7 = 0, c7 = 0;
	if (max_leaf >= 7)
		__cpuid_count(7, 0, a, b7, c7, d);

	if (c1 & (1u << 9))
		f |= STOA_CPU_SSSE3;
	if (c1 & (1u << 19))
		f |= STOA_CPU_SSE41;
	if (c1 & (1u << 20))
		f |= STOA_CPU_SSE42;
	if (c1 & (1u << 23))
		f |= STOA_CPU_POPCNT;
	if (c1 & (1u << 1))
		f |= STOA_CPU_PCLMUL;
	if (c1 & (1u << 25))
		f |= STOA_CPU_AESNI;
	if (c1 & (1u << 22))
		f |= STOA_CPU_MOVBE;
	if (b7 & (1u << 29))
		f |= STOA_CPU_SHANI;
	if (b7 & (1u << 3))
		f |= STOA_CPU_BMI1;
	if (b7 & (1u << 8))
		f |= STOA_CPU_BMI2;
	if (b7 & (1u << 19))
		f |= STOA_CPU_ADX;
	/* GFNI has a legacy-SSE encoding too, so it needs no AVX state. */
	if (c7 & (1u << 8))
		f |= STOA_CPU_GFNI;

	/* AVX and everything VEX/EVEX-encoded need the OS to save YMM (and for AVX-512, opmask and
	 * ZMM) state: OSXSAVE set and the XCR0 bits on. */
	int osxsave = (c1 & (1u << 27)) != 0;
	uint64_t xcr0 = osxsave ? xgetbv0() : 0;
	int ymm_ok = (xcr0 & 0x6) == 0x6;
	int zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0;

	if (ymm_ok && (c1 & (1u << 28))) {
		f |= STOA_CPU_AVX;
		if (c1 & (1u << 12))
			f |= STOA_CPU_FMA;
		if (b7 & (1u << 5))
			f |= STOA_CPU_AVX2;
		if (c7 & (1u << 9))
			f |= STOA_CPU_VAES;
		if (c7 & (1u << 10))
			f |= STOA_CPU_VPCLMUL;
	}
	if (zmm_ok && (b7 & (1u << 16))) {
		f |= STOA_CPU_AVX512F;
		if (b7 & (1u << 17))
			f |= STOA_CPU_AVX512DQ;
		if (b7 & (1u << 28))
			f |= STOA_CPU_AVX512CD;
		if (b7 & (1u << 30))
			f |= STOA_CPU_AVX512BW;
		if (b7 & (1u << 31))
			f |= STOA_CPU_AVX512VL;
		if (c7 & (1u << 1))
			f |= STOA_CPU_AVX512VBMI;
		if (c7 & (1u << 6))
			f |= STOA_CPU_AVX512VBMI2;
		if (c7 & (1u << 11))
			f |= STOA_CPU_AVX512VNNI;
		if (c7 & (1u << 12))
			f |= STOA_CPU_AVX512BITALG;
		if (c7 & (1u << 14))
			f |= STOA_CPU_AVX512VPOPCNTDQ;
	}
	return f;
}

/* Names as Linux's /proc/cpuinfo spells the flags, short aliases for STOA_ISA. */
static const struct stoa_feature features[] = {
	{ STOA_CPU_SSSE3, "ssse3", NULL },
	{ STOA_CPU_SSE41, "sse4.1", "sse41" },
	{ STOA_CPU_SSE42, "sse4.2", "sse42" },
	{ STOA_CPU_POPCNT, "popcnt", NULL },
	{ STOA_CPU_PCLMUL, "pclmulqdq", "pclmul" },
	{ STOA_CPU_AESNI, "aesni", NULL },
	{ STOA_CPU_SHANI, "sha", "shani" },
	{ STOA_CPU_AVX, "avx", NULL },
	{ STOA_CPU_AVX2, "avx2", NULL },
	{ STOA_CPU_BMI1, "bmi1", NULL },
	{ STOA_CPU_BMI2, "bmi2", NULL },
	{ STOA_CPU_FMA, "fma", NULL },
	{ STOA_CPU_MOVBE, "movbe", NULL },
	{ STOA_CPU_ADX, "adx", NULL },
	{ STOA_CPU_GFNI, "gfni", NULL },
	{ STOA_CPU_VAES, "vaes", NULL },
	{ STOA_CPU_VPCLMUL, "vpclmulqdq", "vpclmul" },
	{ STOA_CPU_AVX512F, "avx512f", NULL },
	{ STOA_CPU_AVX512DQ, "avx512dq", NULL },
	{ STOA_CPU_AVX512CD, "avx512cd", NULL },
	{ STOA_CPU_AVX512BW, "avx512bw", NULL },
	{ STOA_CPU_AVX512VL, "avx512vl", NULL },
	{ STOA_CPU_AVX512VBMI, "avx512vbmi", NULL },
	{ STOA_CPU_AVX512VBMI2, "avx512vbmi2", NULL },
	{ STOA_CPU_AVX512VNNI, "avx512vnni", NULL },
	{ STOA_CPU_AVX512BITALG, "avx512bitalg", NULL },
	{ STOA_CPU_AVX512VPOPCNTDQ, "avx512vpopcntdq", NULL },
};

/* The classes are the x86-64 psABI's microarchitecture levels plus the two features storage
 * code leans on that the levels leave out, PCLMULQDQ and AES-NI. None has SHA-NI, GFNI, VAES or
 * VPCLMULQDQ, which later CPUs add: x86-64-v3,+gfni,+vaes,+vpclmul is an Alder Lake or a Sierra
 * Forest, x86-64-v3,+shani a Zen 1-3.
 * x86-64-v2: Westmere to Ivy Bridge (Nehalem has the level but neither extra). */
#define X86_64_V2                                                                                  \
	(STOA_CPU_SSSE3 | STOA_CPU_SSE41 | STOA_CPU_SSE42 | STOA_CPU_POPCNT | STOA_CPU_PCLMUL |    \
	 STOA_CPU_AESNI)
/* Haswell to Comet Lake, and Zen 1-3 without their SHA-NI. */
#define X86_64_V3                                                                                  \
	(X86_64_V2 | STOA_CPU_AVX | STOA_CPU_AVX2 | STOA_CPU_BMI1 | STOA_CPU_BMI2 | STOA_CPU_FMA | \
	 STOA_CPU_MOVBE)
/* Skylake-SP and Cascade Lake. */
#define X86_64_V4                                                                                  \
	(X86_64_V3 | STOA_CPU_AVX512F | STOA_CPU_AVX512BW | STOA_CPU_AVX512DQ |                    \
	 STOA_CPU_AVX512VL | STOA_CPU_AVX512CD)

/* The older levels, each a superset of the one before. */
#define LEVEL_SSE42                                                                                \
	(STOA_CPU_SSSE3 | STOA_CPU_SSE41 | STOA_CPU_SSE42 | STOA_CPU_POPCNT | STOA_CPU_PCLMUL |    \
	 STOA_CPU_AESNI | STOA_CPU_SHANI)
#define LEVEL_AVX (LEVEL_SSE42 | STOA_CPU_AVX | STOA_CPU_MOVBE)
#define LEVEL_AVX2                                                                                 \
	(LEVEL_AVX | STOA_CPU_AVX2 | STOA_CPU_BMI1 | STOA_CPU_BMI2 | STOA_CPU_FMA | STOA_CPU_ADX | \
	 STOA_CPU_GFNI | STOA_CPU_VAES | STOA_CPU_VPCLMUL)

static const struct stoa_isa_word words[] = {
	{ "x86-64-v2", X86_64_V2, 1 }, { "x86-64-v3", X86_64_V3, 1 },
	{ "x86-64-v4", X86_64_V4, 1 }, { "sse42", LEVEL_SSE42, 0 },
	{ "avx", LEVEL_AVX, 0 },       { "avx2", LEVEL_AVX2, 0 },
	{ "avx512", ~0ull, 0 },
};

/* Whether the vendor is AMD ("AuthenticAMD" in leaf 0's ebx, edx, ecx); *max_leaf the highest
 * basic leaf. */
static int vendor_amd(uint32_t *max_leaf)
{
	uint32_t a, b, c, d;
	if (!__get_cpuid(0, &a, &b, &c, &d)) {
		*max_leaf = 0;
		return 0;
	}
	*max_leaf = a;
	return b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u;
}

/* The family of an AMD CPU with leaf 7 (every Zen), 0 for any other. */
static uint32_t amd_family(void)
{
	uint32_t a, b, c, d, max;
	if (!vendor_amd(&max) || max < 7)
		return 0;
	__cpuid(1, a, b, c, d);
	uint32_t family = (a >> 8) & 15;
	return family == 15 ? family + ((a >> 20) & 255) : family;
}

/* AMD family 19h without AVX-512 in the hardware: Zen 3 (Zen 4 and later have it). */
static int probe_zen3(void)
{
	uint32_t a, b, c, d;
	if (amd_family() != 0x19)
		return 0;
	__cpuid_count(7, 0, a, b, c, d);
	return !(b & (1u << 16));
}

/* AMD family 1Ah and later: Zen 5. */
static int probe_zen5(void)
{
	return amd_family() >= 0x1A;
}

/* AMD family 17h (Zen 1, Zen+, Zen 2) and Hygon's 18h (Zen 1). Their crc32 issues about once every
 * three cycles and shares its unit with the folds, so chains beside folds add nothing (Zen 1:
 * eight 128-bit folds alone run twice as fast as any number of chains). Their vector shifts have
 * one pipe, apart from the multiplier's (Zen 1: a 256-bit shift issues at under half vpxor's rate),
 * which bounds the SHA-256 lanes' 22 shifts a round. */
static int probe_family17h(void)
{
	if (amd_family() == 0x17)
		return 1;
	/* Hygon ("HygonGenuine" in leaf 0's ebx, edx, ecx), family 0Fh + 09h. */
	uint32_t a, b, c, d;
	if (!__get_cpuid(0, &a, &b, &c, &d) || b != 0x6f677948u || d != 0x6e65476eu ||
	    c != 0x656e6975u || !__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	return ((a >> 8) & 15) == 15 && ((a >> 20) & 255) == 9;
}

/* The ways of the level-1 data cache from the deterministic cache parameters (leaf 4 on Intel,
 * 0x8000001D on AMD with topology extensions: EAX bits 0-4 the type, 1 data, bits 5-7 the
 * level; EBX bits 22-31 the ways less one), else AMD's leaf 0x80000005 (ECX bits 16-23); 8 when
 * neither says. */
static int probe_l1d_ways(void)
{
	uint32_t a, b, c, d, max, leaf = 4;
	const int amd = vendor_amd(&max);
	const uint32_t max_ext = __get_cpuid_max(0x80000000u, 0);
	if (amd &&
	    !(max_ext >= 0x8000001Du && __get_cpuid(0x80000001u, &a, &b, &c, &d) && (c >> 22 & 1)))
		leaf = 0;
	else if (amd)
		leaf = 0x8000001Du;
	else if (max < 4)
		leaf = 0;
	for (uint32_t i = 0; leaf && i < 8; i++) {
		__cpuid_count(leaf, i, a, b, c, d);
		if (!(a & 31))
			break;
		if ((a & 31) == 1 && (a >> 5 & 7) == 1)
			return (int)(b >> 22) + 1;
	}
	if (amd && max_ext >= 0x80000005u) {
		__cpuid(0x80000005u, a, b, c, d);
		uint32_t ways = c >> 16 & 255;
		if (ways && ways < 255)
			return (int)ways;
	}
	return 8;
}

/* A tuning value, for choices of speed only, never of what is computed; probed once. The
 * variable env set to a number in [lo, hi] overrides the probe, so that the tests run each
 * choice on any CPU. */
static int tuning_value(_Atomic int *known, const char *env, long lo, long hi, int (*probe)(void))
{
	int v = atomic_load_explicit(known, memory_order_relaxed);
	if (v < 0) {
		const char *force = getenv(env);
		char *end = NULL;
		long n = force ? strtol(force, &end, 10) : 0;
		v = force && end != force && !*end && n >= lo && n <= hi ? (int)n : probe();
		atomic_store_explicit(known, v, memory_order_relaxed);
	}
	return v;
}

/* STOA_X86_ZEN3=1 or 0 (the rolled SHA-512 rounds, the SHA-1 split on any CPU). */
int stoa_x86_zen3(void)
{
	static _Atomic int known = -1;
	return tuning_value(&known, "STOA_X86_ZEN3", 0, 1, probe_zen3);
}

/* STOA_X86_ZEN5=1 or 0. */
int stoa_x86_zen5(void)
{
	static _Atomic int known = -1;
	return tuning_value(&known, "STOA_X86_ZEN5", 0, 1, probe_zen5);
}

/* STOA_X86_CRC32_SLOW=1 or 0. */
int stoa_x86_crc32_slow(void)
{
	static _Atomic int known = -1;
	return tuning_value(&known, "STOA_X86_CRC32_SLOW", 0, 1, probe_family17h);
}

/* STOA_X86_VSHIFT_SLOW=1 or 0. */
int stoa_x86_vshift_slow(void)
{
	static _Atomic int known = -1;
	return tuning_value(&known, "STOA_X86_VSHIFT_SLOW", 0, 1, probe_family17h);
}

/* STOA_X86_L1D_WAYS=1 .. 64. */
int stoa_x86_l1d_ways(void)
{
	static _Atomic int known = -1;
	return tuning_value(&known, "STOA_X86_L1D_WAYS", 1, 64, probe_l1d_ways);
}

/* A read of the counter costing 128 ticks or more (trapped by a hypervisor) makes the probe
 * worthless: the mode is then STOA_COLD_NEVER. Calls racing here all measure, to the same end. */
int stoa_cold_mode_init(void)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 8; i++) {
		uint64_t t0 = __rdtsc(), t1 = __rdtsc();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	int mode = best < 128 ? STOA_COLD_PROBE : STOA_COLD_NEVER;
	int unset = STOA_COLD_UNSET;
	atomic_compare_exchange_strong_explicit(&stoa_cold_mode, &unset, mode, memory_order_relaxed,
	                                        memory_order_relaxed);
	return atomic_load_explicit(&stoa_cold_mode, memory_order_relaxed);
}

const struct stoa_arch stoa_arch = {
	"x86-64", probe_x86, features, STOA_COUNT(features), words, STOA_COUNT(words),
};
