/* RAID module tests: xor_gen, xor_check, pq_gen, pq_check, their _base forms, and
 * isal_zero_detect.
 *
 * Evidence: hand-computed stripes; an independent reference written here (each source times its
 * own power of 2 in GF(2^8), where the library uses Horner's rule); every variant the CPU can
 * run, the public symbols and the exported _base functions against the table's base entry, for
 * vects 3..64 (4..64 for P+Q) and lengths around every block size, in buffers that end at an
 * inaccessible page or start right after one at any alignment; checks against single-byte
 * corruption of every buffer; bad arguments; Debian's libisal in a separate process
 * (tests/raid_oracle.c); and the drop-in ABI through the compat libisal.so.2.
 *
 * Everything random comes from test_rand(), so STOA_SEED=N repeats a run exactly. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/cpu.h"
#include "isa-l/mem_routines.h"
#include "isa-l/raid.h"
#include "oracle.h"
#include "raid/raid_internal.h"
#include "stoa.h"
#include "testutil.h"

#define MAX_VECTS 66

/* ---- the independent reference ---- */

static uint8_t ref_gf_mul(uint8_t a, uint8_t b)
{
	uint8_t r = 0;
	for (; b; b >>= 1) {
		if (b & 1)
			r ^= a;
		a = (uint8_t)((a << 1) ^ (a & 0x80 ? 0x1d : 0));
	}
	return r;
}

/* P and Q of nsrc sources at byte i: Q = sum of 2^j * D_j, each power computed afresh. */
static void ref_pq_byte(uint8_t *const *src, int nsrc, size_t i, uint8_t *p, uint8_t *q)
{
	uint8_t a = 0, b = 0, g = 1;
	for (int j = 0; j < nsrc; j++) {
		a ^= src[j][i];
		b ^= ref_gf_mul(g, src[j][i]);
		g = ref_gf_mul(g, 2);
	}
	*p = a, *q = b;
}

/* ---- what is tested: every way into each function ---- */

enum shape { XOR_GEN, XOR_CHECK, PQ_GEN, PQ_CHECK };

struct entry {
	char label[48];
	raid_fn *fn;
	int min_vects;
	int isal_values; /* an exported _base check: failure values as ISA-L's */
};

struct func {
	const char *name;
	enum shape shape;
	raid_fn *pub, *base;
	int min_vects, base_min_vects;
	struct entry e[12];
	size_t n;
	raid_fn *ref; /* the table's base entry */
};

static struct func funcs[] = {
	{ .name = "xor_gen",
	  .shape = XOR_GEN,
	  .pub = xor_gen,
	  .base = xor_gen_base,
	  .min_vects = RAID_XOR_GEN_MIN,
	  .base_min_vects = RAID_XOR_GEN_BASE_MIN },
	{ .name = "xor_check",
	  .shape = XOR_CHECK,
	  .pub = xor_check,
	  .base = xor_check_base,
	  .min_vects = RAID_XOR_CHECK_MIN,
	  .base_min_vects = RAID_XOR_CHECK_BASE_MIN },
	{ .name = "pq_gen",
	  .shape = PQ_GEN,
	  .pub = pq_gen,
	  .base = pq_gen_base,
	  .min_vects = RAID_PQ_MIN,
	  .base_min_vects = RAID_PQ_BASE_MIN },
	{ .name = "pq_check",
	  .shape = PQ_CHECK,
	  .pub = pq_check,
	  .base = pq_check_base,
	  .min_vects = RAID_PQ_MIN,
	  .base_min_vects = RAID_PQ_BASE_MIN },
};
enum { F_XOR_GEN, F_XOR_CHECK, F_PQ_GEN, F_PQ_CHECK, NFUNCS };

static void add_entry(struct func *f, const char *label, raid_fn *fn, int min, int isal)
{
	assert_true(f->n < sizeof(f->e) / sizeof(f->e[0]));
	struct entry *e = &f->e[f->n++];
	snprintf(e->label, sizeof(e->label), "%s", label);
	e->fn = fn;
	e->min_vects = min;
	e->isal_values = isal;
}

