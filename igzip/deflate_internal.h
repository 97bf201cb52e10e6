/* The compressor's match finders and stream state (internal header).
 *
 * Positions. The match finders work on a window of bytes `base[lo .. end)`; index i of base is
 * the stream's absolute byte i + bias. Hash tables keep absolute positions modulo 2^16, so they
 * survive the streaming buffer sliding down (bias grows by the slide) and need no clearing after
 * a full flush: a candidate is only believed after its distance is checked against the window
 * (at most maxdist, never before lo) and its bytes are compared, so a stale or aliased entry can
 * cost a probe but never produce a wrong match.
 *
 * Stream state (struct isal_zstate, whose layout is ISA-L's) as stoa uses it:
 *   buffer            history and input of a streaming compressor (DEFL_BUF_SIZE bytes)
 *   b_bytes_valid     bytes of buffer holding data (end)
 *   b_bytes_processed the next byte to code (cur)
 *   block_next        the first byte that may be referenced (lo: after a dictionary, a full
 *                     flush or the start of the stream)
 *   block_end         first input byte of the block being collected (levels 1-3)
 *   total_in_start    absolute position of buffer[0] (bias)
 *   dist_mask         the zlib layer's strategy for the blocks that start next (igzip_zlib.h's
 *                     DEFL_ZMODE_*); 0 for ISA-L streams (init and reset clear it). (ISA-L
 *                     keeps the window mask here; stoa's engine reads hist_bits instead.)
 *   count             bits of the current block header already written (level 0)
 *   has_wrap_hdr      the gzip/zlib header is written
 *   has_eob_hdr       the open block (level 0) was started as the final one
 *   has_eob           the final block is complete
 *   has_hist          history kind (IGZIP_NO_HIST, IGZIP_HIST, IGZIP_DICT_HIST: a dictionary
 *                     waits to be hashed by the stream's level)
 *   has_level_buf_init the level buffer's layout is set up for this stream
 *   tmp_out_buff      output waiting for room in next_out: [tmp_out_start, tmp_out_end)
 *   head              level 0's hash table
 */
#ifndef STOA_DEFLATE_INTERNAL_H
#define STOA_DEFLATE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bytes.h"
#include "deflate_huff.h"
#include "deflate_levels.h"

#pragma GCC visibility push(hidden)

#define DEFL_BUF_SIZE ((uint32_t)sizeof(((struct isal_zstate *)0)->buffer))
#define DEFL_WIN_SIZE 32768u
#define DEFL_MAX_MATCH 258u
#define DEFL_LVL0_HASH_BITS 13 /* head[] has 8 K entries */
/* A one-shot input of up to 2 KiB without a dictionary gets a level 0 table of at least twice
 * its length, no less than 2^8 entries: clearing the whole 16 KiB table was a quarter of a
 * 200-byte call (ISA-L sizes its table to the input likewise). 0: the full table. */
static inline uint32_t defl_lvl0_small_bits(uint32_t n)
{
	if (n > 2048)
		return 0;
	uint32_t b = 8;
	while ((1u << b) < 2 * n)
		b++;
	return b;
}

/* The window a match finder searches: base[lo .. end) holds data, positions are stream
 * positions minus bias, and no match reaches farther back than maxdist. */
struct defl_win {
	const uint8_t *base;
	uint32_t lo;
	uint32_t end;
	uint32_t bias;
	uint32_t maxdist;
	/* 1: the hash table was cleared for this window, whose positions start at 0 (lo 0, bias
	 * 0), and has only had positions of this window entered since, so every entry names a
	 * position at or before the one being looked up: only the distance 0 of a position met
	 * again needs rejecting, not the distances reaching before lo. */
	uint32_t fresh;
	/* Level 0: head[] has 2^hbits entries (0: DEFL_LVL0_HASH_BITS). Fewer only for a small
	 * fresh window of 32 KiB history (defl_lvl0_small_bits). */
	uint32_t hbits;
};

/* Block splitting (levels 1-3): tokens fall into DEFL_NOBS classes (literals by their top three
 * bits, short and long matches); every DEFL_SPLIT_CHECK tokens the classes of the newest tokens,
 * read off the block's histogram, are compared with the block's before them, and a block whose
 * statistics drifted ends there. */
#define DEFL_NOBS 10
#define DEFL_SPLIT_CHECK 512u

