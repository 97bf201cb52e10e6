/* Inflate on streams that are wrong: hand-built streams for every error code, buffers that
 * end at guard pages, every truncation point, and random byte flips. */
#include "deflate_ref.h"
#include "inflate_check.h"

/* The code-length code every built header uses: 13 lengths of 4 bits and 6 of 5 (complete). */
static uint8_t pre_len(int sym)
{
	return sym <= 12 ? 4 : 5;
}

/* A dynamic block header. seq holds the code-length symbols (0..18), each followed in seq by its
 * extra-bits value when it is 16, 17 or 18; hlit/hdist are the counts the header announces. */
static void put_dynamic_header(struct ref_bitwriter *b, int bfinal, int hlit, int hdist,
			       const int *seq, size_t nseq)
{
	static const unsigned extra[3] = { 2, 3, 7 };
	uint8_t pl[19];
	uint16_t pc[19];
	for (int i = 0; i < 19; i++)
		pl[i] = pre_len(i);
	ref_canonical(pl, 19, pc);
	ref_putbits(b, (uint32_t)bfinal, 1);
	ref_putbits(b, 2, 2);
	ref_putbits(b, (uint32_t)(hlit - 257), 5);
	ref_putbits(b, (uint32_t)(hdist - 1), 5);
	ref_putbits(b, 15, 4); /* all 19 code-length code lengths */
	for (int i = 0; i < 19; i++)
		ref_putbits(b, pl[ref_clen_order[i]], 3);
	for (size_t i = 0; i < nseq; i++) {
		int s = seq[i];
		ref_putcode(b, pc[s], pl[s]);
		if (s >= 16)
			ref_putbits(b, (uint32_t)seq[++i], extra[s - 16]);
	}
}

/* The plain code-length sequence (no run codes) for lit[0..nlit) and dist[0..ndist). */
static size_t plain_seq(int *seq, const uint8_t *lit, int nlit, const uint8_t *dist, int ndist)
{
	size_t n = 0;
	for (int i = 0; i < nlit; i++)
		seq[n++] = lit[i];
	for (int i = 0; i < ndist; i++)
		seq[n++] = dist[i];
	return n;
}

struct crafted {
	const char *name;
	uint8_t s[2048];
	size_t len;
	int want;             /* the code ISA-L returns, stateless and streaming */
	int want_alt;         /* another acceptable code (0: none) */
	const char *out;      /* expected output when want is ISAL_DECOMP_OK */
};


