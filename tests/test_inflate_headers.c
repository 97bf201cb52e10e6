/* The wrappers around inflate: every crc_flag with its trailer check, and the gzip and zlib
 * header readers (fitting, overflowing and resumed, one byte per call, damaged). */
#include "inflate_check.h"

/* One stream under one crc_flag, followed by `junk` extra bytes that must stay unread, stateless
 * and under a few chunkings. */
static void check_flag(const char *what, const uint8_t *s, size_t slen, size_t junk, int flag,
		       const uint8_t *data, size_t len)
{
	uint8_t *buf = malloc(slen + junk), *out = malloc(len + 1);
	assert_true(buf && out);
	memcpy(buf, s, slen);
	memset(buf + slen, 0x5a, junk);
	struct result r;
	inflate_oneshot(buf, slen + junk, out, len, flag, &r);
	check_result(what, "stateless", &r, out, data, len, flag, junk);
	static const size_t picks[] = { 0, 1, 3, 5 };
	for (size_t i = 0; i < 4; i++) {
		inflate_chunked(buf, slen + junk, out, len, flag, 0, NULL, 0, &chunkings[picks[i]],
				&r);
		check_result(what, chunkings[picks[i]].name, &r, out, data, len, flag, junk);
		assert_int_equal(r.block_state, ISAL_BLOCK_FINISH);
	}
	free(buf);
	free(out);
}

/* A bad trailer byte (or a missing trailer) must not pass under flag. */
static void check_bad_trailer(const char *what, const uint8_t *s, size_t slen, size_t trailer,
			      int flag, size_t len)
{
	uint8_t *buf = malloc(slen), *out = malloc(len + 1);
	assert_true(buf && out);
	struct result r;
	for (size_t i = 0; i < trailer; i++) {
		memcpy(buf, s, slen);
		buf[slen - trailer + i] ^= (uint8_t)(1u << (i % 8));
		inflate_oneshot(buf, slen, out, len, flag, &r);
		if (r.rc != ISAL_INCORRECT_CHECKSUM)
			TEST_FAIL("%s, trailer byte %zu flipped, stateless: rc %d\n", what, i, r.rc);
		inflate_chunked(buf, slen, out, len, flag, 0, NULL, 0, &chunkings[i % 2 ? 1 : 5],
				&r);
		if (r.rc != ISAL_INCORRECT_CHECKSUM)
			TEST_FAIL("%s, trailer byte %zu flipped, streaming: rc %d\n", what, i, r.rc);
	}
	/* Without the trailer's last byte: not finished. */
	inflate_oneshot(s, slen - 1, out, len, flag, &r);
	if (r.rc != ISAL_END_INPUT)
		TEST_FAIL("%s, last trailer byte missing, stateless: rc %d\n", what, r.rc);
	inflate_chunked(s, slen - 1, out, len, flag, 0, NULL, 0, &chunkings[1], &r);
	if (r.rc != ISAL_END_INPUT || r.block_state == ISAL_BLOCK_FINISH)
		TEST_FAIL("%s, last trailer byte missing, streaming: rc %d, block_state %d\n", what,
			  r.rc, r.block_state);
	free(buf);
	free(out);
}

