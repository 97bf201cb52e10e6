/* stoa_<crc>_combine for every CRC of the API.
 *
 * - Random splits: combine(f(init, A), f(0, B), |B|) == f(init, A || B), lengths 0 to 70 KB,
 *   every split point kind (empty A, empty B, odd), random init; and the init-t rule for
 *   crc32_iscsi's usual 0xFFFFFFFF start.
 * - Lengths beyond 4 GiB: against an independent reference (the shift by n zero bytes as a
 *   w x w bit matrix over GF(2), raised to the n-th power by squaring, built from the CRC
 *   catalogue's polynomial rather than from stoa's tables), against zlib's crc32_combine64 for
 *   the gzip CRC, and once against a direct crc32_iscsi pass over 4 GiB + 3 zero bytes.
 * - Identities: len 0, linearity, and shift(m) then shift(n) == shift(m + n) across 2^32. */
/* zlib declares crc32_combine64 only for large-file builds. */
#define _LARGEFILE64_SOURCE 1
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <zlib.h>

#include "isa-l/crc.h"
#include "isa-l/crc64.h"
#include "stoa.h"
#include "testutil.h"

typedef uint64_t crc_fn(uint64_t init, const uint8_t *buf, uint64_t len);
typedef uint64_t combine_fn(uint64_t a, uint64_t b, uint64_t len);

struct crc_case {
	const char *name;
	unsigned width;
	int reflected;
	uint64_t poly; /* MSB first, without x^width (the CRC catalogue's "poly") */
	crc_fn *crc;
	combine_fn *combine;
};

#define WRAP(type, name)                                                                           \
	static uint64_t name##_w(uint64_t init, const uint8_t *buf, uint64_t len)                  \
	{                                                                                          \
		return name((type)init, buf, len);                                                 \
	}                                                                                          \
	static uint64_t name##_c(uint64_t a, uint64_t b, uint64_t len)                             \
	{                                                                                          \
		return stoa_##name##_combine((type)a, (type)b, len);                               \
	}

WRAP(uint16_t, crc16_t10dif)
WRAP(uint32_t, crc32_ieee)
WRAP(uint32_t, crc32_gzip_refl)
WRAP(uint64_t, crc64_ecma_refl)
WRAP(uint64_t, crc64_ecma_norm)
WRAP(uint64_t, crc64_iso_refl)
WRAP(uint64_t, crc64_iso_norm)
WRAP(uint64_t, crc64_jones_refl)
WRAP(uint64_t, crc64_jones_norm)
WRAP(uint64_t, crc64_rocksoft_refl)
WRAP(uint64_t, crc64_rocksoft_norm)

/* crc32_iscsi takes an int length: longer buffers go in pieces. */
static uint64_t crc32_iscsi_w(uint64_t init, const uint8_t *buf, uint64_t len)
{
	unsigned int c = (unsigned int)init;
	while (len) {
		int n = len > (1u << 30) ? 1 << 30 : (int)len;
		c = crc32_iscsi((unsigned char *)(uintptr_t)buf, n, c);
		buf += n;
		len -= (uint64_t)n;
	}
	return c;
}

static uint64_t crc32_iscsi_c(uint64_t a, uint64_t b, uint64_t len)
{
	return stoa_crc32_iscsi_combine((uint32_t)a, (uint32_t)b, len);
}

#define CASE(name, w, refl, poly)                                                                  \
	{                                                                                          \
#name, w, refl, poly, name##_w, name##_c                                           \
	}
