/* Match finding for levels 1-3, which collect tokens for block-wise Huffman coding.
 *
 * Every level hashes the next 4 bytes, so the shortest match found is 4 bytes long (3-byte
 * matches rarely pay for their distance code). The levels (one candidate per hash bucket) differ
 * in how many positions inside a match are entered into the table, and level 3 adds one-step
 * lazy evaluation (code a literal when the next position has a longer match).
 *
 * The tokenizer counts each token into the block's histogram as it stores it, and classifies it
 * for block splitting (deflate_internal.h), so the block writer needs no further pass over the
 * tokens before it builds the codes.
 *
 * The main loop runs while 8 input bytes are left past the position, so it loads 8 bytes at a
 * time without bounds checks; the last few bytes of the input are coded as literals.
 */
#include "deflate_internal.h"

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* How a level searches (one candidate per hash bucket at every level). LAZY: one-step lazy
 * evaluation, for matches shorter than NICE; HEAD: positions after a match's start entered into
 * the table by the one-position loop (the match's last position always is; HEAD >= 2 also makes
 * the two-position loop enter the match's last three positions, not only its last); SKIP: after
 * 2^SKIP literals in a row, the one-position loop looks for matches at every second position
 * only, then every third... (0: never; the two-position loop always skips ahead on long literal
 * runs, after DEFL_SKIP_AFTER rounds). */
struct search_params {
	uint32_t lazy, nice, head, skip;
};

/* What the search reads, in locals so that token and count stores do not force reloads. */
struct search_ctx {
	const uint8_t *base;
	uint16_t *hash;
	uint32_t shift; /* 32 - log2(buckets) */
	uint32_t bias;
	uint32_t lo;
	uint32_t maxdist;
	uint32_t end;
};

static inline uint32_t hash_of(const struct search_ctx *c, uint32_t x)
{
	return (x * 0x9e3779b1u) >> c->shift;
}

static inline void enter(const struct search_ctx *c, const struct search_params sp, uint32_t q)
{
	(void)sp;
	c->hash[hash_of(c, defl_load32(c->base + q))] = (uint16_t)(q + c->bias);
}

/* Length of a match at distance d of position p whose first 4 bytes agree; p has 8 readable
 * bytes and max = min(258, end - p) >= 8. */
static inline __attribute__((always_inline)) uint32_t match_len(const uint8_t *p, const uint8_t *c, uint32_t max)
{
	const uint64_t x = defl_load64(p) ^ defl_load64(c);
	if (x)
		return (uint32_t)__builtin_ctzll(x) >> 3;
	return 8 + defl_extend(p + 8, c + 8, max - 8);
}

/* The match at p (8 readable bytes there) with the bucket's one candidate; enters p.
 * Returns its length (0: none) and sets *dist. */
static inline __attribute__((always_inline)) uint32_t search(const struct search_ctx *c,
			      uint32_t p, uint32_t *dist)
{
	const uint8_t *const base = c->base;
	const uint32_t x = defl_load32(base + p);
	const uint32_t h = hash_of(c, x);
	const uint32_t now = p + c->bias;
	const uint32_t lim = min_u32(c->maxdist, p - c->lo);
	const uint32_t max = min_u32(DEFL_MAX_MATCH, c->end - p);
	uint16_t *const ht = c->hash;
	const uint32_t d = (uint16_t)(now - ht[h]);
	ht[h] = (uint16_t)now;
	if (d - 1 < lim && defl_load32(base + p - d) == x) {
		*dist = d;
		return match_len(base + p, base + p - d, max);
	}
	return 0;
}

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
	uint32_t s = 0, l = 0;
	for (uint32_t len = 3; len < 9; len++)
		s += h->ll_hist[len + 254];
	for (uint32_t len = 9; len <= DEFL_MAX_MATCH; len++)
		l += h->ll_hist[len + 254];
	cls[8] = s;
	cls[9] = l;
}

/* Weigh the tokens since the last check against the block's before them: 1 when the block
 * should end. The test is the total variation distance between the two class distributions,
 * compared in integers: sum |new_i * old_total - old_i * new_total| against a threshold that
 * shrinks as the block grows (long blocks are split more readily, their header being paid). */
