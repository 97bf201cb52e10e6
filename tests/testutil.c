/* The test rules pass -D_DEFAULT_SOURCE; this keeps the file buildable on its own too. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include "testutil.h"

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
