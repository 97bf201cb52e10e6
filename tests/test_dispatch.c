/* Dispatch and CPU-report tests: the STOA_ISA parser, the variant each function picks under each
 * STOA_ISA word and feature exclusion (in child processes, since the cap is read once per
 * process), the results under every one against the portable ones, a race through the resolvers,
 * and the report and name lookups of stoa.h. Nothing here assumes an architecture: the words and
 * features come from the target's (struct stoa_arch), and the x86-64 facts are checked where its
 * words exist.
 *
 * The child is this program re-executed: "test_dispatch --child SEED" prints what it sees, one
 * fact per line; "test_dispatch --race SEED" hammers the unresolved entry points from threads. */
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/cpu.h"
#include "common/dispatch.h"
#include "crc_calls.h"
#include "isa-l/crc.h"
#include "isa-l/crc64.h"
#include "stoa.h"
#include "testutil.h"

#define AVX_BITS                                                                                   \
	(STOA_CPU_AVX | STOA_CPU_AVX2 | STOA_CPU_FMA | STOA_CPU_VAES | STOA_CPU_VPCLMUL |          \
	 AVX512_BITS)
#define AVX512_BITS                                                                                \
	(STOA_CPU_AVX512F | STOA_CPU_AVX512DQ | STOA_CPU_AVX512CD | STOA_CPU_AVX512BW |            \
	 STOA_CPU_AVX512VL | STOA_CPU_AVX512VBMI | STOA_CPU_AVX512VBMI2 | STOA_CPU_AVX512VNNI |    \
	 STOA_CPU_AVX512BITALG | STOA_CPU_AVX512VPOPCNTDQ)
/* What no x86-64 class includes: later CPUs add them (x86-64-v3,+gfni,+vaes,+vpclmul). */
#define X86_LATER (STOA_CPU_SHANI | STOA_CPU_GFNI | STOA_CPU_VAES | STOA_CPU_VPCLMUL)

/* Every feature bit of the target's architecture. */
static uint64_t arch_bits(void)
{
	uint64_t all = 0;
	for (size_t i = 0; i < stoa_arch.nfeatures; i++)
		all |= stoa_arch.features[i].bit;
	return all;
}

/* ---- the CRC functions, called through their exported public and _base symbols ---- */

struct crc_pair {
	const char *name;
	crc_call_fn *pub, *base;
};

#define PAIR64(name)                                                                               \
	{                                                                                          \
#name, cc_##name, cc_##name##_base                                                          \
	}

static const struct crc_pair crcs[] = {
	{ "crc16_t10dif", cc_t10dif, cc_t10dif_base },
	{ "crc16_t10dif_copy", cc_t10dif_copy, cc_t10dif_copy_base },
	{ "crc32_ieee", cc_ieee, cc_ieee_base },
	{ "crc32_gzip_refl", cc_gzip, cc_gzip_base },
	{ "crc32_iscsi", cc_iscsi, cc_iscsi_base },
	PAIR64(crc64_ecma_refl),
	PAIR64(crc64_ecma_norm),
	PAIR64(crc64_iso_refl),
	PAIR64(crc64_iso_norm),
	PAIR64(crc64_jones_refl),
	PAIR64(crc64_jones_norm),
	PAIR64(crc64_rocksoft_refl),
	PAIR64(crc64_rocksoft_norm),
};
#define N_CRCS STOA_COUNT(crcs)

/* Lengths on both sides of the kernels' block sizes, and an odd long one. */
static const uint64_t lens[] = {
	0,   1,	  7,   15,  16,	 17,  31,  63,	 64,   65,   127,   128,
	129, 255, 256, 257, 511, 512, 513, 1000, 4095, 4103, 65533, 65541
};
#define N_LENS STOA_COUNT(lens)
#define DATA_SIZE (65541 + 64)

/* Parent and child build the same data from the seed with a state of their own
 * (test_rand_from): test_rand would print its banner in the child. */
static uint8_t *make_data(uint64_t seed)
{
	uint8_t *d = malloc(DATA_SIZE);
	if (!d)
		abort();
	for (size_t i = 0; i < DATA_SIZE; i++)
		d[i] = (uint8_t)test_rand_from(&seed);
	return d;
}

/* The inputs of case (function c, length l): a start that varies with the length and an init
 * that varies with both. */
static void case_inputs(uint64_t seed, size_t c, size_t l, size_t *offset, uint64_t *init)
{
	uint64_t s = seed ^ (c * 1000 + l);
	*offset = (size_t)(test_rand_from(&s) % 64);
	*init = test_rand_from(&s);
}

static uint64_t run_case(const struct crc_pair *p, int base, uint64_t seed, const uint8_t *data,
			 size_t c, size_t l, uint8_t *dst)
{
	size_t off;
	uint64_t init;
	case_inputs(seed, c, l, &off, &init);
	crc_call_fn *f = base ? p->base : p->pub;
	uint64_t r = f(init, (uint8_t *)data + off, lens[l], dst);
	return strncmp(p->name, "crc16", 5) == 0   ? r & 0xffff
	       : strncmp(p->name, "crc32", 5) == 0 ? r & 0xffffffff
						   : r;
}

/* ---- the child side ---- */

