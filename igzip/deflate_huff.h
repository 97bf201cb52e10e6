/* The compressor's Huffman side (internal header): tokens, histograms, code tables, the bit
 * writer and the block writers. Match finding and the stream state machine (deflate*.c) produce
 * tokens or call the emitters; huff_*.c turn them into deflate bits.
 *
 * Tokens: one uint32_t per literal or match.
 *   bits 0-9    litlen index: 0-255 a literal, 256 end of block, 257..512 a match of length
 *               index - 254 (3..258)
 *   bits 10-14  distance symbol 0..29 (matches only)
 *   bits 15-31  the distance's extra-bit value (matches only)
 * A histogram of tokens is struct isal_mod_hist: ll_hist[513] counts litlen indexes (so lengths
 * are counted per length, not per symbol), d_hist[30] counts distance symbols.
 *
 * Codes: struct isal_hufftables (the public one) is also the compressor's working code table:
 *   lit_table[i], lit_table_sizes[i]   code (bit-reversed, ready to write LSB first) and length
 *                                      of literal/EOB symbol i (0..256)
 *   len_table[len - 3]                 for a match length: (code | extra << codelen) << 5 |
 *                                      (codelen + extra bits), i.e. the whole length field
 *   dcodes[s], dcodes_sizes[s]         distance symbol s's code and length (extra bits follow)
 *   dist_table[0..1]                   distances 1 and 2 packed like len_table, filled as ISA-L
 *                                      does; stoa's writers do not read it
 *   deflate_hdr, deflate_hdr_count, deflate_hdr_extra_bits
 *                                      the block header bits (BFINAL = 0, BTYPE = 2, HLIT, HDIST,
 *                                      HCLEN, code lengths) as a bit string LSB first:
 *                                      deflate_hdr_count whole bytes then deflate_hdr_extra_bits
 *                                      bits of the next byte. defl_write_header sets BFINAL
 *                                      (bit 0) itself, whatever the table holds: ISA-L's own
 *                                      isal_create_hufftables stores BFINAL = 1 there, and such
 *                                      tables reach stoa through isal_deflate_set_hufftables.
 * A symbol without a code has size 0 (lit_table_sizes, dcodes_sizes, len_table & 31); only
 * subset tables have such symbols.
 */
#ifndef STOA_DEFLATE_HUFF_H
#define STOA_DEFLATE_HUFF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bytes.h"
#include "igzip_internal.h"

#pragma GCC visibility push(hidden)

#define DEFL_EOB 256
#define DEFL_TOK_LIT(c) ((uint32_t)(c))
#define DEFL_TOK_MATCH(len, dsym, dextra)                                                          \
	((uint32_t)((len) + 254) | (uint32_t)(dsym) << 10 | (uint32_t)(dextra) << 15)
#define DEFL_TOK_LL(t) ((t)&0x3ffu)
#define DEFL_TOK_DSYM(t) (((t) >> 10) & 0x1fu)
#define DEFL_TOK_DEXTRA(t) ((t) >> 15)

/* Distance 1..32768 to symbol and extra value. */
static inline uint32_t defl_dist_sym(uint32_t dist)
{
	uint32_t d = dist - 1;
	if (d < 4)
		return d;
	uint32_t hb = 31u - (uint32_t)__builtin_clz(d); /* d >= 4 so hb >= 2 */
	return 2 * hb + ((d >> (hb - 1)) & 1);
}
static inline uint32_t defl_dist_token_bits(uint32_t dist)
{
	uint32_t s = defl_dist_sym(dist);
	return s << 10 | (uint32_t)(dist - deflate_dist_base[s]) << 15;
}

/* ---- Bit writer over struct BitBuf2 (the stream's own): LSB first, 64-bit accumulator. ---- */
/* The caller guarantees room: bw_put writes at most 8 bytes past m_out_buf per call, so keep
 * m_out_end - m_out_buf >= 8 before each call (or use the _safe forms). */
static inline void bw_set_buf(struct BitBuf2 *b, uint8_t *out, size_t len)
{
	b->m_out_buf = b->m_out_start = out;
	/* (out is NULL with len 0 when the writer is detached: NULL + 0 is undefined.) */
	b->m_out_end = len ? out + len : out;
}
static inline void bw_init(struct BitBuf2 *b, uint8_t *out, size_t len)
{
	b->m_bits = 0;
	b->m_bit_count = 0;
	bw_set_buf(b, out, len);
}
/* Append n <= 56 bits (bits above n must be zero) and write out whole bytes; fewer than 8 bits
 * stay pending afterwards. */
static inline void bw_put(struct BitBuf2 *b, uint64_t bits, uint32_t n)
{
	b->m_bits |= bits << b->m_bit_count;
	b->m_bit_count += n;
	stoa_store_le64(b->m_out_buf, b->m_bits);
	uint32_t bytes = b->m_bit_count >> 3;
	b->m_out_buf += bytes;
	b->m_bits >>= bytes * 8;
	b->m_bit_count &= 7;
}
/* Pending bits (< 8 after bw_put) padded to a byte boundary and written; needs 1 byte. */
static inline void bw_flush_to_byte(struct BitBuf2 *b)
{
	if (b->m_bit_count) {
		*b->m_out_buf++ = (uint8_t)b->m_bits;
		b->m_bits = 0;
		b->m_bit_count = 0;
	}
}
static inline size_t bw_room(const struct BitBuf2 *b)
{
	return (size_t)(b->m_out_end - b->m_out_buf);
}

