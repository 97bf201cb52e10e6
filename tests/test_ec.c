/* Erasure-code module tests.
 *
 * Evidence: the field checked exhaustively against a carry-less multiply written here (all 65536
 * products, all inverses); tables, generator matrices and inversion against their definitions;
 * every variant the CPU can run, of every data function, equal to the base entry over a sampled
 * grid of k 1..32, p 1..16 and lengths 1..10000 at random alignments, every length 1..10000 on
 * one shape, and the base entry itself against a byte-at-a-time reference; buffers that end (or
 * start) at an inaccessible page; ec_encode_data_update applied source by source equal to a full
 * encode; every loss pattern up to p for k + p <= 12 and random ones up to k + p = 255 rebuilt by
 * the decode helper; the one-call encode and recover, their cache and its thread safety; bad
 * arguments; Debian's libisal in a separate process (tests/ec_oracle.c) and the drop-in ABI.
 *
 * Everything random comes from test_rand(), so STOA_SEED=N repeats a run exactly. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "erasure_code/ec_internal.h"
#include "isa-l/erasure_code.h"
#include "isa-l/gf_vect_mul.h"
#include "stoa.h"
#include "oracle.h"
#include "testutil.h"

#define MAX_K    32
#define MAX_P    16
#define MAX_FRAG 255

/* ---- the independent reference ---- */

/* Carry-less product of two bytes, then reduction modulo x^8 + x^4 + x^3 + x^2 + 1 from the top
 * bit down: the definition of the field, nothing shared with the library. */
static uint8_t ref_mul(uint8_t a, uint8_t b)
{
	unsigned p = 0;
	for (int i = 0; i < 8; i++)
		if (b & (1u << i))
			p ^= (unsigned)a << i;
	for (int i = 14; i >= 8; i--)
		if (p & (1u << i))
			p ^= 0x11du << (i - 8);
	return (uint8_t)p;
}

static uint8_t ref_table[256][256];

static void ref_init(void)
{
	for (int a = 0; a < 256; a++)
		for (int b = 0; b < 256; b++)
			ref_table[a][b] = ref_mul((uint8_t)a, (uint8_t)b);
}

/* dst[r][i] = sum over j of a[r * k + j] * src[j][i], byte by byte. */
static void ref_encode(size_t len, int k, int rows, const uint8_t *a, uint8_t *const *src,
                       uint8_t **dst)
{
	for (int r = 0; r < rows; r++)
		for (size_t i = 0; i < len; i++) {
			uint8_t s = 0;
			for (int j = 0; j < k; j++)
				s ^= ref_table[a[r * k + j]][src[j][i]];
			dst[r][i] = s;
		}
}

/* Rank of an n x k matrix over the field (destroys m). */
static int ref_rank(uint8_t *m, int n, int k)
{
	int rank = 0;
	for (int col = 0; col < k && rank < n; col++) {
		int piv = rank;
		while (piv < n && m[piv * k + col] == 0)
			piv++;
		if (piv == n)
			continue;
		for (int j = 0; j < k; j++) {
			uint8_t t = m[rank * k + j];
			m[rank * k + j] = m[piv * k + j];
			m[piv * k + j] = t;
		}
		uint8_t inv = 0;
		for (int c = 1; c < 256; c++)
			if (ref_table[m[rank * k + col]][c] == 1)
				inv = (uint8_t)c;
		for (int r = 0; r < n; r++) {
			if (r == rank || m[r * k + col] == 0)
				continue;
			uint8_t f = ref_table[m[r * k + col]][inv];
			for (int j = 0; j < k; j++)
				m[r * k + j] ^= ref_table[f][m[rank * k + j]];
		}
		rank++;
	}
	return rank;
}

/* ---- the variants ---- */

struct entries {
	const struct stoa_variant *v[8];
	int n; /* usable ones, base last */
};

static void entries_of(const char *fn, struct entries *e)
{
	const struct stoa_func *f = stoa_find_func(fn);
	assert_non_null(f);
	e->n = 0;
	for (size_t i = 0; i < f->count; i++)
		if (stoa_variant_usable(&f->variants[i]))
			e->v[e->n++] = &f->variants[i];
	assert_string_equal(e->v[e->n - 1]->name, "base");
}

static struct entries enc, upd, dot, mad, mul;

static void prepare_entries(void)
{
	entries_of("ec_encode_data", &enc);
	entries_of("ec_encode_data_update", &upd);
	entries_of("gf_vect_dot_prod", &dot);
	entries_of("gf_vect_mad", &mad);
	entries_of("gf_vect_mul", &mul);
}

#define ENC(e) ((ec_encode_fn *)(e)->fn)
#define UPD(e) ((ec_update_fn *)(e)->fn)
#define DOT(e) ((ec_dot_fn *)(e)->fn)
#define MAD(e) ((ec_mad_fn *)(e)->fn)
#define MUL(e) ((ec_mul_fn *)(e)->fn)

/* ---- buffers: k sources and p outputs at their own random alignments in one arena ---- */

struct stripe {
	int k, p;
	size_t len;
	uint8_t *arena;
	uint8_t *src[MAX_FRAG], *out[MAX_FRAG], *want[MAX_FRAG];
	uint8_t a[MAX_K * MAX_P];
	uint8_t *tbls;
};

static void stripe_open(struct stripe *s, int k, int p, size_t len)
{
	size_t slot = len + 128;
	s->k = k;
	s->p = p;
	s->len = len;
	s->arena = malloc(slot * (size_t)(k + 2 * p));
	assert_non_null(s->arena);
	for (int j = 0; j < k; j++) {
		s->src[j] = s->arena + slot * (size_t)j + test_rand_below(64);
		test_fill_random(s->src[j], len);
	}
	for (int r = 0; r < p; r++) {
		s->out[r] = s->arena + slot * (size_t)(k + r) + test_rand_below(64);
		s->want[r] = s->arena + slot * (size_t)(k + p + r) + test_rand_below(64);
	}
	s->tbls = malloc((size_t)32 * k * p);
	assert_non_null(s->tbls);
	test_fill_random(s->a, (size_t)k * p);
	/* 0 and 1 are special cases a kernel could get wrong. */
	for (int i = 0; i < k * p; i++)
		if (test_rand_below(10) == 0)
			s->a[i] = (uint8_t)test_rand_below(2);
	ec_init_tables(k, p, s->a, s->tbls);
}

static void stripe_close(struct stripe *s)
{
	free(s->arena);
	free(s->tbls);
}

static void expect_rows(const char *what, const char *variant, const struct stripe *s,
                        uint8_t *const *got, uint8_t *const *want, int rows)
{
	for (int r = 0; r < rows; r++)
		if (memcmp(got[r], want[r], s->len) != 0) {
			size_t i = 0;
			while (got[r][i] == want[r][i])
				i++;
			TEST_FAIL(
			    "%s %s: k=%d rows=%d len=%zu: output %d differs first at byte %zu "
			    "(0x%02x, want 0x%02x)\n",
			    what, variant, s->k, rows, s->len, r, i, got[r][i], want[r][i]);
		}
}

static unsigned long calls;

