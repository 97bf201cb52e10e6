/* isal_adler32: every variant this CPU can run against zlib's adler32 and the portable one; and
 * inflate's copying form (inf_adler32_copy, for stored blocks) on the same calls: each variant's
 * value equal, the bytes copied to a destination that also ends at an inaccessible page.
 *
 * Lengths 0..1100 (every tail of every 16-, 32- and 64-byte step), the lengths around the runs
 * the vector kernels sum before reducing (multiples of 8 KiB), random lengths to 1 MiB, every
 * alignment 0..63, all buffers ending at an inaccessible page; bytes all 0xff (the largest sums a
 * run can reach) as well as random ones; start values from 1 (a new stream), random reduced ones,
 * and ones whose halves are not reduced (as if from a caller's own arithmetic), which every
 * variant reduces first. STOA_SEED=N repeats a run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "isa-l.h"
#include "stoa.h"
#include "testutil.h"

typedef uint32_t adler_fn(uint32_t, const unsigned char *, uint64_t);
typedef uint32_t adler_copy_fn(uint32_t, unsigned char *, const unsigned char *, uint64_t);

#define MAX_LEN (1u << 20)
#define MOD     65521u

struct variants {
	const struct stoa_variant *v[8], *c[8];
	size_t n, nc;
	uint8_t *dst; /* MAX_LEN bytes before a guard page, for the copies */
};

static void get_variants(struct variants *vs)
{
	vs->n = test_variants(test_func("isal_adler32"), vs->v, 8, NULL);
	assert_true(vs->n >= 1);
	assert_string_equal(vs->v[vs->n - 1]->name, "base");
	vs->nc = test_variants(test_func("inf_adler32_copy"), vs->c, 8, NULL);
	assert_true(vs->nc >= 1);
	assert_string_equal(vs->c[vs->nc - 1]->name, "base");
}

/* Every variant on buf[0..len) with start value init: equal to the base entry, and to zlib's
 * when init's halves are reduced. Returns the base's value. */
static uint32_t check(const struct variants *vs, uint32_t init, const uint8_t *buf, size_t len)
{
	const uint32_t want = ((adler_fn *)vs->v[vs->n - 1]->fn)(init, buf, len);
	if ((init & 0xffff) < MOD && (init >> 16) < MOD) {
		const uint32_t z = (uint32_t)adler32_z(init, buf, len);
		if (want != z)
			TEST_FAIL("base: init %08x len %zu: %08x, zlib %08x\n", init, len, want, z);
	}
	for (size_t i = 0; i + 1 < vs->n; i++) {
		const uint32_t got = ((adler_fn *)vs->v[i]->fn)(init, buf, len);
		if (got != want)
			TEST_FAIL("%s: init %08x len %zu at %p: %08x, base %08x\n", vs->v[i]->name,
			          init, len, (const void *)buf, got, want);
	}
	/* The copies: to the end of the guarded buffer, or 1..63 bytes before it. */
	for (size_t i = 0; i < vs->nc; i++) {
		uint8_t *d = vs->dst + MAX_LEN - len - (len < MAX_LEN - 64 ? len % 64 : 0);
		if (len)
			memset(d, (int)(~buf[0] & 0xff), len);
		const uint32_t got = ((adler_copy_fn *)vs->c[i]->fn)(init, d, buf, len);
		if (got != want || (len && memcmp(d, buf, len)))
			TEST_FAIL("copy %s: init %08x len %zu: %08x, base %08x, bytes %s\n",
			          vs->c[i]->name, init, len, got, want,
			          len && memcmp(d, buf, len) ? "differ" : "equal");
	}
	return want;
}

static uint32_t random_init(void)
{
	switch (test_rand_below(4)) {
	case 0:
		return 1;
	case 1:
		return (uint32_t)test_rand(); /* halves possibly not reduced */
	default:
		return (uint32_t)(test_rand_below(MOD) << 16 | test_rand_below(MOD));
	}
}

static void run(uint8_t fill, const char *what)
{
	struct variants vs;
	get_variants(&vs);
	uint8_t *g = guard_alloc(MAX_LEN, GUARD_BACK);
	vs.dst = guard_alloc(MAX_LEN, GUARD_BACK);
	if (fill)
		memset(g, fill, MAX_LEN);
	else
		test_fill_random(g, MAX_LEN);
	size_t calls = 0;
	/* Short lengths ending at the guard page. */
	for (size_t len = 0; len <= 1100; len++, calls++)
		check(&vs, random_init(), g + MAX_LEN - len, len);
	/* Around each multiple of 8 KiB up to 64 KiB, at every alignment in turn. */
	static const int around[] = { -33, -32, -31, -1, 0, 1, 31, 32, 33 };
	for (size_t k = 1; k <= 8; k++)
		for (size_t d = 0; d < sizeof(around) / sizeof(around[0]); d++, calls += 2) {
			const size_t len = (size_t)((int)(8192 * k) + around[d]);
			check(&vs, random_init(), g + MAX_LEN - len, len);
			check(&vs, 0xffffffffu, g + MAX_LEN - len - (k * 9 + d) % 64, len);
		}
	/* Random lengths and alignments. */
	for (int i = 0; i < 200; i++, calls++) {
		const size_t len = (size_t)test_rand_below(MAX_LEN - 64);
		check(&vs, random_init(), g + MAX_LEN - len - test_rand_below(64), len);
	}
	/* The whole buffer in random pieces gives the value of one call. */
	uint32_t whole = check(&vs, 1, g, MAX_LEN), a = 1;
	for (size_t off = 0; off < MAX_LEN; calls++) {
		size_t n = (size_t)test_rand_below(70000);
		if (n > MAX_LEN - off)
			n = MAX_LEN - off;
		a = check(&vs, a, g + off, n);
		off += n;
	}
	assert_int_equal(a, whole);
	guard_free(g, MAX_LEN, GUARD_BACK);
	guard_free(vs.dst, MAX_LEN, GUARD_BACK);
	print_message("%s: %zu calls x %zu variants (and %zu copying ones) equal to base and zlib "
	              "(lengths 0..1 MiB at a guard page, every alignment, chained pieces)\n",
	              what, calls, vs.n, vs.nc);
}

static void test_random_bytes(void **state)
{
	(void)state;
	run(0, "random bytes");
}

static void test_all_ones(void **state)
{
	(void)state;
	run(0xff, "bytes 0xff");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_all_ones),
	};
	return TEST_MAIN("adler32", tests, NULL, NULL);
}
