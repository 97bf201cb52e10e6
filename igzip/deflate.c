/* The isal_deflate stream API: stream setup, the streaming state machine, blocks of levels 1-3,
 * wrappers (RFC 1950 zlib, RFC 1952 gzip) and one-shot (stateless) compression.
 *
 * Output. Every step writes through the stream's bit writer. When the caller's buffer has room
 * for a step the writer points into it; otherwise it points at tmp_out_buff (16 bytes), whose
 * bytes are handed out as room appears, so any output size down to 1 byte per call works. A step
 * checks the room it needs before writing and stops when it lacks it.
 *
 * Input. A streaming compressor copies its input into internal_state.buffer behind up to 32 KiB
 * of history and codes from there; one-shot compression codes straight from next_in. */
#include <stdatomic.h>

#include "isa-l/crc.h"
#include "deflate_internal.h"
#include "igzip_zlib.h"

#define OUT_DIRECT_MIN 64u /* below this much room, steps write into tmp_out_buff */
#define STREAM_BLOCK_IN DEFL_WIN_SIZE /* input bytes per block while streaming (levels 1-3) */
/* Levels 1-2: a streaming block whose first STREAM_BLOCK_IN bytes took at most half as many
 * tokens runs on to STREAM_BLOCK_LONG bytes. Its first bytes may then leave the buffer, so it is
 * never stored (which at that ratio it would not be), and codes are built less often (Calgary
 * level 1 in 64 KiB calls: 128 KiB +7%, 256 KiB +9%, 37.68% -> 37.81% of the input). */
#define STREAM_BLOCK_LONG (8 * STREAM_BLOCK_IN)
/* level_buf bytes before the hash tables: the level state, 64-byte rounded. */
#define LVL_FIXED_PART ((uint32_t)(sizeof(struct defl_lvl) + 8 + 63) & ~63u)

/* ---- checksums ------------------------------------------------------------------------------ */

/* internal_state.crc as ISA-L keeps it: the CRC-32 for gzip; for zlib the Adler-32 minus one
 * (so that a new stream's 0 stands for Adler-32's initial 1). */
static void update_checksum(struct isal_zstream *s, const uint8_t *p, uint64_t len)
{
	struct isal_zstate *st = &s->internal_state;
	if (!len)
		return;
	switch (s->gzip_flag) {
	case IGZIP_GZIP:
	case IGZIP_GZIP_NO_HDR:
		st->crc = crc32_gzip_refl(st->crc, p, len);
		break;
	case IGZIP_ZLIB:
	case IGZIP_ZLIB_NO_HDR:
		st->crc = isal_adler32(st->crc + 1, p, len) - 1;
		break;
	default:
		break;
	}
}

/* ---- tables --------------------------------------------------------------------------------- */

static const struct isal_hufftables *static_tables(void)
{
	static struct isal_hufftables t;
	static atomic_int ready; /* 0: not built, 1: being built, 2: ready */
	int r = atomic_load_explicit(&ready, memory_order_acquire);
	if (r == 2)
		return &t;
	int expect = 0;
	if (atomic_compare_exchange_strong(&ready, &expect, 1)) {
		defl_static_codes(&t);
		atomic_store_explicit(&ready, 2, memory_order_release);
	} else {
		while (atomic_load_explicit(&ready, memory_order_acquire) != 2)
			;
	}
	return &t;
}

static const struct isal_hufftables *lvl0_tables(const struct isal_zstream *s)
{
	if (s->hufftables)
		return s->hufftables;
	const struct isal_hufftables *t = defl_default_codes();
	return t ? t : static_tables();
}

/* ---- output --------------------------------------------------------------------------------- */

static void drain_tmp(struct isal_zstream *s)
{
	struct isal_zstate *st = &s->internal_state;
	uint32_t n = st->tmp_out_end - st->tmp_out_start;
	if (n > s->avail_out)
		n = s->avail_out;
	if (n) {
		memcpy(s->next_out, st->tmp_out_buff + st->tmp_out_start, n);
		s->next_out += n;
		s->avail_out -= n;
		s->total_out += n;
		st->tmp_out_start += n;
	}
	if (st->tmp_out_start == st->tmp_out_end)
		st->tmp_out_start = st->tmp_out_end = 0;
}

static int tmp_pending(const struct isal_zstream *s)
{
	return s->internal_state.tmp_out_start != s->internal_state.tmp_out_end;
}

static void out_open(struct isal_zstream *s)
{
	struct isal_zstate *st = &s->internal_state;
	if (s->avail_out >= OUT_DIRECT_MIN)
		bw_set_buf(&st->bitbuf, s->next_out, s->avail_out);
	else
		bw_set_buf(&st->bitbuf, st->tmp_out_buff, sizeof(st->tmp_out_buff));
}

