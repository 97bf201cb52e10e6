/* The compressor's Huffman side (igzip/huff_*.c): code building, block headers, the token
 * writer, block sizes, the fixed and default codes, and ISA-L's histogram and table functions.
 *
 * Evidence: every table is checked against an independent reading written here (code lengths
 * recovered from the tables; the Kraft sum of each alphabet exactly 1 (a complete code); the
 * canonical codes recomputed; the dynamic header parsed back bit by bit and its lengths compared
 * with the tables); blocks written from random token streams with valid back-references decode
 * with zlib's raw inflate to the expected bytes, at the size defl_coded_bits predicted; the
 * writer stopped by small output buffers ending at a guard page resumes to the same bits;
 * degenerate histograms (nothing, one literal, no distances, one distance, huge counts); the
 * fixed codes against RFC 1951's table; the default codes rebuilt from their counts; every
 * variant of the level 0 coder and of the level 1-3 tokenizers against the portable one.
 *
 * The internal functions are hidden in libstoa.so but linkable from libstoa.a, which the tests
 * link. Everything random comes from test_rand(), so STOA_SEED=N repeats a run exactly. */
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "dispatch.h"
#include "igzip/deflate_chain.h"
#include "igzip/deflate_huff.h"
#include "igzip/deflate_internal.h"
#include "igzip/deflate_path.h"
#include "deflate_ref.h"
#include "isa-l/igzip_lib.h"
#include "testutil.h"

/* ---- An independent reading of a table ---- */

/* Code lengths of a table: 286 litlen and 30 distance symbols. Fails the test when the table
 * is inconsistent with itself (a length's entries disagreeing, wrong extra bits). */
static void table_lengths(const struct isal_hufftables *t, uint8_t *ll, uint8_t *d)
{
	for (int s = 0; s < 257; s++)
		ll[s] = t->lit_table_sizes[s];
	for (int s = 0; s < 29; s++) {
		int last = s == 28 ? 258 : s == 27 ? 257 : ref_len_base[s + 1] - 1;
		uint32_t e0 = t->len_table[ref_len_base[s] - 3];
		uint32_t n = e0 & 31, cl = n ? n - ref_len_extra[s] : 0;
		ll[257 + s] = (uint8_t)cl;
		for (int len = ref_len_base[s]; len <= last; len++) {
			uint32_t e = t->len_table[len - 3];
			if (!n) {
				assert_int_equal(e, 0);
				continue;
			}
			assert_int_equal(e & 31, n);
			uint32_t code = e >> 5;
			/* the same code, then this length's extra value */
			assert_int_equal(code & ((1u << cl) - 1), (e0 >> 5) & ((1u << cl) - 1));
			assert_int_equal(code >> cl, (uint32_t)(len - ref_len_base[s]));
		}
	}
	for (int s = 0; s < 30; s++)
		d[s] = t->dcodes_sizes[s];
}

/* Kraft sum of an alphabet in units of 2^-15; also checks max length and that the codes in the
 * table are the canonical ones. Returns the number of coded symbols. */
static int check_code(const uint8_t *lens, int n, const uint16_t *codes, int max_len)
{
	uint64_t kraft = 0;
	int coded = 0;
	for (int s = 0; s < n; s++) {
		assert_true(lens[s] <= max_len);
		if (lens[s]) {
			kraft += 1u << (15 - lens[s]);
			coded++;
		}
	}
	if (coded >= 2)
		assert_int_equal(kraft, 1u << 15); /* complete */
	else
		assert_int_equal(coded, 0);
	if (codes) {
		uint16_t canon[320];
		ref_canonical(lens, n, canon);
		for (int s = 0; s < n; s++)
			if (lens[s])
				assert_int_equal(codes[s], ref_reverse(canon[s], lens[s]));
	}
	return coded;
}

/* Parse t's dynamic header and compare the lengths it sends with the tables. Returns the header
 * size in bits. */
static size_t check_header(const struct isal_hufftables *t, const uint8_t *ll, const uint8_t *d)
{
	const size_t end = (size_t)t->deflate_hdr_count * 8 + t->deflate_hdr_extra_bits;
	struct ref_bitreader b = { t->deflate_hdr, (end + 7) / 8, 0, 0, 0, 0 };
	assert_int_equal(ref_getbits(&b, 1), 0); /* BFINAL stored as 0 */
	assert_int_equal(ref_getbits(&b, 2), 2);
	int hlit = (int)ref_getbits(&b, 5) + 257, hdist = (int)ref_getbits(&b, 5) + 1,
	    hclen = (int)ref_getbits(&b, 4) + 4;
	assert_true(hlit <= 286);
	uint8_t cl[19] = { 0 }, lens[320] = { 0 };
	for (int i = 0; i < hclen; i++)
		cl[ref_clen_order[i]] = (uint8_t)ref_getbits(&b, 3);
	if (hclen > 4)
		assert_true(cl[ref_clen_order[hclen - 1]] != 0); /* trimmed */
	check_code(cl, 19, NULL, 7);
	struct ref_code clc;
	assert_int_equal(ref_code_build(&clc, cl, 19), 0);
	for (int i = 0; i < hlit + hdist;) {
		int s = ref_decode(&b, &clc);
		if (s < 0)
			fail_msg("undecodable code-length symbol");
		if (s < 16) {
			lens[i++] = (uint8_t)s;
		} else {
			int rep = s == 16   ? 3 + (int)ref_getbits(&b, 2)
				  : s == 17 ? 3 + (int)ref_getbits(&b, 3)
					    : 11 + (int)ref_getbits(&b, 7);
			assert_true(s != 16 || i > 0);
			uint8_t v = s == 16 ? lens[i - 1] : 0;
			assert_true(i + rep <= hlit + hdist);
			while (rep--)
				lens[i++] = v;
		}
	}
	assert_false(b.err);
	assert_int_equal(ref_bits_read(&b), end);
	for (int s = 0; s < 286; s++)
		assert_int_equal(s < hlit ? lens[s] : 0, ll[s]);
	for (int s = 0; s < 30; s++)
		assert_int_equal(s < hdist ? lens[hlit + s] : 0, d[s]);
	assert_true(hlit == 257 || ll[hlit - 1] != 0);
	assert_true(hdist == 1 || d[hdist - 1] != 0);
	return end;
}

/* Everything about a dynamic table. subset: only counted symbols may lack codes. */
static void check_table(const struct isal_hufftables *t, const struct isal_mod_hist *h,
			int subset)
{
	uint8_t ll[286], d[30];
	uint16_t llc[286];
	table_lengths(t, ll, d);
	for (int s = 0; s < 257; s++)
		llc[s] = t->lit_table[s];
	for (int s = 0; s < 29; s++)
		llc[257 + s] = (uint16_t)((t->len_table[ref_len_base[s] - 3] >> 5) & ((1u << ll[257 + s]) - 1));
	assert_true(check_code(ll, 286, llc, 15) >= 2);
	assert_true(check_code(d, 30, t->dcodes, 15) >= 1);
	assert_true(ll[256] != 0);
	for (int s = 0; s < 2; s++)
		assert_int_equal(t->dist_table[s], d[s] ? (uint32_t)t->dcodes[s] << 5 | d[s] : 0);
	if (h) {
		for (int i = 0; i < 513; i++)
			if (h->ll_hist[i] || !subset)
				assert_true(i < 257 ? ll[i] != 0 : (t->len_table[i - 257] & 31) != 0);
		for (int s = 0; s < 30; s++)
			if (h->d_hist[s] || !subset)
				assert_true(d[s] != 0);
	}
	check_header(t, ll, d);
}

/* ---- Random token streams with valid back-references ---- */

struct stream {
	uint32_t *tok;
	size_t ntok;
	uint8_t *data; /* what they decode to */
	size_t len;
	struct isal_mod_hist hist;
};

/* kind 0: mixed; 1: literals only; 2: matches only (after a seed literal); 3: one distance;
 * 4: few literal values */
