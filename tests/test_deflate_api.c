/* The deflate API beside the streams: the error codes of misuse, isal_deflate_reset, Huffman
 * tables (isal_update_histogram, isal_create_hufftables, custom/static/default), and Debian's
 * libisal on the same sweep in a separate process (tests/deflate_oracle.c). */
#include "deflate_check.h"

static void test_reset(void **state)
{
	(void)state;
	const struct test_file *a = matrix_file(0), *b = matrix_file(1);
	for (int level = 0; level <= 3; level++) {
		uint8_t *lb;
		struct isal_zstream *s = new_stream(level, 2, 0, &lb);
		const uint32_t lbs = level_buf_size(level, 2); /* what reset must keep */
		size_t cap = a->len + b->len + 64 * KIB;
		uint8_t *out1 = xmalloc(cap), *out2 = xmalloc(cap);

		s->gzip_flag = IGZIP_GZIP;
		s->hist_bits = 12;
		s->flush = SYNC_FLUSH;
		s->next_in = a->data;
		s->avail_in = (uint32_t)(a->len / 2); /* reset in the middle of a stream */
		s->next_out = out1;
		s->avail_out = (uint32_t)cap;
		assert_int_equal(isal_deflate(s), COMP_OK);

		/* ISA-L 2.30 turns gzip_flag into IGZIP_GZIP_NO_HDR once it has written the
		 * header, and reset keeps that: the next stream then has no header. Either
		 * way reset must not change the field. */
		uint16_t flag = s->gzip_flag;
		if (flag != IGZIP_GZIP && flag != IGZIP_GZIP_NO_HDR)
			TEST_FAIL("gzip_flag is %u after the header was written\n", flag);
		if (level == 0)
			print_message("gzip_flag after the first isal_deflate call: %s\n",
				      flag == IGZIP_GZIP ? "IGZIP_GZIP (kept)"
							 : "IGZIP_GZIP_NO_HDR (as ISA-L 2.30)");
		isal_deflate_reset(s);
		assert_int_equal(s->level, (uint32_t)level);
		assert_ptr_equal(s->level_buf, lb);
		assert_int_equal(s->level_buf_size, lb ? lbs : 0);
		assert_int_equal(s->gzip_flag, flag);
		assert_int_equal(s->hist_bits, 12);
		assert_int_equal(s->flush, SYNC_FLUSH);
		assert_int_equal(s->total_in, 0);
		assert_int_equal(s->total_out, 0);
		struct compressed c;
		assert_int_equal(deflate_once(s, 0, b->data, b->len, out1, cap, &c), COMP_OK);
		assert_int_equal(s->internal_state.state, ZSTATE_END);
		size_t n1 = c.len;
		struct dparams p = dparams_default(level);
		p.lbuf_size_index = 2;
		p.gzip_flag = flag;
		p.hist_bits = 12;
		p.flush = SYNC_FLUSH;
		verify("second stream after isal_deflate_reset", &p, b->data, b->len, &c, NULL);

		/* A fresh stream with the same settings makes the same bytes. */
		isal_deflate_init(s);
		s->level = (uint32_t)level;
		s->level_buf = lb;
		s->level_buf_size = lb ? lbs : 0;
		s->gzip_flag = flag;
		s->hist_bits = 12;
		s->flush = SYNC_FLUSH;
		assert_int_equal(deflate_once(s, 0, b->data, b->len, out2, cap, &c), COMP_OK);
		size_t n2 = c.len;
		if (n1 != n2 || memcmp(out1, out2, n1) != 0)
			TEST_FAIL("level %d: the stream after reset (%zu bytes) differs from a "
				  "fresh stream (%zu bytes)\n",
				  level, n1, n2);
		free(out1);
		free(out2);
		free(lb);
		free(s);
	}
	print_message("isal_deflate_reset mid-stream keeps level, level_buf, gzip_flag, hist_bits, "
		      "flush; the next stream is valid and equal to a fresh stream's, levels 0-3\n");
}

