/* Match finding for levels 1-3, which collect tokens for block-wise Huffman coding.
 *
 * Every level looks for matches of 4 bytes or more (3-byte matches rarely pay for their
 * distance code). The levels (one candidate per hash bucket) differ
 * in their tables' sizes and in which positions inside a match are entered into the table; level
 * 3 adds one-step lazy evaluation (code a literal when the next position has a longer match).
 * Levels 1-2 run level 0's loop (deflate_lvl0.c), with tokens for bits; they hash more than 4
 * bytes (hash_at), level 2 fewer than level 1 in a larger table; on inputs of a few KiB level 2
 * hashes 4 bytes and lets a short match give way to a longer one at the next position.
 *
 * The tokenizer counts each token into the block's histogram as it stores it, and classifies it
 * for block splitting (deflate_internal.h), so the block writer needs no further pass over the
 * tokens before it builds the codes.
 *
 * The main loop runs while 8 input bytes are left past the position, so it loads 8 bytes at a
 * time without bounds checks; the last few bytes of the input are coded as literals.
 *
 * A template, included once per build of the tokenizers of levels 1-2:
 *   DEFL_MATCH_SUFFIX  the variant's token: defines defl_tok_lvl1_<suffix>, defl_tok_lvl2_<suffix>
 *   DEFL_EXTEND_FROM8  optional: the variant's match extension (defl_extend_from8's contract)
 *   DEFL_SAME_MAX, DEFL_PREFIX_MAX  optional: the variant's defl_same_max, defl_prefix_max
 * (deflate_match.c: portable, with level 3 and the dictionary insert; x86/deflate_match_avx2.c:
 * the same code with BMI1/BMI2 available and a vector match extension). The helpers it defines are static, for the file that
 * includes it.
 */
#include "deflate_internal.h"

#ifndef DEFL_MATCH_SUFFIX
#error "define DEFL_MATCH_SUFFIX before including deflate_match_tpl.h"
#endif
#ifndef DEFL_EXTEND_FROM8
#define DEFL_EXTEND_FROM8 defl_extend_from8
#endif
#ifndef DEFL_SAME_MAX
#define DEFL_SAME_MAX defl_same_max
#endif
#ifndef DEFL_PREFIX_MAX
#define DEFL_PREFIX_MAX defl_prefix_max
#endif
#define DEFL_MATCH_CAT2(a, b) a##_##b
#define DEFL_MATCH_CAT(a, b)  DEFL_MATCH_CAT2(a, b)
#define DEFL_MATCH_FN(name)   DEFL_MATCH_CAT(name, DEFL_MATCH_SUFFIX)

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static inline size_t min_sz(size_t a, size_t b)
{
	return a < b ? a : b;
}

static inline ptrdiff_t min_pd(ptrdiff_t a, ptrdiff_t b)
{
	return a < b ? a : b;
}

/* What the search reads, in locals so that token and count stores do not force reloads. */
struct search_ctx {
	const uint8_t *base;
	uint16_t *hash;
	uint32_t shift; /* 32 - log2(buckets) */
	uint32_t bias;
	uint32_t lo;
	uint32_t maxdist;
	uint32_t end;
	uint32_t hkeep;      /* the hash's bits (hash_at) */
	uint32_t skip_after; /* defl_lvl.skip_after */
};

/* The hash of the 8 bytes x at a position keeping their low HKEEP bits, a multiplicative
 * hash's top bits. Level 1 hashes more than the 4 bytes every match must share (46 bits, two bits
 * of the sixth byte): with one candidate per bucket, the bucket then keeps the last position that
 * shares 5 or 6 bytes rather than 4, whose match is more often long, and the parse finds fewer,
 * longer matches in fewer rounds (Calgary, stateless: 38.31% of the input against 37.85%, 5-6%
 * faster). Level 2 hashes 5 bytes (40 bits) in 2^14 buckets, without GIVE: smaller and faster
 * than 4 bytes with GIVE (Calgary 36.69% of the input against 36.95%); with 6 it found almost no
 * match shorter than 6. (x shifted by 64 - HKEEP then times K is x times K shifted: one
 * multiply.) */
#define DEFL_HASH64(x, hkeep, shift)                                                               \
	((uint32_t)(((uint64_t)(x) * (DEFL_HASH_MUL64 << (64 - (hkeep)))) >> 32) >> (shift))

/* Bytes a position needs for its hash. */
static inline uint32_t hash_need(const struct search_ctx *c)
{
	return c->hkeep > DEFL_HKEEP_4B ? 8 : 4;
}

/* The bucket of position q (hash_need(c) readable bytes there): HKEEP 32 is the hash of 4
 * bytes, level 3's and that of levels 1-2 for a small input (deflate.c's lvl_setup). */
static inline uint32_t hash_at(const struct search_ctx *c, uint32_t q)
{
	if (c->hkeep > DEFL_HKEEP_4B)
		return DEFL_HASH64(defl_load64(c->base + q), c->hkeep, c->shift);
	return (defl_load32(c->base + q) * DEFL_HASH_MUL32) >> c->shift;
}

static inline void enter(const struct search_ctx *c, uint32_t q)
{
	c->hash[hash_at(c, q)] = (uint16_t)(q + c->bias);
}

/* The hash a level's table holds. */
static inline uint32_t table_hkeep(const struct defl_lvl *Lv, const struct defl_params *P)
{
	return Lv->hash_keep ? Lv->hash_keep : P->hkeep;
}

/* Length of a match at distance d of position p whose first 4 bytes agree; p has 8 readable
 * bytes and max = min(258, end - p) >= 8. */
static inline __attribute__((always_inline)) uint32_t match_len(const uint8_t *p, const uint8_t *c, uint32_t max)
{
	const uint64_t x = defl_load64(p) ^ defl_load64(c);
	if (x)
		return stoa_ctz64(x) >> 3;
	return 8 + defl_extend(p + 8, c + 8, max - 8);
}

/* The match at p (8 readable bytes there) with the bucket's one candidate; enters p.
 * Returns its length (0: none) and sets *dist. */