static void out_close(struct isal_zstream *s)
{
	struct isal_zstate *st = &s->internal_state;
	struct BitBuf2 *b = &st->bitbuf;
	const uint32_t n = (uint32_t)(b->m_out_buf - b->m_out_start);
	if (b->m_out_start == st->tmp_out_buff) {
		st->tmp_out_start = 0;
		st->tmp_out_end = n;
		drain_tmp(s);
	} else {
		s->next_out += n;
		s->avail_out -= n;
		s->total_out += n;
	}
	bw_set_buf(b, NULL, 0);
}

/* Up to 32 bits of the bit string hdr starting at bit off, of which limit bits exist. */
static uint64_t hdr_bits_at(const uint8_t *hdr, uint32_t off, uint32_t n)
{
	uint64_t v = 0;
	const uint32_t first = off >> 3;
	for (uint32_t i = 0; i < 5 && first + i < ISAL_DEF_MAX_HDR_SIZE; i++)
		v |= (uint64_t)hdr[first + i] << (8 * i);
	v >>= off & 7;
	return v & ((1ull << n) - 1);
}

/* Write t's block header from bit *done on, BFINAL = final. Returns 1 once complete. */
static int put_header(struct BitBuf2 *b, const struct isal_hufftables *t, int final,
		      uint32_t *done)
{
	uint64_t total = (uint64_t)t->deflate_hdr_count * 8 + t->deflate_hdr_extra_bits;
	if (total > ISAL_DEF_MAX_HDR_SIZE * 8)
		total = ISAL_DEF_MAX_HDR_SIZE * 8;
	while (*done < total) {
		if (bw_room(b) < 8)
			return 0;
		const uint32_t n = total - *done < 32 ? (uint32_t)(total - *done) : 32;
		uint64_t v = hdr_bits_at(t->deflate_hdr, *done, n);
		if (*done == 0)
			v = (v & ~1ull) | (final ? 1 : 0);
		bw_put(b, v, n);
		*done += n;
	}
	return 1;
}

/* An empty stored block (BFINAL = 0): the byte-aligning marker of a sync or full flush. Needs
 * 16 bytes of room. */
static int put_sync_marker(struct BitBuf2 *b)
{
	if (bw_room(b) < 16)
		return 0;
	bw_put(b, 0, 3);
	bw_flush_to_byte(b);
	bw_put(b, 0xffff0000u, 32);
	return 1;
}

/* An empty final block with the fixed codes: BFINAL = 1, BTYPE = 01, end of block (7 zero
 * bits). */
static int put_empty_final(struct BitBuf2 *b)
{
	if (bw_room(b) < 8)
		return 0;
	bw_put(b, 3, 10);
	return 1;
}

/* The trailer: gzip CRC-32 and ISIZE (little-endian), zlib Adler-32 (big-endian). Returns its
 * length. */
static uint32_t trailer_bytes(const struct isal_zstream *s, uint32_t total_in, uint8_t out[8])
{
	const uint32_t crc = s->internal_state.crc;
	switch (s->gzip_flag) {
	case IGZIP_GZIP:
	case IGZIP_GZIP_NO_HDR:
		for (int i = 0; i < 4; i++) {
			out[i] = (uint8_t)(crc >> (8 * i));
			out[4 + i] = (uint8_t)(total_in >> (8 * i));
		}
		return 8;
	case IGZIP_ZLIB:
	case IGZIP_ZLIB_NO_HDR: {
		const uint32_t a = crc + 1;
		for (int i = 0; i < 4; i++)
			out[i] = (uint8_t)(a >> (24 - 8 * i));
		return 4;
	}
	default:
		return 0;
	}
}

/* Bytes p[*done .. n) through the byte-aligned bit writer while room allows; 1 when all are
 * out. */
static int put_bytes(struct BitBuf2 *b, const uint8_t *p, uint32_t n, uint32_t *done)
{
	while (*done < n) {
		if (bw_room(b) < 8)
			return 0;
		bw_put(b, p[*done], 8);
		(*done)++;
	}
	return 1;
}

/* Streaming wrapper header, resumable through internal_state.count. */
static int put_wrap_hdr(struct isal_zstream *s, struct BitBuf2 *b)
{
	uint8_t h[10];
	const uint32_t n = defl_wrap_header(s, h);
	if (!put_bytes(b, h, n, &s->internal_state.count))
		return 0;
	s->internal_state.count = 0;
	return 1;
}

/* Align to a byte and write the trailer, resumable through internal_state.count. */
static int put_trailer(struct isal_zstream *s, struct BitBuf2 *b)
{
	if (bw_room(b) < 8)
		return 0;
	bw_flush_to_byte(b);
	uint8_t t[8];
	const uint32_t n = trailer_bytes(s, s->total_in, t);
	if (!put_bytes(b, t, n, &s->internal_state.count))
		return 0;
	s->internal_state.count = 0;
	return 1;
}

/* ---- level buffer --------------------------------------------------------------------------- */

static uint32_t lvl_min_size(uint32_t level)
{
	return level == 1 ? ISAL_DEF_LVL1_MIN : level == 2 ? ISAL_DEF_LVL2_MIN : ISAL_DEF_LVL3_MIN;
}

