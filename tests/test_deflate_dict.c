/* Deflate with dictionaries: isal_deflate_set_dict, and isal_deflate_process_dict with
 * isal_deflate_reset_dict, stateless and streaming, decoded by zlib and isal_inflate. */
#include "deflate_check.h"

static void test_dictionary(void **state)
{
	(void)state;
	const struct test_file *ds = dict_text();
	size_t dlen = ds->len > 40000 ? 40000 : ds->len / 2;
	uint8_t *dict = xmalloc(dlen);
	memcpy(dict, ds->data, dlen);
	/* The data repeats the dictionary's last 32 KiB, then goes on with new text. */
	size_t len = ds->len - dlen + 32 * KIB > 96 * KIB ? 96 * KIB : ds->len - dlen + 32 * KIB;
	uint8_t *data = xmalloc(len);
	size_t rep = dlen < 32 * KIB ? dlen : 32 * KIB;
	memcpy(data, dict + dlen - rep, rep);
	memcpy(data + rep, ds->data + dlen, len - rep);
	unsigned streams = 0;
	for (int level = 0; level <= STOA_DEF_MAX_LEVEL; level++) {
		struct dparams p = dparams_default(level);
		size_t plain = roundtrip("dictionary text, no dictionary", &p, data, len, NULL);
		for (int mode = DICT_SET; mode <= DICT_PROCESSED; mode++)
			for (int wrap = 0; wrap < 5; wrap++) {
				p.dict_mode = (enum dict_mode)mode;
				p.dict = dict;
				p.dict_len = (uint32_t)dlen;
				p.gzip_flag = wrap;
				p.in_chunk = test_rand_below(2) ? CH_WHOLE : CH_RANDOM;
				struct ref_stats st;
				size_t with = roundtrip("with dictionary", &p, data, len, &st);
				streams++;
				/* A third of the data is the dictionary's tail: the output shrinks
				 * by an eighth at least (19.7% at level 3 on generated data), and a
				 * match reaches back across the window. */
				if (with > plain - plain / 8 || st.max_dist < 32 * KIB - 300)
					TEST_FAIL("level %d %s: %zu bytes with the dictionary, %zu "
						  "without; farthest match %u: the dictionary is not "
						  "used\n",
						  level, mode == DICT_SET ? "set_dict" : "reset_dict",
						  with, plain, st.max_dist);
			}
		print_message("level %d: %zu bytes -> %zu plain, dictionary used by set_dict and "
			      "process_dict+reset_dict\n",
			      level, len, plain);
	}
	/* A short dictionary, and the same processed dictionary on several streams. */
	struct isal_dict *pd = xmalloc(sizeof(*pd));
	memset(pd, 0, sizeof(*pd));
	for (int level = 0; level <= STOA_DEF_MAX_LEVEL; level++) {
		struct dparams p = dparams_default(level);
		p.dict_mode = DICT_SET;
		p.dict = dict;
		p.dict_len = 100;
		roundtrip("100-byte dictionary", &p, data, len, NULL);

		uint8_t *lb;
		struct isal_zstream *s = new_stream(level, -1, 0, &lb);
		assert_int_equal(isal_deflate_process_dict(s, pd, dict, (uint32_t)dlen), COMP_OK);
		size_t cap = len * 2 + 1024;
		uint8_t *out = xmalloc(cap);
		for (int rpt = 0; rpt < 3; rpt++) {
			isal_deflate_reset(s);
			assert_int_equal(isal_deflate_reset_dict(s, pd), COMP_OK);
			struct compressed c;
			assert_int_equal(deflate_once(s, 0, data, len, out, cap, &c), COMP_OK);
			assert_int_equal(s->internal_state.state, ZSTATE_END);
			struct dparams q = dparams_default(level);
			q.dict_mode = DICT_PROCESSED;
			q.dict = dict;
			q.dict_len = (uint32_t)dlen;
			verify("one processed dictionary, stream after reset", &q, data, len, &c,
			       NULL);
		}
		free(out);
		free(lb);
		free(s);
	}
	free(pd);
	print_message("%u streams with a 40000-byte dictionary (last 32 KiB used), every "
		      "wrapper; a 100-byte dictionary; one processed dictionary reused by three "
		      "streams; zlib inflateSetDictionary and isal_inflate_set_dict decode them\n",
		      streams);
	free(data);
	free(dict);
}

/* One raw deflate stream of data with the dictionary given as dict_mode says, stateless or
 * streaming (input in pieces of in_step bytes, all output room at once). Returns the stream's
 * length; fails the test on any error code or a stream that does not end. */
