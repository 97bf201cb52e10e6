/* Deflate and inflate at the edges of their buffers.
 *
 * Every buffer handed to the code under test ends right before an inaccessible page (or, in the
 * "front" cases, starts right after one), so a load or store one byte outside it faults. Input
 * lengths run densely over 0 .. DENSE_MAX and around the sizes where the code changes its ways
 * (look-ahead and loop margins, segments, blocks, the internal buffer, the small-input rule), and
 * sparsely up to a MiB. The data: the Calgary corpus's obj2 (binary; its first 206 bytes made
 * level 3 read past the input), text, copies at random distances, runs and short periods.
 *
 *  - match finders: every usable variant of defl_lvl0 and defl_tok_lvl1..3 straight from the
 *    variant tables, on windows that start late (lo, with the history before the first position
 *    hashed as a dictionary is), stop short of their end (as a stream does), small windows and
 *    every table size their loops are specialised for; tokens are checked against the input,
 *    level 0's output is decoded by zlib; level 0 and defl_write_tokens also write into small
 *    rooms that end at a guard page;
 *  - block decoders: every usable inflate_huff variant on streams ending at a guard page, into
 *    output that ends at one, also one byte short of either;
 *  - the API: isal_deflate_stateless and isal_deflate at every level, wrapper, flush mode and
 *    hist_bits, with and without a dictionary, every call's input and output at a guard page;
 *    each stream decoded the same way by isal_inflate_stateless and isal_inflate, and by zlib. A
 *    stream's state and level buffer start out holding different garbage in two runs that must
 *    give the same bytes: its match finders read its internal buffer, which no guard page
 *    bounds, and nothing past the data there may count.
 */
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
#include "igzip/inflate_internal.h"
#include "isa-l/igzip_lib.h"
#include "testutil.h"

#define DENSE_MAX 4200u
#define API_DENSE 600u
#define DATA_LEN  (1100u * 1024)
#define WIN_CAP   (DATA_LEN + DATA_LEN / 8 + 64u * 1024)

/* Lengths near the code's edges (each visited with lengths around it): level 0's segments, the
 * window, the stored block limit, the small-input rule, the streaming buffer, its blocks. */
static const uint32_t edges[] = { 4096,
	                          8192,
	                          16384,
	                          DEFL_WIN_SIZE,
	                          DEFL_WIN_SIZE + DEFL_MAX_MATCH,
	                          65535,
	                          DEFL_SMALL_INPUT,
	                          DEFL_BUF_SIZE,
	                          DEFL_BUF_SIZE + DEFL_MAX_MATCH,
	                          3 * DEFL_WIN_SIZE,
	                          4 * DEFL_WIN_SIZE };
static const uint32_t large[] = { 262147, 1048583 };

enum { K_BINARY, K_TEXT, K_COPIES, K_RUNS, NKINDS };
static const char *const kind_name[NKINDS] = { "binary", "text", "copies", "runs" };
static uint8_t *data[NKINDS];
static const char *binary_name = "calgary/obj2";

/* The case being run, printed by the tests' teardown when one fails. */
static char current[320];
static int in_case;
#define CASE(...)                                                                                  \
	do {                                                                                       \
		snprintf(current, sizeof(current), __VA_ARGS__);                                   \
		in_case = 1;                                                                       \
	} while (0)

static struct gwin {
	uint8_t *g;
	int where;
} win_in[2], win_out[2], win_dict;

/* n bytes at the guarded edge of w (for output: where n bytes of room start). */
static uint8_t *gw_at(const struct gwin *w, size_t n)
{
	assert_true(n <= WIN_CAP);
	return w->where == GUARD_BACK ? w->g + WIN_CAP - n : w->g;
}

static uint8_t *gw_put(const struct gwin *w, const uint8_t *src, size_t n)
{
	uint8_t *p = gw_at(w, n);
	if (n)
		memcpy(p, src, n);
	return p;
}

/* ---- data --------------------------------------------------------------------------------- */

static void gen_text(uint8_t *p, size_t n)
{
	static const char *const words[] = { "the ",   "of ",     "stream ",  "deflate ",
		                             "and ",   "window ", "match ",   "to ",
		                             "block ", "a ",      "literal ", ", ",
		                             ".\n",    "bytes ",  "in ",      "Huffman " };
	for (size_t i = 0; i < n;) {
		const char *w = words[test_rand_below(16)];
		while (*w && i < n)
			p[i++] = (uint8_t)*w++;
	}
}

/* Object-code-like bytes (opcodes, growing little-endian addresses, zeros, names) for when no
 * corpus is found. */
static void gen_binary(uint8_t *p, size_t n)
{
	static const char *const names[] = { "_main", "_printf", "_malloc", "__iob", "_strlen" };
	uint32_t addr = 0x1000;
	for (size_t i = 0; i < n;) {
		uint8_t rec[16];
		size_t k = 0;
		const uint32_t t = (uint32_t)test_rand_below(8);
		if (t < 4) {
			rec[k++] = (uint8_t)(0x40 + 0x11 * t);
			rec[k++] = (uint8_t)test_rand_below(4);
			addr += 2 + (uint32_t)test_rand_below(12);
			for (int b = 0; b < 4; b++)
				rec[k++] = (uint8_t)(addr >> (8 * b));
		} else if (t < 6) {
			k = 2 + (size_t)test_rand_below(10);
			memset(rec, 0, k);
		} else if (t == 6) {
			const char *s = names[test_rand_below(5)];
			k = strlen(s) + 1;
			memcpy(rec, s, k);
		} else {
			k = 1 + (size_t)test_rand_below(6);
			test_fill_random(rec, k);
		}
		for (size_t j = 0; j < k && i < n; j++)
			p[i++] = rec[j];
	}
}

