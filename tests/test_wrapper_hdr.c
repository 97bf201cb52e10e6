/* The gzip and zlib headers the compressor writes, against ISA-L 2.31+'s bytes and zlib.
 *
 * - isal_deflate and isal_deflate_stateless start a zlib stream with CINFO from hist_bits and
 *   FLEVEL from the level, and a gzip stream with XFL 4 at level 0: the bytes ISA-L 2.31 and
 *   later write (the table below was read from ISA-L 2.32's output; 2.30 wrote 78 01 always).
 * - zlib's inflateInit2 with windowBits 8-15 accepts such a stream exactly when its window
 *   covers CINFO's, and then decodes the data (whose matches reach back to the window's edge).
 * - isal_write_zlib_header gives zlib's own header bytes (zlib's deflate is the oracle, FCHECK
 *   and DICTID byte order included), and zlib takes the dictionary it announces.
 * - The header for levels above ISA-L's (FLEVEL and XFL by zlib's rule) is checked through the
 *   internal writer, so that it is right before those levels exist. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "igzip/deflate_internal.h"
#include "isa-l/igzip_lib.h"
#include "testutil.h"

#define DATA_LEN (96u * 1024)

/* FLG of ISA-L 2.32's stream header by CINFO, at level 0 and at levels 1-3 (CMF is CINFO << 4 |
 * 8). */
static const uint8_t isal_flg_lvl0[8] = { 0x1d, 0x19, 0x15, 0x11, 0x0d, 0x09, 0x05, 0x01 };
static const uint8_t isal_flg_lvl1[8] = { 0x5b, 0x57, 0x53, 0x4f, 0x4b, 0x47, 0x43, 0x5e };

static uint32_t cinfo_of(uint32_t hist_bits)
{
	if (hist_bits == 0 || hist_bits > 15)
		return 7;
	return hist_bits > 8 ? hist_bits - 8 : 0;
}

/* Data whose matches reach back at every distance up to 32 KiB: random runs and copies of
 * earlier bytes at random distances, so that a reader whose window is smaller than the one the
 * stream was compressed with cannot decode it. */
static uint8_t *window_data(void)
{
	uint8_t *d = malloc(DATA_LEN);
	assert_non_null(d);
	uint32_t n = 0;
	while (n < DATA_LEN) {
		uint32_t run = 4 + (uint32_t)test_rand_below(60);
		if (run > DATA_LEN - n)
			run = DATA_LEN - n;
		if (n < 1024 || test_rand_below(4) == 0) {
			test_fill_random(d + n, run);
		} else {
			uint32_t maxd = n < 32768 ? n : 32768;
			uint32_t dist = 1 + (uint32_t)test_rand_below(maxd);
			for (uint32_t i = 0; i < run; i++)
				d[n + i] = d[n + i - dist];
		}
		n += run;
	}
	return d;
}

/* Compress data with stoa at level/hist_bits/wrap, in one call or in 1000-byte steps with the
 * output handed out a few bytes at a time (so the header is written in pieces). */
static uint32_t stoa_compress(const uint8_t *data, uint32_t len, uint32_t level, uint32_t hist_bits,
                              uint16_t wrap, int stateless, uint8_t *out, uint32_t cap)
{
	static uint8_t level_buf[ISAL_DEF_LVL3_DEFAULT];
	struct isal_zstream *s = malloc(sizeof(*s));
	assert_non_null(s);
	if (stateless)
		isal_deflate_stateless_init(s);
	else
		isal_deflate_init(s);
	s->level = level;
	s->level_buf = level_buf;
	s->level_buf_size = sizeof(level_buf);
	s->gzip_flag = wrap;
	s->hist_bits = (uint16_t)hist_bits;
	s->next_out = out;
	if (stateless) {
		s->next_in = (uint8_t *)(uintptr_t)data;
		s->avail_in = len;
		s->avail_out = cap;
		s->end_of_stream = 1;
		assert_int_equal(isal_deflate_stateless(s), COMP_OK);
	} else {
		uint32_t given = 0;
		do {
			uint32_t step = len - given < 1000 ? len - given : 1000;
			s->next_in = (uint8_t *)(uintptr_t)data + given;
			s->avail_in = step;
			given += step;
			s->end_of_stream = given == len;
			do {
				uint32_t room = cap - (uint32_t)(s->next_out - out);
				assert_true(room > 0);
				uint32_t piece = 1 + (uint32_t)test_rand_below(7);
				s->avail_out = room < piece ? room : piece;
				assert_int_equal(isal_deflate(s), COMP_OK);
			} while (s->avail_in ||
			         (s->end_of_stream && s->internal_state.state != ZSTATE_END));
		} while (given < len);
	}
	uint32_t n = (uint32_t)(s->next_out - out);
	free(s);
	return n;
}

