/* Levels 10-12: a near-optimal parse over binary match trees (the approach of libdeflate's
 * levels 10-12 and of zopfli: a shortest path under a cost model, refined in passes; this is our
 * own form of it).
 *
 * The input is taken up to DEFL_OPT_CHUNK positions at a time. First every position's matches
 * are found in the match trees (bt_search below), visiting at most par->chain nodes, and cached:
 * for each length the nearest distance; a match of par->nice bytes or more skips the search at
 * the positions it covers (they are entered, and get the rest of that match).
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
 * The positions past a block's end stay cached for the next block (they are in the trees
 * already, and a search from them now would find nothing). The cache is keyed by stream
 * position, so it survives the streaming buffer's slides, and a key that does not match means a
 * fresh search. */
#include "deflate_chain.h"
#include "deflate_path.h"

/* The match trees: one binary tree per 4-byte hash (the match finder of LZMA's bt4 and of
 * libdeflate's levels 10-12; this is our own form of it). A tree holds the positions of its hash
 * ordered by the bytes that follow them. A search goes down from the newest, and the position
 * searched becomes the new root: the nodes passed split into those whose bytes sort below it (its
 * left subtree) and above it (its right). Along any path down positions get older, so a search
 * meets the candidates of each common prefix length nearest first, and a link that reads as no
 * farther than its parent, or beyond the window, ends it (16-bit positions: deflate_chain.h's
 * argument for the chain links holds for both children, with bt_child for those taken over). A
 * node's children live at its window slot: the left in the chain links' table, the right in the
 * cache's bt_right. A node whose match reaches nice is replaced by the new one, which takes its
 * children. Against the hash chains these levels walked before, each candidate compared from its
 * first byte, level 10 is 0.17 points smaller on Calgary at 1.1x the speed. */

/* The common prefix of a and b, at most max bytes: most candidates differ within their first 8,
 * which one compare finds. */
static inline uint32_t bt_common(const uint8_t *a, const uint8_t *b, uint32_t max)
{
	if (max < 8)
		return defl_extend(a, b, max);
	const uint64_t x = defl_load64(a) ^ defl_load64(b);
	if (x)
		return stoa_ctz64(x) >> 3;
	return 8 + defl_extend(a + 8, b + 8, max - 8);
}

/* A child of a replaced node, for the node `now` that takes it over: as it is if within the window,
 * else the mark of a position just beyond it, so that a node's children stay at most 32768
 * positions older than it, as a walk writes them. Passed on unchanged from root to root over
 * recurring data, a child aged past 2^16 positions, read as a near one, and a walk skipped a
 * prefix the node did not share (wrong matches: test_deflate_edges test_tree_takeovers). */
static inline uint16_t bt_child(uint16_t child, uint32_t now)
{
	return (uint16_t)(now - child) > DEFL_CHAIN_SLOTS ? (uint16_t)(now - DEFL_CHAIN_SLOTS)
	                                                  : child;
}

/* Search position q (4 readable bytes there) and make it its tree's root. With record, the matches
 * longer than all nearer ones (one per length, the nearest) go to o->m from *mi, after the newest
 * 3-byte candidate's; returns the longest length found (0: none), *far its distance. */
