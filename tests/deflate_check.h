/* Deflate (compressor) tests, written against the public igzip_lib.h API only.
 *
 * Every stream the compressor makes is decoded by three independent decoders: zlib, the library's
 * own isal_inflate, and a small bit-at-a-time reference decoder (deflate_ref.c), which also reports
 * what the stream is made of (block types, longest match, farthest distance) so the tests can
 * assert that hist_bits bounds every distance and that matches of length 258 and distance 32768
 * are used. gzip and zlib wrappers are checked byte by byte (header, CRC-32 / Adler-32, ISIZE) and
 * by zlib, a few gzip streams also by the gzip command.
 *
 * Covered: every corpus file at every level (the whole matrix of level x flush x wrapper x input
 * and output chunking x streaming/stateless on three small files, a seeded sample on the rest),
 * hist_bits 8..15, every level_buf size, dictionaries (set_dict, process_dict + reset_dict),
 * empty input, long runs, incompressible data, a stream longer than 4 GiB, isal_deflate_reset,
 * gzip and zlib header writers, custom/static/default Huffman tables, and the error codes of the
 * misuses ISA-L 2.30 reports.
 *
 * Debian's libisal also runs in a separate process (tests/deflate_oracle.c): the same sweep of
 * streams, flushes and header writes, built against each library, must report the same return
 * codes, input taken and decodability, and the ISA-L build must do so on stoa's compat
 * libisal.so.2 as well.
 *
 * Everything random comes from test_rand() (STOA_SEED=N repeats a run); the corpus is found as
 * test_corpus_dir() says (STOA_CORPUS=dir holding calgary/ and canterbury/). */
#ifndef STOA_TESTS_DEFLATE_CHECK_H
#define STOA_TESTS_DEFLATE_CHECK_H

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "isa-l/igzip_lib.h"
#include "deflate_ref.h"
#include "oracle.h"
#include "testutil.h"


#define KIB 1024u
#define MIB (1024u * 1024u)

#define MAX_FILES 64

enum chunking { CH_WHOLE, CH_ONE, CH_RANDOM, CH_64K, CH_COUNT };

enum dict_mode { DICT_NONE, DICT_SET, DICT_PROCESSED };

struct dparams {
	int level, flush, gzip_flag, hist_bits;
	enum chunking in_chunk, out_chunk;
	int stateless;
	int lbuf_size_index; /* 0..4: MIN..EXTRA_LARGE; -1: the level's DEFAULT */
	enum dict_mode dict_mode;
	uint8_t *dict;
	uint32_t dict_len;
	struct isal_hufftables *huff; /* with huff_type, when huff_set */
	int huff_type, huff_set;
};

struct compressed {
	uint8_t *buf;
	size_t len;
	uint32_t state_crc;  /* internal_state.crc at the end */
	uint32_t total_in;   /* the stream's counters at the end */
	uint32_t total_out;
};

/* Inside verify(): report and go on, so one broken stream shows every decoder's verdict. */
#define VFAIL(...)                                                                                 \
	do {                                                                                       \
		print_error(__VA_ARGS__);                                                          \
		bad = 1;                                                                           \
	} while (0)

extern struct test_file files[MAX_FILES];
extern size_t n_files;
extern char corpus_root[512];
const struct test_file *find_file(const char *suffix);
const struct test_file *dict_text(void);
const struct test_file *matrix_file(int i);
extern char zlib_msg[128]; /* zlib's message for the last zlib_decode */
int zlib_decode(const uint8_t *in, size_t in_len, int window_bits, const uint8_t *dict,
		       size_t dict_len, uint8_t *out, size_t out_cap, size_t *out_len,
		       size_t *in_used, gz_header *gzh);
int isal_decode(const uint8_t *in, size_t in_len, uint32_t crc_flag, uint32_t hist_bits,
		       uint8_t *dict, uint32_t dict_len, uint8_t *out, size_t out_cap,
		       size_t *out_len);
struct dparams dparams_default(int level);
uint32_t level_buf_size(int level, int index);
struct isal_zstream *new_stream(int level, int index, int stateless, uint8_t **lb);
int deflate_run(const struct dparams *p, const uint8_t *data, size_t len,
		       struct compressed *c);
/* All of data in one call, end_of_stream set, into cap bytes at out (isal_deflate, or
 * isal_deflate_stateless when stateless); returns the call's code, and what came out in *c
 * (c->buf is out). */
int deflate_once(struct isal_zstream *s, int stateless, const uint8_t *data, size_t len,
		 uint8_t *out, size_t cap, struct compressed *c);
void compressed_free(struct compressed *c);
extern unsigned n_checked_streams;
void verify(const char *what, const struct dparams *p, const uint8_t *data, size_t len,
		   const struct compressed *c, struct ref_stats *st);
size_t roundtrip(const char *what, const struct dparams *p, const uint8_t *data,
			size_t len, struct ref_stats *st);
int deflate_suite_setup(void **state);
int deflate_suite_teardown(void **state);

#endif