static void test_stream_header_bytes(void **state)
{
	(void)state;
	uint8_t data[300], out[1024];
	test_fill_random(data, 100);
	memset(data + 100, 'a', 200);
	int checked = 0;
	for (uint32_t level = 0; level <= ISAL_DEF_MAX_LEVEL; level++) {
		for (uint32_t hb = 0; hb <= 17; hb++) {
			for (int sl = 0; sl < 2; sl++) {
				stoa_compress(data, sizeof(data), level, hb, IGZIP_ZLIB, sl, out,
				              sizeof(out));
				uint32_t ci = cinfo_of(hb);
				uint8_t flg = level ? isal_flg_lvl1[ci] : isal_flg_lvl0[ci];
				if (out[0] != (ci << 4 | 8) || out[1] != flg)
					TEST_FAIL("zlib level %u hist_bits %u %s: %02x %02x, ISA-L "
					          "writes %02x %02x\n",
					          level, hb, sl ? "stateless" : "streaming", out[0],
					          out[1], ci << 4 | 8, flg);
				stoa_compress(data, sizeof(data), level, hb, IGZIP_GZIP, sl, out,
				              sizeof(out));
				static const uint8_t gz[10] = { 0x1f, 0x8b, 8, 0, 0,
					                        0,    0,    0, 0, 0xff };
				uint8_t want[10];
				memcpy(want, gz, 10);
				want[8] = level == 0 ? 4 : 0;
				if (memcmp(out, want, 10) != 0)
					TEST_FAIL("gzip level %u: XFL %u, ISA-L writes %u\n", level,
					          out[8], want[8]);
				checked += 2;
			}
		}
	}
	print_message("%d stream headers (levels 0-%d, hist_bits 0-17, stateless and streaming) "
	              "equal ISA-L 2.32's bytes\n",
	              checked, ISAL_DEF_MAX_LEVEL);
}

/* zlib with windowBits wb decodes z[0, n) to data[0, len): 1; refuses the header: 0. Anything
 * else fails the test. */
static int zlib_window_decodes(const uint8_t *z, uint32_t n, int wb, const uint8_t *data,
                               uint32_t len, uint8_t *back)
{
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	assert_int_equal(inflateInit2(&zs, wb), Z_OK);
	zs.next_in = (Bytef *)(uintptr_t)z;
	zs.avail_in = n;
	zs.next_out = back;
	zs.avail_out = len + 16;
	int rc = inflate(&zs, Z_FINISH);
	int ok = rc == Z_STREAM_END;
	if (ok) {
		assert_int_equal(zs.total_out, len);
		assert_memory_equal(back, data, len);
	} else if (rc != Z_DATA_ERROR || !zs.msg || strcmp(zs.msg, "invalid window size") != 0) {
		TEST_FAIL("zlib windowBits %d: rc %d (%s)\n", wb, rc, zs.msg ? zs.msg : "");
	}
	inflateEnd(&zs);
	return ok;
}