static inline __attribute__((always_inline)) uint32_t
bt_search(const struct chain_ctx *c, const struct defl_params *P, uint32_t q, struct defl_opt *o,
          uint32_t *mi, uint32_t cap, uint32_t *far, const int record)
{
	const uint8_t *const ip = c->base + q;
	const uint32_t max = min_u32(DEFL_MAX_MATCH, c->end - q);
	const uint32_t lim = min_u32(c->maxdist, q - c->lo);
	const uint32_t now = q + c->bias;
	const uint32_t first = defl_load32(ip);
	const uint32_t h = (first * DEFL_HASH_MUL32) >> c->shift;
	const uint32_t h3 = hash3_bits(first, DEFL_OPT_HASH3_BITS);
	uint16_t *const head3 = o->bt_head3;
	uint32_t cand = c->head[h];
	const uint32_t cand3 = head3[h3];
	c->head[h] = (uint16_t)now;
	head3[h3] = (uint16_t)now;
	if (q + 5 <= c->end) {
		const uint32_t nx = defl_load32(ip + 1);
		__builtin_prefetch(&c->head[(nx * DEFL_HASH_MUL32) >> c->shift]);
		__builtin_prefetch(&head3[hash3_bits(nx, DEFL_OPT_HASH3_BITS)]);
	}
	uint16_t *const right = o->bt_right;
	uint16_t *lt = &c->prev[now & CHAIN_MASK], *gt = &right[now & CHAIN_MASK];
	/* Bytes are compared up to nice only: past it a node's order no longer matters (it is
	 * replaced), and the one match that reaches it is extended at the end. */
	const uint32_t nice = min_u32(P->nice, max);
	uint32_t n = record ? *mi : 0, best = 0, bestd = 0, at = 0;
	const uint32_t stop_at = record ? min_u32(cap, n + OPT_PER_POS) : 0;
	if (record && max >= 3) {
		/* The newest 3-byte candidate, at its full length. */
		const uint32_t d3 = (uint16_t)(now - cand3);
		if (d3 && d3 <= lim && memcmp(ip - d3, ip, 3) == 0) {
			best = 3 + defl_extend(ip + 3, ip - d3 + 3, nice - 3);
			bestd = d3;
			at = n;
			o->m[n++] = OPT_M(best, defl_dist_sym(d3), d3);
		}
	}
	uint32_t lt_len = 0, gt_len = 0, dprev = 0, depth = P->chain;
	for (;;) {
		const uint32_t d = (uint16_t)(now - cand);
		if (d <= dprev || d > lim || !depth--)
			break;
		dprev = d;
		const uint8_t *const m = ip - d;
		/* The nodes passed on either side agree with q in their first lt_len and gt_len
		 * bytes, so every node between them does in the fewer (the order holds below
		 * P->nice bytes, which no search gets to compare past: see the cut below). */
		uint32_t len = min_u32(lt_len, gt_len);
		len += bt_common(ip + len, m + len, nice - len);
		if (len > best) {
			best = len;
			bestd = d;
			if (len >= 4 && n < stop_at) {
				at = n;
				o->m[n++] = OPT_M(len, defl_dist_sym(d), d);
			}
		}
		/* A node 32768 back shares the new node's slot, whose links the walk has begun to
		 * write: it ends the walk (and leaves the tree, as it leaves the window). */
		if (d == DEFL_CHAIN_SLOTS)
			break;
		const uint32_t slot = cand & CHAIN_MASK;
		if (len >= nice) {
			/* The new node takes this one's place and children, which are in order
			 * for it as for this one up to nice bytes. Where nice is short of
			 * P->nice (a stream's input at hand ends within it) they might not be
			 * in the bytes after, which a later search may rely on: they are cut
			 * off instead. */
			if (nice < P->nice)
				break;
			*lt = bt_child(c->prev[slot], now);
			*gt = bt_child(right[slot], now);
			goto done;
		}
		if (m[len] < ip[len]) {
			*lt = (uint16_t)cand;
			lt = &right[slot];
			cand = *lt;
			lt_len = len;
		} else {
			*gt = (uint16_t)cand;
			gt = &c->prev[slot];
			cand = *gt;
			gt_len = len;
		}
	}
	/* Out of depth or candidates: the open links end (a position just beyond the window). */
	*lt = *gt = (uint16_t)(now - DEFL_CHAIN_SLOTS);
done:
	if (record && best >= nice && nice < max) {
		best = nice + defl_extend(ip + nice, ip - bestd + nice, max - nice);
		if (n > *mi && OPT_DIST(o->m[at]) == bestd)
			o->m[at] = OPT_M(best, defl_dist_sym(bestd), bestd);
	}
	if (record)
		*mi = n;
	*far = bestd;
	return best >= 3 ? best : 0;
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
	uint32_t mi = 0, i = 0, miss = 0;
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
		const uint32_t len = bt_search(&ctx, P, q, o, &mi, cap, &dist, 1);
		i++;
		if (!len) {
			/* Past 2^CHAIN_SKIP positions in a row without a match, pass over one
			 * position, then two ... (no matches there, not entered). */
			for (uint32_t k = min_u32(miss++ >> CHAIN_SKIP, CHAIN_SKIP_MAX - 1); k && i < n;
			     k--, i++)
				o->start[i] = mi;
			continue;
		}
		miss = 0;
		if (len >= P->nice) {
			/* The positions the match covers: entered, and the rest of the match. */
			for (uint32_t k = 1; k < len && i < n && mi < cap; k++, i++) {
				o->start[i] = mi;
				uint32_t skip_d;
				if (p + i < hend)
					bt_search(&ctx, P, p + i, o, &mi, cap, &skip_d, 0);
				if (len - k >= 3)
					o->m[mi++] =
					    OPT_M(len - k, defl_dist_sym(dist), dist) | OPT_WHOLE;
			}
		}
	}
	o->start[i] = mi;
	return i;
}

