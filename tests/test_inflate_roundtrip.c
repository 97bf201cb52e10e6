/* Inflate round trips: both corpora compressed by zlib (every level, strategy, window and
 * wrapper), libdeflate and the gzip command, decoded in one call and under every way of
 * splitting input and output; block headers split across calls; empty streams; several gzip
 * members. */
#include "deflate_ref.h"
#include "inflate_check.h"
#include "igzip/inflate_internal.h"

static const int strategies[] = { Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED };
static const char *const strategy_name[] = { "default", "filtered", "huffman-only", "rle",
					     "fixed" };

static void zlib_case(const struct test_file *s, int level, int strat, int wbits, enum wrapper w,
		      const struct chunking *ch)
{
	struct zbuf b = z_compress(s->data, s->len, w, level, wbits, strategies[strat]);
	char what[200];
	snprintf(what, sizeof(what), "%s zlib level %d %s wbits %d %s (%zu -> %zu bytes)", s->name,
		 level, strategy_name[strat], wbits, wrapper_name[w], s->len, b.len);
	check_stream(what, b.p, b.len, wrapper_flag[w], s->data, s->len, ch);
	free(b.p);
}

static void test_zlib_matrix(void **state)
{
	(void)state;
	load_samples();
	double t0 = now_seconds();
	const struct test_file *small[4];
	size_t nsmall = small_samples(small, quick ? 1 : 3), before = roundtrips;
	for (size_t f = 0; f < nsmall; f++)
		for (int level = 0; level <= 9; level++)
			for (int st = 0; st < 5; st++)
				for (int wbits = 9; wbits <= 15; wbits++)
					for (int w = 0; w < 3; w++)
						zlib_case(small[f], level, st, wbits, (enum wrapper)w,
							  random_chunking(small[f]->len));
	size_t full = roundtrips - before;
	before = roundtrips;
	int per_file = quick ? 2 : 6;
	for (size_t i = 0; i < nsamples; i++) {
		zlib_case(&samples[i], 6, 0, 15, W_GZIP, random_chunking(samples[i].len));
		for (int k = 0; k < per_file; k++)
			zlib_case(&samples[i], (int)test_rand_below(10), (int)test_rand_below(5),
				  9 + (int)test_rand_below(7), (enum wrapper)test_rand_below(3),
				  random_chunking(samples[i].len));
	}
	print_message("zlib: full matrix (levels 0-9 x 5 strategies x wbits 9-15 x raw/zlib/gzip) "
		      "on %zu files = %zu streams; %zu sampled streams over all %zu files; each "
		      "stateless and in pieces (%.1f s)\n",
		      nsmall, full, roundtrips - before, nsamples, now_seconds() - t0);
}

static void ld_case(const struct test_file *s, int level, enum wrapper w)
{
	struct zbuf b = ld_compress(s->data, s->len, w, level);
	char what[200];
	snprintf(what, sizeof(what), "%s libdeflate level %d %s (%zu -> %zu bytes)", s->name,
		 level, wrapper_name[w], s->len, b.len);
	check_stream(what, b.p, b.len, wrapper_flag[w], s->data, s->len, random_chunking(s->len));
	free(b.p);
}

static void test_libdeflate(void **state)
{
	(void)state;
	load_samples();
	double t0 = now_seconds();
	const struct test_file *small[4];
	size_t nsmall = small_samples(small, 3), before = roundtrips;
	for (size_t f = 0; f < nsmall; f++)
		for (int level = 1; level <= 12; level++)
			for (int w = 0; w < 3; w++)
				ld_case(small[f], level, (enum wrapper)w);
	size_t full = roundtrips - before;
	before = roundtrips;
	for (size_t i = 0; i < nsamples; i++)
		for (int k = 0; k < (quick ? 1 : 3); k++)
			ld_case(&samples[i], 1 + (int)test_rand_below(12),
				(enum wrapper)test_rand_below(3));
	print_message("libdeflate: levels 1-12 x 3 wrappers on %zu files = %zu streams, %zu "
		      "sampled over all files (%.1f s)\n",
		      nsmall, full, roundtrips - before, now_seconds() - t0);
}

static void gzip_case(const struct test_file *s, int level)
{
	struct zbuf b = gzip_cmd(s->data, s->len, level);
	char what[200];
	snprintf(what, sizeof(what), "%s gzip -%d (%zu -> %zu bytes)", s->name, level, s->len,
		 b.len);
	check_stream(what, b.p, b.len, ISAL_GZIP, s->data, s->len, random_chunking(s->len));
	free(b.p);
}

static void test_gzip_command(void **state)
{
	(void)state;
	load_samples();
	double t0 = now_seconds();
	const struct test_file *small[4];
	size_t nsmall = small_samples(small, 2), before = roundtrips;
	for (size_t f = 0; f < nsmall; f++)
		for (int level = 1; level <= 9; level++)
			gzip_case(small[f], level);
	for (size_t i = 0; i < nsamples; i++)
		gzip_case(&samples[i], 1 + (int)test_rand_below(9));
	print_message("gzip command: -1..-9 on %zu files and one random level on every file: %zu "
		      "streams (%.1f s)\n",
		      nsmall, roundtrips - before, now_seconds() - t0);
}

/* The first block header's BTYPE (RFC 1951 3.2.3) of a zlib-made stream. */
static int first_btype(const struct zbuf *b, enum wrapper w)
{
	size_t at = w == W_RAW ? 0 : w == W_ZLIB ? 2 : 10;
	assert_true(b->len > at);
	return (b->p[at] >> 1) & 3;
}

/* Every chunking, for stored, fixed and dynamic blocks and every wrapper: the same bytes, crc and
 * end state as one call. */