static struct defl_lvl *lvl_state(const struct isal_zstream *s)
{
	uintptr_t a = ((uintptr_t)s->level_buf + 7) & ~(uintptr_t)7;
	return (struct defl_lvl *)a;
}

/* Hash table entries per bucket of a level (the tokenizers' layout). */
static uint32_t lvl_ways(uint32_t level)
{
	(void)level;
	return 1;
}

/* log2 of the hash buckets for level in usable bytes of level_buf: as big as the buffer allows
 * with room for tokens, and for one-shot compression of in_len bytes no bigger than the input
 * needs. */
static uint32_t lvl_hash_bits(uint32_t level, uint64_t usable, uint64_t in_len)
{
	const uint32_t per = lvl_ways(level);
	uint32_t bits = level == 1 ? 13 : 14; /* what ISAL_DEF_LVLn_REQ holds */
	/* Levels 1-2 stay there: their one-candidate parse runs from one match to the next no
	 * faster than a table lookup, which a table that stays in L1 keeps short (Calgary level 1
	 * with 2^13 entries against 2^15: +5%, 37.71% against 36.92% of the input). */
	const uint32_t max_bits = level == 1 ? 13 : level == 2 ? 14 : 16;
	while (bits < max_bits &&
	       usable >= LVL_FIXED_PART + ((uint64_t)2 * per << (bits + 1)) + 4 * 16384)
		bits++;
	if (in_len) {
		while (bits > 10 && ((uint64_t)1 << (bits - 1)) >= in_len)
			bits--;
	}
	/* Never more than the buffer holds with room for some tokens. */
	while (bits > 8 && usable < LVL_FIXED_PART + ((uint64_t)2 * per << bits) + 4 * 256)
		bits--;
	return bits;
}

static uint64_t lvl_usable(const struct isal_zstream *s)
{
	const uint8_t *start = (const uint8_t *)lvl_state(s);
	return s->level_buf_size - (uint64_t)(start - s->level_buf);
}

/* Lay out level_buf for level: the state, the hash tables, the tokens. */
static void lvl_setup(struct isal_zstream *s, uint32_t level, uint64_t in_len)
{
	struct defl_lvl *L = lvl_state(s);
	uint8_t *start = (uint8_t *)L;
	const uint64_t usable = lvl_usable(s);
	const uint32_t per = lvl_ways(level);
	const uint32_t bits = lvl_hash_bits(level, usable, in_len);
	const uint64_t hash_bytes = (uint64_t)2 * per << bits;
	memset(L, 0, sizeof(*L));
	defl_lvl_block_reset(L);
	L->level = level;
	L->hash_bits = bits;
	/* Levels 1-2 hash 5-6 bytes (deflate_match.c), which loses the short matches a small
	 * input needs more: one-shot inputs up to 64 KiB hash 4 (xargs.1, 4 KB, level 1: 47.4%
	 * of the input against 43.7%; obj1, 21 KB, 55.8% against 52.2%). */
	L->hash_keep = level <= 2 && in_len && in_len <= DEFL_SMALL_INPUT ? DEFL_HKEEP_4B : 0;
	L->hash = (uint16_t *)(start + LVL_FIXED_PART);
	L->tok = (uint32_t *)(start + LVL_FIXED_PART + hash_bytes);
	L->tok_cap = (uint32_t)((usable - LVL_FIXED_PART - hash_bytes) / 4);
	memset(L->hash, 0, hash_bytes);
	L->phase = DEFL_PH_COLLECT;
}


/* ---- blocks of levels 1-3 ------------------------------------------------------------------- */

/* Bits of hist coded with the fixed codes (RFC 1951 section 3.2.6), block header included. */
static uint64_t fixed_bits(const struct isal_mod_hist *h)
{
	uint64_t bits = 3;
	for (uint32_t i = 0; i < 144; i++)
		bits += 8ull * h->ll_hist[i];
	for (uint32_t i = 144; i < 256; i++)
		bits += 9ull * h->ll_hist[i];
	bits += 7ull * h->ll_hist[256];
	for (uint32_t len = 3; len <= 258; len++) {
		const uint32_t c = h->ll_hist[len + 254];
		if (!c)
			continue;
		uint32_t sym = 0;
		while (sym < 28 && deflate_len_base[sym + 1] <= len)
			sym++;
		bits += (uint64_t)c * ((sym + 257 < 280 ? 7 : 8) + deflate_len_extra[sym]);
	}
	for (uint32_t d = 0; d < 30; d++)
		bits += (uint64_t)h->d_hist[d] * (5 + deflate_dist_extra[d]);
	return bits;
}

/* Bits of len bytes as stored blocks, starting at bit position bitpos of a byte. */
static uint64_t stored_bits(uint64_t len, uint32_t bitpos)
{
	const uint64_t blocks = len ? (len + 65534) / 65535 : 1;
	/* The first header's 3 bits then padding to the byte; later headers start aligned. */
	const uint64_t first = (bitpos + 3 + 7) / 8 * 8 - bitpos;
	return first + 32 + (blocks - 1) * 40 + 8 * len;
}

