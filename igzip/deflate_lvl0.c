/* Level 0: one pass, codes as it goes with the stream's Huffman codes (no level_buf).
 *
 * Greedy parse with one candidate per hash bucket (head[], 4-byte hash, positions mod 2^16),
 * except that a match of fewer than 8 bytes at ip gives way to one of 8 or more at ip + 1.
 * Every position met while scanning literals is entered; a match enters the two positions after
 * its start and the one before its end (Calgary: 39.75% with the default codes retrained for
 * this parse; before the give-way rule 40.05%, when entering every position gave 39.9% and
 * start and end only 41.4%).
 *
 * The main loop looks at positions in pairs (ip, ip + 1) and is software pipelined: the head[]
 * entries of the next pair (ip + 2, ip + 3) are fetched, and replaced by those positions, before
 * this pair's branch, so that after a mispredicted branch the literal path resumes with its
 * probes already done. Both candidates of a pair are compared before the first branch; when
 * neither starts a match both literals (15 bits at most each) go out in one write. A candidate
 * outside the window is replaced by the position itself (an in-bounds load) and rejected by its
 * flag. Once the window is a full 32 KiB behind the position, distances are wrapped into
 * 1 .. 32768 instead of checked: a stale or aliased entry then names a position inside the
 * window, which counts only when its bytes match. Distances travel negated (nd = -distance,
 * 64-bit), so that the candidate's load is ip + nd with nothing to sign-extend.
 *
 * The codes are copied at entry into a struct on the stack (with the distance code and the base
 * of its extra bits folded into one 64-bit value per symbol): the loop addresses them off the
 * stack pointer, which leaves gcc registers enough to keep the bit writer's count (not its
 * accumulator) out of memory on the literal path (Calgary +7% with the negated distances).
 *
 * The main loop runs in stretches whose input and output room is checked once: a step costs at
 * most 16 output bits per input byte it consumes (two literals: 30 bits for 2 bytes; a match of
 * 4 or more bytes: 48 bits, with a literal before it 63 bits for 5; a run of 258-byte matches
 * 48 bits per 258 bytes), so a stretch of k bytes needs 2k bytes of room and a little slack.
 * Matches stop 8 bytes before the window's end so that everything near them loads 8 bytes at a
 * time, and stretches stop 32 bytes before it so that a match's first 24 bytes load without a
 * check; the tail goes one symbol at a time with every bound checked.
 *
 * Runs of matches are bound by the chain from one match to the next (the bytes after it, their
 * hash, head[], the candidate, the comparison, the length), not by the instruction count: a
 * match of 4 to 15 bytes takes the bytes after it from two 8-byte loads at its start, shifted by
 * its length, instead of a load that waits for the length (Calgary +5%; 8 to 15 bytes that way
 * rather than through the general extension, Calgary +2%, Canterbury +7%). Longer matches are
 * extended 16 bytes a round (defl_extend_from8).
 *
 * This file is also the template of ISA-specific variants: x86/deflate_lvl0_avx2.c defines
 * DEFL_LVL0_FN to its function's name (and DEFL_EXTEND_FROM8, DEFL_SAME_MAX to vector match
 * compares) and includes this one; built with BMI1/BMI2 (shlx/shrx free the shift count
 * register, so gcc spills less) it measured +2% on Calgary, +4-7% on pic.
 *
 * A small one-shot input clears and uses only part of head[] (defl_win.hbits,
 * defl_lvl0_small_bits): the call is compiled a second time with the hash bits a variable, for a
 * fresh 32 KiB window alone (one-shot 200-byte and 1 KiB inputs 1.35x and 1.1x on Zen 3).
 */
#include "deflate_internal.h"

#ifndef DEFL_LVL0_FN
#define DEFL_LVL0_FN          defl_lvl0_portable
#define DEFL_LVL0_WITH_INSERT 1
#endif
#ifndef DEFL_EXTEND_FROM8
#define DEFL_EXTEND_FROM8 defl_extend_from8
#endif
#ifndef DEFL_SAME_MAX
#define DEFL_SAME_MAX defl_same_max
#endif

