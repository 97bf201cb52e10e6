/* isal_write_gzip_header and isal_write_zlib_header: RFC 1952 section 2.3 and RFC 1950
 * section 2.2 headers written to a stream's output, all or nothing. */
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

STOA_API uint32_t isal_write_zlib_header(struct isal_zstream *stream,
                                         struct isal_zlib_header *z_hdr)
{
	const uint32_t need = z_hdr->dict_flag ? 6 : 2;
	if (stream->avail_out < need)
		return need;
	uint8_t *out = stream->next_out;
	/* CMF: CINFO (window log2 - 8) and CM = 8; FLG: FLEVEL, FDICT, then FCHECK makes
	 * CMF * 256 + FLG a multiple of 31. */
	const uint32_t cmf = (z_hdr->info & 0xf) << 4 | 8;
	uint32_t flg = (z_hdr->level & 3) << 6 | (z_hdr->dict_flag ? 0x20 : 0);
	flg += (31 - (cmf * 256 + flg) % 31) % 31;
	out[0] = (uint8_t)cmf;
	out[1] = (uint8_t)flg;
	if (z_hdr->dict_flag) {
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