static inline __attribute__((always_inline)) uint32_t search(const struct search_ctx *c,
							      uint32_t p, uint32_t *dist)
{
	const uint8_t *const base = c->base;
	const uint32_t x = defl_load32(base + p);
	const uint32_t h = hash_at(c, p);
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

/* The match token for len, dist without a branch (defl_dist_sym's test for the four shortest
 * distances mispredicts often). With d = dist - 1, g = floor(log2(d | 2)) - 1 and top = d >> g
 * (2 or 3 for d >= 2, d itself for d < 2), the symbol is 2 g + top and the extra bits are d's
 * g low bits, d - (top << g): no case for the short distances. */
static inline __attribute__((always_inline)) uint32_t match_token(uint32_t len, uint32_t dist)
{
	const uint32_t d = dist - 1;
	const uint32_t g = (31u ^ stoa_clz32(d | 2)) - 1;
	const uint32_t top = d >> g;
	return (len + 254) + ((2 * g + top) << 10) + ((d - (top << g)) << 15);
}

/* The greedy one-candidate parse, two positions a round: both candidates are looked up and
 * compared before the branches that separate literal pairs from matches.
 * Runs while p < pend (8 readable bytes at p + 1) and t < tlim. FULL: every p is at least
 * maxdist past lo, so only the window size limits a distance. */

struct pair_state {
	uint32_t p;
	uint32_t miss; /* rounds of two literals in a row */
	uint32_t *t;
	struct isal_mod_hist *hist;
};

/* The length of a match at ip, distance d, whose first 8 bytes differ from the data as y says. */
static inline __attribute__((always_inline)) uint32_t pair_len(const uint8_t *ip,
							      const uint8_t *iend, uint32_t d,
							      uint64_t y)
{
	if (y)
		return stoa_ctz64(y) >> 3;
	const uint32_t max = min_u32(DEFL_MAX_MATCH, (uint32_t)(iend - ip));
	return 8 + defl_extend(ip + 8, ip - d + 8, max - 8);
}

/* Level 3's pair loop (with LAZY and ENTER3 set; below for levels 1-2) with its working values in
 * locals: a moving input pointer ip and now, ip's stream position (mod 2^32). Each instantiation
 * is a function of its own (below), so that the compiler allocates registers for it alone. */
static inline __attribute__((always_inline)) void pairs_body(const struct search_ctx *c,
								struct pair_state *ps, uint32_t pend,
								uint32_t *const tlim, const int full,
								const uint32_t hbits, const int lazy,
								const int enter3)
{
	const uint8_t *const base = c->base;
	uint16_t *const ht = c->hash;
	const uint32_t shift = hbits ? 32 - hbits : c->shift;
	const uint32_t dmask = c->maxdist - 1;
	/* (One base register for both histograms.) */
	struct isal_mod_hist *const hist = ps->hist;
	uint32_t *t = ps->t;
	/* The next round's bytes and hashes are computed before this round's branch, so a
	 * mispredicted branch does not also wait for them: loads reach byte p + 11 (the 4 bytes
	 * at the guessed next start, up to p + 8), so p + 12 <= end. */
	if (c->end < 12)
		return;
	if (pend > c->end - 11)
		pend = c->end - 11;
	const uint8_t *ip = base + ps->p;
	const uint8_t *const ipend = base + pend;
	const uint8_t *const iend = base + c->end;
	const uint8_t *const ilo = base + c->lo;
	uint32_t now = ps->p + c->bias;
	const uint32_t skip_after = c->skip_after;
	uint64_t x = 0;
	uint32_t h0 = 0, h1 = 0, miss = ps->miss;
	if (ip < ipend) {
		x = defl_load64(ip);
		h0 = ((uint32_t)x * DEFL_HASH_MUL32) >> shift;
		h1 = (defl_load32(ip + 1) * DEFL_HASH_MUL32) >> shift;
	}
	while (ip < ipend && t < tlim) {
		uint32_t d0, d1;
		uint64_t y0, y1;
		const uint64_t x1 = defl_load64(ip + 1);
		if (full) {
			/* The distance modulo the (power of two) window, 1..maxdist: it may name
			 * a position the table never held, whose bytes then simply differ. */
			d0 = ((now - 1 - ht[h0]) & dmask) + 1;
			d1 = ((now - ht[h1]) & dmask) + 1;
			ht[h0] = (uint16_t)now;
			ht[h1] = (uint16_t)(now + 1);
			y0 = defl_load64(ip - d0) ^ x;
			y1 = defl_load64(ip + 1 - d1) ^ x1;
		} else {
			/* Before the window is full, p - lo < maxdist bounds the distances. */
			d0 = (uint16_t)(now - ht[h0]);
			ht[h0] = (uint16_t)now;
			d1 = (uint16_t)(now + 1 - ht[h1]);
			ht[h1] = (uint16_t)(now + 1);
			const uint32_t lim0 = (uint32_t)(ip - ilo);
			/* Out of range: distance 0, which compares the position with itself;
			 * the low bit then marks it as no match. */
			d0 &= 0u - (uint32_t)(d0 - 1 < lim0);
			d1 &= 0u - (uint32_t)(d1 - 1 < lim0 + 1);
			y0 = (defl_load64(ip - d0) ^ x) | (uint64_t)(d0 == 0);
			y1 = (defl_load64(ip + 1 - d1) ^ x1) | (uint64_t)(d1 == 0);
		}
		/* Where the next round starts if this one finds a match (its length guessed from
		 * the first 8 bytes): its table entry is fetched now, while the branch below is
		 * still unresolved, so that after a mispredicted branch the next lookup does not
		 * wait for the table's cache line too. (Loads reach p + 11.) Measured to pay at
		 * levels 2-3 (when level 2 had this loop). */
		if (enter3) {
			const uint32_t g0 = stoa_ctz64(y0 | 1ull << 63) >> 3;
			const uint32_t g1 = 1 + (stoa_ctz64(y1 | 1ull << 63) >> 3);
			const uint8_t *const ipm = ip + ((uint32_t)y0 ? g1 : g0);
			__builtin_prefetch(ht + ((defl_load32(ipm) * DEFL_HASH_MUL32) >> shift));
		}
		const uint64_t xn = defl_load64(ip + 2);
		const uint32_t x1n = defl_load32(ip + 3);
		const uint32_t b0 = (uint8_t)x;
		if ((uint32_t)y0 && (uint32_t)y1) {
			const uint32_t b1 = (uint8_t)x1;
			/* Both tokens in one store: t[0] at the lower address. */
			const uint64_t lit0 = DEFL_TOK_LIT(b0), lit1 = DEFL_TOK_LIT(b1);
			const uint64_t two = STOA_BIG_ENDIAN ? lit0 << 32 | lit1 : lit1 << 32 | lit0;
			memcpy(t, &two, 8);
			t += 2;
			hist->ll_hist[b0]++;
			hist->ll_hist[b1]++;
			ip += 2;
			now += 2;
			x = xn;
			h0 = ((uint32_t)xn * DEFL_HASH_MUL32) >> shift;
			h1 = (x1n * DEFL_HASH_MUL32) >> shift;
			if (++miss > skip_after) {
				/* A long run of literals (incompressible data): code the next bytes
				 * as literals without looking them up, more the longer the run. */
				uint32_t k = min_u32((miss - skip_after) >> 1, 512);
				/* (The pair may have taken t one past tlim.) */
				const uint32_t room = t < tlim ? (uint32_t)(tlim - t) : 0;
				const uint32_t left = ip < ipend ? (uint32_t)(ipend - ip) : 0;
				k = min_u32(k, min_u32(left, room));
				for (uint32_t i = 0; i < k; i++) {
					const uint32_t b = ip[i];
					t[i] = DEFL_TOK_LIT(b);
					hist->ll_hist[b]++;
				}
				t += k;
				ip += k;
				now += k;
				if (k && ip < ipend) {
					x = defl_load64(ip);
					h0 = ((uint32_t)x * DEFL_HASH_MUL32) >> shift;
					h1 = (defl_load32(ip + 1) * DEFL_HASH_MUL32) >> shift;
				}
			}
			continue;
		}
		miss = 0;
		uint32_t len, dist;
		if (lazy && !(uint32_t)y0 && !(uint32_t)y1) {
			/* Matches at both positions: the one at p + 1 wins when it is longer
			 * (one-step lazy evaluation). */
			const uint32_t l0 = pair_len(ip, iend, d0, y0);
			const uint32_t l1 = pair_len(ip + 1, iend, d1, y1);
			const uint32_t sel = l1 > l0;
			*t = DEFL_TOK_LIT(b0);
			t += sel;
			hist->ll_hist[b0] += sel;
			ip += sel;
			now += sel;
			len = sel ? l1 : l0;
			dist = sel ? d1 : d0;
		} else {
			/* The match is at p, or at p + 1 after a literal: selected without a
			 * branch (the literal token is stored either way and counted only when
			 * it stays). */
			const uint32_t sel = (uint32_t)y0 != 0;
			*t = DEFL_TOK_LIT(b0);
			t += sel;
			hist->ll_hist[b0] += sel;
			ip += sel;
			now += sel;
			dist = sel ? d1 : d0;
			len = pair_len(ip, iend, dist, sel ? y1 : y0);
		}
		const uint32_t tok = match_token(len, dist);
		*t++ = tok;
		hist->ll_hist[len + 254]++;
		hist->d_hist[DEFL_TOK_DSYM(tok)]++;
		ip += len;
		now += len;
		/* The match's last position keeps runs of matches chained. */
		if (enter3 && ip + 7 <= iend) {
			/* ENTER3 also enters the match's second and third last positions. */
			const uint64_t z = defl_load64(ip - 3);
			ht[((uint32_t)z * DEFL_HASH_MUL32) >> shift] = (uint16_t)(now - 3);
			ht[((uint32_t)(z >> 8) * DEFL_HASH_MUL32) >> shift] = (uint16_t)(now - 2);
			ht[((uint32_t)(z >> 16) * DEFL_HASH_MUL32) >> shift] = (uint16_t)(now - 1);
		} else if (ip + 3 <= iend)
			ht[(defl_load32(ip - 1) * DEFL_HASH_MUL32) >> shift] = (uint16_t)(now - 1);
		if (ip < ipend) {
			x = defl_load64(ip);
			h0 = ((uint32_t)x * DEFL_HASH_MUL32) >> shift;
			h1 = (defl_load32(ip + 1) * DEFL_HASH_MUL32) >> shift;
		}
	}
	ps->p = (uint32_t)(ip - base);
	ps->t = t;
	ps->miss = miss;
}

/* Literal tokens for the k bytes at ip, counted. The counts bound it: one increment in memory a
 * byte. They are taken 16 at a time in straight-line code with each byte loaded from the input,
 * then the tokens (the bytes widened to 32 bits) stored by a loop of constant count, which
 * compilers turn into vector widening moves (random data, level 1 on Zen 3: 1.2-1.4x the
 * speed of a counting loop over a copy of the bytes on the stack). */
static __attribute__((noinline)) void lit_run(uint32_t *t, uint32_t *ll_hist, const uint8_t *ip,
                                              uint32_t k)
{
	uint32_t j = 0;
	for (; j + 16 <= k; j += 16) {
		const uint8_t *const q = ip + j;
#pragma GCC unroll 16
		for (uint32_t i = 0; i < 16; i++)
			ll_hist[q[i]]++;
		uint8_t v[16];
		uint32_t *const tj = t + j;
		memcpy(v, q, 16);
		for (uint32_t i = 0; i < 16; i++)
			tj[i] = DEFL_TOK_LIT(v[i]);
	}
	for (; j < k; j++) {
		const uint32_t b = ip[j];
		t[j] = DEFL_TOK_LIT(b);
		ll_hist[b]++;
	}
}

/* Literal runs at least this long are coded by lit_run, outside the stretch. */
#define DEFL_BULK_MIN 64u
#define DEFL_BULK_RUN (1u << 31)

/* A match of 258 bytes at ip, distance -nd, and the matches of 258 that continue it while ip
 * stays more than 258 bytes before lim and 2 * 258 before endm8 and t below tlim, then the
 * run's last, shorter match: their tokens from t0, counted (the 258s, all one token, at once).
 * Returns the position after them and the tokens' end. Each next 258 bytes are tested whole
 * (DEFL_SAME_MAX: one branch where the extension takes one per 16 or 32 bytes) and the last
 * match's length found without a loop (DEFL_PREFIX_MAX). A function of its own, called
 * between stretches (stretch1 stops at such a match), with its state in registers. */
struct tok_runs {
	const uint8_t *ip;
	uint32_t *t;
};
static __attribute__((noinline)) struct tok_runs tok_run(uint32_t *const t0,
                                                         struct isal_mod_hist *hist,
                                                         const uint8_t *ip, int64_t nd,
                                                         const uint8_t *lim,
                                                         const uint32_t *tlim,
                                                         const uint8_t *endm8)
{
	uint32_t *t = t0;
	uint32_t len = DEFL_MAX_MATCH;
	const uint32_t tok = match_token(DEFL_MAX_MATCH, (uint32_t)-nd);
	while (lim - ip > (ptrdiff_t)DEFL_MAX_MATCH && t < tlim &&
	       endm8 - ip >= (ptrdiff_t)(2 * DEFL_MAX_MATCH)) {
		const uint8_t *const np = ip + DEFL_MAX_MATCH;
		if (!DEFL_SAME_MAX(np, np + nd)) {
			/* The run's last match, shorter: 8 to 257 bytes (shorter ones go the
			 * usual way, looked up). */
			const uint32_t tail = DEFL_PREFIX_MAX(np, np + nd);
			if (tail >= 8) {
				*t++ = tok;
				ip = np;
				len = tail;
			}
			break;
		}
		*t++ = tok;
		ip = np;
	}
	const uint32_t k = (uint32_t)(t - t0);
	hist->ll_hist[DEFL_MAX_MATCH + 254] += k;
	hist->d_hist[DEFL_TOK_DSYM(tok)] += k;
	const uint32_t last = match_token(len, (uint32_t)-nd);
	*t++ = last;
	hist->ll_hist[len + 254]++;
	hist->d_hist[DEFL_TOK_DSYM(last)]++;
	return (struct tok_runs){ ip + len, t };
}

/* Levels 1-2's loop (below) in stretches whose bounds are checked once. */
struct run1 {
	const uint8_t *ip;
	uint32_t *t;
	uintptr_t mend; /* where the last match ended (or literals began) */
	uint32_t bulk;  /* literals to code at ip without looking them up (lit_run), or with
	                 * DEFL_BULK_RUN, the distance of a match of 258 at ip (tok_run) */
	/* carry: a stretch of ONE round left the pair at ip probed (entered, and its entries as
	 * they were before in pv0, pv1): the next stretch goes on with them, as one loop would. */
	uint32_t pv0, pv1, carry;
};


/* The pair loop of levels 1-2 (which differ in their tables' sizes), the parse of level 0's loop
 * (deflate_lvl0.c) with tokens and counts for bits: positions in pairs (ip, ip + 1), a match at
 * ip, else a match at ip + 1 after a literal, else two literals. Besides its start a match
 * enters the pair after it (ip + 2, ip + 3) and its last position, which chains runs of matches
 * (long runs of one byte keep distance 1).
 *
 * As level 0's loop it is software pipelined (the next pair's table entries are read and
 * replaced before this pair's branch), keeps distances negated (nd = -distance, 64-bit), takes
 * the bytes after a match of 4 to 15 bytes from the loads at its start (not from a load that
 * waits for its length), and runs in stretches of at most lim - ip bytes, where lim is 32 bytes
 * before the window's end: matches stop 8 bytes before it and their first 24 bytes load without
 * a check. A stretch codes at most one token per byte it consumes (two literals: 2 tokens for 2
 * bytes; a match: 1 for 4 or more; a literal and a match: 2 for 5 or more), so lim is also at
 * most the tokens left before tlim (one more, from a last pair of literals, is in the slack).
 *
 * With WMASK (a power of two, the window) the distances are wrapped into 1 .. WMASK instead of
 * checked: a stale or aliased entry then names some position inside the window, which counts
 * only when its bytes match. EARLY: positions less than maxd past lowp, whose candidates must
 * also not reach before lowp. HKEEP: the hash's bits (hash_at). GIVE: a match of 4 to 7 bytes at
 * ip gives way to one of 8 or more at ip + 1. SKIP_AFTER: defl_lvl.skip_after. FRESH (with
 * WMASK 32 KiB): the first window of a fresh one, whose distances are wrapped once the stretch's
 * first pair is checked (defl_fresh_cand; returns 0 without coding anything when that pair needs
 * the checked loop). ONE: a single round (the caller's step past such a pair). */
static inline __attribute__((always_inline)) int
stretch1(struct run1 *r, uint16_t *const ht, struct isal_mod_hist *const hist, const uint8_t *lim,
         uint32_t *const tlim, const uint8_t *const endm8, const uint8_t *const lowp,
         const uint32_t off, uint32_t maxd, const uint32_t shift, const uint64_t wmask,
         const int early, const uint32_t hkeep, const int give, const uint32_t skip_after,
         const int fresh, const int one)
{
	const uint8_t *ip = r->ip;
	uint32_t *t = r->t;
	uintptr_t mend = r->mend;
	uint32_t bulk = 0;
	/* One bound checked after every round: lim, or earlier where a run of literals since
	 * the last match grows long (skip_run bytes: SKIP_AFTER + 1 rounds), which then codes
	 * literals without looking them up. */
	const size_t skip_run = 2 * (size_t)skip_after + 2;
	const size_t run = (size_t)((uintptr_t)ip - mend);
	const ptrdiff_t until = run < skip_run ? (ptrdiff_t)(skip_run - run) : 2;
	/* hlim: where lim or tlim stops the stretch, as seen from an earlier position. A round
	 * codes no more tokens than the bytes it consumes, so tlim - t shrinks no faster than ip
	 * advances, and a bound from an earlier ip never lies past the one from the current ip:
	 * below hlim neither lim nor tlim is reached. It is computed again only where ip reaches
	 * it, not after every match. */
	const uint8_t *hlim = ip + min_pd(lim - ip, tlim - t);
	const uint8_t *slim = ip + min_pd(hlim - ip, until);
	/* The pair's candidates: with WMASK already as negated distances (64-bit, computed as soon
	 * as the entries arrive), else the entries. */
	uint64_t v0, v1;
#define H1(x)                                                                                      \
	(hkeep > DEFL_HKEEP_4B ? DEFL_HASH64(x, hkeep, shift) : ((uint32_t)(x)*DEFL_HASH_MUL32) >> shift)
#define CAND(v, q) (wmask ? (((uint64_t)(v) - (uint32_t)(q)) | (0 - wmask)) : (uint64_t)(v))
/* The candidates of the pair at ip, which enters it. */
#define PROBE_PAIR()                                                                               \
	do {                                                                                       \
		const uint64_t px_ = defl_load64(ip);                                              \
		const uint32_t ph0_ = H1(px_), ph1_ = H1(px_ >> 8);                                \
		const uint32_t pq_ = (uint32_t)(uintptr_t)ip + off;                                \
		v0 = CAND(ht[ph0_], pq_);                                                          \
		v1 = CAND(ht[ph1_], pq_ + 1);                                                      \
		ht[ph0_] = (uint16_t)pq_;                                                          \
		ht[ph1_] = (uint16_t)(pq_ + 1);                                                    \
	} while (0)
	if (r->carry) {
		const uint32_t pq = (uint32_t)(uintptr_t)ip + off;
		v0 = CAND(r->pv0, pq);
		v1 = CAND(r->pv1, pq + 1);
		r->carry = 0;
	} else if (fresh) {
		const uint64_t px = defl_load64(ip);
		const uint32_t ph0 = H1(px), ph1 = H1(px >> 8);
		const uint32_t pq = (uint32_t)(uintptr_t)ip + off;
		uint32_t e0 = ht[ph0], e1 = ht[ph1];
		if (!defl_fresh_pair(ip, lowp, pq, &e0, &e1))
			return 0;
		v0 = CAND(e0, pq);
		v1 = CAND(e1, pq + 1);
		ht[ph0] = (uint16_t)pq;
		ht[ph1] = (uint16_t)(pq + 1);
	} else {
		PROBE_PAIR();
	}
	for (;;) {
		uint64_t diff, xm; /* xm: the 8 bytes at the match's start */
		int64_t nd;        /* minus the distance */
		const uint32_t pos = (uint32_t)(uintptr_t)ip + off;
		const uint64_t x0 = defl_load64(ip);
		const uint64_t x1 = defl_load64(ip + 1);
		{
			const uint64_t x2 = defl_load64(ip + 2);
			const uint32_t h2 = H1(x2), h3 = H1(x2 >> 8);
			const uint64_t v2 = CAND(ht[h2], pos + 2), v3 = CAND(ht[h3], pos + 3);
			ht[h2] = (uint16_t)(pos + 2);
			ht[h3] = (uint16_t)(pos + 3);
			uint32_t ok0 = 1, ok1 = 1;
			int64_t nd0, nd1;
			if (wmask) {
				/* -(((pos - 1 - v) & (wmask - 1)) + 1) */
				nd0 = (int64_t)v0;
				nd1 = (int64_t)v1;
			} else {
				const uint32_t d0 = (uint16_t)(pos - (uint32_t)v0);
				const uint32_t d1 = (uint16_t)(pos + 1 - (uint32_t)v1);
				uint32_t lim0 = maxd, lim1 = maxd;
				if (early) {
					/* (A stretch stays less than maxd past lowp.) */
					lim0 = (uint32_t)(ip - lowp);
					lim1 = lim0 + 1;
				}
				ok0 = d0 - 1 < lim0;
				ok1 = d1 - 1 < lim1;
				nd0 = ok0 ? -(int64_t)d0 : 0;
				nd1 = ok1 ? -(int64_t)d1 : 0;
			}
			if (fresh)
				defl_fresh_check(nd0, nd1, (size_t)(ip - lowp));
			const uint64_t diff0 = x0 ^ defl_load64(ip + nd0);
			const uint64_t diff1 = x1 ^ defl_load64(ip + 1 + nd1);
			if (__builtin_expect(ok0 & ((uint32_t)diff0 == 0), 0)) {
				diff = diff0;
				nd = nd0;
				xm = x0;
				if (give &&
				    __builtin_expect(diff0 != 0 && (ok1 & (diff1 == 0)), 0)) {
					/* GIVE: a match of 4 to 7 bytes gives way to one of 8 or
					 * more at ip + 1. */
					const uint32_t b0 = (uint8_t)x0;
					*t++ = DEFL_TOK_LIT(b0);
					hist->ll_hist[b0]++;
					ip++;
					diff = 0;
					nd = nd1;
					xm = x1;
				}
			} else if (__builtin_expect(ok1 & ((uint32_t)diff1 == 0), 0)) {
				const uint32_t b0 = (uint8_t)x0;
				*t++ = DEFL_TOK_LIT(b0);
				hist->ll_hist[b0]++;
				ip++;
				diff = diff1;
				nd = nd1;
				xm = x1;
			} else {
				const uint32_t b0 = (uint8_t)x0, b1 = (uint8_t)x1;
				t[0] = DEFL_TOK_LIT(b0);
				t[1] = DEFL_TOK_LIT(b1);
				t += 2;
				hist->ll_hist[b0]++;
				hist->ll_hist[b1]++;
				ip += 2;
				v0 = v2;
				v1 = v3;
				if (__builtin_expect(ip >= slim, 0)) {
					if (ip >= lim || t >= tlim)
						break;
					if ((size_t)((uintptr_t)ip - mend) < skip_run) {
						/* Only hlim was reached, from too far back. */
						hlim = ip + min_pd(lim - ip, tlim - t);
						slim = ip + min_pd(hlim - ip,
						                   (ptrdiff_t)(mend + skip_run -
						                               (uintptr_t)ip));
						continue;
					}
					/* A long run of literals (incompressible data): code the
					 * next bytes as literals without looking them up, more the
					 * longer the run. */
					const size_t rounds = ((uintptr_t)ip - mend) >> 1;
					uint32_t k =
					    (uint32_t)min_sz((rounds - skip_after) >> 1, 512);
					k = (uint32_t)min_pd(min_pd(k, lim - ip), tlim - t);
					if (k >= DEFL_BULK_MIN) {
						/* (Coded outside the stretch: the faster loop
						 * here made the rest slower.) */
						bulk = k;
						break;
					}
					for (uint32_t j = 0; j < k; j++) {
						const uint32_t b = ip[j];
						t[j] = DEFL_TOK_LIT(b);
						hist->ll_hist[b]++;
					}
					t += k;
					ip += k;
					mend += k; /* (which the run's rounds do not count) */
					hlim = ip + min_pd(lim - ip, tlim - t);
					slim = ip + min_pd(hlim - ip, 2);
					if (ip >= slim)
						break;
					if (k) {
						/* (FRESH: ip may be a position entered
						 * already; the next stretch checks it.) */
						if (fresh)
							break;
						PROBE_PAIR();
					}
				}
				if (one) {
					r->pv0 = (uint32_t)v0;
					r->pv1 = (uint32_t)v1;
					r->carry = 1;
					break;
				}
				continue;
			}
		}
		/* ip[0 ..) matches ip[nd ..) in at least 4 bytes; diff is their first 8 bytes
		 * xored. */
		uint64_t nx; /* the 8 bytes after the match */
		uint32_t len;
		if (__builtin_expect(diff != 0, 1)) {
			/* 4 to 7 bytes: the bytes after it are shifted out of the 16 at its start
			 * rather than loaded from the new ip (a load that waits for the length). */
			const uint32_t b = stoa_ctz64(diff) & 56; /* 32 .. 56 */
			len = b >> 3;
			nx = xm >> b | defl_load64(ip + 8) << (64 - b);
		} else if (__builtin_expect(
		               (diff = defl_load64(ip + 8) ^ defl_load64(ip + 8 + nd)) != 0, 1)) {
			/* 8 to 15 bytes, the same way from the 16 bytes at ip + 8 (~tz & 56 is
			 * 56 - (tz & 56), in two shifts so that 64 comes out as 0). */
			const uint32_t tz = stoa_ctz64(diff); /* 0 .. 63 */
			len = 8 + (tz >> 3);
			nx = defl_load64(ip + 8) >> (tz & 56) | (defl_load64(ip + 16) << 8)
			                                            << (~tz & 56);
		} else {
			const uint32_t max = min_u32(DEFL_MAX_MATCH, (uint32_t)(endm8 - ip));
			len = DEFL_EXTEND_FROM8(ip, ip + nd, max, 1);
			/* A run longer than one match goes out as matches of 258 at the same
			 * distance, without looking anything up inside it: by tok_run, outside
			 * the stretch, as long literal runs are (byte runs +13%); with GIVE
			 * (level 2's small inputs) here, where every faster form cost its pair
			 * loop's text 1-5%. */
			if (!give && len == DEFL_MAX_MATCH) {
				bulk = DEFL_BULK_RUN | (uint32_t)-nd;
				break;
			}
			while (give && len == DEFL_MAX_MATCH && lim - ip > (ptrdiff_t)DEFL_MAX_MATCH &&
			       t < tlim && endm8 - ip >= (ptrdiff_t)(2 * DEFL_MAX_MATCH) &&
			       defl_load64(ip + DEFL_MAX_MATCH) ==
			           defl_load64(ip + DEFL_MAX_MATCH + nd)) {
				const uint32_t tok = match_token(DEFL_MAX_MATCH, (uint32_t)-nd);
				*t++ = tok;
				hist->ll_hist[DEFL_MAX_MATCH + 254]++;
				hist->d_hist[DEFL_TOK_DSYM(tok)]++;
				ip += DEFL_MAX_MATCH;
				len = DEFL_EXTEND_FROM8(ip, ip + nd, DEFL_MAX_MATCH, 1);
			}
			nx = defl_load64(ip + len);
		}
		const uint32_t tok = match_token(len, (uint32_t)-nd);
		*t++ = tok;
		hist->ll_hist[len + 254]++;
		hist->d_hist[DEFL_TOK_DSYM(tok)]++;
		ip += len;
		const uint32_t q = (uint32_t)(uintptr_t)ip + off;
		ht[H1(defl_load64(ip - 1))] = (uint16_t)(q - 1);
		mend = (uintptr_t)ip;
		slim = ip + min_pd(hlim - ip, (ptrdiff_t)skip_run);
		if (__builtin_expect(ip >= slim, 0)) {
			hlim = ip + min_pd(lim - ip, tlim - t);
			slim = ip + min_pd(hlim - ip, (ptrdiff_t)skip_run);
			if (ip >= slim)
				break;
		}
		if (one)
			break;
		const uint32_t h0 = H1(nx), h1 = H1(nx >> 8);
		v0 = CAND(ht[h0], q);
		v1 = CAND(ht[h1], q + 1);
		ht[h0] = (uint16_t)q;
		ht[h1] = (uint16_t)(q + 1);
	}
#undef PROBE_PAIR
#undef CAND
#undef H1
	r->ip = ip;
	r->t = t;
	r->mend = mend;
	r->bulk = bulk;
	return 1;
}

/* Levels 1-2 from ps->p while p < pend and t < tlim (pend: 8 readable bytes at p + 1). FULL:
 * every p is at least maxdist past lo. The window is 32 KiB when HBITS is set. Stops 32 bytes
 * before the window's end (the one-position loop of tokenize() takes the rest). */
/* Where a stretch from ip ends: ipend, or before it (not full) where the first window ends. */
static inline __attribute__((always_inline)) const uint8_t *
stretch_lim(const uint8_t *ip, const uint8_t *ipend, const uint8_t *lowp, uint32_t maxd,
            const int full)
{
	const size_t back = (size_t)(ip - lowp);
	if (!full && back < maxd && (size_t)(ipend - ip) > maxd - back)
		return ip + (maxd - back);
	return ipend;
}

static inline __attribute__((always_inline)) void pairs1_body(const struct search_ctx *c,
                                                              struct pair_state *ps, uint32_t pend,
                                                              uint32_t *const tlim, const int full,
                                                              const uint32_t hbits,
                                                              const uint32_t hkeep, const int give,
                                                              const int fresh)
{
	const uint8_t *const base = c->base;
	const uint32_t shift = hbits ? 32 - hbits : c->shift;
	if (c->end < 32)
		return;
	if (pend > c->end - 32)
		pend = c->end - 32;
	const uint8_t *const ipend = base + pend;
	const uint8_t *const endm8 = base + c->end - 8;
	const uint8_t *const lowp = base + c->lo;
	const uint32_t off = c->bias - (uint32_t)(uintptr_t)base;
	const uint32_t maxd = c->maxdist;
	struct run1 r = { base + ps->p, ps->t,
		          (uintptr_t)(base + ps->p) - 2 * (uintptr_t)ps->miss, 0, 0, 0, 0 };
	for (;;) {
		if (r.bulk & DEFL_BULK_RUN) {
			const struct tok_runs rs = tok_run(
			    r.t, ps->hist, r.ip, -(int64_t)(r.bulk & ~DEFL_BULK_RUN),
			    stretch_lim(r.ip, ipend, lowp, maxd, full), tlim, endm8);
			r.ip = rs.ip;
			r.t = rs.t;
			r.bulk = 0;
			/* As after any match: its last position is entered. */
			const uint64_t z = defl_load64(r.ip - 1);
			c->hash[hkeep > DEFL_HKEEP_4B ? DEFL_HASH64(z, hkeep, shift)
			                              : ((uint32_t)z * DEFL_HASH_MUL32) >> shift] =
			    (uint16_t)((uint32_t)(uintptr_t)r.ip + off - 1);
			r.mend = (uintptr_t)r.ip;
		}
		if (r.bulk) {
			lit_run(r.t, ps->hist->ll_hist, r.ip, r.bulk);
			r.t += r.bulk;
			r.ip += r.bulk;
			r.mend += r.bulk; /* (which the run's rounds do not count) */
			r.bulk = 0;
		}
		if (r.ip >= ipend || r.t >= tlim)
			break;
		const uint8_t *const lim = stretch_lim(r.ip, ipend, lowp, maxd, full);
		if (!full && fresh) {
			/* The first window of a fresh one: with a 32 KiB window the full window's
			 * loop, with wrapped distances, once the stretch's first pair is checked;
			 * where it cannot start, a round of the checked loop within the same
			 * bounds (the parse is the checked loop's). Calgary in 16 KiB pieces on
			 * Zen 3, level 1: +10%. */
			const int w32 = maxd == DEFL_WIN_SIZE;
			for (;;) {
				if (w32 && stretch1(&r, c->hash, ps->hist, lim, tlim, endm8, lowp, off,
				                    maxd, shift, DEFL_WIN_SIZE, 0, hkeep, give,
				                    c->skip_after, 1, 0))
					break;
				stretch1(&r, c->hash, ps->hist, lim, tlim, endm8, lowp, off, maxd,
				         shift, 0, 0, hkeep, give, c->skip_after, 0, w32);
				if (!w32 || r.bulk || r.ip >= lim || r.t >= tlim)
					break;
			}
			r.carry = 0;
		} else if (!full) {
			stretch1(&r, c->hash, ps->hist, lim, tlim, endm8, lowp, off, maxd, shift, 0,
			         1, hkeep, give, c->skip_after, 0, 0);
		} else if (hbits) {
			stretch1(&r, c->hash, ps->hist, lim, tlim, endm8, lowp, off, maxd, shift,
			         DEFL_WIN_SIZE, 0, hkeep, give, c->skip_after, 0, 0);
		} else {
			stretch1(&r, c->hash, ps->hist, lim, tlim, endm8, lowp, off, maxd, shift,
			         maxd, 0, hkeep, give, c->skip_after, 0, 0);
		}
	}
	ps->p = (uint32_t)(r.ip - base);
	ps->t = r.t;
	ps->miss = (uint32_t)min_sz(((uintptr_t)r.ip - r.mend) >> 1, 1u << 20);
}

#define DEFL_PAIRS1(name, full, hbits, hkeep, give)                                                \
	static __attribute__((noinline)) void name(const struct search_ctx *c,                    \
						   struct pair_state *ps, uint32_t pend,           \
						   uint32_t *tlim)                                 \
	{                                                                                          \
		pairs1_body(c, ps, pend, tlim, full, hbits, hkeep, give, 0);                       \
	}
/* The first window of a fresh one (defl_win.fresh) with a table of 2^hbits buckets. */
#define DEFL_PAIRS1F(name, hbits, hkeep, give)                                                     \
	static __attribute__((noinline)) void name(const struct search_ctx *c,                    \
						   struct pair_state *ps, uint32_t pend,           \
						   uint32_t *tlim)                                 \
	{                                                                                          \
		pairs1_body(c, ps, pend, tlim, 0, hbits, hkeep, give, 1);                          \
	}

typedef void pairs_fn(const struct search_ctx *c, struct pair_state *ps, uint32_t pend,
		      uint32_t *tlim);

#define DEFL_PAIRS(name, full, hbits, lazy, enter3)                                                \
	static __attribute__((noinline)) void name(const struct search_ctx *c,                    \
						   struct pair_state *ps, uint32_t pend,           \
						   uint32_t *tlim)                                 \
	{                                                                                          \
		pairs_body(c, ps, pend, tlim, full, hbits, lazy, enter3);                          \
	}
DEFL_PAIRS1(pairs1_w, 0, 0, DEFL_HKEEP_L1, 0)
DEFL_PAIRS1(pairs1_13, 1, 13, DEFL_HKEEP_L1, 0)
DEFL_PAIRS1(pairs1_14, 1, 14, DEFL_HKEEP_L1, 0)
DEFL_PAIRS1(pairs1_n, 1, 0, DEFL_HKEEP_L1, 0)
DEFL_PAIRS1(pairs2_w, 0, 0, DEFL_HKEEP_L2, 0)
DEFL_PAIRS1(pairs2_14, 1, 14, DEFL_HKEEP_L2, 0)
DEFL_PAIRS1(pairs2_13, 1, 13, DEFL_HKEEP_L2, 0)
DEFL_PAIRS1(pairs2_n, 1, 0, DEFL_HKEEP_L2, 0)
DEFL_PAIRS1(pairs2s_w, 0, 0, DEFL_HKEEP_4B, 1)
DEFL_PAIRS1(pairs2s_n, 1, 0, DEFL_HKEEP_4B, 1)
DEFL_PAIRS1(pairs1s_w, 0, 0, DEFL_HKEEP_4B, 0)
DEFL_PAIRS1(pairs1s_n, 1, 0, DEFL_HKEEP_4B, 0)
DEFL_PAIRS1F(pairs1_f13, 13, DEFL_HKEEP_L1, 0)
DEFL_PAIRS1F(pairs2_f14, 14, DEFL_HKEEP_L2, 0)
DEFL_PAIRS1F(pairs2s_f14, 14, DEFL_HKEEP_4B, 1)
DEFL_PAIRS1F(pairs2s_f13, 13, DEFL_HKEEP_4B, 1)
DEFL_PAIRS1F(pairs1s_f13, 13, DEFL_HKEEP_4B, 0)
DEFL_PAIRS(pairs3_w, 0, 0, 1, 1)
DEFL_PAIRS(pairs3_15, 1, 15, 1, 1)
DEFL_PAIRS(pairs3_16, 1, 16, 1, 1)
DEFL_PAIRS(pairs3_n, 1, 0, 1, 1)

/* The pair loops of a level: [0] before the window is full, then for the level's two hash table
 * sizes (pairs_bits) and any other size, by level. Levels 1 and 2 differ in their tables' sizes
 * and their hashes (defl_params.hkeep, which their loops are built for); each has a row for the
 * 4-byte hash of small inputs, level 2's with GIVE. */
static pairs_fn *const pairs_tab[5][4] = {
	{ pairs1_w, pairs1_13, pairs1_14, pairs1_n },
	{ pairs2_w, pairs2_14, pairs2_13, pairs2_n },
	{ pairs3_w, pairs3_15, pairs3_16, pairs3_n },
	/* level 1 with the 4-byte hash of small inputs */
	{ pairs1s_w, pairs1s_n, pairs1s_n, pairs1s_n },
	/* level 2 with the 4-byte hash and GIVE of small inputs */
	{ pairs2s_w, pairs2s_n, pairs2s_n, pairs2s_n },
};
static const uint8_t pairs_bits[5][2] = { { 13, 14 }, { 14, 13 }, { 15, 16 }, { 0, 0 }, { 0, 0 } };

/* The first window of a fresh one, where every table entry names a position at or before the
 * one looked up (defl_win.fresh: one-shot calls without a dictionary): with a 32 KiB window the
 * wrapped distances of a full one (pairs1_body), else the distance check alone, and the table
 * size of a one-shot input of 4 KiB or more a constant (levels 1-2: +2.5% on Canterbury's files
 * of 4-40 KB; level 3's loop, which checks a distance otherwise, gained nothing). */
static pairs_fn *const pairs_fresh[5][2] = {
	{ pairs1_f13, NULL }, { pairs2_f14, NULL },        { NULL, NULL },
	{ pairs1s_f13, NULL }, { pairs2s_f14, pairs2s_f13 },
};
/* (Level 2's table has 2^13 buckets for one-shot inputs of 2-4 KiB, a common block size, and
 * 2^14 for those of 4-8 KiB.) */
static const uint8_t pairs_fresh_bits[5][2] = { { 13, 0 }, { 14, 0 }, { 0, 0 }, { 13, 0 }, { 14, 13 } };

static inline __attribute__((always_inline)) uint32_t tokenize(struct defl_lvl *Lv, const struct defl_win *w, uint32_t p,
				uint32_t stop, const struct defl_params *const P)
{
	const struct search_ctx ctx = { w->base, Lv->hash, 32 - Lv->hash_bits, w->bias,
					w->lo, w->maxdist, w->end, table_hkeep(Lv, P),
					Lv->skip_after };
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
			const uint32_t row =
			    c->hkeep == DEFL_HKEEP_4B ? P->pairs_row_small : P->pairs_row;
			pairs_fn *const *const pt = pairs_tab[row];
			if (p < full && p < pf2 && t < tlim) {
				struct pair_state ps = { p, misses, t, &Lv->hist };
				pairs_fn *f = pt[0];
				for (int i = 0; i < 2; i++)
					if (w->fresh && pairs_fresh_bits[row][i] &&
					    c->shift == 32u - pairs_fresh_bits[row][i])
						f = pairs_fresh[row][i];
				f(c, &ps, min_u32(pf2, full), tlim);
				p = ps.p;
				t = ps.t;
				misses = ps.miss;
			}
			if (p < pf2 && t < tlim) {
				struct pair_state ps = { p, misses, t, &Lv->hist };
				/* (Levels 1-2's 2^13 and 2^14 loops assume a 32 KiB window.) */
				const int w32 = c->maxdist == DEFL_WIN_SIZE || P->lazy;
				const uint32_t k = !w32 ? 3
						   : c->shift == 32u - pairs_bits[row][0] ? 1
						   : c->shift == 32u - pairs_bits[row][1] ? 2
											  : 3;
				pt[k](c, &ps, pf2, tlim);
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
				continue;
			}
			misses = 0;
			uint32_t next = p + 1; /* first position not yet entered */
			if (P->lazy && len < P->nice && p + 1 < pfast) {
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
			const uint32_t tok = match_token(len, dist);
			*t++ = tok;
			llh[len + 254]++;
			dh[DEFL_TOK_DSYM(tok)]++;
			const uint32_t mend = p + len;
			/* Entering positions needs hash_need(c) readable bytes there. */
			const uint32_t hlim = min_u32(mend, end + 1 - hash_need(c));
			const uint32_t hto = min_u32(p + 1 + P->head, hlim);
			for (uint32_t q = next; q < hto; q++)
				enter(c, q);
			if (mend - 1 >= hto && mend - 1 < hlim)
				enter(c, mend - 1);
			p = mend;
		}
		if (t >= tchk) {
			const uint32_t n = (uint32_t)(t - tok0);
			if (misses > c->skip_after) {
				/* Inside a long run of literals the statistics stay as they are:
				 * look again much later. */
				Lv->obs_next = n + 16 * DEFL_SPLIT_CHECK;
				continue;
			}
			Lv->obs_next = n + P->split_every * DEFL_SPLIT_CHECK;
			if (defl_split_check(Lv, n, P->split_pct)) {
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

uint32_t DEFL_MATCH_FN(defl_tok_lvl1)(struct defl_lvl *L, const struct defl_win *w, uint32_t p,
				      uint32_t stop)
{
	return tokenize(L, w, p, stop, defl_params(1));
}
uint32_t DEFL_MATCH_FN(defl_tok_lvl2)(struct defl_lvl *L, const struct defl_win *w, uint32_t p,
				      uint32_t stop)
{
	return tokenize(L, w, p, stop, defl_params(2));
}

#undef DEFL_MATCH_FN
#undef DEFL_MATCH_CAT
#undef DEFL_MATCH_CAT2
#undef DEFL_MATCH_SUFFIX
