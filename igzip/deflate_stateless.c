/* isal_deflate_stateless: one-shot compression straight from next_in, coded or stored. */
#include "deflate_engine.h"
#include "igzip_zlib.h"

/* Stored blocks of all input, from a byte boundary; 1 when they fit. Byte-exact: the output may
 * end right after the last byte. */
static int stateless_stored(struct isal_zstream *s, int final)
{
	struct BitBuf2 *b = &s->internal_state.bitbuf;
	const uint8_t *src = s->next_in;
	uint32_t left = s->avail_in;
	do {
		const uint32_t n = left < 65535 ? left : 65535;
		if (bw_room(b) < 5 + (size_t)n)
			return 0;
		uint8_t *o = b->m_out_buf;
		o[0] = final && n == left ? 1 : 0;
		o[1] = (uint8_t)n;
		o[2] = (uint8_t)(n >> 8);
		o[3] = (uint8_t)~n;
		o[4] = (uint8_t)(~n >> 8);
		memcpy(o + 5, src, n);
		b->m_out_buf = o + 5 + n;
		src += n;
		left -= n;
	} while (left);
	return 1;
}

/* Coded blocks of all input; 1 when they fit.
 *
 * A dictionary set with isal_deflate_set_dict waits in internal_state.buffer[0 .. dl). Matches
 * can reach it only from input placed right behind it, so the first part of the input is copied
 * there and coded in that window ("segment A"); the rest is coded straight from next_in, whose
 * own first bytes are then history enough (segment B). Positions count from the dictionary's
 * start in both, so the hash tables carry over. Blocks may span both segments: their stored
 * form is always read from next_in. */
static int stateless_coded(struct isal_zstream *s, uint32_t level, int final)
{
	struct isal_zstate *st = &s->internal_state;
	struct BitBuf2 *b = &st->bitbuf;
	const uint32_t end = s->avail_in;
	/* A dictionary set (IGZIP_DICT_HIST) or set and hashed by isal_deflate_reset_dict
	 * (IGZIP_HIST before any input). */
	const int dict = st->has_hist == IGZIP_DICT_HIST ||
			 (st->has_hist == IGZIP_HIST && s->total_in == 0 && st->block_next == 0);
	const uint32_t dl = dict ? st->b_bytes_valid : 0;
	uint32_t ka = 0; /* input bytes in segment A */
	if (dl) {
		ka = DEFL_BUF_SIZE - dl;
		if (ka > end)
			ka = end;
		memcpy(st->buffer + dl, s->next_in, ka);
	}
	/* (The tables are cleared below, so the windows that start at position 0 are fresh.) */
	const uint32_t wsize = defl_window_size(s);
	/* Level 0's table for a small input without a dictionary: 2^hbits entries. */
	const uint32_t hbits = level == 0 && !dl && wsize == DEFL_WIN_SIZE
	                           ? defl_lvl0_small_bits(end)
	                           : 0;
	const struct defl_win wa = { st->buffer, 0, dl + ka, 0, wsize, 1, 0 };
	const struct defl_win wb = { s->next_in, 0, end, dl, wsize, dl == 0, hbits };

	if (end && defl_repeated(s->next_in, end)) {
		/* (Matches at distance 1 only: a dictionary changes nothing.) */
		if (!defl_repeat_block(b, s->next_in[0], end, final))
			return 0;
	} else if (level == 0) {
		const struct isal_hufftables *t = defl_lvl0_tables(s);
		uint32_t done = 0;
		/* (Part of the table cleared: a stream using it later clears it all.) */
		memset(st->head, 0, hbits ? sizeof(st->head[0]) << hbits : sizeof(st->head));
		st->has_level_buf_init = (uint16_t)(hbits ? st->has_level_buf_init & ~DEFL_HEAD_READY
		                                          : st->has_level_buf_init | DEFL_HEAD_READY);
		st->has_level_buf_init &= (uint16_t)~DEFL_FRESH_TABLE;
		if (!defl_put_header(b, t, final, &done))
			return 0;
		if (dl) {
			defl_lvl0_insert(st->head, &wa, 0, dl);
			const uint32_t p = defl_lvl0_impl()(b, t, st->head, &wa, dl, dl + ka);
			if (p < dl + ka)
				return 0;
		}
		const uint32_t p = defl_lvl0_impl()(b, t, st->head, &wb, ka, end);
		if (p < end || bw_room(b) < 8)
			return 0;
		defl_emit_eob(b, t);
	} else {
		defl_lvl_setup(s, level, (uint64_t)dl + end);
		/* the layout was sized for this input only */
		st->has_level_buf_init &= (uint16_t)~(DEFL_LBUF_READY | DEFL_FRESH_TABLE);
		struct defl_lvl *L = defl_lvl_state(s);
		defl_tok_fn *const tokenize = defl_tok_mode(st->dist_mask, level);
		if (dl)
			defl_lvl_insert(L, &wa, 0, dl);
		/* The hash-chain levels hold each block back until the next one is tokenized and
		 * write the two as one where that is no larger (pend: the block held). */
		const int merge = defl_cand_of(L) != NULL;
		uint32_t *const tok = L->tok;
		const uint32_t cap = L->tok_cap;
		struct defl_pending pend = { 0 };
		uint32_t p = 0; /* input bytes tokenized */
		uint8_t *open = NULL; /* a stored chunk the next stored block may fill */
		do {
			const uint32_t blk = p;
			if (merge && pend.ntok > cap / 2 &&
			    !defl_pending_write(L, &pend, b, s->next_in, blk, 0, st->dist_mask))
				return 0;
			defl_lvl_block_reset(L);
			/* (A block held stays in front of the token area.) */
			L->tok = tok + pend.ntok;
			L->tok_cap = cap - pend.ntok;
			do {
				if (p < ka)
					p = tokenize(L, &wa, p + dl, dl + ka) - dl;
				else
					p = tokenize(L, &wb, p, end);
			} while (p < end && !L->split && L->ntok + DEFL_TOK_SLACK < L->tok_cap);
			L->tok = tok;
			L->tok_cap = cap;
			if (merge) {
				if (!defl_pending_add(L, &pend, b, s->next_in, blk, p, st->dist_mask))
					return 0;
				if (p == end &&
				    !defl_pending_write(L, &pend, b, s->next_in, p, final, st->dist_mask))
					return 0;
				continue;
			}
			defl_block_prepare(L, p - blk, final && p == end, b->m_bit_count, st->dist_mask);
			if (!defl_block_write_joined(L, b, s->next_in + blk, &open))
				return 0;
		} while (p < end);
	}
	if (!final && !defl_put_sync_marker(b))
		return 0;
	if (bw_room(b) < 8)
		return 0;
	bw_flush_to_byte(b);
	return 1;
}