/* The open block (tokens of src[0 .. len)) is complete: pick its codes or stored form, among
 * those the stream's zlib strategy (mode, DEFL_ZMODE_*) allows. */
static void block_prepare(struct defl_lvl *L, uint32_t len, int final, uint32_t bitpos,
			  uint32_t mode)
{
	struct isal_mod_hist *const hist = &L->hist;
	hist->ll_hist[DEFL_EOB] = 1;

	const uint64_t fixed = fixed_bits(hist);
	const uint64_t stored = stored_bits(len, bitpos);
	uint64_t best = fixed;
	int kind = 1;
	if (L->ntok > 8 && !(mode & DEFL_ZMODE_FIXED)) {
		defl_build_codes(&L->codes, hist, 1, L->level <= 2);
		const uint64_t dyn = defl_coded_bits(&L->codes, hist);
		if (dyn < best) {
			best = dyn;
			kind = 2;
		}
	}
	if ((stored < best || (mode & DEFL_ZMODE_KIND) == DEFL_ZMODE_STORED) && len && !L->gone)
		kind = 0;
	if (kind == 0)
		L->longblk = 0; /* (its bytes stay in the buffer until they are copied) */
	if (kind == 1)
		defl_static_codes(&L->codes);
	L->final = (uint32_t)final;
	L->tok_done = 0;
	L->hdr_bits = 0;
	L->stored_pos = 0;
	L->stored_end = len;
	L->stored_chunk = 0;
	L->phase = kind ? DEFL_PH_HDR : DEFL_PH_STORED_HDR;
}

/* Write the prepared block whose input is src[0 .. stored_end). Returns 1 once it is complete,
 * 0 when the output has no room for the next piece. */
static int block_write(struct defl_lvl *L, struct BitBuf2 *b, const uint8_t *src)
{
	for (;;) {
		switch (L->phase) {
		case DEFL_PH_HDR:
			if (!put_header(b, &L->codes, (int)L->final, &L->hdr_bits))
				return 0;
			L->phase = DEFL_PH_TOKENS;
			break;
		case DEFL_PH_TOKENS:
			while (L->tok_done < L->ntok) {
				if (bw_room(b) >= 64) {
					L->tok_done += (uint32_t)defl_write_tokens(
						b, &L->codes, L->tok + L->tok_done,
						L->ntok - L->tok_done);
					continue;
				}
				if (bw_room(b) < 8)
					return 0;
				const uint32_t t = L->tok[L->tok_done++];
				const uint32_t ll = DEFL_TOK_LL(t);
				if (ll < 256)
					defl_emit_lit(b, &L->codes, ll);
				else
					defl_emit_match(b, &L->codes, ll - 254,
							deflate_dist_base[DEFL_TOK_DSYM(t)] +
								DEFL_TOK_DEXTRA(t));
			}
			L->phase = DEFL_PH_EOB;
			break;
		case DEFL_PH_EOB:
			if (bw_room(b) < 8)
				return 0;
			defl_emit_eob(b, &L->codes);
			L->phase = DEFL_PH_COLLECT;
			return 1;
		case DEFL_PH_STORED_HDR: {
			if (bw_room(b) < 16)
				return 0;
			const uint32_t left = L->stored_end - L->stored_pos;
			const uint32_t n = left < 65535 ? left : 65535;
			const int last = n == left;
			bw_put(b, last && L->final ? 1 : 0, 3);
			bw_flush_to_byte(b);
			bw_put(b, (uint64_t)n | (uint64_t)(n ^ 0xffff) << 16, 32);
			L->stored_chunk = n;
			L->phase = DEFL_PH_STORED_BODY;
			break;
		}
		case DEFL_PH_STORED_BODY: {
			uint32_t n = L->stored_chunk;
			const size_t room = bw_room(b);
			if (n > room)
				n = (uint32_t)room;
			memcpy(b->m_out_buf, src + L->stored_pos, n);
			b->m_out_buf += n;
			L->stored_pos += n;
			L->stored_chunk -= n;
			if (L->stored_chunk)
				return 0;
			if (L->stored_pos == L->stored_end) {
				L->phase = DEFL_PH_COLLECT;
				return 1;
			}
			L->phase = DEFL_PH_STORED_HDR;
			break;
		}
		default:
			return 1;
		}
	}
}

/* ---- stream setup --------------------------------------------------------------------------- */

static void state_reset(struct isal_zstream *s)
{
	struct isal_zstate *st = &s->internal_state;
	s->total_in = 0;
	s->total_out = 0;
	st->total_in_start = 0;
	st->block_next = 0;
	st->block_end = 0;
	st->dist_mask = 0;
	st->hash_mask = 0;
	st->state = ZSTATE_NEW_HDR;
	bw_init(&st->bitbuf, NULL, 0);
	st->crc = 0;
	st->has_wrap_hdr = 0;
	st->has_eob_hdr = 0;
	st->has_eob = 0;
	st->has_hist = IGZIP_NO_HIST;
	st->has_level_buf_init = 0;
	st->count = 0;
	st->tmp_out_start = 0;
	st->tmp_out_end = 0;
	st->b_bytes_valid = 0;
	st->b_bytes_processed = 0;
	memset(st->head, 0, sizeof(st->head));
}

