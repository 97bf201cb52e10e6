/* Levels 10-12: a near-optimal parse over the hash chains of levels 4-9 (the approach of
 * libdeflate's levels 10-12 and of zopfli: a shortest path under a cost model, refined in
 * passes; this is our own form of it).
 *
 * The input is taken up to DEFL_OPT_CHUNK positions at a time. First every position's matches
 * are collected from the chains (deflate_chain.h), visiting at most par->chain candidates, and
 * cached: for each length the nearest distance (collect); a match of par->nice bytes or more skips
 * the search at the positions it covers (they are entered, and get the rest of that match).
 *
 * A greedy parse of the cache is observed as levels 1-9 observe their tokens (defl_split_test),
 * which chooses where the block ends (block_end). Then each pass finds the cheapest way through
 * the block's positions, each step a literal or a match of any length up to one found there,
 * under costs in 1/16 bit: a block's first pass from default_costs (literals by the values in
 * use, distances alike), blended with the previous block's, later passes from the code lengths
 * of the previous pass's path (with the block's counts so far where it spans chunks). Every token
 * costs one unit more, so that of two paths of equal bits the one with fewer tokens wins (it also
 * decodes faster).
 *
 * The positions past a block's end stay cached for the next block (they are in the chains
 * already, and a search from them now would find nothing). The cache is keyed by stream
 * position, so it survives the streaming buffer's slides, and a key that does not match means a
 * fresh search. */
#include "deflate_chain.h"

#define COST_UNIT 16u     /* cost units per bit */
#define OPT_INF   0xffffffffu

/* A cached match: length (3 .. 258), distance symbol and distance; a choice of the path is one
 * too (0: a literal). */
#define OPT_M(len, dsym, dist) ((uint32_t)(len) | (uint32_t)(dsym) << 9 | (uint32_t)(dist) << 14)
#define OPT_LEN(m)             ((m)&511u)
#define OPT_DSYM(m)            (((m) >> 9) & 31u)
#define OPT_DIST(m)            (((m) >> 14) & 0xffffu)
/* A match inside a long one (a skipped position's rest of it), offered at its full length only:
 * the lengths below it would cost the path a loop per position, quadratic in a long match. */
#define OPT_WHOLE 0x40000000u

/* The most matches kept for one position. */
#define OPT_PER_POS 12

/* Collect the matches at q into o->m from *mi (at most cap entries), entering q: each candidate
 * longer than all nearer ones, so one per length, the nearest (the shortest path then takes for
 * each length the cheapest distance among the matches that reach it). Also keeping, for each
 * distance symbol, its longest match (for data whose distances gather on a few symbols) made
 * little difference once the first costs were neutral (kennedy.xls 0.1% smaller, Calgary the
 * same) and level 10 1.6x slower. Returns the longest length found (0: none); *far its distance. */
static inline __attribute__((always_inline)) uint32_t
collect(const struct chain_ctx *c, const struct defl_params *P, uint32_t q, struct defl_opt *o,
        uint32_t *mi, uint32_t cap, uint32_t *far)
{
	const struct chain_probe pr = chain_probe(c, q);
	const uint8_t *const ip = pr.ip;
	const uint32_t max = pr.max, lim = pr.lim, now = pr.now, first = pr.first;
	uint32_t cand = pr.cand;
	const uint32_t cand3 = pr.cand3;
	if (max < 3)
		return 0;
	const uint32_t nice = min_u32(P->nice, max);
	uint32_t n = *mi, best = 0, bestd = 0;
	const uint32_t stop_at = min_u32(cap, n + OPT_PER_POS);
	/* The newest 3-byte candidate, at its full length. */
	const uint32_t d3 = (uint16_t)(now - cand3);
	if (d3 && d3 <= lim && memcmp(ip - d3, ip, 3) == 0) {
		best = 3 + defl_extend(ip + 3, ip - d3 + 3, max - 3);
		bestd = d3;
		o->m[n++] = OPT_M(best, defl_dist_sym(d3), d3);
	}
	uint32_t chain = best < nice ? P->chain : 0, dprev = 0;
	while (chain--) {
		const uint32_t d = (uint16_t)(now - cand);
		if (d <= dprev || d > lim)
			break;
		dprev = d;
		const uint8_t *const m = ip - d;
		cand = c->prev[cand & CHAIN_MASK];
		/* A longer match agrees in bytes at - 4 .. at - 1. */
		const uint32_t at = best < 4 ? 4 : best + 1;
		if (at > max)
			break;
		if (defl_load32(m + at - 4) == defl_load32(ip + at - 4) && defl_load32(m) == first) {
			const uint32_t len = 4 + defl_extend(ip + 4, m + 4, max - 4);
			if (len > best) {
				best = len;
				bestd = d;
				if (n < stop_at)
					o->m[n++] = OPT_M(len, defl_dist_sym(d), d);
				if (len >= nice)
					break;
			}
		}
	}
	*mi = n;
	*far = bestd;
	return best;
}

