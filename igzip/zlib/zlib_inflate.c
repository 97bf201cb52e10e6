/* zlib's inflate API (and inflateBack) on stoa's decompressor.
 *
 * A z_stream's state holds an inflate_state that decodes the deflate blocks: raw, and for gzip
 * and zlib streams computing their check (ISAL_GZIP_NO_HDR, ISAL_ZLIB_NO_HDR). This file reads
 * the wrappers itself, byte by byte as zlib does (it fills gz_header, detects the wrapper,
 * checks the window size and dictionary id with zlib's messages), checks the trailers, and keeps
 * zlib's rules for return codes, counters, adler and data_type.
 *
 * The engine's bit reader reads ahead, up to 8 bytes. When a call stops with input left (the
 * output is full, a Z_BLOCK stop, the end of the stream), the whole bytes it holds beyond the
 * bits it decoded are handed back to next_in (they are the last bytes it took), so that it holds
 * less than one byte, as zlib does there: next_in and total_in then say exactly where decoding
 * stands, which inflateBack's callers, Z_BLOCK's users (data_type's bit count) and anyone
 * reading past the end of a stream rely on. A call that runs out of input keeps what it took,
 * as zlib keeps the bits of a code it could not finish: all input is consumed. */
#include <string.h>

#include "igzip/igzip_zlib.h"
#include "zlib_abi.h"

enum mode {
	M_HEAD,    /* the first two bytes: zlib header or gzip magic */
	M_FLAGS,   /* gzip: CM, FLG */
	M_TIME,    /* gzip: MTIME */
	M_OS,      /* gzip: XFL, OS */
	M_EXLEN,   /* gzip: XLEN */
	M_EXTRA,   /* gzip: the extra field */
	M_NAME,    /* gzip: FNAME */
	M_COMMENT, /* gzip: FCOMMENT */
	M_HCRC,    /* gzip: the header's CRC-16 */
	M_DICTID,  /* zlib: DICTID */
	M_DICT,    /* zlib: waiting for inflateSetDictionary */
	M_TYPE,    /* at a block boundary, stopped by Z_BLOCK or Z_TREES */
	M_BODY,    /* the deflate blocks (the engine) */
	M_CHECK,   /* the trailer's check value */
	M_LENGTH,  /* gzip: ISIZE */
	M_DONE,
	M_BAD,
	M_SYNC, /* inflateSync is searching */
};

struct zinflate {
	struct internal_state head;
	enum mode mode;
	int wrap;  /* bit 0: zlib allowed, bit 1: gzip allowed, bit 2: check the data */
	int wbits; /* the window's log2; 0: take it from the zlib header */
	int flags; /* -1: no header seen; 0: zlib; else gzip (FLG << 8 | CM) */
	int havedict;
	int stopped; /* the engine's stop (INF_ZSTOP_*) that ended the last call */
	gz_headerp gzhead;
	uint32_t hold;     /* a header field being gathered, little-endian */
	uint32_t have;     /* its bytes so far */
	uint32_t length;   /* gzip: extra bytes left, or the offset in name or comment */
	uint32_t hcrc;     /* gzip: CRC-32 of the header so far */
	uint32_t check;    /* the data's check value (Adler-32 or CRC-32), or the dictionary id */
	uint64_t total;    /* bytes written since the start of the stream */
	uint32_t sync_got; /* inflateSync: bytes of 00 00 ff ff matched */
	struct inflate_state is;
};

static struct zinflate *istate(z_streamp strm)
{
	if (!strm || !strm->zalloc || !strm->zfree || !strm->state)
		return NULL;
	struct zinflate *s = (struct zinflate *)(void *)strm->state;
	if (s->head.strm != strm || s->head.kind != ZSTATE_KIND_INFLATE)
		return NULL;
	return s;
}

static void bad(z_streamp strm, struct zinflate *s, const char *msg)
{
	strm->msg = msg;
	s->mode = M_BAD;
}

/* ---- the engine ----------------------------------------------------------------------------- */

