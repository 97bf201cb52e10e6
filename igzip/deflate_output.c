/* What every isal_deflate path writes besides tokens: the checksums, the fixed and default
 * codes, the output buffer, block headers, flush markers, wrapper headers and trailers.
 *
 * Output. Every step writes through the stream's bit writer. When the caller's buffer has room
 * for a step the writer points into it; otherwise it points at tmp_out_buff (16 bytes), whose
 * bytes are handed out as room appears, so any output size down to 1 byte per call works. A step
 * checks the room it needs before writing and stops when it lacks it. */
#include <stdatomic.h>

#include "isa-l/crc.h"
#include "deflate_engine.h"

#define OUT_DIRECT_MIN 64u /* below this much room, steps write into tmp_out_buff */

/* internal_state.crc as ISA-L keeps it: the CRC-32 for gzip; for zlib the Adler-32 minus one
 * (so that a new stream's 0 stands for Adler-32's initial 1). */
void defl_update_checksum(struct isal_zstream *s, const uint8_t *p, uint64_t len)
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

const struct isal_hufftables *defl_static_tables(void)
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

const struct isal_hufftables *defl_lvl0_tables(const struct isal_zstream *s)
{
	if (s->hufftables)
		return s->hufftables;
	const struct isal_hufftables *t = defl_default_codes();
	return t ? t : defl_static_tables();
}

/* ---- output --------------------------------------------------------------------------------- */

void defl_drain_tmp(struct isal_zstream *s)
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

int defl_tmp_pending(const struct isal_zstream *s)
{
	return s->internal_state.tmp_out_start != s->internal_state.tmp_out_end;
}

void defl_out_open(struct isal_zstream *s)
{
	struct isal_zstate *st = &s->internal_state;
	if (s->avail_out >= OUT_DIRECT_MIN)
		bw_set_buf(&st->bitbuf, s->next_out, s->avail_out);
	else
		bw_set_buf(&st->bitbuf, st->tmp_out_buff, sizeof(st->tmp_out_buff));
}

void defl_out_close(struct isal_zstream *s)
{
	struct isal_zstate *st = &s->internal_state;
	struct BitBuf2 *b = &st->bitbuf;
	const uint32_t n = (uint32_t)(b->m_out_buf - b->m_out_start);
	if (b->m_out_start == st->tmp_out_buff) {
		st->tmp_out_start = 0;
		st->tmp_out_end = n;
		defl_drain_tmp(s);
	} else {
		s->next_out += n;
		s->avail_out -= n;
		s->total_out += n;
	}
	bw_set_buf(b, NULL, 0);
}

/* Write t's block header from bit *done on, BFINAL = final. Returns 1 once complete. The header
 * goes out 56 bits at a time, each piece one 8-byte load from the table shifted into place (the
 * loads may read past the header into the rest of the table, never past the table). */
int defl_put_header(struct BitBuf2 *b, const struct isal_hufftables *t, int final,
		      uint32_t *done)
{
	uint64_t total = (uint64_t)t->deflate_hdr_count * 8 + t->deflate_hdr_extra_bits;
	if (total > ISAL_DEF_MAX_HDR_SIZE * 8)
		total = ISAL_DEF_MAX_HDR_SIZE * 8;
	const uint8_t *const hdr = t->deflate_hdr;
	_Static_assert(offsetof(struct isal_hufftables, deflate_hdr) + ISAL_DEF_MAX_HDR_SIZE + 8 <=
			   sizeof(struct isal_hufftables),
		       "8-byte loads of the header stay inside the table");
	if (*done == 0 && b->m_bit_count == 0 && total >= 8 && bw_room(b) >= total / 8 + 8) {
		/* From a byte boundary: the whole bytes copied (a 200-byte input's call at level 0
		 * spent a tenth of its time on the steps below), the rest as below. */
		const uint32_t whole = (uint32_t)(total / 8);
		memcpy(b->m_out_buf, hdr, whole);
		b->m_out_buf[0] = (uint8_t)((hdr[0] & ~1u) | (final ? 1u : 0u));
		b->m_out_buf += whole;
		*done = whole * 8;
	}
	while (*done < total) {
		if (bw_room(b) < 8)
			return 0;
		const uint32_t n = total - *done < 56 ? (uint32_t)(total - *done) : 56;
		uint64_t v = stoa_load_le64(hdr + (*done >> 3)) >> (*done & 7);
		v &= (1ull << n) - 1;
		if (*done == 0)
			v = (v & ~1ull) | (final ? 1 : 0);
		bw_put(b, v, n);
		*done += n;
	}
	return 1;
}

/* An empty stored block (BFINAL = 0): the byte-aligning marker of a sync or full flush. Needs
 * 16 bytes of room. */
int defl_put_sync_marker(struct BitBuf2 *b)
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
int defl_put_empty_final(struct BitBuf2 *b)
{
	if (bw_room(b) < 8)
		return 0;
	bw_put(b, 3, 10);
	return 1;
}

/* The trailer: gzip CRC-32 and ISIZE (little-endian), zlib Adler-32 (big-endian). Returns its
 * length. */
uint32_t defl_trailer_bytes(const struct isal_zstream *s, uint32_t total_in, uint8_t out[8])
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
int defl_put_wrap_hdr(struct isal_zstream *s, struct BitBuf2 *b)
{
	uint8_t h[10];
	const uint32_t n = defl_wrap_header(s, h);
	if (!put_bytes(b, h, n, &s->internal_state.count))
		return 0;
	s->internal_state.count = 0;
	return 1;
}

/* Align to a byte and write the trailer, resumable through internal_state.count. */
int defl_put_trailer(struct isal_zstream *s, struct BitBuf2 *b)
{
	if (bw_room(b) < 8)
		return 0;
	bw_flush_to_byte(b);
	uint8_t t[8];
	const uint32_t n = defl_trailer_bytes(s, s->total_in, t);
	if (!put_bytes(b, t, n, &s->internal_state.count))
		return 0;
	s->internal_state.count = 0;
	return 1;
}
