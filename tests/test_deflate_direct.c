/* Streaming deflate's direct coding (deflate_stream.c: at levels 1-3, once the buffer is full and
 * coded, the rest of a long call is coded straight from next_in and its last window copied back):
 * calls around the path's thresholds, output room from a byte to ample, a flush chosen per call,
 * dictionaries, hist_bits, wrappers, level_buf sizes, end_of_stream on a long call, resets,
 * positions near 2^32, calls of 130 MiB and of more than 2 GiB. Every stream is decoded by zlib,
 * isal_inflate and, with hist_bits, the reference decoder (verify() checks the wrapper, its
 * checksum and the counters too); after a full flush the rest must decode without what came
 * before.
 *
 * The path is seen from outside: a call that ends after a direct run leaves the buffer holding
 * exactly one 32 KiB window before the next byte to code (b_bytes_processed == 32768, at most a
 * longest match after it), where the buffered path stops wherever its last fill happened to
 * end. Every long call with ample output and no flush must end so. */
#include "deflate_check.h"

#include <sys/mman.h>

/* The path's thresholds: DIRECT_MIN_IN (WIN / 2), the window, internal_state.buffer's size. */
#define WIN 32768u
#define BUF ((uint32_t)sizeof(((struct isal_zstate *)0)->buffer))
/* A call at least this long with ample output must reach the direct path: up to two buffers'
 * worth go through the buffer while an open short block from earlier calls ends. */
#define LONG_CALL (3 * BUF)

enum kind { K_TEXT, K_RUNS, K_RANDOM, K_MIXED, K_CORPUS, K_COUNT };
static const char *const kind_name[K_COUNT] = { "text", "runs", "random", "mixed", "corpus" };

/* Output room per isal_deflate call: all that is left, 1-16 bytes, around the size below which
 * the stream writes into its own buffer (64), up to 4 KiB, 4-128 KiB (where direct runs start
 * and then run out of room: with less, a call rarely takes the window of input they need), or
 * any of those per call. */
enum out_mode { OUT_AMPLE, OUT_TINY, OUT_EDGE, OUT_SMALL, OUT_MEDIUM, OUT_MIXED, OUT_COUNT };
static const char *const out_name[OUT_COUNT] = { "ample",  "1-16",    "56-72",
	                                         "1-4096", "4-128Ki", "mixed" };

struct piece {
	uint32_t len;
	int flush;
	enum out_mode out;
};

struct result {
	struct compressed c;
	unsigned long_calls; /* long NO_FLUSH calls with ample output */
	unsigned direct;     /* of those, the ones that ended as the direct path leaves a call */
	size_t nff;          /* completed full flushes: input and output positions there */
	size_t *ff_in, *ff_out;
};

static unsigned n_streams, n_direct_calls;

/* Copies from far back: distances at the window's far end (32000-32768) and anywhere in it, so
 * that a window kept short or shifted shows in the matches. */
static void fill_repeats(uint8_t *d, size_t at, size_t n)
{
	for (size_t i = at; i < at + n; i++) {
		if (i < WIN) {
			d[i] = (uint8_t)test_rand();
			continue;
		}
		size_t run = 3 + test_rand_below(300);
		size_t dist =
		    test_rand_below(2) ? WIN - test_rand_below(769) : 1 + test_rand_below(WIN);
		for (size_t k = 0; k < run && i < at + n; k++, i++)
			d[i] = d[i - dist];
		if (i < at + n)
			d[i] = (uint8_t)test_rand();
	}
}

static void fill_runs(uint8_t *d, size_t n)
{
	size_t i = 0;
	while (i < n) {
		size_t run =
		    test_rand_below(4) ? 50 + test_rand_below(5000) : 1 + test_rand_below(8);
		const uint8_t b = (uint8_t)test_rand();
		for (size_t k = 0; k < run && i < n; k++)
			d[i++] = b;
	}
}

/* Corpus files end to end, sliced where a stream needs its bytes. */
static uint8_t *pool;
static size_t pool_len;

static void fill(enum kind k, uint8_t *d, size_t n)
{
	switch (k) {
	case K_TEXT:
		test_fill_text(d, n);
		break;
	case K_RUNS:
		fill_runs(d, n);
		break;
	case K_RANDOM:
		test_fill_random(d, n);
		break;
	case K_CORPUS:
		if (pool_len) {
			for (size_t i = 0; i < n;) {
				size_t from = test_rand_below(pool_len);
				size_t m = pool_len - from < n - i ? pool_len - from : n - i;
				memcpy(d + i, pool + from, m);
				i += m;
			}
			break;
		}
		/* fallthrough */
	default:
		/* Pieces of every kind, so that blocks change between stored, sparse and dense. */
		for (size_t i = 0; i < n;) {
			size_t m = 1 + test_rand_below(200 * KIB);
			if (m > n - i)
				m = n - i;
			switch (test_rand_below(4)) {
			case 0:
				test_fill_text(d + i, m);
				break;
			case 1:
				fill_runs(d + i, m);
				break;
			case 2:
				test_fill_random(d + i, m);
				break;
			default:
				fill_repeats(d, i, m);
				break;
			}
			i += m;
		}
		break;
	}
}

static uint8_t *make_data(enum kind k, size_t n)
{
	uint8_t *d = xmalloc(n ? n : 1);
	fill(k, d, n);
	return d;
}

static size_t out_room(enum out_mode m, size_t left)
{
	if (m == OUT_MIXED)
		m = (enum out_mode)test_rand_below(OUT_MIXED);
	size_t n;
	switch (m) {
	case OUT_TINY:
		n = 1 + test_rand_below(16);
		break;
	case OUT_EDGE:
		n = 56 + test_rand_below(17);
		break;
	case OUT_SMALL:
		n = 1 + test_rand_below(4096);
		break;
	case OUT_MEDIUM:
		n = 4096 + test_rand_below(124 * KIB);
		break;
	default:
		n = left;
		break;
	}
	return n < left ? n : left;
}