/* Every variant of every data function on one stripe, against the base entries. */
static void check_stripe(struct stripe *s)
{
	int k = s->k, p = s->p;
	int len = (int)s->len;
	ENC(enc.v[enc.n - 1])(len, k, p, s->tbls, s->src, s->want);
	for (int v = 0; v < enc.n - 1; v++) {
		for (int r = 0; r < p; r++)
			memset(s->out[r], 0x5a, s->len);
		ENC(enc.v[v])(len, k, p, s->tbls, s->src, s->out);
		expect_rows("ec_encode_data", enc.v[v]->name, s, s->out, s->want, p);
		calls++;
	}
	/* update, source by source in a random order, over zeroed outputs */
	int order[MAX_K];
	for (int j = 0; j < k; j++)
		order[j] = j;
	for (int j = k - 1; j > 0; j--) {
		int i = (int)test_rand_below((uint64_t)j + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (int v = 0; v < upd.n; v++) {
		for (int r = 0; r < p; r++)
			memset(s->out[r], 0, s->len);
		for (int j = 0; j < k; j++)
			UPD(upd.v[v])(len, k, p, order[j], s->tbls, s->src[order[j]], s->out);
		expect_rows("ec_encode_data_update", upd.v[v]->name, s, s->out, s->want, p);
		calls++;
	}
	/* dot product of row r, and mad of every source into row r */
	int r = (int)test_rand_below((uint64_t)p);
	uint8_t *tr = s->tbls + (size_t)32 * k * r;
	for (int v = 0; v < dot.n; v++) {
		memset(s->out[0], 0xa5, s->len);
		DOT(dot.v[v])(len, k, tr, s->src, s->out[0]);
		expect_rows("gf_vect_dot_prod", dot.v[v]->name, s, s->out, &s->want[r], 1);
		memset(s->out[0], 0, s->len);
		for (int j = 0; j < k; j++)
			MAD(mad.v[v % mad.n])(len, k, j, tr, s->src[j], s->out[0]);
		expect_rows("gf_vect_mad", mad.v[v % mad.n]->name, s, s->out, &s->want[r], 1);
		calls += 2;
	}
}

/* ---- the tests ---- */

static void test_inventory(void **state)
{
	(void)state;
	const struct entries *all[] = { &enc, &upd, &dot, &mad, &mul };
	const char *names[] = { "ec_encode_data", "ec_encode_data_update", "gf_vect_dot_prod",
		                "gf_vect_mad", "gf_vect_mul" };
	for (int f = 0; f < 5; f++) {
		const struct stoa_func *fn = stoa_find_func(names[f]);
		print_message("%s: %zu variants, testing", names[f], fn->count);
		for (int i = 0; i < all[f]->n; i++)
			print_message(" %s", all[f]->v[i]->name);
		print_message("; dispatch picks %s\n", stoa_function_variant(names[f]));
		assert_true(all[f]->n >= 1);
	}
}

static void test_field(void **state)
{
	(void)state;
	for (int a = 0; a < 256; a++)
		for (int b = 0; b < 256; b++)
			if (gf_mul((unsigned char)a, (unsigned char)b) != ref_table[a][b])
				TEST_FAIL("gf_mul(%d, %d) = %d, want %d\n", a, b,
				          gf_mul((unsigned char)a, (unsigned char)b),
				          ref_table[a][b]);
	assert_int_equal(gf_inv(0), 0);
	for (int a = 1; a < 256; a++)
		assert_int_equal(ref_table[a][gf_inv((unsigned char)a)], 1);
	/* The defining facts: x * x^7 = x^8 = x^4 + x^3 + x^2 + 1, and 2 generates the group. */
	assert_int_equal(gf_mul(2, 0x80), 0x1d);
	assert_int_equal(gf_inv(2), 0x8e);
	uint8_t x = 1;
	for (int i = 0; i < 255; i++) {
		assert_int_equal(gf_exp[i], x);
		assert_int_equal(gf_log[x], i);
		x = ref_mul(x, 2);
		if (i < 254)
			assert_true(x != 1);
	}
	assert_int_equal(x, 1);
	print_message("all 65536 products equal the carry-less reference; all 256 inverses; "
	              "exp/log tables rebuilt from it\n");
}

static void test_tables(void **state)
{
	(void)state;
	uint8_t t[32];
	for (int c = 0; c < 256; c++) {
		gf_vect_mul_init((uint8_t)c, t);
		for (int i = 0; i < 16; i++) {
			assert_int_equal(t[i], ref_table[c][i]);
			assert_int_equal(t[16 + i], ref_table[c][i << 4]);
		}
	}
	/* ec_init_tables: row after row, 32 bytes per coefficient. */
	static uint8_t a[512], g[32 * 512 + 32];
	int shapes[][2] = { { 1, 1 }, { 10, 4 }, { 32, 16 }, { 255, 1 }, { 1, 255 }, { 127, 2 } };
	for (size_t s = 0; s < STOA_COUNT(shapes); s++) {
		int k = shapes[s][0], rows = shapes[s][1];
		test_fill_random(a, (size_t)k * rows);
		memset(g, 0xee, sizeof(g));
		ec_init_tables(k, rows, a, g);
		for (int i = 0; i < k * rows; i++) {
			gf_vect_mul_init(a[i], t);
			assert_memory_equal(g + 32 * i, t, 32);
		}
		if ((size_t)32 * k * rows < sizeof(g))
			assert_int_equal(g[32 * k * rows], 0xee);
	}
	print_message("gf_vect_mul_init for all 256 constants; ec_init_tables layout for %zu "
	              "shapes up to 255 sources\n",
	              STOA_COUNT(shapes));
}

static void test_matrices(void **state)
{
	(void)state;
	static uint8_t a[255 * 255];
	uint8_t pow2[255]; /* 2^e, by repeated reference multiplication */
	pow2[0] = 1;
	for (int e = 1; e < 255; e++)
		pow2[e] = ref_mul(pow2[e - 1], 2);
	int shapes = 0;
	for (int m = 1; m <= 255; m += (m < 40 ? 1 : 17)) {
		for (int k = 1; k <= m; k += (k < 20 ? 1 : 11)) {
			memset(a, 0xcc, sizeof(a));
			gf_gen_rs_matrix(a, m, k);
			for (int i = 0; i < m; i++)
				for (int j = 0; j < k; j++) {
					/* parity row i - k: (2^(i-k))^j = 2^((i-k) j) */
					uint8_t want = i < k ? (i == j) : pow2[(i - k) * j % 255];
					assert_int_equal(a[i * k + j], want);
				}
			assert_int_equal(a[m * k], 0xcc);
			gf_gen_cauchy1_matrix(a, m, k);
			for (int i = 0; i < m; i++)
				for (int j = 0; j < k; j++) {
					uint8_t want = i < k ? (i == j) : 0;
					if (i >= k)
						assert_int_equal(ref_table[a[i * k + j]][i ^ j], 1);
					else
						assert_int_equal(a[i * k + j], want);
				}
			shapes++;
		}
	}
	/* Shapes outside 1 <= k <= m <= 255 leave the matrix alone. */
	int bad[][2] = { { 0, 0 }, { 3, 0 }, { 2, 3 }, { 256, 4 }, { -1, 1 }, { 5, -2 } };
	for (size_t i = 0; i < STOA_COUNT(bad); i++) {
		memset(a, 0xcc, 64);
		gf_gen_rs_matrix(a, bad[i][0], bad[i][1]);
		gf_gen_cauchy1_matrix(a, bad[i][0], bad[i][1]);
		for (int b = 0; b < 64; b++)
			assert_int_equal(a[b], 0xcc);
	}
	gf_gen_rs_matrix(NULL, 4, 2);
	gf_gen_cauchy1_matrix(NULL, 4, 2);
	print_message("gf_gen_rs_matrix and gf_gen_cauchy1_matrix equal their definitions for %d "
	              "shapes up to 255 x 255; %zu bad shapes and NULL leave memory alone\n",
	              shapes, STOA_COUNT(bad));
}

static void test_invert(void **state)
{
	(void)state;
	static uint8_t m[64 * 64], in[64 * 64], out[64 * 64], prod[64 * 64];
	int inverted = 0, singular = 0;
	for (int t = 0; t < 600; t++) {
		int n = 1 + (int)test_rand_below(t < 500 ? 16 : 64);
		test_fill_random(m, (size_t)n * n);
		int make_singular = test_rand_below(4) == 0 && n > 1;
		if (make_singular) {
			/* row a = row b + c * row d makes the rows dependent */
			int ra = (int)test_rand_below((uint64_t)n), rb = (ra + 1) % n;
			uint8_t c = (uint8_t)test_rand();
			for (int j = 0; j < n; j++)
				m[ra * n + j] = m[rb * n + j] ^ ref_table[c][m[rb * n + j]];
		}
		memcpy(in, m, (size_t)n * n);
		int ret = gf_invert_matrix(in, out, n);
		memcpy(prod, m, (size_t)n * n);
		int rank = ref_rank(prod, n, n);
		if (rank < n) {
			assert_int_equal(ret, -1);
			singular++;
			continue;
		}
		assert_int_equal(ret, 0);
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				uint8_t s = 0;
				for (int x = 0; x < n; x++)
					s ^= ref_table[m[i * n + x]][out[x * n + j]];
				assert_int_equal(s, i == j);
				assert_int_equal(in[i * n + j], i == j);
			}
		inverted++;
	}
	assert_int_equal(gf_invert_matrix(in, out, 0), 0);
	assert_int_equal(gf_invert_matrix(NULL, out, 3), -1);
	assert_int_equal(gf_invert_matrix(in, NULL, 3), -1);
	assert_int_equal(gf_invert_matrix(in, out, -1), -1);
	assert_true(singular > 50 && inverted > 300);
	print_message("gf_invert_matrix: %d inverses checked (A * inv = I, input left as I), %d "
	              "singular matrices refused (rank from an independent elimination)\n",
	              inverted, singular);
}

/* The base entry against the byte-at-a-time reference, and as ISA-L documents its _base
 * functions: reading byte 1 of each table only. */
static void test_base_reference(void **state)
{
	(void)state;
	int checked = 0;
	for (int t = 0; t < 120; t++) {
		int k = 1 + (int)test_rand_below(MAX_K), p = 1 + (int)test_rand_below(MAX_P);
		size_t len = 1 + test_rand_below(t < 100 ? 300 : 3000);
		struct stripe s;
		stripe_open(&s, k, p, len);
		ref_encode(len, k, p, s.a, s.src, s.want);
		uint8_t *sparse = calloc((size_t)32 * k * p, 1);
		assert_non_null(sparse);
		for (int i = 0; i < k * p; i++)
			sparse[32 * i + 1] = s.a[i];
		ec_encode_data_base((int)len, k, p, sparse, s.src, s.out);
		expect_rows("ec_encode_data_base (byte 1 only)", "base", &s, s.out, s.want, p);
		ec_encode_data_base((int)len, k, p, s.tbls, s.src, s.out);
		expect_rows("ec_encode_data_base", "base", &s, s.out, s.want, p);
		for (int r = 0; r < p; r++)
			memset(s.out[r], 0, len);
		for (int j = 0; j < k; j++)
			ec_encode_data_update_base((int)len, k, p, j, sparse, s.src[j], s.out);
		expect_rows("ec_encode_data_update_base", "base", &s, s.out, s.want, p);
		gf_vect_dot_prod_base((int)len, k, sparse, s.src, s.out[0]);
		expect_rows("gf_vect_dot_prod_base", "base", &s, s.out, s.want, 1);
		memset(s.out[0], 0, len);
		for (int j = 0; j < k; j++)
			gf_vect_mad_base((int)len, k, j, sparse, s.src[j], s.out[0]);
		expect_rows("gf_vect_mad_base", "base", &s, s.out, s.want, 1);
		assert_int_equal(gf_vect_mul_base((int)len, sparse, s.src[0], s.out[0]), 0);
		for (size_t i = 0; i < len; i++)
			assert_int_equal(s.out[0][i], ref_table[s.a[0]][s.src[0][i]]);
		free(sparse);
		stripe_close(&s);
		checked++;
	}
	print_message("every _base function equals the byte-at-a-time reference on %d random "
	              "stripes (k <= 32, p <= 16, len <= 3000), with tables holding only byte 1\n",
	              checked);
}

/* k 1..32 x p 1..16, each with lengths drawn from: short, around the block sizes, medium and
 * long (up to 10000), every buffer at its own random alignment. */
static void test_variants_grid(void **state)
{
	(void)state;
	static const size_t edges[] = { 31,  32,  33,  63,  64,  65,  127, 128,  129,  191,
		                        255, 256, 257, 383, 511, 512, 513, 1023, 1024, 1025 };
	size_t lens = 0, longest = 0, odd = 0;
	calls = 0;
	for (int k = 1; k <= MAX_K; k++) {
		for (int p = 1; p <= MAX_P; p++) {
			size_t pick[6] = { 1 + test_rand_below(200),
				           edges[test_rand_below(STOA_COUNT(edges))],
				           200 + test_rand_below(2000),
				           1 + test_rand_below(10000),
				           test_rand_below(4) == 0 ? 2000 + test_rand_below(8001)
				                                   : 1 + test_rand_below(64),
				           1 + test_rand_below(64) };
			for (int i = 0; i < 6; i++) {
				struct stripe s;
				stripe_open(&s, k, p, pick[i]);
				check_stripe(&s);
				stripe_close(&s);
				lens++;
				odd += pick[i] & 1;
				longest = pick[i] > longest ? pick[i] : longest;
			}
		}
	}
	print_message("grid: k 1..%d x p 1..%d, %zu stripes (%zu odd lengths, longest %zu), %lu "
	              "variant calls equal to base\n",
	              MAX_K, MAX_P, lens, odd, longest, calls);
}

/* Every length 1..10000 on three shapes (one pass of one row and of two, and more rows than any
 * kernel's pass). */
static void test_every_length(void **state)
{
	(void)state;
	int shapes[][2] = { { 2, 1 }, { 3, 2 }, { 5, 9 } };
	calls = 0;
	for (size_t sh = 0; sh < STOA_COUNT(shapes); sh++) {
		int k = shapes[sh][0], p = shapes[sh][1];
		size_t max = sh < 2 ? 10000 : 2100;
		struct stripe s;
		stripe_open(&s, k, p, max);
		for (size_t len = 1; len <= max; len++) {
			s.len = len;
			check_stripe(&s);
		}
		stripe_close(&s);
	}
	print_message("every length 1..10000 at k=2 p=1 and k=3 p=2, 1..2100 at k=5 p=9: %lu "
	              "variant calls equal to base\n",
	              calls);
}

/* Lengths whose data outgrows L1 or L2, where the kernels switch block shapes by length: one or
 * two rows with few or many sources, and more than 16 sources and outputs beyond 2 MiB. */
static void test_long_stripes(void **state)
{
	(void)state;
	int shapes[][2] = { { 2, 1 }, { 10, 1 }, { 4, 2 }, { 16, 4 }, { 20, 3 } };
	size_t lens[] = { 4000 + test_rand_below(200), 70000 + test_rand_below(200),
		          110000 + test_rand_below(200) };
	calls = 0;
	for (size_t i = 0; i < STOA_COUNT(shapes); i++) {
		for (size_t l = 0; l < STOA_COUNT(lens); l++) {
			struct stripe s;
			stripe_open(&s, shapes[i][0], shapes[i][1], lens[l]);
			check_stripe(&s);
			stripe_close(&s);
		}
	}
	print_message("%zu long stripes (k + p up to 23, 4 to 110 KiB; 16+4 and 20+3 pass 2 MiB "
	              "at 110 KiB): %lu variant calls equal to base\n",
	              STOA_COUNT(shapes) * STOA_COUNT(lens), calls);
}

/* Larger shapes: many sources, many rows, k + p up to 255. */
static void test_large_shapes(void **state)
{
	(void)state;
	int shapes[][2] = { { 64, 8 },  { 200, 3 }, { 16, 40 }, { 100, 100 },
		            { 254, 1 }, { 1, 254 }, { 255, 2 } };
	calls = 0;
	for (size_t i = 0; i < STOA_COUNT(shapes); i++) {
		int k = shapes[i][0], p = shapes[i][1];
		size_t len = 1 + test_rand_below(700);
		struct stripe s;
		memset(&s, 0, sizeof(s));
		/* stripe_open's coefficient array is sized for 32 x 16; build these by hand. */
		size_t slot = len + 128;
		s.k = k, s.p = p, s.len = len;
		s.arena = malloc(slot * (size_t)(k + 2 * p));
		uint8_t *a = malloc((size_t)k * p);
		s.tbls = malloc((size_t)32 * k * p);
		assert_true(s.arena && a && s.tbls);
		for (int j = 0; j < k; j++) {
			s.src[j] = s.arena + slot * (size_t)j + test_rand_below(64);
			test_fill_random(s.src[j], len);
		}
		for (int r = 0; r < p; r++) {
			s.out[r] = s.arena + slot * (size_t)(k + r) + test_rand_below(64);
			s.want[r] = s.arena + slot * (size_t)(k + p + r) + test_rand_below(64);
		}
		test_fill_random(a, (size_t)k * p);
		ec_init_tables(k, p, a, s.tbls);
		ref_encode(len, k, p, a, s.src, s.want);
		for (int v = 0; v < enc.n; v++) {
			ENC(enc.v[v])((int)len, k, p, s.tbls, s.src, s.out);
			expect_rows("ec_encode_data", enc.v[v]->name, &s, s.out, s.want, p);
			calls++;
		}
		free(a);
		stripe_close(&s);
	}
	print_message("%zu large shapes (up to k=255, p=254, k*p=10000) against the reference: %lu "
	              "calls\n",
	              STOA_COUNT(shapes), calls);
}

/* Buffers that end at an inaccessible page, then buffers that start right after one. */
static void test_guard_pages(void **state)
{
	(void)state;
	int ks[] = { 1, 2, 5, 10 }, ps[] = { 1, 2, 3, 4, 6, 7 };
	size_t lens = 0;
	calls = 0;
	for (int where = GUARD_BACK; where <= GUARD_FRONT; where++) {
		for (size_t len = 1; len <= 1100; len += (len < 300 ? 1 : 61 + len % 7)) {
			int k = ks[test_rand_below(STOA_COUNT(ks))];
			int p = ps[test_rand_below(STOA_COUNT(ps))];
			uint8_t *src[16], *out[16], *want[16];
			for (int j = 0; j < k; j++) {
				src[j] = guard_alloc(len, where);
				test_fill_random(src[j], len);
			}
			for (int r = 0; r < p; r++) {
				out[r] = guard_alloc(len, where);
				want[r] = malloc(len);
			}
			uint8_t a[16 * 16], tb[32 * 16 * 16];
			test_fill_random(a, (size_t)k * p);
			ec_init_tables(k, p, a, tb);
			ref_encode(len, k, p, a, src, want);
			struct stripe s = { .k = k, .p = p, .len = len };
			for (int v = 0; v < enc.n; v++) {
				ENC(enc.v[v])((int)len, k, p, tb, src, out);
				expect_rows("ec_encode_data (guard)", enc.v[v]->name, &s, out, want,
				            p);
				for (int r = 0; r < p; r++)
					memset(out[r], 0, len);
				for (int j = 0; j < k; j++)
					UPD(upd.v[v % upd.n])((int)len, k, p, j, tb, src[j], out);
				expect_rows("ec_encode_data_update (guard)", upd.v[v % upd.n]->name,
				            &s, out, want, p);
				DOT(dot.v[v % dot.n])((int)len, k, tb, src, out[0]);
				expect_rows("gf_vect_dot_prod (guard)", dot.v[v % dot.n]->name, &s,
				            out, want, 1);
				/* in place */
				memcpy(out[0], src[0], len);
				assert_int_equal(
				    MUL(mul.v[v % mul.n])((int)len, tb, out[0], out[0]), 0);
				for (size_t i = 0; i < len; i++)
					assert_int_equal(out[0][i], ref_table[a[0]][src[0][i]]);
				calls += 4;
			}
			for (int j = 0; j < k; j++)
				guard_free(src[j], len, where);
			for (int r = 0; r < p; r++) {
				guard_free(out[r], len, where);
				free(want[r]);
			}
			lens++;
		}
	}
	print_message("guard pages behind and in front: %zu lengths 1..1100, %lu calls (encode, "
	              "update, dot product, in-place multiply)\n",
	              lens, calls);
}

static void test_vect_mul(void **state)
{
	(void)state;
	uint8_t tb[32];
	size_t n = 0;
	for (int t = 0; t < 300; t++) {
		size_t len = 1 + test_rand_below(t < 200 ? 300 : 5000);
		uint8_t c = (uint8_t)test_rand();
		gf_vect_mul_init(c, tb);
		uint8_t *buf = malloc(2 * len + 64);
		uint8_t *src = buf + test_rand_below(32),
		        *dst = buf + len + 32 + test_rand_below(32);
		test_fill_random(src, len);
		for (int v = 0; v < mul.n; v++) {
			memset(dst, 0, len);
			assert_int_equal(MUL(mul.v[v])((int)len, tb, src, dst), 0);
			for (size_t i = 0; i < len; i++)
				if (dst[i] != ref_table[c][src[i]])
					TEST_FAIL("gf_vect_mul %s len %zu byte %zu\n",
					          mul.v[v]->name, len, i);
			n++;
		}
		free(buf);
	}
	assert_int_equal(gf_vect_mul(0, tb, tb, tb), 0);
	assert_int_equal(gf_vect_mul(-1, tb, tb, tb), -1);
	assert_int_equal(gf_vect_mul(32, NULL, tb, tb), -1);
	assert_int_equal(gf_vect_mul(32, tb, NULL, tb), -1);
	assert_int_equal(gf_vect_mul(32, tb, tb, NULL), -1);
	print_message("gf_vect_mul: %zu calls of any length (not only multiples of 32) at any "
	              "alignment; bad arguments return -1\n",
	              n);
}

/* Calls that must do nothing: outputs keep their sentinel and nothing crashes. */
static void test_bad_arguments(void **state)
{
	(void)state;
	enum { LEN = 100, K = 4, P = 2 };
	uint8_t srcb[K][LEN], outb[P][LEN], a[K * P], tb[32 * K * P];
	uint8_t *src[K], *out[P], *src_null[K], *out_null[P];
	for (int j = 0; j < K; j++) {
		src[j] = srcb[j];
		src_null[j] = j == 2 ? NULL : srcb[j];
		test_fill_random(srcb[j], LEN);
	}
	for (int r = 0; r < P; r++) {
		out[r] = outb[r];
		out_null[r] = r == 1 ? NULL : outb[r];
	}
	test_fill_random(a, sizeof(a));
	ec_init_tables(K, P, a, tb);
	int checked = 0;
#define UNTOUCHED()                                                                                \
	do {                                                                                       \
		for (int r_ = 0; r_ < P; r_++)                                                     \
			for (int i_ = 0; i_ < LEN; i_++)                                           \
				assert_int_equal(outb[r_][i_], 0x77);                              \
		checked++;                                                                         \
	} while (0)
	for (int v = 0; v < enc.n; v++) {
		ec_encode_fn *e = ENC(enc.v[v]);
		ec_update_fn *u = UPD(upd.v[v % upd.n]);
		ec_dot_fn *d = DOT(dot.v[v % dot.n]);
		ec_mad_fn *m = MAD(mad.v[v % mad.n]);
		memset(outb, 0x77, sizeof(outb));
		e(0, K, P, tb, src, out);
		e(-5, K, P, tb, src, out);
		e(LEN, 0, P, tb, src, out);
		e(LEN, 256, P, tb, src, out);
		e(LEN, -1, P, tb, src, out);
		e(LEN, K, 0, tb, src, out);
		e(LEN, K, 256, tb, src, out);
		e(LEN, K, P, NULL, src, out);
		e(LEN, K, P, tb, NULL, out);
		e(LEN, K, P, tb, src, NULL);
		e(LEN, K, P, tb, src_null, out);
		e(LEN, K, P, tb, src, out_null);
		UNTOUCHED();
		u(0, K, P, 1, tb, src[1], out);
		u(LEN, 0, P, 0, tb, src[1], out);
		u(LEN, 256, P, 0, tb, src[1], out);
		u(LEN, K, 0, 1, tb, src[1], out);
		u(LEN, K, 256, 1, tb, src[1], out);
		u(LEN, K, P, -1, tb, src[1], out);
		u(LEN, K, P, K, tb, src[1], out);
		u(LEN, K, P, 1, NULL, src[1], out);
		u(LEN, K, P, 1, tb, NULL, out);
		u(LEN, K, P, 1, tb, src[1], NULL);
		u(LEN, K, P, 1, tb, src[1], out_null);
		UNTOUCHED();
		d(0, K, tb, src, out[0]);
		d(LEN, 0, tb, src, out[0]);
		d(LEN, 300, tb, src, out[0]);
		d(LEN, K, NULL, src, out[0]);
		d(LEN, K, tb, NULL, out[0]);
		d(LEN, K, tb, src_null, out[0]);
		d(LEN, K, tb, src, NULL);
		m(0, K, 1, tb, src[1], out[0]);
		m(LEN, K, K, tb, src[1], out[0]);
		m(LEN, K, -1, tb, src[1], out[0]);
		m(LEN, 0, 0, tb, src[1], out[0]);
		m(LEN, K, 1, NULL, src[1], out[0]);
		m(LEN, K, 1, tb, NULL, out[0]);
		m(LEN, K, 1, tb, src[1], NULL);
		UNTOUCHED();
	}
	ec_init_tables(0, 1, a, tb);
	ec_init_tables(1, 0, a, tb);
	ec_init_tables(1, 1, NULL, tb);
	ec_init_tables(1, 1, a, NULL);
	gf_vect_mul_init(3, NULL);
	/* The _base exports follow the same rules. */
	memset(outb, 0x77, sizeof(outb));
	ec_encode_data_base(LEN, 0, P, tb, src, out);
	ec_encode_data_base(LEN, K, P, tb, src_null, out);
	ec_encode_data_update_base(LEN, K, P, K, tb, src[0], out);
	gf_vect_dot_prod_base(-1, K, tb, src, out[0]);
	gf_vect_mad_base(LEN, K, 1, tb, NULL, out[0]);
	assert_int_equal(gf_vect_mul_base(LEN, tb, src[0], NULL), -1);
	UNTOUCHED();
#undef UNTOUCHED
	print_message(
	    "bad arguments (len <= 0, k or rows 0 / negative / above 255, vec_i out of "
	    "range, NULL tables, arrays or entries): %d groups of calls left every output "
	    "untouched\n",
	    checked);
}

/* ---- decoding ---- */

/* Encode a random stripe with matrix a, lose `lost`, rebuild through the helper's tables with
 * the given encode variant, compare. Returns the helper's status. */
static int decode_round(int k, int p, const uint8_t *a, const int *lost, int nlost, size_t len,
                        ec_encode_fn *encode, uint8_t **frag, uint8_t **keep, uint8_t *tables)
{
	int surv[MAX_FRAG];
	int ret = stoa_ec_decode_tables(k, p, a, lost, nlost, surv, tables);
	if (ret != 0)
		return ret;
	for (int i = 1; i < k; i++)
		assert_true(surv[i] > surv[i - 1]);
	uint8_t *in[MAX_FRAG], *out[MAX_FRAG];
	for (int i = 0; i < k; i++) {
		for (int e = 0; e < nlost; e++)
			assert_true(surv[i] != lost[e]);
		in[i] = frag[surv[i]];
	}
	for (int e = 0; e < nlost; e++) {
		memset(frag[lost[e]], 0xdd, len);
		out[e] = frag[lost[e]];
	}
	encode((int)len, k, nlost, tables, in, out);
	for (int e = 0; e < nlost; e++)
		if (memcmp(frag[lost[e]], keep[lost[e]], len) != 0)
			TEST_FAIL("k=%d p=%d: fragment %d not rebuilt\n", k, p, lost[e]);
	return 0;
}

struct code {
	int k, p;
	size_t len;
	uint8_t a[MAX_FRAG * MAX_FRAG];
	uint8_t *frag[MAX_FRAG], *keep[MAX_FRAG];
	uint8_t *tables;
};

static void code_open(struct code *c, int k, int p, size_t len, int rs)
{
	c->k = k, c->p = p, c->len = len;
	if (rs)
		gf_gen_rs_matrix(c->a, k + p, k);
	else
		gf_gen_cauchy1_matrix(c->a, k + p, k);
	for (int f = 0; f < k + p; f++) {
		c->frag[f] = malloc(len);
		c->keep[f] = malloc(len);
		assert_true(c->frag[f] && c->keep[f]);
		if (f < k)
			test_fill_random(c->frag[f], len);
	}
	uint8_t *tb = malloc((size_t)32 * k * p);
	c->tables = malloc((size_t)32 * k * p);
	assert_true(tb && c->tables);
	ec_init_tables(k, p, c->a + k * k, tb);
	ec_encode_data((int)len, k, p, tb, c->frag, c->frag + k);
	free(tb);
	for (int f = 0; f < k + p; f++)
		memcpy(c->keep[f], c->frag[f], len);
}

static void code_close(struct code *c)
{
	for (int f = 0; f < c->k + c->p; f++) {
		free(c->frag[f]);
		free(c->keep[f]);
	}
	free(c->tables);
}

/* True when the rows of the fragments not in `lost` have rank < k (checked independently). */
static int survivors_singular(const struct code *c, const int *lost, int nlost)
{
	static uint8_t m[MAX_FRAG * MAX_FRAG];
	int n = 0;
	for (int f = 0; f < c->k + c->p; f++) {
		int gone = 0;
		for (int e = 0; e < nlost; e++)
			gone |= lost[e] == f;
		if (!gone)
			memcpy(m + (n++) * c->k, c->a + f * c->k, (size_t)c->k);
	}
	return ref_rank(m, n, c->k) < c->k;
}

static void test_decode_every_pattern(void **state)
{
	(void)state;
	long patterns = 0, rs_patterns = 0, rs_singular = 0;
	for (int rs = 0; rs <= 1; rs++) {
		for (int n = 2; n <= 12; n++) {
			for (int p = 1; p < n; p++) {
				int k = n - p;
				struct code *c = malloc(sizeof(*c));
				code_open(c, k, p, 1 + test_rand_below(80), rs);
				for (unsigned m = 1; m < (1u << n); m++) {
					int nlost = __builtin_popcount(m);
					if (nlost > p)
						continue;
					int lost[16], e = 0;
					for (int f = 0; f < n; f++)
						if (m >> f & 1)
							lost[e++] = f;
					/* Name them in a shuffled order: outputs follow it. */
					for (int i = nlost - 1; i > 0; i--) {
						int j = (int)test_rand_below((uint64_t)i + 1);
						int t = lost[i];
						lost[i] = lost[j];
						lost[j] = t;
					}
					ec_encode_fn *f = ENC(enc.v[patterns % enc.n]);
					int ret = decode_round(k, p, c->a, lost, nlost, c->len, f,
					                       c->frag, c->keep, c->tables);
					if (rs) {
						rs_patterns++;
						if (ret == STOA_EC_ESINGULAR) {
							assert_true(
							    survivors_singular(c, lost, nlost));
							rs_singular++;
						} else {
							assert_int_equal(ret, 0);
						}
					} else {
						assert_int_equal(ret, 0);
					}
					patterns++;
				}
				code_close(c);
				free(c);
			}
		}
	}
	assert_true(rs_singular > 0);
	print_message(
	    "every loss pattern of 1..p fragments for every k + p <= 12: %ld patterns "
	    "rebuilt (Cauchy: all; gf_gen_rs_matrix: %ld of %ld refused as singular, each "
	    "confirmed by an independent rank)\n",
	    patterns - rs_singular, rs_singular, rs_patterns);
}

static void test_decode_random_patterns(void **state)
{
	(void)state;
	int shapes[][2] = { { 10, 4 },  { 16, 4 },   { 20, 12 },   { 32, 16 }, { 12, 12 },
		            { 64, 32 }, { 200, 55 }, { 127, 128 }, { 1, 254 }, { 250, 5 } };
	long n = 0;
	for (size_t s = 0; s < STOA_COUNT(shapes); s++) {
		int k = shapes[s][0], p = shapes[s][1];
		struct code *c = malloc(sizeof(*c));
		code_open(c, k, p, 1 + test_rand_below(k > 100 ? 90 : 400), 0);
		int rounds = k + p > 100 ? 3 : 40;
		for (int t = 0; t < rounds; t++) {
			int nlost = 1 + (int)test_rand_below((uint64_t)p), lost[MAX_FRAG],
			    used[256] = { 0 };
			for (int e = 0; e < nlost;) {
				int f = (int)test_rand_below((uint64_t)(k + p));
				if (!used[f]) {
					used[f] = 1;
					lost[e++] = f;
				}
			}
			ec_encode_fn *f = ENC(enc.v[n % enc.n]);
			assert_int_equal(decode_round(k, p, c->a, lost, nlost, c->len, f, c->frag,
			                              c->keep, c->tables),
			                 0);
			n++;
		}
		code_close(c);
		free(c);
	}
	print_message("%ld random loss patterns (data and parity) rebuilt for %zu Cauchy codes up "
	              "to k + p = 255\n",
	              n, STOA_COUNT(shapes));
}

static void test_decode_helper(void **state)
{
	(void)state;
	struct code *c = malloc(sizeof(*c));
	code_open(c, 6, 5, 333, 0);
	int surv[MAX_FRAG];
	/* Only parity lost: the survivors are the data, the tables re-encode. */
	int parity[] = { 9, 6 };
	assert_int_equal(decode_round(6, 5, c->a, parity, 2, c->len, ec_encode_data, c->frag,
	                              c->keep, c->tables),
	                 0);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, parity, 2, surv, c->tables), 0);
	for (int i = 0; i < 6; i++)
		assert_int_equal(surv[i], i);
	/* Data lost: the first intact fragments, in order. */
	int data[] = { 4, 0, 7 };
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, data, 3, surv, c->tables), 0);
	int want[] = { 1, 2, 3, 5, 6, 8 };
	for (int i = 0; i < 6; i++)
		assert_int_equal(surv[i], want[i]);

	/* Errors, with the outputs untouched. */
	int six[] = { 0, 1, 2, 3, 4, 5 }, dup[] = { 1, 1 }, range[] = { 11 }, neg[] = { -1 };
	memset(surv, 0x55, sizeof(surv));
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, six, 6, surv, c->tables),
	                 STOA_EC_ETOOMANY);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, dup, 2, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, range, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, neg, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, six, 0, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(0, 5, c->a, six, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 0, c->a, six, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(200, 56, c->a, six, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, NULL, six, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, NULL, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, six, 1, NULL, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, six, 1, surv, NULL), STOA_EC_EINVAL);
	for (int i = 0; i < 6; i++)
		assert_int_equal(surv[i], 0x55555555);
	code_close(c);
	free(c);
	for (int e = STOA_EC_ENOMEM; e <= 0; e++)
		assert_true(strlen(stoa_ec_strerror(e)) > 5);
	print_message("decode helper: parity-only and data losses pick the first intact "
	              "fragments; too many, repeated, out-of-range and NULL arguments refused\n");
}

