/* Match finding for levels 1-3, which collect tokens for block-wise Huffman coding.
 *
 * Every level hashes the next 4 bytes, so the shortest match found is 4 bytes long (3-byte
 * matches rarely pay for their distance code). Level 1 keeps one candidate per hash and level 2
 * two per bucket, both greedy; level 3 adds one-step lazy evaluation (code a literal when the
 * next position has a longer match). */
#include "deflate_internal.h"

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* ---- Levels 1-3 ------------------------------------------------------------------------------ */

/* How a level searches. WAYS: candidates per hash bucket (1 or 2); CHAIN: hash chains up to
 * this many links (0: none); LAZY: one-step lazy evaluation; NICE: a match this long is taken
 * without looking further; INSERT: enter every position inside a match into the tables (else
 * only its start and end). */
struct search_params {
	int ways, chain, lazy, nice, insert;
};

/* The tables a search uses, copied out of struct defl_lvl so that token stores (uint32_t) do
 * not force them to be reloaded. */
struct search_ctx {
	uint16_t *hash;
	uint16_t *chain;
	uint32_t hash_bits;
};

static inline void insert_pos(const struct search_ctx *L, const struct search_params sp,
			      uint32_t h, uint32_t now)
{
	uint16_t *ht = L->hash;
	if (sp.chain) {
		L->chain[now & (DEFL_WIN_SIZE - 1)] = ht[h];
		ht[h] = (uint16_t)now;
	} else if (sp.ways == 2) {
		ht[2 * h + 1] = ht[2 * h];
		ht[2 * h] = (uint16_t)now;
	} else {
		ht[h] = (uint16_t)now;
	}
}

/* The longest match for position p (hashing x, its first 4 bytes) among the candidates, and
 * enter p into the tables. Returns the length (0 for none) and sets *dist. */
static inline uint32_t find_match(const struct search_ctx *L, const struct defl_win *w,
				  const struct search_params sp, uint32_t p, uint32_t *dist)
{
	const uint8_t *base = w->base;
	const uint32_t x = defl_load32(base + p);
	const uint32_t h = defl_hash4(x, L->hash_bits);
	const uint32_t now = p + w->bias;
	const uint32_t lim = min_u32(w->maxdist, p - w->lo);
	const uint32_t max = min_u32(DEFL_MAX_MATCH, w->end - p) - 4;
	uint32_t best = 0;
	uint16_t *ht = L->hash;

	if (sp.chain) {
		uint32_t cand = ht[h];
		uint32_t prev_d = 0;
		for (int i = 0; i < sp.chain; i++) {
			const uint32_t d = (uint16_t)(now - cand);
			if (d <= prev_d || d > lim)
				break;
			const uint8_t *c = base + p - d;
			/* A longer match must agree at the byte that would lengthen the best. */
			if (defl_load32(c) == x &&
			    (best < 4 || c[best] == base[p + best])) {
				const uint32_t len = 4 + defl_extend(base + p + 4, c + 4, max);
				if (len > best) {
					best = len;
					*dist = d;
					if (len >= (uint32_t)sp.nice || len == max + 4)
						break;
				}
			}
			prev_d = d;
			cand = L->chain[cand & (DEFL_WIN_SIZE - 1)];
		}
	} else {
		for (int i = 0; i < sp.ways; i++) {
			const uint32_t d = (uint16_t)(now - ht[sp.ways * h + (uint32_t)i]);
			if (d - 1 < lim && defl_load32(base + p - d) == x) {
				const uint32_t len =
					4 + defl_extend(base + p + 4, base + p - d + 4, max);
				if (len > best) {
					best = len;
					*dist = d;
				}
			}
		}
	}
	insert_pos(L, sp, h, now);
	return best;
}

static inline uint32_t tokenize(struct defl_lvl *Lv, const struct defl_win *w, uint32_t p,
				uint32_t stop, const struct search_params sp)
{
	const struct search_ctx ctx = { Lv->hash, Lv->chain, Lv->hash_bits };
	const struct search_ctx *const L = &ctx;
	const uint8_t *base = w->base;
	const uint32_t end = w->end, bias = w->bias;
	const uint32_t hend = end > 3 ? end - 3 : 0;
	const uint32_t cap = Lv->tok_cap - DEFL_TOK_SLACK;
	uint32_t *tok = Lv->tok;
	uint32_t n = Lv->ntok;

	while (p < stop && n < cap) {
		if (p >= hend) {
			tok[n++] = DEFL_TOK_LIT(base[p]);
			p++;
			continue;
		}
		uint32_t dist = 0;
		uint32_t len = find_match(L, w, sp, p, &dist);
		if (len == 0) {
			tok[n++] = DEFL_TOK_LIT(base[p]);
			p++;
			continue;
		}
		uint32_t next = p + 1; /* first position not yet in the tables */
		if (sp.lazy) {
			while (len < (uint32_t)sp.nice && p + 1 < hend && n < cap) {
				uint32_t d1 = 0;
				const uint32_t l1 = find_match(L, w, sp, p + 1, &d1);
				next = p + 2;
				if (l1 <= len)
					break;
				tok[n++] = DEFL_TOK_LIT(base[p]);
				p++;
				len = l1;
				dist = d1;
			}
		}
		tok[n++] = (len + 254) | defl_dist_token_bits(dist);
		const uint32_t mend = p + len;
		if (sp.insert) {
			const uint32_t to = min_u32(mend, hend);
			for (uint32_t q = next; q < to; q++)
				insert_pos(L, sp, defl_hash4(defl_load32(base + q), L->hash_bits),
					   q + bias);
		} else if (mend - 1 < hend && mend - 1 >= next) {
			const uint32_t q = mend - 1;
			insert_pos(L, sp, defl_hash4(defl_load32(base + q), L->hash_bits), q + bias);
		}
		p = mend;
	}
	Lv->ntok = n;
	return p;
}

static const struct search_params lvl1_params = { 1, 0, 0, 258, 0 };
static const struct search_params lvl2_params = { 2, 0, 0, 258, 0 };
static const struct search_params lvl3_params = { 2, 0, 1, 64, 0 };

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
	const struct search_ctx ctx = { Lv->hash, Lv->chain, Lv->hash_bits };
	const struct search_ctx *const L = &ctx;
	const struct search_params sp = Lv->level == 1 ? lvl1_params : lvl2_params;
	const uint32_t hend = w->end > 3 ? w->end - 3 : 0;
	for (uint32_t q = from; q < to && q < hend; q++)
		insert_pos(L, sp, defl_hash4(defl_load32(w->base + q), L->hash_bits), q + w->bias);
}
