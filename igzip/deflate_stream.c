/* The isal_deflate streaming state machine: input into the history buffer, level 0's coding
 * with its stored fallback, and the block cycle of levels 1 and up.
 *
 * Input. A streaming compressor copies its input into internal_state.buffer behind up to 32 KiB
 * of history and codes from there; one-shot compression (deflate_stateless.c) codes straight
 * from next_in, and so do levels 1-3 for the rest of a long call once its first bytes in the
 * buffer are history enough (direct coding, below). */
#include "igzip_zlib.h"
#include "deflate_engine.h"

#define STREAM_BLOCK_IN DEFL_WIN_SIZE /* input bytes per block while streaming (levels 1-3) */
/* Levels with long_blocks: a streaming block whose first STREAM_BLOCK_IN bytes took at most
 * long_tok_pct tokens per 100 bytes runs on to STREAM_BLOCK_LONG bytes. Its first bytes may then
 * leave the buffer, so it is never stored (at two tokens in three bytes only near-random literals
 * with nothing but 3-byte matches could code longer than stored), and codes are built less often
 * (Calgary level 1 in 64 KiB calls: 128 KiB +7%, 256 KiB +9%, 37.68% -> 37.81% of the input). Fewer
 * blocks also mean fewer tables for the inflater to build. */
#define STREAM_BLOCK_LONG (8 * STREAM_BLOCK_IN)
/* A long block with at most one token per STREAM_SPARSE_BYTES input bytes (runs, zeros, long
 * repeats) runs on to STREAM_BLOCK_SPARSE: its codes barely matter to its size, while each block
 * costs a code build and, with long_check, its checkpoints (8 MiB of zeros at level 1 took 32
 * blocks, half its time). It ends as any block does where the split test or a checkpoint says
 * its statistics changed, and at STREAM_BLOCK_LONG once it is no longer sparse. */
#define STREAM_SPARSE_BYTES 64u
#define STREAM_BLOCK_SPARSE (128 * STREAM_BLOCK_IN)

uint32_t defl_window_size(const struct isal_zstream *s)
{
	const uint32_t hb = s->hist_bits;
	return hb == 0 || hb >= 15 ? DEFL_WIN_SIZE : 1u << hb;
}

int defl_check_level(const struct isal_zstream *s)
{
	if (s->level == 0)
		return COMP_OK;
	if (!s->level_buf)
		return ISAL_INVALID_LEVEL_BUF;
	if (s->level > DEFL_MAX_LEVEL)
		return ISAL_INVALID_LEVEL;
	/* ISA-L 2.30 reports a buffer too small for the level as a level it cannot run. */
	if (s->level_buf_size < defl_lvl_min_size(s->level))
		return ISAL_INVALID_LEVEL;
	return COMP_OK;
}

/* Copy input into the buffer, sliding out history no longer needed. Returns bytes taken. */
static uint32_t fill_buffer(struct isal_zstream *s, uint32_t level)
{
	struct isal_zstate *st = &s->internal_state;
	if (!s->avail_in)
		return 0;
	if (st->b_bytes_valid == DEFL_BUF_SIZE) {
		const uint32_t cur = st->b_bytes_processed;
		uint32_t keep = cur > DEFL_WIN_SIZE ? cur - DEFL_WIN_SIZE : 0;
		if (keep < st->block_next)
			keep = st->block_next;
		struct defl_lvl *const L = level ? defl_lvl_state(s) : NULL;
		if (level && keep > st->block_end && !L->longblk)
			keep = st->block_end;
		if (keep > cur)
			keep = cur;
		if (!keep)
			return 0;
		memmove(st->buffer, st->buffer + keep, st->b_bytes_valid - keep);
		st->b_bytes_valid -= keep;
		st->b_bytes_processed -= keep;
		st->block_next = st->block_next > keep ? st->block_next - keep : 0;
		if (level && keep > st->block_end) {
			L->gone += keep - st->block_end;
			st->block_end = 0;
		} else if (level) {
			st->block_end -= keep;
		}
		st->total_in_start += keep;
	}
	uint32_t n = DEFL_BUF_SIZE - st->b_bytes_valid;
	if (n > s->avail_in)
		n = s->avail_in;
	memcpy(st->buffer + st->b_bytes_valid, s->next_in, n);
	defl_update_checksum(s, s->next_in, n);
	s->next_in += n;
	s->avail_in -= n;
	s->total_in += n;
	st->b_bytes_valid += n;
	return n;
}

static void stream_win(const struct isal_zstream *s, struct defl_win *w)
{
	const struct isal_zstate *st = &s->internal_state;
	w->base = st->buffer;
	w->lo = st->block_next;
	w->end = st->b_bytes_valid;
	w->hbits = 0;
	w->bias = st->total_in_start;
	w->maxdist = defl_window_size(s);
	/* A stream's first window, before any dictionary or slide, is fresh as a one-shot call's
	 * is (streams of 16 KiB at level 1 on Zen 3: +20%). */
	w->fresh = (st->has_level_buf_init & DEFL_FRESH_TABLE) && st->has_hist == IGZIP_NO_HIST &&
	           w->lo == 0 && w->bias == 0;
}