static void test_crc_flags(void **state)
{
	(void)state;
	load_samples();
	const struct test_file *s = find_sample("/paper4");
	if (!s)
		s = &samples[0];
	size_t len = s->len > 20000 ? 20000 : s->len;
	const uint8_t *d = s->data;
	struct zbuf raw = z_compress(d, len, W_RAW, 6, 15, Z_DEFAULT_STRATEGY);
	struct zbuf gz = z_compress(d, len, W_GZIP, 6, 15, Z_DEFAULT_STRATEGY);
	struct zbuf zl = z_compress(d, len, W_ZLIB, 6, 15, Z_DEFAULT_STRATEGY);
	uint8_t *rawg = malloc(raw.len + 8), *rawz = malloc(raw.len + 4);
	assert_true(rawg && rawz);
	memcpy(rawg, raw.p, raw.len);
	put_le32(rawg + raw.len, (uint32_t)crc32(0, d, (uInt)len));
	put_le32(rawg + raw.len + 4, (uint32_t)len);
	memcpy(rawz, raw.p, raw.len);
	put_be32(rawz + raw.len, (uint32_t)adler32(1, d, (uInt)len));

	for (size_t junk = 0; junk <= 16; junk += 16) {
		check_flag("ISAL_DEFLATE", raw.p, raw.len, junk, ISAL_DEFLATE, d, len);
		check_flag("ISAL_GZIP", gz.p, gz.len, junk, ISAL_GZIP, d, len);
		check_flag("ISAL_ZLIB", zl.p, zl.len, junk, ISAL_ZLIB, d, len);
		check_flag("ISAL_GZIP_NO_HDR", raw.p, raw.len, junk, ISAL_GZIP_NO_HDR, d, len);
		check_flag("ISAL_ZLIB_NO_HDR", raw.p, raw.len, junk, ISAL_ZLIB_NO_HDR, d, len);
		check_flag("ISAL_GZIP_NO_HDR_VER", rawg, raw.len + 8, junk, ISAL_GZIP_NO_HDR_VER, d,
			   len);
		check_flag("ISAL_ZLIB_NO_HDR_VER", rawz, raw.len + 4, junk, ISAL_ZLIB_NO_HDR_VER, d,
			   len);
	}
	check_bad_trailer("ISAL_GZIP", gz.p, gz.len, 8, ISAL_GZIP, len);
	check_bad_trailer("ISAL_ZLIB", zl.p, zl.len, 4, ISAL_ZLIB, len);
	check_bad_trailer("ISAL_GZIP_NO_HDR_VER", rawg, raw.len + 8, 8, ISAL_GZIP_NO_HDR_VER, len);
	check_bad_trailer("ISAL_ZLIB_NO_HDR_VER", rawz, raw.len + 4, 4, ISAL_ZLIB_NO_HDR_VER, len);
	print_message("all 7 crc_flag values: crc equal to zlib's crc32 / adler32, the stream "
		      "ends exactly after its trailer (16 trailing bytes left unread); every "
		      "trailer byte flipped -> ISAL_INCORRECT_CHECKSUM; a missing trailer byte "
		      "never finishes\n");
	free(raw.p);
	free(gz.p);
	free(zl.p);
	free(rawg);
	free(rawz);
}

enum { FTEXT = 1, FHCRC = 2, FEXTRA = 4, FNAME = 8, FCOMMENT = 16 };

/* An RFC 1952 member header; returns its length. */
static size_t make_gzip_header(uint8_t *p, int flags, const uint8_t *extra, size_t xlen,
			       const char *name, const char *comment)
{
	size_t n = 0;
	p[n++] = 0x1f;
	p[n++] = 0x8b;
	p[n++] = 8;
	p[n++] = (uint8_t)flags;
	put_le32(p + n, 0x5f5e1234);
	n += 4;
	p[n++] = 2;
	p[n++] = 3;
	if (flags & FEXTRA) {
		p[n++] = (uint8_t)xlen;
		p[n++] = (uint8_t)(xlen >> 8);
		memcpy(p + n, extra, xlen);
		n += xlen;
	}
	if (flags & FNAME) {
		memcpy(p + n, name, strlen(name) + 1);
		n += strlen(name) + 1;
	}
	if (flags & FCOMMENT) {
		memcpy(p + n, comment, strlen(comment) + 1);
		n += strlen(comment) + 1;
	}
	if (flags & FHCRC) {
		uint32_t c = (uint32_t)crc32(0, p, (uInt)n);
		p[n++] = (uint8_t)c;
		p[n++] = (uint8_t)(c >> 8);
	}
	return n;
}

struct hdr_bufs {
	uint8_t extra[64];
	char name[64], comment[64];
};

static void hdr_init(struct isal_gzip_header *h, struct hdr_bufs *b, uint32_t xcap,
		     uint32_t ncap, uint32_t ccap)
{
	isal_gzip_header_init(h);
	memset(b, 0, sizeof(*b));
	h->extra = b->extra;
	h->extra_buf_len = xcap;
	h->name = b->name;
	h->name_buf_len = ncap;
	h->comment = b->comment;
	h->comment_buf_len = ccap;
}