static int child_main(uint64_t seed)
{
	uint8_t *data = make_data(seed), *dst = malloc(DATA_SIZE);
	if (!dst)
		abort();
	printf("detected 0x%" PRIx64 "\n", stoa_cpu_features());
	printf("enabled 0x%" PRIx64 "\n", stoa_cpu_features_enabled());
	/* Call every function before asking which variant it took, so the resolvers have run. */
	for (size_t c = 0; c < N_CRCS; c++)
		for (size_t l = 0; l < N_LENS; l++)
			printf("crc %s %" PRIu64 " 0x%" PRIx64 "\n", crcs[c].name, lens[l],
			       run_case(&crcs[c], 0, seed, data, c, l, dst));
	for (size_t m = 0; stoa_modules[m]; m++) {
		for (size_t i = 0; i < stoa_modules[m]->count; i++) {
			const char *name = stoa_modules[m]->funcs[i].name;
			const char *v = stoa_function_variant(name);
			printf("variant %s %s\n", name, v ? v : "(null)");
		}
	}
	size_t n = stoa_cpu_report(NULL, 0);
	char *report = malloc(n + 1);
	if (!report)
		abort();
	stoa_cpu_report(report, n + 1);
	printf("report %s\n", report);
	free(report);
	free(data);
	free(dst);
	return fflush(stdout) == 0 ? 0 : 1;
}

#define RACE_THREADS 8

struct racer {
	pthread_barrier_t *start;
	uint64_t seed;
	const uint8_t *data;
	int bad;
	unsigned long calls;
};

static void *race_thread(void *arg)
{
	struct racer *r = arg;
	uint8_t *dst = malloc(DATA_SIZE);
	if (!dst)
		abort();
	pthread_barrier_wait(r->start);
	for (size_t c = 0; c < N_CRCS; c++) {
		for (size_t l = 0; l < N_LENS; l++) {
			uint64_t got = run_case(&crcs[c], 0, r->seed, r->data, c, l, dst);
			uint64_t want = run_case(&crcs[c], 1, r->seed, r->data, c, l, dst);
			r->calls++;
			if (got != want)
				r->bad++;
		}
	}
	free(dst);
	return NULL;
}

/* Every thread's first calls go through the unresolved pointers at once. */
static int race_main(uint64_t seed)
{
	pthread_barrier_t start;
	pthread_t t[RACE_THREADS];
	struct racer r[RACE_THREADS];
	uint8_t *data = make_data(seed);
	pthread_barrier_init(&start, NULL, RACE_THREADS);
	for (int i = 0; i < RACE_THREADS; i++) {
		r[i] = (struct racer){ &start, seed, data, 0, 0 };
		if (pthread_create(&t[i], NULL, race_thread, &r[i]) != 0)
			abort();
	}
	int bad = 0;
	unsigned long calls = 0;
	for (int i = 0; i < RACE_THREADS; i++) {
		pthread_join(t[i], NULL);
		bad += r[i].bad;
		calls += r[i].calls;
	}
	pthread_barrier_destroy(&start);
	free(data);
	printf("race %d threads %lu calls %d mismatches\n", RACE_THREADS, calls, bad);
	return bad ? 1 : 0;
}

/* ---- running a child ---- */

struct child {
	char *out, *err;
	int status;
};

static char *slurp(FILE *f)
{
	long n;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
		abort();
	char *s = malloc((size_t)n + 1);
	if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
		abort();
	s[n] = '\0';
	fclose(f);
	return s;
}

/* Runs this program again with mode, STOA_ISA set to isa (NULL: unset), stdout and stderr
 * captured in full. */
static void run_child(const char *mode, const char *isa, struct child *c)
{
	FILE *out = tmpfile(), *err = tmpfile();
	char seed[32];
	assert_non_null(out);
	assert_non_null(err);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)test_seed());
	/* Its path, not /proc/self/exe, which names the emulator to a STOA_TEST_WRAPPER. */
	char self[PATH_MAX];
	const ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(len > 0 && (size_t)len < sizeof(self) - 1);
	self[len] = '\0';
	char *const argv[] = { "test_dispatch", (char *)mode, seed, NULL };
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (dup2(fileno(out), 1) < 0 || dup2(fileno(err), 2) < 0)
			_exit(126);
		if (isa)
			setenv("STOA_ISA", isa, 1);
		else
			unsetenv("STOA_ISA");
		test_exec(self, argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &c->status, 0), pid);
	c->out = slurp(out);
	c->err = slurp(err);
	if (!WIFEXITED(c->status) || WEXITSTATUS(c->status) != 0)
		TEST_FAIL("child %s with STOA_ISA=%s failed (status 0x%x); stderr:\n%s\n", mode,
			  isa ? isa : "(unset)", c->status, c->err);
}

static void free_child(struct child *c)
{
	free(c->out);
	free(c->err);
}

/* The text after "key " on the line starting with key and (if given) the word arg. */
static const char *child_fact(const struct child *c, const char *key, const char *arg)
{
	char pat[128];
	snprintf(pat, sizeof(pat), arg ? "%s %s " : "%s ", key, arg);
	for (const char *l = c->out; *l;) {
		if (strncmp(l, pat, strlen(pat)) == 0)
			return l + strlen(pat);
		const char *nl = strchr(l, '\n');
		if (!nl)
			break;
		l = nl + 1;
	}
	TEST_FAIL("child printed no '%s' line\n", pat);
	return NULL;
}

static uint64_t child_hex(const struct child *c, const char *key)
{
	return strtoull(child_fact(c, key, NULL), NULL, 16);
}

static const struct stoa_variant *variant_named(const struct stoa_func *f, const char *name)
{
	for (size_t i = 0; i < f->count; i++)
		if (strlen(f->variants[i].name) == strcspn(name, "\n") &&
		    strncmp(f->variants[i].name, name, strlen(f->variants[i].name)) == 0)
			return &f->variants[i];
	return NULL;
}

/* What every level must satisfy: the enabled word is the detected one capped, each function's
 * variant is the first table entry within it, and every result equals the portable one. */
