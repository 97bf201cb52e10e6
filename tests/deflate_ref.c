/* An independent reading and writing of RFC 1951 for the tests; see deflate_ref.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "deflate_ref.h"
#include "testutil.h"

/* RFC 1951 section 3.2.5: the base and extra bits of each length and distance symbol. */
const uint16_t ref_len_base[29] = { 3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
	                            31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
const uint8_t ref_len_extra[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
	                            2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
const uint16_t ref_dist_base[30] = {
	1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
	193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577
};
const uint8_t ref_dist_extra[30] = { 0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
	                             6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };
/* Section 3.2.7: the order the code-length code's lengths are sent in. */
const uint8_t ref_clen_order[19] = { 16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
	                             11, 4,  12, 3, 13, 2, 14, 1, 15 };

unsigned ref_getbits(struct ref_bitreader *b, int n)
{
	uint32_t v = b->bits;
	while (b->nbits < n) {
		if (b->pos >= b->len) {
			b->err = 1;
			return 0;
		}
		v |= (uint32_t)b->p[b->pos++] << b->nbits;
		b->nbits += 8;
	}
	b->bits = (uint32_t)((uint64_t)v >> n);
	b->nbits -= n;
	return v & ((1u << n) - 1);
}

int ref_code_build(struct ref_code *h, const uint8_t *lens, int n)
{
	uint16_t next[16];
	memset(h->count, 0, sizeof(h->count));
	for (int i = 0; i < n; i++)
		h->count[lens[i]]++;
	h->count[0] = 0;
	int room = 1;
	for (int l = 1; l < 16; l++) {
		room = room * 2 - h->count[l];
		if (room < 0)
			return -1;
	}
	next[1] = 0;
	for (int l = 1; l < 15; l++)
		next[l + 1] = (uint16_t)(next[l] + h->count[l]);
	for (int i = 0; i < n; i++)
		if (lens[i])
			h->symbol[next[lens[i]]++] = (uint16_t)i;
	return 0;
}

/* Codes are sent most significant bit first: grow the code a bit at a time and compare with the
 * first code of each length. */
int ref_decode(struct ref_bitreader *b, const struct ref_code *h)
{
	int code = 0, first = 0, index = 0;
	for (int l = 1; l < 16; l++) {
		code |= (int)ref_getbits(b, 1);
		if (b->err)
			return -1;
		int c = h->count[l];
		if (code - first < c)
			return h->symbol[index + code - first];
		index += c;
		first = (first + c) << 1;
		code <<= 1;
	}
	return -1;
}

long ref_inflate(const uint8_t *in, size_t in_len, uint8_t *out, size_t hist_len, size_t out_cap,
                 struct ref_stats *st, const char **why)
{
	struct ref_bitreader b = { in, in_len, 0, 0, 0, 0 };
	struct ref_code lit, dist;
	uint8_t lens[320];
	size_t o = hist_len;
	int final = 0;
	memset(st, 0, sizeof(*st));
	*why = "ok";
	while (!final) {
		final = (int)ref_getbits(&b, 1);
		unsigned type = ref_getbits(&b, 2);
		if (b.err) {
			*why = "input ends in a block header";
			return -1;
		}
		if (type == 3) {
			*why = "block type 3";
			return -1;
		}
		st->blocks[type]++;
		if (type == 0) {
			b.bits = 0;
			b.nbits = 0;
			if (b.pos + 4 > b.len) {
				*why = "input ends in a stored block header";
				return -1;
			}
			unsigned n = b.p[b.pos] | (unsigned)b.p[b.pos + 1] << 8;
			unsigned nc = b.p[b.pos + 2] | (unsigned)b.p[b.pos + 3] << 8;
			b.pos += 4;
			if (n != (~nc & 0xffffu)) {
				*why = "stored block LEN != ~NLEN";
				return -1;
			}
			if (b.pos + n > b.len || o + n > out_cap) {
				*why = "stored block overruns input or output";
				return -1;
			}
			memcpy(out + o, b.p + b.pos, n);
			b.pos += n;
			o += n;
			continue;
		}
		if (type == 1) {
			int i = 0;
			for (; i < 144; i++)
				lens[i] = 8;
			for (; i < 256; i++)
				lens[i] = 9;
			for (; i < 280; i++)
				lens[i] = 7;
			for (; i < 288; i++)
				lens[i] = 8;
			ref_code_build(&lit, lens, 288);
			for (i = 0; i < 30; i++)
				lens[i] = 5;
			ref_code_build(&dist, lens, 30);
		} else {
			int nlit = (int)ref_getbits(&b, 5) + 257;
			int ndist = (int)ref_getbits(&b, 5) + 1;
			int nclen = (int)ref_getbits(&b, 4) + 4;
			uint8_t clens[19] = { 0 };
			for (int i = 0; i < nclen; i++)
				clens[ref_clen_order[i]] = (uint8_t)ref_getbits(&b, 3);
			struct ref_code cl;
			if (b.err || nlit > 286 || ndist > 30 ||
			    ref_code_build(&cl, clens, 19) < 0) {
				*why = "bad dynamic header counts or code-length code";
				return -1;
			}
			int i = 0;
			while (i < nlit + ndist) {
				int sym = ref_decode(&b, &cl);
				int rep = 0;
				uint8_t val = 0;
				if (sym < 0) {
					*why = "bad code-length symbol";
					return -1;
				}
				if (sym < 16) {
					lens[i++] = (uint8_t)sym;
					continue;
				}
				if (sym == 16) {
					if (i == 0) {
						*why = "repeat with no previous length";
						return -1;
					}
					val = lens[i - 1];
					rep = 3 + (int)ref_getbits(&b, 2);
				} else if (sym == 17) {
					rep = 3 + (int)ref_getbits(&b, 3);
				} else {
					rep = 11 + (int)ref_getbits(&b, 7);
				}
				if (b.err || i + rep > nlit + ndist) {
					*why = "code lengths overrun the header";
					return -1;
				}
				while (rep--)
					lens[i++] = val;
			}
			if (lens[256] == 0) {
				*why = "no end-of-block code";
				return -1;
			}
			if (ref_code_build(&lit, lens, nlit) < 0 ||
			    ref_code_build(&dist, lens + nlit, ndist) < 0) {
				*why = "over-subscribed literal/length or distance code";
				return -1;
			}
		}
		for (;;) {
			int sym = ref_decode(&b, &lit);
			if (sym < 0) {
				*why = "bad literal/length code";
				return -1;
			}
			if (sym < 256) {
				if (o >= out_cap) {
					*why = "output overrun";
					return -1;
				}
				out[o++] = (uint8_t)sym;
				continue;
			}
			if (sym == 256)
				break;
			sym -= 257;
			if (sym >= 29) {
				*why = "length symbol 286/287";
				return -1;
			}
			unsigned len = ref_len_base[sym] + ref_getbits(&b, ref_len_extra[sym]);
			int ds = ref_decode(&b, &dist);
			if (ds < 0 || ds >= 30) {
				*why = "bad distance code";
				return -1;
			}
			unsigned d = ref_dist_base[ds] + ref_getbits(&b, ref_dist_extra[ds]);
			if (b.err) {
				*why = "input ends inside a match";
				return -1;
			}
			if (d > o) {
				*why = "distance before the start of the data";
				return -1;
			}
			if (o + len > out_cap) {
				*why = "output overrun";
				return -1;
			}
			if (d > st->max_dist)
				st->max_dist = d;
			if (len > st->max_len)
				st->max_len = len;
			st->n_len258 += len == 258;
			st->n_dist32768 += d == 32768;
			for (unsigned k = 0; k < len; k++, o++)
				out[o] = out[o - d];
		}
	}
	st->in_used = b.pos;
	return (long)(o - hist_len);
}

size_t ref_bits_read(const struct ref_bitreader *b)
{
	return b->pos * 8 - (size_t)b->nbits;
}

void ref_putbits(struct ref_bitwriter *w, uint32_t v, unsigned n)
{
	w->acc |= (uint64_t)v << w->cnt;
	w->cnt += n;
	while (w->cnt >= 8) {
		assert_true(w->n < w->cap);
		w->buf[w->n++] = (uint8_t)w->acc;
		w->acc >>= 8;
		w->cnt -= 8;
	}
}

void ref_putfixed(struct ref_bitwriter *w, unsigned sym)
{
	if (sym < 144)
		ref_putcode(w, 0x30 + sym, 8);
	else if (sym < 256)
		ref_putcode(w, 0x190 + sym - 144, 9);
	else if (sym < 280)
		ref_putcode(w, sym - 256, 7);
	else
		ref_putcode(w, 0xc0 + sym - 280, 8);
}

uint32_t ref_reverse(uint32_t code, unsigned len)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < len; i++)
		r |= ((code >> i) & 1) << (len - 1 - i);
	return r;
}

void ref_putcode(struct ref_bitwriter *w, uint32_t code, unsigned len)
{
	ref_putbits(w, ref_reverse(code, len), len);
}

size_t ref_flush(struct ref_bitwriter *w)
{
	if (w->cnt)
		ref_putbits(w, 0, 8 - w->cnt);
	return w->n;
}

void ref_canonical(const uint8_t *lens, int n, uint16_t *codes)
{
	int count[16] = { 0 }, next[16];
	for (int i = 0; i < n; i++)
		count[lens[i]]++;
	count[0] = 0;
	int code = 0;
	for (int l = 1; l < 16; l++) {
		code = (code + count[l - 1]) << 1;
		next[l] = code;
	}
	for (int i = 0; i < n; i++)
		codes[i] = lens[i] ? (uint16_t)next[lens[i]]++ : 0;
}