static void test_chunkings(void **state)
{
	(void)state;
	load_samples();
	double t0 = now_seconds();
	static const struct {
		const char *name;
		int level, strategy, btype;
	} kinds[] = {
		{ "stored", 0, Z_DEFAULT_STRATEGY, 0 },
		{ "fixed", 6, Z_FIXED, 1 },
		{ "dynamic", 6, Z_DEFAULT_STRATEGY, 2 },
	};
	const struct test_file *picks[3];
	size_t np = small_samples(picks, 2);
	const struct test_file *big = find_sample("/paper1");
	picks[np++] = big ? big : &samples[0];
	size_t before = roundtrips;
	for (size_t f = 0; f < np; f++) {
		size_t len = picks[f]->len > 65536 ? 65536 : picks[f]->len;
		struct test_file cut = *picks[f];
		cut.len = len;
		for (size_t k = 0; k < 3; k++)
			for (int w = 0; w < 3; w++) {
				struct zbuf b = z_compress(cut.data, len, (enum wrapper)w,
							   kinds[k].level, 15, kinds[k].strategy);
				assert_int_equal(first_btype(&b, (enum wrapper)w), kinds[k].btype);
				for (size_t c = 0; c < N_CHUNKINGS; c++) {
					char what[200];
					snprintf(what, sizeof(what), "%s (%zu bytes) %s %s", cut.name,
						 len, kinds[k].name, wrapper_name[w]);
					check_stream(what, b.p, b.len, wrapper_flag[w], cut.data, len,
						     &chunkings[c]);
				}
				free(b.p);
			}
	}
	print_message("%zu streams (stored / fixed / dynamic x raw / zlib / gzip) x %zu "
		      "chunkings incl. 1-byte input and output: identical to one call (%.1f s)\n",
		      (roundtrips - before) / N_CHUNKINGS, N_CHUNKINGS, now_seconds() - t0);
}

/* One isal_inflate call per piece (pieces end at cuts[0] < cuts[1] < ... < in_len), all the
 * output room at once: every call returns ISAL_DECOMP_OK, the last ends the stream with all its
 * input used, and the output is want. Returns 0, or 1 after printing what went wrong. */
