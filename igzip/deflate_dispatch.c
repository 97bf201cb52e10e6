/* The deflate half of the igzip module: its variant tables and module entry.
 *
 * The match finders are internal, not exported: the stream code asks for the selected variant
 * through defl_lvl0_impl() / defl_tok_impl(), and tests and the benchmark reach every variant
 * through the tables below. */
#include "deflate_internal.h"

#ifdef STOA_ARCH
#include STOA_ARCH_HEADER(igzip, deflate)
#else
#define DEFL_ARCH_ENTRIES(name)
#endif

STOA_TABLE(DEFL, defl_lvl0)
STOA_TABLE(DEFL, defl_tok_lvl1)
STOA_TABLE(DEFL, defl_tok_lvl2)
STOA_TABLE(DEFL, defl_tok_lvl3)
STOA_TABLE(DEFL, defl_write_tokens)
STOA_TABLE(DEFL, defl_entropy)
STOA_TABLE(DEFL, defl_path)

STOA_DISPATCH_PTR(uint32_t, defl_lvl0,
		  (struct BitBuf2 * b, const struct isal_hufftables *t, uint16_t *head,
		   const struct defl_win *w, uint32_t p, uint32_t stop),
		  (b, t, head, w, p, stop))
#define DEFL_TOK_DISPATCH(name)                                                                    \
	STOA_DISPATCH_PTR(uint32_t, name,                                                          \
			  (struct defl_lvl * L, const struct defl_win *w, uint32_t p,              \
			   uint32_t stop),                                                         \
			  (L, w, p, stop))
DEFL_TOK_DISPATCH(defl_tok_lvl1)
DEFL_TOK_DISPATCH(defl_tok_lvl2)
DEFL_TOK_DISPATCH(defl_tok_lvl3)
STOA_DISPATCH_INTERNAL(size_t, defl_write_tokens,
		       (struct BitBuf2 * b, const struct isal_hufftables *t,
			const uint32_t *tokens, size_t n),
		       (b, t, tokens, n))
STOA_DISPATCH_INTERNAL(uint64_t, defl_entropy, (const uint32_t *h, uint32_t n), (h, n))
STOA_DISPATCH_PTR(void, defl_path,
		  (struct defl_opt * o, const uint8_t *src, uint32_t n,
		   const struct defl_opt_costs *c),
		  (o, src, n, c))
void defl_path(struct defl_opt *o, const uint8_t *src, uint32_t n, const struct defl_opt_costs *c)
{
	STOA_IMPL(defl_path)(o, src, n, c);
}

defl_lvl0_fn *defl_lvl0_impl(void)
{
	return defl_lvl0_pick();
}

defl_tok_fn *defl_tok_impl(uint32_t level)
{
	switch (level) {
	case 1:
		return defl_tok_lvl1_pick();
	case 2:
		return defl_tok_lvl2_pick();
	case 3:
		return defl_tok_lvl3_pick();
	default:
		return defl_params(level)->opt ? defl_tok_optimal(level) : defl_tok_chain(level);
	}
}

static const struct stoa_func deflate_funcs[] = {
	{ "defl_lvl0", defl_lvl0_variants, STOA_COUNT(defl_lvl0_variants) },
	{ "defl_tok_lvl1", defl_tok_lvl1_variants, STOA_COUNT(defl_tok_lvl1_variants) },
	{ "defl_tok_lvl2", defl_tok_lvl2_variants, STOA_COUNT(defl_tok_lvl2_variants) },
	{ "defl_tok_lvl3", defl_tok_lvl3_variants, STOA_COUNT(defl_tok_lvl3_variants) },
	{ "defl_write_tokens", defl_write_tokens_variants, STOA_COUNT(defl_write_tokens_variants) },
	{ "defl_entropy", defl_entropy_variants, STOA_COUNT(defl_entropy_variants) },
	{ "defl_path", defl_path_variants, STOA_COUNT(defl_path_variants) },
};

const struct stoa_module stoa_module_deflate = { "deflate", deflate_funcs,
						 STOA_COUNT(deflate_funcs) };