static void make_stream(struct stream *st, size_t ntok, int kind)
{
	st->tok = malloc(ntok * sizeof(uint32_t));
	st->data = malloc(ntok * 258 + 1);
	memset(&st->hist, 0, sizeof(st->hist));
	size_t len = 0;
	uint32_t lit_range = kind == 4 ? 3 : 256;
	uint32_t fixed_dist = 1 + (uint32_t)test_rand_below(32768);
	for (size_t i = 0; i < ntok; i++) {
		int match = len > 0 && (kind == 2 || kind == 3 || (kind != 1 && kind != 4 && (test_rand() & 1)));
		if (kind == 3 && len < fixed_dist)
			match = 0;
		if (match) {
			uint32_t l = 3 + (uint32_t)test_rand_below(256);
			uint32_t maxd = len < 32768 ? (uint32_t)len : 32768;
			uint32_t dist = kind == 3 ? fixed_dist
				       : test_rand() & 1 ? 1 + (uint32_t)test_rand_below(maxd < 16 ? maxd : 16)
							 : 1 + (uint32_t)test_rand_below(maxd);
			st->tok[i] = DEFL_TOK_MATCH(l, 0, 0) | defl_dist_token_bits(dist);
			uint32_t ds = DEFL_TOK_DSYM(st->tok[i]), dx = DEFL_TOK_DEXTRA(st->tok[i]);
			assert_true(ds < 30 && dx < (1u << ref_dist_extra[ds]));
			assert_int_equal(ref_dist_base[ds] + dx, dist);
			for (uint32_t k = 0; k < l; k++, len++)
				st->data[len] = st->data[len - dist];
			st->hist.ll_hist[l + 254]++;
			st->hist.d_hist[defl_dist_sym(dist)]++;
		} else {
			uint32_t c = (uint32_t)test_rand_below(lit_range) * (kind == 4 ? 77 : 1);
			st->tok[i] = c;
			st->data[len++] = (uint8_t)c;
			st->hist.ll_hist[c]++;
		}
	}
	st->ntok = ntok;
	st->len = len;
}

static void free_stream(struct stream *st)
{
	free(st->tok);
	free(st->data);
}

static void inflate_check(const uint8_t *comp, size_t clen, const uint8_t *want, size_t wlen)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, -15), Z_OK);
	uint8_t *o = malloc(wlen + 16);
	z.next_in = (uint8_t *)comp;
	z.avail_in = (uInt)clen;
	z.next_out = o;
	z.avail_out = (uInt)wlen + 16;
	int r = inflate(&z, Z_FINISH);
	if (r != Z_STREAM_END)
		fail_msg("zlib inflate: %d %s", r, z.msg ? z.msg : "");
	assert_int_equal(z.total_out, wlen);
	assert_memory_equal(o, want, wlen);
	inflateEnd(&z);
	free(o);
}

/* The token writer under test: defl_write_tokens (the dispatched one), or each usable entry of
 * its variant table in turn (test_blocks_zlib). */
static defl_write_tokens_fn *writer = defl_write_tokens;

/* One final block of st with t, written through the writer in an output buffer of out_room
 * bytes at a time (drained between calls), checked with zlib and against defl_coded_bits.
 * Returns a fingerprint of the block's bytes. */
static uint64_t block_roundtrip(const struct stream *st, const struct isal_hufftables *t,
				size_t out_room)
{
	size_t cap = st->ntok * 8 + 1024;
	uint8_t *all = malloc(cap);
	size_t all_len = 0;
	uint8_t *win = guard_alloc(out_room, GUARD_BACK);
	struct BitBuf2 b;
	bw_init(&b, win, out_room);
	uint8_t hdrbuf[ISAL_DEF_MAX_HDR_SIZE + 16];
	bw_init(&b, hdrbuf, sizeof(hdrbuf));
	defl_write_header(&b, t, 1);
	all_len = (size_t)(b.m_out_buf - hdrbuf);
	memcpy(all, hdrbuf, all_len);

	size_t done = 0;
	bw_set_buf(&b, win, out_room);
	while (done < st->ntok) {
		size_t w = writer(&b, t, st->tok + done, st->ntok - done);
		done += w;
		if (done < st->ntok)
			assert_true(bw_room(&b) < 16);
		else
			assert_true(w > 0 || st->ntok == 0);
		size_t used = (size_t)(b.m_out_buf - win);
		memcpy(all + all_len, win, used);
		all_len += used;
		bw_set_buf(&b, win, out_room);
	}
	uint8_t tail[16];
	bw_set_buf(&b, tail, sizeof(tail));
	size_t bits = all_len * 8 + b.m_bit_count;
	defl_emit_eob(&b, t);
	bits += t->lit_table_sizes[DEFL_EOB];
	bw_flush_to_byte(&b);
	memcpy(all + all_len, tail, (size_t)(b.m_out_buf - tail));
	all_len += (size_t)(b.m_out_buf - tail);

	assert_int_equal(defl_coded_bits(t, &st->hist), bits);
	inflate_check(all, all_len, st->data, st->len);
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < all_len; i++)
		h = (h ^ all[i]) * 0x100000001b3ull;
	guard_free(win, out_room, GUARD_BACK);
	free(all);
	return h;
}

/* ---- Tests ---- */

static void test_random_histograms(void **state)
{
	(void)state;
	struct isal_hufftables t;
	int n = 0;
	for (int iter = 0; iter < 400; iter++) {
		struct isal_mod_hist h;
		memset(&h, 0, sizeof(h));
		int shape = iter % 5;
		for (int i = 0; i < 513; i++) {
			uint64_t r = test_rand();
			if (shape == 0)
				h.ll_hist[i] = (uint32_t)(r % 1000);
			else if (shape == 1 && (r & 7) == 0)
				h.ll_hist[i] = (uint32_t)(r >> 40); /* sparse, up to 2^24 */
			else if (shape == 2)
				h.ll_hist[i] = (uint32_t)(1u << (r % 31)); /* skewed: forces the limit */
			else if (shape == 3 && i < 256 && (r & 1))
				h.ll_hist[i] = (uint32_t)r;
		}
		for (int s = 0; s < 30; s++) {
			uint64_t r = test_rand();
			if (shape == 2)
				h.d_hist[s] = (uint32_t)(1u << (r % 31));
			else if (shape != 3 && (r & 3))
				h.d_hist[s] = (uint32_t)(r % 100000);
		}
		if (shape == 4) /* Fibonacci counts: the deepest optimal tree */
			for (int i = 0, a = 1, b = 1; i < 40; i++) {
				h.ll_hist[i * 7] = (uint32_t)a;
				int c = a + b;
				a = b;
				b = c;
			}
		for (int subset = 0; subset < 2; subset++) {
			/* (quick: the header's lengths run-length coded greedily) */
			uint64_t bits[2];
			for (int quick = 0; quick < 2; quick++) {
				defl_build_codes(&t, &h, subset, quick);
				check_table(&t, &h, subset);
				bits[quick] = t.deflate_hdr_count * 8ull + t.deflate_hdr_extra_bits;
				assert_true(defl_coded_bits(&t, &h) != UINT64_MAX);
				n++;
			}
			/* The searched header is never longer than the greedy one (the same
			 * codes: only the run-length coding of their lengths differs). */
			assert_true(bits[0] <= bits[1]);
		}
	}
	print_message("random histograms: %d tables complete, canonical, headers parse back\n", n);
}

/* The least total of weight x depth over a prefix code for the non-zero weights of w[0 .. n):
 * Huffman's merges of the two least weights, each adding its sum. */
static uint64_t huffman_cost(const uint64_t *w0, int n)
{
	uint64_t w[320];
	int m = 0;
	for (int i = 0; i < n; i++)
		if (w0[i])
			w[m++] = w0[i];
	uint64_t cost = 0;
	while (m > 1) {
		int a = 0, b = 1;
		if (w[b] < w[a])
			a = 1, b = 0;
		for (int k = 2; k < m; k++) {
			if (w[k] < w[a])
				b = a, a = k;
			else if (w[k] < w[b])
				b = k;
		}
		const uint64_t sum = w[a] + w[b];
		cost += sum;
		w[a] = sum;
		w[b] = w[--m];
	}
	return cost;
}