static void test_zlib_accepts_covering_windows(void **state)
{
	(void)state;
	uint8_t *data = window_data();
	/* Level 0's default codes expand random bytes by up to a quarter when the output comes
	 * a few bytes at a time (no room to try a stored block), as ISA-L's do. */
	uint32_t cap = 2 * DATA_LEN;
	uint8_t *z = malloc(cap), *back = malloc(DATA_LEN + 16);
	assert_non_null(z);
	assert_non_null(back);
	int accepted = 0, refused = 0;
	for (uint32_t level = 0; level <= ISAL_DEF_MAX_LEVEL; level++) {
		for (uint32_t hb = 0; hb <= 15; hb++) {
			int sl = (int)test_rand_below(2);
			uint32_t n =
			    stoa_compress(data, DATA_LEN, level, hb, IGZIP_ZLIB, sl, z, cap);
			int need = (int)cinfo_of(hb) + 8;
			for (int wb = 8; wb <= 15; wb++) {
				int ok = zlib_window_decodes(z, n, wb, data, DATA_LEN, back);
				if (ok != (wb >= need))
					TEST_FAIL("level %u hist_bits %u: zlib windowBits %d %s\n",
					          level, hb, wb, ok ? "accepted" : "refused");
				ok ? accepted++ : refused++;
			}
		}
	}
	print_message("zlib inflateInit2 windowBits 8-15 on levels 0-%d x hist_bits 0-15: %d "
	              "decoded, %d refused (exactly those whose window is below CINFO's)\n",
	              ISAL_DEF_MAX_LEVEL, accepted, refused);
	free(back);
	free(z);
	free(data);
}

/* zlib's own header for windowBits wb (9-15) and level, with or without a dictionary. */
static uint32_t zlib_header(int wb, int level, const uint8_t *dict, uint32_t dict_len,
                            uint8_t out[6])
{
	z_stream zs;
	uint8_t buf[64];
	memset(&zs, 0, sizeof(zs));
	assert_int_equal(deflateInit2(&zs, level, Z_DEFLATED, wb, 8, Z_DEFAULT_STRATEGY), Z_OK);
	if (dict)
		assert_int_equal(deflateSetDictionary(&zs, dict, dict_len), Z_OK);
	zs.next_in = (Bytef *)"";
	zs.avail_in = 0;
	zs.next_out = buf;
	zs.avail_out = sizeof(buf);
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	deflateEnd(&zs);
	uint32_t n = dict ? 6 : 2;
	memcpy(out, buf, n);
	return n;
}

/* zlib's FLEVEL for its level (deflate.c: 0-1 fastest, 2-5 fast, 6 default, 7-9 maximum). */
static uint32_t zlib_flevel(int level)
{
	return level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
}

