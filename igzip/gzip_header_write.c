/* Wrapper headers: isal_write_gzip_header and isal_write_zlib_header (RFC 1952 section 2.3 and
 * RFC 1950 section 2.2, written to a stream's output all or nothing), and the default header
 * isal_deflate writes for a gzip or zlib stream. */
#include "deflate_internal.h"
#include "isa-l/crc.h"

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* A string field occupies its characters up to the terminator, which is included when it lies
 * inside the caller's stated buffer size (ISA-L's reading of name_buf_len / comment_buf_len). */
static uint32_t str_field_len(const char *s, uint32_t buf_len)
{
	if (!s)
		return 0;
	uint32_t n = 0;
	while (n < buf_len && s[n])
		n++;
	return n < buf_len ? n + 1 : n;
}

STOA_API uint32_t isal_write_gzip_header(struct isal_zstream *stream,
                                         struct isal_gzip_header *gz_hdr)
{
	const uint32_t extra = gz_hdr->extra ? gz_hdr->extra_len : 0;
	/* XLEN is 16 bits: a longer extra field cannot be written (no room would be enough). */
	if (extra > 0xffff)
		return UINT32_MAX;
	const uint32_t name = str_field_len(gz_hdr->name, gz_hdr->name_buf_len);
	const uint32_t comment = str_field_len(gz_hdr->comment, gz_hdr->comment_buf_len);
	uint64_t need = 10 + (gz_hdr->extra ? 2 + (uint64_t)extra : 0) + name + comment +
	                (gz_hdr->hcrc ? 2 : 0);
	if (need > stream->avail_out)
		return need > UINT32_MAX ? UINT32_MAX : (uint32_t)need;

	uint8_t *out = stream->next_out;
	uint8_t flags = (uint8_t)((gz_hdr->text ? 0x01 : 0) | (gz_hdr->hcrc ? 0x02 : 0) |
	                          (gz_hdr->extra ? 0x04 : 0) | (gz_hdr->name ? 0x08 : 0) |
	                          (gz_hdr->comment ? 0x10 : 0));
	out[0] = 0x1f;
	out[1] = 0x8b;
	out[2] = 8; /* CM = deflate */
	out[3] = flags;
	put_le32(out + 4, gz_hdr->time);
	out[8] = (uint8_t)gz_hdr->xflags;
	out[9] = (uint8_t)gz_hdr->os;
	uint8_t *p = out + 10;
	if (gz_hdr->extra) {
		p[0] = (uint8_t)extra;
		p[1] = (uint8_t)(extra >> 8);
		memcpy(p + 2, gz_hdr->extra, extra);
		p += 2 + extra;
	}
	if (name) {
		memcpy(p, gz_hdr->name, name);
		p += name;
	}
	if (comment) {
		memcpy(p, gz_hdr->comment, comment);
		p += comment;
	}
	if (gz_hdr->hcrc) {
		/* FHCRC: the low 16 bits of the CRC-32 of the header bytes before it. */
		const uint32_t crc = crc32_gzip_refl(0, out, (uint64_t)(p - out));
		p[0] = (uint8_t)crc;
		p[1] = (uint8_t)(crc >> 8);
		p += 2;
	}
	const uint32_t n = (uint32_t)(p - out);
	stream->next_out += n;
	stream->avail_out -= n;
	stream->total_out += n;
	return 0;
}

/* FLG for CMF: FLEVEL and FDICT, then FCHECK so that CMF * 256 + FLG is a multiple of 31. As in
 * zlib's deflate and ISA-L, FCHECK is 31 rather than 0 when the other bits already make one
 * (both values are valid; this one gives their bytes). */
static uint8_t zlib_flg(uint32_t cmf, uint32_t flevel, int fdict)
{
	const uint32_t flg = (flevel & 3) << 6 | (fdict ? 0x20 : 0);
	return (uint8_t)(flg + 31 - (cmf * 256 + flg) % 31);
}

STOA_API void isal_zlib_header_init(struct isal_zlib_header *z_hdr)
{
	z_hdr->info = 0;
	z_hdr->level = 0;
	z_hdr->dict_id = 0;
	z_hdr->dict_flag = 0;
}

STOA_API uint32_t isal_write_zlib_header(struct isal_zstream *stream,
                                         struct isal_zlib_header *z_hdr)
{
	const uint32_t need = z_hdr->dict_flag ? 6 : 2;
	if (stream->avail_out < need)
		return need;
	uint8_t *out = stream->next_out;
	/* CMF: CINFO (window log2 - 8) and CM = 8. Fields wider than theirs are cut to their bits
	 * (ISA-L lets them spill into the neighbouring field and writes an invalid header). */
	const uint32_t cmf = (z_hdr->info & 0xf) << 4 | 8;
	out[0] = (uint8_t)cmf;
	out[1] = zlib_flg(cmf, z_hdr->level, z_hdr->dict_flag != 0);
	if (z_hdr->dict_flag) {
		/* DICTID: the dictionary's Adler-32, most significant byte first. */
		out[2] = (uint8_t)(z_hdr->dict_id >> 24);
		out[3] = (uint8_t)(z_hdr->dict_id >> 16);
		out[4] = (uint8_t)(z_hdr->dict_id >> 8);
		out[5] = (uint8_t)z_hdr->dict_id;
	}
	stream->next_out += need;
	stream->avail_out -= need;
	stream->total_out += need;
	return 0;
}

/*
 * The header isal_deflate and isal_deflate_stateless write for a gzip or zlib stream: the bytes
 * ISA-L 2.31 and later write, derived from the stream's parameters.
 * - zlib: CINFO says the window the stream was compressed with (hist_bits, 0 meaning 15; below
 *   9 it is 0, zlib's smallest, 256 bytes), so that a reader with a smaller window can refuse it
 *   and one with this window or more accepts it. No FDICT: the dictionary is the caller's to
 *   announce (isal_write_zlib_header).
 * - FLEVEL (RFC 1950: 0 fastest, 1 fast, 2 default, 3 maximum): level 0 is 0; ISA-L's levels 1-3
 *   write 1; beyond them zlib's own mapping (6 is its default, 7-9 its slowest) carries on, so a
 *   higher level keeps its meaning.
 * - gzip: XFL (RFC 1952) is 4 (fastest) at level 0, as ISA-L writes it, and 2 (maximum
 *   compression) at level 9, as zlib writes it; OS 255 (unknown), no optional fields.
 * Returns the header's length: 10, 2, or 0 for the raw and headerless formats.
 */
uint32_t defl_wrap_header(const struct isal_zstream *s, uint8_t out[10])
{
	const uint32_t level = s->level;
	if (s->gzip_flag == IGZIP_GZIP) {
		static const uint8_t gzip_hdr[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff };
		memcpy(out, gzip_hdr, sizeof(gzip_hdr));
		out[8] = level == 0 ? 4 : level >= 9 ? 2 : 0;
		return sizeof(gzip_hdr);
	}
	if (s->gzip_flag == IGZIP_ZLIB) {
		const uint32_t hb = s->hist_bits == 0 || s->hist_bits > ISAL_DEF_MAX_HIST_BITS
		                        ? ISAL_DEF_MAX_HIST_BITS
		                        : s->hist_bits;
		const uint32_t cmf = (hb > 8 ? hb - 8 : 0) << 4 | 8;
		const uint32_t flevel = level == 0 ? 0 : level <= 5 ? 1 : level == 6 ? 2 : 3;
		out[0] = (uint8_t)cmf;
		out[1] = zlib_flg(cmf, flevel, 0);
		return 2;
	}
	return 0;
}