/* One-shot inputs up to this size are small (levels 1-2 hash 4 bytes on the smaller ones:
 * defl_params.hash4_kib). */
#define DEFL_SMALL_INPUT (64u * 1024)

/* Rounds of two literals in a row after which levels 1-3 code the next bytes as literals
 * without looking them up (incompressible data: deflate_match_tpl.h), and the same for a small
 * input, where it waits for a run of 1 KiB: such an input is mostly text and tables whose runs
 * of 18 literals are common and whose matches are few, and skipping from there made Calgary in
 * 4 KiB pieces 2.2% larger at level 3 (43.65% of the input against 42.71%). */
#define DEFL_SKIP_AFTER 8u
#define DEFL_SKIP_AFTER_SMALL 512u

/* Entries of the chain table: one per position of the 32 KiB window. */
#define DEFL_CHAIN_SLOTS 32768u

/* The near-optimal levels' match cache and path (deflate_optimal.c), in level_buf after the
 * chains: the matches of up to DEFL_OPT_CHUNK positions from stream position abs on (those of
 * position i are m[start[i] .. start[i + 1])), and a pass's costs and choices. */
#define DEFL_OPT_CHUNK   65536u
/* log2 of the entries of the near-optimal levels' own 3-byte table: 4 times the chain levels'
 * (fewer collisions: Calgary 0.04 points smaller at level 10). */
#define DEFL_OPT_HASH3_BITS 16
/* The match store gives up the room of the trees' right children and that 3-byte table. */
#define DEFL_OPT_BT_ROOM ((DEFL_CHAIN_SLOTS + (1u << DEFL_OPT_HASH3_BITS)) / 2u)
#define DEFL_OPT_MATCHES (6u * DEFL_OPT_CHUNK - DEFL_OPT_BT_ROOM)
struct defl_opt {
	uint32_t abs; /* stream position (bias + index) of the first cached position */
	uint32_t n;   /* positions cached (0: none) */
	uint32_t start[DEFL_OPT_CHUNK + 1];
	uint32_t cost[DEFL_OPT_CHUNK + 1];
	uint32_t choice[DEFL_OPT_CHUNK + 1];
	uint32_t m[DEFL_OPT_MATCHES];
	/* The match trees' right children, one per window slot, and the newest position of each
	 * 3-byte hash (deflate_optimal.c). */
	uint16_t bt_right[DEFL_CHAIN_SLOTS];
	uint16_t bt_head3[1u << DEFL_OPT_HASH3_BITS];
	/* The block's greedy observations for its end (deflate_optimal.c's block_end): counts of
	 * gn tokens, the classes at the last check and their count, the count due next. */
	struct isal_mod_hist gh;
	uint32_t gn, gnext, gobs_total;
	/* The open block's input bytes in tokens; the cached positions at the start whose path
	 * (choice) the last block ended within and the next one takes as it is
	 * (tok_opt). */
	uint32_t blk_in;
	uint32_t carry;
	uint32_t gobs[DEFL_NOBS];
	/* The counts of the last block parsed (has_prev: there is one), which a new block's first
	 * costs lean on. */
	struct isal_mod_hist prev;
	uint32_t has_prev;
};