static int deflate_stateless(struct isal_zstream *stream)
{
	struct isal_zstate *st = &stream->internal_state;
	/* A one-shot NO_FLUSH call always writes the final block, and says so as ISA-L does (its
	 * callers, and its own tests, read end_of_stream back). */
	if (stream->flush == NO_FLUSH)
		stream->end_of_stream = 1;
	if (stream->flush != NO_FLUSH && stream->flush != FULL_FLUSH)
		return INVALID_FLUSH;
	uint32_t level = stream->level;
	if (level == 1 && !stream->level_buf) {
		level = 0; /* level 1 without a buffer codes as level 0 */
	} else if (level) {
		const int r = defl_check_level(stream);
		if (r != COMP_OK)
			return r;
	}
	const int final = stream->end_of_stream;

	uint8_t *const out0 = stream->next_out;
	const uint32_t room = stream->avail_out;
	const uint32_t crc0 = st->crc;
	struct BitBuf2 *b = &st->bitbuf;
	uint8_t hdr[10], trl[8];
	const uint32_t nhdr = st->has_wrap_hdr ? 0 : defl_wrap_header(stream, hdr);
	defl_update_checksum(stream, stream->next_in, stream->avail_in);
	const uint32_t total_in = stream->total_in + stream->avail_in;
	const uint32_t ntrl = final ? defl_trailer_bytes(stream, total_in, trl) : 0;
	const uint64_t stored = defl_stored_bits(stream->avail_in, 0) / 8;

	int ok = 0;
	if ((uint64_t)nhdr + ntrl <= room) {
		const uint32_t body = room - nhdr - ntrl;
		/* Coded output is kept only when it is smaller than the stored form. */
		if (body >= 32) {
			/* 16 bytes beyond the stored size let the writer's checks pass for coded
			 * output that is still no larger. */
			const uint64_t cap = stored + 16 < body ? stored + 16 : body;
			bw_init(b, out0 + nhdr, (uint32_t)cap);
			ok = stateless_coded(stream, level, final) &&
			     (uint64_t)(b->m_out_buf - (out0 + nhdr)) <= stored;
		}
		if (!ok) {
			bw_init(b, out0 + nhdr, body);
			ok = stateless_stored(stream, final);
		}
	}
	if (!ok) {
		st->crc = crc0;
		bw_init(b, NULL, 0);
		return STATELESS_OVERFLOW;
	}
	memcpy(out0, hdr, nhdr);
	memcpy(b->m_out_buf, trl, ntrl);
	const uint32_t n = (uint32_t)(b->m_out_buf - out0) + ntrl;
	stream->next_out += n;
	stream->avail_out -= n;
	stream->total_out += n;
	stream->next_in += stream->avail_in;
	stream->total_in = total_in;
	stream->avail_in = 0;
	st->has_wrap_hdr = 1;
	st->state = final ? ZSTATE_END : ZSTATE_NEW_HDR;
	/* A dictionary served this call only: after its full flush no match may reach back. */
	st->has_hist = IGZIP_NO_HIST;
	bw_init(b, NULL, 0);
	return COMP_OK;
}

STOA_API int isal_deflate_stateless(struct isal_zstream *stream)
{
	return defl_unnull_call(stream, deflate_stateless);
}