static size_t build_crafted(struct crafted *c)
{
	size_t n = 0;
	struct ref_bitwriter b;
	uint8_t lit[288], dist[32];
	uint16_t lc[288], dc[32];
	int seq[400];

#define BEGIN(nm, w, alt, o)                                                                       \
	b = (struct ref_bitwriter){ .buf = c[n].s, .cap = sizeof(c[n].s) };                        \
	c[n].name = nm;                                                                            \
	c[n].want = w;                                                                             \
	c[n].want_alt = alt;                                                                       \
	c[n].out = o
#define END() (c[n].len = ref_flush(&b), n++)

	BEGIN("block type 3, final", ISAL_INVALID_BLOCK, 0, NULL);
	ref_putbits(&b, 0x7, 3);
	ref_putbits(&b, 0, 29);
	END();
	BEGIN("block type 3 after a stored block", ISAL_INVALID_BLOCK, 0, NULL);
	ref_putbits(&b, 0, 3);
	ref_putbits(&b, 0, 5);
	ref_putbits(&b, 1, 16);
	ref_putbits(&b, 0xfffe, 16);
	ref_putbits(&b, 'x', 8);
	ref_putbits(&b, 0x7, 3);
	ref_putbits(&b, 0, 29);
	END();
	BEGIN("stored block, NLEN not the complement of LEN", ISAL_INVALID_BLOCK, 0, NULL);
	ref_putbits(&b, 1, 3);
	ref_putbits(&b, 0, 5);
	ref_putbits(&b, 5, 16);
	ref_putbits(&b, 0xfffb, 16);
	for (const char *p = "hello"; *p; p++)
		ref_putbits(&b, (uint8_t)*p, 8);
	END();
	BEGIN("stored block, valid", ISAL_DECOMP_OK, 0, "hello");
	ref_putbits(&b, 1, 3);
	ref_putbits(&b, 0, 5);
	ref_putbits(&b, 5, 16);
	ref_putbits(&b, 0xfffa, 16);
	for (const char *p = "hello"; *p; p++)
		ref_putbits(&b, (uint8_t)*p, 8);
	END();
	for (int sym = 286; sym <= 287; sym++) {
		BEGIN(sym == 286 ? "fixed block, length symbol 286" : "fixed block, length symbol 287",
		      ISAL_INVALID_SYMBOL, 0, NULL);
		ref_putbits(&b, 3, 3);
		ref_putfixed(&b, 'a');
		ref_putfixed(&b, sym);
		ref_putcode(&b, 0, 5);
		ref_putfixed(&b, 256);
		ref_putbits(&b, 0, 32);
		END();
	}
	for (int d = 30; d <= 31; d++) {
		BEGIN(d == 30 ? "fixed block, distance symbol 30" : "fixed block, distance symbol 31",
		      ISAL_INVALID_SYMBOL, 0, NULL);
		ref_putbits(&b, 3, 3);
		ref_putfixed(&b, 'a');
		ref_putfixed(&b, 'b');
		ref_putfixed(&b, 257);
		ref_putcode(&b, (uint32_t)d, 5);
		ref_putfixed(&b, 256);
		ref_putbits(&b, 0, 32);
		END();
	}
	BEGIN("fixed block, distance 2 after one byte", ISAL_INVALID_LOOKBACK, 0, NULL);
	ref_putbits(&b, 3, 3);
	ref_putfixed(&b, 'a');
	ref_putfixed(&b, 257);
	ref_putcode(&b, 1, 5);
	ref_putfixed(&b, 256);
	ref_putbits(&b, 0, 32);
	END();
	BEGIN("fixed block, distance 3 after two bytes (second block)", ISAL_INVALID_LOOKBACK, 0,
	      NULL);
	ref_putbits(&b, 2, 3);
	ref_putfixed(&b, 'a');
	ref_putfixed(&b, 256);
	ref_putbits(&b, 3, 3);
	ref_putfixed(&b, 'b');
	ref_putfixed(&b, 257);
	ref_putcode(&b, 2, 5);
	ref_putfixed(&b, 256);
	ref_putbits(&b, 0, 32);
	END();
	BEGIN("fixed block, distance 2 after two bytes", ISAL_DECOMP_OK, 0, "ababa");
	ref_putbits(&b, 3, 3);
	ref_putfixed(&b, 'a');
	ref_putfixed(&b, 'b');
	ref_putfixed(&b, 257);
	ref_putcode(&b, 1, 5);
	ref_putfixed(&b, 256);
	END();
	BEGIN("fixed block, length 258 by symbol 285 over distance 1", ISAL_DECOMP_OK, 0, NULL);
	ref_putbits(&b, 3, 3);
	ref_putfixed(&b, 'q');
	ref_putfixed(&b, 285);
	ref_putcode(&b, 0, 5);
	ref_putfixed(&b, 256);
	END();

	/* Dynamic blocks: a valid one first, so the builder itself is checked. */
	memset(lit, 0, sizeof(lit));
	memset(dist, 0, sizeof(dist));
	lit['a'] = lit['b'] = lit[256] = lit[257] = 2;
	dist[0] = dist[1] = 1;
	ref_canonical(lit, 258, lc);
	ref_canonical(dist, 2, dc);
	BEGIN("dynamic block, valid", ISAL_DECOMP_OK, 0, "ababa");
	put_dynamic_header(&b, 1, 258, 2, seq, plain_seq(seq, lit, 258, dist, 2));
	ref_putcode(&b, lc['a'], 2);
	ref_putcode(&b, lc['b'], 2);
	ref_putcode(&b, lc[257], 2);
	ref_putcode(&b, dc[1], 1);
	ref_putcode(&b, lc[256], 2);
	END();

	BEGIN("dynamic block, oversubscribed literal/length code", ISAL_INVALID_BLOCK,
	      ISAL_INVALID_SYMBOL, NULL);
	lit['c'] = 2; /* five codes of length 2 */
	put_dynamic_header(&b, 1, 258, 2, seq, plain_seq(seq, lit, 258, dist, 2));
	ref_putbits(&b, 0, 32);
	END();
	lit['c'] = 0;

	BEGIN("dynamic block, oversubscribed distance code", ISAL_INVALID_BLOCK, ISAL_INVALID_SYMBOL,
	      NULL);
	dist[2] = 1;
	put_dynamic_header(&b, 1, 258, 3, seq, plain_seq(seq, lit, 258, dist, 3));
	ref_putbits(&b, 0, 32);
	END();
	dist[2] = 0;

	BEGIN("dynamic block, no code for end-of-block", ISAL_INVALID_BLOCK, ISAL_INVALID_SYMBOL,
	      NULL);
	lit[256] = 0;
	lit['c'] = 2;
	put_dynamic_header(&b, 1, 258, 2, seq, plain_seq(seq, lit, 258, dist, 2));
	ref_putbits(&b, 0, 32);
	END();
	lit[256] = 2;
	lit['c'] = 0;

	BEGIN("dynamic block, repeat code 16 with nothing to repeat", ISAL_INVALID_BLOCK,
	      ISAL_INVALID_SYMBOL, NULL);
	{
		size_t k = 0;
		seq[k++] = 16;
		seq[k++] = 0;
		k += plain_seq(seq + k, lit + 3, 255, dist, 2);
		put_dynamic_header(&b, 1, 258, 2, seq, k);
	}
	ref_putbits(&b, 0, 32);
	END();

	BEGIN("dynamic block, code lengths run past HLIT + HDIST", ISAL_INVALID_BLOCK,
	      ISAL_INVALID_SYMBOL, NULL);
	{
		size_t k = plain_seq(seq, lit, 258, dist, 1);
		seq[k++] = 18; /* 11 + 127 zeros where one length is left */
		seq[k++] = 127;
		put_dynamic_header(&b, 1, 258, 2, seq, k);
	}
	ref_putbits(&b, 0, 32);
	END();

	BEGIN("dynamic block, HLIT announces 287 codes", ISAL_INVALID_BLOCK, ISAL_INVALID_SYMBOL,
	      NULL);
	{
		size_t k = plain_seq(seq, lit, 258, dist, 0);
		for (int i = 258; i < 287; i++)
			seq[k++] = 0;
		k += plain_seq(seq + k, dist, 0, dist, 2);
		put_dynamic_header(&b, 1, 287, 2, seq, k);
	}
	ref_putbits(&b, 0, 32);
	END();

	/* An incomplete literal/length code: 'a' and end-of-block only (lengths 2, 2). The bits
	 * "11" then match no code. ISA-L accepts the header and rejects the symbol; rejecting
	 * the header is as good. */
	BEGIN("dynamic block, bits that match no code of an incomplete code", ISAL_INVALID_SYMBOL,
	      ISAL_INVALID_BLOCK, NULL);
	memset(lit, 0, sizeof(lit));
	lit['a'] = lit[256] = 2;
	put_dynamic_header(&b, 1, 257, 2, seq, plain_seq(seq, lit, 257, dist, 2));
	ref_putbits(&b, 3, 2);
	ref_putbits(&b, 3, 2);
	ref_putbits(&b, 0xffffffff, 32);
	END();
#undef BEGIN
#undef END
	return n;
}

