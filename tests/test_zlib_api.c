/* zlib's API semantics on stoa's libz.so.1, which programs rely on beyond the bytes of a
 * stream: known answers of the checksums and their combinations; compress and uncompress and
 * their result codes; deflateBound's promise; the flush markers; deflateParams mid-stream;
 * dictionaries; gzip headers both ways; deflateCopy, inflateCopy, resets and the results of
 * the End calls; the state checks; zalloc/zfree; concatenated gzip members; inflateBack;
 * random access as zlib's zran example does it (Z_BLOCK, inflatePrime, a dictionary); and
 * streams in several threads at once. */
#define _LARGEFILE64_SOURCE 1 /* zlib.h then declares the *64 functions */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"
#include "zlib_testutil.h"

/* Deflate all of in with one Z_FINISH call into out; returns the length written. */
static size_t deflate_all(z_stream *z, const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
	z->next_in = (Bytef *)(uintptr_t)in;
	z->avail_in = (uInt)n;
	z->next_out = out;
	z->avail_out = (uInt)cap;
	assert_int_equal(deflate(z, Z_FINISH), Z_STREAM_END);
	return cap - z->avail_out;
}

/* Inflate in (all of it, one call, room for cap) and expect want. */
static void expect_inflate(const uint8_t *in, size_t n, int wbits, const uint8_t *want,
                           size_t want_len)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, wbits), Z_OK);
	uint8_t *out = malloc(want_len + 16);
	assert_non_null(out);
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)want_len + 16;
	assert_int_equal(inflate(&z, Z_NO_FLUSH), Z_STREAM_END);
	zt_expect_same("inflated", out, z.total_out, want, want_len);
	assert_int_equal(inflateEnd(&z), Z_OK);
	free(out);
}

static void test_checksums(void **unused)
{
	(void)unused;
	const Bytef *digits = (const Bytef *)"123456789";
	assert_int_equal(crc32(0, digits, 9), 0xcbf43926u); /* CRC catalogue check value */
	assert_int_equal(crc32_z(0, digits, 9), 0xcbf43926u);
	assert_int_equal(crc32(0, NULL, 0), 0);
	assert_int_equal(adler32(1, (const Bytef *)"Wikipedia", 9), 0x11e60398u); /* RFC 1950 */
	assert_int_equal(adler32(0, NULL, 0), 1);
	assert_int_equal(adler32_z(1, digits, 9), adler32(1, digits, 9));
	/* get_crc_table: the byte table of the reflected polynomial, bit by bit. */
	const z_crc_t *t = get_crc_table();
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? c >> 1 ^ 0xedb88320u : c >> 1;
		assert_int_equal(t[i], c);
	}
	/* Combinations of random pieces, and of long zero runs. */
	uint8_t *buf = zt_data(1, 1 << 20);
	for (int i = 0; i < 300; i++) {
		const size_t n = test_rand_below(1 << 20), a = test_rand_below(n + 1);
		const uLong c1 = crc32(0, buf, (uInt)a), c2 = crc32(0, buf + a, (uInt)(n - a));
		const uLong c = crc32(0, buf, (uInt)n);
		assert_int_equal(crc32_combine(c1, c2, (z_off_t)(n - a)), c);
		assert_int_equal(crc32_combine64(c1, c2, (z_off64_t)(n - a)), c);
		assert_int_equal(crc32_combine_op(c1, c2, crc32_combine_gen((z_off_t)(n - a))), c);
		assert_int_equal(crc32_combine_op(c1, c2, crc32_combine_gen64((z_off64_t)(n - a))),
		                 c);
		const uLong a1 = adler32(1, buf, (uInt)a), a2 = adler32(1, buf + a, (uInt)(n - a));
		assert_int_equal(adler32_combine(a1, a2, (z_off_t)(n - a)),
		                 adler32(1, buf, (uInt)n));
		assert_int_equal(adler32_combine64(a1, a2, (z_off64_t)(n - a)),
		                 adler32(1, buf, (uInt)n));
	}
	memset(buf, 0, 1 << 20);
	uLong zeros = crc32(0, buf, 1 << 20), twice = crc32(zeros, buf, 1 << 20);
	assert_int_equal(crc32_combine(zeros, zeros, 1 << 20), twice);
	assert_int_equal(adler32_combine(1, 1, -1), 0xffffffffu);
	free(buf);
	assert_string_equal(zlibVersion(), "1.2.13");
	/* Two bits per size (uInt, uLong, pointer, z_off_t): 1 for 32 bits, 2 for 64 (0xa9 on
	 * 64-bit Linux, 0x55 on 32-bit). */
#define ZSIZE(t) (sizeof(t) == 8 ? 2u : 1u)
	assert_int_equal(zlibCompileFlags(), ZSIZE(uInt) | ZSIZE(uLong) << 2 | ZSIZE(void *) << 4 |
	                                         ZSIZE(z_off_t) << 6);
#undef ZSIZE
	static const char *const msgs[] = {
		"need dictionary",     "stream end",   "",
		"file error",          "stream error", "data error",
		"insufficient memory", "buffer error", "incompatible version"
	};
	for (int e = Z_NEED_DICT; e >= Z_VERSION_ERROR; e--)
		assert_string_equal(zError(e), msgs[Z_NEED_DICT - e]);
	print_message("crc32, adler32 and their combinations: known answers and 300 splits each\n");
}

