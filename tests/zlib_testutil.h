/* Shared by the tests of stoa's libz.so.1 (tests/test_zlib_*.c). Those programs are built
 * against the system's zlib.h and linked with -lz, like any zlib program, and run on stoa's
 * build/compat/libz.so.1: zt_start re-executes the program with LD_LIBRARY_PATH pointing there
 * and checks that the process really mapped it. The reference zlib runs in a process of its own
 * (tests/zlib_peer.c, beside the test program). STOA_ZLIB_TEST_SYSTEM=1 runs a test on the
 * system's zlib instead, to check the test's own expectations. */
#ifndef STOA_ZLIB_TESTUTIL_H
#define STOA_ZLIB_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "zlib_peer.h"

/* Makes sure the process runs on stoa's libz.so.1 (<build>/compat beside the test program),
 * re-executing it once if needed; exits with a message when it cannot. Prints the library. */
void zt_start(int argc, char **argv);

/* The reference zlib process (started on first use, stopped at exit); fails the test when it
 * cannot start or is not on the system's zlib. */
struct zs_peer *zt_peer(void);

/* Test data of len bytes, kind 0-5: text with repeats, random, runs of one byte, a corpus file
 * (cut or repeated to len), sparse zeros, a short period. Caller frees. */
uint8_t *zt_data(int kind, size_t len);
#define ZT_KINDS 6

/* Fails the current test unless a and b hold the same bytes; what names the comparison. */
void zt_expect_same(const char *what, const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

#endif