/* Find the matches of positions [p, p + n) of w into the cache; returns the positions done (fewer
 * than n when the match store fills). */
static uint32_t collect_chunk(struct defl_lvl *L, const struct defl_win *w, uint32_t p, uint32_t n,
                              const struct defl_params *P)
{
	const struct chain_ctx ctx = chain_ctx_of(L, w);
	struct defl_opt *const o = chain_opt(L);
	const uint32_t hend = w->end >= 4 ? w->end - 3 : 0;
	/* Room for one position's matches (a search records fewer than 64) and a skip's. */
	const uint32_t cap = DEFL_OPT_MATCHES;
	uint32_t mi = 0, i = 0;
	while (i < n) {
		if (mi + 64 > cap)
			break;
		o->start[i] = mi;
		const uint32_t q = p + i;
		chain_sweep_due(L, q + w->bias);
		if (q >= hend) {
			i++;
			continue;
		}
		uint32_t dist = 0;
		const uint32_t len = collect(&ctx, P, q, o, &mi, cap, &dist);
		i++;
		if (len >= P->nice) {
			/* The positions the match covers: entered, and the rest of the match. */
			for (uint32_t k = 1; k < len && i < n && mi < cap; k++, i++) {
				o->start[i] = mi;
				if (p + i < hend)
					chain_enter(&ctx, p + i);
				if (len - k >= 3)
					o->m[mi++] =
					    OPT_M(len - k, defl_dist_sym(dist), dist) | OPT_WHOLE;
			}
		}
	}
	o->start[i] = mi;
	return i;
}

/* Costs of one pass (units of 1/16 bit, one more per token). */
struct opt_costs {
	uint32_t lit[256];
	uint32_t len[DEFL_MAX_MATCH + 1];
	uint32_t dsym[30];
};

static void costs_from(struct opt_costs *c, const struct isal_mod_hist *h)
{
	uint8_t ll[286], d[30];
	defl_code_lengths(h, 1, ll, d);
	for (uint32_t b = 0; b < 256; b++)
		c->lit[b] = COST_UNIT * ll[b] + 1;
	for (uint32_t s = 0; s < 29; s++) {
		const uint32_t first = deflate_len_base[s];
		const uint32_t last = s == 28 ? 258 : (s == 27 ? 257 : deflate_len_base[s + 1] - 1u);
		for (uint32_t len = first; len <= last; len++)
			c->len[len] = COST_UNIT * (ll[257 + s] + deflate_len_extra[s]) + 1;
	}
	for (uint32_t s = 0; s < 30; s++)
		c->dsym[s] = COST_UNIT * (d[s] + deflate_dist_extra[s]);
}

/* log2(x) in cost units (x >= 1), to about 1/16 bit. */
static uint32_t log2_units(uint64_t x)
{
	uint32_t top = 63u - (uint32_t)__builtin_clzll(x);
	/* The fraction from the next four bits, linearly: within 0.09 bits. */
	const uint32_t f = top >= 4 ? (uint32_t)(x >> (top - 4)) & 15 : (uint32_t)(x << (4 - top)) & 15;
	return COST_UNIT * top + f;
}

/* Costs for a block's first pass, neutral between distances: a literal costs the log of the
 * literal values in use plus the log of the odds of a literal, a length symbol the odds of a match
 * and a spread over 8 symbols, a distance symbol the log of 30 (its extra bits on top). The odds
 * come from h, a greedy parse. (Costs from the greedy parse itself lead the passes to its far
 * distances: kennedy.xls 7% larger.) */
static void default_costs(struct opt_costs *c, const struct isal_mod_hist *h, const uint8_t *src,
                          uint32_t n)
{
	uint32_t cnt[256] = { 0 };
	for (uint32_t i = 0; i < n; i++)
		cnt[src[i]]++;
	uint32_t used = 0;
	for (uint32_t b = 0; b < 256; b++)
		used += cnt[b] > (n >> 11);
	uint64_t lits = 0, matches = 0;
	for (uint32_t b = 0; b < 256; b++)
		lits += h->ll_hist[b];
	for (uint32_t s = 0; s < 30; s++)
		matches += h->d_hist[s];
	const uint64_t all = lits + matches + 1;
	const uint32_t lit = log2_units(used ? used : 1) + log2_units(all) - log2_units(lits + 1);
	const uint32_t len = 3 * COST_UNIT + log2_units(all) - log2_units(matches + 1);
	for (uint32_t b = 0; b < 256; b++)
		c->lit[b] = lit + 1;
	for (uint32_t s = 0; s < 29; s++) {
		const uint32_t first = deflate_len_base[s];
		const uint32_t last = s == 28 ? 258 : (s == 27 ? 257 : deflate_len_base[s + 1] - 1u);
		for (uint32_t l = first; l <= last; l++)
			c->len[l] = len + COST_UNIT * deflate_len_extra[s] + 1;
	}
	for (uint32_t s = 0; s < 30; s++)
		c->dsym[s] = log2_units(30) + COST_UNIT * deflate_dist_extra[s];
}