static void test_hufftables(void **state)
{
	(void)state;
	const struct test_file *train = matrix_file(0), *other = matrix_file(1);
	struct isal_huff_histogram *hist = xmalloc(sizeof(*hist));
	struct isal_hufftables *tab = xmalloc(sizeof(*tab)), *sub = xmalloc(sizeof(*sub));
	memset(hist, 0, sizeof(*hist));
	isal_update_histogram(train->data, (int)train->len, hist);
	uint64_t lits = 0, lens = 0, dists = 0;
	for (int i = 0; i < 256; i++)
		lits += hist->lit_len_histogram[i];
	for (int i = 257; i < ISAL_DEF_LIT_LEN_SYMBOLS; i++)
		lens += hist->lit_len_histogram[i];
	for (int i = 0; i < ISAL_DEF_DIST_SYMBOLS; i++)
		dists += hist->dist_histogram[i];
	if (lits == 0 || lens == 0 || lens != dists || hist->lit_len_histogram[256] == 0)
		TEST_FAIL("histogram of %s: %" PRIu64 " literals, %" PRIu64 " lengths, %" PRIu64
			  " distances, %" PRIu64 " end-of-block\n",
			  train->name, lits, lens, dists, hist->lit_len_histogram[256]);
	/* Every byte not covered by a match is a literal: at most the file size in all. */
	if (lits + 3 * lens > train->len + 258)
		TEST_FAIL("histogram counts more symbols than %s can hold\n", train->name);
	assert_int_equal(isal_create_hufftables(tab, hist), 0);
	assert_int_equal(isal_create_hufftables_subset(sub, hist), 0);

	unsigned streams = 0;
	for (int level = 0; level <= 3; level++) {
		struct dparams p = dparams_default(level);
		size_t def = roundtrip(train->name, &p, train->data, train->len, NULL);
		p.huff_set = 1;
		p.huff = tab;
		p.huff_type = IGZIP_HUFFTABLE_CUSTOM;
		size_t custom = roundtrip(train->name, &p, train->data, train->len, NULL);
		roundtrip(other->name, &p, other->data, other->len, NULL);
		p.huff = sub;
		size_t subset = roundtrip(train->name, &p, train->data, train->len, NULL);
		p.huff = NULL;
		p.huff_type = IGZIP_HUFFTABLE_STATIC;
		struct ref_stats st;
		size_t stat = roundtrip(train->name, &p, train->data, train->len, &st);
		if (level == 0 && (st.blocks[1] == 0 || st.blocks[2] != 0))
			TEST_FAIL("level 0 with IGZIP_HUFFTABLE_STATIC: %zu fixed, %zu dynamic "
				  "blocks\n",
				  st.blocks[1], st.blocks[2]);
		p.huff_type = IGZIP_HUFFTABLE_DEFAULT;
		roundtrip(train->name, &p, train->data, train->len, NULL);
		p.huff_type = IGZIP_HUFFTABLE_CUSTOM;
		p.huff = tab;
		p.gzip_flag = IGZIP_ZLIB;
		p.in_chunk = CH_RANDOM;
		p.flush = FULL_FLUSH;
		roundtrip(train->name, &p, train->data, train->len, NULL);
		p.stateless = 1;
		p.in_chunk = CH_WHOLE;
		roundtrip(train->name, &p, train->data, train->len, NULL);
		streams += 8;
		print_message("level %d, %s: default %zu, custom %zu, subset %zu, static %zu "
			      "bytes\n",
			      level, train->name, def, custom, subset, stat);
		if (level == 0 && custom > def + def / 50)
			TEST_FAIL("level 0: tables trained on %s give %zu bytes, the default %zu\n",
				  train->name, custom, def);
	}
	/* Tables built from an all-zero histogram and from one byte value still work. */
	memset(hist, 0, sizeof(*hist));
	assert_int_equal(isal_create_hufftables(tab, hist), 0);
	struct dparams p = dparams_default(0);
	p.huff_set = 1;
	p.huff = tab;
	roundtrip(other->name, &p, other->data, other->len, NULL);
	uint8_t ones[5000];
	memset(ones, 'q', sizeof(ones));
	memset(hist, 0, sizeof(*hist));
	isal_update_histogram(ones, sizeof(ones), hist);
	assert_int_equal(isal_create_hufftables(tab, hist), 0);
	roundtrip(other->name, &p, other->data, other->len, NULL);
	streams += 2;
	free(hist);
	free(tab);
	free(sub);
	print_message("isal_update_histogram over %s; isal_create_hufftables and _subset; "
		      "IGZIP_HUFFTABLE_CUSTOM/STATIC/DEFAULT at levels 0-3: %u streams decode\n",
		      train->name, streams);
}