/* gf_gen_rs_matrix is not MDS: with k = 6, p = 5, losing fragments 0, 2, 5, 7 and 8 leaves
 * rows that are linearly dependent. The Cauchy matrix rebuilds the same pattern. */
static void test_vandermonde_not_mds(void **state)
{
	(void)state;
	int lost[] = { 0, 2, 5, 7, 8 };
	struct code *c = malloc(sizeof(*c));
	code_open(c, 6, 5, 100, 1);
	assert_true(survivors_singular(c, lost, 5));
	int surv[16];
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, lost, 5, surv, c->tables),
	                 STOA_EC_ESINGULAR);
	/* Four of them lost is fine: another intact fragment completes the set. */
	assert_int_equal(
	    decode_round(6, 5, c->a, lost, 4, c->len, ec_encode_data, c->frag, c->keep, c->tables),
	    0);
	code_close(c);
	code_open(c, 6, 5, 100, 0);
	assert_false(survivors_singular(c, lost, 5));
	assert_int_equal(
	    decode_round(6, 5, c->a, lost, 5, c->len, ec_encode_data, c->frag, c->keep, c->tables),
	    0);
	code_close(c);
	free(c);
	/* The one-call recovery says so too. */
	enum { LEN = 64 };
	uint8_t obj[6 * LEN], par[5][LEN], *data[6], *parity[5], *frag[11];
	test_fill_random(obj, sizeof(obj));
	for (int r = 0; r < 5; r++)
		parity[r] = par[r];
	assert_int_equal(
	    stoa_ec_encode(6, 5, STOA_EC_VANDERMONDE, obj, sizeof(obj), data, NULL, parity), 0);
	uint8_t lostbuf[5][LEN];
	for (int f = 0; f < 11; f++)
		frag[f] = f < 6 ? data[f] : parity[f - 6];
	for (int e = 0; e < 5; e++)
		frag[lost[e]] = lostbuf[e];
	assert_int_equal(stoa_ec_recover(6, 5, STOA_EC_VANDERMONDE, LEN, frag, lost, 5),
	                 STOA_EC_ESINGULAR);
	print_message(
	    "gf_gen_rs_matrix k=6 p=5: losing {0,2,5,7,8} is singular (independent rank), "
	    "refused with STOA_EC_ESINGULAR; the Cauchy matrix rebuilds it\n");
}

