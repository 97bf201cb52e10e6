/* The toolkit every test program shares: the seeded random source, guard-page buffers, memory,
 * time and byte-order helpers, the corpus, the usable variants of a dispatched function, and the
 * cmocka entry point. A test includes <cmocka.h> (after setjmp.h, stdarg.h, stddef.h) first. */
#ifndef STOA_TESTUTIL_H
#define STOA_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"

/* The run's seed: STOA_SEED if set (decimal or 0x hex), else time-based. Printed on first use as
 * "seed: N (repeat with STOA_SEED=N)". */
uint64_t test_seed(void);

/* Deterministic pseudo-random numbers from the seed (splitmix64). */
uint64_t test_rand(void);
/* The same generator on a state of the caller's own (a sequence that does not depend on the run's
 * seed, or that a child process repeats without the seed's banner). */
uint64_t test_rand_from(uint64_t *state);
/* Uniform in [0, n), n > 0. */
uint64_t test_rand_below(uint64_t n);
void test_fill_random(void *buf, size_t len);
/* Text-like bytes: words from a small vocabulary, so that matches of every length and distance
 * occur (drawn from test_rand). */
void test_fill_text(uint8_t *p, size_t n);

/* A buffer of len bytes whose last byte is immediately followed by an inaccessible page, so any
 * read or write past the end faults. With GUARD_FRONT the buffer instead starts right after an
 * inaccessible page (catches reads before the start). len 0 is allowed: the pointer is then the
 * guard page's first byte (front: the byte after it), valid to pass with length 0.
 * Aborts on allocation failure. Free with guard_free. */
enum { GUARD_BACK = 0, GUARD_FRONT = 1 };
uint8_t *guard_alloc(size_t len, int where);
void guard_free(uint8_t *p, size_t len, int where);

/* Programs of the build under test run through the command in STOA_TEST_WRAPPER when it is set
 * (an emulator such as qemu-aarch64 for a cross build: scripts/cross.sh), so that a test can
 * start them without binfmt_misc. test_wrapper() is that command followed by a space, or "" (the
 * prefix of a shell command line); test_exec() replaces the process with the program at path
 * (an absolute path) and argv through it, and returns only when that fails. */
const char *test_wrapper(void);
void test_exec(const char *path, char *const argv[]);

/* Allocations that abort the program when they fail (tests do not handle running out); size 0
 * gives a valid pointer. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);

/* n bytes aligned to 64 (aligned_alloc with the size rounded up, as C11 asks); aborts on
 * failure. Free with free(). */
void *test_alloc64(size_t n);

/* CLOCK_MONOTONIC in seconds, for the durations a test prints (never for a verdict). */
double now_seconds(void);

/* Fixed-width fields in a byte order (gzip and zlib headers and trailers). */
void put_le32(uint8_t *p, uint32_t v);
void put_be32(uint8_t *p, uint32_t v);
uint32_t get_le32(const uint8_t *p);
uint32_t get_be32(const uint8_t *p);

/* zlib's crc32 and adler32 over any length (zlib's own take a 32-bit length). */
uint32_t zlib_crc32(const uint8_t *p, size_t n);
uint32_t zlib_adler32(const uint8_t *p, size_t n);

/* A sanitizer build (ASan), where the suites shrink what they sample. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#ifndef UNDER_SANITIZER
#define UNDER_SANITIZER 0
#endif
/* True under a sanitizer or with STOA_TEST_QUICK=1: smaller samples. */
int test_quick(void);

/* The corpora: calgary/ and canterbury/ under STOA_CORPUS, else under the default the Makefile
 * compiles in (../shared/corpus beside the repository), found from any working directory. */
const char *test_corpus_dir(void);

/* The bytes of one corpus file named from the corpus root ("calgary/obj2"), malloc'd, or NULL
 * when it is not there; *len gets its size. */
uint8_t *test_corpus_file(const char *name, size_t *len);

struct test_file {
	char name[80]; /* "calgary/bib" */
	uint8_t *data;
	size_t len;
};
/* Every regular file of calgary/ then canterbury/, in name order (so STOA_SEED repeats a run),
 * at most max; returns how many were read (0: no corpus). */
size_t test_load_corpus(struct test_file *files, size_t max);

/* The dispatched function name from the registry. Fails the test when it is not registered or
 * its table does not end with its portable "base" entry. */
const struct stoa_func *test_func(const char *name);
/* The entries of f this process can run (the CPU and STOA_ISA), in table order, so the base
 * entry comes last; at most cap. Returns how many; *skipped, when not NULL, counts the others. */
size_t test_variants(const struct stoa_func *f, const struct stoa_variant **out, size_t cap,
                     size_t *skipped);

/* Fail the current cmocka test with a formatted message (printf-like). */
#define TEST_FAIL(...)                                                                             \
	do {                                                                                       \
		print_error(__VA_ARGS__);                                                          \
		fail();                                                                            \
	} while (0)

/* A test program's main: runs the group; STOA_TEST_FILTER=pattern (a glob) runs only the tests
 * it matches. Use as TEST_MAIN("name", tests, setup, teardown). */
struct CMUnitTest;
int test_main(const char *group, const struct CMUnitTest *tests, size_t count,
              int (*setup)(void **state), int (*teardown)(void **state));
#define TEST_MAIN(group, tests, setup, teardown)                                                   \
	test_main((group), (tests), sizeof(tests) / sizeof((tests)[0]), (setup), (teardown))

#endif