/* The buffer as a call that ended after a direct run leaves it. */
static int direct_mark(const struct isal_zstream *s)
{
	const struct isal_zstate *st = &s->internal_state;
	return st->b_bytes_processed == WIN && st->b_bytes_valid >= WIN &&
	       st->b_bytes_valid - WIN <= 258;
}

/* Compresses data, pieces[i] the input of call i (with its flush and output room; the last one
 * ends the stream), on s as the caller set it up. Each call is repeated (with the rest of its
 * input) until its input is taken and its flush complete. Checks next_in, avail_in, total_in,
 * next_out and total_out after every isal_deflate. */
static void drive(struct isal_zstream *s, const uint8_t *data, const struct piece *pc, size_t npc,
                  struct result *r)
{
	size_t len = 0;
	for (size_t i = 0; i < npc; i++)
		len += pc[i].len;
	size_t cap = len + len / 4 + 64 * KIB + 8 * npc, produced = 0, pos = 0;
	memset(r, 0, sizeof(*r));
	r->c.buf = xmalloc(cap);
	r->ff_in = xmalloc(sizeof(size_t) * (npc + 1));
	r->ff_out = xmalloc(sizeof(size_t) * (npc + 1));
	const uint32_t in0 = s->total_in, out0 = s->total_out;
	for (size_t i = 0; i < npc; i++) {
		const int last = i + 1 == npc;
		s->next_in = (uint8_t *)(uintptr_t)(data + pos);
		s->avail_in = pc[i].len;
		s->flush = (uint16_t)pc[i].flush;
		s->end_of_stream = (uint16_t)last;
		pos += pc[i].len;
		int stalls = 0;
		for (;;) {
			const int state = s->internal_state.state;
			if (!s->avail_in &&
			    (last ? state == ZSTATE_END
			          : pc[i].flush == NO_FLUSH || state == ZSTATE_NEW_HDR))
				break;
			if (cap - produced < 64 * KIB) {
				cap *= 2;
				r->c.buf = xrealloc(r->c.buf, cap);
			}
			const size_t room = out_room(pc[i].out, cap - produced);
			s->next_out = r->c.buf + produced;
			s->avail_out = (uint32_t)room;
			const uint8_t *const in_before = s->next_in;
			const uint32_t ai = s->avail_in, ti = s->total_in, to = s->total_out;
			const int ret = isal_deflate(s);
			if (ret != COMP_OK)
				TEST_FAIL("isal_deflate returned %d in call %zu\n", ret, i);
			const uint32_t took = ai - s->avail_in,
			               wrote = (uint32_t)room - s->avail_out;
			if (s->avail_in > ai || s->next_in != in_before + took ||
			    s->total_in - ti != took)
				TEST_FAIL(
				    "call %zu: avail_in %u -> %u, next_in +%td, total_in +%u\n", i,
				    ai, s->avail_in, s->next_in - in_before, s->total_in - ti);
			if (s->avail_out > room || s->next_out != r->c.buf + produced + wrote ||
			    s->total_out - to != wrote)
				TEST_FAIL("call %zu: avail_out %zu -> %u, total_out +%u\n", i, room,
				          s->avail_out, s->total_out - to);
			produced += wrote;
			stalls = took || wrote ? 0 : stalls + 1;
			if (stalls > 16)
				TEST_FAIL(
				    "call %zu: no progress (state %d, avail_in %u, avail_out %u)\n",
				    i, (int)s->internal_state.state, s->avail_in, s->avail_out);
		}
		if (!last && pc[i].flush == NO_FLUSH && pc[i].out == OUT_AMPLE &&
		    pc[i].len >= LONG_CALL) {
			r->long_calls++;
			r->direct += (unsigned)direct_mark(s);
		}
		if (!last && pc[i].flush == FULL_FLUSH) {
			r->ff_in[r->nff] = pos;
			r->ff_out[r->nff++] = produced;
		}
	}
	r->c.len = produced;
	r->c.state_crc = s->internal_state.crc;
	r->c.total_in = s->total_in - in0;
	r->c.total_out = s->total_out - out0;
	n_direct_calls += r->direct;
}

static void result_free(struct result *r)
{
	compressed_free(&r->c);
	free(r->ff_in);
	free(r->ff_out);
}

/* After a full flush the rest of the deflate data decodes on its own (no history before it):
 * the last flush and up to three others, by zlib as raw deflate. */
static void check_full_flushes(const char *what, const struct dparams *p, const uint8_t *data,
                               size_t len, const struct result *r)
{
	const size_t trl = p->gzip_flag == IGZIP_GZIP || p->gzip_flag == IGZIP_GZIP_NO_HDR   ? 8
	                   : p->gzip_flag == IGZIP_ZLIB || p->gzip_flag == IGZIP_ZLIB_NO_HDR ? 4
	                                                                                     : 0;
	for (size_t j = 0; j < r->nff; j++) {
		if (j + 1 != r->nff && r->nff > 4 && test_rand_below(r->nff) >= 3)
			continue;
		const size_t in = r->ff_in[j], out = r->ff_out[j];
		uint8_t *dec = xmalloc(len - in + 1);
		size_t got = 0, used = 0;
		const int zr = zlib_decode(r->c.buf + out, r->c.len - trl - out, -15, NULL, 0, dec,
		                           len - in + 1, &got, &used, NULL);
		if (zr != Z_STREAM_END || got != len - in || memcmp(dec, data + in, got) != 0)
			TEST_FAIL("%s: after the full flush at input %zu (output %zu) zlib alone "
			          "returns %d (%s) with %zu of %zu bytes%s\n",
			          what, in, out, zr, zlib_msg, got, len - in,
			          zr == Z_STREAM_END && got == len - in ? ", different" : "");
		free(dec);
	}
}