/* A stream set up for one call: level, optional level_buf of lbs bytes. */
struct misuse {
	struct isal_zstream s;
	uint8_t in[4096];
	uint8_t out[8192];
	uint8_t *lb;
};

static struct misuse *misuse_new(int stateless, uint32_t level, uint32_t lbs)
{
	struct misuse *m = xmalloc(sizeof(*m));
	for (size_t i = 0; i < sizeof(m->in); i++)
		m->in[i] = (uint8_t)(i * i >> 3);
	if (stateless)
		isal_deflate_stateless_init(&m->s);
	else
		isal_deflate_init(&m->s);
	m->lb = lbs ? xmalloc(lbs) : NULL;
	m->s.level = level;
	m->s.level_buf = m->lb;
	m->s.level_buf_size = lbs;
	m->s.next_in = m->in;
	m->s.avail_in = sizeof(m->in);
	m->s.next_out = m->out;
	m->s.avail_out = sizeof(m->out);
	m->s.end_of_stream = 1;
	return m;
}

static int misuse_call(struct misuse *m, int stateless)
{
	return stateless ? isal_deflate_stateless(&m->s) : isal_deflate(&m->s);
}

static void misuse_free(struct misuse *m)
{
	free(m->lb);
	free(m);
}

static void test_error_codes(void **state)
{
	(void)state;
	unsigned checks = 0;
	int bad = 0; /* every mismatch is reported before the test fails */
	for (int sl = 0; sl < 2; sl++) {
		const char *fn = sl ? "isal_deflate_stateless" : "isal_deflate";
		struct misuse *m;
		/* Levels above the maximum (with a level buffer: ISA-L checks the buffer
		 * first). */
		static const uint32_t bad_levels[] = { STOA_DEF_MAX_LEVEL + 1, STOA_DEF_MAX_LEVEL + 2, 100,
			                                       0xffffffffu };
		for (size_t i = 0; i < sizeof(bad_levels) / sizeof(bad_levels[0]); i++) {
			m = misuse_new(sl, bad_levels[i], ISAL_DEF_LVL3_DEFAULT);
			int r = misuse_call(m, sl);
			if (r != ISAL_INVALID_LEVEL)
				VFAIL("%s level %u: %d, expected ISAL_INVALID_LEVEL\n", fn,
					  bad_levels[i], r);
			misuse_free(m);
			checks++;
		}
		/* No level buffer: ISAL_INVALID_LEVEL_BUF. One below the level's minimum:
		 * ISA-L 2.30 returns ISAL_INVALID_LEVEL (the level cannot run in that
		 * buffer). */
		for (uint32_t level = 1; level <= 3; level++) {
			uint32_t min = level_buf_size((int)level, 0);
			if (!(sl && level == 1)) {
				m = misuse_new(sl, level, 0);
				m->s.level_buf_size = min;
				int r = misuse_call(m, sl);
				if (r != ISAL_INVALID_LEVEL_BUF)
					VFAIL("%s level %u with level_buf NULL: %d, expected "
						  "ISAL_INVALID_LEVEL_BUF\n",
						  fn, level, r);
				misuse_free(m);
				checks++;
			}
			const uint32_t smalls[] = { 64, min / 2, min - 1 };
			for (size_t i = 0; i < 3; i++) {
				uint32_t small = smalls[i];
				m = misuse_new(sl, level, small);
				int r = misuse_call(m, sl);
				if (r != ISAL_INVALID_LEVEL)
					VFAIL("%s level %u with a %u-byte level_buf (MIN %u): %d, "
						  "expected ISAL_INVALID_LEVEL\n",
						  fn, level, small, min, r);
				misuse_free(m);
				checks++;
			}
			m = misuse_new(sl, level, min);
			assert_int_equal(misuse_call(m, sl), COMP_OK);
			misuse_free(m);
			checks += 2;
		}
		/* Flush values. */
		for (int fl = 0; fl < 6; fl++) {
			m = misuse_new(sl, 0, 0);
			m->s.flush = (uint16_t)fl;
			int r = misuse_call(m, sl);
			int expect = fl == NO_FLUSH || fl == FULL_FLUSH || (!sl && fl == SYNC_FLUSH)
					     ? COMP_OK
					     : INVALID_FLUSH;
			if (r != expect)
				VFAIL("%s with flush %d: %d, expected %d\n", fn, fl, r, expect);
			misuse_free(m);
			checks++;
		}
	}
	/* Stateless output too small: STATELESS_OVERFLOW at every level, and at the exact size
	 * it succeeds. */
	for (uint32_t level = 0; level <= 3; level++) {
		struct misuse *m = misuse_new(1, level, level_buf_size((int)level, -1));
		int r = isal_deflate_stateless(&m->s);
		assert_int_equal(r, COMP_OK);
		uint32_t need = m->s.total_out;
		misuse_free(m);
		/* The output ends at a guard page: nothing may be written past avail_out. */
		for (uint32_t room = 0; room < need; room += 1 + room / 3) {
			m = misuse_new(1, level, level_buf_size((int)level, -1));
			uint8_t *g = guard_alloc(room, GUARD_BACK);
			m->s.next_out = g;
			m->s.avail_out = room;
			r = isal_deflate_stateless(&m->s);
			if (r != STATELESS_OVERFLOW)
				VFAIL("stateless level %u, %u of %u bytes of room: %d, expected "
					  "STATELESS_OVERFLOW\n",
					  level, room, need, r);
			guard_free(g, room, GUARD_BACK);
			misuse_free(m);
			checks++;
		}
	}
	/* A dictionary or new tables after the stream has taken data. */
	for (uint32_t level = 0; level <= 3; level++) {
		struct misuse *m = misuse_new(0, level, level_buf_size((int)level, -1));
		m->s.end_of_stream = 0;
		assert_int_equal(isal_deflate(&m->s), COMP_OK);
		uint8_t dict[64] = { 1, 2, 3 };
		int r = isal_deflate_set_dict(&m->s, dict, sizeof(dict));
		if (r != ISAL_INVALID_STATE)
			VFAIL("level %u: isal_deflate_set_dict after data returned %d, expected "
				  "ISAL_INVALID_STATE\n",
				  level, r);
		struct isal_dict *pd = xmalloc(sizeof(*pd));
		memset(pd, 0, sizeof(*pd));
		struct misuse *fresh = misuse_new(0, level, level_buf_size((int)level, -1));
		assert_int_equal(isal_deflate_process_dict(&fresh->s, pd, dict, sizeof(dict)),
				 COMP_OK);
		r = isal_deflate_reset_dict(&m->s, pd);
		if (r != ISAL_INVALID_STATE)
			VFAIL("level %u: isal_deflate_reset_dict after data returned %d, "
				  "expected ISAL_INVALID_STATE\n",
				  level, r);
		r = isal_deflate_set_hufftables(&m->s, NULL, IGZIP_HUFFTABLE_STATIC);
		if (r != ISAL_INVALID_OPERATION)
			VFAIL("level %u: isal_deflate_set_hufftables after data returned %d, "
				  "expected ISAL_INVALID_OPERATION\n",
				  level, r);
		/* A processed dictionary used at a different level. */
		fresh->s.level = level == 3 ? 1 : level + 1;
		if (fresh->s.level > 0 && !fresh->lb) {
			fresh->lb = xmalloc(ISAL_DEF_LVL3_DEFAULT);
			fresh->s.level_buf = fresh->lb;
			fresh->s.level_buf_size = ISAL_DEF_LVL3_DEFAULT;
		}
		r = isal_deflate_reset_dict(&fresh->s, pd);
		if (r != ISAL_INVALID_STATE)
			VFAIL("dictionary processed at level %u, reset at level %u: %d, "
				  "expected ISAL_INVALID_STATE\n",
				  level, fresh->s.level, r);
		/* Bad table type and CUSTOM without tables. */
		misuse_free(fresh);
		fresh = misuse_new(0, level, level_buf_size((int)level, -1));
		r = isal_deflate_set_hufftables(&fresh->s, NULL, 7);
		if (r != ISAL_INVALID_OPERATION)
			VFAIL("isal_deflate_set_hufftables type 7: %d\n", r);
		r = isal_deflate_set_hufftables(&fresh->s, NULL, IGZIP_HUFFTABLE_CUSTOM);
		if (r != ISAL_INVALID_OPERATION)
			VFAIL("isal_deflate_set_hufftables CUSTOM with NULL: %d\n", r);
		misuse_free(fresh);
		free(pd);
		misuse_free(m);
		checks += 6;
	}
	/* After a finished stream, more calls change nothing. */
	{
		struct misuse *m = misuse_new(0, 1, ISAL_DEF_LVL1_DEFAULT);
		assert_int_equal(isal_deflate(&m->s), COMP_OK);
		assert_int_equal(m->s.internal_state.state, ZSTATE_END);
		uint32_t tout = m->s.total_out;
		assert_int_equal(isal_deflate(&m->s), COMP_OK);
		assert_int_equal(m->s.total_out, tout);
		misuse_free(m);
		checks++;
	}
	print_message("%u misuse checks: ISAL_INVALID_LEVEL, ISAL_INVALID_LEVEL_BUF, INVALID_FLUSH, "
		      "STATELESS_OVERFLOW at every short output size, ISAL_INVALID_STATE for "
		      "dictionaries after data or at another level, ISAL_INVALID_OPERATION for "
		      "tables after data or bad types; values as ISA-L 2.30 returns them\n",
		      checks);
	if (bad)
		fail();
}

