/* isal_inflate and friends: the stream state machine around the block decoders.
 *
 * Output goes straight to the caller's buffer when it has room (direct mode); otherwise it is
 * decoded into tmp_out_buffer and copied out from there. tmp_out_buffer[0, tmp_out_valid) always
 * holds real output (or the dictionary): its last 32 KiB are the history that matches may reach
 * back into, and [tmp_out_processed, tmp_out_valid) is output not yet handed to the caller.
 * Bits read but not decoded stay in read_in between calls; a dynamic block header cut short by
 * the end of the input waits in tmp_in_buffer, as do the bytes of a wrapper field being gathered.
 */
#include "igzip_zlib.h"
#include "inflate_internal.h"
#include "isa-l/crc.h"

/* Coded output goes direct with this much room: below it, saving the history afterwards would
 * cost more than copying out of the state's buffer. Stored data goes direct with any room: it is
 * copied once either way. */
#define DIRECT_MIN (16u * 1024)
/* tmp_out_buffer slides its last 32 KiB to the front when less room than this is left. */
#define TMP_ROOM 4096u

#define GZ_FTEXT    0x01
#define GZ_FHCRC    0x02
#define GZ_FEXTRA   0x04
#define GZ_FNAME    0x08
#define GZ_FCOMMENT 0x10

/* What the API layer runs on: the bit reader over this call's input, and the mode. */
struct run {
	struct inf_br br;
	const uint8_t *in_start; /* next_in when the call began */
	int stateless;
	int null_in, null_out; /* next_in, next_out were NULL (igzip_unnull) */
	/* Direct decoding with a check: the first byte out not yet summed (decode_direct sums up
	 * to where decoding stopped; a stored block's copy sums as it copies); else NULL. */
	uint8_t *ck;
};

static int is_gzip_flag(uint32_t f)
{
	return f == ISAL_GZIP || f == ISAL_GZIP_NO_HDR || f == ISAL_GZIP_NO_HDR_VER;
}

static int is_zlib_flag(uint32_t f)
{
	return f == ISAL_ZLIB || f == ISAL_ZLIB_NO_HDR || f == ISAL_ZLIB_NO_HDR_VER;
}

static void checksum(struct inflate_state *s, const uint8_t *p, size_t n)
{
	if (!n)
		return;
	if (is_gzip_flag(s->crc_flag))
		s->crc = crc32_gzip_refl(s->crc, p, n);
	else if (is_zlib_flag(s->crc_flag))
		s->crc = isal_adler32(s->crc, p, n);
}

static uint32_t wsize_of(const struct inflate_state *s)
{
	uint32_t hb = s->hist_bits;
	return (hb == 0 || hb > 15) ? INF_HIST : 1u << hb;
}

/* ---- The far-copy helper the block decoders call ------------------------------------------ */

int inf_far_copy(const struct inf_ctx *c, uint8_t *out, uint32_t dist, uint32_t len)
{
	size_t here = (size_t)(out - c->out_begin);
	if (dist > here + c->hist_len)
		return ISAL_INVALID_LOOKBACK;
	size_t back = dist - here; /* bytes of the match source inside the history */
	const uint8_t *h = c->hist + c->hist_len - back;
	if (len <= back) {
		memcpy(out, h, len);
		return 0;
	}
	memcpy(out, h, back);
	/* The rest starts at out_begin and may overlap what it writes (a short period). */
	for (uint32_t k = (uint32_t)back; k < len; k++)
		out[k] = c->out_begin[k - back];
	return 0;
}

/* ---- Init, reset, dictionary -------------------------------------------------------------- */

static void reset_common(struct inflate_state *s)
{
	struct inf_priv *t = inf_priv(s);
	s->read_in = 0;
	s->read_in_length = 0;
	s->total_out = 0;
	s->dict_length = 0;
	s->block_state = ISAL_BLOCK_NEW_HDR;
	s->bfinal = 0;
	s->crc = 0;
	s->type0_block_len = 0;
	s->write_overflow_lits = 0;
	s->write_overflow_len = 0;
	s->copy_overflow_length = 0;
	s->copy_overflow_distance = 0;
	s->wrapper_flag = 0;
	s->tmp_in_size = 0;
	s->tmp_out_valid = 0;
	s->tmp_out_processed = 0;
	t->hdr_crc = 0;
	t->field_len = 0;
	t->gz_flags = 0;
	t->started = 0;
	t->fixed_hb = 0;
	t->fixed_shared = 0;
	t->lmask = (1u << INF_LITLEN_NARROW) - 1;
	t->type0_pending = 0;
	t->zstop = INF_ZSTOP_NONE;
	t->zstop_at = 0;
	t->zstop_done = 0;
	t->zlayer = 0;
	t->why = INF_WHY_NONE;
}

STOA_API void isal_inflate_init(struct inflate_state *s)
{
	s->next_in = NULL;
	s->avail_in = 0;
	s->crc_flag = ISAL_DEFLATE;
	s->hist_bits = 0;
	reset_common(s);
}

STOA_API void isal_inflate_reset(struct inflate_state *s)
{
	reset_common(s);
}