static void gen_copies(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n;) {
		if (i > 64 && test_rand_below(3)) {
			const size_t d = 1 + test_rand_below(i < 40000 ? i : 40000);
			const size_t k = 3 + test_rand_below(test_rand_below(4) ? 20 : 300);
			for (size_t j = 0; j < k && i < n; j++, i++)
				p[i] = p[i - d];
		} else {
			p[i++] = (uint8_t)test_rand();
		}
	}
}

static void gen_runs(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n;) {
		const size_t period = 1 + test_rand_below(test_rand_below(2) ? 3 : 20);
		const size_t k = 1 + test_rand_below(test_rand_below(4) ? 40 : 1000);
		uint8_t pat[20];
		test_fill_random(pat, period);
		for (size_t j = 0; j < k && i < n; j++)
			p[i++] = pat[j % period];
		if (test_rand_below(2))
			p[i < n ? i++ : 0] = (uint8_t)test_rand();
	}
}

/* The bytes of kind k a case of length n uses: a prefix (as the reproducer had), or from a
 * random offset. */
static const uint8_t *sample(int k, size_t n, int prefix)
{
	return data[k] + (prefix ? 0 : test_rand_below(DATA_LEN - n + 1));
}

static int setup(void **state)
{
	(void)state;
	test_seed();
	for (int k = 0; k < NKINDS; k++) {
		data[k] = malloc(DATA_LEN);
		assert_non_null(data[k]);
	}
	size_t clen = 0;
	uint8_t *obj = test_corpus_file(binary_name, &clen);
	/* The corpus file first, generated object code after it. */
	if (obj && clen > DATA_LEN)
		clen = DATA_LEN;
	if (obj)
		memcpy(data[K_BINARY], obj, clen);
	else
		binary_name = "generated object code";
	free(obj);
	gen_binary(data[K_BINARY] + clen, DATA_LEN - clen);
	gen_text(data[K_TEXT], DATA_LEN);
	gen_copies(data[K_COPIES], DATA_LEN);
	gen_runs(data[K_RUNS], DATA_LEN);
	for (int w = 0; w < 2; w++) {
		win_in[w] = (struct gwin){ guard_alloc(WIN_CAP, w), w };
		win_out[w] = (struct gwin){ guard_alloc(WIN_CAP, w), w };
	}
	win_dict = (struct gwin){ guard_alloc(WIN_CAP, GUARD_BACK), GUARD_BACK };
	print_message("data: %s, text, copies, runs\n", binary_name);
	return 0;
}

static int report_case(void **state)
{
	(void)state;
	if (in_case)
		print_error("failing case: %s\n", current);
	in_case = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int w = 0; w < 2; w++) {
		guard_free(win_in[w].g, WIN_CAP, w);
		guard_free(win_out[w].g, WIN_CAP, w);
	}
	guard_free(win_dict.g, WIN_CAP, GUARD_BACK);
	for (int k = 0; k < NKINDS; k++)
		free(data[k]);
	return 0;
}

/* The lengths a sweep visits: every one up to `dense`, every `step`th up to DENSE_MAX, the
 * edges and lengths near them, and the large ones when `big`. Returns the count written to
 * out. */
static size_t lengths(uint32_t *out, uint32_t dense, uint32_t step, int big)
{
	static const int32_t near[] = { -16, -9, -3, -2, -1, 0, 1, 2, 3, 9, 16 };
	size_t k = 0;
	for (uint32_t n = 0; n <= DENSE_MAX; n += n < dense ? 1 : step)
		out[k++] = n;
	for (size_t e = 0; e < sizeof(edges) / sizeof(edges[0]); e++)
		for (size_t d = 0; d < sizeof(near) / sizeof(near[0]); d++)
			out[k++] = (uint32_t)((int32_t)edges[e] + near[d]);
	for (size_t e = 0; big && e < sizeof(large) / sizeof(large[0]); e++)
		out[k++] = large[e];
	return k;
}
#define MAX_LENGTHS (DENSE_MAX + 1 + 11 * sizeof(edges) / sizeof(edges[0]) + 2)

/* ---- match finders, straight from the variant tables ------------------------------------ */

/* The tokens of one block code b[from .. to) with distances within the window. */
static void check_tokens(const struct defl_lvl *L, const struct defl_win *w, uint32_t from,
                         uint32_t to)
{
	uint32_t at = from;
	for (uint32_t i = 0; i < L->ntok; i++) {
		const uint32_t t = L->tok[i], sym = DEFL_TOK_LL(t);
		if (sym < 256) {
			assert_int_equal(sym, w->base[at]);
			at++;
			continue;
		}
		const uint32_t len = sym - 254;
		const uint32_t dist = deflate_dist_base[DEFL_TOK_DSYM(t)] + DEFL_TOK_DEXTRA(t);
		assert_true(dist <= w->maxdist && dist <= at - w->lo && at + len <= w->end);
		assert_memory_equal(w->base + at, w->base + at - dist, len);
		at += len;
	}
	assert_int_equal(at, to);
}

/* Write the block's tokens with every usable defl_write_tokens into rooms of 16 .. 80 bytes
 * ending at a guard page (the output itself is test_huff's business). */
static void write_small_rooms(const struct defl_lvl *L, const struct isal_hufftables *codes)
{
	static const struct stoa_func *sf;
	if (!sf)
		sf = stoa_find_func("defl_write_tokens");
	for (size_t v = 0; v < sf->count; v++) {
		if (!stoa_variant_usable(&sf->variants[v]))
			continue;
		defl_write_tokens_fn *fn = (defl_write_tokens_fn *)sf->variants[v].fn;
		struct BitBuf2 b;
		const uint32_t room = 16 + (uint32_t)test_rand_below(65);
		bw_init(&b, gw_at(&win_out[0], room), room);
		for (size_t i = 0; i < L->ntok;) {
			bw_set_buf(&b, gw_at(&win_out[0], room), room);
			const size_t k = fn(&b, codes, L->tok + i, L->ntok - i);
			assert_true(k > 0 && b.m_out_buf <= b.m_out_end);
			i += k;
		}
	}
}

