/* Erasure codes: the field, the tables and matrices, every variant of every data function
 * against the reference and the base entry (grids, every length, long and large stripes, guard
 * pages), bad arguments, and Debian's libisal in a separate process (tests/ec_oracle.c). */
#include "ec_check.h"

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
 * two rows with few or many sources, and more than 16 sources and outputs beyond 2 MiB. Beyond L2
 * the shapes of one or two rows from many sources also follow the L1 data cache's ways (CI runs
 * this test with STOA_X86_L1D_WAYS 8 and 12). */
static void test_long_stripes(void **state)
{
	(void)state;
	int shapes[][2] = { { 2, 1 }, { 10, 1 }, { 10, 2 }, { 4, 2 }, { 16, 4 }, { 20, 3 } };
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
	print_message("%zu long stripes (k + p up to 23, 4 to 110 KiB; at 110 KiB 10+1 and 10+2 "
	              "pass 1 MiB, 16+4 and 20+3 2 MiB): %lu variant calls equal to base\n",
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
		cmocka_unit_test(test_isal_oracle),
		cmocka_unit_test(test_compat_abi),
	};
	return TEST_MAIN("erasure_code", tests, ec_suite_setup, NULL);
}