static uint64_t check_level(const char *isa, uint64_t cap, struct child *c)
{
	uint64_t det = stoa_cpu_features();
	uint8_t *data = make_data(test_seed()), *dst = malloc(DATA_SIZE);
	assert_non_null(dst);
	run_child("--child", isa, c);
	uint64_t cdet = child_hex(c, "detected"), en = child_hex(c, "enabled");
	if (cdet != det)
		TEST_FAIL("child detected 0x%" PRIx64 ", this process 0x%" PRIx64 "\n", cdet, det);
	if (en != (det & cap))
		TEST_FAIL("STOA_ISA=%s: enabled 0x%" PRIx64 ", want 0x%" PRIx64 "\n",
			  isa ? isa : "(unset)", en, det & cap);

	size_t funcs = 0;
	for (size_t m = 0; stoa_modules[m]; m++) {
		for (size_t i = 0; i < stoa_modules[m]->count; i++, funcs++) {
			const struct stoa_func *f = &stoa_modules[m]->funcs[i];
			const struct stoa_variant *want = &f->variants[f->count - 1];
			for (size_t v = 0; v + 1 < f->count; v++) {
				if ((f->variants[v].need & ~en) == 0) {
					want = &f->variants[v];
					break;
				}
			}
			const char *got = child_fact(c, "variant", f->name);
			const struct stoa_variant *chosen = variant_named(f, got);
			if (!chosen || chosen != want)
				TEST_FAIL("STOA_ISA=%s: %s uses %.*s, want %s\n",
					  isa ? isa : "(unset)", f->name, (int)strcspn(got, "\n"),
					  got, want->name);
			if (chosen->need & ~en)
				TEST_FAIL("%s: variant %s needs 0x%" PRIx64
					  " beyond enabled 0x%" PRIx64 "\n",
					  f->name, chosen->name, chosen->need, en);
		}
	}

	size_t results = 0;
	for (size_t k = 0; k < N_CRCS; k++) {
		for (size_t l = 0; l < N_LENS; l++, results++) {
			char arg[64];
			snprintf(arg, sizeof(arg), "%s %" PRIu64, crcs[k].name, lens[l]);
			uint64_t got = strtoull(child_fact(c, "crc", arg), NULL, 16);
			uint64_t want = run_case(&crcs[k], 1, test_seed(), data, k, l, dst);
			if (got != want)
				TEST_FAIL("STOA_ISA=%s: %s len %" PRIu64 " gave 0x%" PRIx64
					  ", the _base symbol 0x%" PRIx64 "\n",
					  isa ? isa : "(unset)", crcs[k].name, lens[l], got, want);
		}
	}

	char want_isa[128];
	snprintf(want_isa, sizeof(want_isa), "STOA_ISA=%s;", isa && *isa ? isa : "(unset)");
	const char *report = child_fact(c, "report", NULL);
	if (!strstr(report, want_isa))
		TEST_FAIL("the report does not say %s: %s\n", want_isa, report);

	print_message("STOA_ISA=%s: enabled 0x%" PRIx64 " = detected & cap; %zu functions on the "
		      "first variant within it; %zu results equal _base\n",
		      isa ? isa : "(unset)", en, funcs, results);
	free(data);
	free(dst);
	return en;
}

static void expect_quiet(const struct child *c, const char *isa)
{
	if (strstr(c->err, "STOA_ISA"))
		TEST_FAIL("STOA_ISA=%s is valid but the child complained:\n%s\n", isa, c->err);
}

static void all_base(const struct child *c, const char *isa)
{
	for (size_t m = 0; stoa_modules[m]; m++) {
		for (size_t i = 0; i < stoa_modules[m]->count; i++) {
			const char *name = stoa_modules[m]->funcs[i].name;
			const char *v = child_fact(c, "variant", name);
			if (strncmp(v, "base\n", 5) != 0)
				TEST_FAIL("STOA_ISA=%s: %s uses %.*s, want base\n", isa, name,
					  (int)strcspn(v, "\n"), v);
		}
	}
}

/* ---- tests ---- */

/* A valid STOA_ISA value's mask (the test fails if it is not valid). */
static uint64_t parse_ok(const char *value)
{
	uint64_t m = 0x1234;
	if (stoa_isa_parse(value, &m) != 0)
		TEST_FAIL("stoa_isa_parse rejected '%s'\n", value);
	return m;
}

/* Whether this architecture has the word (the x86-64 checks run where it does). */
static int has_word(const char *word, uint64_t *mask)
{
	return stoa_isa_parse(word, mask) == 0;
}

