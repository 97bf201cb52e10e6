/* The compression levels' parameters, resolved once per stream from its level (the pattern of
 * zlib-ng's configuration table and libdeflate's compressor setup): the level buffer's layout,
 * the match finder's search and the block writer's choices all read this record, never the
 * level number.
 *
 * The record of a level is a compile-time constant where the level is (each level's tokenizer
 * is instantiated with its own), so a field the template tests folds away there. */
#ifndef STOA_DEFLATE_LEVELS_H
#define STOA_DEFLATE_LEVELS_H

#include <stdint.h>

#include "isa-l/igzip_lib.h"
#include "stoa.h"

#pragma GCC visibility push(hidden)

/* Knuth's multiplicative hash constants (2^32 and 2^64 over the golden ratio). */
#define DEFL_HASH_MUL32 0x9e3779b1u
#define DEFL_HASH_MUL64 0x9e3779b97f4a7c15ull

/* The bits of a position's next 8 bytes that a level's hash covers (deflate_match_tpl.h):
 * level 1 46, level 2 40, small inputs at levels 1-2 and level 3 the 4 bytes every match must
 * share. */
#define DEFL_HKEEP_L1 46u
#define DEFL_HKEEP_L2 40u
#define DEFL_HKEEP_4B 32u

/* The highest level stoa runs. */
#define DEFL_MAX_LEVEL STOA_DEF_MAX_LEVEL

struct defl_params {
	uint32_t level;
	uint32_t min_buf; /* the least level_buf it runs in (ISAL_DEF_LVLn_MIN) */
	/* Level buffer: log2 of the hash buckets of the ISAL_DEF_LVLn_REQ table, and the most a
	 * bigger buffer gives it. Levels 1-2 stay at the first: their one-candidate parse runs
	 * from one match to the next no faster than a table lookup, which a table that stays in
	 * L1 keeps short (Calgary level 1 with 2^13 entries against 2^15: +5%, 37.71% against
	 * 36.92% of the input). */
	uint8_t hash_bits, hash_bits_max;
	/* One-shot inputs up to hash4_kib KiB (0: none) hash 4 bytes, not hkeep's, in the
	 * pairs_row_small loops: a longer hash loses the short matches a small input needs more
	 * (xargs.1, 4 KB, level 1: 47.4% of the input against 43.7%). Level 1 stops at 32 KiB, past
	 * which its 46-bit hash is faster; level 2 at 8 KiB, past which its 5-byte hash codes as
	 * small or smaller (its small loops also keep GIVE). */
	uint8_t hash4_kib;
	/* Search: one-step lazy evaluation for matches shorter than nice; head: positions after
	 * a match's start entered into the table by the one-position loop (its last position
	 * always is); hkeep: the bits of the next 8 bytes the hash covers. */
	uint8_t lazy;
	uint16_t nice;
	uint8_t head;
	uint8_t hkeep;
	/* The level's pair loops (deflate_match_tpl.h's pairs_tab row), and the row for the
	 * small inputs' 4-byte hash. */
	uint8_t pairs_row, pairs_row_small;
	/* Block splitting: a block ends where the token classes' total variation distance
	 * exceeds split_pct percent, checked every split_every * DEFL_SPLIT_CHECK tokens. Levels
	 * 1-2 split less readily and check less often: every block costs its code building and
	 * header (Calgary: 0.60 against 0.36 makes them 5% faster for 0.01% more output;
	 * checking half as often at level 2 and a quarter at level 1: +2% and +1%, 0.01 and 0.13
	 * points more output). Levels 4-8 take 50 for the same reason on the decoder's side: every
	 * block is a table build, and at 36 they made twice zlib -9's blocks (Calgary: 62-84
	 * against 39), for sizes within 0.05 points; 9 takes 40, for size (below). Level 4 checks
	 * half as often (3% faster on Calgary and Canterbury, 0.01 points more output). Levels 5-9
	 * also join blocks that code no smaller apart (defl_lvl_merges); with that, 36 at levels
	 * 6 and 8 would make 0.1% less of the mix in a quarter more blocks on Calgary. */
	uint8_t split_pct, split_every;
	/* Streaming blocks past STREAM_BLOCK_IN (long_blocks) split at this percentage instead (0:
	 * split_pct); with long_check they also end where a 16 KiB piece codes better apart, a
	 * new header costing 100 * long_check bits (deflate_stream.c). */
	uint8_t split_pct_long, long_check;
	/* Streaming blocks that code well run on to STREAM_BLOCK_LONG bytes (deflate_stream.c):
	 * those whose first STREAM_BLOCK_IN bytes took at most long_tok_pct tokens per 100 bytes. */
	uint8_t long_blocks, long_tok_pct;
	/* defl_build_codes' QUICK header coding. */
	uint8_t quick_codes;
	/* Levels with hash chains (deflate_chain.c; 0: levels 1-3's one-candidate tables): the
	 * candidates a search visits; lazy evaluation while the match is shorter than max_lazy,
	 * two positions ahead with lazy2 (not 0), where a match must beat the held one by lazy2
	 * quarter literals (match_better); a look-ahead search visits chain >> lazy_shift, a
	 * quarter of them once the held match is good long, and the one two ahead a further
	 * lazy2_shift fewer. */
	uint16_t chain, good, max_lazy;
	uint8_t lazy2, lazy_shift, lazy2_shift;
	/* With deep_steps (not 0), the first look-ahead search visits all chain candidates while
	 * the searches of the last stretch of tokens walked fewer than deep_steps candidates per
	 * token (deflate_chain.c, tok_chain): depth where chains are short, and the look-aheads'
	 * usual share where they are long. */
	uint16_t deep_steps;
	/* Matches of 3 bytes are taken up to far3 back: beyond a few hundred bytes their distance
	 * code and extra bits cost about what three literals do, and each one held costs the
	 * look-ahead searches a literal would not (levels 4-6 take 512: 8192 ran 5-10% slower on
	 * the mix for 0.01 points). Matches of 4 bytes pay at any distance in the window. */
	uint16_t far3;
	/* The positions inside a match enter the chains only when the match is at most ins_max
	 * long (0: always). A long match's inner positions mostly repeat what the chains hold;
	 * skipping them is zlib's fast-level rule, and at the shallowest level it buys 4% of the
	 * time for 0.2 points of size. */
	uint16_t ins_max;
	/* 2: a greedy parse over two-way buckets instead of chains (deflate_chain.c's tok_bucket;
	 * chain, good, max_lazy, lazy2 and far3 unused). */
	uint8_t ways;
	/* The bucket level: a block ends after this many input bytes (0: no bound) besides where
	 * the split test ends it. The test weighs token classes, which miss a change in which
	 * literal values a region uses (kennedy.xls at level 4: 3% smaller in 64 KiB blocks). */
	uint32_t max_block;
	/* Near-optimal levels (deflate_optimal.c): the passes of the shortest-path parse over each
	 * chunk (0: a lazy level). Their chain and nice bound the match search. */
	uint8_t opt;
};