/* Level 1-3 state, at the (8-byte aligned) start of level_buf. */
struct defl_lvl {
	const struct defl_params *par; /* the level's parameters */
	uint32_t hash_bits;  /* log2 of the hash table's entries (or buckets) */
	uint32_t tok_cap;    /* tokens the token area holds */
	uint32_t ntok;       /* tokens collected for the open block */
	uint32_t tok_done;   /* of those, tokens already written */
	uint32_t phase;      /* DEFL_PH_* */
	uint32_t final;      /* the block being written is the last one */
	uint32_t hdr_bits;   /* bits of the block header written */
	uint32_t stored_pos; /* stored block: next byte (index in the source) */
	uint32_t stored_end; /* stored block: one past its last byte */
	uint32_t stored_chunk;/* bytes left in the current stored block (<= 65535) */
	uint32_t split;      /* the tokenizer asks for the open block to end here */
	uint32_t longblk;    /* streaming: the open block may grow past the buffer's half */
	uint32_t gone;       /* streaming: its first bytes slid out of the buffer (no stored form) */
	uint32_t obs_total;  /* tokens of the open block already weighed for a split */
	uint32_t obs_next;   /* token count at which the next split check is due */
	uint32_t min_len;    /* levels with chains: the shortest match the open block takes */
	uint16_t *hash;      /* hash table (levels with chains: their heads, then
	                      * DEFL_CHAIN_SLOTS links: deflate_chain.c) */
	uint32_t *tok;       /* token area */
	uint32_t obs[DEFL_NOBS];     /* the open block's token classes at the last check */
	union {
		struct {
			/* levels 1-3: 0, or DEFL_HKEEP_4B: a small input hashes 4 bytes */
			uint16_t hash_keep;
			/* levels 1-3: DEFL_SKIP_AFTER, or _SMALL for a small input */
			uint16_t skip_after;
		};
		uint32_t swept;     /* levels with chains: the stream position of the heads' last
		                     * sweep (deflate_chain.h) */
		uint32_t blk_start; /* the bucket level (no sweep): the stream position where the
		                     * open block began (its max_block) */
	};
	struct isal_mod_hist hist;   /* symbol counts of the open block's tokens */
	union {
		struct isal_hufftables codes; /* codes of the block being written */
		/* While a streaming block is collected (codes unused until it is prepared): hist
		 * at its last long_check checkpoint, and that hist's entropy (deflate_stream.c). */
		struct {
			struct isal_mod_hist hist;
			uint64_t bits;
			uint32_t ntok; /* the block's tokens then */
		} mark;
	};
};

/* Start collecting a new block: no tokens, no counts. */
static inline void defl_lvl_block_reset(struct defl_lvl *L)
{
	L->ntok = 0;
	L->split = 0;
	L->longblk = 0;
	L->gone = 0;
	L->obs_total = 0;
	L->obs_next = DEFL_SPLIT_CHECK;
	L->min_len = 3;
	memset(L->obs, 0, sizeof(L->obs));
	memset(&L->hist, 0, sizeof(L->hist));
}

/* Levels 5-9 (hash chains; not the bucket level, whose speed margin is thin, nor the near-optimal
 * levels, whose parse fits each block's own codes) write two blocks the split test separated as
 * one where one block of both codes no larger: one-shot compression holds each block back until
 * the next is tokenized (deflate_stateless.c, struct defl_pending), streaming keeps the split
 * point as a candidate and lets the open block run on (deflate_stream.c). */
static inline int defl_lvl_merges(const struct defl_params *P)
{
	return P->chain && P->ways != 2 && !P->opt;
}

/* The merging state: the streaming block's candidate split point, and a block's first part being
 * written with the rest kept. It lives after the token area: defl_lvl_setup reserves it at the
 * merging levels only, so the other levels' layout stays as it was, and with lits0 only where the
 * token area holds DEFL_MERGE_MIN_TOK tokens besides (merging is off in smaller level buffers,
 * whose blocks the tokens' room ends anyway). */
#define DEFL_MERGE_MIN_TOK 8192u
struct defl_cand {
	uint32_t enabled;       /* merging is on (the level buffer has room) */
	uint32_t on;            /* a candidate is set */
	uint32_t rescan;        /* the tokenizer takes its minimum match length afresh */
	uint32_t ntok, in;      /* the tokens and input bytes before it */
	uint32_t cls0[DEFL_NOBS]; /* their split-test classes: the test weighs what follows */
	/* Writing the part before the candidate (prefix; its input bytes stay in `in`): the
	 * rest's tokens and input bytes, and what follows: the rest written too (rest_write, final
	 * or not) or kept open. */
	uint32_t prefix, rest_ntok, rest_in, rest_write, rest_final;
	/* The literal counts before the candidate: the minimum match length follows the tokens
	 * after it, as in a block of their own. */
	uint32_t lits0[256];
};
/* Words reserved after the tokens: all of struct defl_cand, or its fields before lits0. */
#define DEFL_CAND_WORDS ((uint32_t)(sizeof(struct defl_cand) / 4))
#define DEFL_CAND_HEAD_WORDS ((uint32_t)(offsetof(struct defl_cand, lits0) / 4))

/* The merging state of L, NULL where the level or the buffer does not merge. */
static inline struct defl_cand *defl_cand_of(const struct defl_lvl *L)
{
	if (!defl_lvl_merges(L->par))
		return NULL;
	struct defl_cand *const c = (struct defl_cand *)(void *)(L->tok + L->tok_cap);
	return c->enabled ? c : NULL;
}

