/* Levels 4 and up: lazy matching over hash chains (level 4: greedy over two-way buckets,
 * tok_bucket below).
 *
 * Every position with 4 bytes left is entered into a hash table of chain heads (the hash of its
 * first 4 bytes), into the chain table, which links it to the previous position of the same
 * hash, and into a table of the newest position of each 3-byte hash (no chains: a match of 3
 * bytes is worth coding only near, so the newest candidate is the one that counts). A search
 * takes the 3-byte candidate when it matches, then walks the 4-byte chain from its newest entry,
 * at most par->chain candidates, and stops at a match of par->nice bytes.
 *
 * The parse is lazy (as zlib's levels 4-9 and libdeflate's lazy levels): a match shorter than
 * par->max_lazy is held while the next position is searched, and gives way, after a literal, to
 * a better match there. With par->lazy2 the position after that is searched too. A match is
 * better when it is longer by more than the extra cost of a farther distance (match_better).
 * The look-ahead searches visit par->chain >> par->lazy_shift candidates (a quarter of that
 * once the held match is par->good long), the second one 2^par->lazy2_shift times fewer: the
 * match held already pays, so depth buys less there than at the first search. With
 * par->deep_steps the first look-ahead visits all par->chain candidates while chains are short
 * (tok_chain).
 *
 * A block takes no match shorter than L->min_len (3 to 9), which follows the number of byte
 * values its literals use: with few values literals are cheap and short matches are not worth
 * their length and distance codes (min_len_of).
 *
 * Positions are the stream's modulo 2^16 (deflate_internal.h), chain slots their low 15 bits. A
 * chain walk believes a candidate only while distances grow and stay inside the window, so a slot
 * since reused by a newer position, or a stale one, ends the walk; the bytes of every candidate are
 * compared. */
#include "deflate_chain.h"

/* log2 of a distance, the part of its cost that grows with it. */
static inline uint32_t dist_log(uint32_t d)
{
	return 31u ^ (uint32_t)__builtin_clz(d);
}

/* A match of len2 at distance d2 is worth more than len1 at d1 by more than margin: each byte of
 * length saves about a literal (4 units of a quarter literal each), each doubling of the distance
 * costs an extra bit (a quarter literal). */
static inline int match_better(uint32_t len2, uint32_t d2, uint32_t len1, uint32_t d1, int margin)
{
	return 4 * ((int)len2 - (int)len1) + (int)dist_log(d1) - (int)dist_log(d2) > margin;
}


/* The best match at q longer than min_len (0: none) among chain candidates, *dist its distance;
 * enters q (hs: chain_probe's) and adds the candidates visited to *steps. (The walk
 * reads no link q's entry replaced: its candidates are 1 .. 32768 back, and the one 32768 back,
 * whose slot q takes, ends the walk either way.) */
static inline __attribute__((always_inline)) uint32_t chain_find(const struct chain_ctx *c,
								 const struct defl_params *P,
								 uint32_t q, uint32_t min_len,
								 uint32_t chain,
								 struct chain_hash *hs,
								 uint32_t *dist,
								 uint32_t *steps)
{
	const uint32_t depth = chain;
	const struct chain_probe pr = chain_probe(c, q, hs);
	const uint8_t *const ip = pr.ip;
	const uint32_t max = pr.max, lim = pr.lim, now = pr.now, first = pr.first;
	uint32_t cand = pr.cand;
	const uint32_t cand3 = pr.cand3;
	if (min_len >= max)
		return 0;
	const uint32_t nice = min_u32(P->nice, max);
	uint32_t best = 3, bestd = 0;
	if (min_len >= 3) {
		best = min_len;
	} else {
		/* A 3-byte match, near enough to pay. */
		const uint32_t d3 = (uint16_t)(now - cand3);
		if (d3 && d3 <= min_u32(lim, P->far3) && memcmp(ip - d3, ip, 3) == 0)
			bestd = d3;
	}
	uint32_t dprev = 0;
	while (chain--) {
		const uint32_t d = (uint16_t)(now - cand);
		if (d <= dprev || d > lim)
			break;
		dprev = d;
		const uint8_t *const m = ip - d;
		cand = c->prev[cand & CHAIN_MASK];
		/* A longer match agrees in bytes best - 3 .. best (best < max: they exist at both). */
		if (defl_load32(m + best - 3) == defl_load32(ip + best - 3) &&
		    defl_load32(m) == first) {
			const uint32_t len = 4 + defl_extend(ip + 4, m + 4, max - 4);
			if (len > best) {
				best = len;
				bestd = d;
				if (len >= nice)
					break;
			}
		}
	}
	*steps += depth - chain; /* (one more than visited when the walk ran its full depth) */
	if (!bestd)
		return 0;
	*dist = bestd;
	return best;
}