/* Level 0's table, cleared first when init or reset left it to be (DEFL_HEAD_READY). */
static uint16_t *lvl0_head(struct isal_zstate *st)
{
	if (!(st->has_level_buf_init & DEFL_HEAD_READY)) {
		memset(st->head, 0, sizeof(st->head));
		st->has_level_buf_init |= DEFL_HEAD_READY;
	}
	return st->head;
}

/* Enter a freshly set dictionary into the tables of the stream's level. */
static void hash_dict(struct isal_zstream *s, uint32_t level)
{
	struct isal_zstate *st = &s->internal_state;
	if (st->has_hist != IGZIP_DICT_HIST)
		return;
	struct defl_win w;
	stream_win(s, &w);
	if (level)
		defl_lvl_insert(defl_lvl_state(s), &w, w.lo, st->b_bytes_processed);
	else
		defl_lvl0_insert(lvl0_head(st), &w, w.lo, st->b_bytes_processed);
	st->has_hist = IGZIP_HIST;
}

/* All input is in the buffer and the caller asked to end the stream. */
static int input_ends(const struct isal_zstream *s)
{
	return s->end_of_stream && !s->avail_in;
}

/* The caller asked for a flush and all input is in the buffer. */
static int flush_due(const struct isal_zstream *s)
{
	return s->flush != NO_FLUSH && !s->avail_in;
}

/* After the last block of a run: the end of the stream, or the marker of the flush that ended
 * the run (written even if input arrived meanwhile). Returns 1 on progress. */
static int finish_or_flush(struct isal_zstream *s, struct BitBuf2 *b)
{
	struct isal_zstate *st = &s->internal_state;
	if (st->has_eob ||
	    (input_ends(s) && st->b_bytes_processed == st->b_bytes_valid)) {
		if (!st->has_eob) {
			if (!defl_put_empty_final(b))
				return 0;
			st->has_eob = 1;
		}
		st->state = ZSTATE_TRL;
		st->count = 0;
		return 1;
	}
	if (s->flush != DEFL_FLUSH_BLOCK && !defl_put_sync_marker(b))
		return 0;
	if (s->flush == FULL_FLUSH)
		st->block_next = st->b_bytes_processed;
	st->state = ZSTATE_NEW_HDR;
	return 1;
}

/* Level 0 codes as it goes, so incompressible input could grow by its literal codes. It works in
 * segments of LVL0_SEG bytes: a segment coded straight into the caller's buffer with room for
 * all of it is a trial, undone and written as a stored block when its bits exceed the stored
 * form's. The first segment of a block is coded in the same step as the block header, so the
 * header is undone with it; a later segment that expands ends the block before it. (With less
 * room than a trial needs, or in a block already marked final, segments are not undone.) */
#define LVL0_SEG 16384u

struct bw_mark {
	uint8_t *out;
	uint64_t bits;
	uint32_t count;
};

static struct bw_mark bw_save(const struct BitBuf2 *b)
{
	const struct bw_mark m = { b->m_out_buf, b->m_bits, b->m_bit_count };
	return m;
}

static void bw_restore(struct BitBuf2 *b, struct bw_mark m)
{
	b->m_out_buf = m.out;
	b->m_bits = m.bits;
	b->m_bit_count = m.count;
}

static uint64_t bw_bits_since(const struct BitBuf2 *b, struct bw_mark m)
{
	return (uint64_t)(b->m_out_buf - m.out) * 8 + b->m_bit_count - m.count;
}

/* Room a trial of seg bytes needs: its stored form, the header, slack. A trial runs with the
 * writer's end capped there; running out of that room already shows the segment expands. */
#define LVL0_TRIAL_SLACK (ISAL_DEF_MAX_HDR_SIZE + 64u)
#define LVL0_SEG_MIN 256u

/* The end of the next segment from cur (before stop): LVL0_SEG bytes, fewer when the output
 * room holds only a smaller trial. Sets *trial when a trial fits. */
static uint32_t lvl0_segment(const struct BitBuf2 *b, int direct, uint32_t cur, uint32_t stop,
			     int *trial)
{
	uint32_t seg = stop - cur < LVL0_SEG ? stop - cur : LVL0_SEG;
	const size_t room = bw_room(b);
	*trial = 0;
	if (direct && room >= LVL0_TRIAL_SLACK + LVL0_SEG_MIN) {
		if (seg > room - LVL0_TRIAL_SLACK)
			seg = (uint32_t)(room - LVL0_TRIAL_SLACK);
		*trial = 1;
	}
	return cur + seg;
}

/* Code base[cur .. stop) as a trial that may be undone: the writer's room is capped at the
 * stored form's size plus slack. Returns 1 when it expanded (coded bits beyond defl_stored_bits +
 * extra, or the cap was reached), with the writer back at m; else 0 with the segment coded. */