static void test_isa_parse(void **state)
{
	(void)state;
	static const char *const junk[] = {
		"",           "bogus",      "AVX2",        "avx2 ",         " base",
		"sse4.2",     "avx1024",    "basex",       "avx51",         "native\n",
		"sse42,avx",  "native,",    "native,+",    "native,-",      "native,gfni",
		"native,+bogus", ",+gfni",  "+gfni",       "native,,-gfni", "native, -gfni",
		"native,-gfni ", "x86-64-v5", "x86-64-v3,+", "native,*gfni", "crypto,",
	};
	assert_int_equal(parse_ok("base"), 0);
	assert_int_equal(parse_ok("native"), ~0ull);
	print_message("  %-10s -> 0x%016" PRIx64 "\n  %-10s -> 0x%016" PRIx64 "\n", "base",
		      (uint64_t)0, "native", (uint64_t)~0ull);

	/* The classes grow one from the next; every word's mask holds only this architecture's
	 * features (the older levels' "everything", avx512, aside). */
	uint64_t prev = 0;
	size_t classes = 0;
	for (size_t i = 0; i < stoa_arch.nwords; i++) {
		const struct stoa_isa_word *w = &stoa_arch.words[i];
		uint64_t m = parse_ok(w->name);
		assert_int_equal(m, w->mask);
		if (m != ~0ull && (m & ~arch_bits()))
			TEST_FAIL("word %s allows 0x%" PRIx64 ", not features of %s\n", w->name,
				  m & ~arch_bits(), stoa_arch.name);
		if (w->is_class) {
			if ((prev & m) != prev || prev == m)
				TEST_FAIL("class %s (0x%" PRIx64 ") does not grow the one before\n",
					  w->name, m);
			prev = m;
			classes++;
		}
		print_message("  %-10s -> 0x%016" PRIx64 "%s\n", w->name, m,
			      w->is_class ? " (class)" : "");
	}

	/* Every feature, by name and by alias, added to base and taken from native. */
	size_t items = 0;
	for (size_t i = 0; i < stoa_arch.nfeatures; i++) {
		const struct stoa_feature *f = &stoa_arch.features[i];
		const char *names[] = { f->name, f->alias };
		for (size_t n = 0; n < 2 && names[n]; n++, items++) {
			char v[64];
			snprintf(v, sizeof(v), "base,+%s", names[n]);
			assert_int_equal(parse_ok(v), f->bit);
			snprintf(v, sizeof(v), "native,-%s", names[n]);
			assert_int_equal(parse_ok(v), ~f->bit);
			snprintf(v, sizeof(v), "native,-%s,+%s", names[n], names[n]);
			assert_int_equal(parse_ok(v), ~0ull);
		}
	}

	/* x86-64: the classes are the machines they name; the older levels still nest. */
	uint64_t v2, v3, v4, sse42, avx, avx2, avx512;
	if (has_word("x86-64-v2", &v2) && has_word("x86-64-v3", &v3) &&
	    has_word("x86-64-v4", &v4)) {
		const uint64_t v2_has = STOA_CPU_SSE42 | STOA_CPU_POPCNT | STOA_CPU_PCLMUL | STOA_CPU_AESNI;
		const uint64_t v3_has = STOA_CPU_AVX2 | STOA_CPU_BMI1 | STOA_CPU_BMI2 | STOA_CPU_FMA;
		const uint64_t v4_has = STOA_CPU_AVX512F | STOA_CPU_AVX512BW | STOA_CPU_AVX512DQ |
					STOA_CPU_AVX512VL | STOA_CPU_AVX512CD;
		assert_int_equal(v2 & v2_has, v2_has);
		assert_int_equal(v2 & (AVX_BITS | X86_LATER), 0);
		assert_int_equal(v3 & (v2_has | v3_has), v2_has | v3_has);
		assert_int_equal(v3 & (AVX512_BITS | X86_LATER), 0);
		assert_int_equal(v4 & (v2_has | v3_has | v4_has), v2_has | v3_has | v4_has);
		assert_int_equal(v4 & X86_LATER, 0);
		assert_int_equal(parse_ok("x86-64-v3,+gfni,+vaes,+vpclmul"),
				 v3 | STOA_CPU_GFNI | STOA_CPU_VAES | STOA_CPU_VPCLMUL);
		assert_int_equal(parse_ok("native,-gfni"), ~STOA_CPU_GFNI);
		assert_int_equal(parse_ok("x86-64-v4,-avx512bw,+pclmulqdq"), v4 & ~STOA_CPU_AVX512BW);
		print_message("x86-64-v2/v3/v4 hold their machines' features and none of SHA-NI, "
			      "GFNI, VAES, VPCLMULQDQ\n");
	}
	if (has_word("sse42", &sse42) && has_word("avx", &avx) && has_word("avx2", &avx2) &&
	    has_word("avx512", &avx512)) {
		assert_int_equal(sse42 & (STOA_CPU_SSE42 | STOA_CPU_PCLMUL),
				 STOA_CPU_SSE42 | STOA_CPU_PCLMUL);
		assert_int_equal(sse42 & AVX_BITS, 0);
		assert_true(avx & STOA_CPU_AVX);
		assert_int_equal(avx & (STOA_CPU_AVX2 | AVX512_BITS), 0);
		assert_true(avx2 & STOA_CPU_AVX2);
		assert_int_equal(avx2 & AVX512_BITS, 0);
		assert_true((sse42 & avx) == sse42 && (avx & avx2) == avx && avx512 == ~0ull);
		print_message("the older levels sse42 < avx < avx2 < avx512 nest\n");
	}

	for (size_t i = 0; i < STOA_COUNT(junk); i++) {
		uint64_t m = 0x1234;
		if (stoa_isa_parse(junk[i], &m) != -1)
			TEST_FAIL("stoa_isa_parse accepted '%s'\n", junk[i]);
		if (m != 0x1234)
			TEST_FAIL("stoa_isa_parse('%s') failed but changed the mask\n", junk[i]);
	}
	print_message("stoa_isa_parse (%s): %zu words, %zu classes nested, %zu feature names "
		      "added and removed, %zu junk values rejected with the mask untouched\n",
		      stoa_arch.name, stoa_arch.nwords + 2, classes, items, STOA_COUNT(junk));
}

/* stoa_isa_describe names the class in force: a STOA_ISA value that gives back exactly the
 * enabled features, for every word's share of what this CPU has. */