/* Every usable table entry, then the public symbol and the exported _base function. */
static void prepare_all(void)
{
	for (int i = 0; i < NFUNCS; i++) {
		struct func *f = &funcs[i];
		const struct stoa_func *sf = test_func(f->name);
		const struct stoa_variant *vs[16];
		size_t nv = test_variants(sf, vs, 16, NULL);
		f->n = 0;
		for (size_t v = 0; v < nv; v++) {
			char label[48];
			snprintf(label, sizeof(label), "variant %s", vs[v]->name);
			add_entry(f, label, (raid_fn *)vs[v]->fn, f->min_vects, 0);
		}
		f->ref = (raid_fn *)sf->variants[sf->count - 1].fn;
		add_entry(f, "public", f->pub, f->min_vects, 0);
		add_entry(f, "exported _base", f->base, f->base_min_vects,
			  f->shape == XOR_CHECK || f->shape == PQ_CHECK);
	}
}

static raid_zero_fn *zero_fns[8];
static const char *zero_labels[8];
static size_t zero_n;

static void prepare_zero(void)
{
	const struct stoa_variant *vs[7];
	size_t nv = test_variants(test_func("isal_zero_detect"), vs, 7, NULL);
	zero_n = 0;
	for (size_t v = 0; v < nv; v++) {
		zero_fns[zero_n] = (raid_zero_fn *)vs[v]->fn;
		zero_labels[zero_n++] = vs[v]->name;
	}
	zero_fns[zero_n] = isal_zero_detect;
	zero_labels[zero_n++] = "public";
}

/* ---- stripes in guarded buffers ---- */

/* MAX_VECTS buffers of len bytes. GUARD_BACK: each ends at an inaccessible page (so its start
 * alignment is whatever len leaves, the same for all). GUARD_FRONT: each starts after one, half
 * of them 0..63 bytes after it and half anywhere in the first page, so that buffers differ in
 * alignment and in their offset within the page (which the streaming paths look at). */
struct stripe {
	size_t len;
	int where;
	uint8_t *buf[MAX_VECTS];
	size_t skew[MAX_VECTS];
};

/* A third layout: GUARD_FRONT with buffer i 64 * i bytes into its page (mod 4096), every buffer
 * aligned and each at its own offset in the page, as the perf driver lays them out. */
#define STRIPE_STAGGER 2

static void stripe_open(struct stripe *s, size_t len, int where)
{
	const int stagger = where == STRIPE_STAGGER;
	if (stagger)
		where = GUARD_FRONT;
	s->len = len;
	s->where = where;
	for (int i = 0; i < MAX_VECTS; i++) {
		s->skew[i] = 0;
		if (stagger)
			s->skew[i] = 64 * (size_t)(i % 64);
		else if (where == GUARD_FRONT)
			s->skew[i] = test_rand_below(test_rand_below(2) ? 64 : 4096);
		s->buf[i] = guard_alloc(len + s->skew[i], where) + s->skew[i];
		test_fill_random(s->buf[i], len);
	}
}

static void stripe_close(struct stripe *s)
{
	for (int i = 0; i < MAX_VECTS; i++)
		guard_free(s->buf[i] - s->skew[i], s->len + s->skew[i], s->where);
}

static const char *where_name(int where)
{
	return where == GUARD_FRONT ? "front guard, skewed" : "back guard";
}

/* Lengths: 0, the smallest of each kernel step (byte, word, 32- and 64-byte vectors, 128- and
 * 256-byte blocks) and one either side, odd multiples, and long ones with every kind of tail. */
static const size_t edge_lens[] = {
	0,   1,   2,   7,   8,   9,   15,  16,  17,  31,  32,  33,  48,  63,   64,   65,   95,
	96,  97,  127, 128, 129, 160, 191, 192, 193, 224, 255, 256, 257, 320,  383,  384,  385,
	448, 511, 512, 513, 640, 767, 768, 800, 1000, 1024, 4096, 4096 + 256 + 64 + 32 + 7,
};

/* ---- tests ---- */

static void test_inventory(void **state)
{
	(void)state;
	char report[8192];
	stoa_cpu_report(report, sizeof(report));
	print_message("%s\n", report);
	for (int i = 0; i < NFUNCS; i++) {
		const struct stoa_func *sf = stoa_find_func(funcs[i].name);
		print_message("%s: %zu variants, %zu usable here, dispatches to %s\n", sf->name,
			      sf->count, funcs[i].n - 2, stoa_function_variant(sf->name));
		assert_string_equal(sf->variants[sf->count - 1].name, "base");
		assert_true(funcs[i].n >= 3);
	}
	print_message("isal_zero_detect: dispatches to %s\n",
		      stoa_function_variant("isal_zero_detect"));
}