/* Whole bytes the bit reader took in this call beyond what it decoded go back to the input,
 * unless the call ended for want of input. A block header cut short waits in the engine's own
 * buffer after the bits it holds, which must then stay where they are. */
static void give_back(struct inflate_state *e, const uint8_t *in0)
{
	const int starved = !e->avail_in && e->avail_out && !inf_zlib_stopped(e) &&
	                    e->block_state != ISAL_BLOCK_FINISH;
	if (starved || e->tmp_in_size || e->read_in_length < 8 || e->next_in <= in0)
		return;
	uint32_t k = (uint32_t)e->read_in_length / 8;
	const size_t taken = (size_t)(e->next_in - in0);
	if (k > taken)
		k = (uint32_t)taken;
	e->next_in -= k;
	e->avail_in += k;
	e->read_in_length -= (int32_t)(8 * k);
	e->read_in &= e->read_in_length ? (1ull << e->read_in_length) - 1 : 0;
}

/* Where a call without input (next_in may then be NULL) points the engine. */
static const uint8_t no_input[1];

/* One engine call on the given buffers; moves them past what it took and wrote. Returns the
 * engine's result. */
static int engine_run(struct inflate_state *e, const Bytef **next_in, uInt *avail_in,
                      Bytef **next_out, uInt *avail_out, int stop)
{
	const uint8_t *const in0 = *avail_in ? *next_in : no_input;
	e->next_in = (uint8_t *)(uintptr_t)in0;
	e->avail_in = *avail_in;
	e->next_out = *next_out;
	e->avail_out = *avail_out;
	inf_zlib_set_stop(e, stop);
	int r = isal_inflate(e);
	/* Output decoded into the engine's own buffer when the input ran out is handed out
	 * when the engine is next entered: do that now, as zlib gives all it can. */
	if (r >= 0 && e->avail_out && e->tmp_out_valid != e->tmp_out_processed)
		r = isal_inflate(e);
	give_back(e, in0);
	if (e->next_in != in0)
		*next_in = e->next_in;
	*avail_in = e->avail_in;
	*next_out = e->next_out;
	*avail_out = e->avail_out;
	return r;
}

/* The next input byte for the wrapper: whole bytes the engine still holds first (the bits
 * before them are dropped by align_input), then next_in. */
static int take_byte(z_streamp strm, struct zinflate *s, uint8_t *b)
{
	struct inflate_state *e = &s->is;
	if (e->read_in_length >= 8) {
		*b = (uint8_t)e->read_in;
		e->read_in >>= 8;
		e->read_in_length -= 8;
		return 1;
	}
	if (!strm->avail_in)
		return 0;
	*b = *strm->next_in++;
	strm->avail_in--;
	return 1;
}

static void align_input(struct inflate_state *e)
{
	const int drop = e->read_in_length & 7;
	e->read_in >>= drop;
	e->read_in_length -= drop;
}

/* Gather an n-byte (<= 4) little-endian field into hold; 1 once complete. */
static int gather(z_streamp strm, struct zinflate *s, uint32_t n)
{
	while (s->have < n) {
		uint8_t b;
		if (!take_byte(strm, s, &b))
			return 0;
		s->hold |= (uint32_t)b << (8 * s->have);
		s->have++;
	}
	return 1;
}

static void field_done(struct zinflate *s)
{
	s->hold = 0;
	s->have = 0;
}

/* The gzip header CRC covers every header byte when FHCRC is set and checks are on. */
static void hcrc_field(struct zinflate *s, uint32_t n)
{
	if ((s->flags & 0x200) && (s->wrap & 4)) {
		const uint8_t b[4] = { (uint8_t)s->hold, (uint8_t)(s->hold >> 8),
			               (uint8_t)(s->hold >> 16), (uint8_t)(s->hold >> 24) };
		s->hcrc = zlib_crc32(s->hcrc, b, n);
	}
}

/* The engine decodes the blocks after a header (or from the start, raw): it computes the
 * check the trailer holds when checks are on. */