static size_t dict_compress(int level, int stateless, enum dict_mode mode, int wipe_table,
			    const uint8_t *dict, uint32_t dict_len, const uint8_t *data, size_t len,
			    size_t in_step, uint8_t *out, size_t cap)
{
	uint8_t *lb;
	struct isal_zstream *s = new_stream(level, -1, stateless, &lb);
	struct isal_dict *pd = NULL;
	const char *how = stateless ? "stateless" : "streaming";
	int ret = COMP_OK;
	if (mode == DICT_SET) {
		ret = isal_deflate_set_dict(s, (uint8_t *)(uintptr_t)dict, dict_len);
	} else if (mode == DICT_PROCESSED) {
		pd = xmalloc(sizeof(*pd));
		memset(pd, 0, sizeof(*pd));
		ret = isal_deflate_process_dict(s, pd, (uint8_t *)(uintptr_t)dict, dict_len);
		/* wipe_table: every hash entry then names the dictionary's first byte, so a
		 * reset_dict that installs the table loses most matches, one that hashes the
		 * history again does not. */
		if (wipe_table)
			memset(pd->hashtable, 0, sizeof(pd->hashtable));
		if (ret == COMP_OK)
			ret = isal_deflate_reset_dict(s, pd);
	}
	if (ret != COMP_OK)
		TEST_FAIL("level %d %s: setting the dictionary (mode %d) returned %d\n", level, how,
			  (int)mode, ret);
	s->next_out = out;
	s->avail_out = (uint32_t)cap;
	if (stateless) {
		s->next_in = (uint8_t *)(uintptr_t)data;
		s->avail_in = (uint32_t)len;
		s->end_of_stream = 1;
		ret = isal_deflate_stateless(s);
		if (ret != COMP_OK || s->avail_in != 0)
			TEST_FAIL("level %d stateless, dictionary mode %d: returned %d, %u bytes "
				  "left\n",
				  level, (int)mode, ret, s->avail_in);
	} else {
		size_t pos = 0;
		unsigned calls = 0;
		while (s->internal_state.state != ZSTATE_END) {
			if (s->avail_in == 0 && pos < len) {
				size_t n = len - pos < in_step ? len - pos : in_step;
				s->next_in = (uint8_t *)(uintptr_t)(data + pos);
				s->avail_in = (uint32_t)n;
				pos += n;
				s->end_of_stream = pos == len;
			}
			ret = isal_deflate(s);
			if (ret != COMP_OK || ++calls > 4 * (len / in_step + 16))
				TEST_FAIL("level %d streaming, dictionary mode %d: returned %d after "
					  "%u calls (state %d)\n",
					  level, (int)mode, ret, calls, (int)s->internal_state.state);
		}
	}
	size_t n = cap - s->avail_out;
	free(pd);
	free(lb);
	free(s);
	return n;
}

/* zlib (raw, inflateSetDictionary) and isal_inflate with isal_inflate_set_dict must both give
 * back data from the stream. */
static void check_raw_with_dict(const char *what, const uint8_t *strm, size_t slen,
				const uint8_t *dict, uint32_t dict_len, const uint8_t *data,
				size_t len)
{
	uint8_t *back = xmalloc(len + 64);
	size_t got = 0, used = 0;
	int zr = zlib_decode(strm, slen, -15, dict, dict_len, back, len + 64, &got, &used, NULL);
	if (zr != Z_STREAM_END || got != len || used != slen || memcmp(back, data, len) != 0)
		TEST_FAIL("%s: zlib with the dictionary gives %d (%s), %zu of %zu bytes out, %zu "
			  "of %zu bytes in, %s\n",
			  what, zr, zlib_msg, got, len, used, slen,
			  got == len && memcmp(back, data, len) == 0 ? "same data" : "other data");
	int ir = isal_decode(strm, slen, ISAL_DEFLATE, 0, (uint8_t *)(uintptr_t)dict, dict_len,
			     back, len + 64, &got);
	if (ir != ISAL_DECOMP_OK || got != len || memcmp(back, data, len) != 0)
		TEST_FAIL("%s: isal_inflate with the dictionary gives %d, %zu of %zu bytes\n", what,
			  ir, got, len);
	n_checked_streams++;
	free(back);
}

/* Stateless and streaming, every level: with set_dict and with process_dict + reset_dict the
 * stream decodes (zlib's raw inflateSetDictionary) to the data, is well below the stream made
 * without the dictionary when the data repeats it, and the two ways give the same bytes: the
 * prehashed table of process_dict is what reset_dict installs. */