/* Stripes worked out by hand: 0x0F ^ 0xF0 ^ 0x3C = 0xC3; Q of (1, 1) is 1 ^ 2 = 3; 2 * 0x80
 * wraps to 0x1D and 4 * 0x80 to 0x3A. Every byte of 100 the same, any entry. */
static void test_known_answers(void **state)
{
	(void)state;
	static const struct {
		int nsrc;
		uint8_t d[3], p, q;
	} pq[] = {
		{ 2, { 0x01, 0x01 }, 0x00, 0x03 },
		{ 2, { 0x00, 0x80 }, 0x80, 0x1d },
		{ 3, { 0x00, 0x00, 0x80 }, 0x80, 0x3a },
		{ 3, { 0x80, 0x80, 0x80 }, 0x80, 0x80 ^ 0x1d ^ 0x3a },
	};
	enum { LEN = 100 };
	static uint8_t mem[5][LEN];
	void *array[5] = { mem[0], mem[1], mem[2], mem[3], mem[4] };
	size_t checks = 0;

	memset(mem[0], 0x0f, LEN);
	memset(mem[1], 0xf0, LEN);
	memset(mem[2], 0x3c, LEN);
	for (size_t e = 0; e < funcs[F_XOR_GEN].n; e++) {
		memset(mem[3], 0, LEN);
		assert_int_equal(funcs[F_XOR_GEN].e[e].fn(4, LEN, array), 0);
		for (int i = 0; i < LEN; i++)
			assert_int_equal(mem[3][i], 0xc3);
		checks++;
	}
	for (size_t k = 0; k < sizeof(pq) / sizeof(pq[0]); k++) {
		for (int j = 0; j < pq[k].nsrc; j++)
			memset(mem[j], pq[k].d[j], LEN);
		int vects = pq[k].nsrc + 2;
		for (size_t e = 0; e < funcs[F_PQ_GEN].n; e++) {
			memset(mem[vects - 2], 0x55, LEN);
			memset(mem[vects - 1], 0x55, LEN);
			assert_int_equal(funcs[F_PQ_GEN].e[e].fn(vects, LEN, array), 0);
			for (int i = 0; i < LEN; i++) {
				assert_int_equal(mem[vects - 2][i], pq[k].p);
				assert_int_equal(mem[vects - 1][i], pq[k].q);
			}
			checks++;
		}
	}
	print_message("known answers: %zu generator calls, all as worked out by hand\n", checks);
}

/* The table's base entry against the reference written above. */
static void test_reference(void **state)
{
	(void)state;
	size_t checks = 0;
	static const size_t lens[] = { 1, 17, 64, 255, 1000, 4096 + 37 };
	static const int vects_list[] = { 4, 5, 6, 9, 16, 18, 34, 64, 66 };
	uint8_t *p = malloc(8192), *q = malloc(8192);
	assert_non_null(p);
	assert_non_null(q);
	for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		struct stripe s;
		size_t len = lens[li];
		stripe_open(&s, len, GUARD_BACK);
		for (size_t vi = 0; vi < sizeof(vects_list) / sizeof(vects_list[0]); vi++) {
			int vects = vects_list[vi];
			void **array = (void **)s.buf;
			assert_int_equal(funcs[F_PQ_GEN].ref(vects, (int)len, array), 0);
			for (size_t i = 0; i < len; i++) {
				ref_pq_byte(s.buf, vects - 2, i, &p[i], &q[i]);
				if (p[i] != s.buf[vects - 2][i] || q[i] != s.buf[vects - 1][i])
					TEST_FAIL("pq_gen base vects=%d len=%zu byte %zu: P %02x Q "
						  "%02x, reference %02x %02x\n",
						  vects, len, i, s.buf[vects - 2][i],
						  s.buf[vects - 1][i], p[i], q[i]);
			}
			assert_int_equal(funcs[F_XOR_GEN].ref(vects, (int)len, array), 0);
			for (size_t i = 0; i < len; i++) {
				uint8_t x = 0;
				for (int j = 0; j < vects; j++)
					x ^= s.buf[j][i];
				if (x != 0)
					TEST_FAIL("xor_gen base vects=%d len=%zu byte %zu wrong\n",
						  vects, len, i);
			}
			checks += 2;
		}
		stripe_close(&s);
	}
	free(p);
	free(q);
	print_message("reference: %zu pq_gen/xor_gen base calls agree byte for byte with a "
		      "power-sum GF(2^8) reference (poly 0x11D, g = 2)\n",
		      checks);
}

/* One generator, every entry against the base entry, for the given vects (ascending) on one
 * stripe. A copy of the stripe shows that no call writes anywhere but the parity. */
