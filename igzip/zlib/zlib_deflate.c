/* zlib's deflate API on stoa's compressor.
 *
 * A z_stream's state holds an isal_zstream that does the coding (raw deflate, or the gzip and
 * zlib bodies with their trailers: IGZIP_GZIP_NO_HDR, IGZIP_ZLIB_NO_HDR) and the level buffer it
 * works in, both from the stream's zalloc. This file writes the wrapper headers itself (they
 * carry zlib's level flags, dictionary id and deflateSetHeader's fields) and maps zlib's calls
 * onto the engine:
 *   Z_NO_FLUSH, Z_FINISH      the engine's NO_FLUSH and end_of_stream;
 *   Z_BLOCK                   DEFL_FLUSH_BLOCK: the open block ends, its last bits wait;
 *   Z_PARTIAL_FLUSH           the same, then an empty fixed block (10 bits: all data before it
 *                             decodable, no byte alignment);
 *   Z_SYNC_FLUSH, Z_FULL_FLUSH the same, then an empty stored block (byte-aligned 00 00 ff ff);
 *                             a full flush also drops the history;
 *   levels and strategies     an engine level and mode (zlevel_table, mode_of);
 *   deflateParams             the block ends (Z_BLOCK), then the new level and mode apply.
 * The first call of a stream that brings all its input with Z_FINISH and room for its stored
 * form codes it in one piece (isal_deflate_stateless), which is what deflateBound promises. */
#include <string.h>

#include "igzip/igzip_zlib.h"
#include "stoa.h"
#include "zlib_abi.h"

/* zlib's levels on stoa's engine levels: for each, a stoa level whose output is no larger than
 * zlib-ng's and zlib's at the same number on the Calgary and Canterbury corpora, and no slower
 * (README, deflate section): 2 on stoa's 4, 3 on 5, 4 on 6, 5 and 6 on 7, 7 and 8 on 8. Level 9
 * runs stoa's smallest. */
static const uint8_t zlevel_table[10] = {
	[0] = 1, /* stored blocks (DEFL_ZMODE_STORED) run on the level buffer's block writer */
	[1] = 1, [2] = 4, [3] = 5, [4] = 6, [5] = 7, [6] = 7, [7] = 8, [8] = 8, [9] = 9,
};

/* The level buffer an engine level works in, for zlib's memLevel (1-9, 8 the default): more
 * memory holds more tokens per block. Levels 4-9 share one layout (stoa.h). */
static uint32_t level_buf_size(uint32_t engine_level, int mem_level)
{
	static const uint32_t sizes[5][5] = {
		{ 0, 0, 0, 0, 0 },
		{ ISAL_DEF_LVL1_MIN, ISAL_DEF_LVL1_SMALL, ISAL_DEF_LVL1_MEDIUM, ISAL_DEF_LVL1_LARGE,
		  ISAL_DEF_LVL1_EXTRA_LARGE },
		{ ISAL_DEF_LVL2_MIN, ISAL_DEF_LVL2_SMALL, ISAL_DEF_LVL2_MEDIUM, ISAL_DEF_LVL2_LARGE,
		  ISAL_DEF_LVL2_EXTRA_LARGE },
		{ ISAL_DEF_LVL3_MIN, ISAL_DEF_LVL3_SMALL, ISAL_DEF_LVL3_MEDIUM, ISAL_DEF_LVL3_LARGE,
		  ISAL_DEF_LVL3_EXTRA_LARGE },
		{ ISAL_DEF_LVL4_MIN, ISAL_DEF_LVL4_SMALL, ISAL_DEF_LVL4_MEDIUM, ISAL_DEF_LVL4_LARGE,
		  ISAL_DEF_LVL4_EXTRA_LARGE },
	};
	int cls = mem_level <= 2   ? 0
	          : mem_level <= 4 ? 1
	          : mem_level <= 6 ? 2
	          : mem_level <= 8 ? 3
	                           : 4;
	/* Level 9 a size up, as its ISAL_DEF_LVL9_DEFAULT is (stoa.h). */
	if (engine_level == 9 && cls < 4)
		cls++;
	return sizes[engine_level < 4 ? engine_level : 4][cls];
}