static void test_write_zlib_header_is_zlibs(void **state)
{
	(void)state;
	uint8_t dict[300];
	test_fill_random(dict, sizeof(dict));
	int n_cmp = 0;
	for (int wb = 9; wb <= 15; wb++) {
		for (int level = 0; level <= 9; level++) {
			for (int with_dict = 0; with_dict < 2; with_dict++) {
				uint32_t dlen = 1 + (uint32_t)test_rand_below(sizeof(dict));
				uint8_t want[6], got[8];
				uint32_t n =
				    zlib_header(wb, level, with_dict ? dict : NULL, dlen, want);
				struct isal_zlib_header h;
				memset(&h, 0x5a, sizeof(h));
				isal_zlib_header_init(&h);
				h.info = (uint32_t)wb - 8;
				h.level = zlib_flevel(level);
				h.dict_flag = (uint32_t)with_dict;
				h.dict_id = with_dict ? (uint32_t)adler32(1, dict, dlen) : 0;
				struct isal_zstream s;
				memset(got, 0xee, sizeof(got));
				s.next_out = got;
				s.avail_out = n - 1;
				s.total_out = 0;
				assert_int_equal(isal_write_zlib_header(&s, &h), n);
				assert_int_equal(got[0], 0xee);
				s.avail_out = sizeof(got);
				assert_int_equal(isal_write_zlib_header(&s, &h), 0);
				assert_int_equal(s.total_out, n);
				assert_ptr_equal(s.next_out, got + n);
				if (memcmp(got, want, n) != 0)
					TEST_FAIL("windowBits %d level %d dict %d: stoa %02x %02x, "
					          "zlib %02x %02x\n",
					          wb, level, with_dict, got[0], got[1], want[0],
					          want[1]);
				n_cmp++;
			}
		}
	}
	/* FLEVEL and CINFO are cut to their fields; FCHECK is then computed over what is
	 * written, so the header stays valid. */
	struct isal_zlib_header h = { .info = 7, .level = 6, .dict_id = 0, .dict_flag = 0 };
	struct isal_zstream s = { .next_out = (uint8_t[8]){ 0 }, .avail_out = 8 };
	uint8_t *p = s.next_out;
	assert_int_equal(isal_write_zlib_header(&s, &h), 0);
	assert_int_equal(p[0], 0x78);
	assert_int_equal(p[1] >> 6, 2);
	assert_int_equal((p[0] * 256 + p[1]) % 31, 0);
	print_message("isal_write_zlib_header equals zlib's header in %d cases (windowBits 9-15, "
	              "levels 0-9, DICTID most significant byte first)\n",
	              n_cmp);
}

static void test_init_zeroes(void **state)
{
	(void)state;
	struct isal_zlib_header h;
	memset(&h, 0xa5, sizeof(h));
	isal_zlib_header_init(&h);
	assert_int_equal(h.info, 0);
	assert_int_equal(h.level, 0);
	assert_int_equal(h.dict_id, 0);
	assert_int_equal(h.dict_flag, 0);
}

/* A dictionary stream: the header from isal_write_zlib_header, the body from isal_deflate with
 * the dictionary set and IGZIP_ZLIB_NO_HDR. zlib asks for the dictionary by the DICTID it reads
 * and decodes once given it; stoa's inflate reads the same DICTID. */
static void test_dictionary_stream(void **state)
{
	(void)state;
	uint8_t *data = window_data();
	uint8_t dict[4096];
	memcpy(dict, data + DATA_LEN - sizeof(dict), sizeof(dict));
	uint32_t len = 20000;
	uint32_t cap = len * 2 + 64;
	uint8_t *z = malloc(cap), *back = malloc(len);
	assert_non_null(z);
	assert_non_null(back);
	const uint32_t id = (uint32_t)adler32(1, dict, sizeof(dict));
	for (uint32_t level = 0; level <= ISAL_DEF_MAX_LEVEL; level++) {
		static uint8_t level_buf[ISAL_DEF_LVL3_DEFAULT];
		struct isal_zstream *s = malloc(sizeof(*s));
		assert_non_null(s);
		isal_deflate_init(s);
		s->level = level;
		s->level_buf = level_buf;
		s->level_buf_size = sizeof(level_buf);
		s->gzip_flag = IGZIP_ZLIB_NO_HDR;
		s->next_out = z;
		s->avail_out = cap;
		struct isal_zlib_header h;
		isal_zlib_header_init(&h);
		h.info = 7;
		h.level = level ? 1 : 0;
		h.dict_flag = 1;
		h.dict_id = id;
		assert_int_equal(isal_write_zlib_header(s, &h), 0);
		assert_int_equal(isal_deflate_set_dict(s, dict, sizeof(dict)), COMP_OK);
		s->next_in = data;
		s->avail_in = len;
		s->end_of_stream = 1;
		assert_int_equal(isal_deflate(s), COMP_OK);
		assert_int_equal(s->internal_state.state, ZSTATE_END);
		uint32_t n = (uint32_t)(s->next_out - z);
		free(s);

		z_stream zs;
		memset(&zs, 0, sizeof(zs));
		assert_int_equal(inflateInit(&zs), Z_OK);
		zs.next_in = z;
		zs.avail_in = n;
		zs.next_out = back;
		zs.avail_out = len;
		assert_int_equal(inflate(&zs, Z_FINISH), Z_NEED_DICT);
		assert_int_equal(zs.adler, id);
		assert_int_equal(inflateSetDictionary(&zs, dict, sizeof(dict)), Z_OK);
		assert_int_equal(inflate(&zs, Z_FINISH), Z_STREAM_END);
		assert_int_equal(zs.total_out, len);
		assert_memory_equal(back, data, len);
		inflateEnd(&zs);

		struct inflate_state *is = malloc(sizeof(*is));
		assert_non_null(is);
		isal_inflate_init(is);
		is->next_in = z;
		is->avail_in = n;
		struct isal_zlib_header rh;
		assert_int_equal(isal_read_zlib_header(is, &rh), ISAL_DECOMP_OK);
		assert_int_equal(rh.dict_flag, 1);
		assert_int_equal(rh.dict_id, id);
		assert_int_equal(rh.info, 7);
		assert_int_equal(rh.level, h.level);
		free(is);
	}
	print_message("dictionary streams, levels 0-%d: zlib asks for DICTID %08x and decodes; "
	              "isal_read_zlib_header reads it back\n",
	              ISAL_DEF_MAX_LEVEL, id);
	free(back);
	free(z);
	free(data);
}