/* ---- Code tables (huff_codes.c) ---------------------------------------------------------- */

/* Build length-limited (15-bit litlen and distance, 7-bit precode) codes for hist and fill t,
 * header included. Every symbol gets a code unless subset is set (then only counted ones do, and
 * at least two of each alphabet so the header is valid). EOB is always coded. QUICK: the header's
 * code lengths are run-length coded greedily, as zlib does, without the rounds that search for
 * a shorter coding (which save a byte or two a block for half the cost of building it). */
void defl_build_codes(struct isal_hufftables *t, const struct isal_mod_hist *hist, int subset,
                      int quick);

/* The code lengths (litlen: 286, distance: 30) defl_build_codes would give hist's counts doubled
 * plus smooth, every symbol coded: what a symbol costs under codes built for such statistics
 * (the near-optimal parse's cost model, deflate_optimal.c). */
void defl_code_lengths(const struct isal_mod_hist *hist, uint32_t smooth, uint8_t *ll_lens,
                       uint8_t *d_lens);

/* The size in bits of one dynamic block coding hist (its end of block included) with the codes
 * defl_build_codes(subset, quick) would build: what a block costs, without building its
 * tables. */
uint64_t defl_dynamic_bits(const struct isal_mod_hist *hist, int quick);

/* The fixed codes of BTYPE = 1 blocks in the same form; deflate_hdr holds just the 3-bit
 * header (BFINAL = 0, BTYPE = 1). */
void defl_static_codes(struct isal_hufftables *t);

/* stoa's default codes (a dynamic header tuned on typical data), used when a stream's
 * hufftables is NULL; every symbol has a code. Built once, read-only afterwards. */
const struct isal_hufftables *defl_default_codes(void);
/* The symbol counts the default codes are built from (isal_create_hufftables of them). */
extern const uint32_t defl_default_ll_counts[ISAL_DEF_LIT_LEN_SYMBOLS];
extern const uint32_t defl_default_d_counts[ISAL_DEF_DIST_SYMBOLS];

/* Exact size in bits of one block coding hist with t: header (BFINAL/BTYPE bits too), every
 * counted literal and match, and one end-of-block code. ll_hist[256] is ignored (a block has one
 * end of block, whether or not the caller counted it). UINT64_MAX when hist counts a symbol that
 * t has no code for (a subset table). */
uint64_t defl_coded_bits(const struct isal_hufftables *t, const struct isal_mod_hist *hist);

/* ---- Block writing (huff_write.c) -------------------------------------------------------- */

/* Write t's block header (with BFINAL = final). Needs ISAL_DEF_MAX_HDR_SIZE + 8 bytes of room. */
void defl_write_header(struct BitBuf2 *b, const struct isal_hufftables *t, int final);

/* Write n tokens with t's codes (no EOB). Returns the number of tokens written: it stops early
 * when fewer than 16 bytes of room remain, so the caller can drain the output and continue.
 * Tokens must be well formed: litlen index 0..255 or 257..512, distance symbol <= 29 (end of
 * block is not a token: use defl_emit_eob). */
size_t defl_write_tokens(struct BitBuf2 *b, const struct isal_hufftables *t,
			 const uint32_t *tokens, size_t n);
/* Its variants (huff_write.c, and the architecture's), selected in deflate_dispatch.c. */
typedef size_t defl_write_tokens_fn(struct BitBuf2 *b, const struct isal_hufftables *t,
				    const uint32_t *tokens, size_t n);
defl_write_tokens_fn defl_write_tokens_portable;

/* Write one literal, one match (length 3..258, distance 1..32768) or the end-of-block code.
 * Each needs 8 bytes of room. */
static inline void defl_emit_lit(struct BitBuf2 *b, const struct isal_hufftables *t, uint32_t c)
{
	bw_put(b, t->lit_table[c], t->lit_table_sizes[c]);
}
static inline void defl_emit_eob(struct BitBuf2 *b, const struct isal_hufftables *t)
{
	bw_put(b, t->lit_table[DEFL_EOB], t->lit_table_sizes[DEFL_EOB]);
}
static inline void defl_emit_match(struct BitBuf2 *b, const struct isal_hufftables *t,
				   uint32_t len, uint32_t dist)
{
	uint32_t l = t->len_table[len - 3];
	uint32_t s = defl_dist_sym(dist);
	uint64_t bits = (uint64_t)(l >> 5);
	uint32_t n = l & 31;
	bits |= ((uint64_t)t->dcodes[s] | (uint64_t)(dist - deflate_dist_base[s])
						 << t->dcodes_sizes[s])
		<< n;
	n += t->dcodes_sizes[s] + deflate_dist_extra[s];
	bw_put(b, bits, n); /* at most 20 + 28 = 48 bits */
}

#pragma GCC visibility pop

#endif
