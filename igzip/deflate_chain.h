/* The hash chains of levels 4 and up (deflate_chain.c, deflate_optimal.c): the tables in
 * level_buf, entering a position, and the token writers (internal header). */
#ifndef STOA_DEFLATE_CHAIN_H
#define STOA_DEFLATE_CHAIN_H

#include "deflate_internal.h"

#pragma GCC visibility push(hidden)

#define CHAIN_MASK (DEFL_CHAIN_SLOTS - 1u)

struct chain_ctx {
	const uint8_t *base;
	uint16_t *head;
	uint16_t *prev;
	uint16_t *head3;
	uint32_t shift;
	uint32_t bias;
	uint32_t lo;
	uint32_t end;
	uint32_t maxdist;
};

/* The chain links, behind the 2^hash_bits heads (deflate_block.c's layout). */
static inline uint16_t *chain_links(const struct defl_lvl *L)
{
	return L->hash + ((size_t)1 << L->hash_bits);
}

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* A near-optimal level's match cache (after the 3-byte table). */
static inline struct defl_opt *chain_opt(const struct defl_lvl *L)
{
	return (struct defl_opt *)(void *)((uint8_t *)L->hash + ((size_t)2 << L->hash_bits) +
	                                   DEFL_CHAIN_TABLES);
}

/* The 3-byte table (its entries follow the chain links). */
static inline uint16_t *chain_head3(const struct defl_lvl *L)
{
	return chain_links(L) + DEFL_CHAIN_SLOTS;
}

static inline struct chain_ctx chain_ctx_of(const struct defl_lvl *L, const struct defl_win *w)
{
	const struct chain_ctx c = { w->base,	      L->hash, chain_links(L), chain_head3(L),
				     32 - L->hash_bits, w->bias, w->lo,	       w->end,
				     w->maxdist };
	return c;
}

/* The 3-byte hash, bits wide, of the 4 bytes v as defl_load32 reads them (little-endian: the low
 * 3 are the first three); hash3 the chain levels' width. */
static inline uint32_t hash3_bits(uint32_t v, uint32_t bits)
{
	return ((v << 8) * DEFL_HASH_MUL32) >> (32 - bits);
}

static inline uint32_t hash3(uint32_t v)
{
	return hash3_bits(v, DEFL_HASH3_BITS);
}

/* The 4-byte and 3-byte hashes of a position, found a position ahead: the table loads of a
 * search then wait for no hash (Calgary level 5: 3% faster). */
struct chain_hash {
	uint32_t h, h3;
};

static inline struct chain_hash chain_hash_of(const struct chain_ctx *c, uint32_t v)
{
	const struct chain_hash r = { (v * DEFL_HASH_MUL32) >> c->shift, hash3(v) };
	return r;
}

/* Enter position q (4 readable bytes there). */
static inline void chain_enter(const struct chain_ctx *c, uint32_t q)
{
	const struct chain_hash hs = chain_hash_of(c, defl_load32(c->base + q));
	const uint32_t now = q + c->bias;
	c->prev[now & CHAIN_MASK] = c->head[hs.h];
	c->head[hs.h] = (uint16_t)now;
	c->head3[hs.h3] = (uint16_t)now;
}

static inline uint32_t *put_match(uint32_t *t, struct isal_mod_hist *h, uint32_t len,
				  uint32_t dist)
{
	*t = DEFL_TOK_MATCH(len, 0, 0) | defl_dist_token_bits(dist);
	h->ll_hist[len + 254]++;
	h->d_hist[defl_dist_sym(dist)]++;
	return t + 1;
}

static inline uint32_t *put_lit(uint32_t *t, struct isal_mod_hist *h, uint32_t b)
{
	*t = DEFL_TOK_LIT(b);
	h->ll_hist[b]++;
	return t + 1;
}

/* A search's start at position q (4 readable bytes there), whose hashes are *hs: its bytes, the
 * longest match it may take, the farthest distance, its stream position, its first 4 bytes, and
 * the newest candidates of its 4-byte and 3-byte hashes; q is entered, and where q + 1 has 4
 * bytes, *hs becomes its hashes and its buckets are fetched ahead (its search or entry reads
 * them next). */
struct chain_probe {
	const uint8_t *ip;
	uint32_t max, lim, now, first, cand, cand3;
};

static inline __attribute__((always_inline)) struct chain_probe
chain_probe(const struct chain_ctx *c, uint32_t q, struct chain_hash *hs)
{
	struct chain_probe r;
	r.ip = c->base + q;
	r.max = min_u32(DEFL_MAX_MATCH, c->end - q);
	r.lim = min_u32(c->maxdist, q - c->lo);
	r.now = q + c->bias;
	r.first = defl_load32(r.ip);
	const uint32_t h = hs->h, h3 = hs->h3;
	r.cand = c->head[h];
	r.cand3 = c->head3[h3];
	if (q + 5 <= c->end) {
		*hs = chain_hash_of(c, defl_load32(r.ip + 1));
		__builtin_prefetch(&c->head[hs->h]);
		__builtin_prefetch(&c->head3[hs->h3]);
	}
	c->prev[r.now & CHAIN_MASK] = (uint16_t)r.cand;
	c->head[h] = (uint16_t)r.now;
	c->head3[h3] = (uint16_t)r.now;
	return r;
}

/* The chain heads hold 16-bit positions, which a head left alone for 2^16 positions would alias to
 * a near one (a fresh table's zeros do so 64 KiB into the input): the walk would then follow some
 * other chain to its full depth, all of whose candidates differ (ptt5 at level 9 took 3.8 times
 * libdeflate's steps). So every DEFL_SWEEP positions the heads older than the window are set to
 * read as just beyond it (defl_chain_sweep): an entry then never ages past twice that plus a
 * match's length between sweeps, below 2^16. The links need no sweep: one that wrapped is nearer
 * than the candidate it leaves, which ends the walk. */
#define DEFL_SWEEP 31744u

void defl_chain_sweep(struct defl_lvl *L, uint32_t now);

/* Sweeps the heads when position now is DEFL_SWEEP past the last sweep; returns how many
 * positions after now the next one is due. */
static inline uint32_t chain_sweep_due(struct defl_lvl *L, uint32_t now)
{
	if (now - L->swept >= DEFL_SWEEP)
		defl_chain_sweep(L, now);
	return L->swept + DEFL_SWEEP - now;
}

/* After 2^CHAIN_SKIP literals in a row (data the chains find nothing in) the chain levels search
 * every second position, then every third ..., at most every CHAIN_SKIP_MAX-th, and do not enter
 * the positions passed over: random bytes at levels 5-9 run 7x faster, for at most 0.01 points on
 * the perf driver's mix. Levels 10-12 pass over positions after as many without a match. */
#define CHAIN_SKIP 8
#define CHAIN_SKIP_MAX 16

/* The tokenizer fn##n: the template fn with level n's record, a constant it folds. */
#define DEFL_LEVEL_TOK(fn, n)                                                                      \
	static uint32_t fn##n(struct defl_lvl *L, const struct defl_win *w, uint32_t p,             \
	                      uint32_t stop)                                                       \
	{                                                                                          \
		return fn(L, w, p, stop, defl_params(n));                                          \
	}

#pragma GCC visibility pop

#endif