static void test_error_codes(void **state)
{
	(void)state;
	static struct crafted c[40];
	size_t n = build_crafted(c);
	int seen[16] = { 0 };
	for (size_t i = 0; i < n; i++) {
		uint8_t out[512], zout[512];
		size_t zlen;
		int zok = zlib_raw_ok(c[i].s, c[i].len, zout, sizeof(zout), &zlen);
		if (zok != (c[i].want == ISAL_DECOMP_OK))
			TEST_FAIL("%s: zlib %s it: the test's stream builder is wrong\n", c[i].name,
				  zok ? "accepts" : "rejects");
		struct result r1, r2, r3;
		inflate_oneshot(c[i].s, c[i].len, out, sizeof(out), ISAL_DEFLATE, &r1);
		inflate_chunked(c[i].s, c[i].len, out, sizeof(out), ISAL_DEFLATE, 0, NULL, 0, &whole,
				&r2);
		inflate_chunked(c[i].s, c[i].len, out, sizeof(out), ISAL_DEFLATE, 0, NULL, 0,
				&chunkings[3], &r3);
		int ok1 = r1.rc == c[i].want || (c[i].want_alt && r1.rc == c[i].want_alt);
		int ok2 = r2.rc == c[i].want || (c[i].want_alt && r2.rc == c[i].want_alt);
		int ok3 = r3.rc == c[i].want || (c[i].want_alt && r3.rc == c[i].want_alt);
		if (!ok1 || !ok2 || !ok3)
			TEST_FAIL("%s: stateless %d, streaming %d, 1-byte streaming %d (want %d)\n",
				  c[i].name, r1.rc, r2.rc, r3.rc, c[i].want);
		if (c[i].want == ISAL_DECOMP_OK) {
			if (r3.out_len != zlen || memcmp(out, zout, zlen) != 0 ||
			    (c[i].out && (zlen != strlen(c[i].out) || memcmp(zout, c[i].out, zlen))))
				TEST_FAIL("%s: wrong output\n", c[i].name);
		}
		seen[r1.rc + 8] = 1;
	}
	/* Wrapper errors, checksums, truncation and overflow. */
	static const uint8_t data[] = "0123456789 0123456789 0123456789 abcdefghij";
	size_t len = sizeof(data) - 1;
	struct zbuf gz = z_compress(data, len, W_GZIP, 6, 15, Z_DEFAULT_STRATEGY);
	struct zbuf zl = z_compress(data, len, W_ZLIB, 6, 15, Z_DEFAULT_STRATEGY);
	uint8_t buf[256], out[256];
	struct result r;
	memcpy(buf, gz.p, gz.len);
	buf[0] = 0x1e;
	inflate_oneshot(buf, gz.len, out, len, ISAL_GZIP, &r);
	assert_int_equal(r.rc, ISAL_INVALID_WRAPPER);
	seen[r.rc + 8] = 1;
	memcpy(buf, gz.p, gz.len);
	buf[2] = 7;
	inflate_oneshot(buf, gz.len, out, len, ISAL_GZIP, &r);
	assert_int_equal(r.rc, ISAL_UNSUPPORTED_METHOD);
	seen[r.rc + 8] = 1;
	memcpy(buf, zl.p, zl.len);
	buf[zl.len - 1] ^= 1;
	inflate_oneshot(buf, zl.len, out, len, ISAL_ZLIB, &r);
	assert_int_equal(r.rc, ISAL_INCORRECT_CHECKSUM);
	seen[r.rc + 8] = 1;
	inflate_oneshot(gz.p, gz.len - 9, out, len, ISAL_GZIP, &r);
	assert_int_equal(r.rc, ISAL_END_INPUT);
	seen[r.rc + 8] = 1;
	for (size_t cap = 0; cap < len; cap += 7) {
		inflate_oneshot(gz.p, gz.len, out, cap, ISAL_GZIP, &r);
		if (r.rc != ISAL_OUT_OVERFLOW || r.out_len > cap ||
		    memcmp(out, data, r.out_len) != 0)
			TEST_FAIL("stateless into %zu of %zu bytes: rc %d, %zu written\n", cap, len,
				  r.rc, r.out_len);
	}
	seen[ISAL_OUT_OVERFLOW + 8] = 1;
	static const int codes[] = { ISAL_INVALID_BLOCK,    ISAL_INVALID_SYMBOL,
				     ISAL_INVALID_LOOKBACK, ISAL_INVALID_WRAPPER,
				     ISAL_UNSUPPORTED_METHOD, ISAL_INCORRECT_CHECKSUM,
				     ISAL_END_INPUT,        ISAL_OUT_OVERFLOW };
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (!seen[codes[i] + 8])
			TEST_FAIL("error code %d never provoked\n", codes[i]);
	print_message("%zu hand-built streams (zlib agrees on each) give their codes stateless, "
		      "streaming and byte by byte; wrapper, method, checksum, truncation and "
		      "overflow codes: all 8 error codes provoked\n",
		      n);
	free(gz.p);
	free(zl.p);
}

