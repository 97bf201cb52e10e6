/* Block writing: a table's header, and tokens to bits (the compressor's hot loop).
 *
 * This file is also the template of ISA-specific token writers: x86/huff_write_avx2.c defines
 * DEFL_WRITE_TOKENS_FN to its function's name and DEFL_WRITE_TOKENS_RUN to a function that writes
 * a leading run of tokens with the merged tables faster than the pair loop below, then includes
 * this file:
 *   size_t DEFL_WRITE_TOKENS_RUN(const struct merged_tables *m, const uint32_t *tok, size_t n,
 *                                uint64_t *acc, uint32_t *cnt, uint8_t **out)
 * writes a prefix of tok[0 .. n) as PUT_BITS would (the same bits, fewer than 8 pending after
 * it; each 8-byte store at a pointer advanced at most TOKEN_MAX_BYTES per token before it) and
 * returns the prefix's length.
 */
#include "deflate_huff.h"

#ifndef DEFL_WRITE_TOKENS_FN
#define DEFL_WRITE_TOKENS_FN defl_write_tokens_portable
#define DEFL_WRITE_TOKENS_WITH_HEADER 1
#endif

#ifdef DEFL_WRITE_TOKENS_WITH_HEADER
void defl_write_header(struct BitBuf2 *b, const struct isal_hufftables *t, int final)
{
	uint32_t nbytes = t->deflate_hdr_count, extra = t->deflate_hdr_extra_bits & 7;
	/* A table from elsewhere may claim more than the array holds: never read past it. */
	if (nbytes >= ISAL_DEF_MAX_HDR_SIZE) {
		nbytes = ISAL_DEF_MAX_HDR_SIZE;
		extra = 0;
	}
	const uint8_t *h = t->deflate_hdr;
	uint32_t left = nbytes * 8 + extra;
	int first = 1;
	while (left > 0) {
		uint32_t n = left < 56 ? left : 56;
		uint64_t v = 0;
		for (uint32_t i = 0; i * 8 < n; i++)
			v |= (uint64_t)h[i] << (8 * i);
		v &= (n == 64 ? ~0ull : (1ull << n) - 1);
		if (first)
			v = (v & ~1ull) | (final ? 1 : 0);
		first = 0;
		bw_put(b, v, n);
		h += n / 8;
		left -= n;
	}
}
#endif

/* Room every token may need: a match is at most 15 + 5 + 15 + 13 = 48 bits, so k tokens move
 * the output pointer by at most 6k bytes, and each step stores 8 bytes at the pointer. */
enum { TOKEN_MAX_BYTES = 6, STORE_BYTES = 8, MIN_ROOM = 16 };

/* Below this many tokens (or room for them) the merged tables are not worth building. */
enum { MERGED_MIN_TOKENS = 64 };

/*
 * The merged tables the loop indexes without branches. Each entry is 64 bits: the code in the
 * high half, and counts placed so that adding a litlen entry to a distance entry gives, in bits
 * 0-5, where the distance's extra bits start and, in bits 8-13, the token's whole bit count
 * (shifts by an entry need no mask: x86 shifts use the low 6 bits of the count).
 *   ll[i]  litlen index i (0..512): code (a length's extra bits included) << 32 | n << 8 | n
 *   d[j]   j = token bits 8..15 (the extra value's low bit << 7 | distance symbol << 2 |
 *          litlen index >> 8; a whole byte, so a variant may load it from the token array),
 *          a match when the low two bits are 1 or 2: code << 32 | (code bits + extra bits) << 8
 *          | code bits; zero for a literal (j & 3 == 0), whose token has zero distance fields.
 * A token of litlen index 256 (not a valid token) would add distance symbol 0's code.
 */
struct merged_tables {
	uint64_t ll[513];
	uint64_t d[256];
};

static void merge_tables(struct merged_tables *m, const struct isal_hufftables *t)
{
	/* The literals apart from EOB: a count of 256 lets gcc -O2 vectorize the loop (its cheap
	 * cost model takes no loop that needs a scalar remainder). */
	for (uint32_t i = 0; i < 256; i++) {
		uint64_t n = t->lit_table_sizes[i] & 31u;
		m->ll[i] = (uint64_t)t->lit_table[i] << 32 | n << 8 | n;
	}
	uint64_t eob_n = t->lit_table_sizes[DEFL_EOB] & 31u;
	m->ll[DEFL_EOB] = (uint64_t)t->lit_table[DEFL_EOB] << 32 | eob_n << 8 | eob_n;
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t l = t->len_table[i];
		uint64_t n = l & 31u;
		m->ll[257 + i] = (uint64_t)(l >> 5) << 32 | n << 8 | n;
	}
	memset(m->d, 0, sizeof(m->d));
	for (uint32_t s = 0; s < 30; s++) {
		uint64_t dn = t->dcodes_sizes[s] & 31u;
		uint64_t e = (uint64_t)t->dcodes[s] << 32 | (dn + deflate_dist_extra[s]) << 8 | dn;
		m->d[s << 2 | 1] = m->d[s << 2 | 2] = e;
		m->d[128 | s << 2 | 1] = m->d[128 | s << 2 | 2] = e;
	}
}