/* A new block's first costs: halfway between the defaults and the costs of the block before. */
static void blend_costs(struct opt_costs *c, const struct isal_mod_hist *prev)
{
	struct opt_costs p;
	costs_from(&p, prev);
	for (uint32_t b = 0; b < 256; b++)
		c->lit[b] = (c->lit[b] + p.lit[b]) / 2;
	for (uint32_t l = 3; l <= DEFL_MAX_MATCH; l++)
		c->len[l] = (c->len[l] + p.len[l]) / 2;
	for (uint32_t s = 0; s < 30; s++)
		c->dsym[s] = (c->dsym[s] + p.dsym[s]) / 2;
}

/* One token of a greedy parse of the cache (the longest match at i, else a literal) counted
 * into h; returns the position after it. */
static inline uint32_t greedy_token(const struct defl_opt *o, const uint8_t *src, uint32_t n,
                                    uint32_t i, struct isal_mod_hist *h)
{
	const uint32_t a = o->start[i], b = o->start[i + 1];
	const uint32_t len = a < b ? min_u32(OPT_LEN(o->m[b - 1]), n - i) : 0;
	if (len < 3) {
		h->ll_hist[src[i]]++;
		return i + 1;
	}
	h->ll_hist[len + 254]++;
	h->d_hist[OPT_DSYM(o->m[b - 1])]++;
	return i + len;
}

/* The counts of a greedy parse of the n cached positions: default_costs' odds of a literal. */
static void greedy_hist(const struct defl_opt *o, const uint8_t *src, uint32_t n,
                        struct isal_mod_hist *h)
{
	memset(h, 0, sizeof(*h));
	for (uint32_t i = 0; i < n;)
		i = greedy_token(o, src, n, i, h);
}

/* The cheapest path through the n cached positions from src (choice[i]: 0 a literal, else the
 * match taken at i). */
static void shortest_path(struct defl_opt *o, const uint8_t *src, uint32_t n,
                          const struct opt_costs *c)
{
	uint32_t *const cost = o->cost;
	cost[n] = 0;
	for (uint32_t i = n; i-- > 0;) {
		uint32_t best = c->lit[src[i]] + cost[i + 1], ch = 0;
		const uint32_t room = n - i;
		const uint32_t k0 = o->start[i], k1 = o->start[i + 1];
		/* Each length goes with the cheapest distance among the matches that reach it: with
		 * the matches by length, the cheapest from each one on (suffix minima). */
		uint32_t sm[OPT_PER_POS + 1], smc[OPT_PER_POS + 1];
		uint32_t mc = OPT_INF, mm = 0;
		for (uint32_t k = k1; k-- > k0;) {
			const uint32_t m = o->m[k];
			const uint32_t x = c->dsym[OPT_DSYM(m)];
			if (x < mc) {
				mc = x;
				mm = m;
			}
			sm[k - k0] = mm;
			smc[k - k0] = mc;
		}
		uint32_t covered = 2;
		for (uint32_t k = k0; k < k1 && covered < room; k++) {
			const uint32_t hi = min_u32(OPT_LEN(o->m[k]), room);
			if (hi <= covered)
				continue;
			const uint32_t dcost = smc[k - k0];
			const uint32_t take = sm[k - k0] & ~(511u | OPT_WHOLE);
			for (uint32_t len = o->m[k] & OPT_WHOLE ? hi : covered + 1; len <= hi; len++) {
				const uint32_t x = c->len[len] + dcost + cost[i + len];
				if (x < best) {
					best = x;
					ch = take | len;
				}
			}
			covered = hi;
		}
		cost[i] = best;
		o->choice[i] = ch;
	}
}

/* Count the path's tokens into h. */
static void path_hist(const struct defl_opt *o, const uint8_t *src, uint32_t n,
                      struct isal_mod_hist *h)
{
	for (uint32_t i = 0; i < n;) {
		const uint32_t ch = o->choice[i];
		if (!ch) {
			h->ll_hist[src[i++]]++;
			continue;
		}
		h->ll_hist[OPT_LEN(ch) + 254]++;
		h->d_hist[OPT_DSYM(ch)]++;
		i += OPT_LEN(ch);
	}
}