/* A hash-chain level: chain depth, good length, lazy threshold, nice length, two-step lazy's
 * margin, ins_max, look-ahead depth shift, far3, split_pct, the second look-ahead's further shift,
 * deep_steps. (good 258: the depth is never cut.) Level 5 enters no positions of matches over 200
 * bytes (Canterbury 1% faster, the mix 5%, for 0.01 points). The 4-byte heads take 2^16 buckets
 * where level_buf has room (fewer foreign positions in a chain: Calgary 0.09 points smaller at
 * level 5, at the same speed). The levels are spaced so that each is no larger and no slower than
 * the peer levels named (Calgary and Canterbury): 4 zlib-ng 2 (and libdeflate 1 on the mix;
 * smaller than it on all three); 5 zlib-ng 3 and, near a tie, libdeflate 2; 6 zlib-ng 4 and
 * libdeflate 3-4; 7 zlib-ng 5-6 and libdeflate 5; 8 libdeflate 7 and zlib-ng 7-9; 9 is the
 * smallest (depth 600; 3-byte matches up to 16 KiB back and blocks split at 40: against 8 KiB and
 * 45, 0.01-0.03 points smaller on all three sets at the same speed, Zen 5). Level 9's first
 * look-ahead searches the whole chain where chains are short (under deep_steps 250 candidates a
 * token), else half; the second a quarter of the first's depth, at a margin of 4: 0.02 points
 * smaller on Calgary and Canterbury for 5-13% more instructions, where full depth everywhere made
 * kennedy.xls, whose 4-byte chains are long and its matches short, twice as slow. The README's
 * deflate section has the sizes and speeds. */
#define DEFL_CHAINS(n, chain_, nice_, split_, every_)                                              \
	.level = (n), .min_buf = ISAL_DEF_LVL##n##_MIN, .hash_bits = 15, .hash_bits_max = 16,      \
	.nice = (nice_), .split_pct = (split_), .split_every = (every_), .long_blocks = 1,         \
	.long_tok_pct = 50, .chain = (chain_)
#define DEFL_CHAIN_LEVEL(n, chain_, good_, lazy_, nice_, lazy2_, ins_, shift_, far3_, split_,     \
			 shift2_, deep_)                                                           \
	{ DEFL_CHAINS(n, chain_, nice_, split_, 1),                                                \
	  .good = (good_),                                                                         \
	  .max_lazy = (lazy_),                                                                     \
	  .lazy2 = (lazy2_),                                                                       \
	  .lazy_shift = (shift_),                                                                  \
	  .lazy2_shift = (shift2_),                                                                \
	  .deep_steps = (deep_),                                                                   \
	  .far3 = (far3_),                                                                         \
	  .ins_max = (ins_) }