/* Tokenize w from p0 to stop with fn in calls of `step` bytes, the window's history [lo, p0)
 * entered first; every block checked. */
static void tok_case(defl_tok_fn *fn, struct defl_lvl *L, const struct defl_win *w, uint32_t p0,
                     uint32_t stop, uint32_t step, const struct isal_hufftables *codes)
{
	/* (The hash table keeps the last case's entries: stale ones must never count. A fresh
	 * window's table is cleared first, as defl_lvl_setup leaves it.) */
	if (w->fresh)
		memset(L->hash, 0, (size_t)2 << 16);
	defl_lvl_block_reset(L);
	defl_lvl_insert(L, w, w->lo, p0);
	uint32_t p = p0, start = p0;
	while (p < stop) {
		const uint32_t q = fn(L, w, p, stop - p > step ? p + step : stop);
		assert_true(q <= w->end);
		assert_true(q > p || L->split || L->ntok + DEFL_TOK_SLACK >= L->tok_cap);
		p = q;
		if (L->split || L->ntok + DEFL_TOK_SLACK >= L->tok_cap || p >= stop) {
			check_tokens(L, w, start, p);
			if (codes && L->ntok)
				write_small_rooms(L, codes);
			defl_lvl_block_reset(L);
			start = p;
		}
	}
}

/* Level 0 codes w from p0 to the end (history [lo, p0) entered first) into one room ending at
 * a guard page; zlib decodes it (with the history as its dictionary). Then again into rooms of
 * 16 .. 100 bytes, each ending at the guard page. */
static void lvl0_case(defl_lvl0_fn *fn, const struct defl_win *w, uint32_t p0, int small)
{
	static uint16_t head[1u << DEFL_LVL0_HASH_BITS];
	static uint8_t plain[DATA_LEN];
	const struct isal_hufftables *t = defl_default_codes();
	const uint32_t n = w->end - p0;
	const uint32_t room = 2 * n + ISAL_DEF_MAX_HDR_SIZE + 64;
	uint8_t *out = gw_at(&win_out[1], room); /* (its start at a guard page too) */
	struct BitBuf2 b;
	if (w->fresh)
		memset(head, 0, sizeof(head));
	defl_lvl0_insert(head, w, w->lo, p0); /* (over the last case's entries) */
	bw_init(&b, out, room);
	defl_write_header(&b, t, 1);
	assert_int_equal(fn(&b, t, head, w, p0, w->end), w->end);
	defl_emit_eob(&b, t);
	bw_flush_to_byte(&b);
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, -15), Z_OK);
	if (p0 > w->lo)
		assert_int_equal(inflateSetDictionary(&z, w->base + w->lo, p0 - w->lo), Z_OK);
	z.next_in = out;
	z.avail_in = (uInt)(b.m_out_buf - out);
	z.next_out = plain;
	z.avail_out = n + 1;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	assert_int_equal(z.total_out, n);
	assert_memory_equal(plain, w->base + p0, n);
	inflateEnd(&z);
	if (!small)
		return;
	/* (Coded again from p0: a fresh window's table holds what the first pass entered, so it
	 * starts cleared again.) */
	if (w->fresh) {
		memset(head, 0, sizeof(head));
		defl_lvl0_insert(head, w, w->lo, p0);
	}
	bw_init(&b, out, room);
	for (uint32_t p = p0; p < w->end;) {
		const uint32_t r = 16 + (uint32_t)test_rand_below(85);
		bw_set_buf(&b, gw_at(&win_out[0], r), r);
		p = fn(&b, t, head, w, p, w->end);
		assert_true(b.m_out_buf <= b.m_out_end);
	}
}

static void test_match_finders(void **state)
{
	(void)state;
	static const char *const names[] = { "defl_lvl0", "defl_tok_lvl1", "defl_tok_lvl2",
		                             "defl_tok_lvl3" };
	static uint32_t lens[MAX_LENGTHS];
	const size_t nl = lengths(lens, DENSE_MAX, 1, 0);
	struct defl_lvl *L = calloc(1, sizeof(*L));
	assert_non_null(L);
	L->hash = malloc((size_t)2 << 16);
	L->tok = malloc(70000u * 4);
	assert_true(L->hash && L->tok);
	struct isal_hufftables codes;
	defl_static_codes(&codes);
	unsigned long runs = 0, variants = 0;
	for (int f = 0; f < 4; f++) {
		const struct stoa_func *sf = stoa_find_func(names[f]);
		assert_non_null(sf);
		for (size_t v = 0; v < sf->count; v++) {
			if (!stoa_variant_usable(&sf->variants[v]))
				continue;
			variants++;
			for (size_t i = 0; i < nl; i++) {
				const uint32_t n = lens[i];
				/* Two kinds at every length up to 1100, one above
				 * (binary and text as prefixes, as the reproducer was), one
				 * random set-up each. */
				const int kstep = n <= 1100 ? 2 : NKINDS;
				for (int k = (int)(n % (uint32_t)kstep); k < NKINDS; k += kstep) {
					const int front = test_rand_below(4) == 0;
					const uint8_t *src = sample(k, n, k <= K_TEXT);
					const uint8_t *base = gw_put(&win_in[front], src, n);
					const uint32_t hb = (uint32_t)test_rand_below(3)
					                        ? 15
					                        : 1 + (uint32_t)test_rand_below(15);
					const uint32_t lo =
					    test_rand_below(4)
					        ? 0
					        : (uint32_t)test_rand_below(n / 2 + 1);
					const uint32_t p0 =
					    lo + (test_rand_below(2)
					              ? 0
					              : (uint32_t)test_rand_below(n - lo + 1));
					/* A third of the windows from 0 are fresh (a one-shot
					 * call's first window: bias 0, the table cleared), where
					 * levels 0-2 run loops that check only the first pair's
					 * candidates (the sanitizer build checks every one). */
					const uint32_t fresh = lo == 0 && test_rand_below(3) == 0;
					const struct defl_win w = { base, lo, n,
						                    fresh ? 0 : (uint32_t)test_rand(),
						                    1u << hb, fresh, 0 };
					CASE("%s %s: %s n %u lo %u p0 %u maxdist %u %s%s", names[f],
					     sf->variants[v].name, kind_name[k], n, lo, p0,
					     1u << hb, front ? "front" : "back", fresh ? " fresh" : "");
					if (f == 0) {
						lvl0_case((defl_lvl0_fn *)sf->variants[v].fn, &w,
						          p0, n < 4096);
						runs++;
						continue;
					}
					static const uint32_t bits[] = { 13, 14, 15, 16, 10, 12 };
					static const uint32_t caps[] = { 70000, 70000, 70000, 300,
						                         20 };
					L->par = defl_params((uint32_t)f);
					L->hash_bits = bits[test_rand_below(6)];
					L->hash_keep =
					    f < 3 && test_rand_below(2) ? DEFL_HKEEP_4B : 0;
					L->tok_cap = caps[test_rand_below(5)];
					const uint32_t back =
					    test_rand_below(3) ? 0 : (uint32_t)test_rand_below(300);
					const uint32_t stop = n - p0 > back ? n - back : n;
					const uint32_t step =
					    test_rand_below(2)
					        ? UINT32_MAX
					        : 1 + (uint32_t)test_rand_below(5000);
					tok_case((defl_tok_fn *)sf->variants[v].fn, L, &w, p0, stop,
					         step, n < 4096 ? &codes : NULL);
					runs++;
				}
			}
		}
	}
	in_case = 0;
	free(L->hash);
	free(L->tok);
	free(L);
	print_message("match finders: %lu runs of %lu variants (defl_lvl0, defl_tok_lvl1..3), "
	              "lengths 0..%u and around %zu edges, input at a guard page, tokens and "
	              "level 0's output checked\n",
	              runs, variants, DENSE_MAX, sizeof(edges) / sizeof(edges[0]));
}