static int split_check(struct defl_lvl *L, uint32_t ntok)
{
	uint32_t cls[DEFL_NOBS];
	token_classes(&L->hist, cls);
	const uint32_t new_total = ntok - L->obs_total;
	int end = 0;
	if (L->obs_total >= 4 * DEFL_SPLIT_CHECK) {
		uint64_t delta = 0;
		for (uint32_t i = 0; i < DEFL_NOBS; i++) {
			const uint64_t a = (uint64_t)(cls[i] - L->obs[i]) * L->obs_total;
			const uint64_t b = (uint64_t)L->obs[i] * new_total;
			delta += a > b ? a - b : b - a;
		}
		const uint64_t scale = (uint64_t)new_total * L->obs_total;
		/* TV distance above 0.36, less 0.01 for every 4096 tokens of the block. */
		const uint64_t bonus = (uint64_t)(L->obs_total / 4096) * scale / 100;
		end = delta + bonus >= scale * 36 / 100;
	}
	memcpy(L->obs, cls, sizeof(cls));
	L->obs_total = ntok;
	return end;
}

/* The greedy one-candidate parse (level 1), two positions a round: both candidates are looked up
 * and compared before the one branch that separates literal pairs (most rounds) from matches.
 * Runs while p < pend (8 readable bytes at p + 1) and t < tlim. FULL: every p is at least
 * maxdist past lo, so only the window size limits a distance. */
/* Rounds of two literals after which the pair loop starts skipping positions. */
#define DEFL_SKIP_AFTER 8u

struct pair_state {
	uint32_t p;
	uint32_t miss; /* rounds of two literals in a row */
	uint32_t *t;
	uint32_t *llh;
	uint32_t *dh;
};

/* The length of a match at p, distance d, whose first 8 bytes differ from the data as y says. */
static inline __attribute__((always_inline)) uint32_t pair_len(const uint8_t *base, uint32_t end,
							      uint32_t p, uint32_t d, uint64_t y)
{
	if (y)
		return (uint32_t)__builtin_ctzll(y) >> 3;
	const uint32_t max = min_u32(DEFL_MAX_MATCH, end - p);
	return 8 + defl_extend(base + p + 8, base + p - d + 8, max - 8);
}