/* One stream decoded from a buffer that ends (or starts) at an inaccessible page into an output
 * buffer that ends exactly at one: stateless and in pieces. Returns the stateless code. */
static int guarded_decode(const uint8_t *s, size_t slen, int flag, size_t out_cap, int where,
			  const uint8_t *data, size_t len, int must_pass)
{
	uint8_t *in = guard_alloc(slen, where), *out = guard_alloc(out_cap, GUARD_BACK);
	memcpy(in, s, slen);
	struct result r;
	inflate_oneshot(in, slen, out, out_cap, flag, &r);
	int rc = r.rc;
	if (must_pass)
		check_result("guarded", "stateless", &r, out, data, len, flag, 0);
	static const size_t picks[] = { 0, 1, 2, 4, 5 };
	for (size_t i = 0; i < 5; i++) {
		if (chunkings[picks[i]].out_step == 1 && out_cap > 100000)
			continue;
		inflate_chunked(in, slen, out, out_cap, flag, 0, NULL, 0, &chunkings[picks[i]], &r);
		if (must_pass)
			check_result("guarded", chunkings[picks[i]].name, &r, out, data, len, flag, 0);
	}
	guard_free(in, slen, where);
	guard_free(out, out_cap, GUARD_BACK);
	return rc;
}

static void test_guard_pages(void **state)
{
	(void)state;
	load_samples();
	const struct test_file *s = find_sample("/fields.c");
	if (!s)
		s = &samples[0];
	size_t len = s->len > 40000 ? 40000 : s->len, cases = 0;
	for (int k = 0; k < 3; k++)
		for (int w = 0; w < 3; w++) {
			int level = k == 0 ? 0 : 6, strat = k == 1 ? Z_FIXED : Z_DEFAULT_STRATEGY;
			struct zbuf b = z_compress(s->data, len, (enum wrapper)w, level, 15, strat);
			int flag = wrapper_flag[w];
			for (int where = 0; where < 2; where++) {
				guarded_decode(b.p, b.len, flag, len, where, s->data, len, 1);
				/* Truncated: never a success, never a fault. */
				for (size_t cut = 1; cut < b.len; cut += 1 + b.len / 9) {
					int rc = guarded_decode(b.p, cut, flag, len, where, s->data,
								len, 0);
					assert_int_not_equal(rc, ISAL_DECOMP_OK);
				}
				/* Corrupt, into an output buffer of the original size. */
				for (int t = 0; t < 8; t++) {
					uint8_t *c = malloc(b.len);
					assert_non_null(c);
					memcpy(c, b.p, b.len);
					c[test_rand_below(b.len)] ^= (uint8_t)(1 + test_rand_below(255));
					guarded_decode(c, b.len, flag, len, where, s->data, len, 0);
					free(c);
				}
				/* Output one byte short. */
				if (len > 0) {
					uint8_t *in = guard_alloc(b.len, where);
					uint8_t *out = guard_alloc(len - 1, GUARD_BACK);
					memcpy(in, b.p, b.len);
					struct result r;
					inflate_oneshot(in, b.len, out, len - 1, flag, &r);
					assert_int_equal(r.rc, ISAL_OUT_OVERFLOW);
					inflate_chunked(in, b.len, out, len - 1, flag, 0, NULL, 0,
							&chunkings[5], &r);
					assert_true(r.rc == ISAL_OUT_OVERFLOW || r.rc == ISAL_END_INPUT);
					assert_int_not_equal(r.block_state, ISAL_BLOCK_FINISH);
					assert_int_equal(r.out_len, len - 1);
					assert_memory_equal(out, s->data, len - 1);
					guard_free(in, b.len, where);
					guard_free(out, len - 1, GUARD_BACK);
				}
				cases++;
			}
			free(b.p);
		}
	print_message("%zu streams (stored / fixed / dynamic x 3 wrappers x input ending and "
		      "starting at a guard page), output ending at a guard page: valid, truncated "
		      "at 9 points, 8 corruptions each, output one byte short\n",
		      cases);
}