static const struct crc_case cases[] = {
	CASE(crc16_t10dif, 16, 0, 0x8BB7),
	CASE(crc32_ieee, 32, 0, 0x04C11DB7),
	CASE(crc32_gzip_refl, 32, 1, 0x04C11DB7),
	CASE(crc32_iscsi, 32, 1, 0x1EDC6F41),
	CASE(crc64_ecma_refl, 64, 1, 0x42F0E1EBA9EA3693ull),
	CASE(crc64_ecma_norm, 64, 0, 0x42F0E1EBA9EA3693ull),
	CASE(crc64_iso_refl, 64, 1, 0x1Bull),
	CASE(crc64_iso_norm, 64, 0, 0x1Bull),
	CASE(crc64_jones_refl, 64, 1, 0xAD93D23594C935A9ull),
	CASE(crc64_jones_norm, 64, 0, 0xAD93D23594C935A9ull),
	CASE(crc64_rocksoft_refl, 64, 1, 0xAD93D23594C93659ull),
	CASE(crc64_rocksoft_norm, 64, 0, 0xAD93D23594C93659ull),
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static uint64_t width_mask(unsigned w)
{
	return w == 64 ? ~0ull : (1ull << w) - 1;
}

/* ---- the reference: bit matrices over GF(2) ---- */

struct mat {
	uint64_t col[64]; /* col[i]: the image of state bit i */
};

static uint64_t mat_apply(const struct mat *m, unsigned w, uint64_t v)
{
	uint64_t r = 0;
	for (unsigned i = 0; i < w; i++)
		if (v >> i & 1)
			r ^= m->col[i];
	return r;
}

static void mat_mul(struct mat *out, const struct mat *a, const struct mat *b, unsigned w)
{
	struct mat t;
	for (unsigned i = 0; i < w; i++)
		t.col[i] = mat_apply(a, w, b->col[i]);
	*out = t;
}

/* The register after one more zero bit, as the CRC's shift register moves. */
static uint64_t zero_bit(const struct crc_case *c, uint64_t s)
{
	const unsigned w = c->width;
	if (c->reflected) {
		uint64_t rpoly = 0;
		for (unsigned i = 0; i < w; i++)
			rpoly |= (c->poly >> i & 1) << (w - 1 - i);
		return (s >> 1) ^ (s & 1 ? rpoly : 0);
	}
	return ((s << 1) & width_mask(w)) ^ (s >> (w - 1) & 1 ? c->poly : 0);
}

/* v moved through n zero bytes: the byte matrix raised to n by squaring. */
static uint64_t ref_shift(const struct crc_case *c, uint64_t v, uint64_t n)
{
	const unsigned w = c->width;
	struct mat m;
	for (unsigned i = 0; i < w; i++)
		m.col[i] = zero_bit(c, 1ull << i);
	for (int k = 0; k < 3; k++)
		mat_mul(&m, &m, &m, w); /* one bit -> two -> four -> eight */
	for (; n; n >>= 1) {
		if (n & 1)
			v = mat_apply(&m, w, v);
		if (n > 1)
			mat_mul(&m, &m, &m, w);
	}
	return v;
}

/* ---- tests ---- */

static void test_random_splits(void **state)
{
	(void)state;
	const size_t max = 70000;
	uint8_t *buf = guard_alloc(max, GUARD_BACK);
	test_fill_random(buf, max);
	int checked = 0;
	for (size_t ci = 0; ci < NCASES; ci++) {
		const struct crc_case *c = &cases[ci];
		const uint64_t mask = width_mask(c->width);
		for (int r = 0; r < 200; r++) {
			size_t len =
			    r < 20 ? (size_t)r : (size_t)test_rand_below(r < 100 ? 300 : max);
			size_t cut = r % 4 == 0   ? 0
			             : r % 4 == 1 ? len
			                          : (size_t)test_rand_below(len + 1);
			uint64_t init = test_rand() & mask;
			const uint8_t *m = buf + max - len;
			uint64_t whole = c->crc(init, m, len);
			uint64_t a = c->crc(init, m, cut);
			uint64_t b = c->crc(0, m + cut, len - cut);
			uint64_t got = c->combine(a, b, len - cut);
			if (got != whole)
				TEST_FAIL(
				    "%s: len %zu cut %zu init %llx: combine %llx, direct %llx\n",
				    c->name, len, cut, (unsigned long long)init,
				    (unsigned long long)got, (unsigned long long)whole);
			/* B from another start t: combine(a ^ t, f(t, B)) */
			uint64_t t = test_rand() & mask;
			uint64_t bt = c->crc(t, m + cut, len - cut);
			assert_true(c->combine(a ^ t, bt, len - cut) == whole);
			checked++;
		}
	}
	/* The usual CRC-32C use: every piece from 0xFFFFFFFF, the standard value inverted. */
	const unsigned char *m = buf;
	unsigned int whole = ~crc32_iscsi((unsigned char *)m, 5000, 0xFFFFFFFFu);
	unsigned int a = crc32_iscsi((unsigned char *)m, 1234, 0xFFFFFFFFu);
	unsigned int b = crc32_iscsi((unsigned char *)m + 1234, 5000 - 1234, 0xFFFFFFFFu);
	assert_int_equal(~stoa_crc32_iscsi_combine(a ^ 0xFFFFFFFFu, b, 5000 - 1234), whole);
	print_message("%d random splits over %zu CRCs (lengths 0-%zu, random init, B from init 0 "
	              "and from another init) equal the direct CRC\n",
	              checked, NCASES, max);
	guard_free(buf, max, GUARD_BACK);
}

static void test_zero_runs_direct(void **state)
{
	(void)state;
	const size_t max = 1 << 20;
	uint8_t *zeros = calloc(max, 1);
	assert_non_null(zeros);
	static const size_t lens[] = { 1, 2, 7, 8, 15, 16, 63, 255, 256, 4095, 65537, 1 << 20 };
	for (size_t ci = 0; ci < NCASES; ci++) {
		const struct crc_case *c = &cases[ci];
		for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			uint64_t init = test_rand() & width_mask(c->width);
			uint64_t want = c->crc(init, zeros, lens[i]);
			uint64_t got = c->combine(init, c->crc(0, zeros, lens[i]), lens[i]);
			if (got != want)
				TEST_FAIL("%s: %zu zero bytes: %llx, direct %llx\n", c->name,
				          lens[i], (unsigned long long)got,
				          (unsigned long long)want);
		}
	}
	print_message("zero runs of 1 B to 1 MiB: combine equals the direct CRC for %zu CRCs\n",
	              NCASES);
	free(zeros);
}