/* The engine's mode for a zlib level and strategy. */
static uint32_t mode_of(int level, int strategy)
{
	if (level == 0)
		return DEFL_ZMODE_STORED;
	switch (strategy) {
	case Z_FILTERED:
		return DEFL_ZMODE_FILTERED;
	case Z_HUFFMAN_ONLY:
		return DEFL_ZMODE_HUFFMAN;
	case Z_RLE:
		return DEFL_ZMODE_RLE;
	case Z_FIXED:
		return DEFL_ZMODE_DEFAULT | DEFL_ZMODE_FIXED;
	default:
		return DEFL_ZMODE_DEFAULT;
	}
}

static uint32_t engine_level_of(int level, uint32_t mode)
{
	const uint32_t e = zlevel_table[level];
	/* Modes other than the default run on the block machinery of levels 1 and up. */
	return e == 0 && (mode & DEFL_ZMODE_KIND) != DEFL_ZMODE_DEFAULT ? 1 : e;
}

enum { ST_INIT, ST_HEADER, ST_BUSY, ST_FINISH };
enum { FLUSH_IDLE, FLUSH_MARKER, FLUSH_DRAIN };

struct zdeflate {
	struct internal_state head;
	int wrap; /* 0 raw, 1 zlib, 2 gzip */
	int wbits, mem_level;
	int level, strategy; /* zlib's, as last set */
	int status;
	int last_flush;     /* -2: no deflate() since init or reset; -1: the last returned full */
	int flush_stage;    /* FLUSH_*: where the marker of a partial, sync or full flush is */
	int params_pending; /* level and strategy wait for the engine's output to drain */
	int tune[4];        /* deflateTune's values, kept for the record */
	gz_headerp gzhead;
	uint32_t hdr_pos; /* header bytes written */
	uint32_t hdr_crc; /* CRC-32 of those (gzip FHCRC) */
	uint32_t dict_id; /* zlib: Adler-32 of the dictionary, when have_dict */
	int have_dict;
	uint32_t lbuf_size; /* the level buffer, 8-byte aligned inside its allocation */
	uint8_t *lbuf_alloc;
	struct isal_zstream z;
};

static struct zdeflate *dstate(z_streamp strm)
{
	if (!strm || !strm->zalloc || !strm->zfree || !strm->state)
		return NULL;
	struct zdeflate *s = (struct zdeflate *)(void *)strm->state;
	if (s->head.strm != strm || s->head.kind != ZSTATE_KIND_DEFLATE)
		return NULL;
	return s;
}

static int fail(z_streamp strm, int err)
{
	strm->msg = zlib_err_msg(err);
	return err;
}

/* ---- level buffer and parameters ------------------------------------------------------------ */

static int ensure_level_buf(z_streamp strm, struct zdeflate *s, uint32_t size)
{
	if (size <= s->lbuf_size)
		return Z_OK;
	uint8_t *p = zlib_alloc(strm, (size_t)size + 8);
	if (!p)
		return Z_MEM_ERROR;
	zlib_free(strm, s->lbuf_alloc);
	s->lbuf_alloc = p;
	s->lbuf_size = size;
	s->z.level_buf = (uint8_t *)(((uintptr_t)p + 7) & ~(uintptr_t)7);
	s->z.level_buf_size = size;
	/* new memory: its layout is not set up */
	s->z.internal_state.has_level_buf_init &= (uint16_t)~DEFL_LBUF_READY;
	return Z_OK;
}

/* Level and strategy for the blocks from here on; the engine is at a block boundary with no
 * output waiting. */
static int apply_params(z_streamp strm, struct zdeflate *s, int level, int strategy)
{
	const uint32_t mode = mode_of(level, strategy);
	const uint32_t engine = engine_level_of(level, mode);
	const int err = ensure_level_buf(strm, s, level_buf_size(engine, s->mem_level));
	if (err != Z_OK)
		return err;
	s->z.level = engine;
	if (engine == 0)
		isal_deflate_set_hufftables(&s->z, NULL,
		                            mode & DEFL_ZMODE_FIXED ? IGZIP_HUFFTABLE_STATIC
		                                                    : IGZIP_HUFFTABLE_DEFAULT);
	defl_zlib_set_mode(&s->z, mode);
	s->level = level;
	s->strategy = strategy;
	s->params_pending = 0;
	return Z_OK;
}