static void costs_from(struct defl_opt_costs *c, const struct isal_mod_hist *h)
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

/* Costs for a block's first pass, neutral between distances: a literal costs the mean of the log
 * of the literal values in use and the log of its value's rarity, plus the log of the odds of a
 * literal, a length symbol the odds of a match and a spread over 8 symbols, a distance symbol
 * the log of 30 (its extra bits on top). The odds come from h, a greedy parse. (Costs from the
 * greedy parse itself lead the passes to its far distances: kennedy.xls 7% larger.) */
static void default_costs(struct defl_opt_costs *c, const struct isal_mod_hist *h, const uint8_t *src,
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
	const uint32_t odds = log2_units(all) - log2_units(lits + 1);
	const uint32_t lit = log2_units(used ? used : 1) + odds;
	const uint32_t len = 3 * COST_UNIT + log2_units(all) - log2_units(matches + 1);
	for (uint32_t b = 0; b < 256; b++) {
		/* Halfway between the uniform cost and the value's own rarity in the input (at
		 * most 15 bits): a rare value is dearer, but the literals a parse keeps are not
		 * the input's bytes (Calgary and Canterbury file by file: 0.03-0.04% smaller than
		 * the uniform cost). */
		const uint32_t own =
		    min_u32(log2_units(n + 1) - log2_units(cnt[b] + 1), 15 * COST_UNIT);
		c->lit[b] = (lit + own + odds) / 2 + 1;
	}
	for (uint32_t s = 0; s < 29; s++) {
		const uint32_t first = deflate_len_base[s];
		const uint32_t last = s == 28 ? 258 : (s == 27 ? 257 : deflate_len_base[s + 1] - 1u);
		for (uint32_t l = first; l <= last; l++)
			c->len[l] = len + COST_UNIT * deflate_len_extra[s] + 1;
	}
	for (uint32_t s = 0; s < 30; s++)
		c->dsym[s] = log2_units(30) + COST_UNIT * deflate_dist_extra[s];
}

/* A new block's first costs: three quarters the costs of the block before, one the defaults
 * (against halfway: Canterbury 0.02 points smaller at level 12, Calgary and the mix the same). */
