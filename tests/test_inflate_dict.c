/* Inflate's history: hist_bits bounding the distances it accepts, and dictionaries (zlib
 * FDICT with ISAL_NEED_DICT, raw deflate with isal_inflate_set_dict). */
#include "inflate_check.h"

/* hist_bits < 15 limits the distances isal_inflate accepts to 2^hist_bits. */
static void test_hist_bits(void **state)
{
	(void)state;
	load_samples();
	/* 4 KiB of random bytes repeated 20000 bytes later: one match at distance 20000. */
	size_t len = 24096 + 4096;
	uint8_t *d = malloc(len), *out = malloc(len);
	assert_true(d && out);
	test_fill_random(d, len);
	memcpy(d + 20000, d, 4096);
	struct zbuf far = z_compress(d, len, W_RAW, 9, 15, Z_DEFAULT_STRATEGY);
	assert_true(far.len < len - 2000); /* the match was found */
	struct result r;
	for (int hb = 0; hb <= 15; hb++) {
		if (hb >= 1 && hb < 8)
			continue;
		inflate_chunked(far.p, far.len, out, len, ISAL_DEFLATE, hb, NULL, 0, &whole, &r);
		int want_ok = hb == 0 || hb == 15;
		if (want_ok ? r.rc != ISAL_DECOMP_OK || memcmp(out, d, len) != 0 : r.rc >= 0)
			TEST_FAIL("distance 20000 with hist_bits %d: rc %d\n", hb, r.rc);
		if (!want_ok && r.rc != ISAL_INVALID_SYMBOL && r.rc != ISAL_INVALID_LOOKBACK)
			TEST_FAIL("distance 20000 with hist_bits %d: rc %d, want an invalid "
				  "distance code or lookback\n",
				  hb, r.rc);
	}
	/* Streams made with a window of 2^w decode with hist_bits = w. */
	const struct test_file *s = find_sample("/paper1");
	if (!s)
		s = &samples[0];
	for (int w = 9; w <= 15; w++) {
		struct zbuf b = z_compress(s->data, s->len, W_RAW, 9, w, Z_DEFAULT_STRATEGY);
		uint8_t *o = malloc(s->len);
		assert_non_null(o);
		inflate_chunked(b.p, b.len, o, s->len, ISAL_DEFLATE, w, NULL, 0, &chunkings[4], &r);
		check_result("window 2^w with hist_bits w", "16K/64K", &r, o, s->data, s->len,
			     ISAL_DEFLATE, 0);
		free(o);
		free(b.p);
	}
	print_message("a distance of 20000 is rejected with hist_bits 8..14 and accepted with 0 and "
		      "15; zlib windows 2^9..2^15 decode with hist_bits 9..15\n");
	free(far.p);
	free(d);
	free(out);
}

static void make_dict_data(uint8_t *dict, size_t dict_len, uint8_t *data, size_t len)
{
	test_fill_text(dict, dict_len);
	/* The data starts with a piece of the dictionary, so its first symbol reaches into it. */
	for (size_t i = 0; i < len; i++)
		data[i] = dict[(dict_len / 3 + i) % dict_len];
	for (size_t i = 300; i < len; i += 97)
		data[i] ^= 0x20;
}

static void test_dictionaries(void **state)
{
	(void)state;
	static const size_t dict_sizes[] = { 1, 100, 1000, 32768, 40000 };
	size_t len = 30000;
	uint8_t *data = malloc(len), *out = malloc(len), *dict = malloc(40000);
	assert_true(data && out && dict);
	struct result r;
	for (size_t k = 0; k < sizeof(dict_sizes) / sizeof(dict_sizes[0]); k++) {
		size_t dl = dict_sizes[k];
		make_dict_data(dict, dl, data, len);
		uint32_t id = (uint32_t)adler32(1, dict, (uInt)dl);

		/* zlib wrapper with FDICT: ISAL_NEED_DICT with the dictionary's id, then the
		 * dictionary and the rest. */
		struct zbuf z = z_compress_dict(data, len, W_ZLIB, 6, 15, Z_DEFAULT_STRATEGY, dict, dl);
		assert_true(z.p[1] & 0x20);
		for (size_t c = 0; c < N_CHUNKINGS; c++) {
			if (chunkings[c].in_step == 1 && chunkings[c].out_step == 1 && quick)
				continue;
			struct inflate_state *st = new_state();
			isal_inflate_init(st);
			st->crc_flag = ISAL_ZLIB;
			st->next_in = z.p;
			run_stream(st, z.p, z.len, out, len, &chunkings[c], &r);
			if (r.rc != ISAL_NEED_DICT || r.out_len != 0 ||
			    r.dict_id != id)
				TEST_FAIL("FDICT stream, %s: rc %d, dict_id 0x%08x (want %d, 0x%08x)\n",
					  chunkings[c].name, r.rc, r.dict_id, ISAL_NEED_DICT, id);
			assert_int_equal(isal_inflate_set_dict(st, dict, (uint32_t)dl), COMP_OK);
			run_stream(st, z.p, z.len, out, len, &chunkings[c], &r);
			check_result("zlib FDICT after isal_inflate_set_dict", chunkings[c].name, &r,
				     out, data, len, ISAL_ZLIB, 0);
			/* Too late for a dictionary now. */
			assert_int_not_equal(isal_inflate_set_dict(st, dict, (uint32_t)dl), COMP_OK);
			free(st);
		}
		inflate_oneshot(z.p, z.len, out, len, ISAL_ZLIB, &r);
		assert_int_equal(r.rc, ISAL_NEED_DICT);
		free(z.p);

		/* Raw deflate against a dictionary: needs it, and decodes with it. */
		struct zbuf raw = z_compress_dict(data, len, W_RAW, 6, 15, Z_DEFAULT_STRATEGY, dict,
						  dl);
		for (size_t c = 0; c < N_CHUNKINGS; c += 2) {
			inflate_chunked(raw.p, raw.len, out, len, ISAL_GZIP_NO_HDR, 0, dict, dl,
					&chunkings[c], &r);
			check_result("raw deflate with isal_inflate_set_dict", chunkings[c].name, &r,
				     out, data, len, ISAL_GZIP_NO_HDR, 0);
		}
		if (dl >= 100) {
			inflate_chunked(raw.p, raw.len, out, len, ISAL_DEFLATE, 0, NULL, 0, &whole, &r);
			if (r.rc != ISAL_INVALID_LOOKBACK)
				TEST_FAIL("raw deflate made with a %zu-byte dictionary, decoded "
					  "without: rc %d (want ISAL_INVALID_LOOKBACK)\n",
					  dl, r.rc);
			inflate_oneshot(raw.p, raw.len, out, len, ISAL_DEFLATE, &r);
			assert_int_equal(r.rc, ISAL_INVALID_LOOKBACK);
		}
		free(raw.p);
	}
	print_message("dictionaries of 1 B to 40 KB: zlib FDICT -> ISAL_NEED_DICT with the "
		      "dictionary's Adler-32, then isal_inflate_set_dict and the rest; raw deflate "
		      "with and without the dictionary; set_dict refused once decoding started\n");
	free(data);
	free(out);
	free(dict);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_bits),
		cmocka_unit_test(test_dictionaries),
	};
	return TEST_MAIN("inflate_dict", tests, inflate_suite_setup, NULL);
}