static void test_dict_modes(void **state)
{
	(void)state;
	const struct test_file *ds = dict_text();
	/* A 32 KiB dictionary; the data is its last 24 KiB (all within the window), then 12 KiB
	 * of the text that follows it. */
	uint32_t dlen = 32 * KIB;
	size_t rep = 24 * KIB, newl = 12 * KIB;
	if (ds->len < dlen + newl)
		skip();
	const uint8_t *dict = ds->data;
	size_t len = rep + newl;
	uint8_t *data = xmalloc(len);
	memcpy(data, dict + dlen - rep, rep);
	memcpy(data + rep, ds->data + dlen, newl);
	size_t cap = 2 * len + 4 * KIB;
	uint8_t *plain = xmalloc(cap), *set = xmalloc(cap), *proc = xmalloc(cap);
	static const size_t steps[] = { 64 * KIB, 4 * KIB, 1000 };
	for (int level = 0; level <= STOA_DEF_MAX_LEVEL; level++)
		for (int sl = 1; sl >= 0; sl--) {
			/* Streaming: the whole input at once, then in smaller pieces. */
			size_t nsteps = sl ? 1 : sizeof(steps) / sizeof(steps[0]);
			for (size_t k = 0; k < nsteps; k++) {
				size_t st = steps[k];
				char what[160];
				size_t np = dict_compress(level, sl, DICT_NONE, 0, NULL, 0, data, len, st,
							  plain, cap);
				size_t ns = dict_compress(level, sl, DICT_SET, 0, dict, dlen, data, len,
							  st, set, cap);
				size_t nr = dict_compress(level, sl, DICT_PROCESSED, 0, dict, dlen, data,
							  len, st, proc, cap);
				snprintf(what, sizeof(what), "level %d %s (input in %zu-byte pieces) "
					 "set_dict", level, sl ? "stateless" : "streaming", st);
				check_raw_with_dict(what, set, ns, dict, dlen, data, len);
				snprintf(what, sizeof(what), "level %d %s (input in %zu-byte pieces) "
					 "process_dict+reset_dict", level, sl ? "stateless" : "streaming",
					 st);
				check_raw_with_dict(what, proc, nr, dict, dlen, data, len);
				/* Two thirds of the data are in the dictionary: it must show. */
				if (ns > np - np / 4 || nr > np - np / 4)
					TEST_FAIL("level %d %s: %zu bytes without the dictionary, %zu "
						  "with set_dict, %zu with process_dict+reset_dict: "
						  "the dictionary is not used\n",
						  level, sl ? "stateless" : "streaming", np, ns, nr);
				if (ns != nr || memcmp(set, proc, ns) != 0)
					TEST_FAIL("level %d %s: set_dict gives %zu bytes, "
						  "process_dict+reset_dict %zu bytes, not the same "
						  "stream\n",
						  level, sl ? "stateless" : "streaming", ns, nr);
				/* The same with the prepared table wiped: a valid stream, and
				 * (streaming, levels 0-1) not the one made from the intact
				 * table. The stateless call may hash the dictionary again for a
				 * table sized to its input, and levels 2-3 with the default
				 * level_buf use more buckets than struct isal_dict holds, so
				 * reset_dict hashes again there: both only reported. */
				size_t nw = dict_compress(level, sl, DICT_PROCESSED, 1, dict, dlen,
							  data, len, st, plain, cap);
				snprintf(what, sizeof(what), "level %d %s (input in %zu-byte pieces) "
					 "wiped prepared table", level, sl ? "stateless" : "streaming",
					 st);
				check_raw_with_dict(what, plain, nw, dict, dlen, data, len);
				const int wipe_seen = nw != nr || memcmp(plain, proc, nr) != 0;
				if (!sl && level <= 1 && !wipe_seen)
					TEST_FAIL("level %d %s: wiping the table process_dict made "
						  "changes nothing: reset_dict does not use it\n",
						  level, sl ? "stateless" : "streaming");
				if (k == 0)
					print_message("level %d %s: %zu bytes -> %zu without the "
						      "dictionary, %zu with it (set_dict and "
						      "process_dict+reset_dict byte-identical), %zu "
						      "with the prepared table wiped (table %s)\n",
						      level, sl ? "stateless" : "streaming", len, np,
						      ns, nw, wipe_seen ? "used" : "not used");
			}
		}
	free(plain);
	free(set);
	free(proc);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dictionary),
		cmocka_unit_test(test_dict_modes),
	};
	return TEST_MAIN("deflate_dict", tests, deflate_suite_setup, deflate_suite_teardown);
}