/* Block writer phases (levels 1-3). */
enum {
	DEFL_PH_COLLECT = 0, /* collecting tokens */
	DEFL_PH_HDR,         /* writing the block header (codes) */
	DEFL_PH_TOKENS,      /* writing tokens */
	DEFL_PH_EOB,         /* writing end of block */
	DEFL_PH_STORED_HDR,  /* writing a stored block's header */
	DEFL_PH_STORED_BODY, /* copying a stored block's bytes */
};

/* Input bytes as little-endian words, on every host: the first byte is the low one, so hashes,
 * (uint8_t)x for the first byte, x >> 8 for the word one byte on, and ctz(x ^ y) >> 3 for the
 * first differing byte mean the same on big-endian machines, and the output is the same. */
static inline uint32_t defl_load32(const uint8_t *p)
{
	return stoa_load_le32(p);
}
static inline uint64_t defl_load64(const uint8_t *p)
{
	return stoa_load_le64(p);
}
/* The hash of the 4 bytes v in bits bits (multiplicative). */
static inline uint32_t defl_hash4(uint32_t v, uint32_t bits)
{
	return (v * DEFL_HASH_MUL32) >> (32 - bits);
}

/* A fresh window's table entry v for the position pos at ip, back bytes past the window's start
 * (back < 32768), made one the loops that wrap distances instead of checking them can take
 * (levels 0-2's first window of a one-shot call): every entry there names pos or an earlier
 * position, and names pos itself (or a position after it) only where a stretch starts again and
 * looks up positions the previous one entered already, or at the first byte, where the cleared
 * table names it. The checked loops reject those; here such an entry is replaced by a nearby
 * earlier position whose first 4 bytes differ from pos's, which the comparison rejects just the
 * same (the output does not change). Returns 0 when none of the 4 before it differs (or there is
 * none): the caller then takes one round with the checked loop. */
static inline int defl_fresh_cand(const uint8_t *ip, size_t back, uint32_t pos, uint32_t *v)
{
	const uint32_t d = (uint16_t)(pos - *v);
	if ((size_t)(d - 1) < back)
		return 1;
	const uint32_t x = defl_load32(ip);
	for (uint32_t k = 1; k <= 4 && k <= back; k++) {
		if (defl_load32(ip - k) != x) {
			*v = (uint16_t)(pos - k);
			return 1;
		}
	}
	return 0;
}

/* The entries v0, v1 of the pair at ip (stream position pos), lowp the window's start, through
 * defl_fresh_cand; 0 when the pair needs the checked loop. */
static inline int defl_fresh_pair(const uint8_t *ip, const uint8_t *lowp, uint32_t pos,
                                  uint32_t *v0, uint32_t *v1)
{
	const size_t back = (size_t)(ip - lowp);
	return defl_fresh_cand(ip, back, pos, v0) && defl_fresh_cand(ip + 1, back + 1, pos + 1, v1);
}

/* Sanitizer builds (make test SAN=1, the fuzz targets) check every candidate of the check-free
 * loops in a fresh window: a distance from 1 to the position's distance from the window's
 * start. A breach would read up to 32 KiB before the input, beyond a guard page, and the
 * comparison would hide it. */
#if defined(__SANITIZE_ADDRESS__)
#define DEFL_SAN_CHECKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DEFL_SAN_CHECKS 1
#endif
#endif
#ifndef DEFL_SAN_CHECKS
#define DEFL_SAN_CHECKS 0
#endif
static inline void defl_fresh_check(int64_t nd0, int64_t nd1, size_t back)
{
	if (DEFL_SAN_CHECKS && (nd0 >= 0 || nd1 >= 0 || (uint64_t)-nd0 > back ||
	                        (uint64_t)-nd1 > back + 1))
		__builtin_trap();
}

/* Length of the common prefix of a and b, at most max bytes; reads nothing at or beyond max. */
static inline uint32_t defl_extend(const uint8_t *a, const uint8_t *b, uint32_t max)
{
	uint32_t n = 0;
	while (n + 8 <= max) {
		uint64_t x = defl_load64(a + n) ^ defl_load64(b + n);
		if (x)
			return n + (stoa_ctz64(x) >> 3);
		n += 8;
	}
	while (n < max && a[n] == b[n])
		n++;
	return n;
}