static int lvl0_trial(struct isal_zstream *s, struct BitBuf2 *b, const struct isal_hufftables *t,
		      uint32_t cur, uint32_t stop, struct bw_mark m, uint32_t extra)
{
	struct isal_zstate *st = &s->internal_state;
	struct defl_win w;
	stream_win(s, &w);
	const uint64_t limit = defl_stored_bits(stop - cur, m.count) + extra;
	uint8_t *const real_end = b->m_out_end;
	const size_t cap = (size_t)(limit / 8) + 32 - (size_t)(b->m_out_buf - m.out);
	if (cap < bw_room(b))
		b->m_out_end = b->m_out_buf + cap;
	const uint32_t p = defl_lvl0_impl()(b, t, lvl0_head(st), &w, cur, stop);
	b->m_out_end = real_end;
	/* (A match may run past stop.) */
	if (p >= stop && bw_bits_since(b, m) <= limit) {
		st->b_bytes_processed = p;
		return 0;
	}
	bw_restore(b, m);
	/* The segment's positions are in head[] and its bytes go out stored: a later trial may
	 * look up positions entered already, which only the checked loops reject. */
	st->has_level_buf_init &= (uint16_t)~DEFL_FRESH_TABLE;
	return 1;
}

/* One stored block of p[0 .. n) (n <= 65535); the caller checked the room (n + 16). */
static void put_stored_block(struct BitBuf2 *b, const uint8_t *p, uint32_t n, int final)
{
	bw_put(b, final ? 1 : 0, 3);
	bw_flush_to_byte(b);
	bw_put(b, (uint64_t)n | (uint64_t)(n ^ 0xffff) << 16, 32);
	memcpy(b->m_out_buf, p, n);
	b->m_out_buf += n;
}

/* Where level 0 may code to now: all input when the stream ends, flushes or the block is final;
 * else short of the last longest match. */
static uint32_t lvl0_stop(const struct isal_zstream *s)
{
	const struct isal_zstate *st = &s->internal_state;
	const int all = input_ends(s) || flush_due(s) || st->has_eob_hdr;
	const uint32_t stop = st->b_bytes_valid;
	if (all)
		return stop;
	const uint32_t safe = stop > DEFL_MAX_MATCH ? stop - DEFL_MAX_MATCH : 0;
	/* Input arriving in small pieces waits, while the buffer has room, until a whole segment
	 * can be coded: a segment that does not compress costs a stored block's header. */
	if (stop < DEFL_BUF_SIZE && safe < st->b_bytes_processed + LVL0_SEG)
		return st->b_bytes_processed;
	return safe;
}

/* Level 0 steps. Returns 1 when something happened. */
static int step_lvl0(struct isal_zstream *s, struct BitBuf2 *b)
{
	struct isal_zstate *st = &s->internal_state;
	const struct isal_hufftables *t = defl_lvl0_tables(s);
	const int direct = b->m_out_start != st->tmp_out_buff;
	switch (st->state) {
	case ZSTATE_NEW_HDR:
		if (st->b_bytes_processed < st->b_bytes_valid) {
			/* A header is committed only together with a segment that uses it: with only
			 * the held-back tail to code, the block waits for more input. */
			st->has_eob_hdr = (uint8_t)input_ends(s);
			const uint32_t cur = st->b_bytes_processed;
			int trial;
			const uint32_t stop0 = lvl0_stop(s);
			if (cur >= stop0) {
				st->has_eob_hdr = 0;
				return 0;
			}
			st->count = 0;
			st->state = ZSTATE_HDR;
			const uint32_t stop = lvl0_segment(b, direct, cur, stop0, &trial);
			if (!trial)
				return 1;
			/* Header and first segment as one trial. */
			const struct bw_mark m = bw_save(b);
			defl_put_header(b, t, st->has_eob_hdr, &st->count);
			st->state = ZSTATE_BODY;
			if (!lvl0_trial(s, b, t, cur, stop, m, 0))
				return 1;
			const int last = st->has_eob_hdr && stop == st->b_bytes_valid;
			st->b_bytes_processed = stop;
			st->count = 0;
			put_stored_block(b, st->buffer + cur, stop - cur, last);
			if (last) {
				st->has_eob = 1;
				st->state = ZSTATE_SYNC_FLUSH;
			} else if (stop == st->b_bytes_valid && flush_due(s)) {
				st->state = ZSTATE_SYNC_FLUSH;
			} else {
				st->state = ZSTATE_NEW_HDR;
			}
			return 1;
		}
		if (input_ends(s)) {
			st->state = ZSTATE_SYNC_FLUSH; /* nothing open: end the stream */
			return finish_or_flush(s, b);
		}
		return 0;
	case ZSTATE_HDR:
		if (!defl_put_header(b, t, st->has_eob_hdr, &st->count))
			return 0;
		st->state = ZSTATE_BODY;
		return 1;
	case ZSTATE_BODY: {
		struct defl_win w;
		stream_win(s, &w);
		const uint32_t stop0 = lvl0_stop(s);
		const uint32_t cur = st->b_bytes_processed;
		if (cur < stop0) {
			int trial;
			const uint32_t stop = lvl0_segment(b, direct, cur, stop0, &trial);
			if (!trial || st->has_eob_hdr) {
				st->b_bytes_processed =
					defl_lvl0_impl()(b, t, lvl0_head(st), &w, cur, stop);
				return st->b_bytes_processed != cur;
			}
			/* Undone, the segment costs an end of block (at most 15 bits) too. */
			if (lvl0_trial(s, b, t, cur, stop, bw_save(b), 15)) {
				defl_emit_eob(b, t);
				put_stored_block(b, st->buffer + cur, stop - cur, 0);
				st->b_bytes_processed = stop;
				st->state = stop == st->b_bytes_valid && flush_due(s) ? ZSTATE_SYNC_FLUSH
										 : ZSTATE_NEW_HDR;
			}
			return 1;
		}
		if (cur < st->b_bytes_valid || !(input_ends(s) || flush_due(s)))
			return 0;
		if (st->has_eob_hdr && !input_ends(s))
			return 0; /* the final block stays open until the stream ends */
		if (bw_room(b) < 8)
			return 0;
		defl_emit_eob(b, t);
		if (st->has_eob_hdr)
			st->has_eob = 1;
		st->state = ZSTATE_SYNC_FLUSH;
		return 1;
	}
	case ZSTATE_SYNC_FLUSH:
		return finish_or_flush(s, b);
	default:
		return 0;
	}
}

