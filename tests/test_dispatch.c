/* Dispatch and CPU-report tests: the STOA_ISA parser, the variant each function picks under each
 * STOA_ISA level (in child processes, since the level is read once per process), the results
 * under every level against the portable ones, a race through the resolvers, and the report and
 * name lookups of stoa.h.
 *
 * The child is this program re-executed: "test_dispatch --child SEED" prints what it sees, one
 * fact per line; "test_dispatch --race SEED" hammers the unresolved entry points from threads. */
#include <inttypes.h>
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
#define N_FEATURE_BITS 27

/* ---- the CRC functions, called through their exported public and _base symbols ---- */

typedef uint64_t crc_call(uint64_t init, uint8_t *buf, uint64_t len, uint8_t *dst);

static uint64_t p_t10dif(uint64_t i, uint8_t *b, uint64_t n, uint8_t *d)
{
	(void)d;
	return crc16_t10dif((uint16_t)i, b, n);
}
static uint64_t b_t10dif(uint64_t i, uint8_t *b, uint64_t n, uint8_t *d)
{
	(void)d;
	return crc16_t10dif_base((uint16_t)i, b, n);
}
static uint64_t p_t10dif_copy(uint64_t i, uint8_t *b, uint64_t n, uint8_t *d)
{
	return crc16_t10dif_copy((uint16_t)i, d, b, n);
}
static uint64_t b_t10dif_copy(uint64_t i, uint8_t *b, uint64_t n, uint8_t *d)
{
	return crc16_t10dif_copy_base((uint16_t)i, d, b, n);
}
static uint64_t p_ieee(uint64_t i, uint8_t *b, uint64_t n, uint8_t *d)
{
	(void)d;
	return crc32_ieee((uint32_t)i, b, n);
}
static uint64_t b_ieee(uint64_t i, uint8_t *b, uint64_t n, uint8_t *d)
{
	(void)d;
	return crc32_ieee_base((uint32_t)i, b, n);
}
static uint64_t p_gzip(uint64_t i, uint8_t *b, uint64_t n, uint8_t *d)
{
	(void)d;
	return crc32_gzip_refl((uint32_t)i, b, n);
}
static uint64_t b_gzip(uint64_t i, uint8_t *b, uint64_t n, uint8_t *d)
{
	(void)d;
	return crc32_gzip_refl_base((uint32_t)i, b, n);
}
static uint64_t p_iscsi(uint64_t i, uint8_t *b, uint64_t n, uint8_t *d)
{
	(void)d;
	return crc32_iscsi(b, (int)n, (unsigned int)i);
}
static uint64_t b_iscsi(uint64_t i, uint8_t *b, uint64_t n, uint8_t *d)
{
	(void)d;
	return crc32_iscsi_base(b, (int)n, (unsigned int)i);
}

#define PB_CRC64(name)                                                                             \
	static uint64_t p_##name(uint64_t i, uint8_t *b, uint64_t n, uint8_t *d)                   \
	{                                                                                          \
		(void)d;                                                                           \
		return name(i, b, n);                                                              \
	}                                                                                          \
	static uint64_t b_##name(uint64_t i, uint8_t *b, uint64_t n, uint8_t *d)                   \
	{                                                                                          \
		(void)d;                                                                           \
		return name##_base(i, b, n);                                                       \
	}

PB_CRC64(crc64_ecma_refl)
PB_CRC64(crc64_ecma_norm)
PB_CRC64(crc64_iso_refl)
PB_CRC64(crc64_iso_norm)
PB_CRC64(crc64_jones_refl)
PB_CRC64(crc64_jones_norm)
PB_CRC64(crc64_rocksoft_refl)
PB_CRC64(crc64_rocksoft_norm)

struct crc_pair {
	const char *name;
	crc_call *pub, *base;
};

#define PAIR64(name)                                                                               \
	{                                                                                          \
#name, p_##name, b_##name                                                          \
	}

