/* Variant tables and run-time dispatch, shared by every module (internal header).
 *
 * Each dispatched function has a table of variants, best first, ending with its portable "base"
 * entry. The public symbol calls through a pointer that starts at a resolver: the first call
 * picks the first entry whose required features are all enabled, stores it, and every later call
 * goes straight to the variant. Several threads may race through the resolver; they compute the
 * same answer and the stores are atomic, so the race is harmless. */
#ifndef STOA_DISPATCH_H
#define STOA_DISPATCH_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "stoa.h"
#include "stoa_export.h"

#pragma GCC visibility push(hidden)

/* A function pointer of no particular type; cast back to the real type before calling. */
typedef void (*stoa_fnptr)(void);

struct stoa_variant {
	const char *name; /* one of: base sse42 pclmul avx2 avx512 avx2_gfni avx512_gfni vpclmul ... */
	uint64_t need;    /* STOA_CPU_* bits that must all be enabled */
	stoa_fnptr fn;
};

/* One dispatched function: its exported name and its table (terminated by the base entry). */
struct stoa_func {
	const char *name;
	const struct stoa_variant *variants;
	size_t count;
};

/* A module's list of dispatched functions, for reports, tests and benchmarks. */
struct stoa_module {
	const char *name;
	const struct stoa_func *funcs;
	size_t count;
};

#define STOA_VARIANT(name, need, fn) { (name), (need), (stoa_fnptr)(fn) }

/*
 * What each variant token lets the compiler use. A file named <kernel>_<token>.c is compiled with
 * the Makefile's ISA_FLAGS_<token>, and the compiler may emit any instruction those flags enable
 * anywhere in it, so an entry named by the token needs at least these features. The two lists
 * are kept in step by hand; test_dispatch checks every table entry against this one.
 */
#define STOA_NEED_sse42 (STOA_CPU_SSSE3 | STOA_CPU_SSE41 | STOA_CPU_SSE42 | STOA_CPU_POPCNT)
#define STOA_NEED_pclmul (STOA_NEED_sse42 | STOA_CPU_PCLMUL)
#define STOA_NEED_aesni (STOA_NEED_sse42 | STOA_CPU_AESNI | STOA_CPU_PCLMUL)
#define STOA_NEED_shani (STOA_NEED_sse42 | STOA_CPU_SHANI)
#define STOA_NEED_avx2                                                                             \
	(STOA_NEED_sse42 | STOA_CPU_AVX | STOA_CPU_AVX2 | STOA_CPU_BMI1 | STOA_CPU_BMI2)
#define STOA_NEED_avx2_gfni (STOA_NEED_avx2 | STOA_CPU_GFNI)
#define STOA_NEED_avx512                                                                           \
	(STOA_NEED_avx2 | STOA_CPU_AVX512F | STOA_CPU_AVX512BW | STOA_CPU_AVX512VL |              \
	 STOA_CPU_AVX512DQ)
#define STOA_NEED_avx512_gfni (STOA_NEED_avx512 | STOA_CPU_GFNI)
#define STOA_NEED_vpclmul (STOA_NEED_avx512 | STOA_CPU_PCLMUL | STOA_CPU_VPCLMUL | STOA_CPU_GFNI)
#define STOA_NEED_vaes (STOA_NEED_avx512 | STOA_CPU_AESNI | STOA_CPU_PCLMUL | STOA_CPU_VAES |     \
			STOA_CPU_VPCLMUL)

/* A table entry named by its token and needing what the token's flags enable; _PLUS adds
 * features the code tests for beyond those. The base entry needs nothing. */
#define STOA_ENTRY(token, fn) STOA_VARIANT(#token, STOA_NEED_##token, fn)
#define STOA_ENTRY_PLUS(token, extra, fn) STOA_VARIANT(#token, STOA_NEED_##token | (extra), fn)
#define STOA_BASE(fn) STOA_VARIANT("base", 0, fn)

/* The features a token's flags enable (STOA_NEED_<token>; 0 for "base"), or ~0 for a name that
 * is not a token. */
uint64_t stoa_token_need(const char *token);
#define STOA_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* True when every feature in need is enabled in this process. */
int stoa_variant_usable(const struct stoa_variant *v);

/* The first usable entry of a table (the base entry is always usable). */
const struct stoa_variant *stoa_select(const struct stoa_variant *table, size_t count);

/* Every module compiled into the library, null-terminated. */
extern const struct stoa_module *const stoa_modules[];

/* A function of any module by its exported name, or NULL. */
const struct stoa_func *stoa_find_func(const char *name);

#pragma GCC visibility pop

/*
 * STOA_DISPATCH(ret, name, params, args): define the exported function `name` that dispatches
 * through `name##_variants` (a const struct stoa_variant array defined before the macro).
 * params is the parenthesised parameter list, args the parenthesised argument names:
 *
 *   STOA_DISPATCH(uint32_t, crc32_ieee, (uint32_t init, const unsigned char *buf, uint64_t len),
 *                 (init, buf, len))
 */
#define STOA_DISPATCH(ret, name, params, args)                                                    \
	typedef ret name##_fn params;                                                              \
	static ret name##_resolve params;                                                          \
	static name##_fn *_Atomic name##_impl = name##_resolve;                                    \
	static ret name##_resolve params                                                           \
	{                                                                                          \
		name##_fn *f = (name##_fn *)stoa_select(name##_variants,                           \
							STOA_COUNT(name##_variants))->fn;          \
		atomic_store_explicit(&name##_impl, f, memory_order_relaxed);                      \
		return f args;                                                                     \
	}                                                                                          \
	STOA_API ret name params                                                                   \
	{                                                                                          \
		return atomic_load_explicit(&name##_impl, memory_order_relaxed) args;              \
	}

/* The stoa_func entry for a table defined as name##_variants. */
#define STOA_FUNC(name) { #name, name##_variants, STOA_COUNT(name##_variants) }

#endif