static void test_long_against_reference(void **state)
{
	(void)state;
	int checked = 0;
	for (size_t ci = 0; ci < NCASES; ci++) {
		const struct crc_case *c = &cases[ci];
		const uint64_t mask = width_mask(c->width);
		for (int r = 0; r < 40; r++) {
			/* lengths around 2^32 and 2^k for every k, and random 64-bit ones */
			uint64_t n = r < 8    ? (1ull << 32) + (uint64_t)r - 4
			             : r < 30 ? (1ull << (2 * (r - 8) + 20)) + test_rand_below(999)
			                      : test_rand() >> (r - 30);
			uint64_t a = test_rand() & mask, b = test_rand() & mask;
			uint64_t want = ref_shift(c, a, n) ^ b;
			uint64_t got = c->combine(a, b, n);
			if (got != want)
				TEST_FAIL("%s: len_b %llu: %llx, reference %llx\n", c->name,
				          (unsigned long long)n, (unsigned long long)got,
				          (unsigned long long)want);
			checked++;
		}
	}
	/* zlib's own combine for the gzip CRC, with 64-bit lengths. */
	for (int r = 0; r < 200; r++) {
		uint32_t a = (uint32_t)test_rand(), b = (uint32_t)test_rand();
		z_off64_t n = (z_off64_t)(test_rand() >> (1 + test_rand_below(60)));
		assert_int_equal(stoa_crc32_gzip_refl_combine(a, b, (uint64_t)n),
		                 (uint32_t)crc32_combine64(a, b, n));
	}
	print_message("%d lengths up to 2^64 against the bit-matrix reference, 200 against zlib's "
	              "crc32_combine64\n",
	              checked);
}

static void test_identities(void **state)
{
	(void)state;
	for (size_t ci = 0; ci < NCASES; ci++) {
		const struct crc_case *c = &cases[ci];
		const uint64_t mask = width_mask(c->width);
		for (int r = 0; r < 50; r++) {
			uint64_t a = test_rand() & mask, b = test_rand() & mask;
			uint64_t m = test_rand() >> 2, n = test_rand() >> 2;
			assert_true(c->combine(a, b, 0) == (a ^ b));
			assert_true(c->combine(0, b, n) == b);
			assert_true(c->combine(a ^ b, 0, n) ==
			            (c->combine(a, 0, n) ^ c->combine(b, 0, n)));
			assert_true(c->combine(c->combine(a, 0, m), 0, n) ==
			            c->combine(a, 0, m + n));
			uint64_t big = (1ull << 32) + test_rand_below(1 << 20);
			assert_true(c->combine(c->combine(a, 0, big - 5), 0, 5) ==
			            c->combine(a, 0, big));
		}
	}
	print_message("identities (length 0, zero value, linearity, shift(m + n)) hold for %zu "
	              "CRCs\n",
	              NCASES);
}

/* One direct pass: crc32_iscsi over a short message A then 4 GiB + 3 zero bytes B is A's value
 * moved by B's length (the zero bytes add nothing to a raw register), so B's own value is 0. */
static void test_beyond_4gib_direct(void **state)
{
	(void)state;
	const size_t chunk = 1 << 20;
	uint8_t *zeros = calloc(chunk, 1);
	assert_non_null(zeros);
	const uint64_t total = (4ull << 30) + 3;
	uint8_t msg[100];
	test_fill_random(msg, sizeof(msg));
	unsigned int a = crc32_iscsi(msg, sizeof(msg), (unsigned int)test_rand());
	unsigned int whole = a;
	for (uint64_t done = 0; done < total;) {
		uint64_t n = total - done < chunk ? total - done : chunk;
		whole = crc32_iscsi(zeros, (int)n, whole);
		done += n;
	}
	assert_int_equal(stoa_crc32_iscsi_combine(a, 0, total), whole);
	print_message("crc32_iscsi over 4 GiB + 3 zero bytes, direct pass: equals combine\n");
	free(zeros);
}

static void test_speed_report(void **state)
{
	(void)state;
	struct timespec t0, t1;
	uint64_t acc = 0;
	const int reps = 2000;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	for (int i = 0; i < reps; i++)
		acc ^=
		    stoa_crc64_ecma_refl_combine(acc + (uint64_t)i, 1, (1ull << 40) + (uint64_t)i);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	double ns =
	    ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / reps;
	print_message(
	    "crc64 combine at len_b ~ 2^40: %.0f ns of CPU per call (information only; %llx)\n", ns,
	    (unsigned long long)(acc & 0xf));
}

int main(void)
{
	test_seed();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_splits),
		cmocka_unit_test(test_zero_runs_direct),
		cmocka_unit_test(test_long_against_reference),
		cmocka_unit_test(test_identities),
		cmocka_unit_test(test_beyond_4gib_direct),
		cmocka_unit_test(test_speed_report),
	};
	return cmocka_run_group_tests_name("crc_combine", tests, NULL, NULL);
}
