/* The igzip cases' inputs (perf_igzip_inputs.c): file slots of each corpus, the corpora
 * concatenated, and a generated mix. */
#ifndef STOA_PERF_IGZIP_H
#define STOA_PERF_IGZIP_H

#include <stddef.h>
#include <stdint.h>

#define KIB     1024u
#define MIB     (1024u * 1024u)
#define MIX_LEN ((size_t)100 * MIB)
/* The mix of a quick run (stoa_perf --quick): its first 24 MiB. */
#define QUICK_MIX_LEN ((size_t)24 * MIB)

/* Inputs: file slots of each corpus (sorted names), then the two concatenations, the mix, and
 * the runs (deflate at levels 0-3 only). */
#define SLOTS 20
enum { NCORPORA = 2 };
#define IN_CAT0 (NCORPORA * SLOTS)
#define IN_MIX  (IN_CAT0 + NCORPORA)
#define IN_RUNS (IN_MIX + 1)
#define NINPUTS (IN_RUNS + 1)
/* The runs: byte runs of 50 to 5000 bytes, each of one random byte. Streaming deflate spends
 * most of its time there outside the match finder (buffer copies, block headers), which no other
 * input shows. Small enough that its rows cost little time. */
#define RUNS_LEN ((size_t)8 * MIB)

struct input {
	char name[64];   /* calgary/bib, calgary.cat, mix */
	char path[2048]; /* a file slot's file */
	size_t len;      /* natural length; 0: absent */
	size_t sizes[2]; /* the cases' size list: { len, 0 } or { 0 } */
};
extern struct input inputs[NINPUTS];

/* Finds the inputs and sets each one's size list (from STOA_PERF_IGZIP_MIX); writes the mix to
 * STOA_PERF_MIX_OUT when that is set. */
void find_inputs(void);
/* The runs' n bytes. */
void make_runs(uint8_t *dst, size_t n);
/* The mix's n bytes; -1 when the text it draws from cannot be read. */
int make_mix(uint8_t *dst, size_t n);
/* An input cut or repeated to size bytes; NULL when it cannot be read. */
uint8_t *load_input(int idx, size_t size);

/* stoa_perf --roundtrip (perf_roundtrip.c): the exit status. */
int perf_roundtrip(int quick);
/* stoa_perf --roundtrip-pair LIB (perf_roundtrip.c, stoa build): the exit status. */
int perf_roundtrip_pair(const char *lib, int quick);
/* zlib-ng, raw deflate in one call (perf_roundtrip_zng.c; stoa build with PERF_HAVE_ZLIBNG):
 * the output's length, 0 on failure. */
size_t perf_zng_compress(const uint8_t *in, size_t len, uint8_t *out, size_t cap, int level);
size_t perf_zng_decompress(const uint8_t *in, size_t clen, uint8_t *out, size_t len);

#endif