STOA_API void isal_deflate_init(struct isal_zstream *stream)
{
	stream->next_in = NULL;
	stream->avail_in = 0;
	stream->next_out = NULL;
	stream->avail_out = 0;
	stream->hufftables = NULL;
	stream->level = 0;
	stream->level_buf_size = 0;
	stream->level_buf = NULL;
	stream->end_of_stream = 0;
	stream->flush = NO_FLUSH;
	stream->gzip_flag = IGZIP_DEFLATE;
	stream->hist_bits = 0;
	state_reset(stream);
}

STOA_API void isal_deflate_reset(struct isal_zstream *stream)
{
	state_reset(stream);
}

STOA_API void isal_deflate_stateless_init(struct isal_zstream *stream)
{
	isal_deflate_init(stream);
}

STOA_API int isal_deflate_set_hufftables(struct isal_zstream *stream,
					 struct isal_hufftables *hufftables, int type)
{
	const struct isal_zstate *st = &stream->internal_state;
	if (st->state != ZSTATE_NEW_HDR || st->b_bytes_processed != st->b_bytes_valid)
		return ISAL_INVALID_OPERATION;
	switch (type) {
	case IGZIP_HUFFTABLE_DEFAULT:
		stream->hufftables = NULL;
		return COMP_OK;
	case IGZIP_HUFFTABLE_STATIC:
		stream->hufftables = (struct isal_hufftables *)static_tables();
		return COMP_OK;
	case IGZIP_HUFFTABLE_CUSTOM:
		if (!hufftables)
			return ISAL_INVALID_OPERATION;
		stream->hufftables = hufftables;
		return COMP_OK;
	default:
		return ISAL_INVALID_OPERATION;
	}
}

STOA_API int isal_deflate_set_dict(struct isal_zstream *stream, uint8_t *dict, uint32_t dict_len)
{
	struct isal_zstate *st = &stream->internal_state;
	if (!dict || st->state != ZSTATE_NEW_HDR || st->b_bytes_processed != st->b_bytes_valid ||
	    tmp_pending(stream))
		return ISAL_INVALID_STATE;
	if (dict_len > DEFL_WIN_SIZE) {
		dict += dict_len - DEFL_WIN_SIZE;
		dict_len = DEFL_WIN_SIZE;
	}
	/* The dictionary replaces the history; positions keep counting up so old hash entries
	 * never look newer than they are. */
	st->total_in_start += st->b_bytes_valid + DEFL_WIN_SIZE;
	memcpy(st->buffer, dict, dict_len);
	st->block_next = 0;
	st->b_bytes_valid = st->b_bytes_processed = st->block_end = dict_len;
	st->has_hist = IGZIP_DICT_HIST;
	return COMP_OK;
}

/* isal_dict.hash_size says what isal_deflate_process_dict hashed the dictionary for: the
 * number of hash table entries and their layout (level 0's head[], or a level's bucket size and
 * count), so that isal_deflate_reset_dict can copy the table when the stream matches it. Entries
 * hold dictionary offsets (positions with bias 0). */
static uint32_t dict_hash_tag(uint32_t level, uint32_t bits)
{
	return level == 0 ? 1u << DEFL_LVL0_HASH_BITS : lvl_ways(level) << bits;
}

STOA_API int isal_deflate_process_dict(struct isal_zstream *stream, struct isal_dict *dict_str,
				       uint8_t *dict, uint32_t dict_len)
{
	if (!stream || !dict_str || !dict || stream->level > ISAL_DEF_MAX_LEVEL)
		return ISAL_INVALID_STATE;
	if (dict_len > DEFL_WIN_SIZE) {
		dict += dict_len - DEFL_WIN_SIZE;
		dict_len = DEFL_WIN_SIZE;
	}
	dict_str->params = IGZIP_DICT_HIST;
	dict_str->level = stream->level;
	dict_str->hist_size = dict_len;
	dict_str->hash_size = 0;
	memcpy(dict_str->history, dict, dict_len);

	/* Hash it now for the stream's level and buffer, so a reset is a copy. */
	const uint32_t level = stream->level;
	const struct defl_win w = { dict_str->history, 0, dict_len, 0, DEFL_WIN_SIZE };
	uint16_t *const table = dict_str->hashtable;
	if (level == 0) {
		memset(table, 0, sizeof(uint16_t) << DEFL_LVL0_HASH_BITS);
		defl_lvl0_insert(table, &w, 0, dict_len);
		dict_str->hash_size = dict_hash_tag(0, 0);
	} else if (stream->level_buf && stream->level_buf_size >= lvl_min_size(level)) {
		const uint32_t bits = lvl_hash_bits(level, lvl_usable(stream), 0);
		const uint32_t entries = dict_hash_tag(level, bits);
		if ((uint64_t)entries * 2 <= sizeof(dict_str->hashtable)) {
			static const struct defl_lvl zero;
			struct defl_lvl L = zero;
			L.level = level;
			L.hash_bits = bits;
			L.hash = table;
			memset(table, 0, (size_t)entries * 2);
			defl_lvl_insert(&L, &w, 0, dict_len);
			dict_str->hash_size = entries;
		}
	}
	return COMP_OK;
}

