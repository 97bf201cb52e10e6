/* The decompressor's private state and the interface between its API layer (inflate.c), its table
 * builder (inflate_tables.c) and its dispatched block decoders (inflate_tpl.h) (internal header).
 *
 * Decode table entries are 32 bits:
 *   bits 0-5    bits the entry consumes: code length plus extra bits (for a subtable pointer, the
 *               root table's index bits)
 *   bits 8-11   code length alone: extra bits start at this shift (for a subtable pointer, the
 *               subtable's index bits)
 *   bit 12      INF_E_INVALID: the code is not a valid symbol here
 *   bit 13      INF_E_EOB: end of block
 *   bit 14      INF_E_SUB: points to a subtable
 *   bits 16-30  length base, distance base or subtable offset
 *   bit 31      INF_E_LIT: a literal (so a signed test finds it)
 * A literal entry has its own layout (bits 8-30; bits 0-5 as above):
 *   bits 8-15   the literal
 *   bits 16-23  a second literal, in a root entry whose index holds two whole literal codes
 *   bits 24-27  for two, the first literal's code length (a decoder with room for one only)
 *   bit 30      INF_E_PAIR: two literals
 * so that the decoder stores bits 8-23 as two bytes and advances by (e >> 30) - 1.
 * A length code in the root table has its extra bits resolved: one entry per extra-bit value
 * (final length, bits 0-5 and 8-11 both the bits consumed), or, where code plus extra bits pass
 * the root, a subtable pointer whose subtable the extra bits index.
 * A dynamic block's root litlen table goes one step further where a resolved length and the whole
 * distance code after it fit the root bits: a match entry (INF_E_MATCH, bit 15) decodes both:
 *   bits 0-5    bits consumed: length code, its extra bits, distance code and its extra bits
 *   bits 8-11   where the distance's extra bits start
 *   bits 16-24  the length
 *   bits 25-29  the distance symbol (inf_dist_base gives its base)
 */
#ifndef STOA_INFLATE_INTERNAL_H
#define STOA_INFLATE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bytes.h"
#include "copy_checks.h"
#include "igzip_internal.h"

#pragma GCC visibility push(hidden)

#define INF_E_INVALID 0x1000u
#define INF_E_EOB     0x2000u
#define INF_E_SUB     0x4000u
#define INF_E_MATCH   0x8000u
#define INF_E_LIT     0x80000000u
#define INF_E_PAIR    0x40000000u

/* The litlen root table indexes 11 bits, or 12 for a block whose code gains from it (see
 * INF_WIDE_MASS); INF_LITLEN_BITS is the larger, which sizes the table. */
#define INF_LITLEN_BITS  12
#define INF_LITLEN_NARROW 11
#define INF_DIST_BITS    8
#define INF_PRECODE_BITS 7
/* Root table plus the most subtable space any code of 288 symbols up to 15 bits long can need
 * with a 12-bit root (4382 entries: zlib's `enough 288 12 15`), plus the extra-bit subtables of
 * length codes whose code fits the root but code plus extra bits do not (at most
 * 4 * (32 + 16 + 8 + 4 + 2) = 248 entries); the builder checks against these anyway. */
#define INF_LITLEN_CAP (4382 + 248)
#define INF_DIST_CAP   416

/* Input left in the call from which a dynamic block's litlen table gets match entries (their
 * build breaks even near there: Canterbury's grammar.lsp, 1.25 KB at zlib -6, decodes 3% slower
 * with them, xargs.1, 1.75 KB, 2% faster); a stream gets them anyway once it has produced four
 * times as many bytes. */
#define INF_MATCH_MIN_IN 1536

/* A dynamic block with extras gets the 12-bit root when the twelfth bit pays for the doubled
 * build: the probability mass (2^-length per code) of what it turns into one lookup (12-bit
 * literal pairs, length-distance pairs and literals) is at least INF_WIDE_MASS, in units of
 * 2^-30. The build at stages (inflate_tables.c) is cheap enough that 0.02 was the fastest of
 * 0-0.06 (Calgary's streams 1.5-4% faster than at 0.06). */
#define INF_WIDE_MASS ((uint64_t)(0.02 * (1u << 30)))
/* ... and when its block can be long: this much input at hand, or a stream that has produced
 * four times as much (as INF_MATCH_MIN_IN). */
#define INF_WIDE_MIN_IN (16u * 1024)

/* Which fast loop decodes a dynamic block (inflate_tpl.h), chosen from its code lengths. A literal
 * mass (2^-length summed over the literal codes: about the share of symbols that are literals) up
 * to INF_MIXED_HI, in units of 2^-15, says matches are common enough that the branch on "literal or
 * not" mispredicts: such a block takes the unified loop, which has no such branch (zlib -6
 * Calgary: 1.28x), unless its distance codes 0-9 (distances 1-32) hold more than
 * INF_UNIFIED_SHORT of their code space, where the unified step's branch to the short-distance
 * copy mispredicts instead (kennedy.xls: 0.79x); those take the mixed loop, a literal entry a step
 * without the branch, if the mass is at least INF_MIXED_LO (below it the mixed step's second
 * lookup costs more than the branch it saves), else the plain loop.
 * Above the window literals dominate, the branch predicts well and the plain loop, with its runs
 * of literal entries, is fastest. Fixed-code blocks stay plain: their code says nothing of the
 * data. */