/* ---- block decoders, straight from the variant table --------------------------------------- */

/* Decode a raw deflate stream with fn as inflate.c does, stored blocks copied here; loop (an
 * INF_LOOP_*) forces the decoders' plain, mixed or unified loop (INF_MIXED_LO) on every block, -1
 * leaves the tables' choice. Returns 0 at the end of the final block with *outlen bytes, else what
 * stopped it (INF_NEED_*, an error). */
static int decode_blocks(inf_block_fn *fn, struct inf_priv *t, const uint8_t *in, size_t inlen,
                         uint8_t *out, size_t room, size_t *outlen, int matches, int loop)
{
	struct inf_br br = { in, in + inlen, 0, 0 };
	uint8_t *o = out, *const oend = out + room;
	int final;
	do {
		if (!inf_br_need(&br, 3))
			return INF_NEED_IN;
		final = (int)inf_br_take(&br, 1);
		const uint32_t type = inf_br_take(&br, 2);
		if (type == 0) {
			inf_br_take(&br, br.bits & 7);
			if (!inf_br_need(&br, 32))
				return INF_NEED_IN;
			uint32_t len = inf_br_take(&br, 16);
			if ((len ^ 0xffff) != inf_br_take(&br, 16))
				return ISAL_INVALID_BLOCK;
			for (; len && br.bits >= 8 && o < oend; len--)
				*o++ = (uint8_t)inf_br_take(&br, 8);
			br.buf &= (1ull << br.bits) - 1;
			if (len > (size_t)(br.end - br.p))
				return INF_NEED_IN;
			if (len > (size_t)(oend - o))
				return INF_NEED_OUT;
			memcpy(o, br.p, len);
			o += len;
			br.p += len;
			continue;
		}
		if (type == 1) {
			inf_build_fixed(t, INF_HIST);
		} else {
			const int r = type == 2 ? inf_read_dynamic(&br, t, INF_HIST, matches)
			                        : ISAL_INVALID_BLOCK;
			if (r)
				return r;
		}
		if (loop >= 0)
			t->loop = (uint8_t)loop;
		struct inf_ctx c = { br, o, oend, oend, out, NULL, 0, t };
		const int r = fn(&c);
		br = c.br;
		o = c.out;
		assert_true(o <= oend);
		if (r != INF_EOB)
			return r;
	} while (!final);
	*outlen = (size_t)(o - out);
	return 0;
}

/* A stream that takes more input than it makes output, which no compressor here writes (they
 * store such data): one final fixed-code block of n literals from 144-255, nine bits each, then
 * the end of block. Returns its length. The fast loop's input bound (INF_STEP_IN) is what keeps
 * the decoders inside such input. */
static size_t expanding_stream(uint8_t *dst, size_t cap, const uint8_t *lits, size_t n)
{
	static struct isal_hufftables fixed;
	if (!fixed.lit_table_sizes[0])
		defl_static_codes(&fixed);
	struct BitBuf2 b;
	bw_init(&b, dst, cap);
	bw_put(&b, 1 | 1u << 1, 3); /* BFINAL, BTYPE 01 */
	for (size_t i = 0; i < n; i++)
		defl_emit_lit(&b, &fixed, lits[i]);
	defl_emit_eob(&b, &fixed);
	bw_flush_to_byte(&b);
	return (size_t)(b.m_out_buf - dst);
}