static const struct crc_pair crcs[] = {
	{ "crc16_t10dif", p_t10dif, b_t10dif },
	{ "crc16_t10dif_copy", p_t10dif_copy, b_t10dif_copy },
	{ "crc32_ieee", p_ieee, b_ieee },
	{ "crc32_gzip_refl", p_gzip, b_gzip },
	{ "crc32_iscsi", p_iscsi, b_iscsi },
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

/* Parent and child build the same data from the seed with their own generator (splitmix64):
 * testutil's would print its banner in the child. */
static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint8_t *make_data(uint64_t seed)
{
	uint8_t *d = malloc(DATA_SIZE);
	if (!d)
		abort();
	for (size_t i = 0; i < DATA_SIZE; i++)
		d[i] = (uint8_t)mix(&seed);
	return d;
}

/* The inputs of case (function c, length l): a start that varies with the length and an init
 * that varies with both. */
static void case_inputs(uint64_t seed, size_t c, size_t l, size_t *offset, uint64_t *init)
{
	uint64_t s = seed ^ (c * 1000 + l);
	*offset = (size_t)(mix(&s) % 64);
	*init = mix(&s);
}

static uint64_t run_case(const struct crc_pair *p, int base, uint64_t seed, const uint8_t *data,
			 size_t c, size_t l, uint8_t *dst)
{
	size_t off;
	uint64_t init;
	case_inputs(seed, c, l, &off, &init);
	crc_call *f = base ? p->base : p->pub;
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
		execl("/proc/self/exe", "test_dispatch", mode, seed, (char *)NULL);
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

static uint64_t level_mask(const char *name)
{
	uint64_t m = 0;
	assert_int_equal(stoa_isa_parse(name, &m), 0);
	return m;
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

static void test_isa_parse(void **state)
{
	(void)state;
	static const char *const good[] = { "base", "sse42", "avx", "avx2", "avx512", "native" };
	static const char *const junk[] = { "",	     "bogus",	 "AVX2",     "avx2 ",
					    " base", "sse4.2",	 "avx1024",  "basex",
					    "avx51", "native\n", "sse42,avx" };
	uint64_t prev = 0;
	for (size_t i = 0; i < STOA_COUNT(good); i++) {
		uint64_t m = 0x1234;
		if (stoa_isa_parse(good[i], &m) != 0)
			TEST_FAIL("stoa_isa_parse rejected '%s'\n", good[i]);
		/* Each level includes the one before it. */
		if ((prev & m) != prev)
			TEST_FAIL("level %s (0x%" PRIx64 ") drops bits of the level before\n",
				  good[i], m);
		prev = m;
		print_message("  %-7s -> 0x%016" PRIx64 "\n", good[i], m);
	}
	uint64_t sse42 = level_mask("sse42"), avx = level_mask("avx"), avx2 = level_mask("avx2");
	uint64_t avx512 = level_mask("avx512"), native = level_mask("native");
	uint64_t all = (1ull << N_FEATURE_BITS) - 1;
	assert_int_equal(level_mask("base"), 0);
	assert_int_equal(sse42 & (STOA_CPU_SSE42 | STOA_CPU_PCLMUL),
			 STOA_CPU_SSE42 | STOA_CPU_PCLMUL);
	assert_int_equal(sse42 & AVX_BITS, 0);
	assert_true(avx & STOA_CPU_AVX);
	assert_int_equal(avx & (STOA_CPU_AVX2 | AVX512_BITS), 0);
	assert_true(avx2 & STOA_CPU_AVX2);
	assert_int_equal(avx2 & AVX512_BITS, 0);
	assert_int_equal(avx512 & all, all);
	assert_int_equal(native & all, all);
	for (size_t i = 0; i < STOA_COUNT(junk); i++) {
		uint64_t m = 0x1234;
		if (stoa_isa_parse(junk[i], &m) != -1)
			TEST_FAIL("stoa_isa_parse accepted '%s'\n", junk[i]);
		if (m != 0x1234)
			TEST_FAIL("stoa_isa_parse('%s') failed but changed the mask\n", junk[i]);
	}
	print_message("stoa_isa_parse: %zu levels accepted and nested, %zu junk values rejected "
		      "with the mask untouched\n",
		      STOA_COUNT(good), STOA_COUNT(junk));
}

static void test_feature_names(void **state)
{
	(void)state;
	const char *names[N_FEATURE_BITS];
	for (int b = 0; b < N_FEATURE_BITS; b++) {
		names[b] = stoa_cpu_feature_name(1ull << b);
		if (!names[b] || !*names[b])
			TEST_FAIL("feature bit %d has no name\n", b);
		for (int o = 0; o < b; o++)
			if (strcmp(names[o], names[b]) == 0)
				TEST_FAIL("bits %d and %d are both named %s\n", o, b, names[b]);
	}
	assert_string_equal(stoa_cpu_feature_name(STOA_CPU_SSE42), "sse4.2");
	assert_string_equal(stoa_cpu_feature_name(STOA_CPU_PCLMUL), "pclmulqdq");
	assert_string_equal(stoa_cpu_feature_name(STOA_CPU_AVX2), "avx2");
	assert_string_equal(stoa_cpu_feature_name(STOA_CPU_GFNI), "gfni");
	assert_string_equal(stoa_cpu_feature_name(STOA_CPU_VPCLMUL), "vpclmulqdq");
	assert_string_equal(stoa_cpu_feature_name(STOA_CPU_AVX512BW), "avx512bw");
	assert_string_equal(stoa_cpu_feature_name(STOA_CPU_AVX512VPOPCNTDQ), "avx512vpopcntdq");
	const uint64_t bad[] = {
		0,    STOA_CPU_SSE42 | STOA_CPU_AVX, 1ull << N_FEATURE_BITS, 1ull << 62, 1ull << 63,
		~0ull
	};
	for (size_t i = 0; i < STOA_COUNT(bad); i++)
		if (stoa_cpu_feature_name(bad[i]) != NULL)
			TEST_FAIL("stoa_cpu_feature_name(0x%" PRIx64 ") is not NULL\n", bad[i]);
	uint64_t det = stoa_cpu_features(), en = stoa_cpu_features_enabled();
	assert_int_equal(en & ~det, 0);
	assert_int_equal(det >> N_FEATURE_BITS, 0);
	print_message("stoa_cpu_feature_name: %d distinct names, %zu non-features give NULL; "
		      "detected 0x%" PRIx64 ", enabled 0x%" PRIx64 "\n",
		      N_FEATURE_BITS, STOA_COUNT(bad), det, en);
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

static void test_isa_sse42(void **state)
{
	(void)state;
	struct child c;
	uint64_t mask = level_mask("sse42");
	uint64_t en = check_level("sse42", mask, &c);
	assert_int_equal(en & ~mask, 0);
	assert_int_equal(en & AVX_BITS, 0);
	expect_quiet(&c, "sse42");
	free_child(&c);
	print_message(
		"STOA_ISA=sse42: no AVX bits enabled, every chosen variant within the level\n");
}

static void test_isa_avx(void **state)
{
	(void)state;
	struct child c;
	uint64_t en = check_level("avx", level_mask("avx"), &c);
	assert_int_equal(en & (STOA_CPU_AVX2 | AVX512_BITS), 0);
	expect_quiet(&c, "avx");
	free_child(&c);
}

static void test_isa_avx2(void **state)
{
	(void)state;
	struct child c;
	uint64_t en = check_level("avx2", level_mask("avx2"), &c);
	assert_int_equal(en & AVX512_BITS, 0);
	expect_quiet(&c, "avx2");
	free_child(&c);
	print_message("STOA_ISA=avx2: no AVX-512 bits enabled\n");
}

static void test_isa_avx512(void **state)
{
	(void)state;
	struct child c;
	check_level("avx512", level_mask("avx512"), &c);
	expect_quiet(&c, "avx512");
	free_child(&c);
	check_level("native", level_mask("native"), &c);
	expect_quiet(&c, "native");
	free_child(&c);
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

/* Every table of every module: each entry is named by a variant token whose compile flags its
 * `need` covers (a kernel compiled with -mavx2 -mbmi2 must not run where BMI2 is missing), no
 * name repeats, and the table ends with the one "base" entry, which needs nothing. */
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
			}
		}
	}
	assert_true(entries > funcs);
	print_message("tables: %zu functions, %zu entries; every entry a token whose flags its "
		      "need covers, base last\n",
		      funcs, entries);
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
		cmocka_unit_test(test_isa_parse),     cmocka_unit_test(test_feature_names),
		cmocka_unit_test(test_cpu_report),    cmocka_unit_test(test_function_variant),
		cmocka_unit_test(test_isa_unset),     cmocka_unit_test(test_isa_empty),
		cmocka_unit_test(test_isa_base),      cmocka_unit_test(test_isa_sse42),
		cmocka_unit_test(test_isa_avx),	      cmocka_unit_test(test_isa_avx2),
		cmocka_unit_test(test_isa_avx512),    cmocka_unit_test(test_isa_bogus),
		cmocka_unit_test(test_resolver_race), cmocka_unit_test(test_table_needs),
	};
	return cmocka_run_group_tests_name("dispatch", tests, NULL, NULL);
}