#define INF_MIXED_LO      8500u  /* 0.26 */
#define INF_MIXED_HI      26200u /* 0.80 */
#define INF_UNIFIED_SHORT 8192u  /* 0.25 */
enum { INF_LOOP_PLAIN, INF_LOOP_MIXED, INF_LOOP_UNIFIED };

#define INF_HIST     32768u /* deflate's window */
#define INF_TMP_SIZE ((uint32_t)sizeof(((struct inflate_state *)0)->tmp_out_buffer))

/* Results of the block decoders beside ISA-L's (negative) error codes. */
enum { INF_EOB = 1, INF_NEED_IN = 2, INF_NEED_OUT = 3, INF_ZSTOP = 4 };

/* What lives in inflate_state.stoa_tables. */
struct inf_priv {
	uint32_t litlen[INF_LITLEN_CAP];
	uint32_t dist[INF_DIST_CAP];
	uint8_t lens[288 + 32];
	uint32_t lmask; /* the litlen root's index mask (2^root bits - 1) */
	uint32_t hdr_crc;      /* running CRC-32 of a gzip header being read */
	uint32_t field_len;    /* gzip FEXTRA length */
	uint8_t gz_flags;      /* gzip FLG */
	uint8_t started;       /* the first deflate block has begun (checksum initialised) */
	uint8_t fixed_hb;      /* tables hold the fixed code built for hist_bits fixed_hb - 1 */
	uint8_t fixed_shared;  /* ... or the block decodes with inf_fixed_shared()'s */
	uint8_t type0_pending; /* a stored block's LEN is known, its data not all copied */
	/* The zlib layer's stops (igzip_zlib.h): asked for, reached but not reported, reported
	 * at the end of this call (INF_ZSTOP_BLOCK: a block's end, INF_ZSTOP_TREES: a header's);
	 * and the fault behind the last ISAL_INVALID_BLOCK (INF_WHY_*). */
	uint8_t zstop, zstop_at, zstop_done;
	uint8_t zlayer; /* driven by the zlib layer (its input is not contiguous across calls) */
	uint8_t why;
	uint8_t loop; /* the decoders' fast loop for the block (INF_LOOP_*, INF_MIXED_LO) */
};

enum {
	INF_WHY_NONE,
	INF_WHY_BTYPE,
	INF_WHY_STORED_LEN,
	INF_WHY_TOO_MANY, /* HLIT or HDIST past the alphabets */
	INF_WHY_REPEAT,   /* a repeat before any length, or past the last */
	INF_WHY_NO_EOB,   /* no code for end-of-block */
	INF_WHY_LITLEN,   /* the literal/length code is not a prefix code */
	INF_WHY_DIST,     /* the distance code is not a prefix code */
};
_Static_assert(sizeof(struct inf_priv) <= sizeof(((struct inflate_state *)0)->stoa_tables),
               "inflate's private tables fit in stoa_tables");

static inline struct inf_priv *inf_priv(struct inflate_state *s)
{
	return (struct inf_priv *)(void *)s->stoa_tables.bytes;
}

/* A bit reader over a contiguous input range. Bits above `bits` in buf are zero or equal to the
 * stream's next bits (both refills rely on that). */
struct inf_br {
	const uint8_t *p, *end;
	uint64_t buf;
	unsigned bits;
};

static inline uint64_t inf_load64(const uint8_t *p)
{
	return stoa_load_le64(p);
}

/* Top up to at least 56 bits when 8 input bytes remain, else byte by byte as far as input goes. */
static inline void inf_br_fill(struct inf_br *br)
{
	if (br->end - br->p >= 8) {
		br->buf |= inf_load64(br->p) << br->bits;
		br->p += (63 - br->bits) >> 3;
		br->bits |= 56;
	} else {
		while (br->bits <= 55 && br->p < br->end) {
			br->buf |= (uint64_t)*br->p++ << br->bits;
			br->bits += 8;
		}
	}
}

/* At least n (<= 56) bits available? */
static inline int inf_br_need(struct inf_br *br, unsigned n)
{
	if (br->bits < n)
		inf_br_fill(br);
	return br->bits >= n;
}

static inline uint32_t inf_br_take(struct inf_br *br, unsigned n)
{
	uint32_t v = (uint32_t)(br->buf & ((1ull << n) - 1));
	br->buf >>= n;
	br->bits -= n;
	return v;
}