struct setup {
	struct dparams p;   /* level, gzip_flag, hist_bits, lbuf_size_index, dictionary */
	uint32_t pos_start; /* not 0: the stream's first position (internal_state.total_in_start) */
};

static struct isal_zstream *open_stream(const struct setup *u, uint8_t **lb)
{
	struct isal_zstream *s = xmalloc(sizeof(*s));
	memset(s, 0xa5, sizeof(*s)); /* (init sets what it relies on) */
	isal_deflate_init(s);
	const uint32_t lbs = level_buf_size(u->p.level, u->p.lbuf_size_index);
	*lb = xmalloc(lbs);
	s->level = (uint32_t)u->p.level;
	s->level_buf = *lb;
	s->level_buf_size = lbs;
	return s;
}

/* The stream's own settings and dictionary, after init or reset. */
static void start_stream(struct isal_zstream *s, const struct setup *u, struct isal_dict *pd)
{
	s->gzip_flag = (uint16_t)u->p.gzip_flag;
	s->hist_bits = (uint16_t)u->p.hist_bits;
	s->level = (uint32_t)u->p.level;
	s->next_in = NULL;
	s->avail_in = 0;
	/* Positions are only ever compared as differences mod 2^32, so a stream whose first
	 * position is near the wrap reaches in a few MiB what a 4 GiB one reaches (that one is
	 * test_deflate_edges's). */
	if (u->pos_start)
		s->internal_state.total_in_start = u->pos_start;
	if (u->p.dict_mode == DICT_SET)
		assert_int_equal(isal_deflate_set_dict(s, u->p.dict, u->p.dict_len), COMP_OK);
	if (u->p.dict_mode == DICT_PROCESSED) {
		memset(pd, 0, sizeof(*pd));
		assert_int_equal(isal_deflate_process_dict(s, pd, u->p.dict, u->p.dict_len),
		                 COMP_OK);
		assert_int_equal(isal_deflate_reset_dict(s, pd), COMP_OK);
	}
}

static void describe_run(char *buf, size_t n, const char *test, enum kind k, const struct setup *u,
                         const struct piece *pc, size_t npc)
{
	int w = snprintf(buf, n, "%s, %s data, start %u, calls", test, kind_name[k], u->pos_start);
	for (size_t i = 0; i < npc && w > 0 && (size_t)w < n - 40; i++)
		w += snprintf(buf + w, n - (size_t)w, " %u%s/%s", pc[i].len,
		              pc[i].flush == SYNC_FLUSH   ? "S"
		              : pc[i].flush == FULL_FLUSH ? "F"
		                                          : "",
		              out_name[pc[i].out]);
	if (w > 0 && (size_t)w >= n - 40)
		snprintf(buf + n - 40, 40, " ...");
}

/* One stream of the pieces through a fresh stream (or s, already started, when not NULL),
 * decoded and checked; every long call with ample room and no flush must end as a direct run
 * leaves the buffer. The result goes to out when not NULL (the caller frees it). */
static void one(const char *test, enum kind k, const uint8_t *data, const struct setup *u,
                const struct piece *pc, size_t npc, struct isal_zstream *s, struct result *out)
{
	uint8_t *lb = NULL;
	struct isal_dict pd;
	struct isal_zstream *own = NULL;
	if (!s) {
		own = s = open_stream(u, &lb);
		start_stream(s, u, &pd);
	}
	struct result r;
	drive(s, data, pc, npc, &r);
	size_t len = 0;
	for (size_t i = 0; i < npc; i++)
		len += pc[i].len;
	char what[600];
	describe_run(what, sizeof(what), test, k, u, pc, npc);
	verify(what, &u->p, data, len, &r.c, NULL);
	check_full_flushes(what, &u->p, data, len, &r);
	if (r.direct != r.long_calls)
		TEST_FAIL("%s (level %d, wrapper %d, hist_bits %d): %u of %u long calls without a "
		          "flush ended as the direct path leaves one\n",
		          what, u->p.level, u->p.gzip_flag, u->p.hist_bits, r.direct, r.long_calls);
	n_streams++;
	if (out)
		*out = r;
	else
		result_free(&r);
	if (own) {
		free(own);
		free(lb);
	}
}

static struct setup setup_for(int level)
{
	struct setup u;
	memset(&u, 0, sizeof(u));
	u.p = dparams_default(level);
	return u;
}

/* Pieces of len bytes in total from sizes drawn by pick (the last one takes the rest). */
static size_t split(struct piece *pc, size_t max, size_t len, uint32_t (*pick)(void), int flush,
                    enum out_mode out)
{
	size_t n = 0;
	while (len && n < max) {
		uint32_t m = pick();
		if (m > len || n + 1 == max)
			m = (uint32_t)len;
		pc[n++] = (struct piece){ m, flush, out };
		len -= m;
	}
	return n;
}

static uint32_t pick_long(void)
{
	return LONG_CALL + (uint32_t)test_rand_below(600 * KIB);
}

static size_t data_len(size_t normal)
{
	return test_quick() ? normal / 4 : normal;
}

/* Long calls with ample output: each must end after a direct run. Every level, wrapper and
 * kind of data. */