static void start_body(struct zinflate *s, enum mode next)
{
	struct inflate_state *e = &s->is;
	if (!(s->wrap & 4) || s->flags < 0)
		e->crc_flag = ISAL_DEFLATE;
	else
		e->crc_flag = s->flags ? ISAL_GZIP_NO_HDR : ISAL_ZLIB_NO_HDR;
	s->check = s->flags > 0 ? 0 : 1;
	s->mode = next;
}

static uint32_t byte_swap(uint32_t x)
{
	return x >> 24 | (x >> 8 & 0xff00) | (x << 8 & 0xff0000) | x << 24;
}

/* A zero-terminated gzip field (name or comment) into buf[0 .. max), as far as the input goes;
 * 1 once its terminator is read. */
static int gz_string(z_streamp strm, struct zinflate *s, Bytef *buf, uInt max)
{
	while (strm->avail_in) {
		const uint8_t b = *strm->next_in++;
		strm->avail_in--;
		if (buf && s->length < max)
			buf[s->length++] = b;
		if ((s->flags & 0x200) && (s->wrap & 4))
			s->hcrc = zlib_crc32(s->hcrc, &b, 1);
		if (!b)
			return 1;
	}
	return 0;
}

/* ---- inflate -------------------------------------------------------------------------------- */

int zlib_inflate(z_streamp strm, int flush)
{
	struct zinflate *s = istate(strm);
	if (!s || !strm->next_out || (!strm->next_in && strm->avail_in))
		return Z_STREAM_ERROR;
	if (s->mode == M_TYPE)
		s->mode = M_BODY; /* a new call goes on past the stop */
	struct inflate_state *const e = &s->is;
	const uInt in0 = strm->avail_in, out0 = strm->avail_out;
	int ret = Z_OK;
	s->stopped = INF_ZSTOP_NONE;
	gz_header *const g = s->gzhead;
	for (;;) {
		switch (s->mode) {
		case M_HEAD: {
			if (!s->wrap) {
				start_body(s, M_BODY);
				continue;
			}
			if (!gather(strm, s, 2))
				goto leave;
			const uint32_t b0 = s->hold & 0xff, b1 = s->hold >> 8;
			field_done(s);
			if ((s->wrap & 2) && b0 == 0x1f && b1 == 0x8b) {
				if (!s->wbits)
					s->wbits = 15;
				const uint8_t magic[2] = { 0x1f, 0x8b };
				s->hcrc = zlib_crc32(0, magic, 2);
				s->mode = M_FLAGS;
				continue;
			}
			if (g)
				g->done = -1;
			if (!(s->wrap & 1) || (b0 << 8 | b1) % 31) {
				bad(strm, s, "incorrect header check");
				continue;
			}
			if ((b0 & 0x0f) != Z_DEFLATED) {
				bad(strm, s, "unknown compression method");
				continue;
			}
			const int len = (int)(b0 >> 4) + 8;
			if (!s->wbits)
				s->wbits = len;
			if (len > 15 || len > s->wbits) {
				bad(strm, s, "invalid window size");
				continue;
			}
			s->flags = 0;
			strm->adler = 1;
			start_body(s, b1 & 0x20 ? M_DICTID : M_TYPE);
			continue;
		}
		case M_FLAGS:
			if (!gather(strm, s, 2))
				goto leave;
			s->flags = (int)s->hold;
			if ((s->flags & 0xff) != Z_DEFLATED) {
				bad(strm, s, "unknown compression method");
				continue;
			}
			if (s->flags & 0xe000) {
				bad(strm, s, "unknown header flags set");
				continue;
			}
			if (g)
				g->text = (int)(s->hold >> 8 & 1);
			hcrc_field(s, 2);
			field_done(s);
			s->mode = M_TIME;
			/* fall through */
		case M_TIME:
			if (!gather(strm, s, 4))
				goto leave;
			if (g)
				g->time = s->hold;
			hcrc_field(s, 4);
			field_done(s);
			s->mode = M_OS;
			/* fall through */
		case M_OS:
			if (!gather(strm, s, 2))
				goto leave;
			if (g) {
				g->xflags = (int)(s->hold & 0xff);
				g->os = (int)(s->hold >> 8);
			}
			hcrc_field(s, 2);
			field_done(s);
			s->mode = M_EXLEN;
			/* fall through */
		case M_EXLEN:
			if (s->flags & 0x400) {
				if (!gather(strm, s, 2))
					goto leave;
				s->length = s->hold;
				if (g)
					g->extra_len = s->hold;
				hcrc_field(s, 2);
				field_done(s);
			} else if (g) {
				g->extra = NULL;
			}
			s->mode = M_EXTRA;
			/* fall through */
		case M_EXTRA:
			if (s->flags & 0x400) {
				uint32_t n =
				    s->length < strm->avail_in ? s->length : strm->avail_in;
				if (n) {
					const uint32_t at = g ? g->extra_len - s->length : 0;
					if (g && g->extra && at < g->extra_max)
						memcpy(g->extra + at, strm->next_in,
						       at + n > g->extra_max ? g->extra_max - at
						                             : n);
					if ((s->flags & 0x200) && (s->wrap & 4))
						s->hcrc = zlib_crc32(s->hcrc, strm->next_in, n);
					strm->next_in += n;
					strm->avail_in -= n;
					s->length -= n;
				}
				if (s->length)
					goto leave;
			}
			s->length = 0;
			s->mode = M_NAME;
			/* fall through */
		case M_NAME:
			if (s->flags & 0x800) {
				if (!gz_string(strm, s, g ? g->name : NULL, g ? g->name_max : 0))
					goto leave;
			} else if (g) {
				g->name = NULL;
			}
			s->length = 0;
			s->mode = M_COMMENT;
			/* fall through */
		case M_COMMENT:
			if (s->flags & 0x1000) {
				if (!gz_string(strm, s, g ? g->comment : NULL, g ? g->comm_max : 0))
					goto leave;
			} else if (g) {
				g->comment = NULL;
			}
			s->length = 0;
			s->mode = M_HCRC;
			/* fall through */
		case M_HCRC:
			if (s->flags & 0x200) {
				if (!gather(strm, s, 2))
					goto leave;
				const uint32_t want = s->hold;
				field_done(s);
				if ((s->wrap & 4) && want != (s->hcrc & 0xffff)) {
					bad(strm, s, "header crc mismatch");
					continue;
				}
			}
			if (g) {
				g->hcrc = s->flags >> 9 & 1;
				g->done = 1;
			}
			strm->adler = 0;
			start_body(s, M_TYPE);
			continue;
		case M_DICTID:
			if (!gather(strm, s, 4))
				goto leave;
			s->check = byte_swap(s->hold);
			strm->adler = s->check;
			field_done(s);
			s->mode = M_DICT;
			/* fall through */
		case M_DICT:
			if (!s->havedict)
				return Z_NEED_DICT; /* (zlib leaves the counters as they are here)
				                     */
			strm->adler = s->check = 1;
			s->mode = M_TYPE;
			/* fall through */
		case M_TYPE:
			if (flush == Z_BLOCK || flush == Z_TREES)
				goto leave;
			s->mode = M_BODY;
			/* fall through */
		case M_BODY: {
			const uInt out_before = strm->avail_out;
			const int stop = flush == Z_TREES   ? INF_ZSTOP_TREES
			                 : flush == Z_BLOCK ? INF_ZSTOP_BLOCK
			                                    : INF_ZSTOP_NONE;
			const int r = engine_run(e, &strm->next_in, &strm->avail_in,
			                         &strm->next_out, &strm->avail_out, stop);
			const uInt out = out_before - strm->avail_out;
			s->total += out;
			if (out && e->crc_flag != ISAL_DEFLATE)
				strm->adler = s->check = e->crc;
			if (r < 0) {
				bad(strm, s, inf_zlib_error(e, r));
				continue;
			}
			if (e->block_state == ISAL_BLOCK_FINISH) {
				align_input(e);
				s->mode = s->wrap ? M_CHECK : M_DONE;
				continue;
			}
			s->stopped = inf_zlib_stopped(e);
			goto leave;
		}
		case M_CHECK:
			if (!gather(strm, s, 4))
				goto leave;
			{
				const uint32_t want = s->flags ? s->hold : byte_swap(s->hold);
				field_done(s);
				if ((s->wrap & 4) && want != s->check) {
					bad(strm, s, "incorrect data check");
					continue;
				}
			}
			s->mode = M_LENGTH;
			/* fall through */
		case M_LENGTH:
			if (s->flags) {
				if (!gather(strm, s, 4))
					goto leave;
				const uint32_t want = s->hold;
				field_done(s);
				if ((s->wrap & 4) && want != (uint32_t)s->total) {
					bad(strm, s, "incorrect length check");
					continue;
				}
			}
			s->mode = M_DONE;
			/* fall through */
		case M_DONE:
			ret = Z_STREAM_END;
			goto leave;
		case M_BAD:
			ret = Z_DATA_ERROR;
			goto leave;
		default:
			return Z_STREAM_ERROR;
		}
	}
leave:;
	const uInt in = in0 - strm->avail_in, out = out0 - strm->avail_out;
	strm->total_in += in;
	strm->total_out += out;
	const int in_body = s->mode == M_BODY;
	const int bits = in_body ? e->read_in_length : (int)(8 * s->have);
	strm->data_type =
	    bits + (e->bfinal && s->mode >= M_TYPE ? 64 : 0) +
	    (s->mode == M_TYPE || (in_body && s->stopped == INF_ZSTOP_BLOCK) ? 128 : 0) +
	    (in_body && s->stopped == INF_ZSTOP_TREES ? 256 : 0);
	if (((in == 0 && out == 0) || flush == Z_FINISH) && ret == Z_OK)
		ret = Z_BUF_ERROR;
	return ret;
}

