/* The Huffman block decoder, instantiated once per instruction set (inflate_base.c,
 * x86/inflate_avx2.c). Parameters, #undef'd at the end:
 *   INF_FN      name of the function to define (an inf_block_fn)
 *   INF_CHUNK   bytes a match copy moves per step when the distance allows: 16
 *   INF_COPY_CHUNK(dst, src)   copy INF_CHUNK bytes (the ranges do not overlap)
 *   INF_COPY16(dst, src)       copy 16 bytes (only used when INF_CHUNK > 16)
 *   INF_COPY_SHORT(out, src, end, dist)   fill [out, end) from src = out - dist, dist below
 *               min(INF_CHUNK, 16); stores may pass end by up to 15 bytes
 *   INF_EXTRA(e, sb)   optional: the extra-bits extraction (default: portable shifts)
 *   INF_COPY_2CHUNKS(dst, src)   optional: load 2 * INF_CHUNK bytes, then store them
 *   INF_DEXTRA(d, sb)  optional: the same for a valid distance entry (default: INF_EXTRA)
 *   INF_COPY_WIDE(dst, src, end)   optional: fill [dst, end) from src in steps of 2 * INF_CHUNK
 *               bytes (src at least that far back; stores may pass end as the chunk copies' do), the
 *               rest of a long match
 *
 * It decodes symbols until the end of the block (INF_EOB), until the input cannot complete the
 * next symbol (INF_NEED_IN) or the output cannot hold it (INF_NEED_OUT), or an error. A symbol is
 * consumed only when it is wholly decoded and written, so a stop leaves the reader at a symbol
 * boundary. The fast loop runs while at least INF_IN_MARGIN input bytes and INF_OUT_MARGIN output
 * bytes remain and out is below out_soft; it reads whole 8-byte words and lets match copies run up
 * to 2 * INF_CHUNK - 1 bytes past the match (INF_OUT_MARGIN is sized for INF_CHUNK 16). Stopped at
 * out_soft, the decoder returns INF_NEED_OUT; otherwise the careful loop finishes near the ends,
 * never touching a byte outside them.
 */
#include "inflate_internal.h"

#ifndef INF_TPL_ONCE
#define INF_TPL_ONCE
#define INF_DMASK        ((1u << INF_DIST_BITS) - 1)
/* The unified step tests a source with out - distance < out_begin as addresses, which cannot wrap
 * once out_begin lies above the longest distance it computes (32768 + 4159): true of every
 * mapped address on Linux (vm.mmap_min_addr), made sure of here for any other system. */
#define INF_UNIFIED_ADDR_MIN 65536u
#define INF_CAT2(a, b)   a##b
#define INF_CONCAT(a, b) INF_CAT2(a, b)

/* Match copy for a distance below 16 (portable): 8-byte steps from distance 8, one byte
 * broadcast for distance 1, otherwise 16 bytes of the pattern stored at steps of its period. */
static inline __attribute__((always_inline)) void
inf_copy_short_portable(uint8_t *out, const uint8_t *src, uint8_t *end, uint32_t dist)
{
	if (dist >= 8) {
		do {
			uint64_t v;
			memcpy(&v, src, 8);
			memcpy(out, &v, 8);
			out += 8;
			src += 8;
		} while (out < end);
	} else if (dist == 1) {
		uint64_t v = 0x0101010101010101ull * *src;
		do {
			memcpy(out, &v, 8);
			memcpy(out + 8, &v, 8);
			out += 16;
		} while (out < end);
	} else {
		uint8_t pat[16];
		for (unsigned i = 0; i < dist; i++)
			pat[i] = src[i];
		for (unsigned i = dist; i < 16; i++)
			pat[i] = pat[i - dist];
		unsigned step = inf_period_step[dist];
		do {
			memcpy(out, pat, 16);
			out += step;
		} while (out < end);
	}
}

/* How far out may go before the fast loop looks at its margins again: each step writes at least
 * one byte and reads at most INF_STEP_IN, so until out passes the bound every step starts with
 * both margins kept. out itself when either margin is used up. */
