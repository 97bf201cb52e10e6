/* Level 0: one pass, codes as it goes with the stream's Huffman codes (no level_buf).
 *
 * Greedy parse with one candidate per hash bucket (head[], 4-byte hash, positions mod 2^16).
 * Every position met while scanning literals is entered; a match enters its second and third
 * positions and its last two, which on typical data keeps most of what entering every position
 * would find (Calgary: 40.1% against 39.9% for every position, 41.4% for start and end only).
 *
 * The main loop runs while 16 input bytes and 16 output bytes are left, so it loads and stores
 * 8 bytes at a time without bounds checks; the tail goes one symbol at a time. Literals are
 * looked at two at a time: when neither starts a match, both codes (15 bits at most each) go out
 * in one write.
 */
#include "deflate_internal.h"

static inline uint32_t min_u32(uint32_t a, uint32_t b)
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
	memcpy(o->out, &o->acc, 8);
	o->out += o->n >> 3;
	o->acc >>= o->n & ~7u;
	o->n &= 7;
}

static inline void put_lit(struct lvl0_bits *o, const struct isal_hufftables *t, uint32_t c)
{
	put_bits(o, t->lit_table[c], t->lit_table_sizes[c]);
}

/* A match of length 3..258 at distance 1..32768. */
static inline void put_match(struct lvl0_bits *o, const struct isal_hufftables *t, uint32_t len,
			     uint32_t dist)
{
	const uint32_t l = t->len_table[len - 3];
	const uint32_t s = defl_dist_sym(dist);
	const uint32_t dn = t->dcodes_sizes[s];
	const uint64_t dbits = t->dcodes[s] | (uint64_t)(dist - deflate_dist_base[s]) << dn;
	put_bits(o, (l >> 5) | dbits << (l & 31), (l & 31) + dn + deflate_dist_extra[s]);
}

static inline void enter(uint16_t *head, const uint8_t *base, uint32_t q, uint32_t bias)
{
	head[defl_hash4(defl_load32(base + q), DEFL_LVL0_HASH_BITS)] = (uint16_t)(q + bias);
}

uint32_t defl_lvl0_base(struct BitBuf2 *out, const struct isal_hufftables *t, uint16_t *head,
			const struct defl_win *w, uint32_t p, uint32_t stop)
{
	const uint8_t *base = w->base;
	const uint32_t end = w->end, lo = w->lo, bias = w->bias, maxd = w->maxdist;
	const uint32_t hend = end > 3 ? end - 3 : 0; /* positions with 4 bytes to hash */
	struct lvl0_bits o = { out->m_bits, out->m_bit_count, out->m_out_buf };
	/* The main loop: p + 16 <= end, and matches stop 8 bytes before end so that the
	 * positions near a match's end can be loaded 8 bytes at a time. */
	const uint32_t fast_stop = end >= 16 ? min_u32(stop, end - 16) : 0;
	const uint8_t *const oend = out->m_out_end;

	while (p < fast_stop && oend - o.out >= 16) {
		uint64_t x = defl_load64(base + p);
		uint32_t h = defl_hash4((uint32_t)x, DEFL_LVL0_HASH_BITS);
		uint32_t d = (uint16_t)(p + bias - head[h]);
		head[h] = (uint16_t)(p + bias);
		uint64_t diff;
		if (d - 1 < min_u32(maxd, p - lo) &&
		    !(uint32_t)(diff = x ^ defl_load64(base + p - d)))
			goto match;
		/* p is a literal; look at p + 1 before writing it. */
		{
			const uint32_t c0 = (uint32_t)x & 0xff;
			x = defl_load64(base + p + 1);
			h = defl_hash4((uint32_t)x, DEFL_LVL0_HASH_BITS);
			d = (uint16_t)(p + 1 + bias - head[h]);
			head[h] = (uint16_t)(p + 1 + bias);
			if (d - 1 < min_u32(maxd, p + 1 - lo) &&
			    !(uint32_t)(diff = x ^ defl_load64(base + p + 1 - d))) {
				put_lit(&o, t, c0);
				p++;
				goto match;
			}
			const uint32_t c1 = (uint32_t)x & 0xff;
			const uint32_t n0 = t->lit_table_sizes[c0];
			put_bits(&o, t->lit_table[c0] | (uint64_t)t->lit_table[c1] << n0,
				 n0 + t->lit_table_sizes[c1]);
			p += 2;
			continue;
		}
	match: {
		/* base[p ..) matches base[p - d ..) in at least 4 bytes; diff is their first 8
		 * bytes xored. */
		uint32_t len;
		if (diff) {
			len = (uint32_t)__builtin_ctzll(diff) >> 3;
		} else {
			const uint32_t max = min_u32(DEFL_MAX_MATCH, end - 8 - p);
			len = 8 + defl_extend(base + p + 8, base + p - d + 8, max - 8);
		}
		put_match(&o, t, len, d);
		const uint32_t q = p + len;
		head[defl_hash4((uint32_t)(x >> 8), DEFL_LVL0_HASH_BITS)] = (uint16_t)(p + 1 + bias);
		head[defl_hash4((uint32_t)(x >> 16), DEFL_LVL0_HASH_BITS)] = (uint16_t)(p + 2 + bias);
		const uint64_t y = defl_load64(base + q - 2);
		head[defl_hash4((uint32_t)y, DEFL_LVL0_HASH_BITS)] = (uint16_t)(q - 2 + bias);
		head[defl_hash4((uint32_t)(y >> 8), DEFL_LVL0_HASH_BITS)] = (uint16_t)(q - 1 + bias);
		p = q;
	}
	}

	/* The tail: one symbol at a time, with every bound checked. */
	while (p < stop && oend - o.out >= 16) {
		if (p >= hend) {
			put_lit(&o, t, base[p]);
			p++;
			continue;
		}
		const uint32_t x = defl_load32(base + p);
		const uint32_t h = defl_hash4(x, DEFL_LVL0_HASH_BITS);
		const uint32_t d = (uint16_t)(p + bias - head[h]);
		head[h] = (uint16_t)(p + bias);
		if (d - 1 < min_u32(maxd, p - lo) && defl_load32(base + p - d) == x) {
			const uint32_t max = min_u32(DEFL_MAX_MATCH, end - p) - 4;
			const uint32_t len = 4 + defl_extend(base + p + 4, base + p - d + 4, max);
			put_match(&o, t, len, d);
			const uint32_t q = p + len;
			const uint32_t r[4] = { p + 1, p + 2, q - 2, q - 1 };
			for (int i = 0; i < 4; i++)
				if (r[i] < hend)
					enter(head, base, r[i], bias);
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

void defl_lvl0_insert(uint16_t *head, const struct defl_win *w, uint32_t from, uint32_t to)
{
	const uint32_t hend = w->end > 3 ? w->end - 3 : 0;
	for (uint32_t q = from; q < to && q < hend; q++)
		enter(head, w->base, q, w->bias);
}
