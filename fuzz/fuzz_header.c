/* libFuzzer target: isal_read_gzip_header and isal_read_zlib_header.
 *
 * Input: 5 parameter bytes, then the header bytes.
 *   0  bit 0: zlib (else gzip); bit 1: the field buffers are NULL (the fields are skipped)
 *   1  name buffer length (mod 32), 2 comment buffer length (mod 32), 3 extra buffer length
 *      (mod 32): buffers of exactly that size, so AddressSanitizer sees a write past one
 *   4  input bytes per call (1 + byte): a header cut at any byte resumes in the next call
 * The reader must return a code of the API and never write past the buffers or consume more
 * than it was given. A gzip header it accepts whole (without reserved FLG bits) must be one zlib
 * accepts too, with the same MTIME, XFL, OS, FTEXT and extra length, and name and comment
 * strings that fit their buffers; a zlib header it accepts must have method 8 and a valid
 * FCHECK, its fields being the header's bits. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "fuzz/fuzz_check.h"
#include "isa-l/igzip_lib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* zlib's reading of the same gzip header: 1 with its fields in *h when it takes the header. */
static int zlib_gzip_header(const uint8_t *in, size_t n, gz_header *h)
{
	static uint8_t out[64];
	z_stream z;
	memset(&z, 0, sizeof(z));
	memset(h, 0, sizeof(*h));
	CHECK(inflateInit2(&z, 31) == Z_OK);
	CHECK(inflateGetHeader(&z, h) == Z_OK);
	z.next_in = (uint8_t *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = sizeof(out);
	const int r = inflate(&z, Z_BLOCK);
	inflateEnd(&z);
	return (r == Z_OK || r == Z_STREAM_END || r == Z_BUF_ERROR) && h->done == 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 5 || size > 4096)
		return 0;
	const int zlib = data[0] & 1, null_bufs = data[0] & 2;
	const uint32_t name_len = data[1] % 32, comment_len = data[2] % 32,
	               extra_len = data[3] % 32;
	const size_t step = 1 + (size_t)data[4];
	const uint8_t *hdr = data + 5;
	const size_t n = size - 5;

	struct inflate_state *st = fuzz_alloc(sizeof(*st));
	uint8_t *name = fuzz_alloc(name_len), *comment = fuzz_alloc(comment_len);
	uint8_t *extra = fuzz_alloc(extra_len);
	struct isal_gzip_header gh;
	struct isal_zlib_header zh;
	isal_gzip_header_init(&gh);
	if (!null_bufs) {
		gh.name = (char *)name;
		gh.name_buf_len = name_len;
		gh.comment = (char *)comment;
		gh.comment_buf_len = comment_len;
		gh.extra = extra;
		gh.extra_buf_len = extra_len;
	}
	isal_inflate_init(st);
	size_t pos = 0;
	int r;
	for (;;) {
		const size_t k = n - pos < step ? n - pos : step;
		uint8_t *piece = fuzz_copy(hdr + pos, k);
		st->next_in = piece;
		st->avail_in = (uint32_t)k;
		r = zlib ? isal_read_zlib_header(st, &zh) : isal_read_gzip_header(st, &gh);
		CHECK(st->avail_in <= k);
		pos += k - st->avail_in;
		free(piece);
		if (r != ISAL_END_INPUT || pos == n)
			break;
	}
	CHECK(r == ISAL_DECOMP_OK || r == ISAL_END_INPUT || r == ISAL_NAME_OVERFLOW ||
	      r == ISAL_COMMENT_OVERFLOW || r == ISAL_EXTRA_OVERFLOW || r == ISAL_INVALID_WRAPPER ||
	      r == ISAL_UNSUPPORTED_METHOD || r == ISAL_INCORRECT_CHECKSUM);

	if (r == ISAL_DECOMP_OK && zlib) {
		CHECK(pos >= 2);
		const uint32_t cmf = hdr[0], flg = hdr[1];
		/* (CINFO above 7 passes, as in ISA-L.) */
		CHECK((cmf & 15) == 8 && (cmf * 256 + flg) % 31 == 0);
		CHECK(zh.info == cmf >> 4 && zh.level == flg >> 6 &&
		      zh.dict_flag == ((flg >> 5) & 1));
		CHECK(pos == (zh.dict_flag ? 6u : 2u));
	}
	/* (zlib refuses the reserved FLG bits, which ISA-L and stoa ignore.) */
	if (r == ISAL_DECOMP_OK && !zlib && !(hdr[3] & 0xe0)) {
		gz_header zg;
		CHECK(zlib_gzip_header(hdr, pos, &zg));
		CHECK(gh.time == (uint32_t)zg.time && gh.xflags == (uint32_t)zg.xflags &&
		      gh.os == (uint32_t)zg.os && gh.text == (uint32_t)zg.text);
		if (zg.extra_len || (gh.flags & 4))
			CHECK(gh.extra_len == zg.extra_len);
		if (!null_bufs) {
			/* A field that was present fits its buffer with its terminator. */
			if (gh.flags & 8)
				CHECK(memchr(name, 0, name_len) != NULL);
			if (gh.flags & 16)
				CHECK(memchr(comment, 0, comment_len) != NULL);
		}
	}
	free(name);
	free(comment);
	free(extra);
	free(st);
	return 0;
}