/* Levels with long_check let a block grow long only while its statistics hold: every LONG_PIECE
 * input bytes the symbols of the newest piece are weighed, by their entropy, coded with the
 * block's statistics against coded apart from the rest with the cost of a header of their own
 * (long_check: 100 bits each; more than a header's size makes blocks longer). A block
 * whose second piece would code better apart stops at STREAM_BLOCK_IN as before; a long block
 * ends after the first piece that would. (The token classes of the split check do not see a
 * change inside a class: Canterbury's kennedy.xls came out 1.3% larger in long blocks without
 * this test.) While a block is collected, L->mark holds the block's counts at the last checkpoint
 * (the piece's are the counts since) and their entropy, and stored_chunk (free until
 * defl_block_prepare, which leaves it 0) the block's input length at the next checkpoint (0: none
 * taken yet). */
#define LONG_PIECE (STREAM_BLOCK_IN / 2)
/* A piece of fewer tokens is not weighed: its checkpoint moves on and the piece grows. Coded
 * apart it would have to save a header's 100 * long_check bits, which so few tokens rarely do,
 * and weighing costs the entropy of all 543 counts twice (on runs of bytes, 12% of level 1's
 * time at 256). In a sparse block (stream_block_len) a piece waits for LONG_PIECE_SPARSE_TOK. */
#define LONG_PIECE_MIN_TOK 256u
#define LONG_PIECE_SPARSE_TOK 4096u

uint64_t defl_entropy_portable(const uint32_t *h, uint32_t n)
{
	/* A zero count takes the log of 1, which is 0: no branch for it. */
	uint64_t total = 0, sum = 0;
	for (uint32_t i = 0; i < n; i++) {
		total += h[i];
		sum += h[i] * defl_lg256(h[i] + (h[i] == 0));
	}
	return total ? total * defl_lg256((uint32_t)total) - sum : 0;
}

static uint64_t hist_bits(const struct isal_mod_hist *h)
{
	return defl_entropy(h->ll_hist, 513) + defl_entropy(h->d_hist, 30);
}

/* A checkpoint: whether the block's tokens since the last one (first: none) would code better
 * apart, which ends the block; the block's counts become the mark. The piece's counts are the
 * block's less the mark's (the tokenizers count every token they add), so no token is read. */
static int long_piece_differs(struct defl_lvl *L, int first)
{
	const uint64_t block = hist_bits(&L->hist);
	int differs = 0;
	if (!first) {
		struct isal_mod_hist piece;
		for (uint32_t k = 0; k < 513; k++)
			piece.ll_hist[k] = L->hist.ll_hist[k] - L->mark.hist.ll_hist[k];
		for (uint32_t k = 0; k < 30; k++)
			piece.d_hist[k] = L->hist.d_hist[k] - L->mark.hist.d_hist[k];
		const uint64_t hdr = 100ull * L->par->long_check;
		differs = L->mark.bits + hist_bits(&piece) + 256 * hdr < block;
	}
	L->mark.hist = L->hist;
	L->mark.bits = block;
	L->mark.ntok = L->ntok;
	return differs;
}

/* Whether the open block, blk_in long so far, is sparse (STREAM_SPARSE_BYTES). */
static int block_sparse(const struct defl_lvl *L, uint32_t blk_in)
{
	return (uint64_t)L->ntok * STREAM_SPARSE_BYTES <= blk_in;
}

/* The most input bytes the open block, blk_in long so far, may take. */
static uint32_t stream_block_len(const struct defl_lvl *L, uint32_t blk_in)
{
	if (!L->longblk)
		return STREAM_BLOCK_IN;
	return block_sparse(L, blk_in) ? STREAM_BLOCK_SPARSE : STREAM_BLOCK_LONG;
}