/* The candidates a look-ahead search visits while the held match is len long. */
static inline uint32_t lazy_depth(const struct defl_params *P, uint32_t len)
{
	return (len >= P->good ? P->chain >> 2 : P->chain) >> P->lazy_shift;
}

/* The shortest match worth taking where the block uses n literal values often: few values
 * make literals cheap, so a short match costs more than its literals (libdeflate's heuristic,
 * from its published thresholds: below 6 values 9, 6-7 8, 8-9 7, 10-15 6, 16-44 5, 45-79 4,
 * else 3). A shallow search rarely finds the long matches the longer floors wait for, so its
 * floor stays lower. */
static uint32_t min_len_of(uint32_t n, uint32_t chain)
{
	uint32_t m = n < 6 ? 9 : n < 8 ? 8 : n < 10 ? 7 : n < 16 ? 6 : n < 45 ? 5 : n < 80 ? 4 : 3;
	const uint32_t cap = chain < 5 ? 4 : chain < 10 ? 5 : chain < 16 ? 7 : 9;
	return m < cap ? m : cap;
}

/* The floor from the first 4 KiB of a block (inputs under 512 bytes: 3, a static code is
 * likely and makes every match pay). */
static uint32_t min_len_scan(const uint8_t *p, uint32_t n, uint32_t chain)
{
	if (n < 512)
		return 3;
	uint8_t seen[256] = { 0 };
	n = min_u32(n, 4096);
	for (uint32_t i = 0; i < n; i++)
		seen[p[i]] = 1;
	uint32_t used = 0;
	for (uint32_t i = 0; i < 256; i++)
		used += seen[i];
	return min_len_of(used, chain);
}

/* The floor from the literal counts of the block so far (values used less than once in 1024
 * literals do not count). */
static uint32_t min_len_hist(const struct isal_mod_hist *h, const struct defl_cand *c,
                             uint32_t chain)
{
	/* (After a candidate, the literals since it.) */
	uint32_t lit[256];
	for (uint32_t i = 0; i < 256; i++)
		lit[i] = h->ll_hist[i] - (c && c->on ? c->lits0[i] : 0);
	uint32_t total = 0, used = 0;
	for (uint32_t i = 0; i < 256; i++)
		total += lit[i];
	for (uint32_t i = 0; i < 256; i++)
		used += lit[i] > (total >> 10);
	return min_len_of(used, chain);
}

/* After a run of the tokenizers below stopped at t: at a checkpoint (tchk reached, room left)
 * the next one is set, the minimum match length taken from the counts, and the block's split
 * tested. Returns 1 when the tokenizer stops (the token area is full, the input ended or the
 * block ends), 0 when it goes on. */
static inline int checkpoint(struct defl_lvl *L, const uint32_t *t, const uint32_t *tchk,
                             const uint32_t *tcap, const struct defl_params *P)
{
	if (t < tchk || t >= tcap)
		return 1;
	const uint32_t n = (uint32_t)(t - L->tok);
	L->obs_next = n + P->split_every * DEFL_SPLIT_CHECK;
	L->min_len = min_len_hist(&L->hist, defl_cand_of(L), P->chain);
	if (defl_split_check(L, n, P->split_pct)) {
		L->split = 1;
		return 1;
	}
	return 0;
}