static size_t compare_gen(const struct func *f, struct stripe *s, const int *vl, size_t nv)
{
	size_t len = s->len, calls = 0;
	int parity = f->shape == XOR_GEN ? 1 : 2;
	uint8_t *want = malloc(2 * len + 1), *copy = malloc((size_t)MAX_VECTS * len + 1);
	assert_non_null(want);
	assert_non_null(copy);
	for (int k = 0; k < MAX_VECTS; k++)
		memcpy(copy + (size_t)k * len, s->buf[k], len);
	void **array = (void **)s->buf;
	for (size_t vi = 0; vi < nv; vi++) {
		int vects = vl[vi];
		assert_int_equal(f->ref(vects, (int)len, array), 0);
		memcpy(want, s->buf[vects - parity], len);
		if (parity == 2)
			memcpy(want + len, s->buf[vects - 1], len);
		for (size_t e = 0; e < f->n; e++) {
			for (int k = vects - parity; k < vects; k++)
				memset(s->buf[k], 0xa5, len);
			int r = f->e[e].fn(vects, (int)len, array);
			calls++;
			if (r != 0)
				TEST_FAIL("%s [%s] vects=%d len=%zu (%s): returned %d\n", f->name,
					  f->e[e].label, vects, len, where_name(s->where), r);
			for (int k = 0; k < parity; k++) {
				const uint8_t *got = s->buf[vects - parity + k];
				if (memcmp(got, want + (size_t)k * len, len) == 0)
					continue;
				size_t i = 0;
				while (got[i] == want[(size_t)k * len + i])
					i++;
				TEST_FAIL("%s [%s] vects=%d len=%zu (%s): %s byte %zu is %02x, "
					  "base gives %02x\n",
					  f->name, f->e[e].label, vects, len, where_name(s->where),
					  parity == 1 ? "parity" : k ? "Q" : "P", i, got[i],
					  want[(size_t)k * len + i]);
			}
		}
		for (int k = 0; k < MAX_VECTS; k++) {
			uint8_t *was = copy + (size_t)k * len;
			if (k >= vects - parity && k < vects)
				memcpy(was, s->buf[k], len);
			else if (memcmp(was, s->buf[k], len) != 0)
				TEST_FAIL("%s vects=%d len=%zu: buffer %d is not parity but "
					  "changed\n",
					  f->name, vects, len, k);
		}
	}
	free(want);
	free(copy);
	return calls;
}

static void test_gen_edges(void **state)
{
	(void)state;
	int all[MAX_VECTS];
	size_t calls = 0, nv = 0;
	for (int v = 3; v <= 64; v++)
		all[nv++] = v;
	for (size_t li = 0; li < sizeof(edge_lens) / sizeof(edge_lens[0]); li++) {
		for (int where = GUARD_BACK; where <= GUARD_FRONT; where++) {
			struct stripe s;
			stripe_open(&s, edge_lens[li], where);
			calls += compare_gen(&funcs[F_XOR_GEN], &s, all, nv);
			calls += compare_gen(&funcs[F_PQ_GEN], &s, all + 1, nv - 1);
			stripe_close(&s);
		}
	}
	print_message("generators: %zu calls over vects 3..64 (P+Q 4..64) x %zu lengths 0..%zu x "
		      "2 guard layouts, every entry equal to base\n",
		      calls, sizeof(edge_lens) / sizeof(edge_lens[0]),
		      edge_lens[sizeof(edge_lens) / sizeof(edge_lens[0]) - 1]);
}

static void test_gen_random(void **state)
{
	(void)state;
	size_t calls = 0;
	for (int round = 0; round < 12; round++) {
		size_t len = round < 8 ? test_rand_below(70000) : (1u << 20) + test_rand_below(300);
		int where = round & 1 ? GUARD_FRONT : GUARD_BACK;
		int r1 = 4 + (int)test_rand_below(61), r2 = 4 + (int)test_rand_below(61);
		int vl[6] = { 3, 4, 17, 18, r1 < r2 ? r1 : r2, r1 < r2 ? r2 : r1 };
		struct stripe s;
		stripe_open(&s, len, where);
		calls += compare_gen(&funcs[F_XOR_GEN], &s, vl, round < 8 ? 6 : 3);
		calls += compare_gen(&funcs[F_PQ_GEN], &s, vl + 1, round < 8 ? 5 : 3);
		stripe_close(&s);
	}
	print_message("generators: %zu calls at random lengths up to 64 KiB and above 1 MiB, every "
		      "entry equal to base\n",
		      calls);
}