static void test_isa_describe(void **state)
{
	(void)state;
	uint64_t det = stoa_cpu_features();
	char text[512];
	assert_int_equal(stoa_isa_describe(0, text, sizeof(text)), 4);
	assert_string_equal(text, "base");
	for (size_t i = 0; i < stoa_arch.nwords + 1; i++) {
		uint64_t cap = i < stoa_arch.nwords ? stoa_arch.words[i].mask : ~0ull;
		uint64_t en = det & cap;
		size_t n = stoa_isa_describe(en, text, sizeof(text));
		assert_true(n < sizeof(text));
		assert_int_equal(strlen(text), n);
		uint64_t back = parse_ok(text);
		if ((back & det) != en)
			TEST_FAIL("describe(0x%" PRIx64 ") = '%s', which enables 0x%" PRIx64 "\n", en,
				  text, back & det);
		/* A class describes itself when the CPU has all of it. */
		if (i < stoa_arch.nwords && stoa_arch.words[i].is_class && (cap & ~det) == 0 &&
		    strncmp(text, stoa_arch.words[i].name, strlen(stoa_arch.words[i].name)) != 0)
			TEST_FAIL("class %s on a CPU that has it is described as '%s'\n",
				  stoa_arch.words[i].name, text);
		print_message("  %-10s -> %s\n", i < stoa_arch.nwords ? stoa_arch.words[i].name : "native",
			      text);
	}
	/* Truncation follows snprintf. */
	stoa_isa_describe(det, text, sizeof(text));
	char small[5];
	size_t n = stoa_isa_describe(det, small, sizeof(small));
	assert_int_equal(n, strlen(text));
	assert_memory_equal(small, text, strlen(small));
	assert_int_equal(strlen(small), n < sizeof(small) ? n : sizeof(small) - 1);
	print_message("stoa_isa_describe: each word's share of this CPU is described by a value "
		      "that parses back to it\n");
}

static void test_feature_names(void **state)
{
	(void)state;
	uint64_t all = 0;
	for (size_t i = 0; i < stoa_arch.nfeatures; i++) {
		const struct stoa_feature *f = &stoa_arch.features[i];
		if (f->bit == 0 || (f->bit & (f->bit - 1)))
			TEST_FAIL("feature %s is not one bit: 0x%" PRIx64 "\n", f->name, f->bit);
		/* stoa.h reserves bits 48-63 for architectures to come. */
		if (f->bit >> 48)
			TEST_FAIL("feature %s uses reserved bit 0x%" PRIx64 "\n", f->name, f->bit);
		if (all & f->bit)
			TEST_FAIL("two features share bit 0x%" PRIx64 "\n", f->bit);
		all |= f->bit;
		if (!f->name || !*f->name)
			TEST_FAIL("feature bit 0x%" PRIx64 " has no name\n", f->bit);
		assert_string_equal(stoa_cpu_feature_name(f->bit), f->name);
		for (size_t o = 0; o < i; o++) {
			const struct stoa_feature *g = &stoa_arch.features[o];
			const char *a[] = { f->name, f->alias }, *b[] = { g->name, g->alias };
			for (int x = 0; x < 2; x++)
				for (int y = 0; y < 2; y++)
					if (a[x] && b[y] && strcmp(a[x], b[y]) == 0)
						TEST_FAIL("features 0x%" PRIx64 " and 0x%" PRIx64
							  " are both called %s\n",
							  f->bit, g->bit, a[x]);
		}
	}
	/* Every bit with a name is one of this architecture's features. */
	for (int b = 0; b < 64; b++)
		if (stoa_cpu_feature_name(1ull << b) && !((all >> b) & 1))
			TEST_FAIL("bit %d has a name but is no feature of %s\n", b, stoa_arch.name);
	/* Known names, where this architecture has the bit. */
	static const struct {
		uint64_t bit;
		const char *name;
	} known[] = {
		{ STOA_CPU_SSE42, "sse4.2" },       { STOA_CPU_PCLMUL, "pclmulqdq" },
		{ STOA_CPU_AVX2, "avx2" },          { STOA_CPU_GFNI, "gfni" },
		{ STOA_CPU_VPCLMUL, "vpclmulqdq" }, { STOA_CPU_AVX512BW, "avx512bw" },
		{ STOA_CPU_AVX512VPOPCNTDQ, "avx512vpopcntdq" },
		{ STOA_CPU_ASIMD, "asimd" },        { STOA_CPU_PMULL, "pmull" },
		{ STOA_CPU_SHA512, "sha512" },      { STOA_CPU_SVE2, "sve2" },
	};
	for (size_t i = 0; i < STOA_COUNT(known); i++)
		if (known[i].bit & all)
			assert_string_equal(stoa_cpu_feature_name(known[i].bit), known[i].name);
	const uint64_t bad[] = { 0, STOA_CPU_SSE42 | STOA_CPU_AVX, STOA_CPU_ASIMD | STOA_CPU_AES,
				 1ull << 48, 1ull << 62, 1ull << 63, ~0ull };
	for (size_t i = 0; i < STOA_COUNT(bad); i++)
		if (stoa_cpu_feature_name(bad[i]) != NULL)
			TEST_FAIL("stoa_cpu_feature_name(0x%" PRIx64 ") is not NULL\n", bad[i]);
	uint64_t det = stoa_cpu_features(), en = stoa_cpu_features_enabled();
	assert_int_equal(en & ~det, 0);
	assert_int_equal(det & ~all, 0);
	print_message("stoa_cpu_feature_name (%s): %zu distinct names, every named bit a feature "
		      "below bit 48, %zu non-features give NULL; detected 0x%" PRIx64
		      ", enabled 0x%" PRIx64 "\n",
		      stoa_arch.name, stoa_arch.nfeatures, STOA_COUNT(bad), det, en);
}