/* Every decoder variant and loop on expanding streams, input and output at a guard page. */
static unsigned long expanding_cases(const struct stoa_func *sf, struct inf_priv *t, uint8_t *cmp,
                                     uint8_t *lits)
{
	unsigned long runs = 0;
	for (size_t n = 0; n <= 20000; n += n < 600 ? 1 : 97) {
		for (size_t i = 0; i < n; i++)
			lits[i] = (uint8_t)(144 + test_rand_below(112));
		const size_t m = expanding_stream(cmp, compressBound(DATA_LEN), lits, n);
		assert_true(m > n);
		for (size_t v = 0; v < sf->count; v++) {
			if (!stoa_variant_usable(&sf->variants[v]))
				continue;
			inf_block_fn *fn = (inf_block_fn *)sf->variants[v].fn;
			const int front = (int)((n + v) & 1), loop = (int)((n + v) % 4) - 1;
			CASE("inflate_huff %s: expanding stream of %zu literals (%zu bytes), %s, loop %d",
			     sf->variants[v].name, n, m, front ? "front" : "back", loop);
			/* Output room to spare: input is what must stop the fast loop. */
			const uint8_t *in = gw_put(&win_in[front], cmp, m);
			uint8_t *out = gw_at(&win_out[front], n + 1024);
			size_t got = 0;
			assert_int_equal(decode_blocks(fn, t, in, m, out, n + 1024, &got, 1, loop), 0);
			assert_int_equal(got, n);
			assert_memory_equal(out, lits, n);
			in = gw_put(&win_in[front], cmp, m - 1);
			assert_int_not_equal(
			    decode_blocks(fn, t, in, m - 1, out, n + 1024, &got, 1, loop), 0);
			runs++;
		}
	}
	return runs;
}

static void test_block_decoders(void **state)
{
	(void)state;
	static uint32_t lens[MAX_LENGTHS];
	const size_t nl = lengths(lens, 1100, 5, 0);
	const struct stoa_func *sf = stoa_find_func("inflate_huff");
	assert_non_null(sf);
	struct inf_priv *t = malloc(sizeof(*t));
	uint8_t *cmp = malloc(compressBound(DATA_LEN));
	assert_true(t && cmp);
	unsigned long runs = 0;
	for (size_t i = 0; i < nl; i++) {
		const uint32_t n = lens[i];
		const int k = (int)(i % NKINDS);
		const uint8_t *src = sample(k, n, k <= K_TEXT);
		static const int zlevel[] = { 1, 6, 9, 6 };
		static const int strat[] = { Z_DEFAULT_STRATEGY, Z_DEFAULT_STRATEGY, Z_FIXED,
			                     Z_RLE };
		z_stream z;
		memset(&z, 0, sizeof(z));
		const int c = (int)(i / NKINDS % 4);
		assert_int_equal(deflateInit2(&z, zlevel[c], Z_DEFLATED, -15, 8, strat[c]), Z_OK);
		z.next_in = (uint8_t *)(uintptr_t)src;
		z.avail_in = n;
		z.next_out = cmp;
		z.avail_out = (uInt)compressBound(DATA_LEN);
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		const size_t m = z.total_out;
		deflateEnd(&z);
		for (size_t v = 0; v < sf->count; v++) {
			if (!stoa_variant_usable(&sf->variants[v]))
				continue;
			inf_block_fn *fn = (inf_block_fn *)sf->variants[v].fn;
			const int front = (int)((i + v) & 1), matches = (int)((i >> 1) % 4);
			static const char *const loop_name[] = { "chosen", "plain", "mixed",
				                                 "unified" };
			const int loop = (int)((i + v) % 4) - 1;
			CASE("inflate_huff %s: %s n %u zlib level %d strategy %d %s, %s loop",
			     sf->variants[v].name, kind_name[k], n, zlevel[c], strat[c],
			     front ? "front" : "back", loop_name[loop + 1]);
			const uint8_t *in = gw_put(&win_in[front], cmp, m);
			uint8_t *out = gw_at(&win_out[front], n);
			size_t got = 0;
			assert_int_equal(decode_blocks(fn, t, in, m, out, n, &got, matches, loop), 0);
			assert_int_equal(got, n);
			assert_memory_equal(out, src, n);
			/* One byte short of the output, then of the input. */
			if (n) {
				out = gw_at(&win_out[front], n - 1);
				assert_int_not_equal(
				    decode_blocks(fn, t, in, m, out, n - 1, &got, matches, loop),
				    0);
			}
			in = gw_put(&win_in[front], cmp, m - 1);
			out = gw_at(&win_out[front], n);
			assert_int_not_equal(
			    decode_blocks(fn, t, in, m - 1, out, n, &got, matches, loop), 0);
			runs++;
		}
	}
	uint8_t *lits = malloc(20000);
	assert_non_null(lits);
	const unsigned long expanding = expanding_cases(sf, t, cmp, lits);
	free(lits);
	in_case = 0;
	free(t);
	free(cmp);
	print_message("block decoders: %lu runs (every usable inflate_huff variant, the plain, "
	              "mixed and unified loops and the tables' choice in turn), zlib streams of "
	              "lengths 0..1100, every fifth to %u and around the edges, input and output at a "
	              "guard page, also one byte short of each; %lu runs on streams of fixed-code "
	              "literals that take more input than they make output\n",
	              runs, DENSE_MAX, expanding);
}

/* ---- the API --------------------------------------------------------------------------------- */

struct obuf {
	uint8_t *p;
	size_t n, cap;
};

static void obuf_add(struct obuf *o, const uint8_t *p, size_t n)
{
	if (o->n + n > o->cap) {
		o->cap = 2 * (o->n + n) + 4096;
		o->p = realloc(o->p, o->cap);
		assert_non_null(o->p);
	}
	if (n)
		memcpy(o->p + o->n, p, n);
	o->n += n;
}