/* ---- the one-call helpers ---- */

static void test_one_call(void **state)
{
	(void)state;
	stoa_ec_cache_clear();
	size_t sizes[] = { 1, 5, 9, 10, 11, 100, 4096, 4097, 65536, 100003 };
	int codes[][2] = { { 2, 1 }, { 4, 2 }, { 10, 4 }, { 6, 3 }, { 1, 3 }, { 17, 5 } };
	int rounds = 0;
	for (size_t si = 0; si < STOA_COUNT(sizes); si++) {
		for (size_t ci = 0; ci < STOA_COUNT(codes); ci++) {
			int k = codes[ci][0], p = codes[ci][1];
			size_t size = sizes[si];
			size_t flen = stoa_ec_fragment_len(size, k);
			assert_int_equal(flen, (size + (size_t)k - 1) / (size_t)k);
			size_t padlen = stoa_ec_pad_len(size, k);
			uint8_t *obj = malloc(size), *pad = padlen ? malloc(padlen) : NULL;
			uint8_t *data[32], *parity[8], *frag[40], *spare[40];
			test_fill_random(obj, size);
			if (pad)
				memset(pad, 0xee, padlen);
			for (int r = 0; r < p; r++)
				parity[r] = malloc(flen);
			int matrix = (si + ci) % 3 == 0 ? STOA_EC_VANDERMONDE : STOA_EC_CAUCHY;
			if (p >= 5)
				matrix = STOA_EC_CAUCHY;
			assert_int_equal(stoa_ec_encode(k, p, matrix, obj, size, data, pad, parity),
			                 0);
			/* No copies of whole fragments; the last partial one zero-padded. */
			int padded = 0;
			for (int i = 0; i < k; i++) {
				size_t start = (size_t)i * flen;
				if (start + flen <= size) {
					assert_ptr_equal(data[i], obj + start);
				} else {
					assert_true(data[i] >= pad &&
					            data[i] + flen <= pad + padlen);
					size_t have = start < size ? size - start : 0;
					if (have)
						assert_memory_equal(data[i], obj + start, have);
					for (size_t b = have; b < flen; b++)
						assert_int_equal(data[i][b], 0);
					padded++;
				}
			}
			assert_true(padlen <= 2 * flen && (padlen == 0) == (padded == 0));
			/* The parity is that of the plain API with the same matrix. */
			uint8_t a[MAX_FRAG * 32], *tb = malloc((size_t)32 * k * p), *chk[8];
			if (matrix == STOA_EC_VANDERMONDE)
				gf_gen_rs_matrix(a, k + p, k);
			else
				gf_gen_cauchy1_matrix(a, k + p, k);
			ec_init_tables(k, p, a + k * k, tb);
			for (int r = 0; r < p; r++)
				chk[r] = malloc(flen);
			ec_encode_data((int)flen, k, p, tb, data, chk);
			for (int r = 0; r < p; r++)
				assert_memory_equal(chk[r], parity[r], flen);
			/* Lose up to p fragments, some of the others given as NULL when spare. */
			for (int t = 0; t < 4; t++) {
				int nlost = t == 0 ? p : 1 + (int)test_rand_below((uint64_t)p);
				int lost[40], used[40] = { 0 };
				for (int e = 0; e < nlost;) {
					int f = (int)test_rand_below((uint64_t)(k + p));
					if (!used[f]) {
						used[f] = 1;
						lost[e++] = f;
					}
				}
				for (int f = 0; f < k + p; f++) {
					frag[f] = f < k ? data[f] : parity[f - k];
					spare[f] = NULL;
					if (used[f]) {
						spare[f] = malloc(flen);
						memset(spare[f], 0xdd, flen);
						frag[f] = spare[f];
					}
				}
				int extra = p - nlost;
				for (int f = 0; f < k + p && extra > 0; f++)
					if (!used[f] && test_rand_below(3) == 0) {
						frag[f] = NULL;
						extra--;
					}
				/* Every code here is MDS: Vandermonde only with p <= 4, k <= 21. */
				assert_int_equal(
				    stoa_ec_recover(k, p, matrix, flen, frag, lost, nlost), 0);
				for (int e = 0; e < nlost; e++) {
					int f = lost[e];
					const uint8_t *orig = f < k ? data[f] : parity[f - k];
					assert_memory_equal(frag[f], orig, flen);
				}
				for (int f = 0; f < k + p; f++)
					free(spare[f]);
				rounds++;
			}
			for (int r = 0; r < p; r++) {
				free(parity[r]);
				free(chk[r]);
			}
			free(tb);
			free(obj);
			free(pad);
		}
	}
	size_t cached = ec_cache_entries();
	assert_true(cached > 0 && cached <= 64);
	stoa_ec_cache_clear();
	assert_int_equal(ec_cache_entries(), 0);
	print_message("one-call encode of %zu object sizes x %zu codes (fragments point into the "
	              "object, the tail padded), %d recoveries with data and parity lost and spare "
	              "fragments absent; cache held %zu entries, cleared\n",
	              STOA_COUNT(sizes), STOA_COUNT(codes), rounds, cached);
}