/* Each truncated report sits at the end of a buffer followed by a guard page, so writing one
 * byte more than size faults. */
static void test_cpu_report(void **state)
{
	(void)state;
	size_t n = stoa_cpu_report(NULL, 0);
	assert_true(n > 0);
	char *full = malloc(n + 1);
	assert_non_null(full);
	assert_int_equal(stoa_cpu_report(full, n + 1), n);
	assert_int_equal(strlen(full), n);
	print_message("report (%zu bytes): %s\n", n, full);
	static const char head[] = "stoa " STOA_VERSION_STRING ";";
	assert_memory_equal(full, head, strlen(head));
	assert_non_null(strstr(full, "STOA_ISA="));
	char class[512], want[600];
	stoa_isa_describe(stoa_cpu_features_enabled(), class, sizeof(class));
	snprintf(want, sizeof(want), "; class %s; ", class);
	if (!strstr(full, want) || strncmp(full + strlen(head) + 1, stoa_arch.name,
					   strlen(stoa_arch.name)) != 0)
		TEST_FAIL("the report does not start with the architecture or lacks '%s'\n", want);
	for (size_t m = 0; stoa_modules[m]; m++) {
		for (size_t i = 0; i < stoa_modules[m]->count; i++) {
			const char *name = stoa_modules[m]->funcs[i].name;
			char pair[128];
			snprintf(pair, sizeof(pair), " %s=%s", name, stoa_function_variant(name));
			if (!strstr(full, pair))
				TEST_FAIL("the report lacks '%s'\n", pair);
		}
	}
	const size_t sizes[] = { 0, 1, 2, 10, n - 1, n, n + 1, n + 100 };
	for (size_t i = 0; i < STOA_COUNT(sizes); i++) {
		size_t size = sizes[i];
		char *buf = (char *)guard_alloc(size, GUARD_BACK);
		memset(buf, 'X', size);
		size_t r = stoa_cpu_report(buf, size);
		if (r != n)
			TEST_FAIL("stoa_cpu_report(buf, %zu) returned %zu, want %zu\n", size, r, n);
		if (size) {
			size_t keep = size - 1 < n ? size - 1 : n;
			assert_int_equal(strlen(buf), keep);
			assert_memory_equal(buf, full, keep);
		}
		guard_free((uint8_t *)buf, size, GUARD_BACK);
	}
	assert_int_equal(stoa_cpu_report(NULL, 5), n);
	free(full);
	print_message(
		"stoa_cpu_report: returns %zu for every size; sizes 0, 1, 2, 10, n-1, n, n+1, "
		"n+100 at a guard page truncate with a NUL and never write past size\n",
		n);
}

static void test_function_variant(void **state)
{
	(void)state;
	const char *bad[] = {
		"nope", "", "crc32_iscsi_base", "CRC32_ISCSI", "crc32_iscsi ", "crc64_ecma_refl_by8"
	};
	assert_null(stoa_function_variant(NULL));
	for (size_t i = 0; i < STOA_COUNT(bad); i++)
		if (stoa_function_variant(bad[i]) != NULL)
			TEST_FAIL("stoa_function_variant(\"%s\") is not NULL\n", bad[i]);
	size_t n = 0;
	for (size_t m = 0; stoa_modules[m]; m++) {
		for (size_t i = 0; i < stoa_modules[m]->count; i++, n++) {
			const struct stoa_func *f = &stoa_modules[m]->funcs[i];
			const char *v = stoa_function_variant(f->name);
			assert_non_null(v);
			assert_ptr_equal(stoa_find_func(f->name), f);
			assert_string_equal(v, stoa_select(f->variants, f->count)->name);
		}
	}
	assert_null(stoa_find_func("nope"));
	assert_string_equal(stoa_version(), STOA_VERSION_STRING);
	print_message("stoa_function_variant: NULL for NULL and %zu unknown names; matches "
		      "stoa_select for all %zu dispatched functions; stoa_version %s\n",
		      STOA_COUNT(bad), n, stoa_version());
}

static void test_isa_unset(void **state)
{
	(void)state;
	struct child c;
	uint64_t en = check_level(NULL, ~0ull, &c);
	assert_int_equal(en, stoa_cpu_features());
	expect_quiet(&c, "(unset)");
	free_child(&c);
}

static void test_isa_empty(void **state)
{
	(void)state;
	struct child c;
	check_level("", ~0ull, &c);
	expect_quiet(&c, "''");
	free_child(&c);
	print_message("an empty STOA_ISA counts as unset\n");
}

static void test_isa_base(void **state)
{
	(void)state;
	struct child c;
	assert_int_equal(check_level("base", 0, &c), 0);
	all_base(&c, "base");
	expect_quiet(&c, "base");
	free_child(&c);
	print_message("STOA_ISA=base: nothing enabled, every function on base\n");
}

/* Every word of this architecture, and native: each chosen variant is the first within it. */
static void test_isa_words(void **state)
{
	(void)state;
	struct child c;
	for (size_t i = 0; i < stoa_arch.nwords; i++) {
		const char *word = stoa_arch.words[i].name;
		check_level(word, stoa_arch.words[i].mask, &c);
		expect_quiet(&c, word);
		free_child(&c);
	}
	check_level("native", ~0ull, &c);
	expect_quiet(&c, "native");
	free_child(&c);
	print_message("%zu words of %s and native: every function on the first variant within "
		      "the word\n",
		      stoa_arch.nwords, stoa_arch.name);
}

/* Words with features added and taken away, such as the CPUs that have GFNI, VAES and
 * VPCLMULQDQ without AVX-512 (the ones of another architecture do not parse and are skipped). */