static void test_direct_taken(void **state)
{
	(void)state;
	const double t0 = now_seconds();
	const size_t len = data_len(1536 * KIB) + LONG_CALL;
	unsigned calls = n_direct_calls;
	for (int k = 0; k < K_COUNT; k++) {
		uint8_t *data = make_data((enum kind)k, len);
		for (int level = 1; level <= 3; level++)
			for (int wrap = 0; wrap < 5; wrap++) {
				struct setup u = setup_for(level);
				u.p.gzip_flag = wrap;
				struct piece pc[32];
				size_t n = split(pc, 32, len, pick_long, NO_FLUSH, OUT_AMPLE);
				one("direct taken", (enum kind)k, data, &u, pc, n, NULL, NULL);
			}
		free(data);
	}
	assert_true(n_direct_calls > calls);
	print_message("levels 1-3 x 5 wrappers x %d kinds of data, %zu bytes in calls of %u-%u "
	              "bytes: %u calls, each ended after a direct run; %.1f s\n",
	              K_COUNT, len, LONG_CALL, LONG_CALL + 600 * KIB, n_direct_calls - calls,
	              now_seconds() - t0);
}

/* Call sizes at the path's thresholds (DIRECT_MIN_IN, the window, a longest match, the
 * buffer, the buffer plus DIRECT_MIN_IN), alternating with short calls and long ones. */
static const uint32_t edge_sizes[] = {
	1,           2,
	257,         258,
	259,         16383,
	16384,       16385,
	32767,       32768,
	32769,       33026,
	33027,       65535,
	65536,       BUF - 1,
	BUF,         BUF + 1,
	BUF + 16383, BUF + 16384,
	BUF + 16385, BUF + WIN,
	2 * BUF,     2 * BUF + 1,
	3 * BUF - 1, 4 * BUF + 12345,
};
#define N_EDGE (sizeof(edge_sizes) / sizeof(edge_sizes[0]))

static uint32_t pick_edge(void)
{
	return edge_sizes[test_rand_below(N_EDGE)];
}

static uint32_t pick_alternating(void)
{
	static unsigned turn;
	return turn++ % 2 ? 1 + (uint32_t)test_rand_below(300) : pick_long();
}

static void test_call_sizes(void **state)
{
	(void)state;
	const double t0 = now_seconds();
	const size_t len = data_len(2 * MIB);
	unsigned streams = n_streams;
	for (int round = 0; round < (test_quick() ? 2 : 6); round++)
		for (int level = 1; level <= 3; level++) {
			const enum kind k = (enum kind)test_rand_below(K_COUNT);
			uint8_t *data = make_data(k, len);
			struct setup u = setup_for(level);
			u.p.gzip_flag = (int)test_rand_below(5);
			struct piece pc[400];
			size_t n = split(pc, 400, len, round % 2 ? pick_alternating : pick_edge,
			                 NO_FLUSH, OUT_AMPLE);
			/* Now and then a flush or little room, to end a call elsewhere. */
			for (size_t i = 0; i < n; i++)
				if (test_rand_below(8) == 0) {
					pc[i].flush = 1 + (int)test_rand_below(2);
					pc[i].out = (enum out_mode)test_rand_below(OUT_COUNT);
				}
			one("call sizes", k, data, &u, pc, n, NULL, NULL);
			free(data);
		}
	/* Every size of the list once as a whole first call, as a first call before a long one, and
	 * after a long one. */
	uint8_t *data = make_data(K_MIXED, 6 * BUF);
	for (size_t e = 0; e < N_EDGE; e += test_quick() ? 3 : 1) {
		const int level = 1 + (int)(e % 3);
		struct setup u = setup_for(level);
		/* (Windows of 256 and 512 bytes need less history than a call's held-back tail.) */
		static const int hbits[4] = { 0, 8, 9, 12 };
		u.p.hist_bits = hbits[(e / 3) % 4];
		struct piece one_call = { edge_sizes[e] > 6 * BUF ? 6 * BUF : edge_sizes[e],
			                  NO_FLUSH, OUT_AMPLE };
		one("call sizes", K_MIXED, data, &u, &one_call, 1, NULL, NULL);
		struct piece two[3] = { { 2 * BUF, NO_FLUSH, OUT_AMPLE },
			                { edge_sizes[e] > 3 * BUF ? 3 * BUF : edge_sizes[e],
			                  NO_FLUSH, OUT_AMPLE },
			                { 1000, NO_FLUSH, OUT_AMPLE } };
		one("call sizes", K_MIXED, data, &u, two, 3, NULL, NULL);
		/* (A first call of exactly the buffer's size leaves it full, its tail uncoded.) */
		struct piece then_long[3] = { { edge_sizes[e] > 3 * BUF ? 3 * BUF : edge_sizes[e],
			                        NO_FLUSH, OUT_AMPLE },
			                      { 2 * BUF, NO_FLUSH, OUT_AMPLE },
			                      { 1000, NO_FLUSH, OUT_AMPLE } };
		one("call sizes", K_MIXED, data, &u, then_long, 3, NULL, NULL);
	}
	free(data);
	print_message("calls of the threshold sizes (%zu of them), alternating long and short, "
	              "each size alone, before and after a long call: %u streams at levels 1-3; "
	              "%.1f s\n",
	              N_EDGE, n_streams - streams, now_seconds() - t0);
}

/* Output room running out in the middle of direct runs: stored blocks (random data) cut off
 * while their bytes are still in the caller's input, coded blocks, sparse ones. */