static void test_compress_calls(void **unused)
{
	(void)unused;
	for (int i = 0; i < 60; i++) {
		const size_t n =
		    test_rand_below(4) ? test_rand_below(5000) : test_rand_below(300000);
		uint8_t *data = zt_data((int)test_rand_below(ZT_KINDS), n);
		uLong bound = compressBound(n), clen = bound;
		uint8_t *comp = malloc(bound), *back = malloc(n + 1);
		assert_non_null(comp);
		assert_non_null(back);
		const int level = (int)test_rand_below(11) - 1;
		assert_int_equal(compress2(comp, &clen, data, n, level), Z_OK);
		uLong blen = n + 1, slen = clen;
		assert_int_equal(uncompress2(back, &blen, comp, &slen), Z_OK);
		zt_expect_same("uncompress2", back, blen, data, n);
		assert_int_equal(slen, clen);
		blen = n;
		assert_int_equal(uncompress(back, &blen, comp, clen), Z_OK);
		if (n) {
			/* With no room zlib decodes into one byte of its own, which a one-byte stream
			 * fits: Z_OK (STOA_SEED=130147895220577 drew n = 1). */
			const int one_short = n == 1 ? Z_OK : Z_BUF_ERROR;
			blen = n - 1;
			assert_int_equal(uncompress(back, &blen, comp, clen), one_short);
			blen = n + 1; /* (with the output just full, zlib reports a buffer error) */
			assert_int_equal(uncompress(back, &blen, comp, clen - 1), Z_DATA_ERROR);
			blen = 0; /* with no room: the stream has more data than zlib's one byte */
			assert_int_equal(uncompress(back, &blen, comp, clen),
					 n == 1 ? Z_OK : Z_DATA_ERROR);
			uLong small = 5;
			assert_int_equal(compress(comp, &small, data, n), Z_BUF_ERROR);
		}
		free(data);
		free(comp);
		free(back);
	}
	uLong two = 20;
	uint8_t comp[32], none[1];
	assert_int_equal(compress2(comp, &two, none, 0, 12), Z_STREAM_ERROR);
	print_message("compress2/uncompress2 on 60 inputs at random levels, and their errors\n");
}

static void test_bound(void **unused)
{
	(void)unused;
	gz_header head;
	memset(&head, 0, sizeof(head));
	head.name = (Bytef *)"name.txt";
	head.comment = (Bytef *)"a comment";
	head.extra = (Bytef *)"\x01\x02\x03\x04";
	head.extra_len = 4;
	head.hcrc = 1;
	int runs = 0;
	for (int level = 0; level <= 9; level++) {
		for (int strategy = 0; strategy <= Z_FIXED; strategy++) {
			for (int wrap = 0; wrap < 3; wrap++) {
				const size_t n = test_rand_below(3) ? test_rand_below(3000)
				                                    : test_rand_below(400000);
				uint8_t *data = zt_data(test_rand_below(2) ? 1 : 0, n);
				z_stream z;
				memset(&z, 0, sizeof(z));
				const int wb = wrap == 0 ? -15 : wrap == 1 ? 15 : 31;
				assert_int_equal(deflateInit2(&z, level, Z_DEFLATED, wb,
				                              1 + (int)test_rand_below(9),
				                              strategy),
				                 Z_OK);
				if (wrap == 2 && test_rand_below(2))
					assert_int_equal(deflateSetHeader(&z, &head), Z_OK);
				if (wrap == 1 && test_rand_below(2))
					assert_int_equal(deflateSetDictionary(&z, data, n / 3),
					                 Z_OK);
				const uLong bound = deflateBound(&z, n);
				uint8_t *out = malloc(bound);
				assert_non_null(out);
				const size_t got = deflate_all(&z, data, n, out, bound);
				assert_int_equal(deflateEnd(&z), Z_OK);
				assert_true(got <= bound);
				free(out);
				free(data);
				runs++;
			}
		}
	}
	print_message("%d streams in one deflate(Z_FINISH) call into deflateBound's bytes\n", runs);
}

/* Flush markers: a sync or full flush ends with 00 00 ff ff, with or without new input; the
 * same flush again without input is a buffer error; everything before any flush but Z_BLOCK
 * inflates from the stream so far in one call. */
static void test_flush_markers(void **unused)
{
	(void)unused;
	uint8_t *data = zt_data(0, 30000); /* 20 pieces of at most 1500 bytes */
	static uint8_t out[64000], back[30000];
	static const int kinds[] = { Z_PARTIAL_FLUSH, Z_SYNC_FLUSH, Z_FULL_FLUSH };
	for (int k = 0; k < 3; k++) {
		for (int level = 0; level <= 9; level++) {
			z_stream z;
			memset(&z, 0, sizeof(z));
			assert_int_equal(deflateInit2(&z, level, Z_DEFLATED, -15, 8, 0), Z_OK);
			z.next_out = out;
			z.avail_out = sizeof(out);
			size_t fed = 0;
			for (int step = 0; step < 20; step++) {
				const size_t piece = 1 + test_rand_below(1500);
				z.next_in = data + fed;
				z.avail_in = (uInt)piece;
				fed += piece;
				assert_int_equal(deflate(&z, kinds[k]), Z_OK);
				const size_t have = sizeof(out) - z.avail_out;
				if (kinds[k] != Z_PARTIAL_FLUSH)
					assert_memory_equal(out + have - 4, "\x00\x00\xff\xff", 4);
				/* One inflate call on the stream so far gives all data so far. */
				z_stream d;
				memset(&d, 0, sizeof(d));
				assert_int_equal(inflateInit2(&d, -15), Z_OK);
				d.next_in = out;
				d.avail_in = (uInt)have;
				d.next_out = back;
				d.avail_out = (uInt)fed + 16;
				const int rc = inflate(&d, Z_SYNC_FLUSH);
				assert_true(rc == Z_OK || rc == Z_BUF_ERROR);
				assert_int_equal(d.avail_in, 0);
				zt_expect_same("data before the flush", back, d.total_out, data,
				               fed);
				inflateEnd(&d);
			}
			z.avail_in = 0;
			assert_int_equal(deflate(&z, kinds[k]), Z_BUF_ERROR); /* nothing new */
			deflateEnd(&z);
		}
	}
	free(data);
	print_message("partial, sync and full flushes at levels 0-9: markers, and all data before "
	              "each decodable at once\n");
}