/* The fewest tokens over which deep_steps' visits per token are taken. (The test runs in the
 * tokenizer's outer loop, which turns at the split checkpoints, every 512 tokens at level 9.) */
#define DEEP_TOKENS 256u

/* The tokenizer of level P (a constant in each instance below, so its fields fold). */
static inline __attribute__((always_inline)) uint32_t tok_chain(struct defl_lvl *L,
								const struct defl_win *w,
								uint32_t p, uint32_t stop,
								const struct defl_params *P)
{
	const struct chain_ctx ctx = chain_ctx_of(L, w);
	const struct chain_ctx *const c = &ctx;
	const uint8_t *const base = w->base;
	/* Positions with 4 bytes to hash. */
	const uint32_t hend = w->end >= 4 ? w->end - 3 : 0;
	uint32_t *const tok0 = L->tok;
	uint32_t *t = tok0 + L->ntok;
	uint32_t *const tcap = tok0 + (L->tok_cap - DEFL_TOK_SLACK);
	struct isal_mod_hist *const h = &L->hist;
	uint32_t miss = 0;
	/* Candidates visited since token tmark, and whether the first look-ahead goes to the full
	 * depth (par->deep_steps): the cost of a walk is the chain's length, which the visits per
	 * token measure; the first stretch of a run is taken deep. */
	uint32_t steps = 0, tmark = (uint32_t)(t - tok0);
	int deep = P->deep_steps != 0;

	struct defl_cand *const cand = defl_cand_of(L);
	if (L->ntok == 0 || (cand && cand->rescan)) {
		/* (A block's start, or a candidate split point: the part after it is weighed as
		 * a block of its own.) */
		L->min_len = min_len_scan(base + p, w->end - p, P->chain);
		if (cand)
			cand->rescan = 0;
	}
	while (p < stop) {
		uint32_t *const tchk = tok0 + L->obs_next;
		uint32_t *const tlim = tchk < tcap ? tchk : tcap;
		const uint32_t nt = (uint32_t)(t - tok0);
		if (P->deep_steps && nt - tmark >= DEEP_TOKENS) {
			deep = steps < P->deep_steps * (nt - tmark);
			steps = 0;
			tmark = nt;
		}
		const uint32_t due = chain_sweep_due(L, p + c->bias);
		const uint32_t pl = stop - p > due ? p + due : stop;
		/* The hashes of p (where it has 4 bytes). */
		struct chain_hash hs = { 0, 0 };
		if (p < hend)
			hs = chain_hash_of(c, defl_load32(base + p));
		while (p < pl && t < tlim) {
			if (p >= hend) {
				t = put_lit(t, h, base[p++]);
				continue;
			}
			uint32_t dist = 0;
			uint32_t len =
				chain_find(c, P, p, L->min_len - 1, P->chain, &hs, &dist, &steps);
			if (!len) {
				/* Past 2^CHAIN_SKIP literals in a row, search every second
				 * position, then every third ... */
				uint32_t n = min_u32(1 + (miss++ >> CHAIN_SKIP), CHAIN_SKIP_MAX);
				n = min_u32(n, min_u32(pl - p, (uint32_t)(tlim - t)));
				const uint32_t skip = n > 1;
				while (n--)
					t = put_lit(t, h, base[p++]);
				if (skip && p < hend)
					hs = chain_hash_of(c, defl_load32(base + p));
				continue;
			}
			miss = 0;
			uint32_t entered = p + 1; /* first position not yet entered */
			/* Lazy evaluation: a literal, then a better match one position on;
			 * with lazy2, two literals and a much better match two on. The
			 * look-ahead searches also return a match as long as the held one,
			 * which wins when it is much nearer: in records of a fixed stride the
			 * match a byte or two later is often one at the stride's distance
			 * (kennedy.xls at level 9: 17.6% of the input instead of 19.7%). */
			while (len < P->max_lazy && p + 1 < hend && t + 2 <= tcap) {
				const uint32_t depth = deep ? P->chain : lazy_depth(P, len);
				uint32_t d1 = 0;
				const uint32_t l1 =
					chain_find(c, P, p + 1, len - 1, depth, &hs, &d1, &steps);
				entered = p + 2;
				if (l1 && match_better(l1, d1, len, dist, 2)) {
					t = put_lit(t, h, base[p]);
					p++;
					len = l1;
					dist = d1;
					continue;
				}
				if (!P->lazy2 || p + 2 >= hend)
					break;
				uint32_t d2 = 0;
				const uint32_t l2 = chain_find(c, P, p + 2, len - 1,
							       depth >> P->lazy2_shift, &hs, &d2,
							       &steps);
				entered = p + 3;
				if (l2 && match_better(l2, d2, len, dist, P->lazy2)) {
					t = put_lit(t, h, base[p]);
					t = put_lit(t, h, base[p + 1]);
					p += 2;
					len = l2;
					dist = d2;
					continue;
				}
				break;
			}
			t = put_match(t, h, len, dist);
			const uint32_t mend = min_u32(p + len, hend);
			if (p + len < hend) {
				/* The next search's heads, fetched while the match's positions are
				 * entered (Calgary level 5: 2% faster). */
				hs = chain_hash_of(c, defl_load32(base + p + len));
				__builtin_prefetch(&c->head[hs.h]);
				__builtin_prefetch(&c->head3[hs.h3]);
			}
			if (!P->ins_max || len <= P->ins_max)
				for (uint32_t q = entered; q < mend; q++)
					chain_enter(c, q);
			p += len;
		}
		if (p < stop && t < tlim)
			continue; /* (a sweep is due) */
		if (checkpoint(L, t, tchk, tcap, P))
			break;
	}
	L->ntok = (uint32_t)(t - tok0);
	return p;
}