/* Makes the first vects buffers of s a consistent stripe for check function f. */
static void make_consistent(const struct func *f, struct stripe *s, int vects)
{
	raid_fn *gen = f->shape == XOR_CHECK ? funcs[F_XOR_GEN].ref : funcs[F_PQ_GEN].ref;
	assert_int_equal(gen(vects, (int)s->len, (void **)s->buf), 0);
}

/* What entry e of check function f must return for a stripe whose first difference is byte i of
 * buffer b (vects buffers in all). */
static int expected_failure(const struct func *f, const struct entry *e, int vects, int b,
			    size_t i, size_t len)
{
	if (!e->isal_values)
		return 1;
	if (f->shape == XOR_CHECK)
		return (int)len;
	return b == vects - 1 ? (int)(i | 2) : (int)(i | 1);
}

/* How much corrupting a stripe gets: none, every buffer at 4 positions, or (for long buffers,
 * where each check costs milliseconds) the first, a middle, and the parity buffers at 2. */
enum corruption { NO_CORRUPTION, EVERY_BUFFER, SOME_BUFFERS };

static size_t check_stripe(const struct func *f, struct stripe *s, int vects, enum corruption how,
			   size_t *corrupt)
{
	size_t len = s->len, calls = 0;
	void **array = (void **)s->buf;
	make_consistent(f, s, vects);
	for (size_t e = 0; e < f->n; e++) {
		int r = f->e[e].fn(vects, (int)len, array);
		calls++;
		if (r != 0)
			TEST_FAIL("%s [%s] vects=%d len=%zu (%s): %d on a consistent stripe\n",
				  f->name, f->e[e].label, vects, len, where_name(s->where), r);
	}
	if (len == 0 || how == NO_CORRUPTION)
		return calls;
	for (int b = 0; b < vects; b++) {
		if (how == SOME_BUFFERS && b != 0 && b != vects / 2 && b < vects - 2)
			continue;
		/* The first and last byte, one at a block edge, one at random. */
		size_t at[4] = { len - 1, test_rand_below(len), 0,
				 len > 128 ? 127 + test_rand_below(2) : len / 2 };
		for (int k = 0; k < (how == EVERY_BUFFER ? 4 : 2); k++) {
			uint8_t flip = (uint8_t)(1 + test_rand_below(255));
			s->buf[b][at[k]] ^= flip;
			for (size_t e = 0; e < f->n; e++) {
				int r = f->e[e].fn(vects, (int)len, array);
				int want = expected_failure(f, &f->e[e], vects, b, at[k], len);
				calls++;
				if (r != want)
					TEST_FAIL("%s [%s] vects=%d len=%zu (%s): buffer %d byte "
						  "%zu ^ %02x returned %d, want %d\n",
						  f->name, f->e[e].label, vects, len,
						  where_name(s->where), b, at[k], flip, r, want);
			}
			s->buf[b][at[k]] ^= flip;
			(*corrupt)++;
		}
	}
	return calls;
}

/* Consistent stripes at every vects 3..64 for short lengths; corruptions (each costing a full
 * check per entry) at a spread of vects that covers odd and even source counts and both sides of
 * each power of two. */
static void test_checks(void **state)
{
	(void)state;
	static const int corrupt_vects[] = { 3, 4, 5, 8, 17, 18, 33, 64 };
	size_t calls = 0, corrupt = 0;
	for (size_t li = 0; li < sizeof(edge_lens) / sizeof(edge_lens[0]); li++) {
		size_t len = edge_lens[li];
		for (int where = GUARD_BACK; where <= GUARD_FRONT; where++) {
			struct stripe s;
			stripe_open(&s, len, where);
			for (int vects = 3; vects <= 64; vects += len > 1024 ? 13 : 1) {
				enum corruption how = NO_CORRUPTION;
				for (size_t k = 0; k < sizeof(corrupt_vects) / sizeof(int); k++)
					if (corrupt_vects[k] == vects)
						how = EVERY_BUFFER;
				calls += check_stripe(&funcs[F_XOR_CHECK], &s, vects, how,
						      &corrupt);
				if (vects >= 4)
					calls += check_stripe(&funcs[F_PQ_CHECK], &s, vects, how,
							      &corrupt);
			}
			stripe_close(&s);
		}
	}
	for (int round = 0; round < 4; round++) {
		struct stripe s;
		stripe_open(&s, round < 2 ? 1 + test_rand_below(70000) : (1u << 20) + 5,
			    round & 1 ? GUARD_FRONT : GUARD_BACK);
		enum corruption how = round < 2 ? EVERY_BUFFER : SOME_BUFFERS;
		calls += check_stripe(&funcs[F_XOR_CHECK], &s, 17, how, &corrupt);
		calls += check_stripe(&funcs[F_PQ_CHECK], &s, 18, how, &corrupt);
		stripe_close(&s);
	}
	print_message("checks: %zu calls; consistent stripes give 0, and each of %zu single-byte "
		      "corruptions (every buffer at 4 positions; above 1 MiB 4 buffers at 2) gives "
		      "the expected failure value\n",
		      calls, corrupt);
}