/* The first part of a block split at its candidate is written (defl_cand_split): the rest's
 * tokens move to the front and it is the open block, written next where the stream ends or
 * flushes, else run on (with its end as the new candidate where the split test ended it). */
static void rest_open(struct isal_zstream *s, struct defl_lvl *L, struct defl_cand *c)
{
	struct isal_zstate *st = &s->internal_state;
	const uint32_t first = L->ntok;
	c->prefix = 0;
	memmove(L->tok, L->tok + first, (size_t)c->rest_ntok * sizeof(*L->tok));
	L->ntok = c->rest_ntok;
	/* The open block's bytes are gone + (cur - block_end): the first part's leave it. */
	if (L->gone >= c->in) {
		L->gone -= c->in;
	} else {
		st->block_end += c->in - L->gone;
		L->gone = 0;
	}
	/* Whether the rest may run long is its own question (a long block that took in data
	 * coding worse than stored would carry it on where it has no stored form). */
	L->longblk = 0;
	if (c->rest_write) {
		defl_block_prepare(L, c->rest_in, (int)c->rest_final, st->bitbuf.m_bit_count,
		                   st->dist_mask);
	} else if (L->split) {
		defl_cand_set(L, c->rest_in);
	} else {
		/* The block ended at a length or the token area's end: the rest runs on, its
		 * split test state already its own (kept since the candidate). */
		L->obs_next = L->obs_next > first ? L->obs_next - first : DEFL_SPLIT_CHECK;
	}
}

/* Levels 1 and up steps, on the window dw (NULL: the buffer's); b_bytes_processed and block_end
 * index its base. */
static int step_lvl(struct isal_zstream *s, struct BitBuf2 *b, uint32_t level,
		    const struct defl_win *dw)
{
	struct isal_zstate *st = &s->internal_state;
	struct defl_lvl *L = defl_lvl_state(s);
	struct defl_win w;
	if (dw)
		w = *dw;
	else
		stream_win(s, &w);
	switch (st->state) {
	case ZSTATE_NEW_HDR:
		if (st->b_bytes_processed < w.end || input_ends(s)) {
			defl_lvl_block_reset(L);
			L->phase = DEFL_PH_COLLECT;
			st->block_end = st->b_bytes_processed;
			st->state = ZSTATE_BODY;
			return 1;
		}
		return 0;
	case ZSTATE_BODY: {
		if (L->phase != DEFL_PH_COLLECT) {
			const int done = defl_block_write(L, b, w.base + st->block_end);
			if (!done)
				return 0;
			struct defl_cand *const c = defl_cand_of(L);
			if (c && c->prefix) {
				rest_open(s, L, c);
				return 1;
			}
			st->block_end = st->b_bytes_processed;
			defl_lvl_block_reset(L);
			if (L->final) {
				st->has_eob = 1;
				st->state = ZSTATE_TRL;
				st->count = 0;
			} else if (st->b_bytes_processed == w.end && flush_due(s)) {
				st->state = ZSTATE_SYNC_FLUSH;
			}
			return 1;
		}
		const int all = !dw && (input_ends(s) || flush_due(s));
		uint32_t stop = w.end;
		if (!all)
			stop = stop > DEFL_MAX_MATCH ? stop - DEFL_MAX_MATCH : 0;
		/* The block's bytes so far are gone + (cur - block_end). */
		const uint32_t blk_len = stream_block_len(L, L->gone + (st->b_bytes_processed -
								       st->block_end));
		/* (A rest that lost its long state may have gone bytes: then nothing more.) */
		uint32_t blk_max = blk_len > L->gone ? blk_len - L->gone : 0;
		if (L->par->long_check) {
			/* Stop at the next checkpoint (the first at LONG_PIECE). */
			const uint32_t chk = L->stored_chunk ? L->stored_chunk : LONG_PIECE;
			if (chk > L->gone && chk - L->gone < blk_max)
				blk_max = chk - L->gone;
		}
		if (stop > st->block_end + blk_max)
			stop = st->block_end + blk_max;
		/* After a candidate the block runs on STREAM_BLOCK_IN bytes at most before the
		 * split is weighed: those bytes stay in the buffer, so the part after it keeps its
		 * stored form as a block of its own would. */
		struct defl_cand *const c = defl_cand_of(L);
		if (c && c->on && c->in >= L->gone &&
		    st->block_end + c->in - L->gone + STREAM_BLOCK_IN < stop)
			stop = st->block_end + c->in - L->gone + STREAM_BLOCK_IN;
		const uint32_t cur = st->b_bytes_processed;
		/* Coding from the caller's input, at most STREAM_BLOCK_IN bytes a step, about what
		 * the buffer allows: a sparse block that turns dense then ends near where it would
		 * in the buffer, not at the end of a long call (Calgary, level 2, 1 MiB calls:
		 * 0.25% larger without). */
		if (dw && stop > cur + STREAM_BLOCK_IN)
			stop = cur + STREAM_BLOCK_IN;
		if (cur < stop)
			st->b_bytes_processed = defl_tok_mode(st->dist_mask, level)(L, &w, cur, stop);
		const uint32_t now = st->b_bytes_processed;
		const int coded_all = !dw && now == w.end;
		const uint32_t blk_in = L->gone + (now - st->block_end);
		int piece_ends = 0, steady = 1;
		if (L->par->long_check && blk_in >= (L->stored_chunk ? L->stored_chunk : LONG_PIECE)) {
			/* A checkpoint: the piece since the last one (none before the first). */
			const uint32_t piece_tok = L->ntok - L->mark.ntok;
			if (!L->stored_chunk ||
			    piece_tok >= (block_sparse(L, blk_in) ? LONG_PIECE_SPARSE_TOK
			                                          : LONG_PIECE_MIN_TOK)) {
				steady = !long_piece_differs(L, !L->stored_chunk);
				piece_ends = L->longblk && !steady;
			}
			L->stored_chunk = blk_in + LONG_PIECE;
		}
		if (L->par->long_blocks && !L->longblk && blk_in >= STREAM_BLOCK_IN &&
		    (st->dist_mask & DEFL_ZMODE_KIND) != DEFL_ZMODE_STORED &&
		    100 * (uint64_t)L->ntok <= (uint64_t)L->par->long_tok_pct * blk_in && steady)
			L->longblk = 1;
		const int seg_full = c && c->on && blk_in - c->in >= STREAM_BLOCK_IN;
		const int full = L->split || piece_ends || L->ntok + DEFL_TOK_SLACK >= L->tok_cap ||
				 blk_in >= stream_block_len(L, blk_in) || seg_full;
		if (full || (coded_all && (input_ends(s) || flush_due(s)))) {
			if (blk_in == 0 && !input_ends(s)) {
				st->state = ZSTATE_SYNC_FLUSH;
				return 1;
			}
			const int final = coded_all && input_ends(s);
			/* A long block coded from the caller's input has no stored form: only its
			 * last STREAM_BLOCK_IN bytes are sure to be kept when the call returns. */
			if (dw && L->longblk && !L->gone)
				L->gone = 1;
			const uint32_t bitpos = st->bitbuf.m_bit_count;
			if (c) {
				/* Where the split test alone ends the block, it runs on with a candidate
				 * split point; at the next such point, STREAM_BLOCK_IN bytes after it, or
				 * where it must end, the part before the candidate becomes a block of its
				 * own if that codes smaller. */
				const int ends = coded_all && (input_ends(s) || flush_due(s));
				const int soft = (L->split || seg_full) && !piece_ends &&
				                 L->ntok + DEFL_TOK_SLACK < L->tok_cap &&
				                 blk_in < stream_block_len(L, blk_in) && !ends;
				if (defl_cand_split(L, blk_in, ends, final, bitpos, st->dist_mask))
					return 1;
				if (soft) {
					if (L->split)
						defl_cand_set(L, blk_in);
					else
						defl_cand_drop(L);
					return 1;
				}
			}
			defl_block_prepare(L, blk_in, final, bitpos, st->dist_mask);
			return 1;
		}
		return now != cur;
	}
	case ZSTATE_SYNC_FLUSH:
		return finish_or_flush(s, b);
	default:
		return 0;
	}
}