/* Level 4 (par->ways 2): a greedy parse over buckets of the two newest positions of each
 * 4-byte hash, in the heads' room (2^(hash_bits - 1) buckets of two; the chain links and the
 * 3-byte table stay unused). The two candidates come from one load and are compared
 * independently, where a chain of two waits for its link before the second comparison, and no
 * look-ahead search or 3-byte table is kept up (Calgary: 1.15x the speed of depth-2 chains with
 * lazy matching, for 0.09 points more output).
 * A bucket is 32 bits in native order, written and read only as such, the newest position in
 * the low half: one load gives both candidates, one store enters a position. */
static inline uint8_t *bucket_of(const struct chain_ctx *c, uint32_t v)
{
	return (uint8_t *)c->head + 4 * (size_t)((v * DEFL_HASH_MUL32) >> (c->shift + 1));
}

static inline uint32_t bucket_get(const uint8_t *b)
{
	uint32_t x;
	memcpy(&x, b, 4);
	return x;
}

static inline void bucket_put(uint8_t *b, uint32_t pair, uint32_t now)
{
	const uint32_t x = (pair << 16) | (now & 0xffffu);
	memcpy(b, &x, 4);
}

static inline void bucket_enter(const struct chain_ctx *c, uint32_t q)
{
	uint8_t *const b = bucket_of(c, defl_load32(c->base + q));
	bucket_put(b, bucket_get(b), q + c->bias);
}

/* The longer match at q of the bucket's two candidates, longer than min_len (0: none), *dist
 * its distance; enters q. b is q's bucket, found by the caller a position ahead (the load then
 * waits for no hash; with the bucket after a match fetched while its positions are entered,
 * Calgary 7% faster, Canterbury 10%); *nb is set to q + 1's, fetched ahead (nb NULL: q + 1 has
 * no 4 bytes). */
