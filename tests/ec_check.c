/* What both erasure-code suites (tests/test_ec*.c) use: the independent reference, the
 * usable variants of each data function, and stripes checked against the reference; see
 * ec_check.h. */
#include "ec_check.h"

/* Carry-less product of two bytes, then reduction modulo x^8 + x^4 + x^3 + x^2 + 1 from the top
 * bit down: the definition of the field, nothing shared with the library. */
uint8_t ref_mul(uint8_t a, uint8_t b)
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

uint8_t ref_table[256][256];

static void ref_init(void)
{
	for (int a = 0; a < 256; a++)
		for (int b = 0; b < 256; b++)
			ref_table[a][b] = ref_mul((uint8_t)a, (uint8_t)b);
}

/* dst[r][i] = sum over j of a[r * k + j] * src[j][i], byte by byte. */
void ref_encode(size_t len, int k, int rows, const uint8_t *a, uint8_t *const *src,
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
int ref_rank(uint8_t *m, int n, int k)
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

static void entries_of(const char *fn, struct entries *e)
{
	e->n = (int)test_variants(test_func(fn), e->v, 8, NULL);
	assert_string_equal(e->v[e->n - 1]->name, "base");
}

struct entries enc, upd, dot, mad, mul;

static void prepare_entries(void)
{
	entries_of("ec_encode_data", &enc);
	entries_of("ec_encode_data_update", &upd);
	entries_of("gf_vect_dot_prod", &dot);
	entries_of("gf_vect_mad", &mad);
	entries_of("gf_vect_mul", &mul);
}

void stripe_open(struct stripe *s, int k, int p, size_t len)
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

void stripe_close(struct stripe *s)
{
	free(s->arena);
	free(s->tbls);
}

void expect_rows(const char *what, const char *variant, const struct stripe *s,
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

unsigned long calls;

/* Every variant of every data function on one stripe, against the base entries. */
void check_stripe(struct stripe *s)
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

int ec_suite_setup(void **state)
{
	(void)state;
	test_seed();
	ref_init();
	prepare_entries();
	return 0;
}
