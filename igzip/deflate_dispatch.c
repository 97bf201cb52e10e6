/* The deflate half of the igzip module: its variant tables and module entry.
 *
 * The match finders are internal, not exported: the stream code asks for the selected variant
 * through defl_lvl0_impl() / defl_tok_impl(), and tests and the benchmark reach every variant
 * through the tables below. */
#include "deflate_internal.h"

const struct stoa_variant defl_lvl0_variants[] = {
#if defined(__x86_64__)
	STOA_ENTRY(avx2, defl_lvl0_avx2),
#endif
	STOA_BASE(defl_lvl0_portable),
};
const struct stoa_variant defl_tok_lvl1_variants[] = {
#if defined(__x86_64__)
	STOA_ENTRY(avx2, defl_tok_lvl1_avx2),
#endif
	STOA_BASE(defl_tok_lvl1_portable),
};
const struct stoa_variant defl_tok_lvl2_variants[] = {
#if defined(__x86_64__)
	STOA_ENTRY(avx2, defl_tok_lvl2_avx2),
#endif
	STOA_BASE(defl_tok_lvl2_portable),
};
const struct stoa_variant defl_tok_lvl3_variants[] = {
	STOA_BASE(defl_tok_lvl3_portable),
};
const struct stoa_variant defl_write_tokens_variants[] = {
#if defined(__x86_64__)
	STOA_ENTRY(avx2, defl_write_tokens_avx2),
#endif
	STOA_BASE(defl_write_tokens_portable),
};

/* Resolve a table once; racing threads store the same answer. */
#define DEFL_SELECT(type, table)                                                                   \
	do {                                                                                       \
		static type *_Atomic chosen;                                                       \
		type *f = atomic_load_explicit(&chosen, memory_order_relaxed);                     \
		if (!f) {                                                                          \
			f = (type *)stoa_select(table, STOA_COUNT(table))->fn;                     \
			atomic_store_explicit(&chosen, f, memory_order_relaxed);                   \
		}                                                                                  \
		return f;                                                                          \
	} while (0)

defl_lvl0_fn *defl_lvl0_impl(void)
{
	DEFL_SELECT(defl_lvl0_fn, defl_lvl0_variants);
}

defl_tok_fn *defl_tok_impl(uint32_t level)
{
	switch (level) {
	case 1:
		DEFL_SELECT(defl_tok_fn, defl_tok_lvl1_variants);
	case 2:
		DEFL_SELECT(defl_tok_fn, defl_tok_lvl2_variants);
	default:
		DEFL_SELECT(defl_tok_fn, defl_tok_lvl3_variants);
	}
}

static defl_write_tokens_fn *defl_write_tokens_impl(void)
{
	DEFL_SELECT(defl_write_tokens_fn, defl_write_tokens_variants);
}

size_t defl_write_tokens(struct BitBuf2 *b, const struct isal_hufftables *t,
			 const uint32_t *tokens, size_t n)
{
	return defl_write_tokens_impl()(b, t, tokens, n);
}

static const struct stoa_func deflate_funcs[] = {
	{ "defl_lvl0", defl_lvl0_variants, STOA_COUNT(defl_lvl0_variants) },
	{ "defl_tok_lvl1", defl_tok_lvl1_variants, STOA_COUNT(defl_tok_lvl1_variants) },
	{ "defl_tok_lvl2", defl_tok_lvl2_variants, STOA_COUNT(defl_tok_lvl2_variants) },
	{ "defl_tok_lvl3", defl_tok_lvl3_variants, STOA_COUNT(defl_tok_lvl3_variants) },
	{ "defl_write_tokens", defl_write_tokens_variants, STOA_COUNT(defl_write_tokens_variants) },
};

const struct stoa_module stoa_module_deflate = { "deflate", deflate_funcs,
						 STOA_COUNT(deflate_funcs) };