/* Small blocks' counts (most below 128, some up to 4095, 50-250 literals: the code builder's
 * counting pass with a radix sort of the large counts, or its radix sort alone): the litlen and
 * distance codes cost exactly the Huffman minimum wherever no code reaches the 15-bit limit. */
static void test_small_block_codes_optimal(void **state)
{
	(void)state;
	struct isal_hufftables t;
	int checked_ll = 0, checked_d = 0;
	for (int iter = 0; iter < 300; iter++) {
		struct isal_mod_hist h;
		memset(&h, 0, sizeof(h));
		uint64_t wll[286] = { 0 }, wd[30] = { 0 };
		const int lits = 49 + (int)test_rand_below(200), big_in = 2 + iter % 12;
		for (int i = 0; i < lits; i++) {
			const uint32_t s = (uint32_t)test_rand_below(256);
			h.ll_hist[s] = test_rand_below((uint32_t)big_in) == 0
			                   ? 128 + (uint32_t)test_rand_below(3968)
			                   : 1 + (uint32_t)test_rand_below(127);
		}
		h.ll_hist[256] = 1;
		for (int s = 0; s < 29; s++)
			if (test_rand_below(3) == 0)
				h.ll_hist[ref_len_base[s] + 254] = 1 + (uint32_t)test_rand_below(200);
		for (int s = 0; s < 30; s++)
			if (test_rand_below(2) == 0)
				h.d_hist[s] = 1 + (uint32_t)test_rand_below(300);
		h.d_hist[iter % 30] += 1;
		h.d_hist[(iter + 7) % 30] += 1;
		for (int s = 0; s < 257; s++)
			wll[s] = h.ll_hist[s];
		for (int s = 0; s < 29; s++)
			wll[257 + s] = h.ll_hist[ref_len_base[s] + 254];
		for (int s = 0; s < 30; s++)
			wd[s] = h.d_hist[s];
		defl_build_codes(&t, &h, 1, 1);
		check_table(&t, &h, 1);
		uint8_t ll[286], d[30];
		table_lengths(&t, ll, d);
		uint64_t cost = 0, dcost = 0;
		uint8_t deepest = 0, ddeepest = 0;
		for (int s = 0; s < 286; s++) {
			cost += wll[s] * ll[s];
			if (wll[s] && ll[s] > deepest)
				deepest = ll[s];
		}
		for (int s = 0; s < 30; s++) {
			dcost += wd[s] * d[s];
			if (wd[s] && d[s] > ddeepest)
				ddeepest = d[s];
		}
		if (deepest < 15) {
			assert_int_equal(cost, huffman_cost(wll, 286));
			checked_ll++;
		}
		if (ddeepest < 15) {
			assert_int_equal(dcost, huffman_cost(wd, 30));
			checked_d++;
		}
	}
	print_message("small blocks' codes: %d litlen and %d distance codes at the Huffman minimum "
	              "(the rest reach the limit)\n",
	              checked_ll, checked_d);
	assert_true(checked_ll >= 100 && checked_d >= 250);
}

static void test_degenerate(void **state)
{
	(void)state;
	struct isal_hufftables t;
	struct isal_mod_hist h;
	const char *what[] = { "nothing", "EOB only", "one literal", "one match", "one distance",
			       "all 513 and 30 once" };
	for (int c = 0; c < 6; c++) {
		memset(&h, 0, sizeof(h));
		if (c == 1)
			h.ll_hist[256] = 1;
		if (c == 2)
			h.ll_hist['a'] = 1000;
		if (c == 3) {
			h.ll_hist[258 + 254] = 5;
			h.d_hist[0] = 5;
		}
		if (c == 4) {
			h.ll_hist[100] = 9;
			h.ll_hist[10 + 254] = 3;
			h.d_hist[29] = 3;
		}
		if (c == 5) {
			for (int i = 0; i < 513; i++)
				h.ll_hist[i] = 1;
			for (int s = 0; s < 30; s++)
				h.d_hist[s] = 1;
		}
		for (int k = 0; k < 4; k++) {
			const int subset = k & 1, quick = k >> 1;
			defl_build_codes(&t, &h, subset, quick);
			check_table(&t, &h, subset);
			/* an empty block with these codes decodes */
			static uint8_t nothing[1];
			struct stream st;
			memset(&st, 0, sizeof(st));
			st.data = nothing;
			block_roundtrip(&st, &t, 64);
		}
		print_message("degenerate histogram (%s): valid tables, empty block decodes\n", what[c]);
	}
	/* subset: an uncounted symbol has no code and defl_coded_bits says so */
	memset(&h, 0, sizeof(h));
	h.ll_hist['x'] = 10;
	defl_build_codes(&t, &h, 1, 0);
	h.ll_hist['y'] = 1;
	assert_int_equal(defl_coded_bits(&t, &h), UINT64_MAX);
}

/* Every usable writer variant writes every block: zlib inflates it to the expected bytes at the
 * predicted size, and its bytes are those of the portable writer (the table's last entry). */
static void test_blocks_zlib(void **state)
{
	(void)state;
	const struct stoa_variant *vs[8];
	const size_t nv = test_variants(test_func("defl_write_tokens"), vs, 8, NULL);
	size_t rooms[] = { 16, 17, 23, 64, 1000, 1 << 20 };
	int blocks = 0, variants = 0;
	for (int kind = 0; kind < 5; kind++) {
		for (int r = 0; r < 6; r++) {
			struct stream st;
			size_t ntok = r == 0 ? 50 : (size_t)(1 + test_rand_below(r < 3 ? 300 : 20000));
			make_stream(&st, ntok, kind);
			struct isal_hufftables t[4];
			const struct isal_hufftables *tp[4] = { &t[0], &t[1], &t[2], defl_default_codes() };
			defl_build_codes(&t[0], &st.hist, 0, 0);
			defl_build_codes(&t[1], &st.hist, 1, 0);
			defl_static_codes(&t[2]);
			uint64_t want[4];
			variants = 0;
			/* base first (the last entry), then the others */
			for (size_t i = 0; i < nv; i++) {
				const struct stoa_variant *v = vs[(i + nv - 1) % nv];
				writer = (defl_write_tokens_fn *)v->fn;
				for (int k = 0; k < 4; k++) {
					uint64_t h = block_roundtrip(&st, tp[k], rooms[k == 3 ? 5 - r : r]);
					if (variants == 0)
						want[k] = h;
					else if (h != want[k])
						fail_msg("writer %s: block %d (kind %d, %zu tokens) differs "
							 "from base's",
							 v->name, k, kind, ntok);
					blocks++;
				}
				variants++;
			}
			free_stream(&st);
		}
	}
	writer = defl_write_tokens;
	print_message("zlib inflates %d blocks (dynamic, subset, fixed, default codes; output room "
		      "16 B .. 1 MiB at a guard page) to the expected bytes, at the predicted size; "
		      "%d writer variants, byte-identical to base\n",
		      blocks, variants);
	assert_true(variants >= 1);
}