static void test_params_midstream(void **unused)
{
	(void)unused;
	const size_t n = 300000;
	uint8_t *data = zt_data(3, n);
	uint8_t *out = malloc(2 * n), *back = malloc(n);
	assert_non_null(out);
	assert_non_null(back);
	for (int round = 0; round < 20; round++) {
		z_stream z;
		memset(&z, 0, sizeof(z));
		assert_int_equal(deflateInit2(&z, (int)test_rand_below(10), Z_DEFLATED, 31, 8, 0),
		                 Z_OK);
		/* Before any data: no output needed. */
		uint8_t one;
		z.next_out = &one;
		z.avail_out = 0;
		assert_int_equal(deflateParams(&z, (int)test_rand_below(10), 0), Z_OK);
		size_t fed = 0, wrote = 0;
		while (fed < n) {
			size_t piece = test_rand_below(40000);
			if (piece > n - fed)
				piece = n - fed;
			z.next_in = data + fed;
			z.avail_in = (uInt)piece;
			z.next_out = out + wrote;
			z.avail_out = (uInt)(2 * n - wrote);
			assert_int_equal(deflate(&z, Z_NO_FLUSH), piece ? Z_OK : Z_BUF_ERROR);
			fed += piece;
			wrote = 2 * n - z.avail_out;
			/* With one byte of room the change may need more: Z_BUF_ERROR until then.
			 */
			const int level = (int)test_rand_below(10),
			          strategy = (int)test_rand_below(5);
			z.next_out = out + wrote;
			z.avail_out = 1;
			int rc = deflateParams(&z, level, strategy);
			wrote += 1 - z.avail_out;
			if (rc == Z_BUF_ERROR) {
				z.next_out = out + wrote;
				z.avail_out = (uInt)(2 * n - wrote);
				rc = deflateParams(&z, level, strategy);
				wrote = 2 * n - z.avail_out;
			}
			assert_int_equal(rc, Z_OK);
		}
		z.next_out = out + wrote;
		z.avail_out = (uInt)(2 * n - wrote);
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		wrote = 2 * n - z.avail_out;
		assert_int_equal(deflateEnd(&z), Z_OK);
		expect_inflate(out, wrote, 31, data, n);
	}
	free(data);
	free(out);
	free(back);
	print_message("20 streams changing level and strategy mid-stream, with one byte of room "
	              "first\n");
}

static void test_dictionaries(void **unused)
{
	(void)unused;
	uint8_t *dict = zt_data(0, 40000), *data = zt_data(0, 5000);
	memcpy(data, dict + 1000, 2000); /* so that the dictionary pays */
	static uint8_t out[20000], back[6000], win[40000];
	for (int raw = 0; raw < 2; raw++) {
		const int wb = raw ? -15 : 15;
		const uInt dlen = (uInt)(1 + test_rand_below(40000));
		z_stream z;
		memset(&z, 0, sizeof(z));
		assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, wb, 8, 0), Z_OK);
		assert_int_equal(deflateSetDictionary(&z, dict, dlen), Z_OK);
		const uLong id = adler32(1, dict, dlen);
		if (!raw)
			assert_int_equal(z.adler, id);
		uInt got = 0;
		assert_int_equal(deflateGetDictionary(&z, win, &got), Z_OK);
		const uInt wlen = dlen < 32768 ? dlen : 32768;
		zt_expect_same("deflateGetDictionary", win, got, dict + dlen - wlen, wlen);
		const size_t n = deflate_all(&z, data, 5000, out, sizeof(out));
		deflateEnd(&z);
		if (!raw) {
			assert_int_equal(out[1] & 0x20, 0x20); /* FDICT */
			const uLong hid =
			    (uLong)out[2] << 24 | (uLong)out[3] << 16 | (uLong)out[4] << 8 | out[5];
			assert_int_equal(hid, id);
		}
		z_stream d;
		memset(&d, 0, sizeof(d));
		assert_int_equal(inflateInit2(&d, wb), Z_OK);
		d.next_in = out;
		d.avail_in = (uInt)n;
		d.next_out = back;
		d.avail_out = sizeof(back);
		if (raw) {
			assert_int_equal(inflateSetDictionary(&d, dict, dlen), Z_OK);
		} else {
			assert_int_equal(inflate(&d, Z_NO_FLUSH), Z_NEED_DICT);
			assert_int_equal(d.adler, id);
			assert_int_equal(inflateSetDictionary(&d, dict, dlen - 1), Z_DATA_ERROR);
			assert_int_equal(inflateSetDictionary(&d, dict, dlen), Z_OK);
		}
		assert_int_equal(inflate(&d, Z_NO_FLUSH), Z_STREAM_END);
		zt_expect_same("inflated with the dictionary", back, d.total_out, data, 5000);
		/* The window after a raw stream: its last 32 KiB, dictionary included. (After a
		 * zlib stream's trailer, zlib's window lacks the last call's output.) */
		if (raw) {
			assert_int_equal(inflateGetDictionary(&d, win, &got), Z_OK);
			assert_int_equal(got, dlen + 5000 < 32768 ? dlen + 5000 : 32768);
			zt_expect_same("inflateGetDictionary (data part)", win + got - 5000, 5000,
			               data, 5000);
		}
		inflateEnd(&d);
	}
	/* A zlib stream after its first call refuses a dictionary. */
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit(&z, 6), Z_OK);
	z.next_in = data;
	z.avail_in = 100;
	z.next_out = out;
	z.avail_out = sizeof(out);
	assert_int_equal(deflate(&z, Z_NO_FLUSH), Z_OK);
	assert_int_equal(deflateSetDictionary(&z, dict, 10), Z_STREAM_ERROR);
	deflateEnd(&z);
	free(dict);
	free(data);
	print_message("zlib and raw dictionaries both ways, their id, Get both ways\n");
}