/* A two-way bucket level: chain (2, for min_len's cap), nice, ins_max, split_pct, split_every,
 * max_block.
 * Level 4 takes nice 258 (the second candidate always compared) and ins_max 32: each made it
 * smaller at the same speed (ins_max 32 against 16: Calgary 0.09 points); 64 KiB blocks made
 * Canterbury 0.22 points smaller (Calgary 0.04 larger, still below libdeflate 1). */
#define DEFL_BUCKET_LEVEL(n, chain_, nice_, ins_, split_, every_, max_block_)                      \
	{ DEFL_CHAINS(n, chain_, nice_, split_, every_), .ways = 2, .ins_max = (ins_),             \
	  .max_block = (max_block_) }

/* A near-optimal level (deflate_optimal.c): the nodes a match tree search visits, nice length,
 * passes, split_pct (the greedy observations that end a block). Each level is placed to be no
 * larger and no slower than libdeflate's level of the same number on Calgary, Canterbury and the
 * mix. Level 10 searches less deep than libdeflate's 35 but on to 80 bytes (28/64 left Calgary
 * 194 bytes larger than libdeflate 10). Level 12 takes three passes: a fourth cost 13% more time
 * and made Calgary larger. */
#define DEFL_OPT_LEVEL(n, chain_, nice_, passes_, split_)                                         \
	{ DEFL_CHAINS(n, chain_, nice_, split_, 1), .opt = (passes_) }

/* The record of level (0 .. DEFL_MAX_LEVEL; callers check the range). */
static inline const struct defl_params *defl_params(uint32_t level)
{
	static const struct defl_params tab[DEFL_MAX_LEVEL + 1] = {
		{ .level = 0, .min_buf = ISAL_DEF_LVL0_MIN },
		{ .level = 1,
		  .min_buf = ISAL_DEF_LVL1_MIN,
		  .hash_bits = 13,
		  .hash_bits_max = 13,
		  .hash4_kib = 32,
		  .nice = 258,
		  .hkeep = DEFL_HKEEP_L1,
		  .pairs_row = 0,
		  .pairs_row_small = 3,
		  .split_pct = 60,
		  .split_every = 4,
		  .long_blocks = 1,
		  .long_tok_pct = 66,
		  .quick_codes = 1,
		  .long_check = 20 },
		{ .level = 2,
		  .min_buf = ISAL_DEF_LVL2_MIN,
		  .hash_bits = 14,
		  .hash_bits_max = 14,
		  .hash4_kib = 8,
		  .nice = 258,
		  .head = 2,
		  .hkeep = DEFL_HKEEP_L2,
		  .pairs_row = 1,
		  .pairs_row_small = 4,
		  .split_pct = 60,
		  .split_every = 2,
		  .long_blocks = 1,
		  .long_tok_pct = 50,
		  .quick_codes = 1 },
		{ .level = 3,
		  .min_buf = ISAL_DEF_LVL3_MIN,
		  .hash_bits = 14,
		  .hash_bits_max = 16,
		  .lazy = 1,
		  .nice = 258,
		  .head = 2,
		  .hkeep = DEFL_HKEEP_4B,
		  .pairs_row = 2,
		  .pairs_row_small = 2,
		  .split_pct = 36,
		  .split_every = 1,
		  .long_blocks = 1,
		  .long_tok_pct = 50,
		  .split_pct_long = 30,
		  .long_check = 6 },
		DEFL_BUCKET_LEVEL(4, 2, 258, 32, 50, 2, 65536),
		DEFL_CHAIN_LEVEL(5, 2, 258, 16, 24, 6, 200, 0, 512, 50, 1, 0),
		DEFL_CHAIN_LEVEL(6, 5, 258, 16, 24, 6, 0, 1, 512, 50, 1, 0),
		DEFL_CHAIN_LEVEL(7, 12, 258, 40, 40, 6, 0, 1, 8192, 50, 1, 0),
		DEFL_CHAIN_LEVEL(8, 35, 258, 65, 65, 6, 0, 1, 8192, 50, 1, 0),
		DEFL_CHAIN_LEVEL(9, 600, 258, 258, 258, 4, 0, 1, 16384, 40, 2, 250),
		DEFL_OPT_LEVEL(10, 24, 80, 2, 45),
		DEFL_OPT_LEVEL(11, 60, 150, 3, 45),
		DEFL_OPT_LEVEL(12, 150, 258, 3, 45),
	};
	return &tab[level];
}

#undef DEFL_CHAINS
#undef DEFL_CHAIN_LEVEL
#undef DEFL_BUCKET_LEVEL
#undef DEFL_OPT_LEVEL

#pragma GCC visibility pop

#endif