static inline __attribute__((always_inline)) void pairs(const struct search_ctx *c,
							   struct pair_state *ps, uint32_t pend,
							   uint32_t *tlim, const int full,
							   const uint32_t hbits, const int lazy,
							   const int enter3)
{
	const uint8_t *const base = c->base;
	uint16_t *const ht = c->hash;
	const uint32_t shift = hbits ? 32 - hbits : c->shift;
	const uint32_t bias = c->bias, lo = c->lo, maxd = c->maxdist;
	const uint32_t end = c->end;
	uint32_t *const llh = ps->llh;
	uint32_t *const dh = ps->dh;
	uint32_t p = ps->p;
	uint32_t *t = ps->t;
	/* The next round's bytes and hashes are computed before this round's branch, so a
	 * mispredicted branch does not also wait for them: loads reach p + 11. */
	if (pend > end - 10)
		pend = end - 10;
	uint64_t x = 0, x1 = 0;
	uint32_t h0 = 0, h1 = 0, miss = ps->miss;
	if (p < pend) {
		x = defl_load64(base + p);
		x1 = defl_load64(base + p + 1);
		h0 = ((uint32_t)x * 0x9e3779b1u) >> shift;
		h1 = ((uint32_t)x1 * 0x9e3779b1u) >> shift;
	}
	while (p < pend && t < tlim) {
		const uint32_t now = p + bias;
		uint32_t d0, d1;
		uint64_t y0, y1;
		if (full) {
			/* The distance modulo the (power of two) window, 1..maxdist: it may name
			 * a position the table never held, whose bytes then simply differ. */
			d0 = ((now - 1 - ht[h0]) & (maxd - 1)) + 1;
			d1 = ((now - ht[h1]) & (maxd - 1)) + 1;
			ht[h0] = (uint16_t)now;
			ht[h1] = (uint16_t)(now + 1);
			y0 = defl_load64(base + p - d0) ^ x;
			y1 = defl_load64(base + p + 1 - d1) ^ x1;
		} else {
			d0 = (uint16_t)(now - ht[h0]);
			ht[h0] = (uint16_t)now;
			d1 = (uint16_t)(now + 1 - ht[h1]);
			ht[h1] = (uint16_t)(now + 1);
			const uint32_t lim0 = min_u32(maxd, p - lo);
			const uint32_t lim1 = min_u32(maxd, p + 1 - lo);
			/* Out of range: distance 0, which compares the position with itself;
			 * the low bit then marks it as no match. */
			d0 &= 0u - (uint32_t)(d0 - 1 < lim0);
			d1 &= 0u - (uint32_t)(d1 - 1 < lim1);
			y0 = (defl_load64(base + p - d0) ^ x) | (uint64_t)(d0 == 0);
			y1 = (defl_load64(base + p + 1 - d1) ^ x1) | (uint64_t)(d1 == 0);
		}
		const uint64_t xn = defl_load64(base + p + 2);
		const uint64_t x1n = defl_load64(base + p + 3);
		const uint32_t h0n = ((uint32_t)xn * 0x9e3779b1u) >> shift;
		const uint32_t h1n = ((uint32_t)x1n * 0x9e3779b1u) >> shift;
		const uint32_t b0 = (uint8_t)x;
		if ((uint32_t)y0 && (uint32_t)y1) {
			const uint32_t b1 = (uint8_t)x1;
			const uint64_t two = (uint64_t)DEFL_TOK_LIT(b0) | (uint64_t)DEFL_TOK_LIT(b1) << 32;
			memcpy(t, &two, 8);
			t += 2;
			llh[b0]++;
			llh[b1]++;
			p += 2;
			x = xn;
			x1 = x1n;
			h0 = h0n;
			h1 = h1n;
			if (++miss > DEFL_SKIP_AFTER) {
				/* A long run of literals (incompressible data): code the next bytes
				 * as literals without looking them up, more the longer the run. */
				uint32_t k = min_u32((miss - DEFL_SKIP_AFTER) >> 1, 512);
				/* (The pair may have taken t one past tlim.) */
				const uint32_t room = t < tlim ? (uint32_t)(tlim - t) : 0;
				k = min_u32(k, min_u32(pend - min_u32(p, pend), room));
				for (uint32_t i = 0; i < k; i++) {
					const uint32_t b = base[p + i];
					t[i] = DEFL_TOK_LIT(b);
					llh[b]++;
				}
				t += k;
				p += k;
				if (k && p < pend) {
					x = defl_load64(base + p);
					x1 = defl_load64(base + p + 1);
					h0 = ((uint32_t)x * 0x9e3779b1u) >> shift;
					h1 = ((uint32_t)x1 * 0x9e3779b1u) >> shift;
				}
			}
			continue;
		}
		miss = 0;
		uint32_t len, dist;
		if (lazy && !(uint32_t)y0 && !(uint32_t)y1) {
			/* Matches at both positions: the one at p + 1 wins when it is longer
			 * (one-step lazy evaluation). */
			const uint32_t l0 = pair_len(base, end, p, d0, y0);
			const uint32_t l1 = pair_len(base, end, p + 1, d1, y1);
			const uint32_t sel = l1 > l0;
			*t = DEFL_TOK_LIT(b0);
			t += sel;
			llh[b0] += sel;
			p += sel;
			len = sel ? l1 : l0;
			dist = sel ? d1 : d0;
		} else {
			/* The match is at p, or at p + 1 after a literal: selected without a
			 * branch (the literal token is stored either way and counted only when
			 * it stays). */
			const uint32_t sel = (uint32_t)y0 != 0;
			*t = DEFL_TOK_LIT(b0);
			t += sel;
			llh[b0] += sel;
			p += sel;
			dist = sel ? d1 : d0;
			len = pair_len(base, end, p, dist, sel ? y1 : y0);
		}
		const uint32_t ds = defl_dist_sym(dist);
		*t++ = (len + 254) | ds << 10 | (dist - deflate_dist_base[ds]) << 15;
		llh[len + 254]++;
		dh[ds]++;
		p += len;
		/* The match's last position keeps runs of matches chained. */
		const uint32_t q = p - 1;
		if (enter3 && q + 8 <= end) {
			/* Levels 2-3 also enter the match's second and third last positions. */
			const uint64_t z = defl_load64(base + q - 2);
			ht[((uint32_t)z * 0x9e3779b1u) >> shift] = (uint16_t)(q - 2 + bias);
			ht[((uint32_t)(z >> 8) * 0x9e3779b1u) >> shift] = (uint16_t)(q - 1 + bias);
			ht[((uint32_t)(z >> 16) * 0x9e3779b1u) >> shift] = (uint16_t)(q + bias);
		} else if (q + 4 <= end)
			ht[(defl_load32(base + q) * 0x9e3779b1u) >> shift] = (uint16_t)(q + bias);
		if (p < pend) {
			x = defl_load64(base + p);
			x1 = defl_load64(base + p + 1);
			h0 = ((uint32_t)x * 0x9e3779b1u) >> shift;
			h1 = ((uint32_t)x1 * 0x9e3779b1u) >> shift;
		}
	}
	ps->p = p;
	ps->t = t;
	ps->miss = miss;
}