STOA_API int isal_deflate_reset_dict(struct isal_zstream *stream, struct isal_dict *dict_str)
{
	if (!dict_str || dict_str->level != stream->level || dict_str->hist_size > DEFL_WIN_SIZE)
		return ISAL_INVALID_STATE;
	int r = isal_deflate_set_dict(stream, dict_str->history, dict_str->hist_size);
	if (r != COMP_OK || !dict_str->hash_size)
		return r;
	/* Copy the prepared table when the stream's layout is the one it was made for. The copy
	 * replaces the whole table, so no older entry survives and the positions may restart at
	 * a multiple of 2^16, where the table's dictionary offsets are right as they are. */
	struct isal_zstate *st = &stream->internal_state;
	const uint32_t level = stream->level;
	uint16_t *dst;
	if (level == 0) {
		if (dict_str->hash_size != dict_hash_tag(0, 0))
			return COMP_OK;
		dst = st->head;
	} else {
		if (!stream->level_buf || stream->level_buf_size < lvl_min_size(level))
			return COMP_OK;
		const uint32_t bits = lvl_hash_bits(level, lvl_usable(stream), 0);
		if (dict_str->hash_size != dict_hash_tag(level, bits))
			return COMP_OK;
		lvl_setup(stream, level, 0);
		st->has_level_buf_init = 1;
		dst = lvl_state(stream)->hash;
	}
	st->total_in_start = (st->total_in_start + 0xffffu) & ~0xffffu;
	memcpy(dst, dict_str->hashtable, (size_t)dict_str->hash_size * 2);
	st->has_hist = IGZIP_HIST;
	return COMP_OK;
}

/* ---- streaming ------------------------------------------------------------------------------ */

static uint32_t window_size(const struct isal_zstream *s)
{
	const uint32_t hb = s->hist_bits;
	return hb == 0 || hb >= 15 ? DEFL_WIN_SIZE : 1u << hb;
}

static int check_level(const struct isal_zstream *s)
{
	if (s->level == 0)
		return COMP_OK;
	if (!s->level_buf)
		return ISAL_INVALID_LEVEL_BUF;
	if (s->level > ISAL_DEF_MAX_LEVEL)
		return ISAL_INVALID_LEVEL;
	/* ISA-L 2.30 reports a buffer too small for the level as a level it cannot run. */
	if (s->level_buf_size < lvl_min_size(s->level))
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
		struct defl_lvl *const L = level ? lvl_state(s) : NULL;
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
	update_checksum(s, s->next_in, n);
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
	w->bias = st->total_in_start;
	w->maxdist = window_size(s);
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
		defl_lvl_insert(lvl_state(s), &w, w.lo, st->b_bytes_processed);
	else
		defl_lvl0_insert(st->head, &w, w.lo, st->b_bytes_processed);
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
			if (!put_empty_final(b))
				return 0;
			st->has_eob = 1;
		}
		st->state = ZSTATE_TRL;
		st->count = 0;
		return 1;
	}
	if (s->flush != DEFL_FLUSH_BLOCK && !put_sync_marker(b))
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
 * stored form's size plus slack. Returns 1 when it expanded (coded bits beyond stored_bits +
 * extra, or the cap was reached), with the writer back at m; else 0 with the segment coded. */