static void test_gzip_header(void **unused)
{
	(void)unused;
	uint8_t extra[300];
	test_fill_random(extra, sizeof(extra));
	gz_header h;
	memset(&h, 0, sizeof(h));
	h.text = 1;
	h.time = 0x5f5e100;
	h.os = 11;
	h.extra = extra;
	h.extra_len = sizeof(extra);
	h.name = (Bytef *)"a-file-name.txt";
	h.comment = (Bytef *)"made by test_zlib_api";
	h.hcrc = 1;
	uint8_t *data = zt_data(0, 3000);
	static uint8_t out[8000], back[4000];
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 31, 8, 0), Z_OK);
	assert_int_equal(deflateSetHeader(&z, &h), Z_OK);
	const size_t n = deflate_all(&z, data, 3000, out, sizeof(out));
	deflateEnd(&z);
	assert_int_equal(out[3], 1 | 2 | 4 | 8 | 16);
	assert_int_equal(out[8], 2); /* XFL: level 9 */
	assert_int_equal(out[9], 11);
	for (int max = 0; max < 3; max++) {
		gz_header r;
		uint8_t rextra[400];
		Bytef rname[40], rcomment[40];
		memset(&r, 0, sizeof(r));
		memset(rname, 0x55, sizeof(rname));
		r.extra = rextra;
		r.extra_max = max == 0 ? sizeof(rextra) : 10;
		r.name = rname;
		r.name_max = max == 2 ? 5 : sizeof(rname);
		r.comment = rcomment;
		r.comm_max = sizeof(rcomment);
		z_stream d;
		memset(&d, 0, sizeof(d));
		assert_int_equal(inflateInit2(&d, 47), Z_OK);
		assert_int_equal(inflateGetHeader(&d, &r), Z_OK);
		assert_int_equal(r.done, 0);
		d.next_in = out;
		d.avail_in = (uInt)n;
		d.next_out = back;
		d.avail_out = sizeof(back);
		assert_int_equal(inflate(&d, Z_NO_FLUSH), Z_STREAM_END);
		zt_expect_same("gzip data", back, d.total_out, data, 3000);
		assert_int_equal(r.done, 1);
		assert_int_equal(r.text, 1);
		assert_int_equal(r.time, h.time);
		assert_int_equal(r.os, 11);
		assert_int_equal(r.hcrc, 1);
		assert_int_equal(r.extra_len, sizeof(extra));
		assert_memory_equal(rextra, extra, r.extra_max < sizeof(extra) ? r.extra_max : 300);
		if (max == 2) {
			assert_memory_equal(rname, "a-fil", 5);
			assert_int_equal(rname[5], 0x55); /* cut short: no terminator */
		} else {
			assert_string_equal((char *)rname, "a-file-name.txt");
		}
		assert_string_equal((char *)rcomment, "made by test_zlib_api");
		inflateEnd(&d);
	}
	/* zlib inflates it too, checking the header CRC. */
	struct zs_inflate_opts o = { 31, Z_NO_FLUSH, 0, 0, NULL, 0 };
	struct zs_inflate_result zr;
	assert_int_equal(zs_peer_inflate(zt_peer(), &o, out, n, &zr), 0);
	assert_int_equal(zr.rc, Z_STREAM_END);
	zt_expect_same("zlib on stoa's gzip header", zr.out.p, zr.out.len, data, 3000);
	zs_inflate_free(&zr);
	/* A zlib stream: done is -1; a corrupted header CRC: zlib's message. */
	gz_header r;
	memset(&r, 0, sizeof(r));
	uint8_t zl[64];
	uLong zl_len = sizeof(zl);
	assert_int_equal(compress(zl, &zl_len, data, 10), Z_OK);
	z_stream d;
	memset(&d, 0, sizeof(d));
	assert_int_equal(inflateInit2(&d, 47), Z_OK);
	assert_int_equal(inflateGetHeader(&d, &r), Z_OK);
	d.next_in = zl;
	d.avail_in = (uInt)zl_len;
	d.next_out = back;
	d.avail_out = sizeof(back);
	assert_int_equal(inflate(&d, Z_NO_FLUSH), Z_STREAM_END);
	assert_int_equal(r.done, -1);
	assert_int_equal(inflateReset(&d), Z_OK);
	out[10] ^= 1; /* in the extra field: the header CRC no longer matches */
	d.next_in = out;
	d.avail_in = (uInt)n;
	d.next_out = back;
	d.avail_out = sizeof(back);
	assert_int_equal(inflate(&d, Z_NO_FLUSH), Z_DATA_ERROR);
	assert_string_equal(d.msg, "header crc mismatch");
	inflateEnd(&d);
	free(data);
	print_message("gzip header fields written and read back (whole, cut short), checked by "
	              "zlib\n");
}