static void test_output_room(void **state)
{
	(void)state;
	const double t0 = now_seconds();
	unsigned streams = n_streams;
	for (int m = OUT_TINY; m < OUT_COUNT; m++)
		for (int k = 0; k < K_COUNT; k++) {
			/* (One or a few bytes a call: many calls, so less data.) */
			const size_t len = data_len(m == OUT_TINY ? 512 * KIB : 1280 * KIB);
			uint8_t *data = make_data((enum kind)k, len);
			for (int level = 1; level <= 3; level++) {
				struct setup u = setup_for(level);
				u.p.gzip_flag = (int)test_rand_below(5);
				struct piece pc[32];
				size_t n =
				    split(pc, 32, len, pick_long, NO_FLUSH, (enum out_mode)m);
				/* Some calls with room enough, so that runs start cut off ones. */
				for (size_t i = 0; i < n; i++)
					if (test_rand_below(3) == 0)
						pc[i].out = OUT_AMPLE;
				one("output room", (enum kind)k, data, &u, pc, n, NULL, NULL);
			}
			free(data);
		}
	print_message("long calls with 1-16, 56-72, 1-4096, 4-128 Ki bytes of output room per "
	              "isal_deflate or a mix (some calls ample): %u streams, levels 1-3, every "
	              "kind; %.1f s\n",
	              n_streams - streams, now_seconds() - t0);
}

static uint32_t pick_any(void)
{
	switch (test_rand_below(4)) {
	case 0:
		return 1 + (uint32_t)test_rand_below(4096);
	case 1:
		return pick_edge();
	default:
		return pick_long();
	}
}

/* A stored block cut off in the middle of a direct run whose first bytes lie before the window
 * the run keeps: random data, one call after another, each ending with a sync flush so that
 * its blocks start at its first byte and run 32 KiB each (a block that does not code smaller
 * is stored). At the second to fourth 32 KiB steps of a call a repeat of 48 bytes straddles the
 * step; when the tokenizer meets it before the step (it samples long literal stretches), the
 * block's last match runs up to 24 bytes past 32 KiB (short enough that the block stays
 * stored), and the output room cuts its copy. */
static void test_stored_cut(void **state)
{
	(void)state;
	const double t0 = now_seconds();
	unsigned streams = n_streams;
	const uint32_t call = 5 * WIN + 1000;
	const size_t calls = test_quick() ? 16 : 48;
	const size_t len = call * calls;
	uint8_t *data = make_data(K_RANDOM, len);
	for (size_t c = 0; c < calls; c++)
		for (size_t k = 2; k <= 4; k++) {
			/* (Until a match runs past one step, the next ones stay where they were.)
			 */
			const size_t b = c * call + k * WIN;
			const size_t from = b - 1100 - test_rand_below(20000);
			memcpy(data + b - 24, data + from, 48);
		}
	struct piece pc[64];
	for (int level = 1; level <= 3; level++)
		for (int m = OUT_SMALL; m <= OUT_MIXED; m++) {
			struct setup u = setup_for(level);
			u.p.gzip_flag = (int)test_rand_below(5);
			for (size_t c = 0; c < calls; c++)
				pc[c] = (struct piece){ call, SYNC_FLUSH, (enum out_mode)m };
			one("stored block cut", K_RANDOM, data, &u, pc, calls, NULL, NULL);
		}
	free(data);
	print_message("random data with a repeat across a 32 KiB step of each call, sync flushes, "
	              "1-4096, 4-128 Ki or mixed bytes of room: %u streams; %.1f s\n",
	              n_streams - streams, now_seconds() - t0);
}

/* A flush chosen per call, full flushes decoded on their own. */
static void test_flushes(void **state)
{
	(void)state;
	const double t0 = now_seconds();
	unsigned streams = n_streams;
	size_t points = 0;
	const size_t len = data_len(2 * MIB);
	for (int round = 0; round < (test_quick() ? 3 : 8); round++)
		for (int level = 1; level <= 3; level++) {
			const enum kind k = (enum kind)test_rand_below(K_COUNT);
			uint8_t *data = make_data(k, len);
			struct setup u = setup_for(level);
			u.p.gzip_flag = (int)test_rand_below(5);
			if (round % 4 == 3)
				u.p.hist_bits = 9 + (int)test_rand_below(7);
			struct piece pc[200];
			size_t n = split(pc, 200, len, pick_any, NO_FLUSH, OUT_AMPLE);
			for (size_t i = 0; i < n; i++) {
				pc[i].flush = (int)test_rand_below(3);
				if (round % 2)
					pc[i].out = (enum out_mode)test_rand_below(OUT_COUNT);
			}
			struct result r;
			one("flushes", k, data, &u, pc, n, NULL, &r);
			points += r.nff;
			result_free(&r);
			free(data);
		}
	print_message("NO_FLUSH, SYNC_FLUSH or FULL_FLUSH per call (%zu full flushes, the rest "
	              "decoded alone after them): %u streams; %.1f s\n",
	              points, n_streams - streams, now_seconds() - t0);
}

/* Full flushes with small windows: after a long call (which leaves the buffer 32 KiB and a bit
 * full) a call of 20-32 KiB ends with a full flush, so that the next long call fills the buffer
 * a few KiB after the flush and, its window being small, starts a direct run there. With a
 * small level_buf its first block ends soon and the output room (1-4096 or 4-128 KiB) runs out
 * in it, before 32 KiB past the flush: the buffer then keeps bytes from before the flush, which
 * must stay out of reach. */