/* The length of a match whose first 8 bytes agree: the common prefix of a and b, at most max
 * (8 .. 258) bytes; may read up to 7 bytes past a + max (the callers have them). 16 bytes a
 * round in two words. A variant may use its own (DEFL_EXTEND_FROM8, see deflate_lvl0.c); wide
 * asks such a one for its widest compare where that pays (levels 1-2, not level 0). */
static inline __attribute__((always_inline)) uint32_t defl_extend_from8(const uint8_t *a,
									const uint8_t *b,
									uint32_t max,
									const int wide)
{
	(void)wide;
	uint32_t n = 8;
	while (n + 8 < max) {
		const uint64_t x = defl_load64(a + n) ^ defl_load64(b + n);
		const uint64_t y = defl_load64(a + n + 8) ^ defl_load64(b + n + 8);
		if (x | y) {
			n += x ? stoa_ctz64(x) >> 3 : 8 + (stoa_ctz64(y) >> 3);
			return n < max ? n : max;
		}
		n += 16;
	}
	if (n < max) {
		const uint64_t x = defl_load64(a + n) ^ defl_load64(b + n);
		n += x ? stoa_ctz64(x) >> 3 : 8;
	}
	return n < max ? n : max;
}

/* 1 when the DEFL_MAX_MATCH bytes at a and b are all equal (both readable). Inside a long run
 * a whole 258-byte match is tested at once, with one branch, where the extension would take one
 * per 16 bytes (a variant may use its own: DEFL_SAME_MAX). */
static inline int defl_same_max(const uint8_t *a, const uint8_t *b)
{
	uint64_t x = defl_load64(a + DEFL_MAX_MATCH - 8) ^ defl_load64(b + DEFL_MAX_MATCH - 8);
	for (uint32_t i = 0; i + 8 <= DEFL_MAX_MATCH; i += 8)
		x |= defl_load64(a + i) ^ defl_load64(b + i);
	return x == 0;
}

/* The common prefix of a and b when both have DEFL_MAX_MATCH readable bytes (a variant may use
 * its own: DEFL_PREFIX_MAX). */
static inline uint32_t defl_prefix_max(const uint8_t *a, const uint8_t *b)
{
	const uint64_t x = defl_load64(a) ^ defl_load64(b);
	return x ? stoa_ctz64(x) >> 3 : defl_extend_from8(a, b, DEFL_MAX_MATCH, 0);
}

/* Level 0: code base[p ..) with t's codes straight into b until p >= stop or the output room
 * drops below 16 bytes; matches may run up to w->end. Returns the new p. */
typedef uint32_t defl_lvl0_fn(struct BitBuf2 *b, const struct isal_hufftables *t, uint16_t *head,
			      const struct defl_win *w, uint32_t p, uint32_t stop);
defl_lvl0_fn defl_lvl0_portable;

/* Levels 1-3: turn base[p ..) into tokens in L->tok until p >= stop or the token area is
 * (nearly) full. Returns the new p. */
typedef uint32_t defl_tok_fn(struct defl_lvl *L, const struct defl_win *w, uint32_t p,
			     uint32_t stop);
defl_tok_fn defl_tok_lvl1_portable, defl_tok_lvl2_portable, defl_tok_lvl3_portable;

/* Levels with hash chains (defl_params.chain != 0, deflate_chain.c): the tokenizer of a level
 * (4 .. DEFL_MAX_LEVEL), and the insert behind defl_lvl_insert. */
defl_tok_fn *defl_tok_chain(uint32_t level);
/* The near-optimal levels (defl_params.opt != 0, deflate_optimal.c). */
defl_tok_fn *defl_tok_optimal(uint32_t level);
void defl_chain_insert(struct defl_lvl *L, const struct defl_win *w, uint32_t from, uint32_t to);
/* The near-optimal levels' insert (their match trees, deflate_optimal.c). */
void defl_bt_insert(struct defl_lvl *L, const struct defl_win *w, uint32_t from, uint32_t to);
/* log2 of the entries of the 3-byte table after the chain table. */
#define DEFL_HASH3_BITS 14
/* Bytes of the chain links and the 3-byte table, after the heads. */
#define DEFL_CHAIN_TABLES (2u * DEFL_CHAIN_SLOTS + (2u << DEFL_HASH3_BITS))

/* Block splitting: weigh the tokens since the last check (the block has ntok) against the
 * block's before them; 1 when the block should end (deflate_match.c). */