static inline __attribute__((always_inline)) uint32_t bucket_find(const struct chain_ctx *c,
								  const struct defl_params *P,
								  uint32_t q, uint32_t min_len,
								  uint8_t *b, uint8_t **nb,
								  uint32_t *dist)
{
	const uint8_t *const ip = c->base + q;
	const uint32_t max = min_u32(DEFL_MAX_MATCH, c->end - q);
	const uint32_t lim = min_u32(c->maxdist, q - c->lo);
	const uint32_t now = q + c->bias;
	const uint32_t first = defl_load32(ip);
	const uint32_t pair = bucket_get(b);
	const uint32_t d0 = (uint16_t)(now - pair), d1 = (uint16_t)(now - (pair >> 16));
	bucket_put(b, pair, now);
	if (nb) {
		*nb = bucket_of(c, defl_load32(ip + 1));
		__builtin_prefetch(*nb);
	}
	if (min_len >= max)
		return 0;
	uint32_t best = min_len > 3 ? min_len : 3, bestd = 0;
	if (d0 - 1u < lim && defl_load32(ip - d0) == first) {
		const uint32_t len = 4 + defl_extend(ip + 4, ip - d0 + 4, max - 4);
		if (len > best) {
			best = len;
			bestd = d0;
		}
	}
	if (best < min_u32(P->nice, max) && d1 - 1u < lim &&
	    defl_load32(ip - d1 + best - 3) == defl_load32(ip + best - 3) &&
	    defl_load32(ip - d1) == first) {
		const uint32_t len = 4 + defl_extend(ip + 4, ip - d1 + 4, max - 4);
		if (len > best) {
			best = len;
			bestd = d1;
		}
	}
	if (!bestd)
		return 0;
	*dist = bestd;
	return best;
}

/* After 2^BUCKET_SKIP literals in a row the bucket level probes every second position, then every
 * third ...: data without matches goes by faster (the mix, with its random segments: 1.5x, for
 * 0.005 points). */
#define BUCKET_SKIP 6

static inline __attribute__((always_inline)) uint32_t tok_bucket(struct defl_lvl *L,
								 const struct defl_win *w,
								 uint32_t p, uint32_t stop,
								 const struct defl_params *P)
{
	const struct chain_ctx ctx = chain_ctx_of(L, w);
	const struct chain_ctx *const c = &ctx;
	const uint8_t *const base = w->base;
	const uint32_t hend = w->end >= 4 ? w->end - 3 : 0;
	/* Positions before hend1 have the 5 bytes that finding the next bucket reads. */
	const uint32_t hend1 = w->end >= 5 ? w->end - 4 : 0;
	uint32_t *const tok0 = L->tok;
	uint32_t *t = tok0 + L->ntok;
	uint32_t *const tcap = tok0 + (L->tok_cap - DEFL_TOK_SLACK);
	struct isal_mod_hist *const h = &L->hist;
	uint32_t miss = 0;

	if (L->ntok == 0) {
		L->min_len = min_len_scan(base + p, w->end - p, P->chain);
		L->blk_start = p + w->bias;
	}
	/* The block's bound in bytes: the block ends once it is reached. */
	const uint32_t left = P->max_block - min_u32(p + w->bias - L->blk_start, P->max_block);
	const int capped = P->max_block && stop - p >= left;
	if (capped)
		stop = p + left;
	while (p < stop) {
		uint32_t *const tchk = tok0 + L->obs_next;
		uint32_t *const tlim = tchk < tcap ? tchk : tcap;
		uint8_t *b = p < hend1 ? bucket_of(c, defl_load32(base + p)) : NULL;
		while (p < stop && t < tlim) {
			uint32_t dist = 0, len = 0;
			if (p < hend1)
				len = bucket_find(c, P, p, L->min_len - 1, b, &b, &dist);
			else if (p < hend)
				len = bucket_find(c, P, p, L->min_len - 1,
						  bucket_of(c, defl_load32(base + p)), NULL, &dist);
			if (!len) {
				/* Past 2^BUCKET_SKIP literals in a row, probe every second position,
				 * then every third ... */
				uint32_t n = 1 + (miss++ >> BUCKET_SKIP);
				n = min_u32(n, min_u32(stop - p, (uint32_t)(tlim - t)));
				const uint32_t skip = n > 1;
				while (n--)
					t = put_lit(t, h, base[p++]);
				if (skip && p < hend1)
					b = bucket_of(c, defl_load32(base + p));
				continue;
			}
			miss = 0;
			t = put_match(t, h, len, dist);
			const uint32_t mend = min_u32(p + len, hend);
			if (p + len < hend1) {
				/* The next search's bucket, fetched while the match's positions are
				 * entered. */
				b = bucket_of(c, defl_load32(base + p + len));
				__builtin_prefetch(b);
			}
			if (len <= P->ins_max)
				for (uint32_t q = p + 1; q < mend; q++)
					bucket_enter(c, q);
			p += len;
		}
		if (checkpoint(L, t, tchk, tcap, P))
			break;
	}
	if (capped && p >= stop && t > tok0)
		L->split = 1;
	L->ntok = (uint32_t)(t - tok0);
	return p;
}