static void test_flush_small_window(void **state)
{
	(void)state;
	const double t0 = now_seconds();
	unsigned streams = n_streams;
	size_t points = 0;
	const size_t rounds = test_quick() ? 2 : 6;
	for (size_t round = 0; round < rounds; round++)
		for (int level = 1; level <= 3; level++) {
			struct setup u = setup_for(level);
			u.p.gzip_flag = (int)test_rand_below(5);
			u.p.hist_bits = 9 + (int)test_rand_below(4);
			u.p.lbuf_size_index = (int)test_rand_below(2);
			struct piece pc[48];
			size_t n = 0, len = 0;
			while (n + 3 <= 45) {
				const uint32_t x = 20000 + (uint32_t)test_rand_below(12000);
				pc[n++] = (struct piece){ LONG_CALL, NO_FLUSH, OUT_AMPLE };
				pc[n++] = (struct piece){ x, FULL_FLUSH, OUT_AMPLE };
				pc[n++] =
				    (struct piece){ 2 * WIN, NO_FLUSH,
					            test_rand_below(2) ? OUT_MEDIUM : OUT_SMALL };
				len += LONG_CALL + x + 2 * WIN;
			}
			pc[n++] = (struct piece){ 1000, NO_FLUSH, OUT_AMPLE };
			len += 1000;
			const enum kind k = round % 2 ? K_TEXT : K_CORPUS;
			uint8_t *data = make_data(k, len);
			struct result r;
			one("full flush, small window", k, data, &u, pc, n, NULL, &r);
			points += r.nff;
			result_free(&r);
			free(data);
		}
	print_message("a long call, 20-32 KiB ending in a full flush, 64 KiB with 1-4096 or "
	              "4-128 KiB of room, over again; hist_bits 9-12, level_buf MIN or SMALL: %u "
	              "streams, %zu full flushes decoded alone after; %.1f s\n",
	              n_streams - streams, points, now_seconds() - t0);
}

/* Dictionaries (set, and processed then reset) and every window size, each wrapper. */
static void test_dict_hist_bits(void **state)
{
	(void)state;
	const double t0 = now_seconds();
	unsigned streams = n_streams;
	const size_t len = data_len(1 * MIB);
	const size_t dict_len = 40000;
	uint8_t *dict = make_data(K_TEXT, dict_len);
	for (int hb = 8; hb <= 15; hb++)
		for (int level = 1; level <= 3; level++) {
			const enum kind k = (enum kind)test_rand_below(K_COUNT);
			uint8_t *data = make_data(k, len);
			/* The dictionary's text starts the input too, so it is matched. */
			memcpy(data, dict + dict_len - 20000, 20000);
			for (int d = 0; d < 3; d++) {
				struct setup u = setup_for(level);
				u.p.hist_bits = hb == 8 && d == 0 ? 0 : hb;
				u.p.gzip_flag = (int)test_rand_below(5);
				u.p.dict_mode = (enum dict_mode)d;
				u.p.dict = dict;
				u.p.dict_len = d ? (uint32_t)(1 + test_rand_below(dict_len)) : 0;
				struct piece pc[32];
				size_t n = split(pc, 32, len, d == 2 ? pick_any : pick_long,
				                 NO_FLUSH, d == 1 ? OUT_MIXED : OUT_AMPLE);
				one("dictionary, hist_bits", k, data, &u, pc, n, NULL, NULL);
			}
			free(data);
		}
	free(dict);
	print_message("hist_bits 0 and 8-15 x levels 1-3 x (no dictionary, set_dict, "
	              "process_dict + reset_dict of 1-%zu bytes), random wrappers: %u streams; "
	              "%.1f s\n",
	              dict_len, n_streams - streams, now_seconds() - t0);
}

/* Every level_buf size: a small one holds few tokens, so blocks end often. */
static void test_level_bufs(void **state)
{
	(void)state;
	const double t0 = now_seconds();
	unsigned streams = n_streams;
	const size_t len = data_len(1 * MIB);
	for (int idx = -1; idx < 5; idx++)
		for (int level = 1; level <= 3; level++) {
			const enum kind k = (enum kind)test_rand_below(K_COUNT);
			uint8_t *data = make_data(k, len);
			struct setup u = setup_for(level);
			u.p.lbuf_size_index = idx;
			u.p.gzip_flag = (int)test_rand_below(5);
			struct piece pc[64];
			size_t n = split(pc, 64, len, pick_any, NO_FLUSH, OUT_AMPLE);
			for (size_t i = 0; i < n; i++)
				if (test_rand_below(4) == 0)
					pc[i].out = OUT_MIXED;
			one("level_buf", k, data, &u, pc, n, NULL, NULL);
			free(data);
		}
	print_message("level_buf MIN, SMALL, MEDIUM, LARGE, EXTRA_LARGE and the default at "
	              "levels 1-3: %u streams; %.1f s\n",
	              n_streams - streams, now_seconds() - t0);
}

/* end_of_stream on a long call (the whole stream in one, or after others), with ample or
 * little room; then one stream struct for a run of streams with isal_deflate_reset between
 * them, some abandoned in the middle of a long call. */
