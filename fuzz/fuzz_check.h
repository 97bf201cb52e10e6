/* What the libFuzzer targets share: a check that stops the run (libFuzzer then saves the input),
 * and copies into buffers of exactly their size, so that AddressSanitizer sees any access past
 * either end. */
#ifndef STOA_FUZZ_CHECK_H
#define STOA_FUZZ_CHECK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c))                                                                          \
			__builtin_trap();                                                          \
	} while (0)

/* n bytes of malloc'd memory (at least 1 byte is allocated, so that 0 gives a pointer too). */
static inline void *fuzz_alloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	CHECK(p);
	return p;
}

/* A copy of p[0 .. n) in a buffer of exactly n bytes, or NULL for n == 0 (as callers of the API
 * may pass). */
static inline uint8_t *fuzz_copy(const uint8_t *p, size_t n)
{
	if (!n)
		return NULL;
	uint8_t *q = fuzz_alloc(n);
	memcpy(q, p, n);
	return q;
}

#endif