static const uint8_t xfield[12] = { 'S', 'T', 8, 0, 1, 2, 3, 4, 5, 6, 7, 8 };
static const char *const gz_name = "file-name.txt";
static const char *const gz_comment = "a comment, with spaces";

static void check_hdr_fields(const struct isal_gzip_header *h, int flags, const uint8_t *hdr,
			     size_t hlen)
{
	assert_int_equal(h->text, (flags & FTEXT) ? 1 : 0);
	assert_int_equal(h->time, 0x5f5e1234);
	assert_int_equal(h->xflags, 2);
	assert_int_equal(h->os, 3);
	assert_int_equal(h->flags, (uint32_t)flags);
	if (flags & FEXTRA) {
		assert_int_equal(h->extra_len, sizeof(xfield));
		assert_memory_equal(h->extra, xfield, sizeof(xfield));
	}
	if (flags & FNAME)
		assert_string_equal(h->name, gz_name);
	if (flags & FCOMMENT)
		assert_string_equal(h->comment, gz_comment);
	if (flags & FHCRC)
		assert_int_equal(h->hcrc & 0xffff, hdr[hlen - 2] | (hdr[hlen - 1] << 8));
}

/* Header, then isal_inflate for the body, on one state. */
static void check_gzip_member(const uint8_t *m, size_t mlen, size_t hlen, int flags,
			      const uint8_t *data, size_t len, int one_byte)
{
	struct inflate_state *st = new_state();
	struct isal_gzip_header h;
	struct hdr_bufs b;
	hdr_init(&h, &b, 64, 64, 64);
	isal_inflate_init(st);
	st->crc_flag = ISAL_GZIP;
	st->next_in = (uint8_t *)(uintptr_t)m;
	int rc;
	size_t calls = 0;
	if (one_byte) {
		do {
			st->avail_in = 1;
			rc = isal_read_gzip_header(st, &h);
			calls++;
			assert_true(calls <= hlen);
		} while (rc == ISAL_END_INPUT);
		assert_int_equal(calls, hlen);
	} else {
		st->avail_in = (uint32_t)mlen;
		rc = isal_read_gzip_header(st, &h);
	}
	if (rc != ISAL_DECOMP_OK)
		TEST_FAIL("gzip header flags 0x%02x%s: rc %d\n", flags, one_byte ? " byte by byte" : "",
			  rc);
	assert_ptr_equal(st->next_in, m + hlen);
	check_hdr_fields(&h, flags, m, hlen);
	struct result r;
	uint8_t *out = malloc(len + 1);
	assert_non_null(out);
	run_stream(st, m, mlen, out, len, one_byte ? &chunkings[3] : &chunkings[5], &r);
	check_result("body after isal_read_gzip_header", "streaming", &r, out, data, len, ISAL_GZIP,
		     0);
	free(out);
	free(st);
}