static int split_decode(const char *what, const uint8_t *in, size_t in_len, int flag,
			const size_t *cuts, size_t ncuts, const uint8_t *want, size_t want_len,
			uint8_t *out, size_t cap)
{
	struct inflate_state *st = new_state();
	isal_inflate_init(st);
	st->crc_flag = (uint32_t)flag;
	st->next_out = out;
	st->avail_out = (uint32_t)cap;
	size_t from = 0;
	int bad = 0;
	for (size_t k = 0; k <= ncuts && !bad; k++) {
		size_t to = k < ncuts ? cuts[k] : in_len;
		st->next_in = (uint8_t *)(uintptr_t)(in + from);
		st->avail_in = (uint32_t)(to - from);
		int rc = isal_inflate(st);
		if (rc != ISAL_DECOMP_OK) {
			print_error("%s: piece %zu (bytes %zu..%zu) returned %d, block_state %d, "
				    "%u bytes out so far\n",
				    what, k, from, to, rc, (int)st->block_state, st->total_out);
			bad = 1;
		} else if (k < ncuts && st->block_state == ISAL_BLOCK_FINISH) {
			print_error("%s: stream finished in piece %zu (bytes %zu..%zu)\n", what, k,
				    from, to);
			bad = 1;
		}
		from = to;
	}
	size_t got = (size_t)(st->next_out - out);
	if (!bad && (st->block_state != ISAL_BLOCK_FINISH || st->avail_in != 0 ||
		     got != want_len || memcmp(out, want, want_len) != 0)) {
		print_error("%s: block_state %d (want %d), %u input bytes left, %zu of %zu bytes "
			    "out, %s\n",
			    what, (int)st->block_state, (int)ISAL_BLOCK_FINISH, st->avail_in, got,
			    want_len,
			    got == want_len && memcmp(out, want, want_len) == 0 ? "same data"
										: "other data");
		bad = 1;
	}
	free(st);
	return bad;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* A dynamic-block stream (zlib -6, several blocks) given in two pieces cut at every one of its
 * first 400 bytes, so each bit of the first block header (and the gzip header) falls at the end
 * of a piece once; then in three pieces cut at random places over the whole stream, so later
 * block headers get split too. A block header split across input chunks once came back as
 * ISAL_INVALID_BLOCK. */
static void test_split_headers(void **state)
{
	(void)state;
	load_samples();
	double t0 = now_seconds();
	const struct test_file *s = find_sample("/paper1");
	if (!s)
		s = find_sample("/alice29.txt");
	if (!s)
		s = &samples[0];
	size_t len = s->len > 96 * 1024 ? 96 * 1024 : s->len;
	size_t cap = len + 1024;
	uint8_t *out = malloc(cap);
	assert_non_null(out);
	size_t random_runs = quick ? 300 : 1500, cases = 0;
	int failures = 0;
	static const enum wrapper ws[] = { W_RAW, W_GZIP };
	for (size_t wi = 0; wi < 2; wi++) {
		enum wrapper w = ws[wi];
		struct zbuf b = z_compress(s->data, len, w, 6, 15, Z_DEFAULT_STRATEGY);
		assert_int_equal(first_btype(&b, w), 2);
		char what[200];
		size_t upto = b.len - 1 < 400 ? b.len - 1 : 400;
		for (size_t cut = 1; cut <= upto && failures < 10; cut++) {
			snprintf(what, sizeof(what), "%s (%zu bytes) zlib -6 %s, %zu-byte stream cut "
				 "at %zu", s->name, len, wrapper_name[w], b.len, cut);
			failures += split_decode(what, b.p, b.len, wrapper_flag[w], &cut, 1, s->data,
						 len, out, cap);
			cases++;
		}
		for (size_t r = 0; r < random_runs && failures < 10; r++) {
			size_t cuts[2];
			do {
				cuts[0] = 1 + (size_t)test_rand_below(b.len - 1);
				cuts[1] = 1 + (size_t)test_rand_below(b.len - 1);
			} while (cuts[0] == cuts[1]);
			qsort(cuts, 2, sizeof(cuts[0]), cmp_size);
			snprintf(what, sizeof(what), "%s (%zu bytes) zlib -6 %s, %zu-byte stream cut "
				 "at %zu and %zu", s->name, len, wrapper_name[w], b.len, cuts[0],
				 cuts[1]);
			failures += split_decode(what, b.p, b.len, wrapper_flag[w], cuts, 2, s->data,
						 len, out, cap);
			cases++;
		}
		free(b.p);
	}
	free(out);
	if (failures)
		TEST_FAIL("%d split streams decoded wrongly (the first ones above)\n", failures);
	print_message("%zu decodes of a dynamic-block stream of %s (raw and gzip) in 2 pieces cut "
		      "at each of the first 400 bytes and in 3 pieces cut at random: same output, "
		      "ISAL_BLOCK_FINISH (%.2f s)\n",
		      cases, s->name, now_seconds() - t0);
}

static void test_empty_streams(void **state)
{
	(void)state;
	for (int w = 0; w < 3; w++)
		for (int level = 0; level <= 9; level += 3) {
			struct zbuf b = z_compress((const uint8_t *)"", 0, (enum wrapper)w, level, 15,
						   Z_DEFAULT_STRATEGY);
			for (size_t c = 0; c < N_CHUNKINGS; c++)
				check_stream("empty zlib stream", b.p, b.len, wrapper_flag[w],
					     (const uint8_t *)"", 0, &chunkings[c]);
			free(b.p);
		}
	/* A final empty fixed block; a final empty stored block; an empty dynamic block
	 * (libdeflate's choice is checked through ld_compress below). */
	static const uint8_t fixed_empty[] = { 0x03, 0x00 };
	static const uint8_t stored_empty[] = { 0x01, 0x00, 0x00, 0xff, 0xff };
	check_stream("fixed empty block", fixed_empty, sizeof(fixed_empty), ISAL_DEFLATE,
		     (const uint8_t *)"", 0, &chunkings[3]);
	check_stream("stored empty block", stored_empty, sizeof(stored_empty), ISAL_DEFLATE,
		     (const uint8_t *)"", 0, &chunkings[3]);
	for (int w = 0; w < 3; w++) {
		struct zbuf b = ld_compress((const uint8_t *)"", 0, (enum wrapper)w, 6);
		check_stream("empty libdeflate stream", b.p, b.len, wrapper_flag[w],
			     (const uint8_t *)"", 0, &chunkings[1]);
		free(b.p);
	}
	print_message("empty streams: zlib (4 levels x 3 wrappers x %zu chunkings), fixed and "
		      "stored empty final blocks, libdeflate: 0 bytes, crc of nothing\n",
		      N_CHUNKINGS);
}

/* A distance-1 match of len bytes in the fixed code. */
static void fixed_len_dist1(struct ref_bitwriter *w, unsigned len)
{
	int i = 28;
	while (len < ref_len_base[i])
		i--;
	ref_putfixed(w, 257 + (unsigned)i);
	ref_putbits(w, len - ref_len_base[i], ref_len_extra[i]);
	ref_putcode(w, 0, 5); /* distance 1 */
}

/* Runs of distance-1 matches appending n >= 3 bytes equal to the last one. */
static void fixed_run(struct ref_bitwriter *w, size_t n, uint8_t *out, size_t *pos)
{
	memset(out + *pos, out[*pos - 1], n);
	*pos += n;
	while (n) {
		const size_t len = n > 261 ? 258 : n <= 258 ? n : n - 3;
		fixed_len_dist1(w, (unsigned)len);
		n -= len;
	}
}

/* Streams of: a fixed block of j 9-bit literals (shifting the bit alignment of what follows),
 * 'a', distance-1 runs to p - 1 and two literals, so that its last step takes the output from
 * p - 1 to p + 1 and reads the end of block with them; then a stored block of `stored` bytes
 * (final when last, else a final fixed block follows up to `total` bytes). Returns the raw
 * stream's length; the data is in data[0 .. *n). */
static size_t pause_stream(uint8_t *raw, size_t cap, uint8_t *data, size_t *n, size_t p, int j,
                           size_t stored, int last, size_t total)
{
	struct ref_bitwriter w = { raw, cap, 0, 0, 0 };
	size_t k = 0;
	ref_putbits(&w, 0, 1);
	ref_putbits(&w, 1, 2);
	for (int i = 0; i < j; i++) {
		data[k++] = 0xaa;
		ref_putfixed(&w, 0xaa);
	}
	data[k++] = 'a';
	ref_putfixed(&w, 'a');
	fixed_run(&w, p - 1 - k, data, &k);
	data[k++] = 'x';
	ref_putfixed(&w, 'x');
	data[k++] = 'y';
	ref_putfixed(&w, 'y');
	ref_putcode(&w, 0, 7);
	ref_putbits(&w, (uint32_t)last, 1);
	ref_putbits(&w, 0, 2);
	ref_flush(&w);
	w.buf[w.n++] = (uint8_t)stored;
	w.buf[w.n++] = (uint8_t)(stored >> 8);
	w.buf[w.n++] = (uint8_t)~stored;
	w.buf[w.n++] = (uint8_t)(~stored >> 8);
	for (size_t i = 0; i < stored; i++)
		w.buf[w.n++] = data[k++] = (uint8_t)(0x41 + i % 29);
	if (!last) {
		ref_putbits(&w, 1, 1);
		ref_putbits(&w, 1, 2);
		fixed_run(&w, total - k, data, &k);
		ref_putcode(&w, 0, 7);
	}
	*n = k;
	return ref_flush(&w);
}

/* raw wrapped as wrapper wr says into out; returns the length. */
static size_t wrap_raw(const uint8_t *raw, size_t rlen, const uint8_t *data, size_t n, int wr,
                       uint8_t *out)
{
	static const uint8_t gz[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	size_t m = 0;
	if (wr == W_ZLIB) {
		out[m++] = 0x78;
		out[m++] = 0x01;
	} else if (wr == W_GZIP) {
		memcpy(out, gz, sizeof(gz));
		m = sizeof(gz);
	}
	memcpy(out + m, raw, rlen);
	m += rlen;
	if (wr == W_ZLIB) {
		put_be32(out + m, (uint32_t)adler32(1, data, (uInt)n));
		m += 4;
	} else if (wr == W_GZIP) {
		put_le32(out + m, (uint32_t)crc32(0, data, (uInt)n));
		put_le32(out + m + 4, (uint32_t)n);
		m += 8;
	}
	return m;
}

/* A coded block whose last step takes the output a byte past a point where the decoder pauses
 * (the 64 KiB at which stateless output is checksummed; the end of what a streaming call
 * decodes into the state's buffer) and reads its end of block too, then a stored block: the
 * decoder must pause there, not start the stored copy with the pause point, now behind the
 * output, as its end (isal_inflate_stateless of a checksummed stream then failed with
 * ISAL_END_INPUT, isal_inflate returned early: STOA_SEED=14578915418947 in
 * test_deflate_bounds, a zlib-wrapped level-0 stream with SYNC_FLUSH). Pause points 64 KiB and
 * around, and near the first streaming pauses with 1 and 300 bytes of output room; every
 * alignment of the stored block, short and 65535 bytes; every wrapper; in one call (also one
 * byte short, at a guard page: a stop with what fits) and every chunking. */
/* Stored blocks of random bytes and coded blocks whose matches reach back into them, up to the
 * whole window, inflated in pieces around the direct path's threshold (16 KiB) and below it: the
 * history that stored output leaves in the state grows by appending until the buffer is full and
 * is then compacted, and a coded block after it must find every byte where it was. */
static void test_stored_history(void **state)
{
	(void)state;
	const size_t rand_len[] = { 40000, 70000, 9000, 33000, 16384, 120000 };
	const size_t nseg = sizeof(rand_len) / sizeof(rand_len[0]), echo_len = 30000;
	size_t total = 0;
	for (size_t i = 0; i < nseg; i++)
		total += rand_len[i] + echo_len;
	uint8_t *data = malloc(total);
	assert_non_null(data);
	for (int w = W_ZLIB; w <= W_GZIP; w++) {
		z_stream zs;
		memset(&zs, 0, sizeof(zs));
		assert_int_equal(deflateInit2(&zs, 0, Z_DEFLATED, w == W_GZIP ? 31 : 15, 8,
		                              Z_DEFAULT_STRATEGY),
		                 Z_OK);
		const size_t cap = deflateBound(&zs, total) + 4096;
		uint8_t *z = malloc(cap);
		assert_non_null(z);
		zs.next_out = z;
		zs.avail_out = (uInt)cap;
		size_t k = 0;
		for (size_t i = 0; i < nseg; i++) {
			/* Random bytes at level 0 (stored blocks), then an echo of the window at
			 * level 6: matches of 3-258 bytes from 1 to 32768 back, a few literals. */
			const size_t r0 = k;
			for (size_t j = 0; j < rand_len[i]; j++)
				data[k++] = (uint8_t)test_rand_below(256);
			const size_t e0 = k;
			while (k < e0 + echo_len) {
				size_t len = 3 + test_rand_below(256);
				size_t dist = 1 + test_rand_below(k < 32768 ? (uint32_t)k : 32768);
				if (len > e0 + echo_len - k)
					len = e0 + echo_len - k;
				for (size_t j = 0; j < len; j++, k++)
					data[k] = data[k - dist];
				if (k < e0 + echo_len && test_rand_below(4) == 0)
					data[k++] = (uint8_t)test_rand_below(256);
			}
			assert_int_equal(deflateParams(&zs, 0, Z_DEFAULT_STRATEGY), Z_OK);
			zs.next_in = data + r0;
			zs.avail_in = (uInt)(e0 - r0);
			assert_int_equal(deflate(&zs, Z_NO_FLUSH), Z_OK);
			assert_int_equal(deflateParams(&zs, 6, Z_DEFAULT_STRATEGY), Z_OK);
			zs.next_in = data + e0;
			zs.avail_in = (uInt)(k - e0);
			assert_int_equal(deflate(&zs, i + 1 < nseg ? Z_NO_FLUSH : Z_FINISH),
			                 i + 1 < nseg ? Z_OK : Z_STREAM_END);
		}
		assert_int_equal(k, total);
		const size_t zlen = zs.total_out;
		deflateEnd(&zs);
		static const struct chunking ways[] = {
			{ "16 KiB in / 16 KiB out", 16384, 16384, 0 },
			{ "in all / out 20000", 0, 20000, 0 },
			{ "in all / out 16383", 0, 16383, 0 },
			{ "in all / out 1..40000", 0, 40000, 1 },
			{ "in 1..4096 / out 1..40000", 4096, 40000, 1 },
			{ "16 KiB in / 64 KiB out", 16384, 65536, 0 },
		};
		for (size_t c = 0; c < sizeof(ways) / sizeof(ways[0]); c++)
			check_stream("stored blocks, then matches into them", z, zlen,
			             wrapper_flag[w], data, total, &ways[c]);
		free(z);
	}
	free(data);
}

static void test_stored_after_pause(void **state)
{
	(void)state;
	const size_t total = 140000, cap = 240000;
	uint8_t *data = malloc(cap), *raw = malloc(cap), *wrapped = malloc(cap + 32);
	assert_true(data && raw && wrapped);
	static const size_t points[] = { 65536, 65535, 65537, 2049, 2348 };
	size_t streams = 0;
	for (size_t k = 0; k < sizeof(points) / sizeof(points[0]); k++)
		for (int j = 0; j < 8; j++)
			for (int last = 0; last < 2; last++) {
				const size_t p = points[k], stored = last ? 65535 : 29;
				size_t n;
				const size_t rlen =
				    pause_stream(raw, cap, data, &n, p, j, stored, last, total);
				uint8_t *zo = malloc(n + 1);
				size_t zn = 0;
				assert_non_null(zo);
				if (!zlib_raw_ok(raw, rlen, zo, n + 1, &zn) || zn != n ||
				    memcmp(zo, data, n))
					TEST_FAIL("pause point %zu: zlib does not decode the "
					          "hand-built stream\n",
					          p);
				free(zo);
				for (int wr = 0; wr < 3; wr++) {
					const size_t m = wrap_raw(raw, rlen, data, n, wr, wrapped);
					char what[120];
					snprintf(what, sizeof(what),
					         "pause point %zu, %d-bit shift, stored %zu, %s", p,
					         j, stored, wrapper_name[wr]);
					/* Every chunking for two alignments, one call for the rest.
					 */
					const size_t nch = j % 4 == 0 && !quick ? N_CHUNKINGS : 1;
					for (size_t c = 0; c < nch; c++, streams++)
						check_stream(what, wrapped, m, wrapper_flag[wr],
						             data, n, &chunkings[c]);
					uint8_t *o = guard_alloc(n - 1, GUARD_BACK);
					struct result r;
					inflate_oneshot(wrapped, m, o, n - 1, wrapper_flag[wr], &r);
					if (r.rc != ISAL_OUT_OVERFLOW || r.out_len > n - 1 ||
					    memcmp(o, data, r.out_len))
						TEST_FAIL("%s, one byte short: rc %d, %zu bytes\n",
						          what, r.rc, r.out_len);
					guard_free(o, n - 1, GUARD_BACK);
				}
			}
	print_message(
	    "stored block after a coded block ending a byte past a pause point: %zu "
	    "decodes (pause points, alignments, stored lengths, wrappers, chunkings) give "
	    "the data; one byte short of it, ISAL_OUT_OVERFLOW\n",
	    streams);
	free(data);
	free(raw);
	free(wrapped);
}

/* Several gzip members back to back, one of them empty: decode one, reset, continue where the
 * previous member ended. */
static void test_multi_member_gzip(void **state)
{
	(void)state;
	load_samples();
	const struct test_file *a = &samples[0], *b = &samples[nsamples > 1 ? 1 : 0];
	struct zbuf m[4] = {
		z_compress(a->data, a->len, W_GZIP, 6, 15, Z_DEFAULT_STRATEGY),
		z_compress((const uint8_t *)"", 0, W_GZIP, 6, 15, Z_DEFAULT_STRATEGY),
		ld_compress(b->data, b->len, W_GZIP, 9),
		z_compress(a->data, a->len / 3, W_GZIP, 0, 15, Z_DEFAULT_STRATEGY),
	};
	const uint8_t *want[4] = { a->data, (const uint8_t *)"", b->data, a->data };
	size_t want_len[4] = { a->len, 0, b->len, a->len / 3 };
	size_t total = 0;
	for (int i = 0; i < 4; i++)
		total += m[i].len;
	uint8_t *all = malloc(total), *out = malloc(a->len + b->len + 1);
	assert_true(all && out);
	for (size_t i = 0, at = 0; i < 4; at += m[i].len, i++)
		memcpy(all + at, m[i].p, m[i].len);

	for (size_t c = 0; c < N_CHUNKINGS; c++) {
		if (chunkings[c].in_step == 1 && chunkings[c].out_step == 1 && quick)
			continue;
		struct inflate_state *st = new_state();
		isal_inflate_init(st);
		st->crc_flag = ISAL_GZIP;
		st->next_in = all;
		for (int i = 0; i < 4; i++) {
			struct result r;
			const uint8_t *from = st->next_in;
			run_stream(st, all, total, out, want_len[i] + 1, &chunkings[c], &r);
			if (r.rc != ISAL_DECOMP_OK || r.out_len != want_len[i] ||
			    memcmp(out, want[i], want_len[i]) != 0 ||
			    r.crc != (uint32_t)crc32(0, want[i], (uInt)want_len[i]))
				TEST_FAIL("member %d, %s: rc %d, %zu bytes (want %zu), crc 0x%08x\n", i,
					  chunkings[c].name, r.rc, r.out_len, want_len[i], r.crc);
			/* The member ends exactly after its trailer. */
			assert_ptr_equal(st->next_in, from + m[i].len);
			isal_inflate_reset(st);
			assert_int_equal(st->crc_flag, ISAL_GZIP);
		}
		assert_ptr_equal(st->next_in, all + total);
		free(st);
	}
	/* Stateless, member by member. */
	const uint8_t *p = all;
	for (int i = 0; i < 4; i++) {
		struct result r;
		size_t left = (size_t)(all + total - p);
		inflate_oneshot(p, left, out, want_len[i], ISAL_GZIP, &r);
		check_result("stateless member", "stateless", &r, out, want[i], want_len[i],
			     ISAL_GZIP, left - m[i].len);
		p += m[i].len;
	}
	print_message("4 gzip members (one empty) in one buffer: decoded one by one with "
		      "isal_inflate_reset between them, under every chunking and stateless\n");
	for (int i = 0; i < 4; i++)
		free(m[i].p);
	free(all);
	free(out);
}

/* Random code lengths: a complete code (Kraft sum 1) of `used` leaves up to maxl bits long,
 * grown by splitting random leaves, on random symbols of n; one code of one bit where `used` or
 * n is below 2. */
static void random_lengths(uint8_t *lens, unsigned n, unsigned used, unsigned maxl)
{
	unsigned len[320], k = 2, perm[320];
	memset(lens, 0, n);
	if (used < 2 || n < 2) {
		/* One code of one bit: the incomplete code RFC 1951 allows for distances. */
		lens[test_rand_below(n)] = 1;
		return;
	}
	len[0] = len[1] = 1;
	while (k < used) {
		unsigned i = (unsigned)test_rand_below(k);
		for (unsigned j = 0; len[i] >= maxl && j < k; j++)
			i = j;
		if (len[i] >= maxl)
			break;
		len[i]++;
		len[k++] = len[i];
	}
	for (unsigned i = 0; i < n; i++)
		perm[i] = i;
	for (unsigned i = n - 1; i > 0; i--) {
		unsigned j = (unsigned)test_rand_below(i + 1), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (unsigned i = 0; i < k; i++)
		lens[perm[i]] = (uint8_t)len[i];
}

/* A dynamic block's header with the code lengths of lens (hlit + hdist of them, sent plainly);
 * lc and dc get the codes. */
static void dynamic_header(struct ref_bitwriter *w, const uint8_t *lens, unsigned hlit,
			   unsigned hdist, int final, uint16_t *lc, uint16_t *dc)
{
	uint8_t pl[19];
	uint16_t pc[19];
	for (int i = 0; i < 19; i++)
		pl[i] = i <= 12 ? 4 : 5; /* 13 codes of 4 bits and 6 of 5: complete */
	ref_canonical(pl, 19, pc);
	ref_canonical(lens, (int)hlit, lc);
	ref_canonical(lens + hlit, (int)hdist, dc);
	ref_putbits(w, (uint32_t)final, 1);
	ref_putbits(w, 2, 2);
	ref_putbits(w, hlit - 257, 5);
	ref_putbits(w, hdist - 1, 5);
	ref_putbits(w, 15, 4);
	for (int i = 0; i < 19; i++)
		ref_putbits(w, pl[ref_clen_order[i]], 3);
	for (unsigned i = 0; i < hlit + hdist; i++)
		ref_putcode(w, pc[lens[i]], pl[lens[i]]);
}

/* One dynamic block with the code lengths of lens (see dynamic_header) and `tokens` symbols
 * drawn from the code at random (a literal where the drawn distance reaches before the data),
 * fewer where out (cap bytes) would fill. Appends the block to w and its data to out (*n bytes
 * so far). */
static void random_block(struct ref_bitwriter *w, const uint8_t *lens, unsigned hlit,
			 unsigned hdist, size_t tokens, int final, uint8_t *out, size_t cap, size_t *n)
{
	uint16_t lc[288], dc[32];
	dynamic_header(w, lens, hlit, hdist, final, lc, dc);
	unsigned lits[256], nlit = 0, syms[288], nsym = 0, dsyms[32], nd = 0;
	for (unsigned s = 0; s < hlit; s++)
		if (lens[s] && s != 256) {
			syms[nsym++] = s;
			if (s < 256)
				lits[nlit++] = s;
		}
	for (unsigned s = 0; s < hdist && s < 30; s++)
		if (lens[hlit + s])
			dsyms[nd++] = s;
	for (size_t t = 0; t < tokens && nsym && *n + 258 <= cap; t++) {
		unsigned s = syms[test_rand_below(nsym)];
		if (s > 256 && s < 286 && nd) {
			unsigned d = dsyms[test_rand_below(nd)];
			unsigned xd = (unsigned)test_rand_below(1u << ref_dist_extra[d]);
			size_t dist = ref_dist_base[d] + xd;
			if (dist <= *n) {
				unsigned i = s - 257;
				unsigned xl = (unsigned)test_rand_below(1u << ref_len_extra[i]);
				size_t len = ref_len_base[i] + xl;
				ref_putcode(w, lc[s], lens[s]);
				ref_putbits(w, xl, ref_len_extra[i]);
				ref_putcode(w, dc[d], lens[hlit + d]);
				ref_putbits(w, xd, ref_dist_extra[d]);
				for (size_t k = 0; k < len; k++, (*n)++)
					out[*n] = out[*n - dist];
				continue;
			}
		}
		if (!nlit)
			break;
		s = lits[test_rand_below(nlit)];
		ref_putcode(w, lc[s], lens[s]);
		out[(*n)++] = (uint8_t)s;
	}
	ref_putcode(w, lc[256], lens[256]);
}

/* Streams of dynamic blocks whose codes are random (complete, up to 4-15 bits, some symbols
 * unused, incomplete distance codes of one symbol), with random tokens of those codes: the
 * decode tables' every part (root entries, literal pairs, length-distance entries, subtables,
 * both root widths) against the data the tokens spell, one call and in pieces; zlib agrees. */
static void test_random_codes(void **state)
{
	(void)state;
	const size_t streams = quick ? 60 : 400, cap = 4 << 20;
	uint8_t *data = malloc(cap), *comp = malloc(cap);
	assert_true(data && comp);
	size_t blocks = 0, bytes = 0;
	for (size_t k = 0; k < streams; k++) {
		struct ref_bitwriter w = { comp, cap, 0, 0, 0 };
		size_t n = 0;
		const unsigned nblocks = 1 + (unsigned)test_rand_below(3);
		for (unsigned b = 0; b < nblocks; b++) {
			uint8_t lens[320];
			const unsigned hlit = 257 + (unsigned)test_rand_below(30);
			const unsigned hdist = 1 + (unsigned)test_rand_below(30);
			do
				random_lengths(lens, hlit, 2 + (unsigned)test_rand_below(hlit - 1),
					       4 + (unsigned)test_rand_below(12));
			while (!lens[256]);
			/* One distance code in eight is a single symbol (the incomplete code
			 * RFC 1951 allows). */
			random_lengths(lens + hlit, hdist,
				       test_rand_below(8) == 0 ? 1 : 1 + (unsigned)test_rand_below(hdist),
				       test_rand_below(2) ? 15 : 4 + (unsigned)test_rand_below(5));
			/* Short and long blocks: the decoder adds its extra entries (and the
			 * wide root) only where a block can run long. */
			const size_t tokens = test_rand_below(4) == 0 ? 20 + test_rand_below(300)
								     : 2000 + test_rand_below(40000);
			random_block(&w, lens, hlit, hdist, tokens, b + 1 == nblocks, data, cap, &n);
			blocks++;
		}
		const size_t clen = ref_flush(&w);
		char what[120];
		snprintf(what, sizeof(what), "random-code stream %zu (%u blocks, %zu bytes)", k,
			 nblocks, n);
		uint8_t *zo = malloc(n + 1);
		assert_non_null(zo);
		size_t zn = 0;
		if (!zlib_raw_ok(comp, clen, zo, n + 1, &zn) || zn != n || memcmp(zo, data, n))
			TEST_FAIL("%s: zlib does not decode it to the data\n", what);
		check_stream(what, comp, clen, ISAL_DEFLATE, data, n, random_chunking(clen));
		free(zo);
		bytes += n;
	}
	print_message("%zu streams of dynamic blocks with random codes (%zu blocks, %zu bytes): "
		      "stoa one call and in pieces, and zlib, give the data\n",
		      streams, blocks, bytes);
	free(data);
	free(comp);
}

/* The longest match there is in bits (a 15-bit length code with 5 extra bits, a 15-bit distance
 * code with 13) followed by two literals, every pair of literal code lengths: the decoders' step
 * budget where it is tightest (inflate_tpl.h: the mixed loop takes a literal entry and looks up
 * the next symbol before its refill; the unified loop takes a literal entry after a match's). The
 * literals' codes hold 0.62 of the code space (INF_MIXED_LO); the distance codes put the block in
 * the mixed loop (codes 0-9, distances 1-32, hold most of their space) or, `unified`, in the
 * unified one (code 0 alone, of 14 bits, 2^-14 of it). One call and in pieces, and zlib, give the
 * data. */
/* Its literal mass in units of 2^-15: 'a' 2^14, 'a' + 2 .. 'a' + 12 2^11 .. 2^1. */
_Static_assert(INF_MIXED_LO <= 20478 && 20478 <= INF_MIXED_HI,
               "the longest-match block takes the decoders' mixed or unified loop");
/* Distance codes 0-9 in units of 2^-15: 2^14 + ... + 2^5, or 2^1. */
_Static_assert(32736 > INF_UNIFIED_SHORT && 2 <= INF_UNIFIED_SHORT,
               "the two distance codes take the mixed and the unified loop");

static void longest_match_case(int unified)
{
	/* Literals 'a' of 1 bit and 'a' + k of k + 2 bits (k = 2..12), length symbols 257 and 258
	 * of 2 and 3 bits, 284 and end-of-block of 15: complete, literal mass 0.62. Distances:
	 * symbol k of k + 1 bits (k = 0..13), 28 and 29 of 15; unified: symbols 10-22 of 1-13
	 * bits, 0 of 14, 28 and 29 of 15. */
	uint8_t lens[286 + 30] = { 0 };
	const unsigned hlit = 286, hdist = 30;
	lens['a'] = 1;
	lens[257] = 2;
	lens[258] = 3;
	for (unsigned k = 2; k <= 12; k++)
		lens['a' + k] = (uint8_t)(k + 2);
	lens[284] = lens[256] = 15;
	if (unified) {
		for (unsigned k = 10; k <= 22; k++)
			lens[hlit + k] = (uint8_t)(k - 9);
		lens[hlit] = 14;
	} else {
		for (unsigned k = 0; k < 14; k++)
			lens[hlit + k] = (uint8_t)(k + 1);
	}
	lens[hlit + 28] = lens[hlit + 29] = 15;
	const size_t cap = 1 << 20;
	uint8_t *data = malloc(cap), *comp = malloc(cap);
	assert_true(data && comp);
	struct ref_bitwriter w = { comp, cap, 0, 0, 0 };
	uint16_t lc[288], dc[32];
	dynamic_header(&w, lens, hlit, hdist, 1, lc, dc);
	size_t n = 0, cases = 0;
	/* 24577 bytes first, so that distance symbol 29 (base 24577) reaches the data. */
	for (; n < 24600; n++) {
		ref_putcode(&w, lc['a'], lens['a']);
		data[n] = 'a';
	}
	for (unsigned a = 2; a <= 12; a++) {
		for (unsigned b = 2; b <= 12; b++) {
			/* Length 227 + 30, distance 24577 + 8191 = 32768 back where the data has
			 * it, else 24577. */
			const unsigned len = 257, xd = n >= 32768 ? 8191 : 0;
			const size_t dist = 24577 + xd;
			ref_putcode(&w, lc[284], 15);
			ref_putbits(&w, 30, 5);
			ref_putcode(&w, dc[29], 15);
			ref_putbits(&w, xd, 13);
			for (unsigned k = 0; k < len; k++, n++)
				data[n] = data[n - dist];
			ref_putcode(&w, lc['a' + a], lens['a' + a]);
			data[n++] = (uint8_t)('a' + a);
			ref_putcode(&w, lc['a' + b], lens['a' + b]);
			data[n++] = (uint8_t)('a' + b);
			/* A short match and literals between the cases. */
			ref_putcode(&w, lc[257], lens[257]);
			ref_putcode(&w, dc[0], lens[hlit]);
			for (unsigned k = 0; k < 3; k++, n++)
				data[n] = data[n - 1];
			for (unsigned k = 0; k < 40; k++, n++) {
				ref_putcode(&w, lc['a'], lens['a']);
				data[n] = 'a';
			}
			cases++;
		}
	}
	ref_putcode(&w, lc[256], lens[256]);
	const size_t clen = ref_flush(&w);
	uint8_t *zo = malloc(n + 1);
	assert_non_null(zo);
	size_t zn = 0;
	if (!zlib_raw_ok(comp, clen, zo, n + 1, &zn) || zn != n || memcmp(zo, data, n))
		TEST_FAIL("longest matches then literals: zlib does not decode it to the data\n");
	check_stream("longest matches then literals", comp, clen, ISAL_DEFLATE, data, n, NULL);
	check_stream("longest matches then literals", comp, clen, ISAL_DEFLATE, data, n,
		     random_chunking(clen));
	/* One call took the loop meant (the block's tables stay in the state). */
	struct inflate_state st;
	isal_inflate_init(&st);
	st.next_in = comp;
	st.avail_in = (uint32_t)clen;
	st.next_out = zo;
	st.avail_out = (uint32_t)(n + 1);
	assert_int_equal(isal_inflate(&st), ISAL_DECOMP_OK);
	assert_int_equal(st.total_out, n);
	assert_int_equal(inf_priv(&st)->loop, unified ? INF_LOOP_UNIFIED : INF_LOOP_MIXED);
	print_message("%zu matches of 48 bits each followed by two literals of 4-14 bits, in a "
		      "block of literal mass 0.62 (%s loop): stoa one call and in pieces, and zlib, "
		      "give the data\n",
		      cases, unified ? "unified" : "mixed");
	free(zo);
	free(data);
	free(comp);
}

/* Fixed-code blocks between dynamic ones. A fixed block in a full window decodes with tables the
 * process builds once and shares (inf_fixed_shared), a smaller window with the stream's own; a
 * dynamic block after either must take its own tables again, and a fixed block after that the
 * fixed ones. Text and random bytes, a fixed block matching 16 KiB back: decoded with every
 * window from 2^12 up, whole and in pieces; a window too small for that match must not decode. */
static void test_fixed_between_dynamic(void **state)
{
	(void)state;
	load_samples();
	enum { PART = 8192, NPART = 6 };
	const struct test_file *t = find_sample("paper1");
	assert_non_null(t);
	assert_true(t->len >= PART);
	uint8_t *data = malloc(PART * NPART), *back = malloc(PART * NPART);
	assert_true(data && back);
	/* text, random, text again (16 KiB back), text at a new offset, random, text again */
	for (size_t i = 0; i < PART * NPART; i++)
		data[i] = (uint8_t)test_rand_below(256);
	memcpy(data, t->data, PART);
	memcpy(data + 2 * PART, t->data, PART);
	memcpy(data + 3 * PART, t->data + (t->len - PART), PART);
	memcpy(data + 5 * PART, t->data + (t->len - PART), PART);
	size_t decodes = 0;
	for (int wbits = 12; wbits <= 15; wbits += 3) {
		z_stream zs;
		memset(&zs, 0, sizeof(zs));
		assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, -wbits, 8, Z_FIXED), Z_OK);
		const size_t cap = deflateBound(&zs, PART * NPART) + 4096;
		uint8_t *z = malloc(cap);
		assert_non_null(z);
		zs.next_out = z;
		zs.avail_out = (uInt)cap;
		for (int k = 0; k < NPART; k++) {
			/* fixed, dynamic, fixed, dynamic, ...: a change of strategy ends the block */
			assert_int_equal(deflateParams(&zs, 6, k % 2 ? Z_DEFAULT_STRATEGY : Z_FIXED),
			                 Z_OK);
			zs.next_in = data + (size_t)k * PART;
			zs.avail_in = PART;
			assert_int_equal(deflate(&zs, k + 1 < NPART ? Z_NO_FLUSH : Z_FINISH),
			                 k + 1 < NPART ? Z_OK : Z_STREAM_END);
		}
		const size_t zlen = zs.total_out;
		deflateEnd(&zs);
		assert_int_equal((z[0] >> 1) & 3, 1); /* the first block is fixed */
		/* hist_bits 0 is the full window, as 15 */
		static const int hbs[] = { 12, 13, 14, 15, 0 };
		for (size_t h = 0; h < sizeof(hbs) / sizeof(hbs[0]); h++) {
			const int hb = hbs[h], window = hb ? hb : 15;
			if (window < wbits) {
				/* the fixed block at 2 * PART matches 16 KiB back */
				if (window >= 14)
					continue;
				struct result r;
				inflate_chunked(z, zlen, back, PART * NPART, ISAL_DEFLATE, hb, NULL, 0,
				                &whole, &r);
				if (r.rc == ISAL_DECOMP_OK)
					TEST_FAIL("fixed and dynamic blocks, window 2^%d: a 16 KiB match "
					          "decoded in a 2^%d window\n",
					          wbits, window);
				decodes++;
				continue;
			}
			for (size_t c = 0; c <= N_CHUNKINGS; c++) {
				const struct chunking *ch = c < N_CHUNKINGS ? &chunkings[c] : &whole;
				struct result r;
				inflate_chunked(z, zlen, back, PART * NPART, ISAL_DEFLATE, hb, NULL, 0,
				                ch, &r);
				char what[100];
				snprintf(what, sizeof(what),
				         "fixed and dynamic blocks, zlib window 2^%d, hist_bits %d", wbits,
				         hb);
				check_result(what, ch->name, &r, back, data, PART * NPART, ISAL_DEFLATE,
				             0);
				decodes++;
			}
		}
		free(z);
	}
	print_message("fixed blocks between dynamic ones (shared fixed tables in a full window, "
	              "the stream's own in smaller ones): %zu decodes right, a match beyond a small "
	              "window refused\n",
	              decodes);
	free(data);
	free(back);
}

static void test_longest_match_then_literals(void **state)
{
	(void)state;
	longest_match_case(0);
	longest_match_case(1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zlib_matrix),        cmocka_unit_test(test_libdeflate),
		cmocka_unit_test(test_gzip_command),       cmocka_unit_test(test_chunkings),
		cmocka_unit_test(test_split_headers),      cmocka_unit_test(test_empty_streams),
		cmocka_unit_test(test_stored_after_pause), cmocka_unit_test(test_stored_history),
		cmocka_unit_test(test_multi_member_gzip),
		cmocka_unit_test(test_random_codes),       cmocka_unit_test(test_longest_match_then_literals),
		cmocka_unit_test(test_fixed_between_dynamic),
	};
	return TEST_MAIN("inflate_roundtrip", tests, inflate_suite_setup, NULL);
}