static void test_copies_resets_ends(void **unused)
{
	(void)unused;
	const size_t n = 200000;
	uint8_t *data = zt_data(3, n);
	uint8_t *a = malloc(n + 1000), *b = malloc(n + 1000), *c = malloc(n + 1000);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	for (int level = 0; level <= 9; level++) {
		z_stream z, y;
		memset(&z, 0, sizeof(z));
		assert_int_equal(deflateInit2(&z, level, Z_DEFLATED, 15, 8, 0), Z_OK);
		assert_int_equal(deflateEnd(&z), Z_OK); /* never started */
		memset(&z, 0, sizeof(z));
		assert_int_equal(deflateInit2(&z, level, Z_DEFLATED, 15, 8, 0), Z_OK);
		z.next_in = data;
		z.avail_in = (uInt)(n / 2);
		z.next_out = a;
		z.avail_out = (uInt)(n + 1000);
		assert_int_equal(deflate(&z, Z_NO_FLUSH), Z_OK);
		memset(&y, 0, sizeof(y));
		assert_int_equal(deflateCopy(&y, &z), Z_OK);
		const size_t head = n + 1000 - z.avail_out;
		memcpy(b, a, head);
		y.next_out = b + head;
		z.next_in = y.next_in = data + n / 2;
		z.avail_in = y.avail_in = (uInt)(n - n / 2);
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		assert_int_equal(deflate(&y, Z_FINISH), Z_STREAM_END);
		zt_expect_same("deflateCopy", a, z.total_out, b, y.total_out);
		assert_int_equal(deflateEnd(&y), Z_OK);
		/* deflateReset: the same stream again. */
		assert_int_equal(deflateReset(&z), Z_OK);
		const size_t again = deflate_all(&z, data, n, c, n + 1000);
		expect_inflate(c, again, 15, data, n);
		/* Ended mid-stream: a data error. */
		assert_int_equal(deflateReset(&z), Z_OK);
		z.next_in = data;
		z.avail_in = 1000;
		z.next_out = c;
		z.avail_out = (uInt)n;
		assert_int_equal(deflate(&z, Z_NO_FLUSH), Z_OK);
		assert_int_equal(deflateEnd(&z), Z_DATA_ERROR);
	}
	/* inflateCopy halfway: both finish alike. */
	uLong clen = n + 1000;
	assert_int_equal(compress2(a, &clen, data, n, 6), Z_OK);
	z_stream d, e;
	memset(&d, 0, sizeof(d));
	assert_int_equal(inflateInit(&d), Z_OK);
	d.next_in = a;
	d.avail_in = (uInt)clen / 2;
	d.next_out = b;
	d.avail_out = (uInt)n;
	assert_int_equal(inflate(&d, Z_NO_FLUSH), Z_OK);
	memset(&e, 0, sizeof(e));
	assert_int_equal(inflateCopy(&e, &d), Z_OK);
	const size_t part = d.total_out;
	memcpy(c, b, part);
	e.next_out = c + part;
	d.avail_in = e.avail_in = (uInt)(clen - clen / 2);
	assert_int_equal(inflate(&d, Z_NO_FLUSH), Z_STREAM_END);
	assert_int_equal(inflate(&e, Z_NO_FLUSH), Z_STREAM_END);
	zt_expect_same("inflateCopy (original)", b, d.total_out, data, n);
	zt_expect_same("inflateCopy (copy)", c, e.total_out, data, n);
	assert_int_equal(inflateEnd(&d), Z_OK);
	assert_int_equal(inflateEnd(&e), Z_OK);
	free(data);
	free(a);
	free(b);
	free(c);
	print_message(
	    "deflateCopy and deflateReset at levels 0-9, deflateEnd's results, inflateCopy\n");
}