/* ---- init, reset, end ----------------------------------------------------------------------- */

static int reset_keep(z_streamp strm, struct zdeflate *s)
{
	strm->total_in = strm->total_out = 0;
	strm->msg = NULL;
	strm->data_type = Z_UNKNOWN;
	strm->adler = s->wrap == 2 ? 0 : 1;
	isal_deflate_reset(&s->z);
	s->status = ST_INIT;
	s->last_flush = -2;
	s->flush_stage = FLUSH_IDLE;
	s->hdr_pos = 0;
	s->hdr_crc = 0;
	s->have_dict = 0;
	s->dict_id = 0;
	return apply_params(strm, s, s->level, s->strategy);
}

int zlib_deflate_reset(z_streamp strm)
{
	struct zdeflate *s = dstate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	return reset_keep(strm, s);
}

ZAPI int deflateReset(z_streamp strm)
{
	return zlib_deflate_reset(strm);
}

ZAPI int deflateResetKeep(z_streamp strm)
{
	return zlib_deflate_reset(strm);
}

int zlib_deflate_init2(z_streamp strm, int level, int method, int window_bits, int mem_level,
                       int strategy)
{
	if (!strm)
		return Z_STREAM_ERROR;
	strm->msg = NULL;
	zlib_default_alloc(strm);
	if (level == Z_DEFAULT_COMPRESSION)
		level = 6;
	int wrap = 1;
	if (window_bits < 0) {
		if (window_bits < -15)
			return Z_STREAM_ERROR;
		wrap = 0;
		window_bits = -window_bits;
	} else if (window_bits > 15) {
		wrap = 2;
		window_bits -= 16;
	}
	if (mem_level < 1 || mem_level > 9 || method != Z_DEFLATED || window_bits < 8 ||
	    window_bits > 15 || level < 0 || level > 9 || strategy < 0 || strategy > Z_FIXED ||
	    (window_bits == 8 && wrap != 1))
		return Z_STREAM_ERROR;
	if (window_bits == 8)
		window_bits = 9; /* zlib writes a 512-byte window for 8 */

	struct zdeflate *s = zlib_alloc(strm, sizeof(*s));
	if (!s)
		return Z_MEM_ERROR;
	memset(s, 0, offsetof(struct zdeflate, z));
	s->head.strm = strm;
	s->head.kind = ZSTATE_KIND_DEFLATE;
	s->wrap = wrap;
	s->wbits = window_bits;
	s->mem_level = mem_level;
	s->level = level;
	s->strategy = strategy;
	isal_deflate_init(&s->z);
	s->z.gzip_flag = wrap == 1   ? IGZIP_ZLIB_NO_HDR
	                 : wrap == 2 ? IGZIP_GZIP_NO_HDR
	                             : IGZIP_DEFLATE;
	s->z.hist_bits = (uint16_t)window_bits;
	strm->state = &s->head;
	const int err = reset_keep(strm, s);
	if (err != Z_OK) {
		zlib_deflate_end(strm);
		return err;
	}
	return Z_OK;
}

ZAPI int deflateInit2_(z_streamp strm, int level, int method, int window_bits, int mem_level,
                       int strategy, const char *version, int stream_size)
{
	if (zlib_version_mismatch(version, stream_size))
		return Z_VERSION_ERROR;
	return zlib_deflate_init2(strm, level, method, window_bits, mem_level, strategy);
}

ZAPI int deflateInit_(z_streamp strm, int level, const char *version, int stream_size)
{
	return deflateInit2_(strm, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY, version,
	                     stream_size);
}

int zlib_deflate_end(z_streamp strm)
{
	struct zdeflate *s = dstate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	const int busy = s->status == ST_BUSY;
	zlib_free(strm, s->lbuf_alloc);
	zlib_free(strm, s);
	strm->state = NULL;
	return busy ? Z_DATA_ERROR : Z_OK;
}

ZAPI int deflateEnd(z_streamp strm)
{
	return zlib_deflate_end(strm);
}

/* ---- wrapper headers ------------------------------------------------------------------------ */