/* The fast loop runs while at least INF_IN_MARGIN input bytes and INF_OUT_MARGIN output bytes
 * remain: three refills of 8-byte loads, each advancing at most 7 bytes; four literal entries of
 * two literals each, or three and a match of 258 whose copy overruns by up to 2 * 16 - 1 bytes
 * (the mixed loop's step, INF_MIXED_LO: the plain one's has a literal entry less). */
#define INF_IN_MARGIN  24
#define INF_OUT_MARGIN (6 + 258 + 32)
/* The most input one step of the fast loop takes (its three refills) and the least output it
 * makes (a literal): the loop tests one bound, how far out may go before both margins are looked
 * at again (inflate_tpl.h), instead of both margins every step. */
#define INF_STEP_IN  (3 * 7)

/* One run of a block decoder: input, output and where lookback may reach. Output before
 * out_begin (this buffer's first byte) continues in hist[0..hist_len), the history kept from
 * earlier calls. out_soft (<= out_end) is a stop that needs no precision: the fast loop stops
 * once out reaches it (having passed it by at most one symbol) and the decoder returns
 * INF_NEED_OUT there, without finishing up to out_end symbol by symbol; out_soft == out_end
 * means no such stop. */
struct inf_ctx {
	struct inf_br br;
	uint8_t *out, *out_end, *out_soft, *out_begin;
	const uint8_t *hist;
	size_t hist_len;
	const struct inf_priv *t;
};

typedef int inf_block_fn(struct inf_ctx *c);
inf_block_fn inflate_huff_portable;
extern const struct stoa_variant inflate_huff_variants[];
/* The decoder this process uses (resolved once, inflate_dispatch.c). */
inf_block_fn *inflate_huff_impl(void);

/* Copy len bytes ending a match whose start lies dist bytes back, where that reaches before
 * out_begin into the history. Returns 0 or ISAL_INVALID_LOOKBACK. */
int inf_far_copy(const struct inf_ctx *c, uint8_t *out, uint32_t dist, uint32_t len);

/* Distance bases by symbol, padded to 32 for a masked index (match entries). Indexed by a root
 * entry's bits 25-31 unmasked (the unified step, inflate_tpl.h), a literal entry (bit 31) finds 64:
 * its 32-byte copy then reads output written at least 64 bytes back, which its literals
 * overwrite (its "extra bits" add less than 2^12: a literal's count, bits 0-7, is at most 12). */
#define INF_DB8(v)  v, v, v, v, v, v, v, v
#define INF_DB32(v) INF_DB8(v), INF_DB8(v), INF_DB8(v), INF_DB8(v)
static const uint32_t inf_dist_base[128] = {
	1,   2,   3,   4,   5,    7,    9,    13,   17,   25,   33,   49,    65,    97,    129, 193,
	257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577, 0,   0,
	INF_DB32(64), INF_DB32(64), INF_DB32(64),
};
#undef INF_DB8
#undef INF_DB32

/* Bytes a store of a pattern of period d (1..15) in 16-byte steps advances: the largest multiple
 * of d that fits in 16 (match copies with short distances). */
static const uint8_t inf_period_step[16] = { 16, 16, 16, 15, 16, 15, 12, 14,
	                                     8,  9,  10, 11, 12, 13, 14, 15 };

/* Table building (inflate_tables.c). Build the fixed code's tables; read a dynamic block's header
 * (after BTYPE) and build its tables: 0, INF_NEED_IN or ISAL_INVALID_BLOCK. `extras` 0 builds
 * plain tables on an 11-bit root, 1 adds match entries and literal pairs, 2 the same on a 12-bit
 * root where the code gains from it (INF_WIDE_MASS), 3 on a 12-bit root always (for tests).
 * wsize limits the distance symbols (farther ones decode as invalid). */
void inf_build_fixed(struct inf_priv *t, uint32_t wsize);
/* The fixed code's tables for the full window, built once per process and shared by every
 * stream (a fresh stream's first fixed block would otherwise build them: a one-shot call on a
 * few hundred bytes spent most of its time there). NULL while another thread builds them; the
 * caller then builds its own. Decoders read only litlen, dist, lmask and loop of it. */
const struct inf_priv *inf_fixed_shared(void);
/* The builder's doubling copy: the first n entries of t after themselves, n a multiple of 16
 * (dispatched: inflate_dispatch.c's inf_table_double). */
typedef void inf_double_fn(uint32_t *t, uint32_t n);
inf_double_fn inf_table_double_portable;
inf_double_fn *inf_table_double_impl(void);
int inf_read_dynamic(struct inf_br *br, struct inf_priv *t, uint32_t wsize, int extras);

uint32_t adler32_portable(uint32_t init, const unsigned char *buf, uint64_t len);
/* inf_adler32_copy's base entry (common/copy_checks.h). */
uint32_t adler32_copy_base(uint32_t init, unsigned char *dst, const unsigned char *src,
                           uint64_t len);

#pragma GCC visibility pop

#endif