ZAPI int inflate(z_streamp strm, int flush)
{
	return zlib_inflate(strm, flush);
}

/* ---- init, reset, end ----------------------------------------------------------------------- */

static void reset_keep(z_streamp strm, struct zinflate *s)
{
	strm->total_in = strm->total_out = 0;
	strm->msg = NULL;
	if (s->wrap)
		strm->adler = (uLong)(s->wrap & 1);
	s->total = 0;
	s->mode = M_HEAD;
	s->havedict = 0;
	s->flags = -1;
	s->gzhead = NULL;
	s->stopped = INF_ZSTOP_NONE;
	s->sync_got = 0;
	s->length = 0;
	s->hcrc = 0;
	s->check = 0;
	field_done(s);
	isal_inflate_reset(&s->is);
	s->is.crc_flag = ISAL_DEFLATE;
	s->is.hist_bits = 0; /* the engine keeps a 32 KiB window whatever the stream's */
}

ZAPI int inflateResetKeep(z_streamp strm)
{
	struct zinflate *s = istate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	reset_keep(strm, s);
	return Z_OK;
}

int zlib_inflate_reset(z_streamp strm)
{
	return inflateResetKeep(strm);
}

ZAPI int inflateReset(z_streamp strm)
{
	return zlib_inflate_reset(strm);
}