int defl_split_check(struct defl_lvl *L, uint32_t ntok, uint32_t pct);
/* The split test's state as if a check of the block (its ntok tokens, L->hist) just ran. */
void defl_split_restart(struct defl_lvl *L, uint32_t ntok);
/* The same test on any counts h of ntok tokens, with the classes at the last check in obs and
 * their token count in *obs_total (both updated). */
int defl_split_test(uint32_t *obs, uint32_t *obs_total, const struct isal_mod_hist *h,
                    uint32_t ntok, uint32_t pct);
/* Streaming at a merging level (defl_cand): the split test ended the open block at blk_in input
 * bytes; it runs on with this point as its candidate, the test now weighing what follows. */
void defl_cand_set(struct defl_lvl *L, uint32_t blk_in);
/* The block runs on as one past its candidate (defl_cand_split found no gain in splitting there),
 * the split test weighing it whole again. */
void defl_cand_drop(struct defl_lvl *L);
/* The open block (blk_in input bytes) ends, or reached its next split point: 1 when it codes
 * smaller as two blocks split at the candidate, with the first prepared for writing
 * (defl_block_prepare) and the rest kept (defl_cand.prefix; rest_write, rest_final say what
 * follows it); 0 when one block of all is no larger (or there is no candidate), nothing done but
 * the candidate dropped. */
int defl_cand_split(struct defl_lvl *L, uint32_t blk_in, int rest_write, int rest_final,
                    uint32_t bitpos, uint32_t mode);


/* 256 * the bits an ideal code spends on counts h[0 .. n): sum of c * log2(total / c), each
 * log2 from the top five bits of its argument (defl_lg256; deflate_stream.c's long-block
 * checkpoints). Every variant gives the portable one's exact value: block boundaries, and so the
 * bytes, depend on it. */
typedef uint64_t defl_entropy_fn(const uint32_t *h, uint32_t n);
defl_entropy_fn defl_entropy_portable;
uint64_t defl_entropy(const uint32_t *h, uint32_t n);

/* Levels 10-12: the cheapest path through the n cached positions from src under one pass's costs
 * (deflate_path.h). Every variant chooses the same path. */
struct defl_opt_costs;
typedef void defl_path_fn(struct defl_opt *o, const uint8_t *src, uint32_t n,
                          const struct defl_opt_costs *c);
defl_path_fn defl_path_portable;
void defl_path(struct defl_opt *o, const uint8_t *src, uint32_t n, const struct defl_opt_costs *c);
#define DEFL_LG256_FRAC 0, 22, 44, 63, 82, 100, 118, 134, 150, 165, 179, 193, 207, 220, 232, 244

/* 256 * log2(c) (c >= 1), rounded down to a step of a sixteenth of the mantissa (under 0.09 bit,
 * and never above log2(c), so the sum is never negative): the four bits after the leading one
 * look up the fraction, taken by one shift of the normalized count rather than a test of c's size,
 * which mispredicted (the checkpoints' sums: 2.1% of streaming level 3's time -> 1.6%). */
static inline uint64_t defl_lg256(uint32_t c)
{
	static const uint8_t frac[16] = { DEFL_LG256_FRAC };
	const uint32_t lz = (uint32_t)__builtin_clz(c);
	return 256ull * (31u - lz) + frac[((c << lz) >> 27) & 15];
}

/* Enter positions [from, to) of w into the level's hash tables without coding them
 * (dictionaries). */
void defl_lvl0_insert(uint16_t *head, const struct defl_win *w, uint32_t from, uint32_t to);
void defl_lvl_insert(struct defl_lvl *L, const struct defl_win *w, uint32_t from, uint32_t to);

/* The selected variants (deflate_dispatch.c). */
defl_lvl0_fn *defl_lvl0_impl(void);
defl_tok_fn *defl_tok_impl(uint32_t level);
/* The tokenizer of a zlib strategy (internal_state.dist_mask, igzip_zlib.h's DEFL_ZMODE_*):
 * defl_tok_impl(level) for the default one (deflate_strategy.c). */
defl_tok_fn *defl_tok_mode(uint32_t mode, uint32_t level);

/* The gzip or zlib header a stream starts with, from its level and window; its length (0 for
 * the other formats). gzip_header_write.c. */
uint32_t defl_wrap_header(const struct isal_zstream *s, uint8_t out[10]);

/* Tokens kept free at the end of the token area: one step of a tokenizer adds at most 2. */
#define DEFL_TOK_SLACK 4u

#pragma GCC visibility pop

#endif