/* The paths for sources in DRAM (non-temporal parity stores from the end of the probe span on,
 * sources prefetched ahead), which calls on buffers in cache never take: forced here, at and
 * around the lengths where P+Q (4 KiB) and XOR (8 KiB) start probing and with every kind of
 * tail, in both guard layouts (GUARD_BACK puts P and Q at the same offset within a cache line,
 * which the generators' streaming needs). */
static void test_cold_paths(void **state)
{
	(void)state;
	static const size_t lens[] = {
		4095, 4096, 4097, 4096 + 64 + 32 + 7, 8191, 8192, 8192 + 128 + 13, 12345, 65536 + 100,
	};
	static const int vl[] = { 3, 4, 5, 17, 18, 33, 64 };
	size_t calls = 0, corrupt = 0;
	atomic_store(&stoa_cold_mode, STOA_COLD_ALWAYS);
	for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		for (int where = GUARD_BACK; where <= GUARD_FRONT; where++) {
			struct stripe s;
			stripe_open(&s, lens[li], where);
			calls += compare_gen(&funcs[F_XOR_GEN], &s, vl, 7);
			calls += compare_gen(&funcs[F_PQ_GEN], &s, vl + 1, 6);
			calls += check_stripe(&funcs[F_XOR_CHECK], &s, 17, EVERY_BUFFER, &corrupt);
			calls += check_stripe(&funcs[F_PQ_CHECK], &s, 18, EVERY_BUFFER, &corrupt);
			stripe_close(&s);
		}
	}
	atomic_store(&stoa_cold_mode, STOA_COLD_UNSET);
	print_message("cold paths (forced): %zu calls at %zu lengths 4095..65636, generators equal "
		      "to base, checks right on consistent stripes and %zu corruptions\n",
		      calls, sizeof(lens) / sizeof(lens[0]), corrupt);
}

/* The streaming paths of large calls (buffers of 2 MiB in all), with the probe forced each way:
 * sources in cache (at 512 bits P+Q streams whole blocks) and in DRAM (prefetched steps), and as
 * measured, in the three layouts (XOR with SSE takes two lines a visit only for aligned buffers
 * at different page offsets: STRIPE_STAGGER). */
static void test_streaming_paths(void **state)
{
	(void)state;
	static const size_t lens[] = { 131072 + 64 + 7, (1u << 20) + 16 * 13 };
	/* The probe as measured too: P+Q at 256 bits streams large calls it finds partly in DRAM
	 * (RAID_SPILL_TICKS, which a build may set to 0 to take that path every time). */
	static const int modes[] = { STOA_COLD_NEVER, STOA_COLD_PROBE, STOA_COLD_ALWAYS };
	static const int vl[] = { 17, 18, 33 };
	size_t calls = 0;
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		atomic_store(&stoa_cold_mode, modes[m]);
		for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
			for (int where = GUARD_BACK; where <= STRIPE_STAGGER; where++) {
				struct stripe s;
				stripe_open(&s, lens[li], where);
				calls += compare_gen(&funcs[F_XOR_GEN], &s, vl, 3);
				calls += compare_gen(&funcs[F_PQ_GEN], &s, vl + 1, 2);
				stripe_close(&s);
			}
		}
	}
	atomic_store(&stoa_cold_mode, STOA_COLD_UNSET);
	print_message("streaming paths (probe forced warm, as measured, forced cold): %zu calls at "
		      "128 KiB and 1 MiB, generators equal to base\n",
		      calls);
}