static void test_isa_items(void **state)
{
	(void)state;
	static const char *const values[] = {
		"native,-gfni", "x86-64-v3,+gfni,+vaes,+vpclmul", "x86-64-v4,-avx512bw,+shani",
		"native,-sve2", "crypto,+sha512,+sha3",
	};
	char last[64] = "";
	if (stoa_arch.nfeatures)
		snprintf(last, sizeof(last), "native,-%s",
			 stoa_arch.features[stoa_arch.nfeatures - 1].name);
	size_t run = 0;
	for (size_t i = 0; i <= STOA_COUNT(values); i++) {
		const char *v = i < STOA_COUNT(values) ? values[i] : last;
		uint64_t mask;
		if (!*v || stoa_isa_parse(v, &mask) != 0)
			continue;
		struct child c;
		check_level(v, mask, &c);
		expect_quiet(&c, v);
		free_child(&c);
		run++;
	}
	if (stoa_arch.nfeatures)
		assert_true(run > 0);
	print_message("%zu values with +feature / -feature items checked\n", run);
}

/* A function and the variant it must use under a STOA_ISA class word. */
struct class_want {
	const char *isa, *func, *variant;
};

/* Each row checked in a child under its class, where the class is a word of this architecture
 * and the CPU has all of it; the rest are skipped and said so. */
static void check_classes(const struct class_want *want, size_t n)
{
	uint64_t det = stoa_cpu_features();
	size_t checked = 0;
	const char *isa = NULL, *skipped = NULL;
	struct child c = { NULL, NULL, 0 };
	for (size_t i = 0; i < n; i++) {
		uint64_t mask;
		if (!has_word(want[i].isa, &mask) || (mask & ~det)) {
			if (!skipped || strcmp(skipped, want[i].isa) != 0)
				print_message("  %s: not a class this CPU has all of; skipped\n",
					      want[i].isa);
			skipped = want[i].isa;
			continue;
		}
		if (!isa || strcmp(isa, want[i].isa) != 0) {
			if (isa)
				free_child(&c);
			isa = want[i].isa;
			run_child("--child", isa, &c);
		}
		const char *got = child_fact(&c, "variant", want[i].func);
		if (strncmp(got, want[i].variant, strlen(want[i].variant)) != 0 ||
		    got[strlen(want[i].variant)] != '\n')
			TEST_FAIL("STOA_ISA=%s: %s uses %.*s, want %s\n", isa, want[i].func,
				  (int)strcspn(got, "\n"), got, want[i].variant);
		checked++;
	}
	if (isa)
		free_child(&c);
	print_message("%zu functions on the variant their class's servers get\n", checked);
}

/* The variants real x86-64 servers get, on a CPU that has all of each class: Westmere to Ivy
 * Bridge, Haswell to Zen 3, Skylake-SP and Cascade Lake. */
static void test_isa_x86_classes(void **state)
{
	(void)state;
	static const struct class_want want[] = {
		{ "x86-64-v2", "crc32_iscsi", "pclmul" },
		{ "x86-64-v2", "crc32_ieee", "pclmul" },
		{ "x86-64-v2", "ec_encode_data", "sse42" },
		{ "x86-64-v2", "XTS_AES_128_enc", "aesni" },
		{ "x86-64-v2", "stoa_sha256", "sse42" },
		{ "x86-64-v2", "pq_gen", "sse42" },
		{ "x86-64-v2", "sha256_ctx_mgr_init", "sse42" },
		{ "x86-64-v3", "crc32_iscsi", "pclmul" },
		{ "x86-64-v3", "ec_encode_data", "avx2" },
		{ "x86-64-v3", "pq_gen", "avx2" },
		{ "x86-64-v3", "XTS_AES_256_dec", "aesni_avx" },
		{ "x86-64-v3", "crc32_ieee", "pclmul_avx" },
		{ "x86-64-v3", "sha256_ctx_mgr_init", "avx2" },
		{ "x86-64-v3", "inflate_huff", "avx2" },
		{ "x86-64-v3", "inf_table_double", "avx2" },
		{ "x86-64-v3", "stoa_sha1", "avx2" },
		{ "x86-64-v4", "crc32_iscsi", "pclmul" },
		{ "x86-64-v4", "crc64_ecma_refl", "pclmul_avx" },
		{ "x86-64-v4", "ec_encode_data", "avx512" },
		{ "x86-64-v4", "pq_gen", "avx512" },
		{ "x86-64-v4", "XTS_AES_128_enc", "aesni_avx" },
		{ "x86-64-v4", "stoa_sha1", "avx2" },
		{ "x86-64-v4", "sha1_ctx_mgr_init", "avx512" },
		{ "x86-64-v4", "stoa_sha512", "avx512" },
	};
	check_classes(want, STOA_COUNT(want));
}

/* The same for aarch64's classes: Cortex-A53 or A72 without the crypto extension (neon), A72 and
 * Neoverse N1 (crypto), Neoverse V1 (sve), N2 and V2 (sve2). */
