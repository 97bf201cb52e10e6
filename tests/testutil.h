/* Shared by every test program: the seeded random source and guard-page buffers. */
#ifndef STOA_TESTUTIL_H
#define STOA_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

/* The run's seed: STOA_SEED if set (decimal or 0x hex), else time-based. Printed on first use as
 * "seed: N (repeat with STOA_SEED=N)". */
uint64_t test_seed(void);

/* Deterministic pseudo-random numbers from the seed (splitmix64). */
uint64_t test_rand(void);
/* Uniform in [0, n), n > 0. */
uint64_t test_rand_below(uint64_t n);
void test_fill_random(void *buf, size_t len);

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

/* Fail the current cmocka test with a formatted message (printf-like). */
#define TEST_FAIL(...)                                                                             \
	do {                                                                                       \
		print_error(__VA_ARGS__);                                                          \
		fail();                                                                            \
	} while (0)

#endif