static void test_gzip_header(void **state)
{
	(void)state;
	static const uint8_t data[] = "The body of a gzip member with a full header.";
	size_t len = sizeof(data) - 1;
	struct zbuf body = z_compress(data, len, W_RAW, 6, 15, Z_DEFAULT_STRATEGY);
	uint8_t m[512];
	size_t combos = 0;
	for (int flags = 0; flags < 32; flags++) {
		size_t hlen = make_gzip_header(m, flags, xfield, sizeof(xfield), gz_name, gz_comment);
		memcpy(m + hlen, body.p, body.len);
		put_le32(m + hlen + body.len, (uint32_t)crc32(0, data, (uInt)len));
		put_le32(m + hlen + body.len + 4, (uint32_t)len);
		size_t mlen = hlen + body.len + 8;
		check_gzip_member(m, mlen, hlen, flags, data, len, 0);
		check_gzip_member(m, mlen, hlen, flags, data, len, 1);
		/* isal_inflate reads the same header itself; so does the stateless call. */
		char what[64];
		snprintf(what, sizeof(what), "member with header flags 0x%02x", flags);
		check_stream(what, m, mlen, ISAL_GZIP, data, len, &chunkings[3]);
		combos++;
	}

	/* Fields that overflow their buffers; a larger buffer then resumes the header. */
	int all = FTEXT | FEXTRA | FNAME | FCOMMENT | FHCRC;
	size_t hlen = make_gzip_header(m, all, xfield, sizeof(xfield), gz_name, gz_comment);
	static const struct {
		int code;
		uint32_t x, n, c;
	} small[] = {
		{ ISAL_EXTRA_OVERFLOW, 5, 64, 64 },
		{ ISAL_NAME_OVERFLOW, 64, 13, 64 }, /* strlen(gz_name): no room for the NUL */
		{ ISAL_NAME_OVERFLOW, 64, 3, 64 },
		{ ISAL_COMMENT_OVERFLOW, 64, 64, 10 },
	};
	for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
		struct inflate_state *st = new_state();
		struct isal_gzip_header h;
		struct hdr_bufs b;
		hdr_init(&h, &b, small[i].x, small[i].n, small[i].c);
		isal_inflate_init(st);
		st->next_in = m;
		st->avail_in = (uint32_t)hlen;
		int rc = isal_read_gzip_header(st, &h);
		if (rc != small[i].code)
			TEST_FAIL("buffers %u/%u/%u: rc %d, want %d\n", small[i].x, small[i].n,
				  small[i].c, rc, small[i].code);
		h.extra_buf_len = h.name_buf_len = h.comment_buf_len = 64;
		rc = isal_read_gzip_header(st, &h);
		if (rc != ISAL_DECOMP_OK)
			TEST_FAIL("buffers %u/%u/%u, resumed with 64 bytes each: rc %d\n",
				  small[i].x, small[i].n, small[i].c, rc);
		check_hdr_fields(&h, all, m, hlen);
		assert_ptr_equal(st->next_in, m + hlen);
		free(st);
	}
	/* NULL buffers skip the fields. */
	{
		struct inflate_state *st = new_state();
		struct isal_gzip_header h;
		isal_gzip_header_init(&h);
		isal_inflate_init(st);
		st->next_in = m;
		st->avail_in = (uint32_t)hlen;
		assert_int_equal(isal_read_gzip_header(st, &h), ISAL_DECOMP_OK);
		assert_ptr_equal(st->next_in, m + hlen);
		assert_int_equal(h.extra_len, sizeof(xfield));
		free(st);
	}
	/* A wrong header CRC, a bad magic, another method. */
	static const struct {
		size_t at;
		uint8_t xor;
		int code;
	} bad[] = {
		{ SIZE_MAX, 0x01, ISAL_INCORRECT_CHECKSUM }, /* the FHCRC field itself */
		{ 0, 0x01, ISAL_INVALID_WRAPPER },
		{ 1, 0x80, ISAL_INVALID_WRAPPER },
		{ 2, 0x0f, ISAL_UNSUPPORTED_METHOD },
		{ 20, 0x04, ISAL_INCORRECT_CHECKSUM }, /* inside the extra field */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t c[512];
		memcpy(c, m, hlen);
		c[bad[i].at == SIZE_MAX ? hlen - 1 : bad[i].at] ^= bad[i].xor;
		memcpy(c + hlen, body.p, body.len);
		put_le32(c + hlen + body.len, (uint32_t)crc32(0, data, (uInt)len));
		put_le32(c + hlen + body.len + 4, (uint32_t)len);
		size_t clen = hlen + body.len + 8;
		struct inflate_state *st = new_state();
		struct isal_gzip_header h;
		struct hdr_bufs b;
		hdr_init(&h, &b, 64, 64, 64);
		isal_inflate_init(st);
		st->next_in = c;
		st->avail_in = (uint32_t)clen;
		int rc = isal_read_gzip_header(st, &h);
		if (rc != bad[i].code)
			TEST_FAIL("header byte %zu ^ 0x%02x: rc %d, want %d\n", bad[i].at, bad[i].xor,
				  rc, bad[i].code);
		free(st);
		uint8_t out[128];
		struct result r;
		inflate_oneshot(c, clen, out, sizeof(out), ISAL_GZIP, &r);
		assert_int_equal(r.rc, bad[i].code);
		inflate_chunked(c, clen, out, sizeof(out), ISAL_GZIP, 0, NULL, 0, &chunkings[1], &r);
		assert_int_equal(r.rc, bad[i].code);
	}
	print_message("gzip headers with all %zu flag combinations, whole and 1 byte per call, "
		      "then the body; extra/name/comment overflow codes and resumption; NULL "
		      "buffers; FHCRC, magic and method errors\n",
		      combos);
	free(body.p);
}