/* The level's tokenizer: the buckets' where the level has them. */
static inline __attribute__((always_inline)) uint32_t tok_level(struct defl_lvl *L,
								const struct defl_win *w,
								uint32_t p, uint32_t stop,
								const struct defl_params *P)
{
	return P->ways == 2 ? tok_bucket(L, w, p, stop, P) : tok_chain(L, w, p, stop, P);
}

DEFL_LEVEL_TOK(tok_level, 4)
DEFL_LEVEL_TOK(tok_level, 5)
DEFL_LEVEL_TOK(tok_level, 6)
DEFL_LEVEL_TOK(tok_level, 7)
DEFL_LEVEL_TOK(tok_level, 8)
DEFL_LEVEL_TOK(tok_level, 9)

defl_tok_fn *defl_tok_chain(uint32_t level)
{
	static defl_tok_fn *const tab[] = { tok_level4, tok_level5, tok_level6,
					    tok_level7, tok_level8, tok_level9 };
	_Static_assert(sizeof(tab) / sizeof(tab[0]) == 6, "one per chain level (4-9)");
	return tab[level - 4];
}

void defl_chain_sweep(struct defl_lvl *L, uint32_t now)
{
	uint16_t *const head = L->hash;
	const uint32_t n = 1u << L->hash_bits;
	/* After a longer gap (a table set up mid-stream) an age may have wrapped: every head goes. */
	const uint32_t all = now - L->swept >= DEFL_WIN_SIZE - 1;
	const uint16_t beyond = (uint16_t)(now - DEFL_WIN_SIZE - 1);
	if (all) {
		for (uint32_t i = 0; i < n; i++)
			head[i] = beyond;
		L->swept = now;
		return;
	}
	/* A head is older than the window when its age less 32769, x, is not negative as a 16-bit
	 * number (an age of 0, a head 2^16 old, goes too). The head is beyond - x, so beyond -
	 * min(x, 0) is the swept head: in rows of 8, which compilers turn into a vector subtract,
	 * minimum and subtract (against a compare and select: level 5's sweeps on kennedy.xls
	 * took 4.5% of the time instead of 3.6%). */
	for (uint32_t i = 0; i < n; i += 8) {
		uint16_t *const r = head + i;
		for (uint32_t k = 0; k < 8; k++) {
			const int16_t x = (int16_t)(uint16_t)(beyond - r[k]);
			r[k] = (uint16_t)(beyond - (x < 0 ? x : 0));
		}
	}
	L->swept = now;
}

void defl_chain_insert(struct defl_lvl *L, const struct defl_win *w, uint32_t from, uint32_t to)
{
	const struct chain_ctx ctx = chain_ctx_of(L, w);
	const uint32_t hend = w->end >= 4 ? w->end - 3 : 0;
	if (L->par->ways == 2) {
		for (uint32_t q = from; q < to && q < hend; q++)
			bucket_enter(&ctx, q);
		return;
	}
	if (L->par->opt) {
		defl_bt_insert(L, w, from, to);
		return;
	}
	for (uint32_t q = from; q < to && q < hend; q++) {
		chain_sweep_due(L, q + w->bias);
		chain_enter(&ctx, q);
	}
}