struct dcase {
	uint32_t level, wrapper, hist_bits, dict_len;
	int dict_mode;     /* 0 none, 1 isal_deflate_set_dict, 2 process_dict + reset_dict */
	int stateless;     /* stateless: one call, or FULL_FLUSH calls of in_chunk bytes */
	int flush;         /* streaming: NO_FLUSH, SYNC_FLUSH, FULL_FLUSH; -1: random per call */
	uint32_t in_chunk; /* input bytes per call (streaming) or per stateless call */
	uint32_t out_room; /* output room per call; 0: random */
	int front;
	uint32_t lvl_buf;
	uint8_t garbage; /* what the stream's state and level buffer hold before init (0: as
	                  * malloc leaves them) */
	uint64_t seed;   /* of the per-call choices (flush, room), so that a case repeats */
};

/* The case's own random choices (splitmix64). */
static uint32_t case_rand(uint64_t *s, uint32_t below)
{
	return (uint32_t)(test_rand_from(s) % below);
}

static void describe(const struct dcase *c, uint32_t n, int k)
{
	CASE("%s n %u level %u wrapper %u hist_bits %u dict %u (mode %d) %s flush %d in_chunk %u "
	     "out_room %u %s level_buf %u",
	     kind_name[k], n, c->level, c->wrapper, c->hist_bits, c->dict_len, c->dict_mode,
	     c->stateless ? "stateless" : "stream", c->flush, c->in_chunk, c->out_room,
	     c->front ? "front" : "back", c->lvl_buf);
}

static uint32_t pick_room(const struct dcase *c, uint32_t n, uint64_t *rs)
{
	static const uint32_t rooms[] = { 1, 2, 7, 16, 63, 64, 65, 300, 4096, 70000 };
	if (c->out_room)
		return c->out_room;
	uint32_t r = rooms[case_rand(rs, 10)];
	return r < n / 256 ? n / 256 : r; /* (bounds the number of calls) */
}

/* Deflate in[0 .. n) as c says into o. Returns the library's result (stateless with a room
 * smaller than needed may fail). */
static int deflate_case(const struct dcase *c, const uint8_t *in, uint32_t n, const uint8_t *dict,
                        uint32_t stateless_room, struct obuf *o)
{
	struct isal_zstream *s = malloc(sizeof(*s));
	uint8_t *lb = malloc(c->lvl_buf ? c->lvl_buf : 1);
	static struct isal_dict dstr;
	assert_true(s && lb);
	if (c->garbage) {
		memset(s, c->garbage, sizeof(*s));
		memset(lb, c->garbage, c->lvl_buf ? c->lvl_buf : 1);
	}
	isal_deflate_init(s);
	s->level = c->level;
	s->level_buf = c->level ? lb : NULL;
	s->level_buf_size = c->level ? c->lvl_buf : 0;
	s->gzip_flag = (uint16_t)c->wrapper;
	s->hist_bits = c->hist_bits;
	if (c->dict_mode) {
		uint8_t *d = gw_put(&win_dict, dict, c->dict_len);
		if (c->dict_mode == 1) {
			assert_int_equal(isal_deflate_set_dict(s, d, c->dict_len), COMP_OK);
		} else {
			assert_int_equal(isal_deflate_process_dict(s, &dstr, d, c->dict_len),
			                 COMP_OK);
			assert_int_equal(isal_deflate_reset_dict(s, &dstr), COMP_OK);
		}
	}
	int ret = COMP_OK;
	uint32_t pos = 0;
	uint64_t rs = c->seed;
	do {
		const uint32_t cend = pos + (n - pos < c->in_chunk ? n - pos : c->in_chunk);
		const int last = cend == n;
		s->next_in = gw_put(&win_in[c->front], in + pos, cend - pos);
		s->avail_in = cend - pos;
		s->end_of_stream = (uint16_t)last;
		if (c->stateless) {
			s->flush = last && c->in_chunk >= n ? NO_FLUSH : FULL_FLUSH;
			const uint32_t room =
			    stateless_room ? stateless_room : (cend - pos) + (cend - pos) / 8 + 64;
			s->next_out = gw_at(&win_out[c->front], room);
			s->avail_out = room;
			const uint8_t *const out0 = s->next_out;
			ret = isal_deflate_stateless(s);
			if (ret != COMP_OK)
				break;
			obuf_add(o, out0, (size_t)(s->next_out - out0));
			assert_int_equal(s->avail_in, 0);
			pos = cend;
			continue;
		}
		s->flush = c->flush >= 0 ? c->flush : (int)case_rand(&rs, 3);
		for (uint32_t calls = 0;; calls++) {
			assert_true(calls < 4 * n + 1000);
			const uint32_t room = pick_room(c, n, &rs);
			uint8_t *out = gw_at(&win_out[c->front], room);
			s->next_out = out;
			s->avail_out = room;
			assert_int_equal(isal_deflate(s), COMP_OK);
			obuf_add(o, out, (size_t)(s->next_out - out));
			pos = cend - s->avail_in;
			if (last ? s->internal_state.state == ZSTATE_END
			         : (pos == cend && s->avail_out > 0))
				break;
		}
	} while (pos < n);
	free(lb);
	free(s);
	return ret;
}

static const uint32_t crc_flag_of[5] = { ISAL_DEFLATE, ISAL_GZIP, ISAL_GZIP_NO_HDR_VER, ISAL_ZLIB,
	                                 ISAL_ZLIB_NO_HDR_VER };

/* isal_inflate_stateless (no dictionary) and isal_inflate on cmp[0 .. m), input and output at
 * guard pages, must give want[0 .. n); stateless also one byte short of the output and of the
 * input. */