/* The header rule for every level up to 9, through the internal writer: ISA-L's bytes for
 * levels 0-1, zlib's FLEVEL from 2 on; gzip XFL 4 at level 0, 2 at level 9 (zlib's maximum). */
static void test_header_rule_every_level(void **state)
{
	(void)state;
	for (uint32_t level = 0; level <= 9; level++) {
		for (uint32_t hb = 9; hb <= 15; hb++) {
			struct isal_zstream s;
			memset(&s, 0, sizeof(s));
			s.level = level;
			s.hist_bits = (uint16_t)hb;
			s.gzip_flag = IGZIP_ZLIB;
			uint8_t got[10], want[6];
			assert_int_equal(defl_wrap_header(&s, got), 2);
			if (level >= 2) {
				zlib_header((int)hb, (int)level, NULL, 0, want);
			} else {
				want[0] = (uint8_t)((hb - 8) << 4 | 8);
				want[1] = (level ? isal_flg_lvl1 : isal_flg_lvl0)[hb - 8];
			}
			if (memcmp(got, want, 2) != 0)
				TEST_FAIL("level %u hist_bits %u: %02x %02x, want %02x %02x\n",
				          level, hb, got[0], got[1], want[0], want[1]);
			s.gzip_flag = IGZIP_GZIP;
			assert_int_equal(defl_wrap_header(&s, got), 10);
			assert_int_equal(got[8], level == 0 ? 4 : level == 9 ? 2 : 0);
			assert_int_equal(got[9], 0xff);
		}
		struct isal_zstream s;
		memset(&s, 0, sizeof(s));
		s.level = level;
		uint8_t got[10];
		for (uint16_t w = IGZIP_DEFLATE; w <= IGZIP_ZLIB_NO_HDR; w++) {
			s.gzip_flag = w;
			uint32_t n = defl_wrap_header(&s, got);
			assert_int_equal(n, w == IGZIP_GZIP ? 10 : w == IGZIP_ZLIB ? 2 : 0);
		}
	}
	print_message("header rule for levels 0-9: FLEVEL as zlib's from level 2, XFL 4/0/2\n");
}

int main(void)
{
	test_seed();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_header_bytes),
		cmocka_unit_test(test_zlib_accepts_covering_windows),
		cmocka_unit_test(test_write_zlib_header_is_zlibs),
		cmocka_unit_test(test_init_zeroes),
		cmocka_unit_test(test_dictionary_stream),
		cmocka_unit_test(test_header_rule_every_level),
	};
	return cmocka_run_group_tests_name("wrapper_hdr", tests, NULL, NULL);
}