static int reset2(z_streamp strm, struct zinflate *s, int window_bits)
{
	int wrap;
	if (window_bits < 0) {
		if (window_bits < -15)
			return Z_STREAM_ERROR;
		wrap = 0;
		window_bits = -window_bits;
	} else {
		wrap = (window_bits >> 4) + 5; /* 5: zlib, 6: gzip, 7: either; checks on */
		if (window_bits < 48)
			window_bits &= 15;
	}
	if (window_bits && (window_bits < 8 || window_bits > 15))
		return Z_STREAM_ERROR;
	s->wrap = wrap;
	s->wbits = window_bits;
	reset_keep(strm, s);
	return Z_OK;
}

ZAPI int inflateReset2(z_streamp strm, int window_bits)
{
	struct zinflate *s = istate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	return reset2(strm, s, window_bits);
}

int zlib_inflate_init2(z_streamp strm, int window_bits)
{
	if (!strm)
		return Z_STREAM_ERROR;
	strm->msg = NULL;
	zlib_default_alloc(strm);
	struct zinflate *s = zlib_alloc(strm, sizeof(*s));
	if (!s)
		return Z_MEM_ERROR;
	memset(s, 0, offsetof(struct zinflate, is));
	s->head.strm = strm;
	s->head.kind = ZSTATE_KIND_INFLATE;
	isal_inflate_init(&s->is);
	strm->state = &s->head;
	const int err = reset2(strm, s, window_bits);
	if (err != Z_OK) {
		zlib_free(strm, s);
		strm->state = NULL;
	}
	return err;
}