static void test_static_codes(void **state)
{
	(void)state;
	struct isal_hufftables t;
	defl_static_codes(&t);
	/* RFC 1951, 3.2.6 */
	for (uint32_t s = 0; s < 257; s++) {
		uint32_t len = s < 144 ? 8 : s < 256 ? 9 : 7;
		uint32_t code = s < 144 ? 0x30 + s : s < 256 ? 0x190 + s - 144 : s - 256;
		assert_int_equal(t.lit_table_sizes[s], len);
		assert_int_equal(t.lit_table[s], ref_reverse(code, len));
	}
	for (uint32_t s = 257; s < 286; s++) {
		uint32_t len = s < 280 ? 7 : 8;
		uint32_t code = s < 280 ? s - 256 : 0xc0 + s - 280;
		uint32_t e = t.len_table[ref_len_base[s - 257] - 3];
		assert_int_equal(e & 31, len + ref_len_extra[s - 257]);
		assert_int_equal((e >> 5) & ((1u << len) - 1), ref_reverse(code, len));
	}
	for (uint32_t s = 0; s < 30; s++) {
		assert_int_equal(t.dcodes_sizes[s], 5);
		assert_int_equal(t.dcodes[s], ref_reverse(s, 5));
	}
	assert_int_equal(t.deflate_hdr_count, 0);
	assert_int_equal(t.deflate_hdr_extra_bits, 3);
	assert_int_equal(t.deflate_hdr[0] & 7, 2);
	assert_int_equal(t.dist_table[0], 0x5);
	assert_int_equal(t.dist_table[1], 0x205);
	print_message("fixed codes: every litlen, length and distance code as RFC 1951 lists it\n");
}

/* The header writer forces BFINAL whatever the table holds (ISA-L's tables hold 1). */
static void test_header_bfinal(void **state)
{
	(void)state;
	struct isal_hufftables t;
	struct isal_mod_hist h;
	memset(&h, 0, sizeof(h));
	h.ll_hist['q'] = 3;
	defl_build_codes(&t, &h, 0, 0);
	for (int stored = 0; stored < 2; stored++) {
		t.deflate_hdr[0] = (uint8_t)((t.deflate_hdr[0] & ~1) | stored);
		for (int final = 0; final < 2; final++) {
			uint8_t buf[ISAL_DEF_MAX_HDR_SIZE + 16];
			struct BitBuf2 b;
			bw_init(&b, buf, sizeof(buf));
			bw_put(&b, 5, 3); /* start off a byte boundary */
			defl_write_header(&b, &t, final);
			size_t bits = (size_t)(b.m_out_buf - buf) * 8 + b.m_bit_count - 3;
			assert_int_equal(bits, t.deflate_hdr_count * 8 + t.deflate_hdr_extra_bits);
			bw_flush_to_byte(&b);
			assert_int_equal((buf[0] >> 3) & 1, final);
			for (size_t i = 1; i < bits; i++)
				assert_int_equal((buf[(i + 3) >> 3] >> ((i + 3) & 7)) & 1,
						 (t.deflate_hdr[i >> 3] >> (i & 7)) & 1);
		}
	}
	print_message("header writer: BFINAL set from its argument, the rest copied bit for bit\n");
}

/* Print the default table as a C initializer (for igzip/huff_default.c). */
static void print_initializer(const struct isal_hufftables *t)
{
	printf("static const struct isal_hufftables default_codes = {\n\t.deflate_hdr = {");
	size_t n = t->deflate_hdr_count + (t->deflate_hdr_extra_bits != 0);
	for (size_t i = 0; i < n; i++)
		printf("%s0x%02x,", i % 12 ? " " : "\n\t\t", t->deflate_hdr[i]);
	printf("\n\t},\n\t.deflate_hdr_count = %u,\n\t.deflate_hdr_extra_bits = %u,\n",
	       t->deflate_hdr_count, t->deflate_hdr_extra_bits);
	printf("\t.dist_table = { 0x%x, 0x%x },\n\t.len_table = {", t->dist_table[0], t->dist_table[1]);
	for (int i = 0; i < 256; i++)
		printf("%s0x%x,", i % 8 ? " " : "\n\t\t", t->len_table[i]);
	printf("\n\t},\n\t.lit_table = {");
	for (int i = 0; i < 257; i++)
		printf("%s0x%x,", i % 10 ? " " : "\n\t\t", t->lit_table[i]);
	printf("\n\t},\n\t.lit_table_sizes = {");
	for (int i = 0; i < 257; i++)
		printf("%s%u,", i % 16 ? " " : "\n\t\t", t->lit_table_sizes[i]);
	printf("\n\t},\n\t.dcodes = {");
	for (int i = 0; i < 30; i++)
		printf("%s0x%x,", i % 10 ? " " : "\n\t\t", t->dcodes[i]);
	printf("\n\t},\n\t.dcodes_sizes = {");
	for (int i = 0; i < 30; i++)
		printf("%s%u,", i % 16 ? " " : "\n\t\t", t->dcodes_sizes[i]);
	printf("\n\t},\n};\n");
}

static void test_default_codes(void **state)
{
	(void)state;
	static struct isal_huff_histogram hh;
	struct isal_hufftables t;
	memset(&hh, 0, sizeof(hh));
	for (int s = 0; s < ISAL_DEF_LIT_LEN_SYMBOLS; s++)
		hh.lit_len_histogram[s] = defl_default_ll_counts[s];
	for (int s = 0; s < ISAL_DEF_DIST_SYMBOLS; s++)
		hh.dist_histogram[s] = defl_default_d_counts[s];
	assert_int_equal(isal_create_hufftables(&t, &hh), 0);
	const struct isal_hufftables *def = defl_default_codes();
	if (memcmp(&t, def, sizeof(t)) != 0) {
		print_initializer(&t);
		fail_msg("the default table is not isal_create_hufftables of its counts: the table "
			 "it should be is printed above");
	}
	check_table(def, NULL, 0);
	for (int s = 0; s < 257; s++)
		assert_true(def->lit_table_sizes[s] > 0);
	for (int i = 0; i < 256; i++)
		assert_true((def->len_table[i] & 31) > 0);
	for (int s = 0; s < 30; s++)
		assert_true(def->dcodes_sizes[s] > 0);
	print_message("default codes: every symbol coded, equal to isal_create_hufftables of the "
		      "built-in counts; header %u bits\n",
		      def->deflate_hdr_count * 8 + def->deflate_hdr_extra_bits);
}

/* The public builders: complete tables code everything; _subset leaves uncounted literals
 * without a code but codes end of block, every length and every distance; huge counts. */
static void test_public_builders(void **state)
{
	(void)state;
	static struct isal_huff_histogram hh;
	struct isal_hufftables t;
	uint8_t ll[286], d[30];
	for (int iter = 0; iter < 60; iter++) {
		memset(&hh, 0, sizeof(hh));
		for (int s = 0; s < 286; s++)
			if (test_rand() & 1)
				hh.lit_len_histogram[s] = iter % 3 == 0 ? test_rand() : test_rand_below(5000);
		for (int s = 0; s < 30; s++)
			if (test_rand() & 1)
				hh.dist_histogram[s] = iter % 3 == 0 ? test_rand() : test_rand_below(5000);
		assert_int_equal(isal_create_hufftables(&t, &hh), 0);
		check_table(&t, NULL, 0);
		table_lengths(&t, ll, d);
		for (int s = 0; s < 286; s++)
			assert_true(ll[s] > 0);
		assert_int_equal(isal_create_hufftables_subset(&t, &hh), 0);
		check_table(&t, NULL, 1);
		table_lengths(&t, ll, d);
		for (int s = 0; s < 256; s++)
			assert_int_equal(ll[s] != 0, hh.lit_len_histogram[s] != 0);
		for (int s = 256; s < 286; s++)
			assert_true(ll[s] > 0);
		for (int s = 0; s < 30; s++)
			assert_true(d[s] > 0);
	}
	assert_int_not_equal(isal_create_hufftables(NULL, &hh), 0);
	assert_int_not_equal(isal_create_hufftables(&t, NULL), 0);
	assert_int_not_equal(isal_create_hufftables_subset(NULL, &hh), 0);
	print_message("isal_create_hufftables(_subset): 60 histograms (counts up to 2^64), "
		      "coverage as ISA-L documents, NULL refused\n");
}