/* Every prefix of a small stream: stateless never succeeds; in pieces it never fails (a prefix
 * of a valid stream is not an error yet) and what it writes is a prefix of the data. */
static void test_truncations(void **state)
{
	(void)state;
	uint8_t data[3000];
	test_fill_text(data, sizeof(data));
	test_fill_random(data + 1000, 300);
	uint8_t *out = malloc(sizeof(data));
	assert_non_null(out);
	size_t points = 0;
	int hist[16] = { 0 };
	for (int k = 0; k < 3; k++)
		for (int w = 0; w < 3; w++) {
			int level = k == 0 ? 0 : 6, strat = k == 1 ? Z_FIXED : Z_DEFAULT_STRATEGY;
			struct zbuf b = z_compress(data, sizeof(data), (enum wrapper)w, level, 15,
						   strat);
			for (size_t cut = 0; cut < b.len; cut++) {
				struct result r;
				inflate_oneshot(b.p, cut, out, sizeof(data), wrapper_flag[w], &r);
				if (r.rc == ISAL_DECOMP_OK || r.rc == ISAL_OUT_OVERFLOW)
					TEST_FAIL("%s, %d, first %zu of %zu bytes: stateless rc %d\n",
						  wrapper_name[w], k, cut, b.len, r.rc);
				hist[r.rc + 8]++;
				const struct chunking *ch = &chunkings[cut % 2 ? 1 : 5];
				inflate_chunked(b.p, cut, out, sizeof(data), wrapper_flag[w], 0, NULL,
						0, ch, &r);
				if (r.rc != ISAL_END_INPUT || r.block_state == ISAL_BLOCK_FINISH ||
				    memcmp(out, data, r.out_len) != 0)
					TEST_FAIL("%s, %d, first %zu of %zu bytes, %s: rc %d, "
						  "block_state %d, %zu bytes out%s\n",
						  wrapper_name[w], k, cut, b.len, ch->name, r.rc,
						  r.block_state, r.out_len,
						  memcmp(out, data, r.out_len) ? " (WRONG)" : "");
				points++;
			}
			free(b.p);
		}
	print_message("%zu truncation points (stored / fixed / dynamic x 3 wrappers): stateless "
		      "END_INPUT %d, INVALID_BLOCK %d, INVALID_SYMBOL %d, other errors %d; in "
		      "pieces always waiting for more, output a prefix of the data\n",
		      points, hist[ISAL_END_INPUT + 8], hist[ISAL_INVALID_BLOCK + 8],
		      hist[ISAL_INVALID_SYMBOL + 8],
		      (int)points - hist[ISAL_END_INPUT + 8] - hist[ISAL_INVALID_BLOCK + 8] -
			  hist[ISAL_INVALID_SYMBOL + 8]);
	free(out);
}

