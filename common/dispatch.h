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

#include "arch.h"
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

/* Table entries, the one spelling every table uses. A kernel file named <kernel>_<token>.c is
 * compiled with the flags of its token, and the compiler may emit any instruction those flags
 * enable anywhere in it, so its entry needs every feature of STOA_NEED_<token> (defined, with the
 * Makefile's flags derived from it, in common/<arch>/tokens.h); _PLUS adds features the code tests
 * for beyond those. The base entry, the portable code, needs nothing and ends every table. */
#define STOA_ENTRY(token, fn) STOA_VARIANT(#token, STOA_NEED_##token, fn),
#define STOA_ENTRY_PLUS(token, extra, fn) STOA_VARIANT(#token, STOA_NEED_##token | (extra), fn),
#define STOA_BASE(fn) STOA_VARIANT("base", 0, fn)

/* The table name##_variants: this architecture's entries for it, MOD##_ARCH_ENTRIES(name) from
 * the module's <arch>/<name>_arch.h, best first, then the portable name##_portable. */
#define STOA_TABLE(MOD, name)                                                                      \
	const struct stoa_variant name##_variants[] = {                                            \
		MOD##_ARCH_ENTRIES(name) STOA_BASE(name##_portable),                               \
	};

#define STOA_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* True when every feature in need is enabled in this process. */
int stoa_variant_usable(const struct stoa_variant *v);

/* The first usable entry of a table (the base entry is always usable). */
const struct stoa_variant *stoa_select(const struct stoa_variant *table, size_t count);

/* The first usable entry that needs no feature outside cap: the choice for an entry point named
 * for one instruction set (ISA-L's ec_encode_data_avx2 ...), which must never run code beyond
 * that set, whatever else the CPU has. The base entry, needing nothing, always qualifies. */
const struct stoa_variant *stoa_select_within(const struct stoa_variant *table, size_t count,
                                              uint64_t cap);
/* The same for the dispatched function of that exported name (which must exist). */
const struct stoa_variant *stoa_select_func_within(const char *func, uint64_t cap);

/* Every module compiled into the library, null-terminated. */
extern const struct stoa_module *const stoa_modules[];

/* A function of any module by its exported name, or NULL. */
const struct stoa_func *stoa_find_func(const char *name);

#pragma GCC visibility pop

/*
 * Resolve once, the one mechanism for every dispatched function, exported or internal.
 *
 * STOA_DISPATCH_PTR(ret, name, params, args) defines, for the table name##_variants (a const
 * struct stoa_variant array defined before it):
 *   name##_fn      the function type;
 *   name##_ptr     the pointer calls go through; it starts at a resolver of the same type, which
 *                  selects the table's first usable entry, stores it and calls it;
 *   name##_pick()  the selected variant, resolving the pointer first if no call has yet (for
 *                  code that keeps the pointer itself, such as a loop over blocks).
 * params is the parenthesised parameter list, args the parenthesised argument names. Racing
 * threads compute the same answer and the stores are atomic, so a race is harmless.
 *
 * STOA_DISPATCH adds the exported function `name`, STOA_DISPATCH_INTERNAL a library-internal
 * one; each is a single indirect jump through the pointer:
 *
 *   STOA_DISPATCH(uint32_t, crc32_ieee, (uint32_t init, const unsigned char *buf, uint64_t len),
 *                 (init, buf, len))
 */
#define STOA_DISPATCH_PTR(ret, name, params, args)                                                 \
	STOA_RESOLVE_ONCE(ret, name, stoa_select(name##_variants, STOA_COUNT(name##_variants)),    \
			  params, args)

/* The mechanism itself: `select` is an expression giving the struct stoa_variant to use. */
#define STOA_RESOLVE_ONCE(ret, name, select, params, args)                                         \
	typedef ret name##_fn params;                                                              \
	static ret name##_resolve params;                                                          \
	static name##_fn *_Atomic name##_ptr = name##_resolve;                                     \
	static name##_fn *name##_pick(void)                                                        \
	{                                                                                          \
		name##_fn *f = atomic_load_explicit(&name##_ptr, memory_order_relaxed);            \
		if (f == name##_resolve) {                                                         \
			f = (name##_fn *)(select)->fn;                                             \
			atomic_store_explicit(&name##_ptr, f, memory_order_relaxed);               \
		}                                                                                  \
		return f;                                                                          \
	}                                                                                          \
	static ret name##_resolve params                                                           \
	{                                                                                          \
		return name##_pick() args;                                                         \
	}

/* The pointer's current value: a call through it is the dispatched call. */
#define STOA_IMPL(name) atomic_load_explicit(&name##_ptr, memory_order_relaxed)

#define STOA_DISPATCH(ret, name, params, args)                                                     \
	STOA_DISPATCH_PTR(ret, name, params, args)                                                 \
	STOA_API ret name params                                                                   \
	{                                                                                          \
		return STOA_IMPL(name) args;                                                       \
	}

#define STOA_DISPATCH_INTERNAL(ret, name, params, args)                                            \
	STOA_DISPATCH_PTR(ret, name, params, args)                                                 \
	ret name params                                                                            \
	{                                                                                          \
		return STOA_IMPL(name) args;                                                       \
	}

/*
 * STOA_WITHIN_PTR(ret, name, func, cap, params, args): the pointer machinery of STOA_DISPATCH_PTR
 * (name##_fn, name##_ptr, name##_pick) for an entry point of one instruction set, on the table of
 * the dispatched function named by the string func: it resolves once to
 * stoa_select_func_within(func, cap), the best code that the CPU and STOA_ISA allow inside cap.
 * STOA_DISPATCH_WITHIN adds the exported function `name`, one indirect jump like STOA_DISPATCH.
 */
#define STOA_WITHIN_PTR(ret, name, func, cap, params, args)                                        \
	STOA_RESOLVE_ONCE(ret, name, stoa_select_func_within(func, cap), params, args)

#define STOA_DISPATCH_WITHIN(ret, name, func, cap, params, args)                                   \
	STOA_WITHIN_PTR(ret, name, func, cap, params, args)                                        \
	STOA_API ret name params                                                                   \
	{                                                                                          \
		return STOA_IMPL(name) args;                                                       \
	}

/* The stoa_func entry for a table defined as name##_variants. */
#define STOA_FUNC(name) { #name, name##_variants, STOA_COUNT(name##_variants) }

#endif