static int lvl0_trial(struct isal_zstream *s, struct BitBuf2 *b, const struct isal_hufftables *t,
		      uint32_t cur, uint32_t stop, struct bw_mark m, uint32_t extra)
{
	struct isal_zstate *st = &s->internal_state;
	struct defl_win w;
	stream_win(s, &w);
	const uint64_t limit = stored_bits(stop - cur, m.count) + extra;
	uint8_t *const real_end = b->m_out_end;
	const size_t cap = (size_t)(limit / 8) + 32 - (size_t)(b->m_out_buf - m.out);
	if (cap < bw_room(b))
		b->m_out_end = b->m_out_buf + cap;
	const uint32_t p = defl_lvl0_impl()(b, t, st->head, &w, cur, stop);
	b->m_out_end = real_end;
	/* (A match may run past stop.) */
	if (p >= stop && bw_bits_since(b, m) <= limit) {
		st->b_bytes_processed = p;
		return 0;
	}
	bw_restore(b, m);
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
	const struct isal_hufftables *t = lvl0_tables(s);
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
			put_header(b, t, st->has_eob_hdr, &st->count);
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
		if (!put_header(b, t, st->has_eob_hdr, &st->count))
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
					defl_lvl0_impl()(b, t, st->head, &w, cur, stop);
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

/* Levels 1-3 steps. */
static int step_lvl(struct isal_zstream *s, struct BitBuf2 *b, uint32_t level)
{
	struct isal_zstate *st = &s->internal_state;
	struct defl_lvl *L = lvl_state(s);
	switch (st->state) {
	case ZSTATE_NEW_HDR:
		if (st->b_bytes_processed < st->b_bytes_valid || input_ends(s)) {
			defl_lvl_block_reset(L);
			L->phase = DEFL_PH_COLLECT;
			st->block_end = st->b_bytes_processed;
			st->state = ZSTATE_BODY;
			return 1;
		}
		return 0;
	case ZSTATE_BODY: {
		if (L->phase != DEFL_PH_COLLECT) {
			const int done = block_write(L, b, st->buffer + st->block_end);
			if (!done)
				return 0;
			st->block_end = st->b_bytes_processed;
			defl_lvl_block_reset(L);
			if (L->final) {
				st->has_eob = 1;
				st->state = ZSTATE_TRL;
				st->count = 0;
			} else if (st->b_bytes_processed == st->b_bytes_valid && flush_due(s)) {
				st->state = ZSTATE_SYNC_FLUSH;
			}
			return 1;
		}
		struct defl_win w;
		stream_win(s, &w);
		const int all = input_ends(s) || flush_due(s);
		uint32_t stop = st->b_bytes_valid;
		if (!all)
			stop = stop > DEFL_MAX_MATCH ? stop - DEFL_MAX_MATCH : 0;
		/* The block's bytes so far are gone + (cur - block_end). */
		const uint32_t blk_max = (L->longblk ? STREAM_BLOCK_LONG : STREAM_BLOCK_IN) - L->gone;
		if (stop > st->block_end + blk_max)
			stop = st->block_end + blk_max;
		const uint32_t cur = st->b_bytes_processed;
		if (cur < stop)
			st->b_bytes_processed = defl_tok_mode(st->dist_mask, level)(L, &w, cur, stop);
		const uint32_t now = st->b_bytes_processed;
		const int coded_all = now == st->b_bytes_valid;
		const uint32_t blk_in = L->gone + (now - st->block_end);
		if (level <= 2 && !L->longblk && blk_in >= STREAM_BLOCK_IN &&
		    (st->dist_mask & DEFL_ZMODE_KIND) != DEFL_ZMODE_STORED &&
		    2 * (uint64_t)L->ntok <= blk_in)
			L->longblk = 1;
		const int full = L->split || L->ntok + DEFL_TOK_SLACK >= L->tok_cap ||
				 blk_in >= (L->longblk ? STREAM_BLOCK_LONG : STREAM_BLOCK_IN);
		if (full || (coded_all && (input_ends(s) || flush_due(s)))) {
			if (blk_in == 0 && !input_ends(s)) {
				st->state = ZSTATE_SYNC_FLUSH;
				return 1;
			}
			const int final = coded_all && input_ends(s);
			block_prepare(L, blk_in, final, st->bitbuf.m_bit_count, st->dist_mask);
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

/* One round of work in the current output buffer. Returns 1 on progress. */
static int step(struct isal_zstream *s, uint32_t level)
{
	struct isal_zstate *st = &s->internal_state;
	struct BitBuf2 *b = &st->bitbuf;
	int any = 0;
	for (;;) {
		const uint8_t *const before = b->m_out_buf;
		const uint32_t bits_before = b->m_bit_count;
		int r;
		if (!st->has_wrap_hdr) {
			r = put_wrap_hdr(s, b);
			st->has_wrap_hdr = (uint8_t)r;
		} else if (st->state == ZSTATE_TRL) {
			r = put_trailer(s, b);
			if (r)
				st->state = ZSTATE_END;
		} else if (st->state == ZSTATE_END) {
			r = 0;
		} else {
			r = level ? step_lvl(s, b, level) : step_lvl0(s, b);
		}
		if (!r)
			return any || b->m_out_buf != before || b->m_bit_count != bits_before;
		any = 1;
	}
}

static int deflate_run(struct isal_zstream *stream)
{
	struct isal_zstate *st = &stream->internal_state;
	int r = check_level(stream);
	if (r != COMP_OK)
		return r;

	/* Output held in tmp_out_buff is shown as the TMP_ form of the state (see below). */
	if (st->state >= ZSTATE_TMP_NEW_HDR)
		st->state -= ZSTATE_TMP_OFFSET;
	if (st->state == ZSTATE_END) {
		drain_tmp(stream);
		if (tmp_pending(stream))
			st->state += ZSTATE_TMP_OFFSET;
		return COMP_OK;
	}

	/* The level is latched while a stream (or, after a flush, a new run of blocks) starts. */
	if (st->state == ZSTATE_NEW_HDR && !tmp_pending(stream))
		st->hash_mask = stream->level;
	const uint32_t level = st->hash_mask;
	if (level && !stream->level_buf)
		return ISAL_INVALID_LEVEL_BUF;
	if (level && stream->level_buf_size < lvl_min_size(level))
		return ISAL_INVALID_LEVEL;
	if (level && (!st->has_level_buf_init || lvl_state(stream)->level != level)) {
		/* A stream whose first call brings all of its input (and no dictionary) is set up
		 * for that length, as isal_deflate_stateless is: a small one gets the small
		 * inputs' table size and hash. */
		const int whole = stream->end_of_stream && stream->total_in == 0 &&
		                  st->b_bytes_valid == 0 && st->has_hist == IGZIP_NO_HIST;
		lvl_setup(stream, level, whole ? stream->avail_in : 0);
		st->has_level_buf_init = 1;
	}
	if (st->has_hist == IGZIP_DICT_HIST)
		hash_dict(stream, level);

	for (;;) {
		drain_tmp(stream);
		if (tmp_pending(stream))
			break;
		const uint32_t took = fill_buffer(stream, level);
		out_open(stream);
		const int progress = step(stream, level);
		out_close(stream);
		if (!progress && !took)
			break;
	}
	/* Callers wait for ZSTATE_END (or ZSTATE_NEW_HDR after a flush): neither is reported while
	 * bytes of it still wait in tmp_out_buff. */
	if (tmp_pending(stream))
		st->state += ZSTATE_TMP_OFFSET;
	return COMP_OK;
}

/* The API calls, with NULL buffers of length 0 swapped for pointers to no bytes. */
static int null_buffers_swapped(struct isal_zstream *stream, int (*call)(struct isal_zstream *))
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
	return deflate_run(stream);
}

/* ---- hooks of the zlib layer (igzip_zlib.h) -------------------------------------------------- */

int defl_zlib_run(struct isal_zstream *s)
{
	if (s->flush > DEFL_FLUSH_BLOCK)
		return INVALID_FLUSH;
	return null_buffers_swapped(s, deflate_run);
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
		put_sync_marker(b);
	else
		bw_put(b, value & ((1u << n) - 1), n);
	st->tmp_out_start = 0;
	st->tmp_out_end = (uint32_t)(b->m_out_buf - st->tmp_out_buff);
	bw_set_buf(b, NULL, 0);
	if (tmp_pending(s))
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
	if (!dst->level_buf || !src->level_buf || !src->internal_state.has_level_buf_init)
		return;
	struct defl_lvl *L = lvl_state(dst);
	const uint8_t *from = (const uint8_t *)lvl_state(src);
	uint8_t *to = (uint8_t *)L;
	L->hash = (uint16_t *)(void *)(to + ((const uint8_t *)L->hash - from));
	L->tok = (uint32_t *)(void *)(to + ((const uint8_t *)L->tok - from));
}

/* ---- one-shot compression ------------------------------------------------------------------- */

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
	const struct defl_win wa = { st->buffer, 0, dl + ka, 0, window_size(s) };
	const struct defl_win wb = { s->next_in, 0, end, dl, window_size(s) };

	if (level == 0) {
		const struct isal_hufftables *t = lvl0_tables(s);
		uint32_t done = 0;
		memset(st->head, 0, sizeof(st->head));
		if (!put_header(b, t, final, &done))
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
		lvl_setup(s, level, (uint64_t)dl + end);
		st->has_level_buf_init = 0; /* the layout was sized for this input only */
		struct defl_lvl *L = lvl_state(s);
		defl_tok_fn *const tokenize = defl_tok_mode(st->dist_mask, level);
		if (dl)
			defl_lvl_insert(L, &wa, 0, dl);
		uint32_t p = 0; /* input bytes tokenized */
		do {
			const uint32_t blk = p;
			defl_lvl_block_reset(L);
			do {
				if (p < ka)
					p = tokenize(L, &wa, p + dl, dl + ka) - dl;
				else
					p = tokenize(L, &wb, p, end);
			} while (p < end && !L->split && L->ntok + DEFL_TOK_SLACK < L->tok_cap);
			block_prepare(L, p - blk, final && p == end, b->m_bit_count, st->dist_mask);
			if (!block_write(L, b, s->next_in + blk))
				return 0;
		} while (p < end);
	}
	if (!final && !put_sync_marker(b))
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
		const int r = check_level(stream);
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
	update_checksum(stream, stream->next_in, stream->avail_in);
	const uint32_t total_in = stream->total_in + stream->avail_in;
	const uint32_t ntrl = final ? trailer_bytes(stream, total_in, trl) : 0;
	const uint64_t stored = stored_bits(stream->avail_in, 0) / 8;

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

STOA_API int isal_deflate(struct isal_zstream *stream)
{
	return null_buffers_swapped(stream, deflate_stream);
}

STOA_API int isal_deflate_stateless(struct isal_zstream *stream)
{
	return null_buffers_swapped(stream, deflate_stateless);
}