ZAPI int inflateInit2_(z_streamp strm, int window_bits, const char *version, int stream_size)
{
	if (zlib_version_mismatch(version, stream_size))
		return Z_VERSION_ERROR;
	return zlib_inflate_init2(strm, window_bits);
}

ZAPI int inflateInit_(z_streamp strm, const char *version, int stream_size)
{
	return inflateInit2_(strm, 15, version, stream_size);
}

int zlib_inflate_end(z_streamp strm)
{
	struct zinflate *s = istate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	zlib_free(strm, s);
	strm->state = NULL;
	return Z_OK;
}

ZAPI int inflateEnd(z_streamp strm)
{
	return zlib_inflate_end(strm);
}

/* ---- dictionaries and headers --------------------------------------------------------------- */

/* Append bytes to the engine's window, as if they had been decoded (zlib lets a raw stream take
 * a dictionary at any point; its window simply grows by it). */
static void window_append(struct inflate_state *e, const uint8_t *p, uint32_t n)
{
	const uint32_t win = 32768, cap = (uint32_t)sizeof(e->tmp_out_buffer);
	if (n > win) {
		p += n - win;
		n = win;
	}
	uint32_t have = (uint32_t)e->tmp_out_processed;
	if (have + n > cap) {
		const uint32_t keep = have < win - n ? have : win - n;
		memmove(e->tmp_out_buffer, e->tmp_out_buffer + have - keep, keep);
		have = keep;
	}
	memcpy(e->tmp_out_buffer + have, p, n);
	e->tmp_out_valid = e->tmp_out_processed = (int32_t)(have + n);
}

ZAPI int inflateSetDictionary(z_streamp strm, const Bytef *dictionary, uInt dict_length)
{
	struct zinflate *s = istate(strm);
	if (!s || (s->wrap && s->mode != M_DICT) || (!dictionary && dict_length))
		return Z_STREAM_ERROR;
	if (s->mode == M_DICT && zlib_adler32(1, dictionary, dict_length) != s->check)
		return Z_DATA_ERROR;
	struct inflate_state *e = &s->is;
	if (e->tmp_out_valid != e->tmp_out_processed)
		return Z_STREAM_ERROR; /* (output not yet handed out would come after it) */
	window_append(e, dictionary, dict_length);
	e->dict_length = (uint32_t)e->tmp_out_valid;
	s->havedict = 1;
	return Z_OK;
}

ZAPI int inflateGetDictionary(z_streamp strm, Bytef *dictionary, uInt *dict_length)
{
	struct zinflate *s = istate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	const struct inflate_state *e = &s->is;
	const uint32_t wsize = 1u << (s->wbits ? s->wbits : 15);
	const uint32_t have = (uint32_t)e->tmp_out_processed;
	const uint32_t n = have < wsize ? have : wsize;
	if (dictionary && n)
		memcpy(dictionary, e->tmp_out_buffer + have - n, n);
	if (dict_length)
		*dict_length = n;
	return Z_OK;
}

ZAPI int inflateGetHeader(z_streamp strm, gz_headerp head)
{
	struct zinflate *s = istate(strm);
	if (!s || !(s->wrap & 2))
		return Z_STREAM_ERROR;
	s->gzhead = head;
	head->done = 0;
	return Z_OK;
}

/* ---- sync, prime, mark ---------------------------------------------------------------------- */

/* Advance the search for the marker 00 00 ff ff over p[0 .. n); returns the bytes consumed
 * (up to and including the marker, or all). *got counts the marker's bytes matched so far. */
