/* What the zlib-compatible layer (igzip/zlib/) uses of the igzip engine beyond the ISA-L API
 * (internal header). The layer drives isal_zstream and inflate_state through their public fields
 * and these hooks; it never reaches into the engine's private state, so the engine stays free to
 * change behind them.
 *
 * Compression. zlib's flushes, strategies and mid-stream parameter changes need four things the
 * ISA-L API lacks: ending a block without a marker (Z_BLOCK, and the first half of every other
 * flush), bits inserted between blocks (deflatePrime, the markers of Z_PARTIAL_FLUSH and
 * Z_SYNC_FLUSH), a match finder per strategy, and moving a stream with its level buffer
 * (deflateCopy).
 *
 * Decompression. Z_BLOCK and Z_TREES stop at block boundaries and after block headers; zlib's
 * messages name the fault a code stands for.
 */
#ifndef STOA_IGZIP_ZLIB_H
#define STOA_IGZIP_ZLIB_H

#include <stdint.h>

#include "isa-l/igzip_lib.h"

#pragma GCC visibility push(hidden)

/* ---- deflate -------------------------------------------------------------------------------- */

/* The bits of isal_zstate.has_level_buf_init as stoa uses it (0, what init and reset leave:
 * neither). LBUF: the level buffer's layout is set up for this stream. HEAD: level 0's table
 * head[] holds zeros or this stream's entries; init and reset leave it to be cleared where level
 * 0 first uses it, so that a one-shot call, which clears it itself, is spared the 16 KiB. */
#define DEFL_LBUF_READY 1u
#define DEFL_HEAD_READY 2u
/* FRESH: set by init and reset, cleared by a one-shot call: the tables (cleared where first used
 * after init or reset) hold only positions this stream entered, so that while the stream is in its
 * first window (positions from 0, no dictionary) each entry names a position at or before the one
 * looked up (defl_win.fresh). */
#define DEFL_FRESH_TABLE 4u

/* isal_zstream.flush beyond ISA-L's: end the open block once all input is in, with no marker
 * after it (its last bits stay in the bit writer). Accepted by defl_zlib_run only. */
#define DEFL_FLUSH_BLOCK 3

/* Strategies (defl_zlib_set_mode), the engine's form of zlib's: the match finder, and which
 * block forms a block may take. Modes other than DEFL_ZMODE_DEFAULT need a level of 1 or more
 * (they run on the level buffer's block machinery); DEFL_ZMODE_FIXED may be or'ed into any. */
enum {
	DEFL_ZMODE_DEFAULT = 0,  /* the level's match finder */
	DEFL_ZMODE_STORED = 1,   /* no coding: stored blocks only (zlib level 0) */
	DEFL_ZMODE_HUFFMAN = 2,  /* literals only (Z_HUFFMAN_ONLY) */
	DEFL_ZMODE_RLE = 3,      /* matches at distance 1 only (Z_RLE) */
	DEFL_ZMODE_FILTERED = 4, /* the level's matches of 6 bytes or more, else literals */
	DEFL_ZMODE_KIND = 0x0f,
	DEFL_ZMODE_FIXED = 0x10, /* never a dynamic block (Z_FIXED) */
};

/* isal_deflate, also accepting DEFL_FLUSH_BLOCK. */
int defl_zlib_run(struct isal_zstream *s);

/* The strategy of the blocks that start from now on; call it at a block boundary only
 * (defl_zlib_at_boundary), with stream->level set alike. A changed level or mode hashes the
 * window again for the new match finder. */
void defl_zlib_set_mode(struct isal_zstream *s, uint32_t mode);

/* Every byte the stream took is coded and no block is open: a flush has completed (output may
 * still wait in the stream: defl_zlib_pending). */
int defl_zlib_at_boundary(const struct isal_zstream *s);

/* Output held in the stream: whole bytes not yet handed out, and bits (0-7) of the next byte. */
uint32_t defl_zlib_pending(const struct isal_zstream *s, uint32_t *bits);

/* Append n (<= 16) bits of value to the output at this point (between blocks). Returns 0 when
 * the stream holds too much output to take them now: hand it out first. */
int defl_zlib_put_bits(struct isal_zstream *s, uint32_t value, uint32_t n);

/* Append the marker of a sync flush: an empty stored block, so the output ends on a byte
 * boundary with 00 00 ff ff. Returns 0 as defl_zlib_put_bits does. */
int defl_zlib_put_sync(struct isal_zstream *s);

/* A full flush: no later match reaches before this point. */
void defl_zlib_forget_history(struct isal_zstream *s);

/* The last up to max bytes the stream saw (its window): stores their start in *p and returns
 * their count. */
uint32_t defl_zlib_window(const struct isal_zstream *s, uint32_t max, const uint8_t **p);

/* After dst has been copied from src and dst->level_buf from src->level_buf: point dst's state
 * into its own level buffer. */
void defl_zlib_relocate(struct isal_zstream *dst, const struct isal_zstream *src);

/* ---- inflate -------------------------------------------------------------------------------- */

/* Where isal_inflate stops early, beside the end of input and output: at the end of each
 * block (Z_BLOCK), and also right after each block header (Z_TREES). A stop is reported once,
 * when the output before it has all been handed out. Calling it also tells the engine that
 * its input is not one contiguous buffer across calls (at the end of a stream, whole bytes
 * taken in earlier calls stay in read_in instead of being handed back before next_in). */
enum { INF_ZSTOP_NONE = 0, INF_ZSTOP_BLOCK = 1, INF_ZSTOP_TREES = 2 };
void inf_zlib_set_stop(struct inflate_state *s, int stop);

/* The stop the last call returned at (INF_ZSTOP_BLOCK: the end of a block, INF_ZSTOP_TREES:
 * the end of a block header), or INF_ZSTOP_NONE. */
int inf_zlib_stopped(struct inflate_state *s);

/* Why the last call failed, in zlib's words (NULL when it did not). */
const char *inf_zlib_error(struct inflate_state *s, int ret);

/* Bytes still to copy of the stored block being decoded (0 outside one). */
uint32_t inf_zlib_stored_left(const struct inflate_state *s);

#pragma GCC visibility pop

#endif