static void test_update_histogram(void **state)
{
	(void)state;
	static struct isal_huff_histogram hh;
	uint64_t sum_ll = 0;
	memset(&hh, 0, sizeof(hh));
	isal_update_histogram(NULL, 10, &hh);
	uint8_t x = 1;
	isal_update_histogram(&x, 0, &hh);
	isal_update_histogram(&x, -5, &hh);
	for (int s = 0; s < 286; s++)
		sum_ll += hh.lit_len_histogram[s];
	assert_int_equal(sum_ll, 0);

	/* short inputs: all literals, one end of block per call */
	for (int n = 1; n <= 8; n++) {
		uint8_t *buf = guard_alloc((size_t)n, GUARD_BACK);
		memset(&hh, 0, sizeof(hh));
		for (int i = 0; i < n; i++)
			buf[i] = (uint8_t)(i * 37 + 1);
		isal_update_histogram(buf, n, &hh);
		assert_int_equal(hh.lit_len_histogram[256], 1);
		uint64_t lits = 0;
		for (int s = 0; s < 256; s++)
			lits += hh.lit_len_histogram[s];
		assert_int_equal(lits, (uint64_t)n);
		guard_free(buf, (size_t)n, GUARD_BACK);
	}

	/* a long run of one byte: a literal, then matches at distance 1 of length 258 */
	size_t n = 100000;
	uint8_t *buf = guard_alloc(n, GUARD_BACK);
	memset(buf, 'z', n);
	memset(&hh, 0, sizeof(hh));
	isal_update_histogram(buf, (int)n, &hh);
	uint64_t runs = 0;
	for (int s = 257; s < 286; s++)
		runs += hh.lit_len_histogram[s];
	assert_true(hh.lit_len_histogram['z'] >= 1);
	uint64_t run_dists = 0;
	for (int s = 0; s < 30; s++)
		run_dists += hh.dist_histogram[s];
	assert_int_equal(run_dists, runs);
	assert_true(hh.lit_len_histogram[285] >= (n - 300) / 258);
	/* random bytes at a guard page, every length: counts stay consistent */
	test_fill_random(buf, n);
	for (int iter = 0; iter < 20; iter++) {
		size_t len = (size_t)test_rand_below(n + 1);
		memset(&hh, 0, sizeof(hh));
		isal_update_histogram(buf + n - len, (int)len, &hh);
		uint64_t matches = 0, dists = 0, lits = 0;
		for (int s = 257; s < 286; s++)
			matches += hh.lit_len_histogram[s];
		for (int s = 0; s < 30; s++)
			dists += hh.dist_histogram[s];
		for (int s = 0; s < 256; s++)
			lits += hh.lit_len_histogram[s];
		assert_int_equal(matches, dists);
		assert_true(lits + 3 * matches <= len && lits + 258 * matches >= len);
		assert_int_equal(hh.lit_len_histogram[256], len > 0);
	}
	guard_free(buf, n, GUARD_BACK);
	print_message("isal_update_histogram: bad lengths ignored, literals and matches consistent "
		      "with the input length, reads stay inside the buffer\n");
}

/* ---- the tokenizers of levels 1-3 -------------------------------------------------------- */

/* Data with what the match finders meet: words, runs of one byte longer than a match, copies
 * from up to 40 KiB back, random stretches that start the literal-run skipping. */
static void make_tok_input(uint8_t *b, uint32_t n)
{
	static const char *const words[] = { "the ", "of ",     "deflate ", "match ", "x",
		                             "ab",   "window ", "\n",       "0123",   "zz" };
	uint32_t i = 0;
	while (i < n) {
		const uint32_t kind = (uint32_t)test_rand_below(10);
		uint32_t k = 1 + (uint32_t)test_rand_below(kind == 9 ? 3000 : 300);
		if (k > n - i)
			k = n - i;
		if (kind < 5) {
			for (uint32_t j = 0; j < k;) {
				const char *w = words[test_rand_below(10)];
				for (; *w && j < k; w++)
					b[i + j++] = (uint8_t)*w;
			}
		} else if (kind == 5) {
			memset(b + i, (int)test_rand_below(3), k);
		} else if (kind == 8 && i >= 64) {
			/* A long run of a short period (runs of 258-byte matches, whose tests
			 * take a shortcut for periods dividing the vector width), ending anywhere
			 * in a match. */
			static const uint32_t period[] = { 1, 2, 3, 4, 8, 16, 24, 32, 48, 64 };
			const uint32_t d = period[test_rand_below(10)];
			k = (uint32_t)test_rand_below(3000);
			if (k > n - i)
				k = n - i;
			for (uint32_t j = 0; j < k; j++)
				b[i + j] = b[i + j - d];
		} else if (kind < 9 && i > 0) {
			const uint32_t d = 1 + (uint32_t)test_rand_below(i < 40000 ? i : 40000);
			for (uint32_t j = 0; j < k; j++)
				b[i + j] = b[i + j - d];
		} else {
			test_fill_random(b + i, k);
		}
		i += k;
	}
}

/* Text-like input: words of a 4096-word vocabulary, the frequent ones much more often (a word's
 * index is the smaller of two draws, cubed), so that rare words come back from farther than the
 * window, through table entries that have aged past it. */
static void make_text_input(uint8_t *b, uint32_t n)
{
	enum { WORDS = 4096 };
	static uint8_t voc[WORDS][12]; /* up to 9 letters, a space, the end */
	for (uint32_t w = 0; w < WORDS; w++) {
		const uint32_t len = 2 + (uint32_t)test_rand_below(8);
		for (uint32_t j = 0; j < len; j++)
			voc[w][j] = (uint8_t)('a' + test_rand_below(26));
		voc[w][len] = ' ';
		voc[w][len + 1] = 0;
	}
	for (uint32_t i = 0; i < n;) {
		uint64_t a = test_rand_below(1u << 16), c = test_rand_below(1u << 16);
		a = a < c ? a : c;
		const uint32_t w = (uint32_t)((a * a * a) >> 36); /* 0 .. 4095 */
		for (uint32_t j = 0; voc[w][j] && i < n; j++)
			b[i++] = voc[w][j];
	}
}

/* Tokenize b[lo .. n) with fn as the stream would, in calls asked to stop `step` bytes on,
 * blocks ending where the tokenizer asks or the token area fills; fold every call's result
 * (position, tokens, counts) into a hash, and check that the tokens code the input. fresh >= 0:
 * positions from 0 (lo is 0), the window said to be fresh (defl_win.fresh) or not; keep: the
 * table's hash (defl_lvl.hash_keep, 0: the level's). */
static uint64_t tok_run(defl_tok_fn *fn, uint32_t level, const uint8_t *b, uint32_t n, uint32_t lo,
                        uint32_t bits, uint32_t maxdist, uint32_t cap, uint32_t step, int fresh,
                        uint32_t keep)
{
	struct defl_lvl *L = calloc(1, sizeof(*L));
	assert_non_null(L);
	L->par = defl_params(level);
	L->hash_keep = keep;
	L->hash_bits = bits;
	L->tok_cap = cap;
	L->hash = calloc((size_t)1 << bits, 2);
	L->tok = malloc((size_t)cap * 4);
	assert_true(L->hash && L->tok);
	defl_lvl_block_reset(L);
	const struct defl_win w = { b, lo, n, fresh < 0 ? 1000u * lo + 7 : 0, maxdist, fresh > 0, 0 };
	uint64_t h = 1469598103934665603ull;
#define TOK_MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
	uint32_t p = lo, start = lo; /* start: the first byte of the open block */
	while (p < n) {
		const uint32_t stop = n - p > step ? p + step : n;
		const uint32_t q = fn(L, &w, p, stop);
		assert_true(q > p || L->split || L->ntok + DEFL_TOK_SLACK >= L->tok_cap);
		assert_true(q <= n); /* (a match may run past stop) */
		TOK_MIX(q);
		p = q;
		if (L->split || L->ntok + DEFL_TOK_SLACK >= L->tok_cap || p == n) {
			/* The block: its tokens code b[start .. p), its counts are theirs. */
			uint32_t ll[513] = { 0 }, dd[30] = { 0 }, at = start;
			for (uint32_t i = 0; i < L->ntok; i++) {
				const uint32_t t = L->tok[i], sym = DEFL_TOK_LL(t);
				TOK_MIX(t);
				ll[sym]++;
				if (sym < 256) {
					assert_int_equal(sym, b[at]);
					at++;
					continue;
				}
				const uint32_t len = sym - 254, ds = DEFL_TOK_DSYM(t);
				const uint32_t dist = deflate_dist_base[ds] + DEFL_TOK_DEXTRA(t);
				dd[ds]++;
				assert_true(len >= 3 && len <= 258 && ds < 30);
				assert_true(dist >= 1 && dist <= maxdist && dist <= at - lo);
				assert_true(at + len <= n);
				assert_memory_equal(b + at, b + at - dist, len);
				at += len;
			}
			assert_int_equal(at, p);
			assert_memory_equal(ll, L->hist.ll_hist, sizeof(ll));
			assert_memory_equal(dd, L->hist.d_hist, sizeof(dd));
			defl_lvl_block_reset(L);
			start = p;
		}
	}
	assert_int_equal(L->ntok, 0);
#undef TOK_MIX
	free(L->hash);
	free(L->tok);
	free(L);
	return h;
}