static void blend_costs(struct defl_opt_costs *c, const struct isal_mod_hist *prev)
{
	struct defl_opt_costs p;
	costs_from(&p, prev);
	for (uint32_t b = 0; b < 256; b++)
		c->lit[b] = (c->lit[b] + 3 * p.lit[b]) / 4;
	for (uint32_t l = 3; l <= DEFL_MAX_MATCH; l++)
		c->len[l] = (c->len[l] + 3 * p.len[l]) / 4;
	for (uint32_t s = 0; s < 30; s++)
		c->dsym[s] = (c->dsym[s] + 3 * p.dsym[s]) / 4;
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

/* ---- where a block ends by its estimated size --------------------------------------------- */

/* log2(1 + i/64) in units of 2^-14 bit, i = 0 .. 64. */
static const uint16_t log2_frac[65] = {
	0,     366,   727,   1083,  1433,  1778,  2118,  2453,  2784,  3110,  3432,  3749,  4062,
	4371,  4676,  4977,  5274,  5568,  5858,  6145,  6428,  6707,  6984,  7257,  7527,  7794,
	8059,  8320,  8578,  8834,  9086,  9337,  9584,  9829,  10071, 10311, 10549, 10784, 11017,
	11248, 11476, 11702, 11926, 12148, 12368, 12586, 12802, 13016, 13228, 13438, 13646, 13853,
	14057, 14260, 14461, 14661, 14858, 15055, 15249, 15442, 15634, 15823, 16012, 16199, 16384,
};

/* log2(x), x >= 1, in units of 2^-14 bit, interpolated to within 0.0001 bit: integers only, so
 * that every machine makes the same choices. (defl_entropy's logs, in steps of up to 0.09 bit,
 * moved the cuts enough to make Calgary 0.03 points larger at levels 11 and 12.) */
static inline uint32_t log2_fix(uint32_t x)
{
	const uint32_t top = 31u - (uint32_t)__builtin_clz(x);
	const uint32_t m = x << (31 - top);
	const uint32_t i = (m >> 25) & 63, r = (m >> 9) & 0xffff;
	return (top << 14) + log2_frac[i] + (((log2_frac[i + 1] - log2_frac[i]) * r) >> 16);
}

/* Counts per symbol: literal/length (286) then distance (30). */
struct cut_hist {
	uint32_t c[286 + 30];
};

static void cut_from_hist(struct cut_hist *c, const struct isal_mod_hist *h)
{
	memset(c, 0, sizeof(*c));
	for (uint32_t i = 0; i < 256; i++)
		c->c[i] = h->ll_hist[i];
	for (uint32_t len = 3; len <= 258; len++)
		c->c[257 + deflate_len_index(len)] += h->ll_hist[len + 254];
	for (uint32_t i = 0; i < 30; i++)
		c->c[286 + i] = h->d_hist[i];
}

/* A block's header, estimated: a fixed part and a code length per symbol in use (Calgary's
 * dynamic headers run 60-120 bytes, about 4 bits a symbol). */
#define CUT_HDR_BITS 100u
#define CUT_SYM_BITS 4u
/* Two blocks are taken where they are estimated this many bits smaller than one: the estimate
 * ignores how far Huffman codes fall short of the entropy. */
#define CUT_MARGIN 200u
/* The fewest tokens either side of a cut (few: a run of zeros in pic is 200 tokens), and the
 * tokens between the cuts weighed in the three rounds. */
#define CUT_MIN_TOK 64u
#define CUT_STEP0 1024u
#define CUT_STEP1 64u
#define CUT_STEP2 8u

/* A block's bits with the counts a + b (sub 0) or a - b (sub 1), in 2^-14 bit: each alphabet's
 * entropy (extra bits are the same however the tokens are split) and the header estimate. */
static uint64_t cut_bits(const struct cut_hist *a, const struct cut_hist *b, int sub)
{
	uint64_t bits = 0;
	uint32_t used = 0;
	for (uint32_t lo = 0, hi = 286; lo < 286 + 30; lo = hi, hi = 286 + 30) {
		uint64_t n = 0, sum = 0;
		for (uint32_t i = lo; i < hi; i++) {
			const uint32_t c = sub ? a->c[i] - b->c[i] : a->c[i] + b->c[i];
			n += c;
			sum += c > 1 ? (uint64_t)c * log2_fix(c) : 0;
			used += c != 0;
		}
		bits += n ? n * log2_fix((uint32_t)n) - sum : 0;
	}
	return bits + ((uint64_t)(CUT_HDR_BITS + CUT_SYM_BITS * used) << 14);
}

static inline void cut_add(struct cut_hist *c, uint32_t ch, uint32_t lit)
{
	if (!ch) {
		c->c[lit]++;
		return;
	}
	c->c[257 + deflate_len_index(OPT_LEN(ch))]++;
	c->c[286 + OPT_DSYM(ch)]++;
}

/* Where the open block is best ended within the path taken over [0, end) of src, whose nt tokens
 * were just added to it: left holds the counts of the block's ntok tokens before them, whole of
 * all. The cut is the token boundary where the block up to it and the rest of the path as a
 * block of its own are estimated smallest, if by CUT_MARGIN bits against one block of both; with
 * forced (the tokens filled the block) the smallest whatever the estimate. The boundaries weighed
 * are every CUT_STEP0 tokens, then every CUT_STEP1 and CUT_STEP2 around the best so far. Returns
 * end when there is no cut, else the cut, *ktok its tokens of the path. block_end's heuristic
 * sees only how the classes of a greedy parse's tokens drift; this weighs the chosen tokens'
 * symbols, and ends blocks it misses (Calgary's pic: 4 blocks, libdeflate 12's 18). */
static uint32_t cost_cut(const struct defl_opt *o, const uint8_t *src, uint32_t end,
                         struct cut_hist *left, const struct cut_hist *whole, uint32_t ntok,
                         uint32_t nt, int forced, uint32_t *ktok)
{
	static const struct cut_hist zero;
	static const uint32_t steps[] = { CUT_STEP0, CUT_STEP1, CUT_STEP2 };
	if (!forced && ntok + nt < 2 * CUT_MIN_TOK)
		return end;
	uint64_t best = forced ? UINT64_MAX
	                       : cut_bits(whole, &zero, 0) - ((uint64_t)CUT_MARGIN << 14);
	uint32_t at = end;
	/* Each round walks from where the last one's best candidate's predecessor was (its counts
	 * kept), weighing every steps[round] tokens up to its successor. */
	struct cut_hist from = *left;
	uint32_t from_i = 0, from_k = 0, hi = nt;
	for (uint32_t round = 0; round < sizeof(steps) / sizeof(steps[0]); round++) {
		const uint32_t step = steps[round];
		uint32_t prev_i = from_i, prev_k = from_k, next_i = 0, next_k = 0;
		struct cut_hist prev = from;
		*left = from;
		int found = 0;
		for (uint32_t i = from_i, k = from_k; k <= hi && (forced || nt - k >= CUT_MIN_TOK);
		     k++) {
			if ((k % step == 0 && ntok + k >= CUT_MIN_TOK) || (forced && k == nt)) {
				const uint64_t b =
				    cut_bits(left, &zero, 0) + cut_bits(whole, left, 1);
				if (b < best) {
					best = b;
					at = i;
					*ktok = k;
					found = 1;
					from = prev;
					next_i = prev_i;
					next_k = prev_k;
				}
				prev = *left;
				prev_i = i;
				prev_k = k;
			}
			if (k == nt)
				break;
			const uint32_t ch = o->choice[i];
			cut_add(left, ch, src[i]);
			i += ch ? OPT_LEN(ch) : 1;
		}
		if (!found)
			break;
		from_i = next_i;
		from_k = next_k;
		hi = min_u32(*ktok + step, nt);
	}
	return at;
}

/* Tokens for the chosen path from position *at (a choice: 0 a literal, else a match) into t,
 * counted in h, until position end or t reaches tend; *at ends where they stopped. */
static inline uint32_t *put_path(const struct defl_opt *o, const uint8_t *src, uint32_t *at,
                                 uint32_t end, uint32_t *t, const uint32_t *tend,
                                 struct isal_mod_hist *h)
{
	uint32_t i = *at;
	while (i < end && t < tend) {
		const uint32_t ch = o->choice[i];
		if (!ch) {
			t = put_lit(t, h, src[i++]);
			continue;
		}
		t = put_match(t, h, OPT_LEN(ch), OPT_DIST(ch));
		i += OPT_LEN(ch);
	}
	*at = i;
	return t;
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
		o->blk_in = 0;
	}
	while (p < stop) {
		const uint32_t room = L->tok_cap - DEFL_TOK_SLACK - L->ntok;
		if (room < 64 && L->ntok) {
			/* Too little room for a chunk worth parsing: the block ends. */
			L->split = 1;
			break;
		}
		if (o->carry) {
			/* The path past the last block's cut starts this block as it was chosen:
			 * parsing it again under this block's costs was no smaller, and 9% slower
			 * on the mix. */
			const uint32_t k = o->carry;
			o->carry = 0;
			if (!L->ntok && o->abs == p + w->bias && k <= o->n && k <= stop - p) {
				/* (The cut carried no more than a block's tokens: at reaches k.) */
				uint32_t at = 0;
				const uint32_t *const t =
				    put_path(o, base + p, &at, k, L->tok, L->tok + room, &L->hist);
				L->ntok = (uint32_t)(t - L->tok);
				cache_advance(o, at);
				p += at;
				o->blk_in += at;
				continue;
			}
		}
		uint32_t n = min_u32(stop - p, DEFL_OPT_CHUNK);
		if (room < n && !L->ntok) {
			n = room;
		} else if (room < n) {
			/* The tokens may run out within the chunk: a quarter more positions than
			 * the room covers at the block's bytes per token so far are parsed, and
			 * the block ends in the path where it is best ended short of the room
			 * (cost_cut). Parsing only as many positions as there was room for tokens
			 * took ever shorter chunks, each a path forced to end at its last
			 * position. */
			const uint64_t cover = (uint64_t)room * o->blk_in / L->ntok;
			n = (uint32_t)min_u32(n, (uint32_t)min_u32(cover + cover / 4 + 64, n));
		}
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
			struct defl_opt_costs c;
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
				defl_path(o, src, e, &c);
				if (pass + 1 < P->opt) {
					if (have_stats)
						h = L->hist;
					else
						memset(&h, 0, sizeof(h));
					path_hist(o, src, e, &h);
				}
			}
			/* The tokens, as many as there is room for; then the block may end within
			 * them. */
			struct cut_hist left, whole;
			cut_from_hist(&left, &L->hist);
			const uint32_t ntok = L->ntok;
			uint32_t i = 0;
			const uint32_t *const t = put_path(o, src, &i, e, L->tok + ntok,
			                                   L->tok + ntok + room, &L->hist);
			const uint32_t nt = (uint32_t)(t - L->tok) - ntok;
			const int full = i < e;
			cut_from_hist(&whole, &L->hist);
			uint32_t ktok = nt;
			const uint32_t cut =
			    cost_cut(o, src, i, &left, &whole, ntok, nt, full, &ktok);
			if (cut < i) {
				/* The tokens past the cut leave the block. */
				for (uint32_t j = cut; j < i;) {
					const uint32_t ch = o->choice[j];
					if (!ch) {
						L->hist.ll_hist[src[j++]]--;
						continue;
					}
					L->hist.ll_hist[OPT_LEN(ch) + 254]--;
					L->hist.d_hist[OPT_DSYM(ch)]--;
					j += OPT_LEN(ch);
				}
			}
			L->ntok = ntok + ktok;
			o->prev = L->hist;
			o->has_prev = 1;
			if (cut < e) {
				/* The rest of the path, up to what a block holds, opens the next
				 * block. */
				const uint32_t most = L->tok_cap - DEFL_TOK_SLACK - 64;
				uint32_t to = cut;
				for (uint32_t k = 0; to < e && k < most; k++)
					to += o->choice[to] ? OPT_LEN(o->choice[to]) : 1;
				memmove(o->choice, o->choice + cut,
				        (to - cut) * sizeof(o->choice[0]));
				o->carry = to - cut;
			}
			cache_advance(o, cut);
			p += cut;
			o->blk_in += cut;
			if (cut < e) {
				L->split = 1;
				break;
			}
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

void defl_path_portable(struct defl_opt *o, const uint8_t *src, uint32_t n,
                        const struct defl_opt_costs *c)
{
	path_walk(o, src, n, c);
}

void defl_bt_insert(struct defl_lvl *L, const struct defl_win *w, uint32_t from, uint32_t to)
{
	const struct chain_ctx ctx = chain_ctx_of(L, w);
	struct defl_opt *const o = chain_opt(L);
	const uint32_t hend = w->end >= 4 ? w->end - 3 : 0;
	uint32_t mi = 0, d;
	for (uint32_t q = from; q < to && q < hend; q++) {
		chain_sweep_due(L, q + w->bias);
		bt_search(&ctx, L->par, q, o, &mi, 0, &d, 0);
	}
}
