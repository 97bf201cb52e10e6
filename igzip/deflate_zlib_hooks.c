/* The hooks the zlib layer (igzip/zlib/) drives the engine through (igzip_zlib.h). */
#include "igzip_zlib.h"
#include "deflate_engine.h"

int defl_zlib_run(struct isal_zstream *s)
{
	if (s->flush > DEFL_FLUSH_BLOCK)
		return INVALID_FLUSH;
	return defl_unnull_call(s, defl_run);
}

static enum isal_zstate_state plain_state(const struct isal_zstate *st)
{
	return st->state >= ZSTATE_TMP_NEW_HDR ? st->state - (ZSTATE_TMP_OFFSET) : st->state;
}

int defl_zlib_at_boundary(const struct isal_zstream *s)
{
	const struct isal_zstate *st = &s->internal_state;
	return plain_state(st) == ZSTATE_NEW_HDR && st->b_bytes_processed == st->b_bytes_valid;
}

void defl_zlib_set_mode(struct isal_zstream *s, uint32_t mode)
{
	struct isal_zstate *st = &s->internal_state;
	const int changed = mode != st->dist_mask || s->level != st->hash_mask;
	st->dist_mask = mode;
	/* The new match finder's tables start empty: the window goes into them first, as a
	 * dictionary does (hash_dict). */
	if (changed && st->has_hist != IGZIP_DICT_HIST && st->b_bytes_valid > st->block_next)
		st->has_hist = IGZIP_DICT_HIST;
}

uint32_t defl_zlib_pending(const struct isal_zstream *s, uint32_t *bits)
{
	const struct isal_zstate *st = &s->internal_state;
	*bits = st->bitbuf.m_bit_count;
	return st->tmp_out_end - st->tmp_out_start;
}

/* Bits through tmp_out_buff behind what it holds: sync adds an empty stored block, else n bits
 * of value. bw_put stores 8 bytes at a time, which decides the room each needs. */
static int zlib_put(struct isal_zstream *s, uint32_t value, uint32_t n, int sync)
{
	struct isal_zstate *st = &s->internal_state;
	const uint32_t have = st->tmp_out_end - st->tmp_out_start;
	if (plain_state(st) == ZSTATE_END || have > (sync ? 7u : 8u))
		return 0;
	memmove(st->tmp_out_buff, st->tmp_out_buff + st->tmp_out_start, have);
	st->state = plain_state(st);
	struct BitBuf2 *b = &st->bitbuf;
	bw_set_buf(b, st->tmp_out_buff + have, sizeof(st->tmp_out_buff) - have);
	if (sync)
		defl_put_sync_marker(b);
	else
		bw_put(b, value & ((1u << n) - 1), n);
	st->tmp_out_start = 0;
	st->tmp_out_end = (uint32_t)(b->m_out_buf - st->tmp_out_buff);
	bw_set_buf(b, NULL, 0);
	if (defl_tmp_pending(s))
		st->state += ZSTATE_TMP_OFFSET;
	return 1;
}

int defl_zlib_put_bits(struct isal_zstream *s, uint32_t value, uint32_t n)
{
	return zlib_put(s, value, n, 0);
}

int defl_zlib_put_sync(struct isal_zstream *s)
{
	return zlib_put(s, 0, 0, 1);
}

void defl_zlib_forget_history(struct isal_zstream *s)
{
	s->internal_state.block_next = s->internal_state.b_bytes_processed;
}

uint32_t defl_zlib_window(const struct isal_zstream *s, uint32_t max, const uint8_t **p)
{
	const struct isal_zstate *st = &s->internal_state;
	const uint32_t n = st->b_bytes_valid < max ? st->b_bytes_valid : max;
	*p = st->buffer + st->b_bytes_valid - n;
	return n;
}

void defl_zlib_relocate(struct isal_zstream *dst, const struct isal_zstream *src)
{
	if (!dst->level_buf || !src->level_buf ||
	    !(src->internal_state.has_level_buf_init & DEFL_LBUF_READY))
		return;
	struct defl_lvl *L = defl_lvl_state(dst);
	const uint8_t *from = (const uint8_t *)defl_lvl_state(src);
	uint8_t *to = (uint8_t *)L;
	L->hash = (uint16_t *)(void *)(to + ((const uint8_t *)L->hash - from));
	L->tok = (uint32_t *)(void *)(to + ((const uint8_t *)L->tok - from));
}