static uint32_t sync_search(uint32_t *got, const uint8_t *p, uint32_t n)
{
	uint32_t i = 0;
	while (i < n && *got < 4) {
		const uint8_t want = *got < 2 ? 0x00 : 0xff;
		if (p[i] == want)
			(*got)++;
		else if (p[i] != 0)
			*got = 0;
		else
			*got = *got == 3
			           ? 1
			           : 2; /* a zero after 00 00 (ff): the last zeros start over */
		i++;
	}
	return i;
}

ZAPI int inflateSync(z_streamp strm)
{
	struct zinflate *s = istate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	struct inflate_state *e = &s->is;
	if (!strm->avail_in && e->read_in_length < 8)
		return Z_BUF_ERROR;
	if (s->mode != M_SYNC) {
		s->mode = M_SYNC;
		align_input(e);
		uint8_t held[8];
		uint32_t n = 0;
		while (e->read_in_length >= 8) {
			held[n++] = (uint8_t)e->read_in;
			e->read_in >>= 8;
			e->read_in_length -= 8;
		}
		s->sync_got = 0;
		sync_search(&s->sync_got, held, n);
	}
	const uint32_t n =
	    strm->avail_in ? sync_search(&s->sync_got, strm->next_in, strm->avail_in) : 0;
	if (n)
		strm->next_in += n;
	strm->avail_in -= n;
	strm->total_in += n;
	if (s->sync_got != 4)
		return Z_DATA_ERROR;
	/* Decoding restarts with the block after the marker, with no history and no check. */
	if (s->flags == -1)
		s->wrap = 0;
	else
		s->wrap &= ~4;
	const int flags = s->flags;
	const uLong in = strm->total_in, out = strm->total_out;
	reset_keep(strm, s);
	strm->total_in = in;
	strm->total_out = out;
	s->flags = flags;
	start_body(s, M_TYPE);
	return Z_OK;
}

/* 1 when the input stands right after the stored block header of a flush marker: the engine
 * reads such a header in one piece, so it never stops inside one. */
ZAPI int inflateSyncPoint(z_streamp strm)
{
	struct zinflate *s = istate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	return 0;
}

ZAPI int inflatePrime(z_streamp strm, int bits, int value)
{
	struct zinflate *s = istate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	if (bits == 0)
		return Z_OK;
	struct inflate_state *e = &s->is;
	if (bits < 0) {
		e->read_in = 0;
		e->read_in_length = 0;
		return Z_OK;
	}
	if (bits > 16 || e->read_in_length + bits > 32)
		return Z_STREAM_ERROR;
	const uint64_t v = (uint64_t)(uint32_t)value & ((1u << bits) - 1);
	e->read_in |= v << e->read_in_length;
	e->read_in_length += bits;
	return Z_OK;
}

/* zlib's position inside a block: -1 << 16 outside a coded block's symbols (at a boundary, in a
 * header, or copying a stored block, plus the bytes that block still has); 0 between two
 * symbols of a coded block, where the engine always stops. */
ZAPI long inflateMark(z_streamp strm)
{
	struct zinflate *s = istate(strm);
	if (!s)
		return -(1L << 16);
	const struct inflate_state *e = &s->is;
	if (s->mode == M_BODY && e->block_state == ISAL_BLOCK_CODED)
		return 0;
	const long back = -(1L << 16);
	if (s->mode == M_BODY && e->block_state == ISAL_BLOCK_TYPE0)
		return back + (long)inf_zlib_stored_left(e);
	return back;
}

/* ---- copy, validate, undermine, codes ------------------------------------------------------- */

ZAPI int inflateCopy(z_streamp dest, z_streamp source)
{
	struct zinflate *src = istate(source);
	if (!src || !dest)
		return Z_STREAM_ERROR;
	struct zinflate *d = source->zalloc(source->opaque, 1, sizeof(*d));
	if (!d)
		return Z_MEM_ERROR;
	memcpy(d, src, sizeof(*d));
	*dest = *source;
	d->head.strm = dest;
	dest->state = &d->head;
	return Z_OK;
}