/* The header's bytes: zlib (RFC 1950) CMF, FLG and the dictionary id; gzip (RFC 1952) the
 * fixed ten bytes, then deflateSetHeader's extra field, name, comment and header CRC. hdr_byte
 * returns byte i, or -1 past the end. */
struct hdr_layout {
	uint32_t fixed, extra, name, comment, hcrc; /* each part's length */
};

static void hdr_layout(const struct zdeflate *s, struct hdr_layout *l)
{
	memset(l, 0, sizeof(*l));
	if (s->wrap == 1) {
		l->fixed = s->have_dict ? 6 : 2;
	} else if (s->wrap == 2) {
		const gz_header *g = s->gzhead;
		l->fixed = 10;
		if (g && g->extra)
			l->extra = 2 + g->extra_len;
		if (g && g->name)
			l->name = (uint32_t)strlen((const char *)g->name) + 1;
		if (g && g->comment)
			l->comment = (uint32_t)strlen((const char *)g->comment) + 1;
		if (g && g->hcrc)
			l->hcrc = 2;
	}
}

static uint32_t hdr_len(const struct hdr_layout *l)
{
	return l->fixed + l->extra + l->name + l->comment + l->hcrc;
}

static int gzip_xfl(const struct zdeflate *s)
{
	if (s->level == 9)
		return 2;
	return s->strategy >= Z_HUFFMAN_ONLY || s->level < 2 ? 4 : 0;
}

static int hdr_byte(const struct zdeflate *s, const struct hdr_layout *l, uint32_t i)
{
	const gz_header *g = s->gzhead;
	if (s->wrap == 1) {
		if (i < 2) {
			const uint32_t flevel = s->strategy >= Z_HUFFMAN_ONLY || s->level < 2 ? 0
			                        : s->level < 6                                ? 1
			                        : s->level == 6                               ? 2
			                                                                      : 3;
			uint32_t h = (Z_DEFLATED + ((uint32_t)(s->wbits - 8) << 4)) << 8;
			h |= flevel << 6 | (s->have_dict ? 0x20 : 0);
			h += 31 - h % 31;
			return (int)(i == 0 ? h >> 8 : h & 0xff);
		}
		if (i < l->fixed)
			return (int)(s->dict_id >> (8 * (5 - i)) & 0xff);
		return -1;
	}
	if (s->wrap != 2)
		return -1;
	if (i < 10) {
		const uint32_t t = g ? (uint32_t)g->time : 0;
		switch (i) {
		case 0:
			return 0x1f;
		case 1:
			return 0x8b;
		case 2:
			return Z_DEFLATED;
		case 3:
			return !g ? 0
			          : (g->text ? 1 : 0) | (g->hcrc ? 2 : 0) | (g->extra ? 4 : 0) |
			                (g->name ? 8 : 0) | (g->comment ? 16 : 0);
		case 8:
			return gzip_xfl(s);
		case 9:
			return g ? g->os & 0xff : 3; /* OS: Unix */
		default:
			return (int)(t >> (8 * (i - 4)) & 0xff);
		}
	}
	i -= 10;
	if (i < l->extra)
		return i < 2 ? (int)(g->extra_len >> (8 * i) & 0xff) : g->extra[i - 2];
	i -= l->extra;
	if (i < l->name)
		return g->name[i];
	i -= l->name;
	if (i < l->comment)
		return g->comment[i];
	i -= l->comment;
	if (i < l->hcrc)
		return (int)(s->hdr_crc >> (8 * i) & 0xff);
	return -1;
}

/* Write what is left of the header to next_out; 1 once all of it is out. */
static int put_header(z_streamp strm, struct zdeflate *s)
{
	struct hdr_layout l;
	hdr_layout(s, &l);
	const uint32_t n = hdr_len(&l);
	const uint32_t crc_end = n - l.hcrc;
	while (s->hdr_pos < n && strm->avail_out) {
		const uint8_t b = (uint8_t)hdr_byte(s, &l, s->hdr_pos);
		if (s->hdr_pos < crc_end)
			s->hdr_crc = zlib_crc32(s->hdr_crc, &b, 1);
		*strm->next_out++ = b;
		strm->avail_out--;
		strm->total_out++;
		s->hdr_pos++;
	}
	if (s->hdr_pos < n)
		return 0;
	strm->adler = s->wrap == 2 ? 0 : 1; /* from here on the check of the data */
	return 1;
}