/* The histogram entropy of the streaming checkpoints: the portable value within the error its
 * logarithms allow of the exact sum (computed in long double here), and every
 * usable variant equal to it to the unit, on counts of every size (below 2^24, where the vector
 * code converts them exactly, and beyond, where it hands the histogram on), zeros, one non-zero
 * count, and every length 0 .. 600 around the vector steps. */
static void test_entropy(void **state)
{
	(void)state;
	const struct stoa_func *sf = stoa_find_func("defl_entropy");
	assert_non_null(sf);
	static uint32_t h[600];
	unsigned long calls = 0;
	for (int iter = 0; iter < 3000; iter++) {
		const uint32_t n = iter < 601 ? (uint32_t)iter : (uint32_t)test_rand_below(601);
		const int shape = iter % 6;
		for (uint32_t i = 0; i < n; i++) {
			const uint64_t r = test_rand();
			switch (shape) {
			case 0: h[i] = (uint32_t)(r % 1000); break;
			case 1: h[i] = (r & 3) ? 0 : (uint32_t)(r >> 40); /* up to 2^24 */ break;
			case 2: h[i] = (uint32_t)(1u << (r % 25)) - (uint32_t)(r >> 63); break;
			case 3: h[i] = (uint32_t)(r >> 46); /* below 2^18, a block's */ break;
			case 4: h[i] = 0; break;
			default: h[i] = (r & 15) ? 0 : (uint32_t)(r >> 32) >> (r % 8); break;
			}
		}
		if (shape == 4 && n)
			h[test_rand_below(n)] = 1 + (uint32_t)test_rand_below(1u << 20);
		/* The exact value, if the total fits where the portable code takes its log. */
		long double total = 0, sum = 0;
		for (uint32_t i = 0; i < n; i++)
			total += h[i];
		for (uint32_t i = 0; i < n; i++)
			if (h[i])
				sum += h[i] * log2l(total / h[i]);
		const uint64_t want = defl_entropy_portable(h, n);
		/* Each logarithm is short of the true one by less than 256 log2(17/16) < 22.4 units
		 * (the table steps by a sixteenth of the mantissa) and never above it, so the value
		 * never wraps below zero (a count equal to the total gives exactly 0). */
		if (total < 4294967296.0L) {
			assert_true((int64_t)want >= 0);
			assert_true(fabsl((long double)want - 256 * sum) <= 45 * total + 1);
		}
		for (size_t v = 0; v < sf->count; v++) {
			if (!stoa_variant_usable(&sf->variants[v]))
				continue;
			const uint64_t got = ((defl_entropy_fn *)sf->variants[v].fn)(h, n);
			if (got != want)
				fail_msg("defl_entropy %s: n %u shape %d: %" PRIu64 ", portable %" PRIu64,
				         sf->variants[v].name, n, shape, got, want);
			calls++;
		}
	}
	print_message("defl_entropy: %lu variant calls equal to the portable loop, which is within "
	              "the error its logarithms allow of the exact sum\n",
	              calls);
}

/* Levels 10-12's cheapest path: every usable variant chooses the portable one's path and costs,
 * over cached matches of every shape: none, short ones growing by one, long ones to 258 (the
 * vector steps and their overlapping last step), whole-only matches (OPT_WHOLE), matches running
 * past the end, and costs in coarse steps so that equal totals, where the shortest length must
 * win, are common. */
static void test_path(void **state)
{
	(void)state;
	const struct stoa_func *sf = stoa_find_func("defl_path");
	assert_non_null(sf);
	struct defl_opt *o = malloc(sizeof(*o));
	uint32_t *want_cost = malloc(4001 * sizeof(uint32_t)), *want_ch = malloc(4001 * sizeof(uint32_t));
	uint8_t src[4000];
	assert_true(o && want_cost && want_ch);
	struct defl_opt_costs c;
	unsigned long calls = 0, longs = 0;
	for (int iter = 0; iter < 60; iter++) {
		const uint32_t n = iter < 4 ? (uint32_t)iter : 1 + (uint32_t)test_rand_below(4000);
		const uint32_t step = 1u + (uint32_t)test_rand_below(iter % 3 ? 16 : 1); /* coarse */
		for (uint32_t b = 0; b < 256; b++)
			c.lit[b] = step * (1 + (uint32_t)test_rand_below(240 / step + 1));
		for (uint32_t l = 0; l <= DEFL_MAX_MATCH; l++)
			c.len[l] = step * (1 + (uint32_t)test_rand_below(400 / step + 1));
		for (uint32_t d = 0; d < 30; d++)
			c.dsym[d] = step * (uint32_t)test_rand_below(450 / step + 1);
		uint32_t mi = 0;
		for (uint32_t i = 0; i < n; i++) {
			src[i] = (uint8_t)test_rand();
			o->start[i] = mi;
			const uint32_t r = (uint32_t)test_rand_below(8);
			uint32_t len = 2, k = r < 2 ? 0 : (uint32_t)test_rand_below(OPT_PER_POS + 1);
			for (; k && len < DEFL_MAX_MATCH; k--) {
				len += r < 5 ? 1 + (uint32_t)test_rand_below(4)
				             : 1 + (uint32_t)test_rand_below(DEFL_MAX_MATCH - len);
				longs += len >= 11;
				const uint32_t dist = 1 + (uint32_t)test_rand_below(32768);
				o->m[mi++] = OPT_M(len, defl_dist_sym(dist), dist);
			}
			if (r == 7)
				o->m[mi++] = OPT_M(3 + test_rand_below(256), 4, 6) | OPT_WHOLE;
		}
		o->start[n] = mi;
		defl_path_portable(o, src, n, &c);
		memcpy(want_cost, o->cost, (n + 1) * sizeof(uint32_t));
		memcpy(want_ch, o->choice, n * sizeof(uint32_t));
		for (size_t v = 0; v < sf->count; v++) {
			if (!stoa_variant_usable(&sf->variants[v]))
				continue;
			memset(o->cost, 0xa5, (n + 1) * sizeof(uint32_t));
			memset(o->choice, 0xa5, n * sizeof(uint32_t));
			((defl_path_fn *)sf->variants[v].fn)(o, src, n, &c);
			if (memcmp(o->cost, want_cost, (n + 1) * sizeof(uint32_t)) ||
			    memcmp(o->choice, want_ch, n * sizeof(uint32_t)))
				fail_msg("defl_path %s: iteration %d (n %u, cost step %u): another path",
				         sf->variants[v].name, iter, n, step);
			calls++;
		}
		/* The portable path is the cheapest: no position has a cheaper literal or
		 * match than its choice. */
		for (uint32_t i = 0; i < n; i++) {
			assert_true(want_cost[i] <= c.lit[src[i]] + want_cost[i + 1]);
			const uint32_t ch = want_ch[i];
			if (ch)
				assert_int_equal(want_cost[i], c.len[OPT_LEN(ch)] + c.dsym[OPT_DSYM(ch)] +
				                                    want_cost[i + OPT_LEN(ch)]);
			else
				assert_int_equal(want_cost[i], c.lit[src[i]] + want_cost[i + 1]);
		}
	}
	assert_true(longs > 1000);
	free(o);
	free(want_cost);
	free(want_ch);
	print_message("defl_path: %lu variant calls chose the portable path\n", calls);
}

