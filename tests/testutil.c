/* The test rules pass -D_DEFAULT_SOURCE; this keeps the file buildable on its own too. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include "testutil.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

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

uint64_t test_rand(void)
{
	test_seed();
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
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
	uint8_t *base = mmap(NULL, span + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			     -1, 0);
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

void *test_alloc64(size_t n)
{
	void *p = aligned_alloc(64, (n + 63) & ~(size_t)63);
	if (!p) {
		perror("test_alloc64");
		abort();
	}
	return p;
}

static uint8_t *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *p = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			uint8_t *q = realloc(p, cap);
			if (!q) {
				perror("test_corpus_file");
				abort();
			}
			p = q;
		}
		const size_t got = fread(p + n, 1, cap - n, f);
		if (!got)
			break;
		n += got;
	}
	fclose(f);
	*len = n;
	return p;
}

uint8_t *test_corpus_file(const char *name, size_t *len)
{
	char path[PATH_MAX + 64], exe[PATH_MAX];
	const char *env = getenv("STOA_CORPUS");
	if (env && *env) {
		snprintf(path, sizeof(path), "%s/%s", env, name);
		return read_whole(path, len);
	}
	const ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (k > 0) {
		exe[k] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(path, sizeof(path), "%s/../../../shared/corpus/%s", exe, name);
		uint8_t *p = read_whole(path, len);
		if (p)
			return p;
	}
	snprintf(path, sizeof(path), "../shared/corpus/%s", name);
	return read_whole(path, len);
}