STOA_API int isal_inflate_set_dict(struct inflate_state *s, uint8_t *dict, uint32_t dict_len)
{
	if (s->block_state != ISAL_BLOCK_NEW_HDR || s->total_out != 0 || s->tmp_out_valid != 0)
		return ISAL_INVALID_STATE;
	if (dict_len > INF_HIST) {
		dict += dict_len - INF_HIST;
		dict_len = INF_HIST;
	}
	if (dict_len)
		memcpy(s->tmp_out_buffer, dict, dict_len);
	s->tmp_out_valid = (int32_t)dict_len;
	s->tmp_out_processed = (int32_t)dict_len;
	s->dict_length = dict_len;
	return COMP_OK;
}

STOA_API void isal_gzip_header_init(struct isal_gzip_header *h)
{
	h->text = 0;
	h->time = 0;
	h->xflags = 0;
	h->os = 0xff; /* unknown */
	h->extra = NULL;
	h->extra_buf_len = 0;
	h->extra_len = 0;
	h->name = NULL;
	h->name_buf_len = 0;
	h->comment = NULL;
	h->comment_buf_len = 0;
	h->hcrc = 0;
	h->flags = 0;
}

/* ---- Byte-level input for wrappers -------------------------------------------------------- */

/* The next input byte: whole bytes left in the bit reader first (it is byte-aligned here). */
static int next_byte(struct inf_br *br, uint8_t *b)
{
	if (br->bits >= 8) {
		*b = (uint8_t)br->buf;
		br->buf >>= 8;
		br->bits -= 8;
		return 1;
	}
	if (br->p < br->end) {
		/* Reading past the bit reader: drop what a word refill fetched ahead of p. */
		br->buf &= (1ull << br->bits) - 1;
		*b = *br->p++;
		return 1;
	}
	return 0;
}

/* Gather n bytes into tmp_in_buffer across calls; 1 when all n are there. */
static int gather(struct inflate_state *s, struct inf_br *br, unsigned n)
{
	while ((unsigned)s->tmp_in_size < n) {
		uint8_t b;
		if (!next_byte(br, &b))
			return 0;
		s->tmp_in_buffer[s->tmp_in_size++] = b;
	}
	return 1;
}

