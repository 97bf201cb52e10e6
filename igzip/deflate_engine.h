/* What the files of isal_deflate share (internal): the output helpers (deflate_output.c), the
 * level buffer and block writer (deflate_block.c), and the stream driver's entry points
 * (deflate_stream.c) that one-shot compression and the zlib hooks reuse. */
#ifndef STOA_DEFLATE_ENGINE_H
#define STOA_DEFLATE_ENGINE_H

#include "deflate_internal.h"

#pragma GCC visibility push(hidden)

/* ---- deflate_output.c */

/* internal_state.crc as ISA-L keeps it: the CRC-32 for gzip; for zlib the Adler-32 minus one
 * (so that a new stream's 0 stands for Adler-32's initial 1). */
void defl_update_checksum(struct isal_zstream *s, const uint8_t *p, uint64_t len);
/* The fixed codes, built once. */
const struct isal_hufftables *defl_static_tables(void);
/* Level 0's codes: the stream's, else stoa's default ones. */
const struct isal_hufftables *defl_lvl0_tables(const struct isal_zstream *s);
/* Hand out what tmp_out_buff holds as room allows; whether some is still there. */
void defl_drain_tmp(struct isal_zstream *s);
int defl_tmp_pending(const struct isal_zstream *s);
/* Point the bit writer at the caller's buffer (or tmp_out_buff when it is small), and account
 * for what was written. */
void defl_out_open(struct isal_zstream *s);
void defl_out_close(struct isal_zstream *s);
/* Writers that return 1 once complete, 0 when the room lacks (done / internal_state.count
 * resume them). */
int defl_put_header(struct BitBuf2 *b, const struct isal_hufftables *t, int final, uint32_t *done);
int defl_put_sync_marker(struct BitBuf2 *b);
int defl_put_empty_final(struct BitBuf2 *b);
int defl_put_wrap_hdr(struct isal_zstream *s, struct BitBuf2 *b);
int defl_put_trailer(struct isal_zstream *s, struct BitBuf2 *b);
/* The trailer's bytes for total_in input bytes; its length. */
uint32_t defl_trailer_bytes(const struct isal_zstream *s, uint32_t total_in, uint8_t out[8]);

/* ---- deflate_repeat.c */

/* Whether all n >= 1 bytes at p are the same. */
int defl_repeated(const uint8_t *p, uint32_t n);
/* n >= 1 bytes of value v as one block (final: the last), the smallest of the fixed and a
 * three- or four-symbol dynamic code; 0 when the room lacks. */
int defl_repeat_block(struct BitBuf2 *b, uint32_t v, uint32_t n, int final);

/* ---- deflate_block.c */

uint32_t defl_lvl_min_size(uint32_t level);
/* The level state at the start of level_buf, and the bytes of level_buf from there. */
struct defl_lvl *defl_lvl_state(const struct isal_zstream *s);
uint64_t defl_lvl_usable(const struct isal_zstream *s);
/* log2 of the hash buckets of level in usable bytes (for a one-shot input of in_len bytes, no
 * bigger than it needs; 0: streaming). */
uint32_t defl_lvl_hash_bits(uint32_t level, uint64_t usable, uint64_t in_len);
/* Lay out level_buf for level: the state, the hash tables, the tokens. */
void defl_lvl_setup(struct isal_zstream *s, uint32_t level, uint64_t in_len);
/* Bits of len bytes as stored blocks, starting at bit position bitpos of a byte. */
uint64_t defl_stored_bits(uint64_t len, uint32_t bitpos);
/* A block of the hash-chain levels held back (one-shot compression): its tokens at the front of
 * the token area, their counts, its size coded alone (defl_dynamic_bits) and its first input
 * byte. */
struct defl_pending {
	struct isal_mod_hist hist;
	uint64_t bits;
	uint32_t ntok, start;
	uint8_t *open; /* defl_block_write_joined's */
};
/* The block just tokenized (L's tokens after the held ones, input bytes start .. end) joins the
 * held one where one block of both is no larger than the two (in its cheapest form: dynamic,
 * fixed or stored); else the held one is written and
 * the new one held. 0 when the output has no room. */
int defl_pending_add(struct defl_lvl *L, struct defl_pending *pd, struct BitBuf2 *b,
                     const uint8_t *src, uint32_t start, uint32_t end, uint32_t mode);
/* Write the held block, which ends at input byte to (final: the stream's last, written even when
 * empty). 0 when the output has no room. */
int defl_pending_write(struct defl_lvl *L, struct defl_pending *pd, struct BitBuf2 *b,
                       const uint8_t *src, uint32_t to, int final, uint32_t mode);
/* The open block (tokens of len input bytes) is complete: choose its form; then write it from
 * its input src, resumable (1 once complete). */
void defl_block_prepare(struct defl_lvl *L, uint32_t len, int final, uint32_t bitpos,
			uint32_t mode);
int defl_block_write(struct defl_lvl *L, struct BitBuf2 *b, const uint8_t *src);
/* defl_block_write for one-shot output (all of it in one buffer, written in this call): a
 * stored block first fills the last chunk of a stored block just before it (*open, which it
 * updates; NULL at the start). */
int defl_block_write_joined(struct defl_lvl *L, struct BitBuf2 *b, const uint8_t *src,
                            uint8_t **open);

/* ---- deflate_stream.c */

/* The history window of the stream's hist_bits. */
uint32_t defl_window_size(const struct isal_zstream *s);
/* The stream's level and level buffer are usable: COMP_OK or the error ISA-L reports. */
int defl_check_level(const struct isal_zstream *s);
/* isal_deflate's work, any flush mode the caller checked. */
int defl_run(struct isal_zstream *stream);
/* call(stream) with NULL buffers of length 0 swapped for pointers to no bytes. */
int defl_unnull_call(struct isal_zstream *stream, int (*call)(struct isal_zstream *));

#pragma GCC visibility pop

#endif