/* One round of work in the current output buffer (levels 1 and up on the window dw when not
 * NULL). Returns 1 on progress. */
static int step(struct isal_zstream *s, uint32_t level, const struct defl_win *dw)
{
	struct isal_zstate *st = &s->internal_state;
	struct BitBuf2 *b = &st->bitbuf;
	int any = 0;
	for (;;) {
		const uint8_t *const before = b->m_out_buf;
		const uint32_t bits_before = b->m_bit_count;
		int r;
		if (!st->has_wrap_hdr) {
			r = defl_put_wrap_hdr(s, b);
			st->has_wrap_hdr = (uint8_t)r;
		} else if (st->state == ZSTATE_TRL) {
			r = defl_put_trailer(s, b);
			if (r)
				st->state = ZSTATE_END;
		} else if (st->state == ZSTATE_END) {
			r = 0;
		} else {
			r = level ? step_lvl(s, b, level, dw) : step_lvl0(s, b);
		}
		if (!r)
			return any || b->m_out_buf != before || b->m_bit_count != bits_before;
		any = 1;
	}
}

/* Direct coding. Once the buffer is full and coded up to its held-back tail, the rest of a long
 * call is coded straight from the caller's input, whose first bytes (copied into the buffer
 * before) are then the history, as one-shot compression does; when it returns, the last
 * DEFL_WIN_SIZE bytes coded and the tail are copied into the buffer for the next call. That
 * replaces a copy of every input byte and a slide of the buffer by one copy a call (64 KiB calls:
 * a third of level 1's time on zeros went to those). Levels 1-3 only, with the default strategy,
 * while a block is collected; a block that is not long must start in this call's input: its
 * stored form reads its bytes from there. Matches cannot reach before the call's input (at
 * most the few hundred positions before DEFL_WIN_SIZE into it lose the far end of the window). */