/* The smaller vects the exported _base functions accept, with ISA-L's meaning. */
static void test_base_small_vects(void **state)
{
	(void)state;
	enum { LEN = 77 };
	static uint8_t m[3][LEN];
	void *array[3] = { m[0], m[1], m[2] };
	test_fill_random(m, sizeof(m));
	assert_int_equal(xor_gen_base(2, LEN, array), 0);
	assert_memory_equal(m[1], m[0], LEN);
	assert_int_equal(xor_check_base(2, LEN, array), 0);
	memset(m[0], 0, LEN);
	assert_int_equal(xor_check_base(1, LEN, array), 0);
	m[0][LEN - 1] = 9;
	assert_int_equal(xor_check_base(1, LEN, array), LEN);
	test_fill_random(m[0], LEN);
	assert_int_equal(pq_gen_base(3, LEN, array), 0);
	assert_memory_equal(m[1], m[0], LEN);
	assert_memory_equal(m[2], m[0], LEN);
	assert_int_equal(pq_check_base(3, LEN, array), 0);
	print_message("base functions: xor_gen_base(2) copies, xor_check_base(1) tests for zero, "
		      "pq_gen_base(3) copies the one source to P and Q, as in ISA-L\n");
}

/* Every entry rejects bad arguments with 1 and leaves every buffer alone. */
static void test_bad_args(void **state)
{
	(void)state;
	enum { LEN = 96, NV = 8 };
	static uint8_t m[NV][LEN], saved[NV][LEN];
	void *array[NV];
	size_t calls = 0;
	test_fill_random(m, sizeof(m));
	memcpy(saved, m, sizeof(m));
	for (int i = 0; i < NV; i++)
		array[i] = m[i];
	for (int fi = 0; fi < NFUNCS; fi++) {
		const struct func *f = &funcs[fi];
		for (size_t e = 0; e < f->n; e++) {
			raid_fn *fn = f->e[e].fn;
			int min = f->e[e].min_vects;
			const int bad_vects[] = { min - 1, 0, -1, INT_MIN };
			const int bad_lens[] = { -1, -32, -64, INT_MIN };
			for (size_t k = 0; k < 4; k++) {
				if (bad_vects[k] < min) {
					assert_int_equal(fn(bad_vects[k], LEN, array), 1);
					assert_int_equal(fn(bad_vects[k], 0, array), 1);
				}
				assert_int_equal(fn(NV, bad_lens[k], array), 1);
				calls += 3;
			}
			assert_int_equal(fn(NV, LEN, NULL), 1);
			assert_int_equal(fn(NV, 0, NULL), 1);
			void *saved_ptr = array[3];
			array[3] = NULL;
			assert_int_equal(fn(NV, LEN, array), 1);
			assert_int_equal(fn(NV, 0, array), 0); /* len 0 reads no buffer */
			array[3] = saved_ptr;
			calls += 4;
			if (memcmp(m, saved, sizeof(m)) != 0)
				TEST_FAIL("%s [%s]: a rejected call changed a buffer\n", f->name,
					  f->e[e].label);
			/* The minimum is accepted. */
			if (f->shape == XOR_GEN || f->shape == PQ_GEN) {
				assert_int_equal(fn(min, LEN, array), 0);
				calls++;
				memcpy(m, saved, sizeof(m));
			}
		}
	}
	for (size_t z = 0; z < zero_n; z++) {
		assert_int_equal(zero_fns[z](NULL, 0), 0);
		assert_int_equal(zero_fns[z](NULL, 1), 1);
		calls += 2;
	}
	print_message("bad arguments: %zu rejected or boundary calls (vects below minimum, "
		      "negative len, NULL array or buffer), every one as documented, no buffer "
		      "touched\n",
		      calls);
}

static void zero_case(uint8_t *mem, size_t len, int want, const char *what)
{
	for (size_t z = 0; z < zero_n; z++) {
		int r = zero_fns[z](mem, len);
		if (r != want)
			TEST_FAIL("isal_zero_detect [%s] len=%zu %s: %d, want %d\n", zero_labels[z],
				  len, what, r, want);
	}
}