static inline __attribute__((always_inline)) uint32_t tokenize(struct defl_lvl *Lv, const struct defl_win *w, uint32_t p,
				uint32_t stop, const struct search_params sp)
{
	const struct search_ctx ctx = { w->base, Lv->hash, 32 - Lv->hash_bits, w->bias,
					w->lo, w->maxdist, w->end };
	const struct search_ctx *const c = &ctx;
	const uint8_t *const base = w->base;
	const uint32_t end = w->end;
	/* Positions with 8 readable bytes, where the fast loop runs. */
	const uint32_t pfast = min_u32(stop, end > 8 ? end - 8 : 0);
	uint32_t *const tok0 = Lv->tok;
	uint32_t *t = tok0 + Lv->ntok;
	uint32_t *const tcap = tok0 + (Lv->tok_cap - DEFL_TOK_SLACK);
	uint32_t *const llh = Lv->hist.ll_hist;
	uint32_t *const dh = Lv->hist.d_hist;
	uint32_t misses = 0;

	for (;;) {
		uint32_t *const tchk = tok0 + Lv->obs_next;
		uint32_t *const tlim = tchk < tcap ? tchk : tcap;
		{
			const uint32_t pf2 = pfast ? pfast - 1 : 0;
			/* Within the first window of the stream a candidate must also not reach
			 * before lo; past it the window size is the only limit. */
			const uint32_t full = c->lo + c->maxdist;
			/* (Windows are powers of two, which the masked distances of the FULL loop
			 * rely on.) */
			if (p < full && p < pf2 && t < tlim) {
				struct pair_state ps = { p, misses, t, llh, dh };
				pairs(c, &ps, min_u32(pf2, full), tlim, 0, 0, sp.lazy, sp.head >= 2);
				p = ps.p;
				t = ps.t;
				misses = ps.miss;
			}
			if (p < pf2 && t < tlim) {
				struct pair_state ps = { p, misses, t, llh, dh };
				if (c->shift == 32 - 15)
					pairs(c, &ps, pf2, tlim, 1, 15, sp.lazy, sp.head >= 2);
				else if (c->shift == 32 - 16)
					pairs(c, &ps, pf2, tlim, 1, 16, sp.lazy, sp.head >= 2);
				else
					pairs(c, &ps, pf2, tlim, 1, 0, sp.lazy, sp.head >= 2);
				p = ps.p;
				t = ps.t;
				misses = ps.miss;
			}
		}
		while (p < pfast && t < tlim) {
			uint32_t dist = 0;
			uint32_t len = search(c, p, &dist);
			if (len == 0) {
				const uint32_t b = base[p];
				*t++ = DEFL_TOK_LIT(b);
				llh[b]++;
				p++;
				if (sp.skip && ++misses >= 1u << sp.skip) {
					/* A long run of literals: code some without searching. */
					uint32_t k = (misses >> sp.skip) - 1;
					while (k-- && p < pfast && t < tlim) {
						const uint32_t b2 = base[p];
						*t++ = DEFL_TOK_LIT(b2);
						llh[b2]++;
						p++;
					}
				}
				continue;
			}
			misses = 0;
			uint32_t next = p + 1; /* first position not yet entered */
			if (sp.lazy && len < sp.nice && p + 1 < pfast) {
				uint32_t d1 = 0;
				const uint32_t l1 = search(c, p + 1, &d1);
				next = p + 2;
				if (l1 > len) {
					const uint32_t b = base[p];
					*t++ = DEFL_TOK_LIT(b);
					llh[b]++;
					p++;
					len = l1;
					dist = d1;
				}
			}
			const uint32_t ds = defl_dist_sym(dist);
			*t++ = (len + 254) | ds << 10 | (dist - deflate_dist_base[ds]) << 15;
			llh[len + 254]++;
			dh[ds]++;
			const uint32_t mend = p + len;
			/* Entering positions needs 4 readable bytes there. */
			const uint32_t hlim = min_u32(mend, end - 3);
			const uint32_t hto = min_u32(p + 1 + sp.head, hlim);
			for (uint32_t q = next; q < hto; q++)
				enter(c, sp, q);
			if (mend - 1 >= hto && mend - 1 < hlim)
				enter(c, sp, mend - 1);
			p = mend;
		}
		if (t >= tchk) {
			const uint32_t n = (uint32_t)(t - tok0);
			if (misses > DEFL_SKIP_AFTER) {
				/* Inside a long run of literals the statistics stay as they are:
				 * look again much later. */
				Lv->obs_next = n + 16 * DEFL_SPLIT_CHECK;
				continue;
			}
			Lv->obs_next = n + DEFL_SPLIT_CHECK;
			if (split_check(Lv, n)) {
				Lv->split = 1;
				break;
			}
			continue;
		}
		break;
	}
	/* The last bytes before the end of the input: literals. */
	if (!Lv->split) {
		while (p < stop && p >= pfast && t < tcap) {
			const uint32_t b = base[p];
			*t++ = DEFL_TOK_LIT(b);
			llh[b]++;
			p++;
		}
	}
	Lv->ntok = (uint32_t)(t - tok0);
	return p;
}