#define DIRECT_MIN_IN (DEFL_WIN_SIZE / 2)
#define DIRECT_SHORT_HIST (2 * DEFL_MAX_MATCH)
/* Window indices count from the run's base as uint32 and direct_run takes their differences as
 * int32: a run codes at most this much of the call, and the next run's base moves up to the
 * buffer's first byte (defl_run). Unbounded, one call over 2 GiB wrapped keep_rel negative and
 * read far outside the buffer. */
#define DIRECT_RUN_MAX (64u << 20)

/* Stream position of the open block's first byte (b_bytes_processed, block_end and gone as
 * step_lvl keeps them, relative to position base_abs). */
static uint32_t block_abs(const struct isal_zstate *st, const struct defl_lvl *L, uint32_t base_abs)
{
	return base_abs + st->block_end - L->gone;
}

static int direct_ready(const struct isal_zstream *s, const uint8_t *call_in, uint32_t call_abs)
{
	const struct isal_zstate *st = &s->internal_state;
	if (s->avail_in < DIRECT_MIN_IN || st->b_bytes_valid != DEFL_BUF_SIZE ||
	    st->state != ZSTATE_BODY || st->dist_mask || !st->has_wrap_hdr ||
	    defl_tmp_pending(s))
		return 0;
	const struct defl_lvl *L = defl_lvl_state(s);
	if (L->phase != DEFL_PH_COLLECT || L->par->chain)
		return 0;
	/* The tail waiting to be coded must be this call's (it is coded from there). */
	const uint32_t tail = st->b_bytes_valid - st->b_bytes_processed;
	if (tail > DEFL_MAX_MATCH || tail > (uint32_t)(s->next_in - call_in))
		return 0;
	/* The call's input before the next byte must hold (nearly) a window of history. */
	if ((uint32_t)(s->next_in - call_in) - tail + DIRECT_SHORT_HIST < defl_window_size(s))
		return 0;
	const uint32_t blk = block_abs(st, L, st->total_in_start);
	return L->longblk || (int32_t)(blk - call_abs) >= 0;
}

static void direct_run(struct isal_zstream *s, uint32_t level, const uint8_t *call_in,
		       uint32_t call_abs)
{
	struct isal_zstate *st = &s->internal_state;
	struct defl_lvl *L = defl_lvl_state(s);
	const uint32_t tis = st->total_in_start;
	const uint32_t had = (uint32_t)(s->next_in - call_in); /* taken into the buffer */
	const uint32_t end = had + (s->avail_in < DIRECT_RUN_MAX ? s->avail_in : DIRECT_RUN_MAX);
	const uint32_t lo_abs = tis + st->block_next;
	const uint32_t lo = (int32_t)(lo_abs - call_abs) > 0 ? lo_abs - call_abs : 0;
	struct defl_win w = { call_in, lo, end, call_abs, defl_window_size(s), 0, 0 };
	/* Into the window's indices. */
	const uint32_t blk = block_abs(st, L, tis);
	st->b_bytes_processed = st->b_bytes_processed + tis - call_abs;
	if ((int32_t)(blk - call_abs) >= 0) {
		st->block_end = blk - call_abs;
		L->gone = 0;
	} else {
		st->block_end = 0;
		L->gone = call_abs - blk;
	}
	while (step(s, level, &w))
		;
	/* Back into the buffer: history, the open block when it is short (its stored form), and
	 * what is not coded yet, as far as it fits. */
	const uint32_t cur = st->b_bytes_processed;
	/* The first byte kept, from the call's input on (negative: before it). */
	int32_t keep_rel = (int32_t)cur - (int32_t)DEFL_WIN_SIZE;
	int32_t blk_rel; /* the open block's first byte, likewise */
	const int stored = L->phase == DEFL_PH_STORED_HDR || L->phase == DEFL_PH_STORED_BODY;
	if (L->phase == DEFL_PH_COLLECT)
		blk_rel = (int32_t)st->block_end - (int32_t)L->gone;
	else
		blk_rel = (int32_t)st->block_end;
	if ((L->phase == DEFL_PH_COLLECT && !L->longblk) || stored) {
		if (blk_rel < keep_rel)
			keep_rel = blk_rel;
	}
	uint32_t upto = end;
	if ((int64_t)upto - keep_rel > DEFL_BUF_SIZE)
		upto = (uint32_t)(keep_rel + (int32_t)DEFL_BUF_SIZE);
	/* Bytes before the call's input are still in the buffer, where they were. */
	uint32_t n = 0;
	if (keep_rel < 0) {
		const uint32_t from = call_abs + (uint32_t)keep_rel - tis;
		n = (uint32_t)-keep_rel;
		memmove(st->buffer, st->buffer + from, n);
		keep_rel = 0;
	}
	memcpy(st->buffer + n, call_in + keep_rel, upto - (uint32_t)keep_rel);
	const uint32_t keep_abs = call_abs + (uint32_t)keep_rel - n;
	st->total_in_start = keep_abs;
	st->b_bytes_valid = n + upto - (uint32_t)keep_rel;
	st->b_bytes_processed = cur + call_abs - keep_abs;
	st->block_next = (int32_t)(lo_abs - keep_abs) > 0 ? lo_abs - keep_abs : 0;
	const uint32_t blk_abs = call_abs + (uint32_t)blk_rel;
	if (L->phase != DEFL_PH_COLLECT && !stored) {
		st->block_end = st->b_bytes_processed; /* (unused until the block is written) */
	} else if ((int32_t)(blk_abs - keep_abs) >= 0) {
		st->block_end = blk_abs - keep_abs;
		if (L->phase == DEFL_PH_COLLECT)
			L->gone = 0;
	} else {
		st->block_end = 0;
		L->gone = keep_abs - blk_abs;
	}
	const uint32_t took = upto - had;
	defl_update_checksum(s, s->next_in, took);
	s->next_in += took;
	s->avail_in -= took;
	s->total_in += took;
}