static void test_state_checks(void **unused)
{
	(void)unused;
	z_stream z, moved;
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit_(&z, 6, "2.0.0", (int)sizeof(z)), Z_VERSION_ERROR);
	assert_int_equal(deflateInit_(&z, 6, ZLIB_VERSION, (int)sizeof(z) - 8), Z_VERSION_ERROR);
	assert_int_equal(inflateInit_(&z, NULL, (int)sizeof(z)), Z_VERSION_ERROR);
	assert_int_equal(deflateInit2(&z, 10, Z_DEFLATED, 15, 8, 0), Z_STREAM_ERROR);
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, -8, 8, 0), Z_STREAM_ERROR);
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15, 10, 0), Z_STREAM_ERROR);
	assert_int_equal(inflateInit2(&z, 7), Z_STREAM_ERROR);
	assert_int_equal(deflate(NULL, Z_NO_FLUSH), Z_STREAM_ERROR);
	assert_int_equal(inflate(NULL, Z_NO_FLUSH), Z_STREAM_ERROR);
	assert_int_equal(deflateEnd(NULL), Z_STREAM_ERROR);
	assert_int_equal(deflateInit(&z, 6), Z_OK);
	assert_int_equal(deflate(&z, 6), Z_STREAM_ERROR);
	assert_int_equal(deflateSetHeader(&z, NULL), Z_STREAM_ERROR); /* not gzip */
	uint8_t out[64];
	z.next_out = NULL;
	z.avail_out = 0;
	assert_int_equal(deflate(&z, Z_NO_FLUSH), Z_STREAM_ERROR);
	z.next_out = out;
	assert_int_equal(deflate(&z, Z_NO_FLUSH), Z_BUF_ERROR);
	assert_string_equal(z.msg, "buffer error");
	memcpy(&moved, &z, sizeof(z)); /* not deflateCopy: refused */
	assert_int_equal(deflate(&moved, Z_NO_FLUSH), Z_STREAM_ERROR);
	assert_int_equal(inflate(&z, Z_NO_FLUSH), Z_STREAM_ERROR); /* a deflate state */
	assert_int_equal(deflateEnd(&z), Z_OK);
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, -15), Z_OK);
	gz_header h;
	assert_int_equal(inflateGetHeader(&z, &h), Z_STREAM_ERROR); /* raw */
	assert_int_equal(inflateUndermine(&z, 1), Z_DATA_ERROR);
	assert_int_equal(inflatePrime(&z, 17, 0), Z_STREAM_ERROR);
	assert_int_equal(inflateReset2(&z, 16 + 9), Z_OK);
	assert_int_equal(inflateReset2(&z, 5), Z_STREAM_ERROR);
	assert_int_equal(deflate(&z, Z_NO_FLUSH), Z_STREAM_ERROR); /* an inflate state */
	assert_int_equal(inflateEnd(&z), Z_OK);
	print_message("version, stream size, parameter and state checks\n");
}

/* zalloc/zfree: every allocation is the stream's, and all of it is freed. */
struct counts {
	int live, total, fail_at;
};

static voidpf count_alloc(voidpf opaque, uInt items, uInt size)
{
	struct counts *c = opaque;
	if (c->fail_at && c->total + 1 == c->fail_at)
		return NULL;
	c->live++;
	c->total++;
	return malloc((size_t)items * size);
}

static void count_free(voidpf opaque, voidpf p)
{
	struct counts *c = opaque;
	c->live--;
	free(p);
}

static void test_allocators(void **unused)
{
	(void)unused;
	uint8_t *data = zt_data(0, 100000);
	uint8_t *out = malloc(120000), *back = malloc(100000);
	assert_non_null(out);
	assert_non_null(back);
	for (int level = 0; level <= 9; level++) {
		struct counts c = { 0, 0, 0 };
		z_stream z;
		memset(&z, 0, sizeof(z));
		z.zalloc = count_alloc;
		z.zfree = count_free;
		z.opaque = &c;
		assert_int_equal(deflateInit2(&z, level, Z_DEFLATED, 31, 8, 0), Z_OK);
		assert_int_equal(deflateParams(&z, 9 - level, Z_DEFAULT_STRATEGY), Z_OK);
		const size_t n = deflate_all(&z, data, 100000, out, 120000);
		assert_int_equal(deflateEnd(&z), Z_OK);
		assert_true(c.total > 0);
		assert_int_equal(c.live, 0);
		memset(&z, 0, sizeof(z));
		z.zalloc = count_alloc;
		z.zfree = count_free;
		z.opaque = &c;
		assert_int_equal(inflateInit2(&z, 31), Z_OK);
		z.next_in = out;
		z.avail_in = (uInt)n;
		z.next_out = back;
		z.avail_out = 100000;
		assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
		assert_int_equal(inflateEnd(&z), Z_OK);
		assert_int_equal(c.live, 0);
	}
	struct counts fail = { 0, 0, 1 };
	z_stream z;
	memset(&z, 0, sizeof(z));
	z.zalloc = count_alloc;
	z.zfree = count_free;
	z.opaque = &fail;
	assert_int_equal(deflateInit(&z, 6), Z_MEM_ERROR);
	fail = (struct counts){ 0, 0, 2 };
	assert_int_equal(deflateInit(&z, 6), Z_MEM_ERROR); /* the level buffer */
	assert_int_equal(fail.live, 0);
	fail = (struct counts){ 0, 0, 1 };
	assert_int_equal(inflateInit(&z), Z_MEM_ERROR);
	free(data);
	free(out);
	free(back);
	print_message("zalloc/zfree/opaque: all memory from them, all of it returned, failures "
	              "reported\n");
}