static void test_one_call_errors(void **state)
{
	(void)state;
	uint8_t obj[100], pad[64], par[2][50], *data[4], *parity[2] = { par[0], par[1] };
	uint8_t *frag[6];
	memset(obj, 1, sizeof(obj));
	assert_int_equal(stoa_ec_encode(0, 2, 0, obj, 100, data, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(2, 0, 0, obj, 100, data, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(250, 6, 0, obj, 100, data, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(2, 2, 7, obj, 100, data, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(2, 2, 0, NULL, 100, data, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(2, 2, 0, obj, 0, data, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(2, 2, 0, obj, 100, NULL, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(2, 2, 0, obj, 100, data, pad, NULL), STOA_EC_EINVAL);
	/* 99 bytes in 2 fragments: the second is partial, so the pad is required. */
	assert_int_equal(stoa_ec_pad_len(99, 2), 50);
	assert_int_equal(stoa_ec_encode(2, 2, 0, obj, 99, data, NULL, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_pad_len(100, 2), 0);
	assert_int_equal(stoa_ec_encode(2, 2, 0, obj, 100, data, NULL, parity), 0);
	/* 5 bytes in 4 fragments of 2: one partial and one empty. */
	assert_int_equal(stoa_ec_fragment_len(5, 4), 2);
	assert_int_equal(stoa_ec_pad_len(5, 4), 4);
	assert_int_equal(stoa_ec_fragment_len(0, 4), 0);
	assert_int_equal(stoa_ec_pad_len(7, 0), 0);

	for (int f = 0; f < 4; f++)
		frag[f] = f < 2 ? data[f] : parity[f - 2];
	int two[] = { 0, 3 }, three[] = { 0, 1, 2 }, dup[] = { 1, 1 }, bad[] = { 4 };
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, three, 3), STOA_EC_ETOOMANY);
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, dup, 2), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, bad, 1), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, NULL, two, 2), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, NULL, 2), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, two, -1), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, two, 0), 0);
	/* A lost fragment needs a buffer; too few intact ones given is "too many missing". */
	uint8_t *keep = frag[0];
	frag[0] = NULL;
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, two, 2), STOA_EC_EINVAL);
	frag[0] = keep;
	frag[1] = NULL;
	frag[2] = NULL;
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, two, 2), STOA_EC_ETOOMANY);
	print_message("one-call helpers: bad k, p, matrix, sizes, NULLs, missing pad, repeated or "
	              "out-of-range indices and too many losses refused with their codes\n");
}