static void inflate_case(const struct dcase *c, const uint8_t *cmp, size_t m, const uint8_t *want,
                         uint32_t n, const uint8_t *dict)
{
	static struct inflate_state st;
	const struct gwin *wi = &win_in[!c->front], *wo = &win_out[!c->front];
	if (!c->dict_mode) {
		for (int cut = 0; cut < 3; cut++) {
			if ((cut == 1 && !n) || (cut == 2 && !m))
				continue;
			isal_inflate_init(&st);
			st.crc_flag = crc_flag_of[c->wrapper];
			st.next_in = gw_put(wi, cmp, m - (cut == 2));
			st.avail_in = (uint32_t)(m - (cut == 2));
			st.next_out = gw_at(wo, n - (cut == 1));
			st.avail_out = n - (cut == 1);
			const uint8_t *const out = st.next_out;
			const int r = isal_inflate_stateless(&st);
			if (cut == 0) {
				assert_int_equal(r, ISAL_DECOMP_OK);
				assert_int_equal(st.total_out, n);
				assert_memory_equal(out, want, n);
			} else {
				assert_int_equal(r, cut == 1 ? ISAL_OUT_OVERFLOW : ISAL_END_INPUT);
			}
		}
	}
	isal_inflate_init(&st);
	st.crc_flag = crc_flag_of[c->wrapper];
	st.hist_bits = c->hist_bits;
	if (c->dict_mode)
		assert_int_equal(
		    isal_inflate_set_dict(&st, gw_put(&win_dict, dict, c->dict_len), c->dict_len),
		    ISAL_DECOMP_OK);
	const size_t chunk = 1 + test_rand_below(m + 1);
	uint64_t rs = test_rand();
	size_t pos = 0;
	uint32_t got = 0;
	for (uint32_t calls = 0; st.block_state != ISAL_BLOCK_FINISH; calls++) {
		assert_true(calls < 4 * (m + n) + 1000);
		if (st.avail_in == 0) {
			const size_t k = m - pos < chunk ? m - pos : chunk;
			st.next_in = gw_put(wi, cmp + pos, k);
			st.avail_in = (uint32_t)k;
			pos += k;
		}
		const uint32_t room = pick_room(c, n, &rs);
		st.next_out = gw_at(wo, room);
		st.avail_out = room;
		const uint8_t *const out = st.next_out;
		assert_int_equal(isal_inflate(&st), ISAL_DECOMP_OK);
		const uint32_t k = (uint32_t)(st.next_out - out);
		assert_true(got + k <= n);
		assert_memory_equal(out, want + got, k);
		got += k;
	}
	assert_int_equal(got, n);
	/* zlib, where it can take the dictionary (raw deflate); the _NO_HDR wrappers' bodies as
	 * raw deflate. */
	if (c->dict_mode && c->wrapper != IGZIP_DEFLATE)
		return;
	static uint8_t plain[DATA_LEN + 1];
	static const int wbits[5] = { -15, 31, -15, 15, -15 };
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, wbits[c->wrapper]), Z_OK);
	if (c->dict_mode)
		assert_int_equal(inflateSetDictionary(&z, dict, c->dict_len), Z_OK);
	z.next_in = (uint8_t *)(uintptr_t)cmp;
	z.avail_in = (uInt)m;
	z.next_out = plain;
	z.avail_out = n + 1;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	assert_int_equal(z.total_out, n);
	assert_memory_equal(plain, want, n);
	inflateEnd(&z);
}

static uint32_t lvl_buf_size(uint32_t level, uint32_t pick)
{
	static const uint32_t sizes[4][4] = {
		{ 0, 0, 0, 0 },
		{ ISAL_DEF_LVL1_MIN, ISAL_DEF_LVL1_SMALL, ISAL_DEF_LVL1_DEFAULT,
		  ISAL_DEF_LVL1_EXTRA_LARGE },
		{ ISAL_DEF_LVL2_MIN, ISAL_DEF_LVL2_SMALL, ISAL_DEF_LVL2_DEFAULT,
		  ISAL_DEF_LVL2_EXTRA_LARGE },
		{ ISAL_DEF_LVL3_MIN, ISAL_DEF_LVL3_SMALL, ISAL_DEF_LVL3_DEFAULT,
		  ISAL_DEF_LVL3_EXTRA_LARGE },
	};
	/* Levels 4-9 share one layout, 10-12 another (stoa.h). */
	static const uint32_t chain[4] = { ISAL_DEF_LVL4_MIN, ISAL_DEF_LVL4_SMALL,
		                           ISAL_DEF_LVL4_DEFAULT, ISAL_DEF_LVL4_EXTRA_LARGE };
	static const uint32_t opt[4] = { ISAL_DEF_LVL10_MIN, ISAL_DEF_LVL10_SMALL,
		                         ISAL_DEF_LVL10_DEFAULT, ISAL_DEF_LVL10_EXTRA_LARGE };
	return level < 4 ? sizes[level][pick % 4] : level < 10 ? chain[pick % 4] : opt[pick % 4];
}

/* One case end to end; with `twice`, deflated again from two kinds of garbage, for the same
 * bytes. */
static void round_trip(const struct dcase *c, uint32_t n, int k, int prefix, int twice)
{
	const uint8_t *in = sample(k, n, prefix);
	const uint8_t *dict = c->dict_mode ? sample((k + 1) % NKINDS, c->dict_len, 0) : NULL;
	struct obuf o = { 0 }, o2 = { 0 };
	describe(c, n, k);
	assert_int_equal(deflate_case(c, in, n, dict, 0, &o), COMP_OK);
	inflate_case(c, o.p, o.n, in, n, dict);
	for (int g = 0; twice && g < 2; g++) {
		struct dcase c2 = *c;
		c2.garbage = g ? 0xa5 : 0x5a;
		o2.n = 0;
		assert_int_equal(deflate_case(&c2, in, n, dict, 0, &o2), COMP_OK);
		if (o2.n != o.n || memcmp(o.p, o2.p, o.n))
			fail_msg("the output depends on what the state held before init");
	}
	/* Stateless in one call: output exactly as long, then one byte short. */
	if (c->stateless && c->in_chunk >= n) {
		o2.n = 0;
		const int r = deflate_case(c, in, n, dict, (uint32_t)o.n, &o2);
		assert_true(r == COMP_OK || r == STATELESS_OVERFLOW);
		if (r == COMP_OK)
			inflate_case(c, o2.p, o2.n, in, n, dict);
		if (o.n > 1) {
			/* One byte less overflows, except at level 0, whose kernel parses the last
			 * stretch of its output room symbol by symbol, with other hash entries than
			 * its stretches: with less room it can find a shorter stream, which must
			 * then be valid. */
			o2.n = 0;
			const int r1 = deflate_case(c, in, n, dict, (uint32_t)o.n - 1, &o2);
			if (c->level == 0 && r1 == COMP_OK) {
				assert_true(o2.n < o.n);
				inflate_case(c, o2.p, o2.n, in, n, dict);
			} else {
				assert_int_equal(r1, STATELESS_OVERFLOW);
			}
		}
	}
	free(o.p);
	free(o2.p);
	in_case = 0;
}