static void test_gzip_members(void **unused)
{
	(void)unused;
	uint8_t *a = zt_data(0, 5000), *b = zt_data(2, 7000);
	static uint8_t s[30000], out[20000];
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 31, 8, 0), Z_OK);
	size_t n = deflate_all(&z, a, 5000, s, sizeof(s));
	assert_int_equal(deflateReset(&z), Z_OK);
	const size_t first = n;
	n += deflate_all(&z, b, 7000, s + n, sizeof(s) - n);
	deflateEnd(&z);
	for (int wb = 31; wb <= 47; wb += 16) {
		z_stream d;
		memset(&d, 0, sizeof(d));
		assert_int_equal(inflateInit2(&d, wb), Z_OK);
		d.next_in = s;
		d.avail_in = (uInt)n;
		d.next_out = out;
		d.avail_out = sizeof(out);
		assert_int_equal(inflate(&d, Z_NO_FLUSH), Z_STREAM_END);
		assert_int_equal(d.avail_in, n - first); /* stops after the first member */
		zt_expect_same("first member", out, d.total_out, a, 5000);
		assert_int_equal(d.adler, crc32(0, a, 5000));
		assert_int_equal(inflateReset(&d), Z_OK);
		d.next_out = out;
		d.avail_out = sizeof(out);
		assert_int_equal(inflate(&d, Z_NO_FLUSH), Z_STREAM_END);
		zt_expect_same("second member", out, d.total_out, b, 7000);
		assert_int_equal(inflate(&d, Z_NO_FLUSH), Z_STREAM_END); /* stays at the end */
		inflateEnd(&d);
	}
	free(a);
	free(b);
	print_message("two gzip members: Z_STREAM_END after each, the next one's bytes left\n");
}

/* inflateBack: callbacks giving the stream in pieces and taking the window. */
struct back_io {
	const uint8_t *in;
	size_t n, at, piece;
	struct zs_buf out;
	int fail_out;
};

static unsigned back_in(void *desc, z_const unsigned char **buf)
{
	struct back_io *io = desc;
	size_t k = io->n - io->at < io->piece ? io->n - io->at : io->piece;
	*buf = (unsigned char *)(uintptr_t)(io->in + io->at);
	io->at += k;
	return (unsigned)k;
}

static int back_out(void *desc, unsigned char *buf, unsigned len)
{
	struct back_io *io = desc;
	zs_put(&io->out, buf, len);
	return io->fail_out;
}

static void test_inflate_back(void **unused)
{
	(void)unused;
	const size_t n = 150000;
	uint8_t *data = zt_data(3, n);
	uint8_t *gz = malloc(n + 1000);
	assert_non_null(gz);
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 31, 8, 0), Z_OK);
	const size_t len = deflate_all(&z, data, n, gz, n + 1000);
	deflateEnd(&z);
	static unsigned char window[32768];
	for (int round = 0; round < 20; round++) {
		const int wbits = 9 + (int)test_rand_below(7);
		struct back_io io = { gz + 10, len - 10, 0, 1 + test_rand_below(5000), { 0 }, 0 };
		memset(&z, 0, sizeof(z));
		assert_int_equal(inflateBackInit(&z, 15, window), Z_OK);
		z.next_in = NULL;
		(void)wbits;
		assert_int_equal(inflateBack(&z, back_in, &io, back_out, &io), Z_STREAM_END);
		zt_expect_same("inflateBack", io.out.p, io.out.len, data, n);
		/* next_in is right after the deflate data: the trailer follows. */
		size_t left = z.avail_in + (io.n - io.at);
		assert_int_equal(left, 8);
		uint8_t trailer[8];
		memcpy(trailer, z.next_in, z.avail_in);
		memcpy(trailer + z.avail_in, io.in + io.at, 8 - z.avail_in);
		const uint32_t crc = (uint32_t)trailer[0] | (uint32_t)trailer[1] << 8 |
		                     (uint32_t)trailer[2] << 16 | (uint32_t)trailer[3] << 24;
		assert_int_equal(crc, crc32(0, data, (uInt)n));
		assert_int_equal(inflateBackEnd(&z), Z_OK);
		zs_free(&io.out);
	}
	/* out() refusing, in() running dry, damaged data. */
	struct back_io io = { gz + 10, len - 10, 0, 4096, { 0 }, 1 };
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateBackInit(&z, 15, window), Z_OK);
	z.next_in = NULL;
	assert_int_equal(inflateBack(&z, back_in, &io, back_out, &io), Z_BUF_ERROR);
	zs_free(&io.out);
	io = (struct back_io){ gz + 10, (len - 10) / 2, 0, 4096, { 0 }, 0 };
	z.next_in = NULL;
	assert_int_equal(inflateBack(&z, back_in, &io, back_out, &io), Z_BUF_ERROR);
	assert_null(z.next_in);
	zs_free(&io.out);
	io = (struct back_io){ (const uint8_t *)"\x07\x00", 2, 0, 2, { 0 }, 0 };
	z.next_in = NULL;
	assert_int_equal(inflateBack(&z, back_in, &io, back_out, &io), Z_DATA_ERROR);
	assert_string_equal(z.msg, "invalid block type");
	assert_int_equal(inflateBackEnd(&z), Z_OK);
	free(data);
	free(gz);
	print_message("inflateBack: 20 runs in pieces, next_in at the trailer, and its errors\n");
}

/* Random access the way zlib's zran example does it: access points at block boundaries
 * found with Z_BLOCK, resumed with inflatePrime and the window as a dictionary. */