static void test_end_and_reset(void **state)
{
	(void)state;
	const double t0 = now_seconds();
	unsigned streams = n_streams;
	const size_t len = data_len(1536 * KIB);
	for (int level = 1; level <= 3; level++)
		for (int k = 0; k < K_COUNT; k++) {
			uint8_t *data = make_data((enum kind)k, len);
			struct setup u = setup_for(level);
			u.p.gzip_flag = (int)test_rand_below(5);
			struct piece whole = { (uint32_t)len, (int)test_rand_below(3),
				               k % 2 ? OUT_AMPLE : OUT_MIXED };
			one("end on a long call", (enum kind)k, data, &u, &whole, 1, NULL, NULL);
			struct piece pc[3] = { { (uint32_t)(len / 3), NO_FLUSH, OUT_AMPLE },
				               { 100, NO_FLUSH, OUT_AMPLE },
				               { (uint32_t)(len - len / 3 - 100), NO_FLUSH,
				                 (enum out_mode)test_rand_below(OUT_COUNT) } };
			one("end on a long call", (enum kind)k, data, &u, pc, 3, NULL, NULL);
			free(data);
		}

	uint8_t *lb = NULL;
	struct setup first = setup_for(1);
	struct isal_zstream *s = open_stream(&first, &lb);
	/* One level_buf for every level the streams take. */
	uint32_t lbs = 0;
	for (int level = 1; level <= 3; level++)
		if (level_buf_size(level, -1) > lbs)
			lbs = level_buf_size(level, -1);
	free(lb);
	s->level_buf = lb = xmalloc(lbs);
	s->level_buf_size = lbs;
	struct isal_dict pd;
	uint8_t *dict = make_data(K_TEXT, 20000);
	for (int i = 0; i < (test_quick() ? 6 : 16); i++) {
		const enum kind k = (enum kind)test_rand_below(K_COUNT);
		uint8_t *data = make_data(k, len);
		struct setup u = setup_for(1 + (int)test_rand_below(3));
		u.p.gzip_flag = (int)test_rand_below(5);
		u.p.hist_bits = test_rand_below(3) ? 0 : 9 + (int)test_rand_below(7);
		if (test_rand_below(3) == 0) {
			u.p.dict_mode = DICT_SET;
			u.p.dict = dict;
			u.p.dict_len = 20000;
		}
		isal_deflate_reset(s);
		if (i % 3 == 2) {
			/* Left in a long call's direct run, with output cut short. */
			start_stream(s, &u, &pd);
			s->next_in = data;
			/* (All of the data: at quick sizes it is shorter than two long calls.) */
			s->avail_in = (uint32_t)len;
			uint8_t *cut = xmalloc(3000);
			s->next_out = cut;
			s->avail_out = 3000;
			s->flush = NO_FLUSH;
			s->end_of_stream = 0;
			assert_int_equal(isal_deflate(s), COMP_OK);
			free(cut);
			isal_deflate_reset(s);
		}
		start_stream(s, &u, &pd);
		struct piece pc[32];
		size_t n = split(pc, 32, len, pick_any, NO_FLUSH, OUT_AMPLE);
		one("after isal_deflate_reset", k, data, &u, pc, n, s, NULL);
		free(data);
	}
	free(dict);
	free(s);
	free(lb);
	print_message("end_of_stream on a long call (alone or after others; any flush, ample or "
	              "little room) and streams after isal_deflate_reset (some reset in a direct "
	              "run): %u streams; %.1f s\n",
	              n_streams - streams, now_seconds() - t0);
}

/* Stream positions crossing 2^32 in the middle of direct runs. */
static void test_positions_wrap(void **state)
{
	(void)state;
	const double t0 = now_seconds();
	unsigned streams = n_streams;
	const size_t len = data_len(3 * MIB);
	for (int level = 1; level <= 3; level++)
		for (int v = 0; v < 3; v++) {
			const enum kind k = (enum kind)test_rand_below(K_COUNT);
			uint8_t *data = make_data(k, len);
			struct setup u = setup_for(level);
			u.p.gzip_flag = (int)test_rand_below(5);
			u.pos_start = 0u - (uint32_t)(len / 2) - (uint32_t)test_rand_below(WIN);
			if (v == 2) {
				u.p.dict_mode = DICT_SET;
				u.p.dict = data + len - 30000;
				u.p.dict_len = 30000;
			}
			struct piece pc[64];
			size_t n = split(pc, 64, len, v ? pick_any : pick_long, NO_FLUSH,
			                 v == 1 ? OUT_MIXED : OUT_AMPLE);
			for (size_t i = 0; v && i < n; i++)
				pc[i].flush =
				    test_rand_below(6) ? NO_FLUSH : 1 + (int)test_rand_below(2);
			one("positions across 2^32", k, data, &u, pc, n, NULL, NULL);
			free(data);
		}
	print_message("streams whose positions cross 2^32 halfway (long calls; any calls, room "
	              "and flushes; a dictionary): %u streams; %.1f s\n",
	              n_streams - streams, now_seconds() - t0);
}

/* One call of tiles MiB: 1 MiB of data (text, then repeats at a distance of 4096 bytes, which
 * code fast) mapped over and over, so that it costs no memory, compressed at level 1 with room
 * for all of it and decoded by zlib and isal_inflate a MiB at a time. Returns 0 when the
 * address space is not there. */
static int huge_call(size_t tiles)
{
	const size_t tile = MIB, len = tile * tiles;
	char path[] = "/tmp/stoa_direct_XXXXXX";
	const int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, (off_t)tile), 0);
	uint8_t *t = mmap(NULL, tile, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(t != MAP_FAILED);
	test_fill_text(t, 16 * KIB);
	for (size_t i = 16 * KIB; i < tile; i++)
		t[i] = t[i - 4096];
	uint8_t *in = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (in == MAP_FAILED) {
		munmap(t, tile);
		close(fd);
		return 0;
	}
	for (size_t i = 0; i < tiles; i++)
		assert_true(mmap(in + i * tile, tile, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) !=
		            MAP_FAILED);
	uint8_t *lb;
	struct setup u = setup_for(1);
	u.p.gzip_flag = IGZIP_GZIP;
	struct isal_zstream *s = open_stream(&u, &lb);
	start_stream(s, &u, NULL);
	/* (Room for all of it: the call must not stop short.) */
	const size_t cap = len / 8 + MIB;
	uint8_t *out = xmalloc(cap);
	s->next_in = in;
	s->avail_in = (uint32_t)len;
	s->end_of_stream = 1;
	s->next_out = out;
	s->avail_out = (uint32_t)cap;
	assert_int_equal(isal_deflate(s), COMP_OK);
	if (s->internal_state.state != ZSTATE_END || s->avail_in)
		TEST_FAIL("%zu bytes: the call ended in state %d with %u bytes left\n", len,
		          (int)s->internal_state.state, s->avail_in);
	const size_t n = cap - s->avail_out;
	if (s->total_in != (uint32_t)len || s->total_out != (uint32_t)n)
		TEST_FAIL("%zu bytes: total_in %u total_out %u\n", len, s->total_in, s->total_out);
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, 16 + 15), Z_OK);
	z.next_in = out;
	z.avail_in = (uInt)n;
	struct inflate_state *is = xmalloc(sizeof(*is));
	isal_inflate_init(is);
	is->crc_flag = ISAL_GZIP;
	is->next_in = out;
	is->avail_in = (uint32_t)n;
	uint8_t *a = xmalloc(tile), *b = xmalloc(tile);
	size_t done = 0;
	int zr = Z_OK, ir = ISAL_DECOMP_OK;
	while (done < len) {
		z.next_out = a;
		z.avail_out = (uInt)tile;
		zr = inflate(&z, Z_NO_FLUSH);
		is->next_out = b;
		is->avail_out = (uint32_t)tile;
		ir = isal_inflate(is);
		const size_t za = tile - z.avail_out, ia = tile - is->avail_out;
		if ((zr != Z_OK && zr != Z_STREAM_END) || ir != ISAL_DECOMP_OK || za != ia ||
		    za == 0 || memcmp(a, in + done, za) != 0 || memcmp(b, a, za) != 0)
			TEST_FAIL("%zu bytes: decoding differs near byte %zu (zlib %d, %zu bytes; "
			          "isal_inflate %d, %zu bytes)\n",
			          len, done, zr, za, ir, ia);
		done += za;
	}
	if (zr != Z_STREAM_END || is->block_state != ISAL_BLOCK_FINISH || done != len)
		TEST_FAIL("%zu bytes: %zu decoded, zlib %d\n", len, done, zr);
	inflateEnd(&z);
	print_message("%zu bytes in one call at level 1 -> %zu bytes of gzip, decoded by zlib and "
	              "isal_inflate (CRC-32 and ISIZE checked by both)\n",
	              len, n);
	free(a);
	free(b);
	free(is);
	free(out);
	free(s);
	free(lb);
	munmap(in, len);
	munmap(t, tile);
	close(fd);
	return 1;
}