/* Every length with a rotating set-up: every level, stateless and streaming each, with the
 * wrapper, hist_bits, dictionary, flush, chunking and data kind turning over. */
static void test_api_lengths(void **state)
{
	(void)state;
	static uint32_t lens[MAX_LENGTHS];
	const size_t nl = lengths(lens, API_DENSE, 9, 1);
	static const uint32_t dlens[] = { 1, 100, 5000, 32768, 40000 };
	unsigned long cases = 0;
	for (size_t i = 0; i < nl; i++) {
		const uint32_t n = lens[i];
		for (uint32_t level = 0; level <= STOA_DEF_MAX_LEVEL; level++) {
			/* The near-optimal levels (10-12) cost a tenth of level 9's speed and share
			 * everything past the parse: past the dense lengths each length goes
			 * through one of them, in turn. */
			if (level >= 10 && n > API_DENSE && (i + level) % 3 != 0)
				continue;
			for (int sl = 0; sl < 2; sl++) {
				const unsigned long r = cases++;
				struct dcase c = { 0 };
				c.level = level;
				c.wrapper = (uint32_t)(r % 5);
				c.hist_bits = (uint32_t)(r / 5 % 16);
				c.dict_mode = r / 60 % 4 == 3 ? 1 + (int)(r / 240 % 2) : 0;
				c.dict_len = c.dict_mode ? dlens[r / 480 % 5] : 0;
				c.stateless = sl;
				c.flush = sl ? NO_FLUSH : (int)(r / 2 % 4) - 1;
				/* (At least n / 256, as pick_room: flushed pieces of a few bytes
				 * each can take a block header apiece, over 100 bytes at level 0,
				 * and 65534 bytes in pieces of 4 made 1.8 MB, more than the guard
				 * windows hold: seed 77233898272583.) */
				c.in_chunk = test_rand_below(3) || n < 2
				                 ? UINT32_MAX
				                 : 1 + (uint32_t)test_rand_below(n);
				if (c.in_chunk < n / 256)
					c.in_chunk = n / 256;
				c.out_room = sl ? 0 : (r / 8 % 2 ? 0 : 1u << 20);
				c.front = (int)(r / 16 % 2);
				c.lvl_buf = lvl_buf_size(level, (uint32_t)(r / 32));
				c.seed = test_rand();
				/* Large inputs only stateless (which reads them in place). */
				const int bigcase = n > 200000;
				if (bigcase && !sl)
					continue;
				round_trip(&c, n, (int)(r % NKINDS), r / 4 % 2 == 0,
				           !sl && r / 2 % 3 == 0);
			}
		}
	}
	print_message("API: %lu deflate cases (levels 0..%d, stateless and streaming) of lengths "
	              "0..%u, every ninth to %u, around the edges and up to 1 MiB (past %u one of "
	              "levels 10-12 in turn), each inflated statelessly and streaming and by zlib, "
	              "every buffer at a guard page\n",
	              cases, STOA_DEF_MAX_LEVEL, API_DENSE, DENSE_MAX, API_DENSE);
}

/* The full product of level, wrapper, mode (stateless; streaming with each flush), dictionary
 * (none, set_dict, process_dict) and hist_bits on a few lengths. */
static void test_api_matrix(void **state)
{
	(void)state;
	static const uint32_t ns[] = { 0, 1, 206, 3001 };
	static const uint32_t hbs[] = { 0, 8, 12, 15 };
	unsigned long cases = 0;
	for (uint32_t level = 0; level <= STOA_DEF_MAX_LEVEL; level++)
		for (uint32_t wrapper = 0; wrapper < 5; wrapper++)
			for (int mode = 0; mode < 5; mode++)
				for (int dm = 0; dm < 3; dm++)
					for (size_t h = 0; h < 4; h++)
						for (size_t i = 0; i < 4; i++) {
							struct dcase c = { 0 };
							c.level = level;
							c.wrapper = wrapper;
							c.hist_bits = hbs[h];
							c.dict_mode = dm;
							c.dict_len = dm ? 3000 : 0;
							c.stateless = mode >= 3;
							c.flush = mode < 3 ? mode : NO_FLUSH;
							c.in_chunk = mode == 4 ? 100 : 1000;
							c.front = (int)(cases / 16 % 2);
							c.lvl_buf =
							    lvl_buf_size(level, (uint32_t)i);
							c.seed = test_rand();
							round_trip(&c, ns[i],
							           (int)((cases / 4 + i) % NKINDS),
							           1, 0);
							cases++;
						}
	print_message("API: %lu cases, every level x wrapper x mode (stateless, stateless "
	              "FULL_FLUSH calls, streaming NO/SYNC/FULL_FLUSH) x dictionary (none, "
	              "set_dict, process_dict) x hist_bits 0/8/12/15, lengths 0, 1, 206, 3001\n",
	              cases);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_match_finders, report_case),
		cmocka_unit_test_teardown(test_block_decoders, report_case),
		cmocka_unit_test_teardown(test_api_matrix, report_case),
		cmocka_unit_test_teardown(test_api_lengths, report_case),
	};
	return cmocka_run_group_tests_name("deflate_bounds", tests, setup, teardown);
}