struct worker_arg {
	int id;
	int failures;
	long rounds;
};

/* Threads share the cache with more loss patterns than it holds (evictions while entries are in
 * use), each checking every result. */
static void *recover_worker(void *p)
{
	struct worker_arg *w = p;
	enum { K = 8, P = 4, LEN = 1000 };
	uint64_t s = 0x1234567ull * (uint64_t)(w->id + 1);
	uint8_t obj[K * LEN], par[P][LEN], *data[K], *parity[P], *frag[K + P], buf[P][LEN];
	for (size_t i = 0; i < sizeof(obj); i++)
		obj[i] = (uint8_t)(i * 7 + (size_t)w->id);
	for (int r = 0; r < P; r++)
		parity[r] = par[r];
	if (stoa_ec_encode(K, P, STOA_EC_CAUCHY, obj, sizeof(obj), data, NULL, parity) != 0) {
		w->failures++;
		return NULL;
	}
	for (int t = 0; t < 400; t++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		int nlost = 1 + (int)((s >> 33) % P), lost[P], used[K + P] = { 0 };
		for (int e = 0; e < nlost;) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			int f = (int)((s >> 33) % (K + P));
			if (!used[f]) {
				used[f] = 1;
				lost[e++] = f;
			}
		}
		int e = 0;
		for (int f = 0; f < K + P; f++)
			frag[f] = used[f] ? buf[e++] : (f < K ? data[f] : parity[f - K]);
		if (stoa_ec_recover(K, P, STOA_EC_CAUCHY, LEN, frag, lost, nlost) != 0) {
			w->failures++;
			continue;
		}
		for (int i = 0; i < nlost; i++) {
			int f = lost[i];
			if (memcmp(frag[f], f < K ? data[f] : parity[f - K], LEN) != 0)
				w->failures++;
		}
		if (t % 97 == 0 && w->id == 0)
			stoa_ec_cache_clear();
		w->rounds++;
	}
	return NULL;
}