int defl_run(struct isal_zstream *stream)
{
	struct isal_zstate *st = &stream->internal_state;
	int r = defl_check_level(stream);
	if (r != COMP_OK)
		return r;

	/* Output held in tmp_out_buff is shown as the TMP_ form of the state (see below). */
	if (st->state >= ZSTATE_TMP_NEW_HDR)
		st->state -= ZSTATE_TMP_OFFSET;
	if (st->state == ZSTATE_END) {
		defl_drain_tmp(stream);
		if (defl_tmp_pending(stream))
			st->state += ZSTATE_TMP_OFFSET;
		return COMP_OK;
	}

	/* The level is latched while a stream (or, after a flush, a new run of blocks) starts. */
	if (st->state == ZSTATE_NEW_HDR && !defl_tmp_pending(stream))
		st->hash_mask = stream->level;
	const uint32_t level = st->hash_mask;
	if (level && !stream->level_buf)
		return ISAL_INVALID_LEVEL_BUF;
	if (level && stream->level_buf_size < defl_lvl_min_size(level))
		return ISAL_INVALID_LEVEL;
	if (level && (!(st->has_level_buf_init & DEFL_LBUF_READY) ||
		      defl_lvl_state(stream)->par->level != level)) {
		/* A stream whose first call brings all of its input (and no dictionary) is set up
		 * for that length, as isal_deflate_stateless is: a small one gets the small
		 * inputs' table size and hash. */
		const int whole = stream->end_of_stream && stream->total_in == 0 &&
		                  st->b_bytes_valid == 0 && st->has_hist == IGZIP_NO_HIST;
		defl_lvl_setup(stream, level, whole ? stream->avail_in : 0);
		st->has_level_buf_init |= DEFL_LBUF_READY;
	}
	if (st->has_hist == IGZIP_DICT_HIST)
		hash_dict(stream, level);

	/* The call's input and the stream position of its first byte (all buffered bytes come
	 * before it). */
	const uint8_t *call_in = stream->next_in;
	uint32_t call_abs = st->total_in_start + st->b_bytes_valid;
	for (;;) {
		defl_drain_tmp(stream);
		if (defl_tmp_pending(stream))
			break;
		if (level && direct_ready(stream, call_in, call_abs)) {
			defl_out_open(stream);
			direct_run(stream, level, call_in, call_abs);
			defl_out_close(stream);
			/* The buffer's bytes from the call's input on are still there, so the next run
			 * may count from its first byte (a window before the next byte to code, or the
			 * open short block's start): indices stay small however long the call. */
			const uint32_t ahead = st->total_in_start - call_abs;
			if ((int32_t)ahead > 0) {
				call_in += ahead;
				call_abs += ahead;
			}
			continue;
		}
		const uint32_t took = fill_buffer(stream, level);
		defl_out_open(stream);
		const int progress = step(stream, level, NULL);
		defl_out_close(stream);
		if (!progress && !took)
			break;
	}
	/* Callers wait for ZSTATE_END (or ZSTATE_NEW_HDR after a flush): neither is reported while
	 * bytes of it still wait in tmp_out_buff. */
	if (defl_tmp_pending(stream))
		st->state += ZSTATE_TMP_OFFSET;
	return COMP_OK;
}

/* The API calls, with NULL buffers of length 0 swapped for pointers to no bytes. */
int defl_unnull_call(struct isal_zstream *stream, int (*call)(struct isal_zstream *))
{
	const int in = igzip_unnull(&stream->next_in, stream->avail_in);
	const int out = igzip_unnull(&stream->next_out, stream->avail_out);
	const int r = call(stream);
	igzip_renull(&stream->next_in, in);
	igzip_renull(&stream->next_out, out);
	return r;
}

static int deflate_stream(struct isal_zstream *stream)
{
	if (stream->flush > FULL_FLUSH)
		return INVALID_FLUSH;
	return defl_run(stream);
}

STOA_API int isal_deflate(struct isal_zstream *stream)
{
	return defl_unnull_call(stream, deflate_stream);
}