static void test_isa_arm_classes(void **state)
{
	(void)state;
	static const struct class_want want[] = {
		{ "neon", "crc32_iscsi", "base" },
		{ "neon", "crc64_ecma_refl", "base" },
		{ "neon", "ec_encode_data", "neon" },
		{ "neon", "gf_vect_mad", "neon" },
		{ "neon", "pq_gen", "neon" },
		{ "neon", "xor_gen", "neon" },
		{ "neon", "isal_zero_detect", "neon" },
		{ "crypto", "crc32_iscsi", "crc" },
		{ "crypto", "crc32_gzip_refl", "crc" },
		{ "crypto", "crc32_ieee", "pmull" },
		{ "crypto", "crc16_t10dif_copy", "pmull" },
		{ "crypto", "crc64_ecma_norm", "pmull" },
		{ "crypto", "ec_encode_data", "neon" },
		{ "crypto", "pq_check", "neon" },
		{ "sve2", "crc32_iscsi", "crc" },
		{ "sve2", "crc64_rocksoft_refl", "pmull" },
		{ "sve2", "ec_encode_data_update", "sve2" },
		{ "sve", "ec_encode_data", "sve" },
		{ "sve2", "xor_check", "neon" },
		{ "neon", "stoa_sha256", "base" },
		{ "neon", "XTS_AES_128_enc", "base" },
		{ "neon", "md5_ctx_mgr_init", "neon" },
		{ "neon", "isal_adler32", "neon" },
		{ "crypto", "stoa_sha1", "sha2" },
		{ "crypto", "stoa_sha256", "sha2" },
		{ "crypto", "stoa_sha512", "base" },
		{ "crypto", "XTS_AES_128_enc", "aes" },
		{ "crypto", "XTS_AES_256_dec_expanded_key", "aes" },
		{ "crypto", "aes_keyexp_256", "aes" },
		{ "crypto", "aes_keyexp_192", "base" },
		{ "sve", "stoa_sha512", "sha512" },
		{ "sve", "stoa_sha256", "sha2" },
		{ "sve", "XTS_AES_256_enc", "aes" },
	};
	check_classes(want, STOA_COUNT(want));
}

static void test_isa_bogus(void **state)
{
	(void)state;
	static const char value[] = "bogus-isa-value";
	struct child c;
	assert_int_equal(check_level(value, 0, &c), 0);
	all_base(&c, value);
	if (!strstr(c.err, value) || !strstr(c.err, "STOA_ISA"))
		TEST_FAIL("STOA_ISA=%s: stderr does not name the bad value:\n%s\n", value, c.err);
	print_message("STOA_ISA=%s: stderr says: %s", value, c.err);
	free_child(&c);
}

/* Every table of every module: no name repeats, the table ends with the one "base" entry, which
 * needs nothing, and every other entry needs features of this architecture only (an entry that
 * needs another's could never run). That an entry needs what its token's flags enable holds by
 * construction: STOA_ENTRY takes the need from STOA_NEED_<token>, the list the Makefile derives
 * the flags from. */
static void test_table_needs(void **state)
{
	(void)state;
	size_t entries = 0, funcs = 0;
	for (size_t m = 0; stoa_modules[m]; m++) {
		for (size_t i = 0; i < stoa_modules[m]->count; i++) {
			const struct stoa_func *f = &stoa_modules[m]->funcs[i];
			funcs++;
			if (f->count == 0)
				TEST_FAIL("%s: empty table\n", f->name);
			const struct stoa_variant *last = &f->variants[f->count - 1];
			if (strcmp(last->name, "base") != 0 || last->need != 0)
				TEST_FAIL("%s: the last entry is %s (need 0x%llx), not base\n", f->name,
					  last->name, (unsigned long long)last->need);
			for (size_t e = 0; e < f->count; e++) {
				const struct stoa_variant *v = &f->variants[e];
				entries++;
				if (e + 1 < f->count && strcmp(v->name, "base") == 0)
					TEST_FAIL("%s: base before the end of the table\n", f->name);
				for (size_t d = 0; d < e; d++)
					if (strcmp(f->variants[d].name, v->name) == 0)
						TEST_FAIL("%s: '%s' twice\n", f->name, v->name);
				if (!v->fn)
					TEST_FAIL("%s[%s]: no function\n", f->name, v->name);
				if (e + 1 < f->count && (v->need == 0 || (v->need & ~arch_bits())))
					TEST_FAIL("%s[%s]: need 0x%" PRIx64 " is not a set of %s "
						  "features\n",
						  f->name, v->name, v->need, stoa_arch.name);
			}
		}
	}
	assert_true(entries >= funcs && funcs > 0);
	print_message("tables: %zu functions, %zu entries; names distinct, base last, every other "
		      "entry needing %s features\n",
		      funcs, entries, stoa_arch.name);
}

static void test_resolver_race(void **state)
{
	(void)state;
	struct child c;
	run_child("--race", NULL, &c);
	const char *line = child_fact(&c, "race", NULL);
	print_message("race: %.*s\n", (int)strcspn(line, "\n"), line);
	assert_non_null(strstr(line, " 0 mismatches"));
	free_child(&c);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--child") == 0)
		return child_main(strtoull(argv[2], NULL, 10));
	if (argc == 3 && strcmp(argv[1], "--race") == 0)
		return race_main(strtoull(argv[2], NULL, 10));
	test_seed();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isa_parse),       cmocka_unit_test(test_isa_describe),
		cmocka_unit_test(test_feature_names),   cmocka_unit_test(test_cpu_report),
		cmocka_unit_test(test_function_variant), cmocka_unit_test(test_isa_unset),
		cmocka_unit_test(test_isa_empty),       cmocka_unit_test(test_isa_base),
		cmocka_unit_test(test_isa_words),       cmocka_unit_test(test_isa_items),
		cmocka_unit_test(test_isa_x86_classes), cmocka_unit_test(test_isa_arm_classes),
		cmocka_unit_test(test_isa_bogus),
		cmocka_unit_test(test_resolver_race),   cmocka_unit_test(test_table_needs),
	};
	return cmocka_run_group_tests_name("dispatch", tests, NULL, NULL);
}