static void test_cache_threads(void **state)
{
	(void)state;
	enum { T = 4 };
	pthread_t tid[T];
	struct worker_arg w[T];
	for (int i = 0; i < T; i++) {
		w[i] = (struct worker_arg){ i, 0, 0 };
		assert_int_equal(pthread_create(&tid[i], NULL, recover_worker, &w[i]), 0);
	}
	long rounds = 0;
	for (int i = 0; i < T; i++) {
		pthread_join(tid[i], NULL);
		assert_int_equal(w[i].failures, 0);
		rounds += w[i].rounds;
	}
	size_t cached = ec_cache_entries();
	assert_true(cached <= 64);
	print_message("%d threads, %ld recoveries over 793 loss patterns of 8+4 through the shared "
	              "cache (at most 64 entries, cleared now and then): all correct; %zu cached\n",
	              T, rounds, cached);
	stoa_ec_cache_clear();
}

/* ---- the separate-process oracle (tests/oracle.h) ---- */

/* Result lines that are data-function calls, and inversions the oracle found singular. */
static void count_results(const struct oracle_output *o, size_t *data_calls, size_t *singular)
{
	const char *pos = o->text, *x;
	size_t len;
	*data_calls = *singular = 0;
	while ((x = oracle_next_line(&pos, &len, NULL))) {
		if (strncmp(x, "ec_", 3) == 0 || strncmp(x, "gf_vect_", 8) == 0)
			(*data_calls)++;
		const char *r = strstr(x, " ret=-1");
		if (r && r < x + len)
			(*singular)++;
	}
}