static void test_zlib_header(void **state)
{
	(void)state;
	static const uint8_t data[] = "zlib header test data zlib header test data";
	static const uint8_t dict[] = "header test dictionary";
	size_t len = sizeof(data) - 1, n = 0;
	/* zlib's FLEVEL for each level (deflate.c writes it from level and strategy). */
	static const int flevel[10] = { 0, 0, 1, 1, 1, 1, 2, 3, 3, 3 };
	for (int level = 0; level <= 9; level++)
		for (int w = 9; w <= 15; w++)
			for (int use_dict = 0; use_dict < 2; use_dict++) {
				struct zbuf z = z_compress_dict(data, len, W_ZLIB, level, w,
								Z_DEFAULT_STRATEGY,
								use_dict ? dict : NULL, sizeof(dict));
				for (int one = 0; one < 2; one++) {
					struct inflate_state *st = new_state();
					struct isal_zlib_header h;
					memset(&h, 0xff, sizeof(h));
					isal_inflate_init(st);
					st->next_in = z.p;
					int rc;
					size_t calls = 0, hlen = use_dict ? 6 : 2;
					do {
						st->avail_in = one ? 1 : (uint32_t)z.len;
						rc = isal_read_zlib_header(st, &h);
						calls++;
					} while (rc == ISAL_END_INPUT && calls < 10);
					assert_int_equal(rc, ISAL_DECOMP_OK);
					assert_ptr_equal(st->next_in, z.p + hlen);
					assert_int_equal(h.info, (uint32_t)(w - 8));
					assert_int_equal(h.level, (uint32_t)flevel[level]);
					assert_int_equal(h.dict_flag, (uint32_t)use_dict);
					if (use_dict)
						assert_int_equal(h.dict_id,
								 (uint32_t)adler32(1, dict, sizeof(dict)));
					if (one)
						assert_int_equal(calls, hlen);
					free(st);
				}
				free(z.p);
				n++;
			}
	/* A bad header check and a method other than 8. */
	static const uint8_t bad_check[] = { 0x78, 0x9d, 0x03, 0x00, 0, 0, 0, 1 };
	uint8_t method15[2] = { 0x7f, 0 };
	while ((method15[0] * 256 + method15[1]) % 31)
		method15[1]++;
	struct isal_zlib_header h;
	struct inflate_state *st = new_state();
	isal_inflate_init(st);
	st->next_in = (uint8_t *)(uintptr_t)bad_check;
	st->avail_in = sizeof(bad_check);
	assert_int_equal(isal_read_zlib_header(st, &h), ISAL_INCORRECT_CHECKSUM);
	isal_inflate_init(st);
	st->next_in = method15;
	st->avail_in = sizeof(method15);
	assert_int_equal(isal_read_zlib_header(st, &h), ISAL_UNSUPPORTED_METHOD);
	free(st);
	struct result r;
	uint8_t out[16];
	inflate_oneshot(bad_check, sizeof(bad_check), out, sizeof(out), ISAL_ZLIB, &r);
	assert_int_equal(r.rc, ISAL_INCORRECT_CHECKSUM);
	inflate_chunked(bad_check, sizeof(bad_check), out, sizeof(out), ISAL_ZLIB, 0, NULL, 0,
			&chunkings[1], &r);
	assert_int_equal(r.rc, ISAL_INCORRECT_CHECKSUM);
	print_message("isal_read_zlib_header on %zu zlib streams (levels 0-9, windows 2^9..2^15, "
		      "with and without FDICT), whole and byte by byte: info, level, dict_flag, "
		      "dict_id; bad FCHECK -> ISAL_INCORRECT_CHECKSUM, CM 15 -> "
		      "ISAL_UNSUPPORTED_METHOD\n",
		      n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_flags),
		cmocka_unit_test(test_gzip_header),
		cmocka_unit_test(test_zlib_header),
	};
	return TEST_MAIN("inflate_headers", tests, inflate_suite_setup, NULL);
}