/* Every usable variant of the level 1-3 tokenizers gives the portable one's tokens (the table's
 * last entry), and those code the input: table sizes the loops are specialised for and others,
 * 32 KiB and smaller windows, a window that starts late (lo), small token areas, inputs cut in
 * short and long calls, the input's last byte at a guard page. */
static void test_tokenizers(void **state)
{
	(void)state;
	static const char *const names[] = { "defl_tok_lvl1", "defl_tok_lvl2", "defl_tok_lvl3" };
	const uint32_t n = 300000;
	uint8_t *b = guard_alloc(n, GUARD_BACK);
	make_tok_input(b, n);
	uint8_t *text = guard_alloc(n, GUARD_BACK);
	make_text_input(text, n);
	int runs = 0, variants = 0;
	uint64_t want = 0;
	for (uint32_t level = 1; level <= 3; level++) {
		const struct stoa_variant *vs[8];
		const size_t nv = test_variants(test_func(names[level - 1]), vs, 8, NULL);
		/* Cases 8-13: positions from 0 without and then with the fresh flag (the twins
		 * must agree), on text, with level 1's 4-byte hash in the last pair. */
		for (int c = 0; c < 14; c++) {
			static const uint32_t bits[14] = { 13, 14, 15, 16, 11, 13, 14,
				                           16, 13, 13, 14, 14, 13, 13 };
			static const uint32_t maxd[14] = { 32768, 32768, 32768, 32768, 32768,
				                           4096,  32768, 1024,  32768, 32768,
				                           32768, 32768, 32768, 32768 };
			static const uint32_t cap[14] = { 70000, 70000, 70000, 70000, 300,
				                          5000,  20,    70000, 70000, 70000,
				                          70000, 70000, 300,   300 };
			static const uint32_t step[14] = { 300000, 65536,  300000, 1000,   300000,
				                           7000,   300000, 33,     300000, 300000,
				                           20000,  20000,  300000, 300000 };
			const uint32_t lo = c == 1 ? 12345 : 0;
			const int fresh = c < 8 ? -1 : c % 2;
			const uint32_t keep = c >= 12 && level == 1 ? DEFL_HKEEP_4B : 0;
			for (size_t i = 0; i < nv; i++) {
				const struct stoa_variant *v = vs[(i + nv - 1) % nv];
				const uint64_t h = tok_run((defl_tok_fn *)v->fn, level, c < 8 ? b : text,
				                           n, lo, bits[c], maxd[c], cap[c], step[c],
				                           fresh, keep);
				if (i == 0 && fresh <= 0)
					want = h;
				else if (h != want)
					fail_msg("%s %s: tokens differ from base's (case %d)",
					         names[level - 1], v->name, c);
				runs++;
				variants += c == 0;
			}
		}
	}
	guard_free(text, n, GUARD_BACK);
	guard_free(b, n, GUARD_BACK);
	print_message(
	    "level 1-3 tokenizers: %d runs over 300 KB of mixed data and of text (%d variants), "
	    "tokens code the input, counts match, every variant's tokens are base's, fresh "
	    "windows' too\n",
	    runs, variants);
}

/* ---- level 0 ------------------------------------------------------------------------------ */

/* Level 0 (deflate_lvl0.c) coding b[lo .. n) with fn and the default codes as one final block,
 * in calls asked to stop `step` bytes on, into an output window of `room` bytes at a guard page,
 * drained between calls. zlib must restore b[lo .. n) from the block. Returns the block's
 * fingerprint. */
static uint64_t lvl0_run(defl_lvl0_fn *fn, const uint8_t *b, uint32_t n, uint32_t lo,
                         uint32_t maxdist, uint32_t step, size_t room, int fresh, uint32_t hbits)
{
	const struct isal_hufftables *t = defl_default_codes();
	uint16_t *head = calloc((size_t)1 << DEFL_LVL0_HASH_BITS, 2);
	/* A small table (hbits) is all the coder may use: the entries past it are poison, and
	 * must stay so. */
	if (head && hbits)
		memset(head + ((size_t)1 << hbits), 0xa5,
		       ((size_t)2 << DEFL_LVL0_HASH_BITS) - ((size_t)2 << hbits));
	uint8_t *all = malloc(2 * (size_t)n + 1024);
	uint8_t *win = guard_alloc(room, GUARD_BACK);
	uint8_t hdr[ISAL_DEF_MAX_HDR_SIZE + 16];
	assert_true(head && all);
	struct BitBuf2 bb;
	bw_init(&bb, hdr, sizeof(hdr));
	defl_write_header(&bb, t, 1);
	size_t len = (size_t)(bb.m_out_buf - hdr);
	memcpy(all, hdr, len);
	bw_set_buf(&bb, win, room);
	/* fresh >= 0: positions from 0 (lo is 0), the window said to be fresh or not. */
	const struct defl_win w = { b, lo, n, fresh < 0 ? 1000u * lo + 7 : 0, maxdist,
		                    fresh > 0, hbits };
	for (uint32_t p = lo, done = 0; !done;) {
		if (p < n) {
			const uint32_t stop = n - p > step ? p + step : n;
			const uint32_t q = fn(&bb, t, head, &w, p, stop);
			/* (a match may run past stop) */
			assert_true(q <= n && (q > p || bw_room(&bb) < 16));
			p = q;
		} else {
			defl_emit_eob(&bb, t);
			bw_flush_to_byte(&bb);
			done = 1;
		}
		const size_t used = (size_t)(bb.m_out_buf - win);
		memcpy(all + len, win, used);
		len += used;
		bw_set_buf(&bb, win, room);
	}
	inflate_check(all, len, b + lo, n - lo);
	for (size_t i = hbits ? (size_t)1 << hbits : SIZE_MAX; i < (size_t)1 << DEFL_LVL0_HASH_BITS;
	     i++)
		if (head[i] != 0xa5a5)
			fail_msg("level 0 with a table of 2^%u entries wrote entry %zu", hbits, i);
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ all[i]) * 1099511628211ull;
	guard_free(win, room, GUARD_BACK);
	free(all);
	free(head);
	return h;
}

/* Every usable level 0 variant writes the portable one's bytes, which zlib decodes: 32 KiB and
 * smaller windows, a window that starts late, calls that stop early, output windows down to a
 * few symbols, the input's last byte at a guard page. A fresh window (a cleared table, positions
 * from 0: defl_win.fresh) codes the bytes the same window does without the flag. */