static void test_random_access(void **unused)
{
	(void)unused;
	const size_t n = 1 << 20;
	uint8_t *data = zt_data(3, n);
	uint8_t *comp = malloc(n + 1000), *out = malloc(n);
	assert_non_null(comp);
	assert_non_null(out);
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 31, 8, 0), Z_OK);
	/* A block ends at least every 100000 bytes (Z_BLOCK: at any bit), so that the access
	 * points do not depend on which data zt_data found (without the corpus, its generated
	 * words code in two blocks). */
	z.next_out = comp;
	z.avail_out = (uInt)(n + 1000);
	for (size_t at = 0; at < n; at += 100000) {
		const size_t piece = n - at < 100000 ? n - at : 100000;
		z.next_in = data + at;
		z.avail_in = (uInt)piece;
		const int last = at + piece == n;
		assert_int_equal(deflate(&z, last ? Z_FINISH : Z_BLOCK), last ? Z_STREAM_END : Z_OK);
	}
	const size_t len = z.total_out;
	deflateEnd(&z);
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, 47), Z_OK);
	z.next_in = comp;
	z.avail_in = (uInt)len;
	size_t points = 0;
	for (;;) {
		z.next_out = out + z.total_out;
		z.avail_out = (uInt)(n - z.total_out);
		const int rc = inflate(&z, Z_BLOCK);
		if (rc == Z_STREAM_END)
			break;
		assert_int_equal(rc, Z_OK);
		if (!(z.data_type & 128) || (z.data_type & 64) || !z.total_out)
			continue;
		/* An access point: resume a raw inflater here and compare the rest. */
		const int bits = z.data_type & 7;
		const size_t in_at = z.total_in, out_at = z.total_out;
		uint8_t window[32768];
		uInt wlen = 0;
		assert_int_equal(inflateGetDictionary(&z, window, &wlen), Z_OK);
		assert_int_equal(wlen, out_at < 32768 ? out_at : 32768);
		z_stream r;
		memset(&r, 0, sizeof(r));
		assert_int_equal(inflateInit2(&r, -15), Z_OK);
		if (bits)
			assert_int_equal(inflatePrime(&r, bits, comp[in_at - 1] >> (8 - bits)),
			                 Z_OK);
		assert_int_equal(inflateSetDictionary(&r, window, wlen), Z_OK);
		static uint8_t piece[20000];
		r.next_in = comp + in_at;
		r.avail_in = (uInt)(len - in_at);
		r.next_out = piece;
		r.avail_out = sizeof(piece);
		const int rr = inflate(&r, Z_NO_FLUSH);
		assert_true(rr == Z_OK || rr == Z_STREAM_END);
		const size_t got = sizeof(piece) - r.avail_out;
		assert_true(got > 0);
		zt_expect_same("resumed at an access point", piece, got, data + out_at, got);
		assert_int_equal(inflateMark(&z), -65536); /* at a boundary */
		inflateEnd(&r);
		points++;
	}
	zt_expect_same("Z_BLOCK run", out, z.total_out, data, n);
	inflateEnd(&z);
	free(data);
	free(comp);
	free(out);
	print_message("%zu access points resumed with inflatePrime and a dictionary\n", points);
	assert_true(points >= 3);
}

struct job {
	const uint8_t *data;
	size_t n;
	int level;
	uLong crc;
	int ok;
};

static void *worker(void *arg)
{
	struct job *j = arg;
	uint8_t *comp = malloc(compressBound(j->n)), *back = malloc(j->n);
	j->ok = comp && back;
	for (int r = 0; r < 10 && j->ok; r++) {
		uLong clen = compressBound(j->n), blen = j->n;
		j->ok = compress2(comp, &clen, j->data, j->n, j->level) == Z_OK &&
		        uncompress(back, &blen, comp, clen) == Z_OK && blen == j->n &&
		        !memcmp(back, j->data, j->n);
		j->crc = crc32(0, comp, (uInt)clen);
	}
	free(comp);
	free(back);
	return NULL;
}

static void test_threads(void **unused)
{
	(void)unused;
	enum { T = 4 };
	struct job jobs[T];
	uint8_t *data[T];
	pthread_t th[T];
	for (int i = 0; i < T; i++) {
		data[i] = zt_data(i, 300000);
		jobs[i] = (struct job){ data[i], 300000, 1 + 2 * i, 0, 0 };
	}
	for (int i = 0; i < T; i++)
		assert_int_equal(pthread_create(&th[i], NULL, worker, &jobs[i]), 0);
	for (int i = 0; i < T; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	for (int i = 0; i < T; i++) {
		assert_true(jobs[i].ok);
		struct job alone = jobs[i];
		worker(&alone); /* the same stream in one thread: the same bytes */
		assert_int_equal(alone.crc, jobs[i].crc);
		free(data[i]);
	}
	print_message("%d threads compressing and inflating at once: each as when alone\n", T);
}

int main(int argc, char **argv)
{
	zt_start(argc, argv);
	test_seed();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checksums),
		cmocka_unit_test(test_compress_calls),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_flush_markers),
		cmocka_unit_test(test_params_midstream),
		cmocka_unit_test(test_dictionaries),
		cmocka_unit_test(test_gzip_header),
		cmocka_unit_test(test_copies_resets_ends),
		cmocka_unit_test(test_state_checks),
		cmocka_unit_test(test_allocators),
		cmocka_unit_test(test_gzip_members),
		cmocka_unit_test(test_inflate_back),
		cmocka_unit_test(test_random_access),
		cmocka_unit_test(test_threads),
	};
	return cmocka_run_group_tests_name("zlib_api", tests, NULL, NULL);
}