static inline uint8_t *inf_fast_bound(const uint8_t *in, const uint8_t *in_lim, uint8_t *out,
                                      uint8_t *out_lim)
{
	if (out >= out_lim || in >= in_lim)
		return out;
	const size_t steps = (size_t)(in_lim - in) / INF_STEP_IN;
	const size_t room = (size_t)(out_lim - out);
	return out + (steps < room ? steps : room);
}
#endif
#ifndef INF_DEXTRA
#define INF_DEXTRA(d, sb) INF_EXTRA(d, sb)
#endif
#ifndef INF_COPY_2CHUNKS
/* Load 2 * INF_CHUNK bytes from src, then store them at dst. */
#define INF_COPY_2CHUNKS(dst, src)                                                                 \
	do {                                                                                       \
		uint8_t c2a_[INF_CHUNK], c2b_[INF_CHUNK];                                          \
		memcpy(c2a_, (src), INF_CHUNK);                                                    \
		memcpy(c2b_, (src) + INF_CHUNK, INF_CHUNK);                                        \
		memcpy((dst), c2a_, INF_CHUNK);                                                    \
		memcpy((dst) + INF_CHUNK, c2b_, INF_CHUNK);                                        \
	} while (0)
#endif
#ifndef INF_EXTRA
/* The extra bits of entry e (<= 13 of them, after its code) in the bits sb it was decoded from. */
#define INF_EXTRA(e, sb) ((uint32_t)(((sb) & ((1ull << ((e)&63)) - 1)) >> (((e) >> 8) & 15)))
#endif

/* Match copy where the fast loop's margin allows overrun: stores may run up to 2 * INF_CHUNK - 1
 * bytes past the match, loads up to 15 bytes past out. dist >= 1, out - dist >= buffer. */
static inline __attribute__((always_inline)) uint8_t *
INF_CONCAT(copy_match_, INF_FN)(uint8_t *out, uint32_t dist, uint32_t len)
{
	uint8_t *const end = out + len;
	const uint8_t *src = out - dist;
	if (__builtin_expect(dist >= INF_CHUNK, 1)) {
		/* Two chunks unconditionally (most matches are shorter), both loaded before either
		 * is stored: a load of the second chunk after the first store would overlap that
		 * store partially when dist < 2 * INF_CHUNK, which store forwarding cannot serve.
		 * The second chunk is then stale where it lies inside the match itself, which only
		 * matters for a match longer than one chunk: the loop redoes it. */
		if (len <= INF_CHUNK) {
			INF_COPY_CHUNK(out, src);
			return end;
		}
		INF_COPY_2CHUNKS(out, src);
		if (__builtin_expect(len > 2 * INF_CHUNK || dist < 2 * INF_CHUNK, 0)) {
#ifdef INF_COPY_WIDE
			/* A long match from at least two chunks back goes on in double chunks
			 * (the first two are in place). */
			if (dist >= 2 * INF_CHUNK) {
				INF_COPY_WIDE(out + 2 * INF_CHUNK, src + 2 * INF_CHUNK, end);
				return end;
			}
#endif
			out += INF_CHUNK;
			src += INF_CHUNK;
			do {
				INF_COPY_CHUNK(out, src);
				out += INF_CHUNK;
				src += INF_CHUNK;
			} while (out < end);
		}
		return end;
	}
#if INF_CHUNK > 16
	if (dist >= 16) {
		do {
			INF_COPY16(out, src);
			out += 16;
			src += 16;
		} while (out < end);
		return end;
	}
#endif
	INF_COPY_SHORT(out, src, end, dist);
	return end;
}

/* The decoder, with the fast loop in one of three forms (loop: INF_LOOP_*, INF_MIXED_LO): plain,
 * mixed (a literal entry a step without a branch) or unified (a literal or match entry a step
 * without a branch on which). */