/* Random byte flips: every decode ends (bounded, with progress on each call), within its
 * buffers; when both the one-call and the piecewise decode succeed they agree. */
static void test_corruptions(void **state)
{
	(void)state;
	load_samples();
	const struct test_file *s = find_sample("/paper4");
	if (!s)
		s = &samples[0];
	size_t len = s->len > 12000 ? 12000 : s->len, trials = quick ? 300 : 1500;
	size_t cap = 2 * len + 1024, failed = 0, passed = 0;
	uint8_t *o1 = malloc(cap), *o2 = malloc(cap);
	assert_true(o1 && o2);
	struct zbuf b[6];
	for (int i = 0; i < 6; i++)
		b[i] = z_compress(s->data, len, (enum wrapper)(i % 3), i < 3 ? 6 : 1, 15,
				  i < 3 ? Z_DEFAULT_STRATEGY : Z_FIXED);
	for (size_t t = 0; t < trials; t++) {
		int i = (int)test_rand_below(6), w = i % 3;
		uint8_t *c = malloc(b[i].len);
		assert_non_null(c);
		memcpy(c, b[i].p, b[i].len);
		int flips = 1 + (int)test_rand_below(3);
		for (int f = 0; f < flips; f++)
			c[test_rand_below(b[i].len)] ^= (uint8_t)(1 + test_rand_below(255));
		struct result r1, r2;
		inflate_oneshot(c, b[i].len, o1, cap, wrapper_flag[w], &r1);
		inflate_chunked(c, b[i].len, o2, cap, wrapper_flag[w], 0, NULL, 0,
				random_chunking(b[i].len), &r2);
		if (r1.rc == ISAL_DECOMP_OK && r2.rc == ISAL_DECOMP_OK &&
		    (r1.out_len != r2.out_len || memcmp(o1, o2, r1.out_len) != 0))
			TEST_FAIL("corrupt stream %zu: both succeed with different output\n", t);
		if (r1.rc == ISAL_DECOMP_OK && w != W_RAW && r1.out_len == len &&
		    memcmp(o1, s->data, len) != 0)
			TEST_FAIL("corrupt stream %zu: wrong data passed the %s checksum\n", t,
				  wrapper_name[w]);
		failed += r1.rc != ISAL_DECOMP_OK;
		passed += r1.rc == ISAL_DECOMP_OK;
		free(c);
	}
	print_message("%zu corrupted streams (1-3 random bytes): %zu rejected, %zu still decode "
		      "(flips in gzip header fields, padding, or raw data); no hang, no overrun\n",
		      trials, failed, passed);
	for (int i = 0; i < 6; i++)
		free(b[i].p);
	free(o1);
	free(o2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_codes),
		cmocka_unit_test(test_guard_pages),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_corruptions),
	};
	return TEST_MAIN("inflate_corrupt", tests, inflate_suite_setup, NULL);
}