/* ---- the engine ----------------------------------------------------------------------------- */

/* zlib's data_type guess for the first input (zlib makes it per block): text when there is a
 * text character (TAB, LF, CR, 32-255) and no byte of the block list (0-6, 14-25, 28-31);
 * bytes 7, 8, 11, 12, 26, 27 decide nothing. */
static int data_type_of(const uint8_t *p, size_t n)
{
	const uint32_t block_list = 0xf3ffc07fu;
	int text = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < 32) {
			if (block_list >> p[i] & 1)
				return Z_BINARY;
			text |= p[i] == 9 || p[i] == 10 || p[i] == 13;
		} else {
			text = 1;
		}
	}
	return text ? Z_TEXT : Z_BINARY;
}

static uint32_t engine_check(const struct zdeflate *s)
{
	/* The engine keeps Adler-32 less one, as ISA-L does. */
	const uint32_t c = s->z.internal_state.crc;
	return s->wrap == 1 ? c + 1 : c;
}

/* Where a stream without input (next_in may then be NULL) points the engine. */
static const uint8_t no_input[1];

/* Move the caller's buffers past what a call took and wrote. */
static void advance(z_streamp strm, uInt in, uInt out)
{
	if (in && strm->data_type == Z_UNKNOWN)
		strm->data_type = data_type_of(strm->next_in, in < 65536 ? in : 65536);
	if (in)
		strm->next_in += in;
	strm->avail_in -= in;
	strm->total_in += in;
	strm->next_out += out;
	strm->avail_out -= out;
	strm->total_out += out;
}

/* One engine call on the caller's buffers. Returns the engine's result. */
static int run_engine(z_streamp strm, struct zdeflate *s, uint16_t flush, uint16_t eos)
{
	struct isal_zstream *z = &s->z;
	z->next_in = (uint8_t *)(uintptr_t)(strm->avail_in ? strm->next_in : no_input);
	z->avail_in = strm->avail_in;
	z->next_out = strm->next_out;
	z->avail_out = strm->avail_out;
	z->flush = flush;
	z->end_of_stream = eos;
	const int r = defl_zlib_run(z);
	const uInt in = strm->avail_in - z->avail_in;
	advance(strm, in, strm->avail_out - z->avail_out);
	if (in && s->wrap)
		strm->adler = engine_check(s);
	return r;
}

static int engine_pending(const struct zdeflate *s)
{
	uint32_t bits;
	return defl_zlib_pending(&s->z, &bits) != 0;
}

static int engine_ended(const struct zdeflate *s)
{
	return s->z.internal_state.state == ZSTATE_END;
}

/* The stream's input and output in one call: the first call of a stream, with all input, with
 * Z_FINISH and room for the input's stored form. Returns 1 when done. */
static int one_shot(z_streamp strm, struct zdeflate *s)
{
	struct hdr_layout l;
	hdr_layout(s, &l);
	uint32_t bits;
	const uint64_t n = strm->avail_in;
	const uint64_t stored = n + 5 * (n ? (n + 65534) / 65535 : 1);
	const uint64_t trailer = s->wrap == 2 ? 8 : s->wrap == 1 ? 4 : 0;
	if (s->hdr_pos || s->z.total_in || defl_zlib_pending(&s->z, &bits) || bits ||
	    strm->avail_out < hdr_len(&l) + stored + trailer)
		return 0;
	Bytef *const out0 = strm->next_out;
	const uLong total_out0 = strm->total_out;
	put_header(strm, s);
	struct isal_zstream *z = &s->z;
	z->next_in = (uint8_t *)(uintptr_t)(strm->avail_in ? strm->next_in : no_input);
	z->avail_in = strm->avail_in;
	z->next_out = strm->next_out;
	z->avail_out = strm->avail_out;
	z->flush = NO_FLUSH;
	z->end_of_stream = 1;
	if (isal_deflate_stateless(z) != COMP_OK) {
		/* (Not for want of room: the stored form fits.) Start over streaming. */
		strm->avail_out += (uInt)(strm->next_out - out0);
		strm->next_out = out0;
		strm->total_out = total_out0;
		s->hdr_pos = 0;
		s->hdr_crc = 0;
		return 0;
	}
	advance(strm, strm->avail_in, strm->avail_out - z->avail_out);
	if (s->wrap)
		strm->adler = engine_check(s);
	return 1;
}