static void test_zero_detect(void **state)
{
	(void)state;
	size_t calls = 0;
	for (size_t len = 0; len <= 300; len++) {
		for (int where = GUARD_BACK; where <= GUARD_FRONT; where++) {
			size_t skew = where == GUARD_FRONT ? test_rand_below(64) : 0;
			uint8_t *blk = guard_alloc(len + skew, where), *mem = blk + skew;
			memset(mem, 0, len);
			zero_case(mem, len, 0, "all zero");
			for (size_t i = 0; i < len; i++) {
				mem[i] = (uint8_t)(1 + test_rand_below(255));
				zero_case(mem, len, 1, "one non-zero byte");
				mem[i] = 0;
			}
			calls += (len + 1) * zero_n;
			guard_free(blk, len + skew, where);
		}
	}
	for (int round = 0; round < 40; round++) {
		size_t len = 1 + test_rand_below(round < 30 ? 70000 : 3u << 20);
		if (round < 30)
			len += 300;
		int where = round & 1 ? GUARD_FRONT : GUARD_BACK;
		size_t skew = where == GUARD_FRONT ? test_rand_below(64) : 0;
		uint8_t *blk = guard_alloc(len + skew, where), *mem = blk + skew;
		memset(mem, 0, len);
		zero_case(mem, len, 0, "all zero");
		size_t at[3] = { 0, len - 1, test_rand_below(len) };
		for (int k = 0; k < 3; k++) {
			mem[at[k]] = 0x80;
			zero_case(mem, len, 1, "one non-zero byte");
			mem[at[k]] = 0;
		}
		calls += 4 * zero_n;
		guard_free(blk, len + skew, where);
	}
	/* The path for data from DRAM (a timed first KiB, then the rest by SSE), forced: non-zero
	 * bytes inside and just past the probed span and at the end. */
	static const size_t cold_lens[] = { 131072, 131073, 131072 + 63, 300007, (1u << 20) + 13 };
	atomic_store(&stoa_cold_mode, STOA_COLD_ALWAYS);
	for (size_t l = 0; l < STOA_COUNT(cold_lens); l++) {
		const size_t len = cold_lens[l];
		int where = l & 1 ? GUARD_FRONT : GUARD_BACK;
		size_t skew = where == GUARD_FRONT ? test_rand_below(64) : 0;
		uint8_t *blk = guard_alloc(len + skew, where), *mem = blk + skew;
		memset(mem, 0, len);
		zero_case(mem, len, 0, "all zero, cold path");
		size_t at[] = { 0, 1023, 1024, 1025, len / 2, len - 1 };
		for (size_t k = 0; k < STOA_COUNT(at); k++) {
			mem[at[k]] = 1;
			zero_case(mem, len, 1, "one non-zero byte, cold path");
			mem[at[k]] = 0;
		}
		calls += (1 + STOA_COUNT(at)) * zero_n;
		guard_free(blk, len + skew, where);
	}
	atomic_store(&stoa_cold_mode, STOA_COLD_UNSET);
	print_message("isal_zero_detect: %zu calls over %zu entries; every length 0..300 with a "
	              "non-zero byte at each position, long buffers, and the path for data in DRAM "
	              "(forced); guard pages both sides\n",
	              calls, zero_n);
}

/* ---- the separate-process oracle (tests/oracle.h) ---- */

/* Calls per function in each oracle run; 8 functions, then isal_zero_detect (at least 301
 * calls), then 15 rejected-argument lines. */
#define ORACLE_COUNT 150
#define ORACLE_LINES (8 * ORACLE_COUNT + 301 + 15)

static void test_isal_oracle(void **state)
{
	(void)state;
	struct oracle_output sys, ours;
	oracle_run("raid", ORACLE_SYSTEM, test_seed(), ORACLE_COUNT, &sys);
	oracle_run("raid", ORACLE_STOA, test_seed(), ORACLE_COUNT, &ours);
	size_t n = oracle_compare("libisal", &sys, "stoa", &ours, NULL, NULL);
	print_message("Debian libisal vs stoa: %zu result lines (generator parity hashes, check "
		      "return values before and after a corruption, zero detect, rejected "
		      "arguments), identical\n",
		      n);
	assert_int_equal(n, (size_t)ORACLE_LINES);
	oracle_free(&sys);
	oracle_free(&ours);
}

static void test_compat_abi(void **state)
{
	(void)state;
	size_t n = oracle_check_compat("raid", test_seed(), ORACLE_COUNT);
	assert_int_equal(n, (size_t)ORACLE_LINES);
}

static int setup(void **state)
{
	(void)state;
	test_seed();
	prepare_all();
	prepare_zero();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inventory),
		cmocka_unit_test(test_known_answers),
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_gen_edges),
		cmocka_unit_test(test_gen_random),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_cold_paths),
		cmocka_unit_test(test_streaming_paths),
		cmocka_unit_test(test_base_small_vects),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_zero_detect),
		cmocka_unit_test(test_isal_oracle),
		cmocka_unit_test(test_compat_abi),
	};
	return TEST_MAIN("raid", tests, setup, NULL);
}
