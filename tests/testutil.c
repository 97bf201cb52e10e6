/* The test rules pass -D_DEFAULT_SOURCE; this keeps the file buildable on its own too. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "testutil.h"

#ifndef STOA_CORPUS_DEFAULT
#define STOA_CORPUS_DEFAULT "../shared/corpus"
#endif

static uint64_t rng_state;
static int seeded;

uint64_t test_seed(void)
{
	static uint64_t seed;
	if (!seeded) {
		const char *s = getenv("STOA_SEED");
		/* Base 10 unless 0x: strtoull's base 0 would read a leading zero as octal. */
		if (s && *s)
			seed = strtoull(s, NULL,
			                s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
		else
			seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		rng_state = seed;
		seeded = 1;
		printf("seed: %llu (repeat with STOA_SEED=%llu)\n", (unsigned long long)seed,
		       (unsigned long long)seed);
		fflush(stdout);
	}
	return seed;
}

uint64_t test_rand_from(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

uint64_t test_rand(void)
{
	test_seed();
	return test_rand_from(&rng_state);
}

uint64_t test_rand_below(uint64_t n)
{
	return test_rand() % n;
}

void test_fill_random(void *buf, size_t len)
{
	uint8_t *p = buf;
	while (len >= 8) {
		uint64_t v = test_rand();
		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len) {
		uint64_t v = test_rand();
		memcpy(p, &v, len);
	}
}

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* Layout: [data pages][guard page] for GUARD_BACK, [guard page][data pages] for GUARD_FRONT. */
static size_t data_span(size_t len)
{
	size_t pg = page_size();
	return (len + pg - 1) / pg * pg;
}

uint8_t *guard_alloc(size_t len, int where)
{
	size_t pg = page_size(), span = data_span(len);
	uint8_t *base =
	    mmap(NULL, span + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		perror("guard_alloc: mmap");
		abort();
	}
	if (where == GUARD_FRONT) {
		if (mprotect(base, pg, PROT_NONE) != 0) {
			perror("guard_alloc: mprotect");
			abort();
		}
		return base + pg;
	}
	if (mprotect(base + span, pg, PROT_NONE) != 0) {
		perror("guard_alloc: mprotect");
		abort();
	}
	return base + span - len;
}

void guard_free(uint8_t *p, size_t len, int where)
{
	size_t pg = page_size(), span = data_span(len);
	uint8_t *base = where == GUARD_FRONT ? p - pg : p + len - span;
	munmap(base, span + pg);
}

const char *test_wrapper(void)
{
	static char prefix[512];
	const char *w = getenv("STOA_TEST_WRAPPER");
	if (!w || !*w)
		return "";
	snprintf(prefix, sizeof(prefix), "%s ", w);
	return prefix;
}

void test_exec(const char *path, char *const argv[])
{
	const char *w = getenv("STOA_TEST_WRAPPER");
	if (!w || !*w) {
		execv(path, argv);
		return;
	}
	/* The wrapper's words, the program, and argv after its name. */
	char words[512];
	char *args[64];
	size_t n = 0;
	snprintf(words, sizeof(words), "%s", w);
	for (char *tok = strtok(words, " "); tok && n < 32; tok = strtok(NULL, " "))
		args[n++] = tok;
	args[n++] = (char *)path;
	for (size_t i = 1; argv[0] && argv[i] && n < 63; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	execvp(args[0], args);
}

void test_fill_text(uint8_t *p, size_t n)
{
	static const char *const words[] = { "the ",    "inflate ",  "block ", "of ",
		                             "stream ", "huffman ",  "a ",     "window ",
		                             "and ",    "distance ", "\n",     "length ",
		                             "code ",   "symbol ",   "42 " };
	size_t i = 0;
	while (i < n) {
		const char *w = words[test_rand_below(sizeof(words) / sizeof(words[0]))];
		for (size_t k = 0; w[k] && i < n; k++)
			p[i++] = (uint8_t)w[k];
	}
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "out of memory (%zu bytes)\n", n);
		abort();
	}
	return q;
}

void *xmalloc(size_t n)
{
	return xrealloc(NULL, n);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) {
		fprintf(stderr, "out of memory (%zu x %zu bytes)\n", n, size);
		abort();
	}
	return p;
}

