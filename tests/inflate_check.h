/* Inflate tests: isal_inflate, isal_inflate_stateless, the header readers and dictionaries.
 *
 * Evidence:
 *  - round trips of both corpora (test_load_corpus: STOA_CORPUS, else ../shared/corpus beside
 *    the repository; generated text when there is none) compressed by zlib (levels 0-9, five
 *    strategies, windows 9..15, raw / zlib / gzip), libdeflate (levels 1-12, loaded with dlopen) and the gzip command (-1..-9): a full
 *    matrix on a few small files, a sample of it on the rest;
 *  - every way of splitting input and output (1 byte, random, 16 KiB in / 64 KiB out) giving
 *    what one call gives, for stored, fixed and dynamic blocks and every wrapper;
 *  - every crc_flag, multi-member gzip, trailing data, hist_bits, dictionaries, the gzip and zlib
 *    header readers (fitting, overflowing, resumed, 1 byte at a time);
 *  - hand-built streams provoking every error code; every truncation point and random byte
 *    flips of small streams (bounded loops: each call must make progress or stop); buffers that
 *    end at a guard page; more than 4 GiB of output in one stream; avail_in and avail_out near
 *    2^32 over a sparse mapping;
 *  - Debian's libisal in a separate process on the same inputs (tests/inflate_oracle.c), and the
 *    drop-in run of that program on stoa's compat libisal.so.2.
 *
 * Everything random comes from test_rand(), so STOA_SEED=N repeats a run. Under AddressSanitizer
 * (or with STOA_TEST_QUICK=1) the sampled parts shrink.
 *
 * The expectations are stricter than Debian's ISA-L 2.30 meets, on purpose:
 *  - isal_inflate on a raw or zlib stream may consume up to 8 bytes past the end of the stream
 *    there (bits it had buffered are not given back at the end; gzip streams end exactly);
 *  - it returns the zlib DICTID byte-swapped (RFC 1950 stores it most significant byte first);
 *  - after an error or on truncated input, its isal_inflate_stateless can leave next_in /
 *    avail_in pointing outside the input (it gives back a negative count of buffered bits);
 *  - it re-reads a gzip or zlib header that arrives over several calls with a fresh header
 *    struct each call, so FHCRC / FEXTRA gzip headers and FDICT zlib headers split across calls
 *    fail; its isal_read_gzip_header loses FNAME / FCOMMENT read byte by byte or resumed after
 *    an _OVERFLOW with a larger buffer. */
#ifndef STOA_TESTS_INFLATE_CHECK_H
#define STOA_TESTS_INFLATE_CHECK_H

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libdeflate.h>
#include <zlib.h>

#include <isa-l/igzip_lib.h>

#include "oracle.h"
#include "testutil.h"



#define MAX_SAMPLES 64

enum wrapper { W_RAW, W_ZLIB, W_GZIP };

struct zbuf {
	uint8_t *p;
	size_t len;
};

struct result {
	int rc;                   /* the library's code, or END_INPUT / OUT_OVERFLOW when it stalled */
	size_t out_len;           /* bytes written to out */
	uint32_t crc;             /* state->crc at the end */
	uint32_t total_out;       /* state->total_out at the end */
	int block_state;          /* state->block_state at the end */
	size_t in_left;           /* input bytes not consumed */
	size_t calls;             /* isal_inflate calls */
	uint32_t dict_id;         /* state->dict_id after ISAL_NEED_DICT */
};

/* How a streaming decode splits its buffers: fixed steps (0 = everything left), or random steps
 * of 1..max when random is set. */
struct chunking {
	const char *name;
	size_t in_step, out_step;
	int random;
};

#define N_CHUNKINGS (sizeof(chunkings) / sizeof(chunkings[0]))

extern int quick; /* ASan or STOA_TEST_QUICK: smaller samples */
extern struct test_file samples[MAX_SAMPLES];
extern size_t nsamples;
void load_samples(void);
const struct test_file *find_sample(const char *suffix);
size_t small_samples(const struct test_file **out, size_t max);
extern const char *const wrapper_name[];
extern const int wrapper_flag[];
struct zbuf z_compress_dict(const uint8_t *in, size_t n, enum wrapper w, int level,
				   int wbits, int strategy, const uint8_t *dict, size_t dict_len);
struct zbuf z_compress(const uint8_t *in, size_t n, enum wrapper w, int level, int wbits,
			      int strategy);
struct zbuf ld_compress(const uint8_t *in, size_t n, enum wrapper w, int level);
struct zbuf gzip_cmd(const uint8_t *in, size_t n, int level);
struct inflate_state *new_state(void);
void inflate_oneshot(const uint8_t *in, size_t in_len, uint8_t *out, size_t cap,
			    int crc_flag, struct result *r);
extern const struct chunking whole;
extern const struct chunking chunkings[8];
void run_stream(struct inflate_state *st, const uint8_t *in, size_t in_len, uint8_t *out,
		       size_t cap, const struct chunking *ch, struct result *r);
void inflate_chunked(const uint8_t *in, size_t in_len, uint8_t *out, size_t cap,
			    int crc_flag, int hist_bits, const uint8_t *dict, size_t dict_len,
			    const struct chunking *ch, struct result *r);
void check_result(const char *what, const char *how, const struct result *r,
			 const uint8_t *out, const uint8_t *data, size_t len, int crc_flag,
			 size_t in_left);
/* Raw deflate s inflated by zlib in one call into out (cap bytes): 1 when zlib finds a whole valid
 * stream, with *out_len bytes out (the judge of the tests' hand-built streams). */
int zlib_raw_ok(const uint8_t *s, size_t len, uint8_t *out, size_t cap, size_t *out_len);
extern size_t roundtrips; /* streams checked, for the summaries */
void check_stream(const char *what, const uint8_t *s, size_t slen, int crc_flag,
			 const uint8_t *data, size_t len, const struct chunking *ch);
const struct chunking *random_chunking(size_t len);
int inflate_suite_setup(void **state);

#endif
