/* CPU feature detection and the STOA_ISA cap. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "dispatch.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

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
#endif

uint64_t stoa_cpu_probe(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return probe_x86();
#else
	return 0;
#endif
}

/* STOA_ISA levels, each a superset of the one before. */
#define LEVEL_SSE42                                                                                \
	(STOA_CPU_SSSE3 | STOA_CPU_SSE41 | STOA_CPU_SSE42 | STOA_CPU_POPCNT | STOA_CPU_PCLMUL |    \
	 STOA_CPU_AESNI | STOA_CPU_SHANI)
#define LEVEL_AVX (LEVEL_SSE42 | STOA_CPU_AVX | STOA_CPU_MOVBE)
#define LEVEL_AVX2                                                                                 \
	(LEVEL_AVX | STOA_CPU_AVX2 | STOA_CPU_BMI1 | STOA_CPU_BMI2 | STOA_CPU_FMA | STOA_CPU_ADX | \
	 STOA_CPU_GFNI | STOA_CPU_VAES | STOA_CPU_VPCLMUL)

static const struct {
	const char *name;
	uint64_t mask;
} isa_levels[] = {
	{ "base", 0 },
	{ "sse42", LEVEL_SSE42 },
	{ "avx", LEVEL_AVX },
	{ "avx2", LEVEL_AVX2 },
	{ "avx512", ~0ull },
	{ "native", ~0ull },
};

int stoa_isa_parse(const char *value, uint64_t *mask)
{
	for (size_t i = 0; i < STOA_COUNT(isa_levels); i++) {
		if (strcmp(value, isa_levels[i].name) == 0) {
			*mask = isa_levels[i].mask;
			return 0;
		}
	}
	return -1;
}

/* The probe result and the enabled mask, computed once. Bit 63 marks "computed" (no feature
 * uses it), so a zero feature word is still distinguishable from "not yet probed". */
#define PROBED (1ull << 63)
static _Atomic uint64_t detected_word;
static _Atomic uint64_t enabled_word;

static void probe_once(void)
{
	if (atomic_load_explicit(&enabled_word, memory_order_acquire) & PROBED)
		return;
	uint64_t det = stoa_cpu_probe() & ~PROBED;
	uint64_t cap = ~0ull;
	const char *isa = getenv("STOA_ISA");
	if (isa && *isa && stoa_isa_parse(isa, &cap) != 0) {
		fprintf(stderr,
			"stoa: STOA_ISA='%s' is not one of base, sse42, avx, avx2, avx512, native; "
			"using base\n",
			isa);
		cap = 0;
	}
	/* Racing threads compute the same values; the message may print more than once. */
	atomic_store_explicit(&detected_word, det | PROBED, memory_order_relaxed);
	atomic_store_explicit(&enabled_word, (det & cap) | PROBED, memory_order_release);
}

STOA_API uint64_t stoa_cpu_features(void)
{
	probe_once();
	return atomic_load_explicit(&detected_word, memory_order_relaxed) & ~PROBED;
}

STOA_API uint64_t stoa_cpu_features_enabled(void)
{
	probe_once();
	return atomic_load_explicit(&enabled_word, memory_order_acquire) & ~PROBED;
}

static const char *const feature_names[] = {
	"ssse3",     "sse4.1",   "sse4.2",   "popcnt",     "pclmulqdq",  "aesni",       "sha",
	"avx",       "avx2",     "bmi1",     "bmi2",       "fma",        "movbe",       "adx",
	"gfni",      "vaes",     "vpclmulqdq", "avx512f",  "avx512dq",   "avx512cd",    "avx512bw",
	"avx512vl",  "avx512vbmi", "avx512vbmi2", "avx512vnni", "avx512bitalg", "avx512vpopcntdq",
};

STOA_API const char *stoa_cpu_feature_name(uint64_t feature)
{
	for (size_t i = 0; i < STOA_COUNT(feature_names); i++)
		if (feature == (1ull << i))
			return feature_names[i];
	return NULL;
}

uint64_t stoa_token_need(const char *token)
{
	static const struct {
		const char *name;
		uint64_t need;
	} tokens[] = {
		{ "base", 0 },
		{ "sse42", STOA_NEED_sse42 },
		{ "pclmul", STOA_NEED_pclmul },
		{ "aesni", STOA_NEED_aesni },
		{ "shani", STOA_NEED_shani },
		{ "avx2", STOA_NEED_avx2 },
		{ "avx2_gfni", STOA_NEED_avx2_gfni },
		{ "avx512", STOA_NEED_avx512 },
		{ "avx512_gfni", STOA_NEED_avx512_gfni },
		{ "vpclmul", STOA_NEED_vpclmul },
		{ "vaes", STOA_NEED_vaes },
	};
	for (size_t i = 0; i < STOA_COUNT(tokens); i++)
		if (strcmp(token, tokens[i].name) == 0)
			return tokens[i].need;
	return ~0ull;
}

int stoa_variant_usable(const struct stoa_variant *v)
{
	return (v->need & ~stoa_cpu_features_enabled()) == 0;
}

const struct stoa_variant *stoa_select(const struct stoa_variant *table, size_t count)
{
	for (size_t i = 0; i + 1 < count; i++)
		if (stoa_variant_usable(&table[i]))
			return &table[i];
	return &table[count - 1]; /* the base entry, usable everywhere */
}

const struct stoa_func *stoa_find_func(const char *name)
{
	for (size_t m = 0; stoa_modules[m]; m++)
		for (size_t i = 0; i < stoa_modules[m]->count; i++)
			if (strcmp(stoa_modules[m]->funcs[i].name, name) == 0)
				return &stoa_modules[m]->funcs[i];
	return NULL;
}

STOA_API const char *stoa_function_variant(const char *function)
{
	const struct stoa_func *f = function ? stoa_find_func(function) : NULL;
	return f ? stoa_select(f->variants, f->count)->name : NULL;
}

/* Appends to a bounded buffer, counting what would have been written. */
struct sink {
	char *buf;
	size_t size, len;
};

static void put(struct sink *s, const char *text)
{
	size_t n = strlen(text);
	if (s->len < s->size) {
		size_t room = s->size - s->len - 1;
		memcpy(s->buf + s->len, text, n < room ? n : room);
	}
	s->len += n;
	if (s->size)
		s->buf[s->len < s->size ? s->len : s->size - 1] = '\0';
}

STOA_API size_t stoa_cpu_report(char *buf, size_t size)
{
	struct sink s = { buf, buf ? size : 0, 0 };
	uint64_t det = stoa_cpu_features(), en = stoa_cpu_features_enabled();
	const char *isa = getenv("STOA_ISA");

	put(&s, "stoa " STOA_VERSION_STRING "; cpu:");
	for (size_t i = 0; i < STOA_COUNT(feature_names); i++) {
		if (det & (1ull << i)) {
			put(&s, " ");
			put(&s, feature_names[i]);
			if (!(en & (1ull << i)))
				put(&s, "(off)");
		}
	}
	put(&s, "; STOA_ISA=");
	put(&s, isa && *isa ? isa : "(unset)");
	put(&s, ";");
	for (size_t m = 0; stoa_modules[m]; m++) {
		for (size_t i = 0; i < stoa_modules[m]->count; i++) {
			const struct stoa_func *f = &stoa_modules[m]->funcs[i];
			put(&s, " ");
			put(&s, f->name);
			put(&s, "=");
			put(&s, stoa_select(f->variants, f->count)->name);
		}
	}
	return s.len;
}

STOA_API const char *stoa_version(void)
{
	return STOA_VERSION_STRING;
}