#define ORACLE_COUNT 400

static void test_isal_oracle(void **state)
{
	(void)state;
	struct oracle_output sys, ours;
	oracle_run("ec", ORACLE_SYSTEM, test_seed(), ORACLE_COUNT, &sys);
	oracle_run("ec", ORACLE_STOA, test_seed(), ORACLE_COUNT, &ours);
	size_t data_calls, singular;
	size_t n = oracle_compare("libisal", &sys, "stoa", &ours, NULL, NULL);
	count_results(&ours, &data_calls, &singular);
	print_message("Debian libisal vs stoa: %zu results identical: all products, inverses and "
	              "gf_vect_mul_init tables, generator matrices for every shape up to 32 "
	              "fragments and 40 up to 255, %d inversions (%zu singular), %zu data-function "
	              "calls (coefficient tables byte-identical, outputs identical)\n",
	              n, 2 * ORACLE_COUNT, singular, data_calls);
	assert_true(singular > ORACLE_COUNT / 10);
	assert_true(data_calls >= (size_t)10 * ORACLE_COUNT);
	oracle_free(&sys);
	oracle_free(&ours);
}

static void test_compat_abi(void **state)
{
	(void)state;
	size_t n = oracle_check_compat("ec", test_seed(), ORACLE_COUNT / 3);
	assert_true(n > 0);
}

static int setup(void **state)
{
	(void)state;
	test_seed();
	ref_init();
	prepare_entries();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inventory),
		cmocka_unit_test(test_field),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_matrices),
		cmocka_unit_test(test_invert),
		cmocka_unit_test(test_base_reference),
		cmocka_unit_test(test_variants_grid),
		cmocka_unit_test(test_every_length),
		cmocka_unit_test(test_long_stripes),
		cmocka_unit_test(test_large_shapes),
		cmocka_unit_test(test_guard_pages),
		cmocka_unit_test(test_vect_mul),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_decode_every_pattern),
		cmocka_unit_test(test_decode_random_patterns),
		cmocka_unit_test(test_decode_helper),
		cmocka_unit_test(test_vandermonde_not_mds),
		cmocka_unit_test(test_one_call),
		cmocka_unit_test(test_one_call_errors),
		cmocka_unit_test(test_cache_threads),
		cmocka_unit_test(test_isal_oracle),
		cmocka_unit_test(test_compat_abi),
	};
	return cmocka_run_group_tests_name("erasure_code", tests, setup, NULL);
}
