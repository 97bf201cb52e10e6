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

/* n bytes aligned to 64 (aligned_alloc with the size rounded up, as C11 asks); aborts on
 * failure. Free with free(). */
void *test_alloc64(size_t n);

/* The bytes of a corpus file named relative to the corpus root ("calgary/obj2"), malloc'd, or
 * NULL when it is not found; *len gets its size. The root is STOA_CORPUS when set, else
 * ../shared/corpus beside the repository (found from the test program's own path,
 * <repo>/<build>/tests/<prog>), else ../shared/corpus from the current directory. */
uint8_t *test_corpus_file(const char *name, size_t *len);

/* Fail the current cmocka test with a formatted message (printf-like). */
#define TEST_FAIL(...)                                                                             \
	do {                                                                                       \
		print_error(__VA_ARGS__);                                                          \
		fail();                                                                            \
	} while (0)

#endif
