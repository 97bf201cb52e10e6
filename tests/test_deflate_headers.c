/* The gzip and zlib header writers (isal_write_gzip_header, isal_write_zlib_header), read
 * back by zlib and by isal_read_gzip_header / isal_read_zlib_header. */
#include "deflate_check.h"

static void test_gzip_header(void **state)
{
	(void)state;
	int bad = 0;
	const struct test_file *ds = matrix_file(0);
	uint8_t extra[300];
	for (size_t i = 0; i < sizeof(extra); i++)
		extra[i] = (uint8_t)(i * 7 + 1);
	char name[] = "paper1.txt";
	char comment[] = "a comment, written by test_deflate";
	size_t cap = ds->len + 4096;
	uint8_t *buf = xmalloc(cap);

	for (int variant = 0; variant < 4; variant++) {
		struct isal_gzip_header h;
		isal_gzip_header_init(&h);
		h.time = 1700000000u + (uint32_t)variant;
		h.os = 3;
		h.text = variant & 1;
		h.xflags = 0;
		if (variant >= 1) {
			h.name = name;
			h.name_buf_len = sizeof(name);
			h.comment = comment;
			h.comment_buf_len = sizeof(comment);
		}
		if (variant >= 2) {
			h.extra = extra;
			h.extra_len = sizeof(extra);
		}
		h.hcrc = variant == 3;
		struct isal_zstream *s = xmalloc(sizeof(*s));
		isal_deflate_init(s);
		s->gzip_flag = IGZIP_GZIP_NO_HDR;

		/* Too little room: the size it needs, nothing written, the stream untouched. */
		memset(buf, 0xa5, cap);
		s->next_out = buf;
		s->avail_out = 4;
		s->total_out = 0;
		uint32_t need = isal_write_gzip_header(s, &h);
		size_t expect_need = 10 + (variant >= 1 ? sizeof(name) + sizeof(comment) : 0) +
				     (variant >= 2 ? 2 + sizeof(extra) : 0) + (variant == 3 ? 2 : 0);
		if (need != expect_need)
			TEST_FAIL("header variant %d: isal_write_gzip_header with 4 bytes returned "
				  "%u, expected %zu\n",
				  variant, need, expect_need);
		assert_ptr_equal(s->next_out, buf);
		assert_int_equal(s->avail_out, 4);
		assert_int_equal(s->total_out, 0);
		for (size_t i = 0; i < 16; i++)
			assert_int_equal(buf[i], 0xa5);
		s->avail_out = need - 1;
		assert_int_equal(isal_write_gzip_header(s, &h), need);
		assert_int_equal(s->avail_out, need - 1);

		s->avail_out = (uint32_t)cap;
		assert_int_equal(isal_write_gzip_header(s, &h), 0);
		assert_int_equal(s->total_out, need);
		assert_ptr_equal(s->next_out, buf + need);
		assert_int_equal(s->avail_out, cap - need);

		s->next_in = ds->data;
		s->avail_in = (uint32_t)ds->len;
		s->end_of_stream = 1;
		assert_int_equal(isal_deflate(s), COMP_OK);
		assert_int_equal(s->internal_state.state, ZSTATE_END);
		size_t n = cap - s->avail_out;

		/* zlib reads the header back. */
		gz_header zh;
		memset(&zh, 0, sizeof(zh));
		uint8_t zextra[400];
		char zname[64], zcomment[64];
		zh.extra = zextra;
		zh.extra_max = sizeof(zextra);
		zh.name = (Bytef *)zname;
		zh.name_max = sizeof(zname);
		zh.comment = (Bytef *)zcomment;
		zh.comm_max = sizeof(zcomment);
		uint8_t *out = xmalloc(ds->len + 1);
		size_t out_len, used;
		int zr = zlib_decode(buf, n, 16 + 15, NULL, 0, out, ds->len + 1, &out_len, &used,
				     &zh);
		if (zr != Z_STREAM_END || out_len != ds->len ||
		    memcmp(out, ds->data, ds->len) != 0)
			TEST_FAIL("header variant %d: zlib returned %d, %zu bytes\n", variant, zr,
				  out_len);
		assert_int_equal(zh.done, 1);
		assert_int_equal(zh.time, h.time);
		assert_int_equal(zh.os, 3);
		assert_int_equal(zh.text, variant & 1);
		assert_int_equal(zh.hcrc, variant == 3);
		if (variant >= 1) {
			assert_string_equal(zname, name);
			assert_string_equal(zcomment, comment);
		} else {
			assert_null(zh.name == Z_NULL ? NULL : (zh.name[0] ? zh.name : NULL));
		}
		if (variant >= 2) {
			assert_int_equal(zh.extra_len, sizeof(extra));
			assert_memory_equal(zextra, extra, sizeof(extra));
		}

		/* And isal_read_gzip_header. */
		struct inflate_state *is = xmalloc(sizeof(*is));
		isal_inflate_init(is);
		struct isal_gzip_header rh;
		isal_gzip_header_init(&rh);
		uint8_t rextra[400];
		char rname[64], rcomment[64];
		rh.extra = rextra;
		rh.extra_buf_len = sizeof(rextra);
		rh.name = rname;
		rh.name_buf_len = sizeof(rname);
		rh.comment = rcomment;
		rh.comment_buf_len = sizeof(rcomment);
		is->next_in = buf;
		is->avail_in = (uint32_t)n;
		int rr = isal_read_gzip_header(is, &rh);
		assert_int_equal(rr, ISAL_DECOMP_OK);
		assert_int_equal(rh.time, h.time);
		assert_int_equal(rh.os, 3);
		assert_int_equal(rh.text, (uint32_t)(variant & 1));
		assert_int_equal(is->next_in - buf, need);
		if (variant >= 1) {
			assert_string_equal(rname, name);
			assert_string_equal(rcomment, comment);
		}
		if (variant >= 2) {
			assert_int_equal(rh.extra_len, sizeof(extra));
			assert_memory_equal(rextra, extra, sizeof(extra));
		}
		free(is);
		free(out);
		free(s);
	}

	/* An extra field longer than a gzip header can hold (XLEN is 16 bits). */
	{
		struct isal_gzip_header h;
		isal_gzip_header_init(&h);
		uint8_t *big = xmalloc(70000);
		memset(big, 'x', 70000);
		h.extra = big;
		h.extra_len = 70000;
		struct isal_zstream *s = xmalloc(sizeof(*s));
		isal_deflate_init(s);
		size_t bcap = 200000;
		uint8_t *bb = xmalloc(bcap);
		memset(bb, 0xa5, bcap);
		s->next_out = bb;
		s->avail_out = (uint32_t)bcap;
		uint32_t r = isal_write_gzip_header(s, &h);
		print_message("extra_len 70000: isal_write_gzip_header returned %u, wrote %u "
			      "bytes\n",
			      r, s->total_out);
		/* ISA-L 2.30 writes XLEN modulo 65536 and all 70000 bytes: a corrupt header. */
		if (r == 0) {
			uint16_t xlen = (uint16_t)(bb[10] | bb[11] << 8);
			VFAIL("an extra field of 70000 bytes was accepted (XLEN written as %u, "
			      "%u bytes): it cannot be represented\n",
			      xlen, s->total_out);
		} else if (s->next_out != bb || s->total_out != 0) {
			VFAIL("extra_len 70000 rejected, but %u bytes were written\n", s->total_out);
		}
		free(bb);
		free(big);
		free(s);
	}

	/* zlib headers: plain and with a dictionary id. */
	for (int with_dict = 0; with_dict < 2; with_dict++)
		for (uint32_t info = 0; info <= 7; info++) {
			struct isal_zlib_header zh;
			memset(&zh, 0, sizeof(zh));
			zh.info = info;
			zh.level = info & 3;
			zh.dict_flag = (uint32_t)with_dict;
			zh.dict_id = 0x12345678u;
			struct isal_zstream *s = xmalloc(sizeof(*s));
			isal_deflate_init(s);
			uint8_t zb[16];
			memset(zb, 0xa5, sizeof(zb));
			s->next_out = zb;
			s->avail_out = 1;
			uint32_t need = isal_write_zlib_header(s, &zh);
			assert_int_equal(need, with_dict ? 6 : 2);
			assert_int_equal(zb[0], 0xa5);
			assert_int_equal(s->avail_out, 1);
			s->avail_out = sizeof(zb);
			assert_int_equal(isal_write_zlib_header(s, &zh), 0);
			assert_int_equal(s->total_out, need);
			assert_int_equal(zb[0], info << 4 | 8);
			assert_int_equal(((unsigned)zb[0] << 8 | zb[1]) % 31, 0);
			assert_int_equal((zb[1] >> 5) & 1, with_dict);
			assert_int_equal(zb[1] >> 6, info & 3);
			if (with_dict) {
				/* RFC 1950: DICTID is most significant byte first (ISA-L 2.30 stores
				 * it little-endian, which zlib cannot use). */
				assert_int_equal(get_be32(zb + 2), 0x12345678u);
			}

			struct inflate_state *is = xmalloc(sizeof(*is));
			isal_inflate_init(is);
			struct isal_zlib_header rh;
			memset(&rh, 0, sizeof(rh));
			is->next_in = zb;
			is->avail_in = need;
			assert_int_equal(isal_read_zlib_header(is, &rh), ISAL_DECOMP_OK);
			assert_int_equal(rh.info, info);
			assert_int_equal(rh.level, info & 3);
			assert_int_equal(rh.dict_flag, (uint32_t)with_dict);
			if (with_dict)
				assert_int_equal(rh.dict_id, 0x12345678u);
			free(is);
			free(s);
		}
	free(buf);
	print_message("isal_write_gzip_header: plain, name+comment, +extra, +hcrc read back by "
		      "zlib inflateGetHeader and isal_read_gzip_header; too-small output returns "
		      "the size and writes nothing; extra_len 70000 rejected; "
		      "isal_write_zlib_header for every window and level, with and without "
		      "dictionary id\n");
	if (bad)
		fail();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gzip_header),
	};
	return TEST_MAIN("deflate_headers", tests, deflate_suite_setup, deflate_suite_teardown);
}