/* zlib's order of flushes: a call with no input and a flush no stronger than the last one has
 * nothing to do. */
static int flush_rank(int f)
{
	return f * 2 - (f > 4 ? 9 : 0);
}

static int done_ok(z_streamp strm, struct zdeflate *s)
{
	if (!strm->avail_out)
		s->last_flush = -1; /* called again with room, the same flush is not a repeat */
	return Z_OK;
}

int zlib_deflate(z_streamp strm, int flush)
{
	struct zdeflate *s = dstate(strm);
	if (!s || flush < Z_NO_FLUSH || flush > Z_BLOCK)
		return Z_STREAM_ERROR;
	if (!strm->next_out || (strm->avail_in && !strm->next_in) ||
	    (s->status == ST_FINISH && flush != Z_FINISH))
		return fail(strm, Z_STREAM_ERROR);
	if (!strm->avail_out)
		return fail(strm, Z_BUF_ERROR);
	const int old_flush = s->last_flush;
	s->last_flush = flush;

	if ((s->status == ST_HEADER && s->hdr_pos) || engine_pending(s)) {
		/* Output made earlier goes first. */
		if (s->status == ST_HEADER && !put_header(strm, s))
			return done_ok(strm, s);
		if (s->status == ST_HEADER)
			s->status = ST_BUSY;
		if (engine_pending(s)) {
			const uInt keep = strm->avail_in;
			strm->avail_in = 0;
			run_engine(strm, s, NO_FLUSH, 0);
			strm->avail_in = keep;
			if (!strm->avail_out)
				return done_ok(strm, s);
		}
	} else if (!strm->avail_in && flush_rank(flush) <= flush_rank(old_flush) &&
	           flush != Z_FINISH) {
		return fail(strm, Z_BUF_ERROR);
	}
	if (s->status == ST_FINISH && strm->avail_in)
		return fail(strm, Z_BUF_ERROR);

	if (s->status == ST_INIT)
		s->status = ST_HEADER;
	if (s->status == ST_HEADER) {
		if (flush == Z_FINISH && one_shot(strm, s)) {
			s->status = ST_FINISH;
			return Z_STREAM_END;
		}
		if (!put_header(strm, s))
			return done_ok(strm, s);
		s->status = ST_BUSY;
		if (!strm->avail_out)
			return done_ok(strm, s);
	}
	if (s->params_pending) {
		const int err = apply_params(strm, s, s->level, s->strategy);
		if (err != Z_OK)
			return fail(strm, err);
	}

	const int marker =
	    flush == Z_PARTIAL_FLUSH || flush == Z_SYNC_FLUSH || flush == Z_FULL_FLUSH;
	if (!marker)
		s->flush_stage = FLUSH_IDLE;
	else if (s->flush_stage == FLUSH_IDLE)
		s->flush_stage = FLUSH_MARKER;
	const uint16_t eflush =
	    flush == Z_NO_FLUSH || flush == Z_FINISH ? NO_FLUSH : DEFL_FLUSH_BLOCK;
	const uint16_t eos = flush == Z_FINISH;
	for (int round = 0; round < 4; round++) {
		if (run_engine(strm, s, eflush, eos) != COMP_OK)
			return fail(strm, Z_STREAM_ERROR);
		if (s->flush_stage != FLUSH_MARKER || strm->avail_in ||
		    !defl_zlib_at_boundary(&s->z))
			break;
		/* The block is out: its marker follows, once the stream has room for it. */
		const int put = flush == Z_PARTIAL_FLUSH ? defl_zlib_put_bits(&s->z, 2, 10)
		                                         : defl_zlib_put_sync(&s->z);
		if (put) {
			s->flush_stage = FLUSH_DRAIN;
			if (flush == Z_FULL_FLUSH)
				defl_zlib_forget_history(&s->z);
		} else if (!strm->avail_out) {
			break;
		}
	}
	if (s->flush_stage == FLUSH_DRAIN && !engine_pending(s))
		s->flush_stage = FLUSH_IDLE;

	if (flush != Z_FINISH)
		return done_ok(strm, s);
	if (!strm->avail_in)
		s->status = ST_FINISH;
	if (engine_ended(s))
		return Z_STREAM_END;
	return done_ok(strm, s);
}

