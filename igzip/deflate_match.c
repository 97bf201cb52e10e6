/* The portable tokenizers of levels 1-3 and the dictionary insert of their tables (the search
 * itself is deflate_match_tpl.h). Level 3 has this variant only. */
#define DEFL_MATCH_SUFFIX portable
#include "deflate_match_tpl.h"

/* The block's token classes for block splitting, from its histogram: literals by their top
 * three bits, matches shorter than 9 bytes, longer matches. */
static void token_classes(const struct isal_mod_hist *h, uint32_t *cls)
{
	for (uint32_t k = 0; k < 8; k++) {
		uint32_t n = 0;
		for (uint32_t i = 0; i < 32; i++)
			n += h->ll_hist[32 * k + i];
		cls[k] = n;
	}
	/* The long matches are all matches (one distance each) less the short ones. */
	uint32_t s = 0, m = 0;
	for (uint32_t len = 3; len < 9; len++)
		s += h->ll_hist[len + 254];
	for (uint32_t i = 0; i < 30; i++)
		m += h->d_hist[i];
	cls[8] = s;
	cls[9] = m - s;
}

/* Weigh the tokens since the last check against the block's before them: 1 when the block
 * should end. The test is the total variation distance between the two class distributions,
 * compared in integers: sum |new_i * old_total - old_i * new_total| against a threshold that
 * shrinks as the block grows (long blocks are split more readily, their header being paid),
 * from pct percent (defl_params.split_pct; split_pct_long in a long streaming block). */
static int split_test_cls(uint32_t *obs, uint32_t *obs_total, const uint32_t *cls, uint32_t ntok,
                          uint32_t pct)
{
	const uint32_t old_total = *obs_total, new_total = ntok - old_total;
	int end = 0;
	if (old_total >= 4 * DEFL_SPLIT_CHECK) {
		uint64_t delta = 0;
		for (uint32_t i = 0; i < DEFL_NOBS; i++) {
			const uint64_t a = (uint64_t)(cls[i] - obs[i]) * old_total;
			const uint64_t b = (uint64_t)obs[i] * new_total;
			delta += a > b ? a - b : b - a;
		}
		const uint64_t scale = (uint64_t)new_total * old_total;
		/* TV distance above the threshold, less 0.01 for every 4096 tokens of the block. */
		const uint64_t bonus = (uint64_t)(old_total / 4096) * scale / 100;
		end = delta + bonus >= scale * pct / 100;
	}
	memcpy(obs, cls, DEFL_NOBS * sizeof(*cls));
	*obs_total = ntok;
	return end;
}

int defl_split_test(uint32_t *obs, uint32_t *obs_total, const struct isal_mod_hist *h,
                    uint32_t ntok, uint32_t pct)
{
	uint32_t cls[DEFL_NOBS];
	token_classes(h, cls);
	return split_test_cls(obs, obs_total, cls, ntok, pct);
}

int defl_split_check(struct defl_lvl *L, uint32_t ntok, uint32_t pct)
{
	if (L->longblk && L->par->split_pct_long)
		pct = L->par->split_pct_long;
	const struct defl_cand *const c = defl_cand_of(L);
	if (c && c->on) {
		/* The tokens since the candidate, weighed as a block of their own. */
		uint32_t cls[DEFL_NOBS];
		token_classes(&L->hist, cls);
		for (uint32_t i = 0; i < DEFL_NOBS; i++)
			cls[i] -= c->cls0[i];
		return split_test_cls(L->obs, &L->obs_total, cls, ntok - c->ntok, pct);
	}
	return defl_split_test(L->obs, &L->obs_total, &L->hist, ntok, pct);
}

void defl_split_restart(struct defl_lvl *L, uint32_t ntok)
{
	token_classes(&L->hist, L->obs);
	L->obs_total = ntok;
}

/* ---- streaming: candidate split points (defl_cand) ---------------------------------------- */

void defl_cand_set(struct defl_lvl *L, uint32_t blk_in)
{
	struct defl_cand *const c = defl_cand_of(L);
	c->on = 1;
	c->ntok = L->ntok;
	c->in = blk_in;
	token_classes(&L->hist, c->cls0);
	memcpy(c->lits0, L->hist.ll_hist, sizeof(c->lits0));
	c->rescan = 1;
	memset(L->obs, 0, sizeof(L->obs));
	L->obs_total = 0;
	L->obs_next = L->ntok + DEFL_SPLIT_CHECK;
	L->split = 0;
}

void defl_cand_drop(struct defl_lvl *L)
{
	struct defl_cand *const c = defl_cand_of(L);
	for (uint32_t i = 0; i < DEFL_NOBS; i++)
		L->obs[i] += c->cls0[i];
	L->obs_total += c->ntok;
	c->on = 0;
}


uint32_t defl_tok_lvl3_portable(struct defl_lvl *L, const struct defl_win *w, uint32_t p,
				uint32_t stop)
{
	return tokenize(L, w, p, stop, defl_params(3));
}

void defl_lvl_insert(struct defl_lvl *Lv, const struct defl_win *w, uint32_t from, uint32_t to)
{
	if (Lv->par->chain) {
		defl_chain_insert(Lv, w, from, to);
		return;
	}
	const struct search_ctx ctx = { w->base, Lv->hash, 32 - Lv->hash_bits, w->bias,
					w->lo, w->maxdist, w->end, table_hkeep(Lv, Lv->par),
					Lv->skip_after };
	const uint32_t hend = w->end >= hash_need(&ctx) ? w->end + 1 - hash_need(&ctx) : 0;
	for (uint32_t q = from; q < to && q < hend; q++)
		enter(&ctx, q);
}
