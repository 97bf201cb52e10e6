/* Stream setup: init and reset, Huffman tables, dictionaries (set, prepared and reset). */
#include "deflate_engine.h"
#include "igzip_zlib.h"

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
	st->has_level_buf_init = DEFL_FRESH_TABLE;
	st->count = 0;
	st->tmp_out_start = 0;
	st->tmp_out_end = 0;
	st->b_bytes_valid = 0;
	st->b_bytes_processed = 0;
	/* (head[] is cleared where level 0 first uses it: has_level_buf_init says.) */
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
		stream->hufftables = (struct isal_hufftables *)defl_static_tables();
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
	    defl_tmp_pending(stream))
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
	return level == 0 ? 1u << DEFL_LVL0_HASH_BITS : 1u << bits;
}

STOA_API int isal_deflate_process_dict(struct isal_zstream *stream, struct isal_dict *dict_str,
				       uint8_t *dict, uint32_t dict_len)
{
	if (!stream || !dict_str || !dict || stream->level > DEFL_MAX_LEVEL)
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
	const struct defl_win w = { dict_str->history, 0, dict_len, 0, DEFL_WIN_SIZE, 0, 0 };
	uint16_t *const table = dict_str->hashtable;
	if (level == 0) {
		memset(table, 0, sizeof(uint16_t) << DEFL_LVL0_HASH_BITS);
		defl_lvl0_insert(table, &w, 0, dict_len);
		dict_str->hash_size = dict_hash_tag(0, 0);
	} else if (stream->level_buf && stream->level_buf_size >= defl_lvl_min_size(level) &&
		   !defl_params(level)->chain) {
		/* (Levels with chains hash the dictionary when the stream starts: the prepared
		 * table would need the chains too.) */
		const uint32_t bits = defl_lvl_hash_bits(level, defl_lvl_usable(stream), 0);
		const uint32_t entries = dict_hash_tag(level, bits);
		if ((uint64_t)entries * 2 <= sizeof(dict_str->hashtable)) {
			static const struct defl_lvl zero;
			struct defl_lvl L = zero;
			L.par = defl_params(level);
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
		if (!stream->level_buf || stream->level_buf_size < defl_lvl_min_size(level))
			return COMP_OK;
		const uint32_t bits = defl_lvl_hash_bits(level, defl_lvl_usable(stream), 0);
		if (dict_str->hash_size != dict_hash_tag(level, bits))
			return COMP_OK;
		defl_lvl_setup(stream, level, 0);
		st->has_level_buf_init |= DEFL_LBUF_READY;
		dst = defl_lvl_state(stream)->hash;
	}
	st->total_in_start = (st->total_in_start + 0xffffu) & ~0xffffu;
	memcpy(dst, dict_str->hashtable, (size_t)dict_str->hash_size * 2);
	if (level == 0)
		st->has_level_buf_init |= DEFL_HEAD_READY; /* (the whole table) */
	st->has_hist = IGZIP_HIST;
	return COMP_OK;
}