void *test_alloc64(size_t n)
{
	void *p = aligned_alloc(64, (n + 63) & ~(size_t)63);
	if (!p) {
		perror("test_alloc64");
		abort();
	}
	return p;
}

double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* In pieces its uInt length can hold. */
static uint32_t zsum(uLong (*sum)(uLong, const Bytef *, uInt), const uint8_t *p, size_t n)
{
	uLong c = sum(0L, Z_NULL, 0);
	while (n) {
		uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
		c = sum(c, p, k);
		p += k;
		n -= k;
	}
	return (uint32_t)c;
}

uint32_t zlib_crc32(const uint8_t *p, size_t n)
{
	return zsum(crc32, p, n);
}

uint32_t zlib_adler32(const uint8_t *p, size_t n)
{
	return zsum(adler32, p, n);
}

int test_quick(void)
{
	const char *q = getenv("STOA_TEST_QUICK");
	return UNDER_SANITIZER || (q && q[0] == '1');
}

const char *test_corpus_dir(void)
{
	const char *env = getenv("STOA_CORPUS");
	return env && *env ? env : STOA_CORPUS_DEFAULT;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of root/sub in name order, appended to files[*n..max). */
static void load_corpus_dir(const char *root, const char *sub, struct test_file *files, size_t *n,
                            size_t max)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/%s", root, sub);
	DIR *d = opendir(dir);
	if (!d)
		return;
	char *names[256];
	size_t count = 0;
	for (struct dirent *e; (e = readdir(d)) != NULL && count < 256;) {
		if (e->d_name[0] == '.')
			continue;
		names[count++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, count, sizeof(names[0]), cmp_names);
	for (size_t i = 0; i < count; i++) {
		char path[8192];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		FILE *f = fopen(path, "rb");
		if (f && *n < max && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
			struct test_file *tf = &files[*n];
			tf->len = (size_t)st.st_size;
			tf->data = xmalloc(tf->len);
			if (fread(tf->data, 1, tf->len, f) == tf->len) {
				snprintf(tf->name, sizeof(tf->name), "%s/%s", sub, names[i]);
				++*n;
			} else {
				free(tf->data);
			}
		}
		if (f)
			fclose(f);
		free(names[i]);
	}
}

uint8_t *test_corpus_file(const char *name, size_t *len)
{
	char path[8192];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", test_corpus_dir(), name);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *p = NULL;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
		*len = (size_t)st.st_size;
		p = xmalloc(*len);
		if (fread(p, 1, *len, f) != *len) {
			free(p);
			p = NULL;
		}
	}
	fclose(f);
	return p;
}

size_t test_load_corpus(struct test_file *files, size_t max)
{
	size_t n = 0;
	load_corpus_dir(test_corpus_dir(), "calgary", files, &n, max);
	load_corpus_dir(test_corpus_dir(), "canterbury", files, &n, max);
	return n;
}

const struct stoa_func *test_func(const char *name)
{
	const struct stoa_func *f = stoa_find_func(name);
	if (!f)
		TEST_FAIL("%s is not in the dispatch registry\n", name);
	assert_true(f->count >= 1);
	assert_string_equal(f->variants[f->count - 1].name, "base");
	assert_int_equal(f->variants[f->count - 1].need, 0);
	return f;
}

size_t test_variants(const struct stoa_func *f, const struct stoa_variant **out, size_t cap,
                     size_t *skipped)
{
	size_t n = 0, off = 0;
	for (size_t i = 0; i < f->count; i++) {
		if (!stoa_variant_usable(&f->variants[i]))
			off++;
		else if (n < cap)
			out[n++] = &f->variants[i];
	}
	if (skipped)
		*skipped = off;
	return n;
}

int test_main(const char *group, const struct CMUnitTest *tests, size_t count,
              int (*setup)(void **state), int (*teardown)(void **state))
{
	const char *filter = getenv("STOA_TEST_FILTER");
	if (filter && *filter)
		cmocka_set_test_filter(filter);
	return _cmocka_run_group_tests(group, tests, count, setup, teardown);
}