static inline __attribute__((always_inline)) int INF_CONCAT(INF_FN, _loop)(struct inf_ctx *c,
                                                                           const int loop)
{
	const int mixed = loop == INF_LOOP_MIXED;
	const uint8_t *in = c->br.p;
	const uint8_t *const in_end = c->br.end;
	uint64_t bb = c->br.buf;
	uint32_t bits = c->br.bits;
	uint8_t *out = c->out;
	uint8_t *const out_end = c->out_end;
	uint8_t *const out_soft = c->out_soft;
	uint8_t *const out_begin = c->out_begin;
	const uint32_t *const lit = c->t->litlen;
	const uint32_t lmask = c->t->lmask;
	const uint32_t *const dtab = c->t->dist;
	int ret;
	uint32_t e, d, len, dist;

	/* In the fast loop only the low 6 bits of `bits` count (entries are subtracted whole:
	 * their low 6 bits are the bits to consume, bits 6-7 are zero); the careful loop gets it
	 * masked. */
#define INF_REFILL()                                                                               \
	do {                                                                                       \
		bb |= inf_load64(in) << (bits & 63);                                               \
		in += 7 - ((bits >> 3) & 7);                                                       \
		bits |= 56;                                                                        \
	} while (0)
#define INF_CONSUME(n)                                                                             \
	do {                                                                                       \
		bb >>= (n)&63;                                                                     \
		bits -= (n);                                                                       \
	} while (0)
/* One literal entry's one or two literals: two bytes stored, the count advanced. */
#define INF_PUT_LITS(e)                                                                            \
	do {                                                                                       \
		stoa_store_le16(out, (uint16_t)((e) >> 8));                                        \
		out += (size_t)((e) >> 30) - 1;                                                    \
	} while (0)

	if (in_end - in >= INF_IN_MARGIN && out_end - out >= INF_OUT_MARGIN && out < out_soft) {
		const uint8_t *const in_lim = in_end - INF_IN_MARGIN;
		uint8_t *const out_lim =
		    out_soft < out_end - INF_OUT_MARGIN ? out_soft : out_end - INF_OUT_MARGIN;
		/* Bit budget per iteration: the refill at the top leaves >= 56 bits counted (64
		 * real stream bits in bb). A literal entry (one or two literals) from the root
		 * table takes <= 12, so three of them and a look at the next entry fit; a length
		 * (<= 20 with its extra bits) and a distance (<= 28) take <= 48 and leave 16 real
		 * bits to look up the next entry; a match entry takes <= 12 + 13. Each entry is
		 * looked up before the bits it needs are refilled, which keeps the refill off the
		 * critical path. */
		INF_REFILL();
		e = lit[bb & lmask];
		uint8_t *lim = inf_fast_bound(in, in_lim, out, out_lim);
		do {
			uint64_t sb;
			if (loop == INF_LOOP_UNIFIED) {
				/* One entry, literal or match alike, with no select between them:
				 * its length and distance computed either way (inf_dist_base gives a
				 * literal a distance of 64 to 4159, output long written), 32 bytes
				 * copied from out - distance, then the entry's two literal bytes
				 * stored at out plus the length masked to 0: over the copy for a
				 * literal, just past a match, where the next step writes; out
				 * advances by the literal count or the length (selects cost about 10
				 * instructions a step: 1.04-1.10x without). What still branches
				 * predicts well: other entries (the general path), a source before
				 * out_begin or a distance below 32 (the general copy; a literal there
				 * is stored alone), a length above 32. The source test cannot wrap
				 * (INF_UNIFIED_ADDR_MIN). A step takes <= 12 + 13 bits after its
				 * refill, the lookup the next 12. */
				if (__builtin_expect(!(e & (INF_E_LIT | INF_E_MATCH)), 0))
					goto general;
				INF_REFILL();
				sb = bb;
				INF_CONSUME(e);
				const uint32_t m = (uint32_t)((int32_t)e >> 31);
				dist = inf_dist_base[e >> 25] + INF_DEXTRA(e, sb);
				len = (e >> 16) & 511;
				const uint32_t lenm = len & ~m;
				/* A literal entry's bits 30-31 are its count + 1, a match's 0. */
				const uint32_t adv = lenm + (e >> 30) + m;
				const uint16_t lits = (uint16_t)(e >> 8);
				e = lit[bb & lmask];
				if (__builtin_expect(((uintptr_t)out - dist < (uintptr_t)out_begin) |
				                         (dist - 1u < 31u),
				                     0)) {
					if (!m)
						goto copy;
					stoa_store_le16(out, lits);
					out += adv;
					continue;
				}
				const uint8_t *const src = out - dist;
				INF_COPY_2CHUNKS(out, src);
				stoa_store_le16(out + lenm, lits);
				/* The rest of a long match here, after the first 32 bytes: sent to
				 * the general copy with the cases above, decoding ran 2-4% slower. */
				if (__builtin_expect(adv > 32u, 0)) {
#ifdef INF_COPY_WIDE
					INF_COPY_WIDE(out + 32, src + 32, out + adv);
#else
					for (uint32_t k = 32; k < adv; k += 32)
						INF_COPY_2CHUNKS(out + k, src + k);
#endif
				}
				out += adv;
				continue;
			}
		general:
			if (mixed) {
				/* A literal entry first, without a branch: its two bytes are stored
				 * and its bits consumed only as far as it is one (m is 0 for any
				 * other entry, whose stored bytes the match or the next literal
				 * overwrites, and which the lookup then finds again). It takes
				 * <= 12 of the >= 24 real bits every step of this loop leaves
				 * (the length-then-distance path refills at its end), and the
				 * lookup the next 12. */
				const uint32_t m = (uint32_t)((int32_t)e >> 31);
				stoa_store_le16(out, (uint16_t)(e >> 8));
				out += (size_t)(((e >> 30) - 1) & m);
				INF_CONSUME(e & m);
				e = lit[bb & lmask];
			}
			INF_REFILL();
			sb = bb;
			INF_CONSUME(e);
			if ((int32_t)e < 0) {
				INF_PUT_LITS(e);
				e = lit[bb & lmask];
				if ((int32_t)e >= 0)
					goto after_lits;
				INF_CONSUME(e);
				INF_PUT_LITS(e);
				e = lit[bb & lmask];
				if ((int32_t)e >= 0)
					goto after_lits;
				INF_CONSUME(e);
				INF_PUT_LITS(e);
				e = lit[bb & lmask];
				continue;
			after_lits:
				/* A length (or rarer entry) after one or two literals goes on to the
				 * match without another trip through the loop's tests: a refill
				 * restores the budget the match needs. */
				INF_REFILL();
				sb = bb;
				INF_CONSUME(e);
			}
			if (__builtin_expect(e & INF_E_MATCH, 1)) {
				/* Length and distance from one entry. */
				len = (e >> 16) & 511;
				dist = inf_dist_base[(e >> 25) & 31] + INF_DEXTRA(e, sb);
				goto have_match;
			}
			if (__builtin_expect(e & (INF_E_SUB | INF_E_EOB | INF_E_INVALID), 0)) {
				if (e & INF_E_SUB) {
					e = lit[(e >> 16) + (bb & ((1u << ((e >> 8) & 15)) - 1))];
					sb = bb;
					INF_CONSUME(e);
					if ((int32_t)e < 0) {
						*out++ = (uint8_t)(e >> 8);
						e = lit[bb & lmask];
						continue;
					}
				}
				if (e & INF_E_INVALID) {
					ret = ISAL_INVALID_SYMBOL;
					goto done;
				}
				if (e & INF_E_EOB) {
					ret = INF_EOB;
					goto done;
				}
				len = (e >> 16) + INF_EXTRA(e, sb);
			} else {
				/* A root length entry carries its extra bits resolved. */
				len = e >> 16;
			}
			d = dtab[bb & INF_DMASK];
			sb = bb;
			INF_CONSUME(d);
			if (__builtin_expect(d & (INF_E_SUB | INF_E_INVALID), 0)) {
				if (d & INF_E_SUB) {
					d = dtab[(d >> 16) + (bb & ((1u << ((d >> 8) & 15)) - 1))];
					sb = bb;
					INF_CONSUME(d);
				}
				if (d & INF_E_INVALID) {
					ret = ISAL_INVALID_SYMBOL;
					goto done;
				}
			}
			dist = (d >> 16) + INF_DEXTRA(d, sb);
			/* Up to 48 bits are gone; the mixed step needs 24 (the third refill of a
			 * step at most). */
			if (mixed)
				INF_REFILL();
		have_match:
			e = lit[bb & lmask];
		copy:
			if (__builtin_expect(dist > (size_t)(out - out_begin), 0)) {
				ret = inf_far_copy(c, out, dist, len);
				if (ret)
					goto done;
				out += len;
			} else {
				out = INF_CONCAT(copy_match_, INF_FN)(out, dist, len);
			}
		} while (out < lim || (lim = inf_fast_bound(in, in_lim, out, out_lim)) > out);
	}
	bits &= 63;
	if (out >= out_soft && out_soft != out_end) {
		ret = INF_NEED_OUT;
		goto done;
	}

	/* The careful loop: byte-wise refill, nothing consumed until the symbol is complete. */
	for (;;) {
		while (bits <= 55 && in < in_end) {
			bb |= (uint64_t)*in++ << bits;
			bits += 8;
		}
		e = lit[bb & lmask];
		unsigned root = 0;
		uint64_t lb = bb;
		if ((e & (INF_E_LIT | INF_E_SUB)) == INF_E_SUB) {
			root = e & 63;
			lb = bb >> root;
			e = lit[(e >> 16) + (lb & ((1u << ((e >> 8) & 15)) - 1))];
		}
		unsigned need = root + (e & 63);
		if ((int32_t)e < 0) {
			unsigned n = (e >> 30) - 1;
			/* A pair that the input or the output cannot take whole gives its first. */
			if (n == 2 && (need > bits || out_end - out < 2)) {
				need = (e >> 24) & 15;
				n = 1;
			}
			if (need > bits) {
				ret = INF_NEED_IN;
				goto done;
			}
			if (out >= out_end) {
				ret = INF_NEED_OUT;
				goto done;
			}
			out[0] = (uint8_t)(e >> 8);
			if (n == 2)
				out[1] = (uint8_t)(e >> 16);
			out += n;
			INF_CONSUME(need);
			continue;
		}
		if (need > bits) {
			ret = INF_NEED_IN;
			goto done;
		}
		if (e & INF_E_MATCH) {
			/* Length and distance in one root entry (need is all of their bits). */
			len = (e >> 16) & 511;
			dist = inf_dist_base[(e >> 25) & 31] + INF_EXTRA(e, lb);
			goto careful_copy;
		}
		if (e & INF_E_INVALID) {
			ret = ISAL_INVALID_SYMBOL;
			goto done;
		}
		if (e & INF_E_EOB) {
			INF_CONSUME(need);
			ret = INF_EOB;
			goto done;
		}
		len = (e >> 16) + INF_EXTRA(e, lb);
		uint64_t bb2 = bb >> need;
		unsigned avail2 = bits - need;
		d = dtab[bb2 & INF_DMASK];
		if (d & INF_E_SUB) {
			unsigned rb = d & 63;
			d = dtab[(d >> 16) + ((bb2 >> rb) & ((1u << ((d >> 8) & 15)) - 1))];
			bb2 >>= rb;
			avail2 -= rb < avail2 ? rb : avail2;
			need += rb;
			if (need > bits) {
				ret = INF_NEED_IN;
				goto done;
			}
		}
		unsigned dneed = d & 63;
		if (dneed > avail2) {
			ret = INF_NEED_IN;
			goto done;
		}
		if (d & INF_E_INVALID) {
			ret = ISAL_INVALID_SYMBOL;
			goto done;
		}
		dist = (d >> 16) + INF_EXTRA(d, bb2);
		need += dneed;
	careful_copy:
		if (len > (size_t)(out_end - out)) {
			ret = INF_NEED_OUT;
			goto done;
		}
		if (dist > (size_t)(out - out_begin)) {
			ret = inf_far_copy(c, out, dist, len);
			if (ret)
				goto done;
		} else {
			const uint8_t *src = out - dist;
			for (uint32_t k = 0; k < len; k++)
				out[k] = src[k];
		}
		out += len;
		INF_CONSUME(need);
	}

done:
	c->br.p = in;
	c->br.buf = bb;
	c->br.bits = bits & 63;
	c->out = out;
	return ret;
#undef INF_REFILL
#undef INF_CONSUME
#undef INF_PUT_LITS
}

int INF_FN(struct inf_ctx *c)
{
	if (c->t->loop == INF_LOOP_UNIFIED) {
		/* (As one condition with the loop test, decoding ran 1-3% slower: code layout.) */
		if (__builtin_expect((uintptr_t)c->out_begin < INF_UNIFIED_ADDR_MIN, 0))
			return INF_CONCAT(INF_FN, _loop)(c, INF_LOOP_PLAIN);
		return INF_CONCAT(INF_FN, _loop)(c, INF_LOOP_UNIFIED);
	}
	if (c->t->loop == INF_LOOP_MIXED)
		return INF_CONCAT(INF_FN, _loop)(c, INF_LOOP_MIXED);
	return INF_CONCAT(INF_FN, _loop)(c, INF_LOOP_PLAIN);
}

#undef INF_FN
#undef INF_CHUNK
#undef INF_COPY_CHUNK
#undef INF_COPY16
#undef INF_COPY_SHORT
#undef INF_EXTRA
#undef INF_COPY_2CHUNKS
#undef INF_DEXTRA
#undef INF_COPY_WIDE