/* ---- Debian's libisal in another process ---------------------------------------------------- */

#define ORACLE_COUNT 60

/* Every result line of a sweep says rc=; enough of them succeeded, decoded and overflowed for the
 * comparison to mean something. */
static void check_oracle_sweep(const struct oracle_output *o)
{
	const char *pos = o->text, *l;
	size_t len, lines = 0, decoded = 0, overflow = 0, flush_checked = 0;
	while ((l = oracle_next_line(&pos, &len, NULL))) {
		lines++;
		const char *line_end = l + len;
		const char *dec = strstr(l, " dec=ok");
		const char *ovf = strstr(l, " rc=-1");
		const char *fp = strstr(l, " flush_points=");
		decoded += dec && dec < line_end;
		overflow += ovf && ovf < line_end;
		flush_checked += fp && fp < line_end && fp[14] != '0';
		const char *bad = strstr(l, "BAD");
		if (bad && bad < line_end)
			TEST_FAIL("zlib could not decode: %.*s\n", (int)len, l);
	}
	print_message("oracle sweep: %zu lines, %zu streams decoded by zlib, %zu overflows, %zu "
		      "streams with flush points checked\n",
		      lines, decoded, overflow, flush_checked);
	assert_true(decoded >= ORACLE_COUNT);
	assert_true(overflow >= ORACLE_COUNT / 2);
	assert_true(flush_checked >= ORACLE_COUNT / 4);
}

static void test_isal_oracle(void **state)
{
	(void)state;
	struct oracle_output sys, ours;
	oracle_run("deflate", ORACLE_SYSTEM, test_seed(), ORACLE_COUNT, &sys);
	oracle_run("deflate", ORACLE_STOA, test_seed(), ORACLE_COUNT, &ours);
	check_oracle_sweep(&sys);
	check_oracle_sweep(&ours);
	size_t n = oracle_compare("libisal", &sys, "stoa", &ours, NULL, NULL);
	print_message("Debian libisal vs stoa: %zu results (return codes, input taken, zlib "
		      "decodes at the end and at every flush, adler32, header bytes) identical\n",
		      n);
	assert_true(n > 3 * ORACLE_COUNT);
	oracle_free(&sys);
	oracle_free(&ours);
}

static void test_compat_abi(void **state)
{
	(void)state;
	size_t n = oracle_check_compat("deflate", test_seed(), ORACLE_COUNT / 3);
	assert_true(n > ORACLE_COUNT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_codes),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_hufftables),
		cmocka_unit_test(test_isal_oracle),
		cmocka_unit_test(test_compat_abi),
	};
	return TEST_MAIN("deflate_api", tests, deflate_suite_setup, deflate_suite_teardown);
}