ZAPI int deflate(z_streamp strm, int flush)
{
	return zlib_deflate(strm, flush);
}

/* ---- parameters ----------------------------------------------------------------------------- */

int zlib_deflate_params(z_streamp strm, int level, int strategy)
{
	struct zdeflate *s = dstate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	if (level == Z_DEFAULT_COMPRESSION)
		level = 6;
	if (level < 0 || level > 9 || strategy < 0 || strategy > Z_FIXED)
		return Z_STREAM_ERROR;
	const uint32_t mode = mode_of(level, strategy);
	const int changed = mode != mode_of(s->level, s->strategy) ||
	                    engine_level_of(level, mode) != s->z.level || strategy != s->strategy;
	if (changed && s->last_flush != -2) {
		/* What the stream took so far is coded with the old parameters. */
		const int err = zlib_deflate(strm, Z_BLOCK);
		if (err == Z_STREAM_ERROR)
			return err;
		if (strm->avail_in || !defl_zlib_at_boundary(&s->z))
			return Z_BUF_ERROR;
	}
	if (!changed) {
		s->level = level;
		s->strategy = strategy;
		return Z_OK;
	}
	if (engine_pending(s) || (s->status == ST_HEADER && s->hdr_pos)) {
		/* The engine changes level only with its output out: deflate() applies them. */
		s->level = level;
		s->strategy = strategy;
		s->params_pending = 1;
		return Z_OK;
	}
	return apply_params(strm, s, level, strategy);
}

ZAPI int deflateParams(z_streamp strm, int level, int strategy)
{
	return zlib_deflate_params(strm, level, strategy);
}

ZAPI int deflateTune(z_streamp strm, int good_length, int max_lazy, int nice_length, int max_chain)
{
	struct zdeflate *s = dstate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	s->tune[0] = good_length;
	s->tune[1] = max_lazy;
	s->tune[2] = nice_length;
	s->tune[3] = max_chain;
	return Z_OK;
}

ZAPI int deflateSetHeader(z_streamp strm, gz_headerp head)
{
	struct zdeflate *s = dstate(strm);
	if (!s || s->wrap != 2)
		return Z_STREAM_ERROR;
	s->gzhead = head;
	return Z_OK;
}

/* ---- dictionaries --------------------------------------------------------------------------- */

ZAPI int deflateSetDictionary(z_streamp strm, const Bytef *dictionary, uInt dict_length)
{
	struct zdeflate *s = dstate(strm);
	if (!s || !dictionary)
		return Z_STREAM_ERROR;
	const struct isal_zstate *st = &s->z.internal_state;
	if (s->wrap == 2 || (s->wrap == 1 && s->status != ST_INIT) ||
	    st->b_bytes_processed != st->b_bytes_valid)
		return Z_STREAM_ERROR;
	if (s->wrap == 1) {
		strm->adler = zlib_adler32((uint32_t)strm->adler, dictionary, dict_length);
		s->dict_id = (uint32_t)strm->adler;
		s->have_dict = 1;
	}
	const uint32_t wsize = 1u << s->wbits;
	if (dict_length > wsize) {
		dictionary += dict_length - wsize;
		dict_length = wsize;
	}
	/* The dictionary follows what the stream saw before it (a raw stream may take one after a
	 * flush); the engine's history is replaced by the last window of the two. */
	const uint8_t *old;
	const uint32_t keep = defl_zlib_window(&s->z, wsize - dict_length, &old);
	uint8_t *joined = NULL;
	const uint8_t *dict = dictionary;
	if (keep) {
		joined = zlib_alloc(strm, (size_t)keep + dict_length);
		if (!joined)
			return Z_MEM_ERROR;
		memcpy(joined, old, keep);
		memcpy(joined + keep, dictionary, dict_length);
		dict = joined;
	}
	const int r = isal_deflate_set_dict(&s->z, (uint8_t *)(uintptr_t)dict, keep + dict_length);
	zlib_free(strm, joined);
	return r == COMP_OK ? Z_OK : Z_STREAM_ERROR;
}