static const struct search_params lvl1_params = { 0, 258, 0, 0 };
static const struct search_params lvl2_params = { 0, 258, 2, 0 };
static const struct search_params lvl3_params = { 1, 258, 2, 0 };

uint32_t defl_tok_lvl1_base(struct defl_lvl *L, const struct defl_win *w, uint32_t p,
			    uint32_t stop)
{
	return tokenize(L, w, p, stop, lvl1_params);
}
uint32_t defl_tok_lvl2_base(struct defl_lvl *L, const struct defl_win *w, uint32_t p,
			    uint32_t stop)
{
	return tokenize(L, w, p, stop, lvl2_params);
}
uint32_t defl_tok_lvl3_base(struct defl_lvl *L, const struct defl_win *w, uint32_t p,
			    uint32_t stop)
{
	return tokenize(L, w, p, stop, lvl3_params);
}

void defl_lvl_insert(struct defl_lvl *Lv, const struct defl_win *w, uint32_t from, uint32_t to)
{
	const struct search_ctx ctx = { w->base, Lv->hash, 32 - Lv->hash_bits, w->bias,
					w->lo, w->maxdist, w->end };
	const struct search_params sp = Lv->level == 1 ? lvl1_params
				      : Lv->level == 2 ? lvl2_params
							: lvl3_params;
	const uint32_t hend = w->end > 3 ? w->end - 3 : 0;
	for (uint32_t q = from; q < to && q < hend; q++)
		enter(&ctx, sp, q);
}