static void align_byte(struct inf_br *br)
{
	unsigned drop = br->bits & 7;
	br->buf >>= drop;
	br->bits -= drop;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void hdr_crc(struct inf_priv *t, const uint8_t *p, size_t n)
{
	t->hdr_crc = crc32_gzip_refl(t->hdr_crc, p, n);
}

/* A zero-terminated gzip field into buf (NULL: skip it); the offset reached is s->count. */
static int gz_string(struct inflate_state *s, struct inf_br *br, char *buf, uint32_t buf_len,
                     int overflow)
{
	struct inf_priv *t = inf_priv(s);
	for (;;) {
		if (buf && (uint32_t)s->count >= buf_len)
			return overflow;
		uint8_t b;
		if (!next_byte(br, &b))
			return ISAL_END_INPUT;
		hdr_crc(t, &b, 1);
		if (buf)
			buf[s->count] = (char)b;
		s->count++;
		if (b == 0)
			return ISAL_DECOMP_OK;
	}
}

/* The gzip member header, resumable at any byte (block_state says where). g may be NULL. */
static int read_gzip_hdr(struct inflate_state *s, struct inf_br *br, struct isal_gzip_header *g)
{
	struct inf_priv *t = inf_priv(s);
	int r;
	align_byte(br);
	switch (s->block_state) {
	default:
		if (!gather(s, br, 10))
			return ISAL_END_INPUT;
		{
			const uint8_t *h = s->tmp_in_buffer;
			if (h[0] != 0x1f || h[1] != 0x8b) {
				s->tmp_in_size = 0;
				return ISAL_INVALID_WRAPPER;
			}
			if (h[2] != 8) {
				s->tmp_in_size = 0;
				return ISAL_UNSUPPORTED_METHOD;
			}
			t->gz_flags = h[3];
			t->hdr_crc = 0;
			hdr_crc(t, h, 10);
			if (g) {
				g->text = h[3] & GZ_FTEXT;
				g->time = le32(h + 4);
				g->xflags = h[8];
				g->os = h[9];
				g->flags = h[3];
				g->hcrc = 0;
				g->extra_len = 0;
			}
			s->tmp_in_size = 0;
			s->count = 0;
		}
		s->block_state = ISAL_GZIP_EXTRA_LEN;
		/* fall through */
	case ISAL_GZIP_EXTRA_LEN:
		if (t->gz_flags & GZ_FEXTRA) {
			if (!gather(s, br, 2))
				return ISAL_END_INPUT;
			hdr_crc(t, s->tmp_in_buffer, 2);
			t->field_len = s->tmp_in_buffer[0] | (uint32_t)s->tmp_in_buffer[1] << 8;
			s->tmp_in_size = 0;
			s->count = 0;
			if (g)
				g->extra_len = t->field_len;
		}
		s->block_state = ISAL_GZIP_EXTRA;
		/* fall through */
	case ISAL_GZIP_EXTRA:
		if (t->gz_flags & GZ_FEXTRA) {
			while ((uint32_t)s->count < t->field_len) {
				uint8_t *buf = g ? g->extra : NULL;
				if (buf && (uint32_t)s->count >= g->extra_buf_len)
					return ISAL_EXTRA_OVERFLOW;
				uint8_t b;
				if (!next_byte(br, &b))
					return ISAL_END_INPUT;
				hdr_crc(t, &b, 1);
				if (buf)
					buf[s->count] = b;
				s->count++;
			}
		}
		s->count = 0;
		s->block_state = ISAL_GZIP_NAME;
		/* fall through */
	case ISAL_GZIP_NAME:
		if (t->gz_flags & GZ_FNAME) {
			r = gz_string(s, br, g ? g->name : NULL, g ? g->name_buf_len : 0,
			              ISAL_NAME_OVERFLOW);
			if (r != ISAL_DECOMP_OK)
				return r;
		}
		s->count = 0;
		s->block_state = ISAL_GZIP_COMMENT;
		/* fall through */
	case ISAL_GZIP_COMMENT:
		if (t->gz_flags & GZ_FCOMMENT) {
			r = gz_string(s, br, g ? g->comment : NULL, g ? g->comment_buf_len : 0,
			              ISAL_COMMENT_OVERFLOW);
			if (r != ISAL_DECOMP_OK)
				return r;
		}
		s->count = 0;
		s->block_state = ISAL_GZIP_HCRC;
		/* fall through */
	case ISAL_GZIP_HCRC:
		if (t->gz_flags & GZ_FHCRC) {
			if (!gather(s, br, 2))
				return ISAL_END_INPUT;
			uint32_t want = s->tmp_in_buffer[0] | (uint32_t)s->tmp_in_buffer[1] << 8;
			s->tmp_in_size = 0;
			if (g)
				g->hcrc = t->hdr_crc;
			if (want != (t->hdr_crc & 0xffff))
				return ISAL_INCORRECT_CHECKSUM;
		}
		break;
	}
	s->block_state = ISAL_BLOCK_NEW_HDR;
	s->wrapper_flag = 1;
	s->count = 0;
	return ISAL_DECOMP_OK;
}

/* The zlib header (RFC 1950 2.2), resumable. z may be NULL. */
static int read_zlib_hdr(struct inflate_state *s, struct inf_br *br, struct isal_zlib_header *z,
                         int *fdict)
{
	struct inf_priv *t = inf_priv(s);
	align_byte(br);
	*fdict = 0;
	if (s->block_state != ISAL_ZLIB_DICT) {
		if (!gather(s, br, 2))
			return ISAL_END_INPUT;
		uint8_t cmf = s->tmp_in_buffer[0], flg = s->tmp_in_buffer[1];
		s->tmp_in_size = 0;
		if ((cmf & 0x0f) != 8)
			return ISAL_UNSUPPORTED_METHOD;
		if (((uint32_t)cmf << 8 | flg) % 31)
			return ISAL_INCORRECT_CHECKSUM;
		t->gz_flags = flg;
		if (z) {
			z->info = cmf >> 4;
			z->level = flg >> 6;
			z->dict_flag = (flg >> 5) & 1;
			z->dict_id = 0;
		}
		s->block_state = ISAL_ZLIB_DICT;
	}
	if (t->gz_flags & 0x20) {
		if (!gather(s, br, 4))
			return ISAL_END_INPUT;
		const uint8_t *p = s->tmp_in_buffer;
		uint32_t id =
		    (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
		s->tmp_in_size = 0;
		s->dict_id = id;
		if (z)
			z->dict_id = id;
		*fdict = 1;
	}
	s->block_state = ISAL_BLOCK_NEW_HDR;
	s->wrapper_flag = 1;
	return ISAL_DECOMP_OK;
}

/* ---- Block headers ------------------------------------------------------------------------ */

/* Read one block header from br; on success set bfinal, block_state and the tables (a dynamic
 * block's with the extras `matches` asks for: inf_read_dynamic's `extras`). */
static int block_header(struct inflate_state *s, struct inf_br *br, int matches)
{
	struct inf_priv *t = inf_priv(s);
	if (!inf_br_need(br, 3))
		return INF_NEED_IN;
	uint32_t bfinal = br->buf & 1, type = (br->buf >> 1) & 3;
	if (type == 0) {
		unsigned pad = (br->bits - 3) & 7;
		if (!inf_br_need(br, 3 + pad + 32))
			return INF_NEED_IN;
		inf_br_take(br, 3 + pad);
		uint32_t len = inf_br_take(br, 16), nlen = inf_br_take(br, 16);
		if (len != (~nlen & 0xffff)) {
			t->why = INF_WHY_STORED_LEN;
			return ISAL_INVALID_BLOCK;
		}
		s->type0_block_len = (int32_t)len;
		s->block_state = ISAL_BLOCK_TYPE0;
	} else if (type == 1) {
		inf_br_take(br, 3);
		uint32_t hb = s->hist_bits + 1;
		if (t->fixed_hb != hb) {
			const uint32_t ws = wsize_of(s);
			t->fixed_shared = ws == INF_HIST && inf_fixed_shared();
			if (!t->fixed_shared)
				inf_build_fixed(t, ws);
			t->fixed_hb = (uint8_t)hb;
		}
		s->block_state = ISAL_BLOCK_CODED;
	} else if (type == 2) {
		inf_br_take(br, 3);
		t->fixed_hb = 0;
		t->fixed_shared = 0;
		int r = inf_read_dynamic(br, t, wsize_of(s), matches);
		if (r)
			return r;
		s->block_state = ISAL_BLOCK_CODED;
	} else {
		s->bfinal = bfinal;
		t->why = INF_WHY_BTYPE;
		return ISAL_INVALID_BLOCK;
	}
	s->bfinal = bfinal;
	return 0;
}

/* Whether the block about to start may run long: at least min_in input bytes at hand (little
 * input bounds the block in stateless mode), or a stream that has produced four times that
 * (it is likely to go on in its next pieces). */
static int may_run(const struct inflate_state *s, const struct run *r, const struct inf_br *br,
                   size_t min_in)
{
	return (size_t)(br->end - br->p) >= min_in || (!r->stateless && s->total_out >= 4 * min_in);
}

/* A block header, stitching a header cut short in an earlier call (tmp_in_buffer) to this
 * call's input. In stateless mode nothing is stashed. */
static int block_header_stream(struct inflate_state *s, struct run *r)
{
	struct inf_br *br = &r->br;
	uint8_t stitch[2 * ISAL_DEF_MAX_HDR_SIZE];
	/* Match entries and literal pairs pay for their build only over a block of some length,
	 * the 12-bit root over a longer one. */
	const int matches = !may_run(s, r, br, INF_MATCH_MIN_IN) ? 0
	                    : may_run(s, r, br, INF_WIDE_MIN_IN) ? 2
	                                                         : 1;
	if (s->tmp_in_size > 0) {
		size_t n = (size_t)s->tmp_in_size;
		size_t m = (size_t)(br->end - br->p);
		if (m > sizeof(stitch) - n)
			m = sizeof(stitch) - n;
		memcpy(stitch, s->tmp_in_buffer, n);
		memcpy(stitch + n, br->p, m);
		struct inf_br sb = { stitch, stitch + n + m, br->buf, br->bits };
		int ret = block_header(s, &sb, matches);
		if (ret == INF_NEED_IN) {
			if (m != (size_t)(br->end - br->p) || n + m > ISAL_DEF_MAX_HDR_SIZE)
				return ISAL_INVALID_BLOCK; /* no header is this long */
			memcpy(s->tmp_in_buffer + n, br->p, m);
			s->tmp_in_size = (int16_t)(n + m);
			br->p += m;
			return INF_NEED_IN;
		}
		if (ret)
			return ret;
		unsigned give = sb.bits / 8;
		sb.p -= give;
		sb.bits -= give * 8;
		sb.buf &= (1ull << sb.bits) - 1;
		ptrdiff_t used = (sb.p - stitch) - (ptrdiff_t)n;
		if (used < 0)
			return ISAL_INVALID_BLOCK; /* cannot happen: the header ran past the stash
			                            */
		br->p += used;
		br->buf = sb.buf;
		br->bits = sb.bits;
		s->tmp_in_size = 0;
		return 0;
	}
	struct inf_br snap = *br;
	int ret = block_header(s, br, matches);
	if (ret == INF_NEED_IN) {
		*br = snap;
		if (r->stateless)
			return INF_NEED_IN;
		size_t m = (size_t)(br->end - br->p);
		if (m > ISAL_DEF_MAX_HDR_SIZE)
			return ISAL_INVALID_BLOCK;
		memcpy(s->tmp_in_buffer, br->p, m);
		s->tmp_in_size = (int16_t)m;
		br->p += m;
		s->block_state = ISAL_BLOCK_HDR;
	}
	return ret;
}

/* ---- Decoding into an output window ------------------------------------------------------- */

/* Stored bytes fuse their copy and checksum from this many on. */
#define STORED_FUSE_MIN 256u

/* Copy stored-block bytes into [*outp, end) (*outp <= end): whole bytes in the reader first, then
 * straight from the input; with ck (direct decoding with a check), summing as they are copied. */
static int stored_copy(struct inflate_state *s, struct inf_br *br, uint8_t **outp, uint8_t *end,
                       uint8_t **ck)
{
	uint8_t *out = *outp;
	uint32_t left = (uint32_t)s->type0_block_len;
	while (left && br->bits >= 8 && out < end) {
		*out++ = (uint8_t)br->buf;
		br->buf >>= 8;
		br->bits -= 8;
		left--;
	}
	if (br->bits < 8) {
		br->buf &= (1ull << br->bits) - 1; /* as in next_byte */
		size_t n = left;
		if (n > (size_t)(br->end - br->p))
			n = (size_t)(br->end - br->p);
		if (n > (size_t)(end - out))
			n = (size_t)(end - out);
		const int gzip = is_gzip_flag(s->crc_flag);
		if (ck && n >= STORED_FUSE_MIN && (gzip || is_zlib_flag(s->crc_flag))) {
			/* One pass instead of a copy and then a checksum: stored data in one
			 * call 1.4x as fast (Zen 5). */
			checksum(s, *ck, (size_t)(out - *ck));
			if (gzip)
				s->crc = inf_crc32_gzip_copy(s->crc, out, br->p, n);
			else
				s->crc = inf_adler32_copy(s->crc, out, br->p, n);
			*ck = out + n;
		} else {
			memcpy(out, br->p, n);
		}
		out += n;
		br->p += n;
		left -= (uint32_t)n;
	}
	*outp = out;
	s->type0_block_len = (int32_t)left;
	if (left == 0)
		return INF_EOB;
	return out == end ? INF_NEED_OUT : INF_NEED_IN;
}

/* Decode blocks into [*outp, end) with lookback to out_begin and then into hist. Stops at the
 * end of the final block, or when input or output runs short, or on an error; or, with
 * INF_NEED_OUT, soon after passing soft (<= end; soft == end: no such stop). Stored blocks stop at
 * soft. */
static int decode_into(struct inflate_state *s, struct run *r, uint8_t **outp, uint8_t *soft,
                       uint8_t *end, uint8_t *out_begin, const uint8_t *hist, size_t hist_len)
{
	inf_block_fn *fn = inflate_huff_impl();
	struct inf_priv *t = inf_priv(s);
	for (;;) {
		int ret;
		switch (s->block_state) {
		case ISAL_BLOCK_NEW_HDR:
		case ISAL_BLOCK_HDR:
			if (!t->started) {
				t->started = 1;
				s->crc = is_zlib_flag(s->crc_flag) ? 1 : 0;
			}
			ret = block_header_stream(s, r);
			if (ret)
				return ret;
			if (t->zstop == INF_ZSTOP_TREES) {
				t->zstop_at = INF_ZSTOP_TREES;
				return INF_ZSTOP;
			}
			continue;
		case ISAL_BLOCK_TYPE0:
			ret = stored_copy(s, &r->br, outp, soft, r->ck ? &r->ck : NULL);
			break;
		case ISAL_BLOCK_CODED: {
			struct inf_ctx c = { r->br,    *outp,    end,
			                     soft,     out_begin, hist,
			                     hist_len, t->fixed_shared ? inf_fixed_shared() : t };
			ret = fn(&c);
			r->br = c.br;
			*outp = c.out;
			break;
		}
		default:
			return INF_EOB;
		}
		if (ret != INF_EOB)
			return ret;
		s->block_state = s->bfinal ? ISAL_BLOCK_INPUT_DONE : ISAL_BLOCK_NEW_HDR;
		if (t->zstop != INF_ZSTOP_NONE) {
			t->zstop_at = INF_ZSTOP_BLOCK;
			return INF_ZSTOP;
		}
		if (s->bfinal)
			return INF_EOB;
		/* A coded block can end a symbol or two past soft (its last step decodes up to
		 * three literal entries and the end of block together): pause here, before the next
		 * block, whose stored copy takes soft as its end. */
		if (*outp >= soft && soft != end)
			return INF_NEED_OUT;
	}
}

/* ---- Output plumbing ---------------------------------------------------------------------- */

static void deliver(struct inflate_state *s)
{
	uint32_t pend = (uint32_t)(s->tmp_out_valid - s->tmp_out_processed);
	uint32_t n = pend < s->avail_out ? pend : s->avail_out;
	if (!n)
		return;
	const uint8_t *src = s->tmp_out_buffer + s->tmp_out_processed;
	memcpy(s->next_out, src, n);
	checksum(s, src, n);
	s->next_out += n;
	s->avail_out -= n;
	s->total_out += n;
	s->tmp_out_processed += (int32_t)n;
}

/* After direct output of n bytes ending at end, which follow the history h[0, tmp_out_valid):
 * keep at least the last 32 KiB of the two in the state. Short outputs are appended while the
 * buffer has room, and it is compacted only when full: a 16 KiB call moved 32 KiB when the window
 * shifted every call, 21 KiB on average now. */
static void keep_history(struct inflate_state *s, const uint8_t *end, size_t n)
{
	uint8_t *h = s->tmp_out_buffer;
	size_t old = (size_t)s->tmp_out_valid;
	if (n >= INF_HIST) {
		memcpy(h, end - INF_HIST, INF_HIST);
		s->tmp_out_valid = INF_HIST;
	} else if (old + n <= INF_TMP_SIZE) {
		memcpy(h + old, end - n, n);
		s->tmp_out_valid = (int32_t)(old + n);
	} else {
		size_t keep = old < INF_HIST - n ? old : INF_HIST - n;
		if (keep && old != keep)
			memmove(h, h + old - keep, keep);
		memcpy(h + keep, end - n, n);
		s->tmp_out_valid = (int32_t)(keep + n);
	}
	s->tmp_out_processed = s->tmp_out_valid;
}

/* Output checksummed per this many bytes, while they are still in cache. */
#define CHECK_CHUNK (64u * 1024)

/* Decode straight into [*outp, end) with lookback to out_begin, then hist; checksum what comes
 * out in cache-sized pieces. */
static int decode_direct(struct inflate_state *s, struct run *r, uint8_t **outp, uint8_t *end,
                         uint8_t *out_begin, const uint8_t *hist, size_t hist_len)
{
	int ck = s->crc_flag != ISAL_DEFLATE;
	for (;;) {
		uint8_t *from = *outp;
		uint8_t *lim = end;
		if (ck && (size_t)(end - from) > CHECK_CHUNK + CHECK_CHUNK / 2)
			lim = from + CHECK_CHUNK;
		r->ck = ck ? from : NULL;
		int ret = decode_into(s, r, outp, lim, end, out_begin, hist, hist_len);
		if (ck)
			checksum(s, r->ck, (size_t)(*outp - r->ck));
		r->ck = NULL;
		if (ret != INF_NEED_OUT || lim == end)
			return ret;
	}
}

/* Where decoding about room bytes into tmp_out_buffer from out should stop: a soft stop (the
 * output may pass it by a symbol, which then stays pending) no later than the fast loop's margin
 * before the buffer's end, so that no symbol-by-symbol decoding is needed to get there; the
 * buffer's end itself when that margin leaves nothing. */
static uint8_t *tmp_soft(uint8_t *h, uint8_t *out, size_t room)
{
	uint8_t *end = h + INF_TMP_SIZE;
	size_t left = (size_t)(end - out);
	if (left <= INF_OUT_MARGIN)
		return end;
	return out + (room < left - INF_OUT_MARGIN ? room : left - INF_OUT_MARGIN);
}

/* Whether what comes next is a stored block's data: inside one, or at a block header (read ahead
 * when the input has its three bits) whose type is stored. */
static int stored_next(const struct inflate_state *s, struct inf_br *br)
{
	if (s->block_state != ISAL_BLOCK_NEW_HDR)
		return s->block_state == ISAL_BLOCK_TYPE0;
	return inf_br_need(br, 3) && (br->buf >> 1 & 3) == 0;
}

/* One stretch of decoding, direct or through tmp_out_buffer. */
static int decode_step(struct inflate_state *s, struct run *r)
{
	uint8_t *h = s->tmp_out_buffer;
	if (r->stateless) {
		uint8_t *start = s->next_out, *out = start;
		int ret = decode_direct(s, r, &out, start + s->avail_out, start, h, 0);
		size_t n = (size_t)(out - start);
		s->next_out = out;
		s->avail_out -= (uint32_t)n;
		s->total_out += (uint32_t)n;
		return ret;
	}
	uint32_t valid = (uint32_t)s->tmp_out_valid;
	const int stored = stored_next(s, &r->br);
	if (s->avail_out >= DIRECT_MIN || (stored && s->avail_out)) {
		/* Nothing is pending here. With a history, the first 32 KiB go through the state's
		 * buffer right after it, so that matches reaching back find one contiguous window,
		 * and are copied out; after that the caller's buffer holds the whole window itself
		 * and decoding goes straight into it. Not inside or at the start of a stored block,
		 * whose bytes reach back to nothing: they go straight out with any room (through the
		 * buffer, its 2 KiB read-ahead left every next 16 KiB call below DIRECT_MIN: 0.7x
		 * zlib-ng's speed), and a coded block after it in the same call reaches the history
		 * through the far copy. */
		uint8_t *begin = s->next_out;
		const int via_h = valid > 0 && !stored;
		if (via_h && valid > INF_TMP_SIZE - INF_HIST) {
			memmove(h, h + valid - INF_HIST, INF_HIST);
			valid = INF_HIST;
			s->tmp_out_valid = (int32_t)valid;
			s->tmp_out_processed = (int32_t)valid;
		}
		const uint8_t *hist = h;
		size_t hl = valid;
		if (hl > INF_HIST) {
			hist = h + hl - INF_HIST;
			hl = INF_HIST;
		}
		if (via_h) {
			uint8_t *out = h + valid;
			size_t room = s->avail_out < INF_HIST ? s->avail_out : INF_HIST;
			int ret = decode_into(s, r, &out, tmp_soft(h, out, room), h + INF_TMP_SIZE,
			                      h, h, 0);
			s->tmp_out_valid = (int32_t)(out - h);
			deliver(s);
			if (ret != INF_NEED_OUT || s->avail_out == 0)
				return ret;
		}
		uint8_t *from = s->next_out, *out = from;
		int ret = decode_direct(s, r, &out, from + s->avail_out, begin, hist, hl);
		size_t n = (size_t)(out - from);
		s->next_out = out;
		s->avail_out -= (uint32_t)n;
		s->total_out += (uint32_t)n;
		if (out != begin) {
			/* What went out this step follows the history as it was. */
			s->tmp_out_valid = (int32_t)valid;
			keep_history(s, out, (size_t)(out - begin));
		}
		return ret;
	}
	/* Through the state's buffer: nothing is pending here. */
	if (valid > INF_TMP_SIZE - TMP_ROOM) {
		memmove(h, h + valid - INF_HIST, INF_HIST);
		valid = INF_HIST;
		s->tmp_out_processed = (int32_t)valid;
	}
	/* Decode only a little more than the caller takes now: what is left decodes straight into
	 * its buffer on a later call instead of being copied twice. */
	uint8_t *out = h + valid;
	size_t room = INF_TMP_SIZE - valid;
	if (room > (size_t)s->avail_out + 2048)
		room = (size_t)s->avail_out + 2048;
	int ret = decode_into(s, r, &out, tmp_soft(h, out, room), h + INF_TMP_SIZE, h, h, 0);
	s->tmp_out_valid = (int32_t)(out - h);
	if (ret == INF_NEED_OUT && out == h + valid)
		return ISAL_INVALID_BLOCK; /* cannot happen: TMP_ROOM holds any symbol */
	return ret;
}

/* ---- The driver --------------------------------------------------------------------------- */

static int trailer(struct inflate_state *s, struct inf_br *br)
{
	uint32_t f = s->crc_flag;
	unsigned n = 0;
	if (f == ISAL_GZIP || f == ISAL_GZIP_NO_HDR_VER)
		n = 8;
	else if (f == ISAL_ZLIB || f == ISAL_ZLIB_NO_HDR_VER)
		n = 4;
	if (n) {
		align_byte(br);
		s->block_state = ISAL_CHECKSUM_CHECK;
		if (!gather(s, br, n))
			return ISAL_END_INPUT;
		const uint8_t *p = s->tmp_in_buffer;
		s->tmp_in_size = 0;
		s->block_state =
		    ISAL_BLOCK_FINISH; /* as ISA-L: finished, even when the check fails */
		if (n == 8) {
			if (le32(p) != s->crc || le32(p + 4) != s->total_out)
				return ISAL_INCORRECT_CHECKSUM;
		} else {
			uint32_t a = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
			             (uint32_t)p[2] << 8 | p[3];
			if (a != s->crc)
				return ISAL_INCORRECT_CHECKSUM;
		}
	}
	s->block_state = ISAL_BLOCK_FINISH;
	return ISAL_DECOMP_OK;
}

static int drive_once(struct inflate_state *s, struct run *r)
{
	struct inf_priv *t = inf_priv(s);
	t->zstop_done = 0;
	for (;;) {
		deliver(s);
		if (s->tmp_out_valid != s->tmp_out_processed)
			return ISAL_DECOMP_OK; /* output full */
		if (t->zstop_at) {
			/* A stop of the zlib layer, reported once the output before it is out. */
			const uint8_t at = t->zstop_at;
			t->zstop_at = 0;
			if (t->zstop != INF_ZSTOP_NONE) {
				t->zstop_done = at;
				return ISAL_DECOMP_OK;
			}
		}
		int ret;
		switch (s->block_state) {
		case ISAL_BLOCK_FINISH:
			return ISAL_DECOMP_OK;
		case ISAL_BLOCK_INPUT_DONE:
		case ISAL_CHECKSUM_CHECK:
			if (!inf_priv(s)->started) {
				inf_priv(s)->started = 1;
				s->crc = is_zlib_flag(s->crc_flag) ? 1 : 0;
			}
			return trailer(s, &r->br);
		case ISAL_GZIP_EXTRA_LEN:
		case ISAL_GZIP_EXTRA:
		case ISAL_GZIP_NAME:
		case ISAL_GZIP_COMMENT:
		case ISAL_GZIP_HCRC:
			ret = read_gzip_hdr(s, &r->br, NULL);
			if (ret != ISAL_DECOMP_OK)
				return ret;
			continue;
		case ISAL_ZLIB_DICT:
			break;
		default:
			if (s->wrapper_flag ||
			    (s->crc_flag != ISAL_GZIP && s->crc_flag != ISAL_ZLIB))
				break;
			if (s->crc_flag == ISAL_GZIP) {
				ret = read_gzip_hdr(s, &r->br, NULL);
				if (ret != ISAL_DECOMP_OK)
					return ret;
				continue;
			}
			break;
		}
		if (s->block_state == ISAL_ZLIB_DICT ||
		    (!s->wrapper_flag && s->crc_flag == ISAL_ZLIB &&
		     (s->block_state == ISAL_BLOCK_NEW_HDR))) {
			int fdict;
			ret = read_zlib_hdr(s, &r->br, NULL, &fdict);
			if (ret != ISAL_DECOMP_OK)
				return ret;
			if (fdict && s->dict_length == 0)
				return ISAL_NEED_DICT;
			continue;
		}
		ret = decode_step(s, r);
		if (ret < 0)
			return ret;
		if (ret == INF_NEED_IN)
			return r->stateless ? ISAL_END_INPUT : ISAL_DECOMP_OK;
		if (ret == INF_NEED_OUT && r->stateless)
			return ISAL_OUT_OVERFLOW;
	}
}

/* Input running out is not an error for streaming: the caller brings more. */
static int drive(struct inflate_state *s, struct run *r)
{
	int ret = drive_once(s, r);
	if (ret == ISAL_END_INPUT && !r->stateless)
		ret = ISAL_DECOMP_OK;
	return ret;
}

static void run_load(struct run *r, struct inflate_state *s, int stateless)
{
	r->null_in = igzip_unnull(&s->next_in, s->avail_in);
	r->null_out = igzip_unnull(&s->next_out, s->avail_out);
	r->br.p = s->next_in;
	r->br.end = s->next_in + s->avail_in;
	r->br.bits = s->read_in_length > 0 ? (unsigned)s->read_in_length : 0;
	if (r->br.bits > 63)
		r->br.bits = 63;
	r->br.buf = s->read_in & ((1ull << r->br.bits) - 1);
	r->in_start = s->next_in;
	r->stateless = stateless;
	r->ck = NULL;
}

static void run_store(struct run *r, struct inflate_state *s)
{
	if (s->block_state == ISAL_BLOCK_FINISH && r->br.bits >= 8) {
		/* Hand back whole bytes not used, so next_in ends right after the stream. Some may
		 * have come in an earlier call; like ISA-L, treat the input as contiguous then,
		 * unless this call had none (NULL): there is no buffer to step back into. */
		unsigned give = r->br.bits / 8;
		const size_t from_here = (size_t)(r->br.p - r->in_start);
		if (r->null_in && give > from_here)
			give = (unsigned)from_here;
		r->br.bits -= give * 8;
		if (give <= from_here) {
			r->br.p -= give;
		} else if (inf_priv(s)->zlayer) {
			/* The zlib layer's input is not contiguous from call to call: the bytes
			 * from earlier calls stay in read_in. */
			r->br.p -= from_here;
			r->br.bits += (unsigned)(give - from_here) * 8;
		} else {
			s->next_in = (uint8_t *)(uintptr_t)r->br.p - give;
			s->avail_in = (uint32_t)(r->br.end - r->br.p) + give;
			s->read_in = r->br.buf & ((1ull << r->br.bits) - 1);
			s->read_in_length = (int32_t)r->br.bits;
			return;
		}
	}
	s->next_in = (uint8_t *)(uintptr_t)r->br.p;
	s->avail_in = (uint32_t)(r->br.end - r->br.p);
	s->read_in = r->br.buf & ((1ull << r->br.bits) - 1);
	s->read_in_length = (int32_t)r->br.bits;
	igzip_renull(&s->next_in, r->null_in);
	igzip_renull(&s->next_out, r->null_out);
}

STOA_API int isal_inflate(struct inflate_state *s)
{
	struct run r;
	run_load(&r, s, 0);
	int ret = drive(s, &r);
	run_store(&r, s);
	return ret;
}

STOA_API int isal_inflate_stateless(struct inflate_state *s)
{
	uint32_t flag = s->crc_flag;
	reset_common(s);
	s->crc_flag = flag;
	s->hist_bits = 0;
	struct run r;
	run_load(&r, s, 1);
	int ret = drive(s, &r);
	if (ret == ISAL_DECOMP_OK && s->block_state != ISAL_BLOCK_FINISH)
		ret = ISAL_END_INPUT;
	run_store(&r, s);
	return ret;
}

STOA_API int isal_read_gzip_header(struct inflate_state *s, struct isal_gzip_header *g)
{
	struct run r;
	run_load(&r, s, 0);
	int ret = read_gzip_hdr(s, &r.br, g);
	run_store(&r, s);
	return ret;
}

STOA_API int isal_read_zlib_header(struct inflate_state *s, struct isal_zlib_header *z)
{
	struct run r;
	int fdict;
	run_load(&r, s, 0);
	int ret = read_zlib_hdr(s, &r.br, z, &fdict);
	run_store(&r, s);
	return ret;
}

/* ---- Hooks of the zlib layer (igzip_zlib.h) ----------------------------------------------- */

void inf_zlib_set_stop(struct inflate_state *s, int stop)
{
	inf_priv(s)->zstop = (uint8_t)stop;
	inf_priv(s)->zlayer = 1;
}

int inf_zlib_stopped(struct inflate_state *s)
{
	return inf_priv(s)->zstop_done;
}

uint32_t inf_zlib_stored_left(const struct inflate_state *s)
{
	return s->block_state == ISAL_BLOCK_TYPE0 ? (uint32_t)s->type0_block_len : 0;
}

const char *inf_zlib_error(struct inflate_state *s, int ret)
{
	switch (ret) {
	case ISAL_INVALID_BLOCK:
		switch (inf_priv(s)->why) {
		case INF_WHY_BTYPE:
			return "invalid block type";
		case INF_WHY_STORED_LEN:
			return "invalid stored block lengths";
		case INF_WHY_TOO_MANY:
			return "too many length or distance symbols";
		case INF_WHY_REPEAT:
			return "invalid bit length repeat";
		case INF_WHY_NO_EOB:
			return "invalid code -- missing end-of-block";
		case INF_WHY_LITLEN:
			return "invalid literal/lengths set";
		case INF_WHY_DIST:
			return "invalid distances set";
		default:
			return "invalid code lengths set";
		}
	case ISAL_INVALID_SYMBOL:
		return "invalid literal/length code";
	case ISAL_INVALID_LOOKBACK:
		return "invalid distance too far back";
	default:
		return ret < 0 ? "invalid data" : NULL;
	}
}
