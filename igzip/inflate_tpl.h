/* The Huffman block decoder, instantiated once per instruction set (inflate_base.c,
 * x86/inflate_avx2.c). Parameters, #undef'd at the end:
 *   INF_FN      name of the function to define (an inf_block_fn)
 *   INF_CHUNK   bytes a match copy moves per step when the distance allows: 16 or 32
 *
 * It decodes symbols until the end of the block (INF_EOB), until the input cannot complete the
 * next symbol (INF_NEED_IN) or the output cannot hold it (INF_NEED_OUT), or an error. A symbol is
 * consumed only when it is wholly decoded and written, so a stop leaves the reader at a symbol
 * boundary. The fast loop runs while at least INF_IN_MARGIN input bytes and INF_OUT_MARGIN output
 * bytes remain; it reads whole 8-byte words and lets match copies run up to INF_CHUNK - 1 bytes
 * past the match. The careful loop finishes near the ends, never touching a byte outside them.
 */
#include "inflate_internal.h"

#ifndef INF_TPL_ONCE
#define INF_TPL_ONCE
#define INF_IN_MARGIN 16
#define INF_OUT_MARGIN (3 + 258 + 32)
#define INF_LMASK ((1u << INF_LITLEN_BITS) - 1)
#define INF_DMASK ((1u << INF_DIST_BITS) - 1)
#define INF_CAT2(a, b) a##b
#define INF_CONCAT(a, b) INF_CAT2(a, b)
#define INF_EXTRA(e, bb) ((uint32_t)(((bb) & ((1ull << ((e)&63)) - 1)) >> (((e) >> 8) & 15)))
#endif

/* Match copy where the fast loop's margin allows overrun. dist >= 1, out - dist >= buffer. */
static inline __attribute__((always_inline)) uint8_t *
INF_CONCAT(copy_match_, INF_FN)(uint8_t *out, uint32_t dist, uint32_t len)
{
	uint8_t *end = out + len;
	const uint8_t *src = out - dist;
	if (dist >= INF_CHUNK) {
		do {
			uint8_t tmp[INF_CHUNK];
			memcpy(tmp, src, INF_CHUNK);
			memcpy(out, tmp, INF_CHUNK);
			out += INF_CHUNK;
			src += INF_CHUNK;
		} while (out < end);
	} else if (INF_CHUNK > 16 && dist >= 16) {
		do {
			uint8_t tmp[16];
			memcpy(tmp, src, 16);
			memcpy(out, tmp, 16);
			out += 16;
			src += 16;
		} while (out < end);
	} else if (dist >= 8) {
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
		/* A period of 2..7 bytes: build 16 bytes of the pattern and store it at steps of the
		 * largest multiple of the period that fits. */
		uint8_t pat[16];
		for (unsigned i = 0; i < dist; i++)
			pat[i] = src[i];
		for (unsigned i = dist; i < 16; i++)
			pat[i] = pat[i - dist];
		unsigned step = 16 - 16 % dist;
		do {
			memcpy(out, pat, 16);
			out += step;
		} while (out < end);
	}
	return end;
}