defl_lvl0_fn DEFL_LVL0_FN;

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static inline size_t min_sz(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* The writer's fields in locals: the output bytes cannot alias them, so they stay in
 * registers. */
struct lvl0_bits {
	uint64_t acc;
	uint32_t n;
	uint8_t *out;
};

/* Append n <= 56 bits (nothing above them set); writes 8 bytes at out. */
static inline void put_bits(struct lvl0_bits *o, uint64_t bits, uint32_t n)
{
	o->acc |= bits << o->n;
	o->n += n;
	stoa_store_le64(o->out, o->acc);
	o->out += o->n >> 3;
	o->acc >>= o->n & ~7u;
	o->n &= 7;
}

/* The codes a call uses, copied to the stack: the loop then addresses them off the stack
 * pointer and keeps its registers for its own state. */
struct lvl0_codes {
	uint64_t dist[30];  /* dcodes[s] - (dist_base[s] << dn[s]) (mod 2^64): + (dist << dn[s])
	                     * gives the code followed by the extra bits */
	uint32_t len[256];  /* len_table */
	uint16_t lit[256];  /* lit_table */
	uint8_t litn[256];  /* lit_table_sizes */
	uint8_t dn[30];     /* dcodes_sizes */
	uint8_t dtot[30];   /* dcodes_sizes + extra bits */
};

static inline void lvl0_codes_init(struct lvl0_codes *c, const struct isal_hufftables *t)
{
	memcpy(c->len, t->len_table, sizeof(c->len));
	memcpy(c->lit, t->lit_table, sizeof(c->lit));
	memcpy(c->litn, t->lit_table_sizes, sizeof(c->litn));
	for (uint32_t s = 0; s < 30; s++) {
		const uint32_t dn = t->dcodes_sizes[s];
		c->dist[s] = t->dcodes[s] - ((uint64_t)deflate_dist_base[s] << dn);
		c->dn[s] = (uint8_t)dn;
		c->dtot[s] = (uint8_t)(dn + deflate_dist_extra[s]);
	}
}

static inline void put_lit(struct lvl0_bits *o, const struct lvl0_codes *t, uint32_t c)
{
	put_bits(o, t->lit[c], t->litn[c]);
}

/* The distance symbol of a distance from dm1 = distance - 1 (0 .. 32767), without a branch
 * (short distances are common enough that a branch on them mispredicts). */
static inline uint32_t dist_sym(uint32_t dm1)
{
	const uint32_t hb = 31u ^ (uint32_t)__builtin_clz(dm1 | 2); /* >= 1 */
	const uint32_t s = 2 * hb + ((dm1 >> (hb - 1)) & 1);
	return dm1 < 2 ? dm1 : s;
}

/* A match of length 3..258 at distance 1..32768, given as nd = -distance. */
static inline void put_match(struct lvl0_bits *o, const struct lvl0_codes *t, uint32_t len,
                             int64_t nd)
{
	const uint32_t l = t->len[len - 3];
	const uint32_t s = dist_sym((uint32_t)~nd);
	const uint64_t dbits = t->dist[s] + ((uint64_t)-nd << t->dn[s]);
	put_bits(o, (l >> 5) | dbits << (l & 31), (l & 31) + t->dtot[s]);
}

static inline uint32_t hash_of(uint64_t x, uint32_t hb)
{
	return defl_hash4((uint32_t)x, hb);
}


/* What the main loop carries between stretches. */
struct lvl0_run {
	const uint8_t *ip;  /* next position */
	struct lvl0_bits o; /* the writer */
	/* carry: a stretch of one round left the pair at ip probed (entered, and its entries as
	 * they were before in pv0, pv1): the next stretch goes on with them, as one loop would. */
	uint32_t pv0, pv1, carry;
};

/* Code pairs of positions from r->ip while r->ip < ilim. Positions in the stretch are at least
 * `early ? 0 : maxd` bytes past lowp: with early false the window check is d - 1 < maxd alone,
 * with early true it also keeps candidates at or after lowp. ilim <= endp - 8 where endp is the
 * window's end; matches stop at endp - 8. FRESH (with cmaxd): the first window of a fresh one,
 * less than cmaxd past lowp, whose distances are wrapped as in a full window once the pair it
 * starts with is checked (defl_fresh_cand; returns 0 without coding anything when that pair
 * needs the checked loop). ONE: a single round (the caller's step past such a pair). hb: the
 * table's hash bits. */
static inline __attribute__((always_inline)) int
lvl0_stretch(struct lvl0_run *r, const struct lvl0_codes *t, uint16_t *head,
             const uint8_t *ilim, const uint8_t *endm8, const uint8_t *lowp, uint32_t off,
             uint32_t maxd, const int early, const uint32_t cmaxd, const int fresh,
             const int one, const uint32_t hb)
{
	if (cmaxd)
		maxd = cmaxd;
	const uint8_t *ip = r->ip;
	struct lvl0_bits o = r->o;
	if (ip >= ilim) {
		r->carry = 0;
		return 1;
	}
	/* Software pipelined: the pair's head[] entries are fetched (and replaced by the pair's
	 * positions) during the previous pair, before its branch, so that a mispredicted
	 * literal pair resumes with its probes done. */
	uint32_t v0, v1;
	if (r->carry) {
		v0 = r->pv0;
		v1 = r->pv1;
		r->carry = 0;
	} else {
		const uint64_t x = defl_load64(ip);
		const uint32_t h0 = hash_of(x, hb), h1 = hash_of(x >> 8, hb);
		const uint32_t pos = (uint32_t)(uintptr_t)ip + off;
		v0 = head[h0];
		v1 = head[h1];
		if (fresh && !defl_fresh_pair(ip, lowp, pos, &v0, &v1))
			return 0;
		head[h0] = (uint16_t)pos;
		head[h1] = (uint16_t)(pos + 1);
	}

	for (;;) {
		uint64_t diff, xm; /* xm: the 8 bytes at the match's start */
		int64_t nd;        /* minus the distance */
		const uint32_t pos = (uint32_t)(uintptr_t)ip + off;
		/* With a constant window (cmaxd, a power of 2) the distances are wrapped into
		 * 1 .. cmaxd instead of checked: a stale or aliased entry then names some position
		 * within the window, which the comparison accepts only when its bytes match. */
		const uint64_t x0 = defl_load64(ip);
		const uint64_t x1 = defl_load64(ip + 1);
		{
			/* The next pair: ip + 2 and ip + 3. */
			const uint64_t x2 = defl_load64(ip + 2);
			const uint32_t h2 = hash_of(x2, hb), h3 = hash_of(x2 >> 8, hb);
			const uint32_t v2 = head[h2], v3 = head[h3];
			head[h2] = (uint16_t)(pos + 2);
			head[h3] = (uint16_t)(pos + 3);
			uint64_t diff0, diff1;
			uint32_t ok0 = 1, ok1 = 1;
			int64_t nd0, nd1;
			if (cmaxd) {
				/* -(((pos - 1 - v) & (cmaxd - 1)) + 1) */
				nd0 = (int64_t)(((uint64_t)v0 - pos) | (0 - (uint64_t)cmaxd));
				nd1 = (int64_t)(((uint64_t)v1 - pos - 1) | (0 - (uint64_t)cmaxd));
			} else {
				const uint32_t d0 = (uint16_t)(pos - v0);
				const uint32_t d1 = (uint16_t)(pos + 1 - v1);
				uint32_t lim0 = maxd, lim1 = maxd;
				if (early) {
					const size_t back = (size_t)(ip - lowp);
					lim0 = (uint32_t)min_sz(maxd, back);
					lim1 = (uint32_t)min_sz(maxd, back + 1);
				}
				ok0 = d0 - 1 < lim0;
				ok1 = d1 - 1 < lim1;
				nd0 = ok0 ? -(int64_t)d0 : 0;
				nd1 = ok1 ? -(int64_t)d1 : 0;
			}
			if (fresh)
				defl_fresh_check(nd0, nd1, (size_t)(ip - lowp));
			diff0 = x0 ^ defl_load64(ip + nd0);
			diff1 = x1 ^ defl_load64(ip + 1 + nd1);
			if (__builtin_expect(ok0 & ((uint32_t)diff0 == 0), 0)) {
				diff = diff0;
				nd = nd0;
				xm = x0;
				/* A match of 4 to 7 bytes gives way to one of 8 or more at ip + 1
				 * (Calgary 40.05% -> 39.79%, Canterbury 34.08% -> 33.79%). */
				if (__builtin_expect(diff0 != 0 && (ok1 & (diff1 == 0)), 0)) {
					put_lit(&o, t, (uint32_t)x0 & 0xff);
					ip++;
					diff = 0;
					nd = nd1;
					xm = x1;
				}
			} else if (__builtin_expect(ok1 & ((uint32_t)diff1 == 0), 0)) {
				put_lit(&o, t, (uint32_t)x0 & 0xff);
				ip++;
				diff = diff1;
				nd = nd1;
				xm = x1;
			} else {
				const uint32_t c0 = (uint32_t)x0 & 0xff, c1 = (uint32_t)x1 & 0xff;
				const uint32_t n0 = t->litn[c0];
				put_bits(&o, t->lit[c0] | (uint64_t)t->lit[c1] << n0, n0 + t->litn[c1]);
				ip += 2;
				if (ip >= ilim || one) {
					r->pv0 = v2;
					r->pv1 = v3;
					r->carry = ip < ilim;
					break;
				}
				v0 = v2;
				v1 = v3;
				continue;
			}
		}
		/* ip[0 ..) matches ip[-d ..) in at least 4 bytes; diff is their first 8 bytes
		 * xored. Its next positions are entered already. */
		uint64_t nx; /* the 8 bytes after the match */
		if (__builtin_expect(diff != 0, 1)) {
			/* 4 to 7 bytes. The chain from one match to the next (load, hash, head[],
			 * candidate, compare, length) bounds runs of matches: the bytes after the
			 * match are shifted out of the 16 at its start (ip + 16 <= end: ip was
			 * below ilim before a literal) rather than loaded from the new ip, a load
			 * that would wait for the length (Calgary +5%). */
			const uint32_t b = (uint32_t)__builtin_ctzll(diff) & 56; /* 32 .. 56 */
			const uint32_t len = b >> 3;
			nx = xm >> b | defl_load64(ip + 8) << (64 - b);
			put_match(&o, t, len, nd);
			ip += len;
		} else if (__builtin_expect((diff = defl_load64(ip + 8) ^ defl_load64(ip + 8 + nd)) != 0,
		                            1)) {
			/* 8 to 15 bytes, the same way from the 16 bytes at ip + 8 (ip + 24 <= end).
			 * ~tz & 56 is 56 - (tz & 56): two shifts, so that 64 comes out as 0. */
			const uint32_t tz = (uint32_t)__builtin_ctzll(diff); /* 0 .. 63 */
			const uint32_t len = 8 + (tz >> 3);
			nx = defl_load64(ip + 8) >> (tz & 56) | (defl_load64(ip + 16) << 8) << (~tz & 56);
			put_match(&o, t, len, nd);
			ip += len;
		} else {
			uint32_t max = (uint32_t)min_sz(DEFL_MAX_MATCH, (size_t)(endm8 - ip));
			uint32_t len = DEFL_EXTEND_FROM8(ip, ip + nd, max, 0);
			/* A run longer than one match goes out as matches of 258 at the same
			 * distance, without looking anything up inside it: each next 258 bytes
			 * tested whole first (DEFL_SAME_MAX, one branch where the extension
			 * takes one per 16 bytes; byte runs +27%). The run stays inside the
			 * stretch, whose output room covers it. (Coding the run in a function
			 * of its own, in registers, or the first match with DEFL_PREFIX_MAX,
			 * was faster on runs but cost Canterbury and ptt5 2-6%: this loop's
			 * code and registers are shared with the short matches'.) */
			while (len == DEFL_MAX_MATCH && (size_t)(ilim - ip) > DEFL_MAX_MATCH &&
			       (size_t)(endm8 - ip) >= 2 * DEFL_MAX_MATCH &&
			       defl_load64(ip + DEFL_MAX_MATCH) ==
			           defl_load64(ip + DEFL_MAX_MATCH + nd)) {
				put_match(&o, t, DEFL_MAX_MATCH, nd);
				ip += DEFL_MAX_MATCH;
				len = DEFL_SAME_MAX(ip, ip + nd)
				          ? DEFL_MAX_MATCH
				          : DEFL_EXTEND_FROM8(ip, ip + nd, DEFL_MAX_MATCH, 0);
			}
			put_match(&o, t, len, nd);
			ip += len;
			nx = defl_load64(ip);
		}
		const uint32_t q = (uint32_t)(uintptr_t)ip + off;
		const uint64_t y = defl_load64(ip - 2);
		head[hash_of(y >> 8, hb)] = (uint16_t)(q - 1);
		if (ip >= ilim || one)
			break;
		const uint32_t h0 = hash_of(nx, hb), h1 = hash_of(nx >> 8, hb);
		v0 = head[h0];
		v1 = head[h1];
		head[h0] = (uint16_t)q;
		head[h1] = (uint16_t)(q + 1);
	}
	r->ip = ip;
	r->o = o;
	return 1;
}

/* The whole call with hb hash bits; small: a small fresh window of 32 KiB history
 * (defl_lvl0_small_bits), whose stretches all start less than 32 KiB into it. */
static inline __attribute__((always_inline)) uint32_t
lvl0_code(struct BitBuf2 *out, const struct isal_hufftables *tab, uint16_t *head,
          const struct defl_win *w, uint32_t p, uint32_t stop, const uint32_t hb, const int small)
{
	struct lvl0_codes codes;
	const struct lvl0_codes *const t = &codes;
	lvl0_codes_init(&codes, tab);
	const uint8_t *base = w->base;
	const uint32_t end = w->end, lo = w->lo, bias = w->bias, maxd = w->maxdist;
	const uint32_t hend = end > 3 ? end - 3 : 0; /* positions with 4 bytes to hash */
	const uint8_t *const oend = out->m_out_end;
	struct lvl0_run r = { base + p, { out->m_bits, out->m_bit_count, out->m_out_buf }, 0, 0, 0 };

	if (end >= 32 && p < stop) {
		/* Stretches while 32 input bytes are left before end and before stop. */
		const uint8_t *const ilim = base + min_u32(stop, end - 32);
		const uint8_t *const endm8 = base + end - 8;
		const uint8_t *const lowp = base + lo;
		const uint32_t off = bias - (uint32_t)(uintptr_t)base;
		for (;;) {
			/* Stretches of a few bytes still beat the tail's one symbol at a time
			 * (one-shot 200-byte inputs, given their stored size + 16, 1.13x; room
			 * under 64 used to end them). */
			const ptrdiff_t room = oend - r.o.out - 32;
			if (room < 8 || r.ip >= ilim)
				break;
			const uint8_t *lim = r.ip + min_sz((size_t)(ilim - r.ip), (size_t)room / 2);
			const size_t back = (size_t)(r.ip - lowp);
			if (small || back < maxd) {
				/* Near lowp: stop where every d <= maxd is in the window. In a
				 * fresh window every entry names ip or a position before it: with
				 * a 32 KiB window the full window's loop runs there once the
				 * stretch's first pair is checked (one-shot calls: Calgary in 4-16
				 * KiB pieces +15% on Zen 3, where the checks cost the loop
				 * spilled registers), else the distance check alone. */
				if ((size_t)(lim - r.ip) > maxd - back)
					lim = r.ip + (maxd - back);
				if (small || (w->fresh && maxd == DEFL_WIN_SIZE)) {
					/* (A round of the checked loop where the stretch cannot
					 * start, within the same bounds: the parse is the checked
					 * loop's.) */
					while (!lvl0_stretch(&r, t, head, lim, endm8, lowp, off,
					                     DEFL_WIN_SIZE, 0, DEFL_WIN_SIZE, 1, 0, hb))
						lvl0_stretch(&r, t, head, lim, endm8, lowp, off,
						             DEFL_WIN_SIZE, 0, 0, 0, 1, hb);
				} else if (w->fresh)
					lvl0_stretch(&r, t, head, lim, endm8, lowp, off, maxd, 0, 0, 0,
					             0, hb);
				else
					lvl0_stretch(&r, t, head, lim, endm8, lowp, off, maxd, 1, 0, 0,
					             0, hb);
			} else if (maxd == DEFL_WIN_SIZE) {
				lvl0_stretch(&r, t, head, lim, endm8, lowp, off, maxd, 0,
				             DEFL_WIN_SIZE, 0, 0, hb);
			} else {
				lvl0_stretch(&r, t, head, lim, endm8, lowp, off, maxd, 0, 0, 0, 0, hb);
			}
		}
		p = (uint32_t)(r.ip - base);
	}

	/* The tail: one symbol at a time, with every bound checked. */
	struct lvl0_bits o = r.o;
	while (p < stop && oend - o.out >= 16) {
		if (p >= hend) {
			put_lit(&o, t, base[p]);
			p++;
			continue;
		}
		const uint32_t x = defl_load32(base + p);
		const uint32_t h = defl_hash4(x, hb);
		const uint32_t d = (uint16_t)(p + bias - head[h]);
		head[h] = (uint16_t)(p + bias);
		if (d - 1 < min_u32(maxd, p - lo) && defl_load32(base + p - d) == x) {
			const uint32_t max = min_u32(DEFL_MAX_MATCH, end - p) - 4;
			const uint32_t len = 4 + defl_extend(base + p + 4, base + p - d + 4, max);
			put_match(&o, t, len, -(int64_t)d);
			const uint32_t q = p + len;
			const uint32_t rr[4] = { p + 1, p + 2, q - 2, q - 1 };
			for (int i = 0; i < 4; i++)
				if (rr[i] < hend)
					head[defl_hash4(defl_load32(base + rr[i]), hb)] =
					    (uint16_t)(rr[i] + bias);
			p = q;
		} else {
			put_lit(&o, t, base[p]);
			p++;
		}
	}
	out->m_bits = o.acc;
	out->m_bit_count = o.n;
	out->m_out_buf = o.out;
	return p;
}

/* (A function of its own: inside the main one it cost the full table's loop 2.5% on Calgary.) */
static __attribute__((noinline)) uint32_t
lvl0_small(struct BitBuf2 *out, const struct isal_hufftables *tab, uint16_t *head,
           const struct defl_win *w, uint32_t p, uint32_t stop)
{
	return lvl0_code(out, tab, head, w, p, stop, w->hbits, 1);
}

uint32_t DEFL_LVL0_FN(struct BitBuf2 *out, const struct isal_hufftables *tab, uint16_t *head,
                      const struct defl_win *w, uint32_t p, uint32_t stop)
{
	if (w->hbits && w->hbits != DEFL_LVL0_HASH_BITS)
		return lvl0_small(out, tab, head, w, p, stop);
	return lvl0_code(out, tab, head, w, p, stop, DEFL_LVL0_HASH_BITS, 0);
}

#ifdef DEFL_LVL0_WITH_INSERT
void defl_lvl0_insert(uint16_t *head, const struct defl_win *w, uint32_t from, uint32_t to)
{
	const uint32_t hend = w->end > 3 ? w->end - 3 : 0;
	for (uint32_t q = from; q < to && q < hend; q++)
		head[defl_hash4(defl_load32(w->base + q), DEFL_LVL0_HASH_BITS)] =
		    (uint16_t)(q + w->bias);
}
#endif