/* Drop the first k cached positions. */
static void cache_advance(struct defl_opt *o, uint32_t k)
{
	if (k >= o->n) {
		o->n = 0;
		return;
	}
	const uint32_t off = o->start[k], rest = o->n - k;
	memmove(o->m, o->m + off, (o->start[o->n] - off) * sizeof(o->m[0]));
	for (uint32_t i = 0; i <= rest; i++)
		o->start[i] = o->start[k + i] - off;
	o->n = rest;
	o->abs += k;
}

/* Where the block should end within the n cached positions from src: a greedy parse of the cached
 * matches is observed as the other levels observe their tokens (defl_split_test, every
 * DEFL_SPLIT_CHECK tokens), and the block ends where a window of them differs from the block
 * before it; n when none does. The observations carry over to the block's next chunk. */
static uint32_t block_end(struct defl_opt *o, const uint8_t *src, uint32_t n, uint32_t pct)
{
	uint32_t win = 0; /* where the window being observed began */
	for (uint32_t i = 0; i < n;) {
		i = greedy_token(o, src, n, i, &o->gh);
		if (++o->gn == o->gnext) {
			o->gnext += DEFL_SPLIT_CHECK;
			if (defl_split_test(o->gobs, &o->gobs_total, &o->gh, o->gn, pct))
				return win;
			win = i;
		}
	}
	return n;
}

/* The tokenizer of level P (a constant in each instance below). */
static inline __attribute__((always_inline)) uint32_t tok_opt(struct defl_lvl *L,
                                                              const struct defl_win *w,
                                                              uint32_t p, uint32_t stop,
                                                              const struct defl_params *P)
{
	struct defl_opt *const o = chain_opt(L);
	const uint8_t *const base = w->base;
	if (!L->ntok) {
		/* A new block: its observations start afresh. */
		memset(&o->gh, 0, sizeof(o->gh));
		memset(o->gobs, 0, sizeof(o->gobs));
		o->gobs_total = 0;
		o->gn = 0;
		o->gnext = DEFL_SPLIT_CHECK;
	}
	while (p < stop) {
		const uint32_t room = L->tok_cap - DEFL_TOK_SLACK - L->ntok;
		if (room < 64 && L->ntok) {
			/* Too little room for a chunk worth parsing: the block ends. */
			L->split = 1;
			break;
		}
		uint32_t n = min_u32(min_u32(stop - p, DEFL_OPT_CHUNK), room);
		if (!n)
			break;
		if (!o->n || o->abs != p + w->bias) {
			o->n = collect_chunk(L, w, p, n, P);
			o->abs = p + w->bias;
		}
		n = min_u32(n, o->n);
		const uint8_t *const src = base + p;
		const uint32_t e = block_end(o, src, n, P->split_pct);

		if (e) {
			/* The passes over [p, p + e). */
			struct opt_costs c;
			struct isal_mod_hist h;
			const int have_stats = L->ntok >= 1024;
			if (have_stats)
				h = L->hist;
			else
				greedy_hist(o, src, e, &h);
			for (uint32_t pass = 0; pass < P->opt; pass++) {
				if (pass || have_stats) {
					costs_from(&c, &h);
				} else {
					default_costs(&c, &h, src, e);
					if (o->has_prev)
						blend_costs(&c, &o->prev);
				}
				shortest_path(o, src, e, &c);
				if (pass + 1 < P->opt) {
					if (have_stats)
						h = L->hist;
					else
						memset(&h, 0, sizeof(h));
					path_hist(o, src, e, &h);
				}
			}
			/* The tokens. */
			uint32_t *t = L->tok + L->ntok;
			for (uint32_t i = 0; i < e;) {
				const uint32_t ch = o->choice[i];
				if (!ch) {
					t = put_lit(t, &L->hist, src[i++]);
					continue;
				}
				t = put_match(t, &L->hist, OPT_LEN(ch), OPT_DIST(ch));
				i += OPT_LEN(ch);
			}
			L->ntok = (uint32_t)(t - L->tok);
			o->prev = L->hist;
			o->has_prev = 1;
			cache_advance(o, e);
			p += e;
		}
		if (e < n) {
			L->split = 1;
			break;
		}
	}
	return p;
}

DEFL_LEVEL_TOK(tok_opt, 10)
DEFL_LEVEL_TOK(tok_opt, 11)
DEFL_LEVEL_TOK(tok_opt, 12)

defl_tok_fn *defl_tok_optimal(uint32_t level)
{
	static defl_tok_fn *const tab[] = { tok_opt10, tok_opt11, tok_opt12 };
	_Static_assert(sizeof(tab) / sizeof(tab[0]) == DEFL_MAX_LEVEL - 9, "one per optimal level");
	return tab[level - 10];
}