int INF_FN(struct inf_ctx *c)
{
	const uint8_t *in = c->br.p;
	const uint8_t *const in_end = c->br.end;
	uint64_t bb = c->br.buf;
	unsigned bits = c->br.bits;
	uint8_t *out = c->out;
	uint8_t *const out_end = c->out_end;
	uint8_t *const out_begin = c->out_begin;
	const uint32_t *const lit = c->t->litlen;
	const uint32_t *const dtab = c->t->dist;
	int ret;
	uint32_t e, d, len, dist;

#define INF_REFILL()                                                                               \
	do {                                                                                       \
		bb |= inf_load64(in) << bits;                                                      \
		in += (63 - bits) >> 3;                                                            \
		bits |= 56;                                                                        \
	} while (0)
#define INF_CONSUME(n)                                                                             \
	do {                                                                                       \
		bb >>= (n);                                                                        \
		bits -= (n);                                                                       \
	} while (0)

	if (in_end - in >= INF_IN_MARGIN && out_end - out >= INF_OUT_MARGIN) {
		const uint8_t *const in_lim = in_end - INF_IN_MARGIN;
		uint8_t *const out_lim = out_end - INF_OUT_MARGIN;
		/* The next entry is looked up before the current match is copied, and carried. */
		INF_REFILL();
		e = lit[bb & INF_LMASK];
		for (;;) {
			if ((int32_t)e < 0) {
				/* Up to three literals on one refill: 56 bits cover three 15-bit codes
				 * and the next lookup. */
				INF_CONSUME(e & 63);
				*out++ = (uint8_t)(e >> 16);
				e = lit[bb & INF_LMASK];
				if ((int32_t)e < 0) {
					INF_CONSUME(e & 63);
					*out++ = (uint8_t)(e >> 16);
					e = lit[bb & INF_LMASK];
					if ((int32_t)e < 0) {
						INF_CONSUME(e & 63);
						*out++ = (uint8_t)(e >> 16);
						INF_REFILL();
						e = lit[bb & INF_LMASK];
						goto next;
					}
				}
				INF_REFILL();
			}
			if (__builtin_expect(e & (INF_E_SUB | INF_E_EOB | INF_E_INVALID), 0)) {
				if (e & INF_E_SUB) {
					INF_CONSUME(e & 63);
					e = lit[(e >> 16) + (bb & ((1u << ((e >> 8) & 15)) - 1))];
					if ((int32_t)e < 0) {
						INF_CONSUME(e & 63);
						*out++ = (uint8_t)(e >> 16);
						INF_REFILL();
						e = lit[bb & INF_LMASK];
						goto next;
					}
				}
				if (e & INF_E_INVALID) {
					ret = ISAL_INVALID_SYMBOL;
					goto done;
				}
				if (e & INF_E_EOB) {
					INF_CONSUME(e & 63);
					ret = INF_EOB;
					goto done;
				}
			}
			len = (e >> 16) + INF_EXTRA(e, bb);
			INF_CONSUME(e & 63);
			d = dtab[bb & INF_DMASK];
			if (__builtin_expect(d & (INF_E_SUB | INF_E_INVALID), 0)) {
				if (d & INF_E_SUB) {
					INF_CONSUME(d & 63);
					d = dtab[(d >> 16) + (bb & ((1u << ((d >> 8) & 15)) - 1))];
				}
				if (d & INF_E_INVALID) {
					ret = ISAL_INVALID_SYMBOL;
					goto done;
				}
			}
			dist = (d >> 16) + INF_EXTRA(d, bb);
			INF_CONSUME(d & 63);
			INF_REFILL();
			e = lit[bb & INF_LMASK];
			if (__builtin_expect(dist > (size_t)(out - out_begin), 0)) {
				ret = inf_far_copy(c, out, dist, len);
				if (ret)
					goto done;
				out += len;
			} else {
				out = INF_CONCAT(copy_match_, INF_FN)(out, dist, len);
			}
		next:
			if (!(in < in_lim && out < out_lim))
				break;
		}
	}

	/* The careful loop: byte-wise refill, nothing consumed until the symbol is complete. */
	for (;;) {
		while (bits <= 55 && in < in_end) {
			bb |= (uint64_t)*in++ << bits;
			bits += 8;
		}
		e = lit[bb & INF_LMASK];
		unsigned root = 0;
		uint64_t lb = bb;
		if (e & INF_E_SUB) {
			root = e & 63;
			lb = bb >> root;
			e = lit[(e >> 16) + (lb & ((1u << ((e >> 8) & 15)) - 1))];
		}
		unsigned need = root + (e & 63);
		if (need > bits) {
			ret = INF_NEED_IN;
			goto done;
		}
		if ((int32_t)e < 0) {
			if (out >= out_end) {
				ret = INF_NEED_OUT;
				goto done;
			}
			*out++ = (uint8_t)(e >> 16);
			INF_CONSUME(need);
			continue;
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
		INF_CONSUME(need + dneed);
	}

done:
	c->br.p = in;
	c->br.buf = bb;
	c->br.bits = bits;
	c->out = out;
	return ret;
#undef INF_REFILL
#undef INF_CONSUME
}

#undef INF_FN
#undef INF_CHUNK