ZAPI int inflateValidate(z_streamp strm, int check)
{
	struct zinflate *s = istate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	if (check && s->wrap)
		s->wrap |= 4;
	else
		s->wrap &= ~4;
	return Z_OK;
}

/* zlib built without INFLATE_ALLOW_INVALID_DISTANCE_TOOFAR_ARRR, as Debian's is, refuses. */
ZAPI int inflateUndermine(z_streamp strm, int subvert)
{
	(void)subvert;
	return istate(strm) ? Z_DATA_ERROR : Z_STREAM_ERROR;
}

/* The number of code table entries zlib's decoder used for the block's codes; stoa's tables
 * are laid out differently and the count has no meaning for them. */
ZAPI unsigned long inflateCodesUsed(z_streamp strm)
{
	return istate(strm) ? 0 : (unsigned long)-1;
}

/* ---- inflateBack ---------------------------------------------------------------------------- */

struct zinfback {
	struct internal_state head;
	uint8_t *window;
	uint32_t wsize;
	struct inflate_state is;
};

static struct zinfback *bstate(z_streamp strm)
{
	if (!strm || !strm->zalloc || !strm->zfree || !strm->state)
		return NULL;
	struct zinfback *s = (struct zinfback *)(void *)strm->state;
	if (s->head.strm != strm || s->head.kind != ZSTATE_KIND_INFBACK)
		return NULL;
	return s;
}

ZAPI int inflateBackInit_(z_streamp strm, int window_bits, unsigned char *window,
                          const char *version, int stream_size)
{
	if (zlib_version_mismatch(version, stream_size))
		return Z_VERSION_ERROR;
	if (!strm || !window || window_bits < 8 || window_bits > 15)
		return Z_STREAM_ERROR;
	strm->msg = NULL;
	zlib_default_alloc(strm);
	struct zinfback *s = zlib_alloc(strm, sizeof(*s));
	if (!s)
		return Z_MEM_ERROR;
	s->head.strm = strm;
	s->head.kind = ZSTATE_KIND_INFBACK;
	s->window = window;
	s->wsize = 1u << window_bits;
	isal_inflate_init(&s->is);
	strm->state = &s->head;
	return Z_OK;
}

/* One raw deflate stream from in() to out() through the caller's window. */
ZAPI int inflateBack(z_streamp strm, in_func in, void *in_desc, out_func out, void *out_desc)
{
	struct zinfback *s = bstate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	struct inflate_state *e = &s->is;
	isal_inflate_reset(e);
	e->crc_flag = ISAL_DEFLATE;
	strm->msg = NULL;
	const Bytef *next = strm->next_in;
	uInt have = next ? strm->avail_in : 0;
	Bytef *put = s->window;
	uInt left = s->wsize;
	int ret;
	for (;;) {
		if (!have) {
			const unsigned char *buf = NULL;
			have = in(in_desc, &buf);
			next = buf;
			if (!have) {
				next = NULL;
				ret = Z_BUF_ERROR;
				break;
			}
		}
		const int r = engine_run(e, &next, &have, &put, &left, INF_ZSTOP_NONE);
		if (r < 0) {
			strm->msg = inf_zlib_error(e, r);
			ret = Z_DATA_ERROR;
			break;
		}
		if (!left) {
			put = s->window;
			left = s->wsize;
			if (out(out_desc, s->window, s->wsize)) {
				ret = Z_BUF_ERROR;
				break;
			}
		}
		if (e->block_state == ISAL_BLOCK_FINISH) {
			ret = Z_STREAM_END;
			break;
		}
	}
	if (left < s->wsize && out(out_desc, s->window, s->wsize - left) && ret == Z_STREAM_END)
		ret = Z_BUF_ERROR;
	strm->next_in = next;
	strm->avail_in = have;
	return ret;
}

ZAPI int inflateBackEnd(z_streamp strm)
{
	struct zinfback *s = bstate(strm);
	if (!s)
		return Z_STREAM_ERROR;
	zlib_free(strm, s);
	strm->state = NULL;
	return Z_OK;
}