/* Calls longer than a direct run codes at once (deflate_stream.c's DIRECT_RUN_MAX, 64 MiB):
 * 130 MiB, and one of more than 2 GiB (not in quick runs), where window indices beyond 2^31
 * made a run read outside the buffer. */
static void test_huge_calls(void **state)
{
	(void)state;
	const double t0 = now_seconds();
	if (!huge_call(130)) {
		print_message("no 130 MiB of address space: skipped\n");
		skip();
	}
	if (test_quick() || sizeof(size_t) < 8)
		print_message("sanitizer build, STOA_TEST_QUICK=1 or a 32-bit build: the call over "
		              "2 GiB is skipped\n");
	else if (!huge_call(2048 + 3))
		print_message("no 2 GiB of address space: the call over 2 GiB is skipped\n");
	print_message("%.1f s\n", now_seconds() - t0);
}

/* Everything drawn at random. */
static void test_random_streams(void **state)
{
	(void)state;
	const double t0 = now_seconds();
	unsigned streams = n_streams;
	uint8_t *dict = make_data(K_MIXED, 32768);
	for (int i = 0; i < (test_quick() ? 8 : 30); i++) {
		const enum kind k = (enum kind)test_rand_below(K_COUNT);
		const size_t len = test_rand_below(data_len(3 * MIB));
		uint8_t *data = make_data(k, len);
		struct setup u = setup_for(1 + (int)test_rand_below(3));
		u.p.gzip_flag = (int)test_rand_below(5);
		u.p.lbuf_size_index = (int)test_rand_below(6) - 1;
		if (test_rand_below(3) == 0)
			u.p.hist_bits = 8 + (int)test_rand_below(8);
		if (test_rand_below(4) == 0) {
			u.p.dict_mode = (enum dict_mode)(1 + test_rand_below(2));
			u.p.dict = dict;
			u.p.dict_len = (uint32_t)(1 + test_rand_below(32768));
		}
		if (test_rand_below(4) == 0)
			u.pos_start = (uint32_t)test_rand();
		struct piece pc[128];
		size_t n = split(pc, 128, len, pick_any, NO_FLUSH, OUT_AMPLE);
		if (n == 0)
			pc[n++] = (struct piece){ 0, NO_FLUSH, OUT_AMPLE };
		for (size_t j = 0; j < n; j++) {
			pc[j].flush = test_rand_below(4) ? NO_FLUSH : 1 + (int)test_rand_below(2);
			pc[j].out = test_rand_below(3) ? OUT_AMPLE
			                               : (enum out_mode)test_rand_below(OUT_COUNT);
		}
		one("random", k, data, &u, pc, n, NULL, NULL);
		free(data);
	}
	free(dict);
	print_message("%u streams with every parameter drawn at random; %.1f s\n",
	              n_streams - streams, now_seconds() - t0);
}

static int setup(void **state)
{
	deflate_suite_setup(state);
	for (size_t i = 0; i < n_files; i++)
		pool_len += files[i].len;
	pool = xmalloc(pool_len ? pool_len : 1);
	for (size_t i = 0, at = 0; i < n_files; at += files[i].len, i++)
		memcpy(pool + at, files[i].data, files[i].len);
	return 0;
}

static int teardown(void **state)
{
	free(pool);
	printf("%u streams through isal_deflate; %u long calls ended after a direct run\n",
	       n_streams, n_direct_calls);
	return deflate_suite_teardown(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct_taken),   cmocka_unit_test(test_call_sizes),
		cmocka_unit_test(test_output_room),    cmocka_unit_test(test_stored_cut),
		cmocka_unit_test(test_flushes),        cmocka_unit_test(test_flush_small_window),
		cmocka_unit_test(test_dict_hist_bits), cmocka_unit_test(test_level_bufs),
		cmocka_unit_test(test_end_and_reset),  cmocka_unit_test(test_positions_wrap),
		cmocka_unit_test(test_huge_calls),     cmocka_unit_test(test_random_streams),
	};
	return TEST_MAIN("deflate_direct", tests, setup, teardown);
}