/* One token's bits and their count from the merged tables (ll = m->ll, dt = m->d). */
static inline uint64_t token_bits_at(const uint64_t *ll, const uint64_t *dt, uint32_t tok,
				     uint32_t *nb)
{
	uint64_t e = ll[DEFL_TOK_LL(tok)];
	uint64_t d = dt[(tok >> 8) & 0xff];
	uint64_t sum = e + d;
	*nb = (uint32_t)(sum >> 8) & 63;
	return (e >> 32) | (d >> 32) << (e & 63) | (uint64_t)DEFL_TOK_DEXTRA(tok) << (sum & 63);
}

static inline uint64_t token_bits(const struct merged_tables *m, uint32_t tok, uint32_t *nb)
{
	return token_bits_at(m->ll, m->d, tok, nb);
}

/* The same from the table itself, for a few tokens. */
static inline uint64_t token_bits_direct(const struct isal_hufftables *t, uint32_t tok,
                                         uint32_t *nb)
{
	uint32_t ll = DEFL_TOK_LL(tok);
	if (ll <= DEFL_EOB) {
		*nb = t->lit_table_sizes[ll];
		return t->lit_table[ll];
	}
	uint32_t l = t->len_table[(ll - 257) & 255];
	uint32_t ds = DEFL_TOK_DSYM(tok);
	uint32_t ln = l & 31, dn = t->dcodes_sizes[ds];
	*nb = ln + dn + deflate_dist_extra[ds];
	return (uint64_t)(l >> 5) | ((uint64_t)t->dcodes[ds] | (uint64_t)DEFL_TOK_DEXTRA(tok) << dn)
	                                << ln;
}

/* Append a token's bits and store; the caller has checked the room. */
#define PUT_BITS(bits, nb)                                                                         \
	do {                                                                                       \
		acc |= (bits) << cnt;                                                              \
		cnt += (nb);                                                                       \
		stoa_store_le64(out, acc);                                                         \
		out += cnt >> 3;                                                                   \
		acc >>= cnt & 56;                                                                  \
		cnt &= 7;                                                                          \
	} while (0)

#ifdef DEFL_WRITE_TOKENS_RUN
static size_t DEFL_WRITE_TOKENS_RUN(const struct merged_tables *m, const uint32_t *tok, size_t n,
				    uint64_t *acc, uint32_t *cnt, uint8_t **out);
#endif

size_t DEFL_WRITE_TOKENS_FN(struct BitBuf2 *b, const struct isal_hufftables *t,
			    const uint32_t *tokens, size_t n)
{
	uint64_t acc = b->m_bits;
	uint32_t cnt = b->m_bit_count;
	uint8_t *out = b->m_out_buf;
	struct merged_tables m;
	size_t i = 0;

	if (cnt >= 8 && (size_t)(b->m_out_end - out) >= STORE_BYTES) {
		stoa_store_le64(out, acc);
		out += cnt >> 3;
		acc = cnt >= 64 ? 0 : acc >> (cnt & ~7u);
		cnt &= 7;
	}
	/* Worth it only when this call can write many tokens: enough of them, and the room. */
	size_t room0 = (size_t)(b->m_out_end - out);
	int merged = n >= MERGED_MIN_TOKENS &&
	             room0 >= STORE_BYTES + TOKEN_MAX_BYTES * (size_t)MERGED_MIN_TOKENS;
	if (merged)
		merge_tables(&m, t);
	while (i < n && cnt < 8) {
		size_t room = (size_t)(b->m_out_end - out);
		if (room < MIN_ROOM)
			break;
		size_t k = (room - STORE_BYTES) / TOKEN_MAX_BYTES;
		size_t end = n - i < k ? n : i + k;
		uint32_t nb;
		uint64_t bits;

		if (merged) {
#ifdef DEFL_WRITE_TOKENS_RUN
			i += DEFL_WRITE_TOKENS_RUN(&m, tokens + i, end - i, &acc, &cnt, &out);
#endif
			/* Two tokens per store when together they fit beside the pending bits (<
			 * 8): at most 56 bits, which almost every pair is. */
			for (; i + 1 < end; i += 2) {
				uint32_t nb1;
				uint64_t b0 = token_bits(&m, tokens[i], &nb);
				uint64_t b1 = token_bits(&m, tokens[i + 1], &nb1);
				if (nb + nb1 <= 56) {
					PUT_BITS(b0 | b1 << nb, nb + nb1);
				} else {
					PUT_BITS(b0, nb);
					PUT_BITS(b1, nb1);
				}
			}
			if (i < end) {
				bits = token_bits(&m, tokens[i], &nb);
				PUT_BITS(bits, nb);
				i++;
			}
		} else {
			for (; i < end; i++) {
				bits = token_bits_direct(t, tokens[i], &nb);
				PUT_BITS(bits, nb);
			}
		}
	}
	b->m_bits = acc;
	b->m_bit_count = cnt;
	b->m_out_buf = out;
	return i;
}