static void test_level0(void **state)
{
	(void)state;
	const uint32_t n = 300000;
	uint8_t *b = guard_alloc(n, GUARD_BACK);
	make_tok_input(b, n);
	const struct stoa_func *sf = stoa_find_func("defl_lvl0");
	assert_non_null(sf);
	assert_string_equal(sf->variants[sf->count - 1].name, "base");
	static const struct {
		uint32_t lo, maxdist, step;
		size_t room;
		int fresh; /* lvl0_run's */
	} cases[] = {
		{ 0, 32768, 300000, 1 << 20, -1 }, { 12345, 32768, 65536, 1 << 20, -1 },
		{ 0, 4096, 7000, 1 << 20, -1 },    { 0, 1024, 33, 1 << 20, -1 },
		{ 0, 32768, 300000, 40, -1 },      { 777, 32768, 1000, 300, -1 },
		{ 0, 32768, 300000, 1 << 20, 0 },  { 0, 32768, 300000, 1 << 20, 1 },
		{ 0, 32768, 20000, 1 << 20, 0 },   { 0, 32768, 20000, 1 << 20, 1 },
		{ 0, 4096, 7000, 50, 0 },          { 0, 4096, 7000, 50, 1 },
	};
	uint8_t *text = guard_alloc(n, GUARD_BACK);
	make_text_input(text, n);
	int runs = 0, variants = 0;
	uint64_t want = 0;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		/* (The fresh cases and their twins code the text too.) */
		const uint8_t *const in = cases[c].fresh >= 0 && c < 10 ? text : b;
		for (size_t i = 0; i < sf->count; i++) {
			const struct stoa_variant *v = &sf->variants[(i + sf->count - 1) % sf->count];
			if (!stoa_variant_usable(v))
				continue;
			const uint64_t h = lvl0_run((defl_lvl0_fn *)v->fn, in, n, cases[c].lo,
			                            cases[c].maxdist, cases[c].step, cases[c].room,
			                            cases[c].fresh, 0);
			/* (A fresh case follows its twin without the flag, whose bytes it keeps.) */
			if (i == 0 && cases[c].fresh <= 0)
				want = h;
			else if (h != want)
				fail_msg("defl_lvl0 %s: bytes differ from base's (case %zu)", v->name, c);
			runs++;
			variants += c == 0;
		}
	}
	guard_free(text, n, GUARD_BACK);
	guard_free(b, n, GUARD_BACK);
	print_message("level 0: %d runs over 300 KB of mixed data and of text (%d variants), zlib "
	              "restores "
	              "every one, every variant's bytes are base's\n",
	              runs, variants);
}

/* Small one-shot inputs (defl_lvl0_small_bits): every variant codes them with the small table
 * alone (the rest of head[] is poison), to base's bytes, which zlib decodes; the table grows with
 * the input, to the full one past 2 KiB. */
static void test_level0_small_table(void **state)
{
	(void)state;
	assert_int_equal(defl_lvl0_small_bits(1), 8);
	assert_int_equal(defl_lvl0_small_bits(200), 9);
	assert_int_equal(defl_lvl0_small_bits(1024), 11);
	assert_int_equal(defl_lvl0_small_bits(1025), 12);
	assert_int_equal(defl_lvl0_small_bits(2048), 12);
	assert_int_equal(defl_lvl0_small_bits(2049), 0);
	const struct stoa_func *sf = stoa_find_func("defl_lvl0");
	assert_non_null(sf);
	static const uint32_t sizes[] = { 1, 4, 31, 32, 33, 95, 200, 511, 777, 1024, 1500, 2048 };
	const uint32_t nmax = 2048;
	uint8_t *text = guard_alloc(nmax, GUARD_BACK), *mixed = guard_alloc(nmax, GUARD_BACK);
	make_text_input(text, nmax);
	make_tok_input(mixed, nmax);
	int runs = 0;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		const uint32_t n = sizes[k], hb = defl_lvl0_small_bits(n);
		for (int in = 0; in < 2; in++) {
			/* The input's last byte at the guard page. */
			const uint8_t *b = (in ? mixed : text) + nmax - n;
			for (int rc = 0; rc < 2; rc++) {
				const uint32_t step = rc ? 33 : n;
				const size_t room = rc ? 50 : 1 << 16;
				uint64_t want = 0;
				for (size_t i = 0; i < sf->count; i++) {
					const struct stoa_variant *v =
					    &sf->variants[(i + sf->count - 1) % sf->count];
					if (!stoa_variant_usable(v))
						continue;
					const uint64_t h = lvl0_run((defl_lvl0_fn *)v->fn, b, n, 0,
					                            DEFL_WIN_SIZE, step, room, 1, hb);
					if (i == 0)
						want = h;
					else if (h != want)
						fail_msg("defl_lvl0 %s: %u bytes: differs from base", v->name,
						         n);
					runs++;
				}
			}
		}
	}
	guard_free(text, nmax, GUARD_BACK);
	guard_free(mixed, nmax, GUARD_BACK);
	print_message("level 0, small tables: %d runs, every variant's bytes are base's\n", runs);
}

/* The chain heads' sweep (deflate_chain.h): positions advance in random steps over many 2^16
 * wraps, each step writes heads as entering positions does, and the sweep runs when due, as the
 * tokenizers call it. After every step no head may read as inside the window (an age of 1 ..
 * 32768 taken modulo 2^16) unless that is the true distance to the position written there: a
 * fresh table's zeros read as near again 64 KiB in without the sweep. One sweep is also checked
 * entry by entry, and after a gap too long to tell ages every head reads as out of the window. */
static void test_chain_sweep(void **state)
{
	(void)state;
	enum { BITS = 10, N = 1 << BITS };
	struct defl_lvl L;
	memset(&L, 0, sizeof(L));
	uint16_t head[N];
	/* The stream position written to each head: a fresh table's zeros name position 0. */
	uint64_t truth[N];
	memset(head, 0, sizeof(head));
	memset(truth, 0, sizeof(truth));
	L.hash = head;
	L.hash_bits = BITS;
	uint64_t now = 0, checks = 0;
	uint32_t sweeps = 0;
	while (now < 600000) {
		now += 1 + test_rand() % (test_rand() % 8 ? 20 : 300);
		const uint32_t before = L.swept;
		chain_sweep_due(&L, (uint32_t)now);
		sweeps += L.swept != before;
		/* Enter a few positions (most buckets stay untouched for long stretches). */
		for (int k = (int)(test_rand() % 3); k > 0; k--) {
			const uint32_t b = (uint32_t)(test_rand() % (N / 16));
			head[b] = (uint16_t)now;
			truth[b] = now;
		}
		for (int i = 0; i < N; i++) {
			const uint32_t age = (uint16_t)((uint32_t)now - head[i]);
			if (age == 0 || age > DEFL_WIN_SIZE)
				continue;
			checks++;
			if (truth[i] + age != now)
				fail_msg("head %d reads %u back at position %llu, written at %llu", i, age,
				         (unsigned long long)now, (unsigned long long)truth[i]);
		}
	}
	assert_true(sweeps >= 600000 / (DEFL_SWEEP + 300));
	/* One sweep entry by entry: inside the window kept, the rest just beyond it. */
	for (int round = 0; round < 200; round++) {
		const uint32_t at = (uint32_t)test_rand();
		const uint32_t gap = (uint32_t)(test_rand() % 70000);
		L.swept = at - gap;
		uint16_t old[N];
		for (int i = 0; i < N; i++)
			old[i] = head[i] = (uint16_t)test_rand();
		defl_chain_sweep(&L, at);
		assert_int_equal(L.swept, at);
		for (int i = 0; i < N; i++) {
			const uint32_t age = (uint16_t)(at - old[i]);
			const int keep = gap < DEFL_WIN_SIZE - 1 && age >= 1 && age <= DEFL_WIN_SIZE;
			assert_int_equal(head[i], keep ? old[i] : (uint16_t)(at - DEFL_WIN_SIZE - 1));
		}
	}
	print_message("chain heads: %u sweeps over 600 KB of positions, %llu heads inside the "
	              "window each at its true distance; single sweeps exact entry by entry\n",
	              sweeps, (unsigned long long)checks);
}

static int setup(void **state)
{
	(void)state;
	test_seed();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_histograms), cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_blocks_zlib),       cmocka_unit_test(test_static_codes),
		cmocka_unit_test(test_header_bfinal),     cmocka_unit_test(test_default_codes),
		cmocka_unit_test(test_public_builders),   cmocka_unit_test(test_update_histogram),
		cmocka_unit_test(test_tokenizers),        cmocka_unit_test(test_level0),
		cmocka_unit_test(test_level0_small_table),
		cmocka_unit_test(test_small_block_codes_optimal),
		cmocka_unit_test(test_entropy),           cmocka_unit_test(test_path),           cmocka_unit_test(test_chain_sweep),
	};
	return TEST_MAIN("huff", tests, setup, NULL);
}