ZAPI int deflateGetDictionary(z_streamp strm, Bytef *dictionary, uInt *dict_length)
{
	struct zdeflate *s = dstate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	const uint8_t *p;
	const uint32_t n = defl_zlib_window(&s->z, 1u << s->wbits, &p);
	if (dictionary && n)
		memcpy(dictionary, p, n);
	if (dict_length)
		*dict_length = n;
	return Z_OK;
}

/* ---- bounds, pending output, priming -------------------------------------------------------- */

uLong zlib_deflate_bound(z_streamp strm, uLong source_len)
{
	struct zdeflate *s = dstate(strm);
	if (!s) {
		/* No stream to ask: the larger of zlib's bounds for its most expanding settings,
		 * with a zlib wrapper. */
		const uLong fixed =
		    source_len + (source_len >> 3) + (source_len >> 8) + (source_len >> 9) + 4;
		const uLong stored =
		    source_len + (source_len >> 5) + (source_len >> 7) + (source_len >> 11) + 7;
		return (fixed > stored ? fixed : stored) + 6;
	}
	struct hdr_layout l;
	hdr_layout(s, &l);
	/* (A zlib header's dictionary id is counted even before deflateSetDictionary, which may
	 * come after this call.) */
	const uLong wrap_len = hdr_len(&l) +
	                       (s->wrap == 2   ? 8
	                        : s->wrap == 1 ? 4
	                                       : 0) +
	                       (s->wrap == 1 && !s->have_dict ? 4 : 0);
	/* The first call with all input and Z_FINISH falls back to stored blocks (5 bytes per
	 * 65535) when coding does not pay: this covers them with a margin. */
	return source_len + (source_len >> 12) + (source_len >> 14) + (source_len >> 25) + 7 +
	       wrap_len;
}

ZAPI uLong deflateBound(z_streamp strm, uLong source_len)
{
	return zlib_deflate_bound(strm, source_len);
}

ZAPI int deflatePending(z_streamp strm, unsigned *pending, int *bits)
{
	struct zdeflate *s = dstate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	uint32_t b;
	uint32_t n = defl_zlib_pending(&s->z, &b);
	if (s->status == ST_HEADER && s->hdr_pos) {
		struct hdr_layout l;
		hdr_layout(s, &l);
		n += hdr_len(&l) - s->hdr_pos;
	}
	if (pending)
		*pending = n;
	if (bits)
		*bits = (int)b;
	return Z_OK;
}

ZAPI int deflatePrime(z_streamp strm, int bits, int value)
{
	struct zdeflate *s = dstate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	if (bits < 0 || bits > 16 || !defl_zlib_put_bits(&s->z, (uint32_t)value, (uint32_t)bits))
		return Z_BUF_ERROR;
	return Z_OK;
}

/* ---- copy ----------------------------------------------------------------------------------- */

ZAPI int deflateCopy(z_streamp dest, z_streamp source)
{
	struct zdeflate *src = dstate(source);
	if (!src || !dest)
		return Z_STREAM_ERROR;
	*dest = *source;
	struct zdeflate *d = zlib_alloc(dest, sizeof(*d));
	if (!d)
		return Z_MEM_ERROR;
	memcpy(d, src, sizeof(*d));
	d->head.strm = dest;
	d->lbuf_alloc = NULL;
	d->lbuf_size = 0;
	d->z.level_buf = NULL;
	if (src->lbuf_alloc) {
		d->lbuf_alloc = zlib_alloc(dest, (size_t)src->lbuf_size + 8);
		if (!d->lbuf_alloc) {
			zlib_free(dest, d);
			return Z_MEM_ERROR;
		}
		d->lbuf_size = src->lbuf_size;
		d->z.level_buf = (uint8_t *)(((uintptr_t)d->lbuf_alloc + 7) & ~(uintptr_t)7);
		memcpy(d->z.level_buf, src->z.level_buf, src->lbuf_size);
		defl_zlib_relocate(&d->z, &src->z);
	}
	dest->state = &d->head;
	return Z_OK;
}
