/* igzip benchmark cases: isal_inflate_stateless, isal_inflate, isal_deflate_stateless and
 * isal_deflate on the Calgary and Canterbury corpora, their concatenations and a generated
 * 100 MiB mix, with zlib and libdeflate beside them in the stoa build.
 *
 * A case is one input in one form, and its size is the input's length, so the driver's size
 * column says how big the input is (perf_igzip_inputs.c finds the inputs). With --sizes, an
 * input is cut or repeated to each size given.
 *
 *   inflate   inputs compressed when a case is prepared: each file by zlib -6 (raw deflate); each
 *             concatenation by zlib -1, -6, -9 and libdeflate -6 (raw) and zlib -6 in a gzip
 *             wrapper, and cut into 64 KiB pieces each compressed alone by zlib -1, -6, -9
 *             (raw; the forms "zlib-N-64K-pieces"). MB/s counts decompressed bytes.
 *             Stateless: one call for the whole stream, or one per piece, the pieces one after
 *             another; streaming (not the pieces): isal_inflate (or zlib's inflate) fed 16 KiB
 *             of input and 64 KiB of output space per call.
 *             The pieces are there for the branch predictor: a decoder timed on one small stream
 *             over and over meets the same branches in the same order every time, and a
 *             predictor with a long history learns much of that order, which no workload
 *             decoding different data sees (a Zen 5 ran a 64 KiB Calgary piece 1.7x as fast
 *             repeated as in a rotation of all 93). The per-file rows are such repeats; a file
 *             over a few hundred KiB, the concatenations and the pieces are not.
 *   deflate   levels 0-3 with level_buf of ISAL_DEF_LVLn_DEFAULT bytes (the stoa build also
 *             levels 4-9, one call only); stateless writes raw
 *             deflate in one call, streaming a gzip stream from 64 KiB input chunks. MB/s
 *             counts input bytes; the result (check) is the compressed size, so the report
 *             can show the ratio. zlib -1/-6 and libdeflate -1/-6 (raw, one call each) are
 *             cases of their own (functions zlib_deflate and libdeflate_deflate_compress),
 *             because their output differs from ISA-L's by design and the driver requires
 *             one result per case. The stoa build adds stoa's levels 4-9 and the peers'
 *             other levels (zlib 2-9, libdeflate 2-12) on the two concatenations, as the
 *             points of the size/speed frontier; a quick run keeps of those only stoa's
 *             stateless rows (at 2-10 MB/s a row of a hundred calls takes a minute).
 *
 * STOA_PERF_IGZIP_MIX=skip leaves the 100 MiB mix out, =only runs nothing else (perf_report
 * runs it with fewer repetitions). STOA_PERF_MIX_OUT=FILE writes the mix to FILE when the
 * program starts (perf/cli_bench.sh uses it, so the command benchmark compresses the same
 * bytes). Every output is checked once per implementation and thread: inflate's against the
 * original, deflate's by inflating it again with zlib. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "igzip_lib.h"
#include "perf.h"
#include "perf_igzip.h"

#ifdef PERF_LIB_STOA
#include "stoa.h"
#endif
#ifdef PERF_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef PERF_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

/* The stoa build leaves out what libstoa does not have yet (perf.mk asks nm). */
#if !defined(PERF_NO_INFLATE)
#define HAVE_INFLATE 1
#else
#define HAVE_INFLATE 0
#endif
#if !defined(PERF_NO_DEFLATE)
#define HAVE_DEFLATE 1
#else
#define HAVE_DEFLATE 0
#endif

#define INFLATE_IN_CHUNK  (16 * KIB)
#define INFLATE_OUT_CHUNK (64 * KIB)
#define DEFLATE_IN_CHUNK  (64 * KIB)

/* What a case does. */
enum op {
	INFLATE_STATELESS,
	INFLATE_STREAM,
	DEFLATE_STATELESS,
	DEFLATE_STREAM,
	ZLIB_DEFLATE,
	LIBDEFLATE_DEFLATE
};
/* How an inflate case's input is compressed. */
enum form { ZLIB1, ZLIB6, ZLIB9, LIBDEFLATE6, GZIP6, PIECES1, PIECES6, PIECES9, NFORMS };
static const char *const form_names[NFORMS] = { "zlib-1",           "zlib-6",
	                                        "zlib-9",           "libdeflate-6",
	                                        "gzip-6",           "zlib-1-64K-pieces",
	                                        "zlib-6-64K-pieces", "zlib-9-64K-pieces" };
/* The pieces forms' piece: this many bytes of the input (the last one what is left). */
#define PIECE (64 * KIB)

struct spec {
	enum op op;
	int input;
	int arg; /* inflate: enum form; deflate: the level */
};

/* Per-file inflate cases use zlib -6 only; the concatenations every form. Deflate: ISA-L's four
 * levels in two modes on every input, stoa's levels above them (stoa.h) one-call only; peers
 * two levels each. */
#define N_INFLATE (HAVE_INFLATE * 2 * (NCORPORA * SLOTS + NCORPORA * NFORMS))
#ifdef PERF_LIB_STOA
#include <stoa.h>
/* Levels 4-9 on every input; the near-optimal 10 .. STOA_DEF_MAX_LEVEL (several times slower)
 * on the two concatenations, as the peers' upper levels. */
#define HIGH_LEVELS    6
#define OPT_LEVELS     (STOA_DEF_MAX_LEVEL - 9)
#define N_PEER_DEFLATE (4 * NINPUTS + (8 + 11 - 2) * NCORPORA)
#else
#define HIGH_LEVELS    0
#define OPT_LEVELS     0
#define N_PEER_DEFLATE 0
#endif
#define N_DEFLATE (HAVE_DEFLATE * ((2 * 4 + HIGH_LEVELS) * NINPUTS + OPT_LEVELS * NCORPORA))
#define N_CASES   (N_INFLATE + N_DEFLATE + N_PEER_DEFLATE)
/* Generated prepare functions below cover this many cases. */
#define MAX_CASES 1000
_Static_assert(N_CASES <= MAX_CASES, "more igzip cases than prepare functions");

static struct spec specs[N_CASES > 0 ? N_CASES : 1];
static char params[N_CASES > 0 ? N_CASES : 1][96];
static struct perf_case igzip_cases[N_CASES > 0 ? N_CASES : 1];

/* One prepared case: the data every thread reads. */
struct igz_state {
	const struct spec *spec;
	uint8_t *orig; /* the uncompressed input, len bytes */
	size_t len;
	uint8_t *comp; /* inflate: the compressed input */
	size_t comp_len;
	/* inflate: the compressed pieces (one, the whole, but in the pieces forms): where each
	 * starts in comp, npieces + 1 offsets */
	size_t npieces;
	size_t *piece_at;
	unsigned long generation; /* tells apart states that reuse an address */
};

/* Helpers some builds leave unused (the stoa build while libstoa lacks inflate or deflate). */
#define MAYBE_UNUSED __attribute__((unused))

/* Memory of one instance: the output, then the streams and the level buffer. */
static size_t round64(size_t n)
{
	return (n + 63) & ~(size_t)63;
}

static size_t out_cap(size_t size)
{
	return size + size / 4 + 64 * KIB;
}

#define LVL_MAX(a, b) ((a) > (b) ? (a) : (b))
#if HIGH_LEVELS
/* Levels 4-9 share one level_buf size, 10-12 a larger one (stoa.h). */
#define LEVEL_BUF_HIGH ((size_t)LVL_MAX(ISAL_DEF_LVL9_DEFAULT, ISAL_DEF_LVL12_DEFAULT))
#else
#define LEVEL_BUF_HIGH ((size_t)0)
#endif
#define LEVEL_BUF_MAX                                                                              \
	LVL_MAX(LVL_MAX(LVL_MAX((size_t)(ISAL_DEF_LVL1_DEFAULT), (size_t)(ISAL_DEF_LVL2_DEFAULT)), \
	                (size_t)(ISAL_DEF_LVL3_DEFAULT)),                                          \
	        LEVEL_BUF_HIGH)

static size_t igzip_footprint(size_t size)
{
	return round64(out_cap(size)) + round64(sizeof(struct isal_zstream)) +
	       round64(sizeof(struct inflate_state)) + LEVEL_BUF_MAX;
}

MAYBE_UNUSED static struct isal_zstream *zstream_of(const struct perf_call *c)
{
	return (struct isal_zstream *)(void *)(c->mem + round64(out_cap(c->size)));
}

MAYBE_UNUSED static struct inflate_state *istate_of(const struct perf_call *c)
{
	return (struct inflate_state *)(void *)(c->mem + round64(out_cap(c->size)) +
	                                        round64(sizeof(struct isal_zstream)));
}

MAYBE_UNUSED static uint8_t *level_buf_of(const struct perf_call *c)
{
	return c->mem + round64(out_cap(c->size)) + round64(sizeof(struct isal_zstream)) +
	       round64(sizeof(struct inflate_state));
}

MAYBE_UNUSED static uint32_t level_buf_size(int level)
{
	switch (level) {
	case 1:
		return (uint32_t)(ISAL_DEF_LVL1_DEFAULT);
	case 2:
		return (uint32_t)(ISAL_DEF_LVL2_DEFAULT);
	case 3:
		return (uint32_t)(ISAL_DEF_LVL3_DEFAULT);
#ifdef PERF_LIB_STOA
	case 4:
		return (uint32_t)(ISAL_DEF_LVL4_DEFAULT);
	case 5:
		return (uint32_t)(ISAL_DEF_LVL5_DEFAULT);
	case 6:
		return (uint32_t)(ISAL_DEF_LVL6_DEFAULT);
	case 7:
		return (uint32_t)(ISAL_DEF_LVL7_DEFAULT);
	case 8:
		return (uint32_t)(ISAL_DEF_LVL8_DEFAULT);
	case 9:
		return (uint32_t)(ISAL_DEF_LVL9_DEFAULT);
	case 10:
		return (uint32_t)(ISAL_DEF_LVL10_DEFAULT);
	case 11:
		return (uint32_t)(ISAL_DEF_LVL11_DEFAULT);
	case 12:
		return (uint32_t)(ISAL_DEF_LVL12_DEFAULT);
#endif
	default:
		return level > 3 ? (uint32_t)LEVEL_BUF_HIGH : 0;
	}
}

/* Results. */

/* A cheap fingerprint of an output: its length and 512 words sampled across it. */
MAYBE_UNUSED static uint64_t fingerprint(const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull ^ len;
	if (len >= 8)
		for (size_t i = 0; i < 512; i++) {
			uint64_t w;
			memcpy(&w, p + (len - 8) / 511 * i, 8);
			h = (h ^ w) * 0x100000001b3ull;
			h ^= h >> 29;
		}
	else
		for (size_t i = 0; i < len; i++)
			h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}


/* The first call of each implementation on each thread is checked in full. */
static _Thread_local perf_fn verified_fn;
static _Thread_local unsigned long verified_generation;

MAYBE_UNUSED static int needs_verify(const struct perf_call *c)
{
	const struct igz_state *st = c->state;
	if (verified_fn == c->fn && verified_generation == st->generation)
		return 0;
	verified_fn = c->fn;
	verified_generation = st->generation;
	return 1;
}

MAYBE_UNUSED static uint64_t inflate_result(const struct perf_call *c, int ok, size_t out_len)
{
	const struct igz_state *st = c->state;
	if (!ok || out_len != st->len)
		return PERF_BAD_RESULT;
	if (needs_verify(c) && memcmp(c->mem, st->orig, st->len)) {
		fprintf(stderr, "stoa_perf: %s %s: output differs from the input\n",
		        st->spec ? form_names[st->spec->arg] : "", inputs[st->spec->input].name);
		return PERF_BAD_RESULT;
	}
	return fingerprint(c->mem, out_len);
}

/* Inflates a deflate (raw or gzip) stream with zlib and compares it with the input. */
MAYBE_UNUSED static int deflate_output_ok(const struct igz_state *st, const uint8_t *comp,
                                          size_t comp_len, int gzip)
{
#ifdef PERF_HAVE_ZLIB
	uint8_t *back = malloc(st->len + 1);
	z_stream z;
	memset(&z, 0, sizeof(z));
	int ok = back && inflateInit2(&z, gzip ? 31 : -15) == Z_OK;
	if (ok) {
		int ret = Z_OK;
		size_t in_at = 0;
		z.next_out = back;
		z.avail_out = (uInt)(st->len + 1);
		while (ret == Z_OK) {
			uInt n =
			    comp_len - in_at > (1u << 30) ? (1u << 30) : (uInt)(comp_len - in_at);
			z.next_in = (Bytef *)(uintptr_t)(comp + in_at);
			z.avail_in = n;
			ret = inflate(&z, Z_FINISH);
			in_at += n - z.avail_in;
			if (ret == Z_BUF_ERROR && in_at < comp_len && z.avail_out)
				ret = Z_OK;
		}
		ok = ret == Z_STREAM_END && z.total_out == st->len &&
		     memcmp(back, st->orig, st->len) == 0;
		inflateEnd(&z);
	}
	free(back);
	return ok;
#else
	(void)st, (void)comp, (void)comp_len, (void)gzip;
	return 1;
#endif
}

/* The streaming runs' feeding: the length of the next piece of a total-byte buffer given
 * chunk bytes at a time (0 once all is given), with *at moved past it. */
MAYBE_UNUSED static size_t next_piece(size_t total, size_t *at, size_t chunk)
{
	size_t n = total - *at;
	n = n < chunk ? n : chunk;
	*at += n;
	return n;
}

MAYBE_UNUSED static uint64_t deflate_result(const struct perf_call *c, int ok, size_t comp_len,
                                            int gzip, const char *who)
{
	const struct igz_state *st = c->state;
	if (!ok)
		return PERF_BAD_RESULT;
	if (needs_verify(c) && !deflate_output_ok(st, c->mem, comp_len, gzip)) {
		fprintf(stderr, "stoa_perf: %s %s level %d: output does not inflate to the input\n",
		        who, inputs[st->spec->input].name, st->spec->arg);
		return PERF_BAD_RESULT;
	}
	return comp_len;
}

/* Inflate through the ISA-L API. */

#if HAVE_INFLATE
typedef int inflate_fn(struct inflate_state *state);

static int is_gzip(const struct igz_state *st)
{
	return st->spec->arg == GZIP6;
}

static uint64_t run_inflate_stateless(const struct perf_call *c, uint64_t calls)
{
	inflate_fn *f = (inflate_fn *)c->fn;
	const struct igz_state *st = c->state;
	struct inflate_state *s = istate_of(c);
	__typeof__(&isal_inflate_init) init = PERF_LIB_CALL(isal_inflate_init);
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++) {
		size_t out = 0;
		int ok = 1;
		for (size_t k = 0; k < st->npieces; k++) {
			init(s);
			s->next_in = st->comp + st->piece_at[k];
			s->avail_in = (uint32_t)(st->piece_at[k + 1] - st->piece_at[k]);
			s->next_out = c->mem + out;
			s->avail_out = (uint32_t)(st->len - out);
			s->crc_flag = is_gzip(st) ? ISAL_GZIP : ISAL_DEFLATE;
			ok &= f(s) == ISAL_DECOMP_OK;
			out += s->total_out;
		}
		acc += c->check ? inflate_result(c, ok, out) : out;
	}
	return acc;
}

/* isal_inflate fed INFLATE_IN_CHUNK bytes of input and INFLATE_OUT_CHUNK bytes of room at a
 * time, as a program reading a file in pieces would. */
static uint64_t run_inflate_stream(const struct perf_call *c, uint64_t calls)
{
	inflate_fn *f = (inflate_fn *)c->fn;
	const struct igz_state *st = c->state;
	struct inflate_state *s = istate_of(c);
	__typeof__(&isal_inflate_init) init = PERF_LIB_CALL(isal_inflate_init);
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++) {
		size_t in_at = 0, out_at = 0;
		int ok = 0;
		init(s);
		s->crc_flag = is_gzip(st) ? ISAL_GZIP : ISAL_DEFLATE;
		s->avail_in = 0;
		s->avail_out = 0;
		for (;;) {
			if (!s->avail_in && in_at < st->comp_len) {
				s->next_in = st->comp + in_at;
				s->avail_in =
				    (uint32_t)next_piece(st->comp_len, &in_at, INFLATE_IN_CHUNK);
			}
			if (!s->avail_out) {
				s->next_out = c->mem + out_at;
				s->avail_out =
				    (uint32_t)next_piece(st->len, &out_at, INFLATE_OUT_CHUNK);
			}
			uint32_t before_in = s->avail_in, before_out = s->avail_out;
			if (f(s) != ISAL_DECOMP_OK)
				break;
			if (s->block_state == ISAL_BLOCK_FINISH) {
				ok = 1;
				break;
			}
			/* No progress and nothing more to give: a truncated or oversized stream. */
			if (s->avail_in == before_in && s->avail_out == before_out &&
			    (in_at == st->comp_len || !s->avail_out))
				break;
		}
		acc += c->check ? inflate_result(c, ok, s->total_out) : s->total_out;
	}
	return acc;
}
#endif

/* Inflate peers (stoa build only). */

#if HAVE_INFLATE && defined(PERF_LIB_STOA) && defined(PERF_HAVE_ZLIB)
/* One z_stream per thread, reset per call, as a program decompressing many streams keeps one. */
static _Thread_local z_stream zinf;
static _Thread_local int zinf_bits;

static z_stream *zlib_inflater(int gzip)
{
	int bits = gzip ? 31 : -15;
	if (!zinf_bits) {
		memset(&zinf, 0, sizeof(zinf));
		if (inflateInit2(&zinf, bits) != Z_OK)
			return NULL;
	} else if (inflateReset2(&zinf, bits) != Z_OK) {
		return NULL;
	}
	zinf_bits = bits;
	return &zinf;
}

static uint64_t run_zlib_inflate(const struct perf_call *c, uint64_t calls)
{
	const struct igz_state *st = c->state;
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++) {
		size_t out = 0;
		int ok = 1;
		for (size_t k = 0; k < st->npieces; k++) {
			z_stream *z = zlib_inflater(is_gzip(st));
			if (!z) {
				ok = 0;
				break;
			}
			z->next_in = st->comp + st->piece_at[k];
			z->avail_in = (uInt)(st->piece_at[k + 1] - st->piece_at[k]);
			z->next_out = c->mem + out;
			z->avail_out = (uInt)(st->len - out);
			ok &= inflate(z, Z_FINISH) == Z_STREAM_END;
			out += z->total_out;
		}
		acc += c->check ? inflate_result(c, ok, out) : out;
	}
	return acc;
}

static uint64_t run_zlib_inflate_stream(const struct perf_call *c, uint64_t calls)
{
	const struct igz_state *st = c->state;
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++) {
		z_stream *z = zlib_inflater(is_gzip(st));
		int ok = 0, ret = Z_OK;
		size_t in_at = 0, out_at = 0;
		if (z) {
			z->avail_in = 0;
			z->avail_out = 0;
		}
		while (z && ret == Z_OK) {
			if (!z->avail_in && in_at < st->comp_len) {
				z->next_in = st->comp + in_at;
				z->avail_in =
				    (uInt)next_piece(st->comp_len, &in_at, INFLATE_IN_CHUNK);
			}
			if (!z->avail_out) {
				z->next_out = c->mem + out_at;
				z->avail_out =
				    (uInt)next_piece(st->len, &out_at, INFLATE_OUT_CHUNK);
			}
			ret = inflate(z, Z_NO_FLUSH);
			if (ret == Z_STREAM_END)
				ok = 1;
			else if (ret == Z_BUF_ERROR && (z->avail_in || in_at < st->comp_len) &&
			         (z->avail_out || out_at < st->len))
				ret = Z_OK;
		}
		size_t out = z ? (size_t)z->total_out : 0;
		acc += c->check ? inflate_result(c, ok, out) : out;
	}
	return acc;
}
#define ZLIB_INFLATE_PEERS 1
#endif

#if HAVE_INFLATE && defined(PERF_LIB_STOA) && defined(PERF_HAVE_LIBDEFLATE)
static _Thread_local struct libdeflate_decompressor *ld_dec;

static uint64_t run_libdeflate_inflate(const struct perf_call *c, uint64_t calls)
{
	const struct igz_state *st = c->state;
	uint64_t acc = 0;
	if (!ld_dec)
		ld_dec = libdeflate_alloc_decompressor();
	for (uint64_t i = 0; i < calls; i++) {
		size_t out = 0;
		int ok = ld_dec != NULL;
		for (size_t k = 0; ok && k < st->npieces; k++) {
			const uint8_t *in = st->comp + st->piece_at[k];
			const size_t in_len = st->piece_at[k + 1] - st->piece_at[k];
			size_t got = 0;
			enum libdeflate_result ret =
			    is_gzip(st) ? libdeflate_gzip_decompress(ld_dec, in, in_len, c->mem + out,
			                                             st->len - out, &got)
			                : libdeflate_deflate_decompress(ld_dec, in, in_len,
			                                                c->mem + out, st->len - out,
			                                                &got);
			ok = ret == LIBDEFLATE_SUCCESS;
			out += got;
		}
		acc += c->check ? inflate_result(c, ok, out) : out;
	}
	return acc;
}
#define LIBDEFLATE_INFLATE_PEERS 1
#endif

#if HAVE_INFLATE
static const struct perf_peer inflate_raw_peers[] = {
#ifdef LIBDEFLATE_INFLATE_PEERS
	{ "libdeflate", "deflate_decompress", PERF_FN(libdeflate_deflate_decompress),
	  run_libdeflate_inflate },
#endif
#ifdef ZLIB_INFLATE_PEERS
	{ "zlib", "inflate", PERF_FN(inflate), run_zlib_inflate },
#endif
	{ NULL, NULL, NULL, NULL },
};
static const struct perf_peer inflate_gzip_peers[] = {
#ifdef LIBDEFLATE_INFLATE_PEERS
	{ "libdeflate", "gzip_decompress", PERF_FN(libdeflate_gzip_decompress),
	  run_libdeflate_inflate },
#endif
#ifdef ZLIB_INFLATE_PEERS
	{ "zlib", "inflate", PERF_FN(inflate), run_zlib_inflate },
#endif
	{ NULL, NULL, NULL, NULL },
};
static const struct perf_peer inflate_stream_peers[] = {
#ifdef ZLIB_INFLATE_PEERS
	{ "zlib", "inflate", PERF_FN(inflate), run_zlib_inflate_stream },
#endif
	{ NULL, NULL, NULL, NULL },
};
/* The arrays end in a sentinel so none is empty; the counts leave it out. */
#define NPEERS(a) (PERF_COUNT(a) - 1)
#endif

/* Deflate through the ISA-L API. */

#if HAVE_DEFLATE
typedef int deflate_fn(struct isal_zstream *stream);

static void set_level(const struct perf_call *c, struct isal_zstream *z, int level)
{
	z->level = (uint32_t)level;
	z->level_buf = level ? level_buf_of(c) : NULL;
	z->level_buf_size = level_buf_size(level);
}

static uint64_t run_deflate_stateless(const struct perf_call *c, uint64_t calls)
{
	deflate_fn *f = (deflate_fn *)c->fn;
	const struct igz_state *st = c->state;
	struct isal_zstream *z = zstream_of(c);
	__typeof__(&isal_deflate_stateless_init) init = PERF_LIB_CALL(isal_deflate_stateless_init);
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++) {
		init(z);
		set_level(c, z, st->spec->arg);
		z->gzip_flag = IGZIP_DEFLATE;
		z->flush = NO_FLUSH;
		z->end_of_stream = 1;
		z->next_in = st->orig;
		z->avail_in = (uint32_t)st->len;
		z->next_out = c->mem;
		z->avail_out = (uint32_t)out_cap(c->size);
		int ret = f(z);
		acc += c->check ? deflate_result(c, ret == COMP_OK, z->total_out, 0,
		                                 "isal_deflate_stateless")
		                : z->total_out;
	}
	return acc;
}

/* isal_deflate given DEFLATE_IN_CHUNK bytes at a time and all the output room, writing gzip. */
static uint64_t run_deflate_stream(const struct perf_call *c, uint64_t calls)
{
	deflate_fn *f = (deflate_fn *)c->fn;
	const struct igz_state *st = c->state;
	struct isal_zstream *z = zstream_of(c);
	__typeof__(&isal_deflate_init) init = PERF_LIB_CALL(isal_deflate_init);
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++) {
		init(z);
		set_level(c, z, st->spec->arg);
		z->gzip_flag = IGZIP_GZIP;
		z->flush = NO_FLUSH;
		z->next_in = NULL;
		z->avail_in = 0;
		z->next_out = c->mem;
		z->avail_out = (uint32_t)out_cap(c->size);
		size_t in_at = 0;
		int ok = 1;
		/* Each chunk may take a few calls; the bound only stops a broken encoder. */
		for (size_t guard = 0; ok && guard < st->len / 1024 + 1024; guard++) {
			if (!z->avail_in && in_at < st->len) {
				z->next_in = st->orig + in_at;
				z->avail_in =
				    (uint32_t)next_piece(st->len, &in_at, DEFLATE_IN_CHUNK);
				z->end_of_stream = in_at == st->len;
			}
			ok = f(z) == COMP_OK;
			if (z->internal_state.state == ZSTATE_END)
				break;
		}
		ok &= z->internal_state.state == ZSTATE_END;
		acc += c->check ? deflate_result(c, ok, z->total_out, 1, "isal_deflate")
		                : z->total_out;
	}
	return acc;
}
#endif

/* Deflate peers: cases of their own (stoa build only). */

#ifdef PERF_LIB_STOA
#ifdef PERF_HAVE_ZLIB
/* One raw-deflate z_stream per thread and level, reset per call. */
static _Thread_local z_stream zdef[10];
static _Thread_local int zdef_ready[10];

static uint64_t run_zlib_deflate(const struct perf_call *c, uint64_t calls)
{
	const struct igz_state *st = c->state;
	int level = st->spec->arg;
	uint64_t acc = 0;
	z_stream *z = &zdef[level];
	if (!zdef_ready[level]) {
		memset(z, 0, sizeof(*z));
		zdef_ready[level] =
		    deflateInit2(z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
	}
	for (uint64_t i = 0; i < calls; i++) {
		int ok = zdef_ready[level] && deflateReset(z) == Z_OK;
		if (ok) {
			z->next_in = st->orig;
			z->avail_in = (uInt)st->len;
			z->next_out = c->mem;
			z->avail_out = (uInt)out_cap(c->size);
			ok = deflate(z, Z_FINISH) == Z_STREAM_END;
		}
		size_t out = ok ? (size_t)z->total_out : 0;
		acc += c->check ? deflate_result(c, ok, out, 0, "zlib deflate") : out;
	}
	return acc;
}
#endif

#ifdef PERF_HAVE_LIBDEFLATE
static _Thread_local struct libdeflate_compressor *ld_comp[13];

static uint64_t run_libdeflate_deflate(const struct perf_call *c, uint64_t calls)
{
	const struct igz_state *st = c->state;
	int level = st->spec->arg;
	uint64_t acc = 0;
	if (!ld_comp[level])
		ld_comp[level] = libdeflate_alloc_compressor(level);
	for (uint64_t i = 0; i < calls; i++) {
		size_t out = ld_comp[level]
		                 ? libdeflate_deflate_compress(ld_comp[level], st->orig, st->len,
		                                               c->mem, out_cap(c->size))
		                 : 0;
		acc += c->check ? deflate_result(c, out != 0, out, 0, "libdeflate") : out;
	}
	return acc;
}
#endif
#endif

/* Preparing a case: its input at the requested size, compressed for inflate. */

static unsigned long generations;

#if HAVE_INFLATE
/* Compresses for an inflate case; NULL when the library for the form is not built in. */
static uint8_t *compress_form(enum form form, const uint8_t *in, size_t len, size_t *out_len);

/* Compresses an inflate case's input into st->comp, in pieces for the pieces forms; 0 when the
 * form's library is not built in. */
static int compress_pieces(struct igz_state *st, enum form form)
{
	const int pieces = form >= PIECES1;
	const size_t n = pieces ? (st->len + PIECE - 1) / PIECE : 1;
	static const enum form whole[] = { [PIECES1] = ZLIB1, [PIECES6] = ZLIB6, [PIECES9] = ZLIB9 };
	const size_t cap = out_cap(st->len) + n * 64;
	st->piece_at = calloc(n + 1, sizeof(*st->piece_at));
	st->comp = malloc(cap);
	if (!st->piece_at || !st->comp)
		return 0;
	st->npieces = n;
	for (size_t k = 0; k < n; k++) {
		const size_t at = k * PIECE, len = pieces && st->len - at > PIECE ? PIECE : st->len - at;
		size_t clen = 0;
		uint8_t *c = compress_form(pieces ? whole[form] : form, st->orig + at, len, &clen);
		if (c && clen > cap - st->piece_at[k]) {
			free(c);
			c = NULL;
		}
		if (!c)
			return 0;
		memcpy(st->comp + st->piece_at[k], c, clen);
		st->piece_at[k + 1] = st->piece_at[k] + clen;
		free(c);
	}
	st->comp_len = st->piece_at[n];
	return 1;
}

static uint8_t *compress_form(enum form form, const uint8_t *in, size_t len, size_t *out_len)
{
	size_t cap = out_cap(len);
	uint8_t *out = malloc(cap);
	if (!out)
		return NULL;
	if (form == LIBDEFLATE6) {
#ifdef PERF_HAVE_LIBDEFLATE
		struct libdeflate_compressor *ld = libdeflate_alloc_compressor(6);
		*out_len = ld ? libdeflate_deflate_compress(ld, in, len, out, cap) : 0;
		libdeflate_free_compressor(ld);
		if (*out_len)
			return out;
#endif
		free(out);
		return NULL;
	}
#ifdef PERF_HAVE_ZLIB
	static const int levels[NFORMS] = { 1, 6, 9, 0, 6 };
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, levels[form], Z_DEFLATED, form == GZIP6 ? 31 : -15, 8,
	                 Z_DEFAULT_STRATEGY) == Z_OK) {
		z.next_in = (Bytef *)(uintptr_t)in;
		z.avail_in = (uInt)len;
		z.next_out = out;
		z.avail_out = (uInt)cap;
		int ret = deflate(&z, Z_FINISH);
		*out_len = z.total_out;
		deflateEnd(&z);
		if (ret == Z_STREAM_END)
			return out;
	}
#else
	(void)in, (void)len, (void)out_len;
#endif
	free(out);
	return NULL;
}
#endif

static void release_state(void *p)
{
	struct igz_state *st = p;
	if (!st)
		return;
	free(st->orig);
	free(st->comp);
	free(st->piece_at);
	free(st);
}

static void *prepare_spec(int idx, size_t size)
{
	const struct spec *sp = &specs[idx];
	struct igz_state *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->spec = sp;
	st->len = size;
	st->generation = ++generations;
	st->orig = load_input(sp->input, size);
	if (!st->orig)
		goto fail;
#if HAVE_INFLATE
	if ((sp->op == INFLATE_STATELESS || sp->op == INFLATE_STREAM) &&
	    !compress_pieces(st, (enum form)sp->arg))
		goto fail;
#endif
	return st;
fail:
	fprintf(stderr, "stoa_perf: cannot prepare %s (%s)\n", params[idx], "input unreadable");
	release_state(st);
	exit(2);
}

/* One prepare function per case (the driver hands prepare only the size), generated. */
#define PREP_ONE(a, b, c)                                                                          \
	static void *prep_##a##b##c(size_t size)                                                   \
	{                                                                                          \
		return prepare_spec((a)*100 + (b)*10 + (c), size);                                 \
	}
#define PREP_PTR(a, b, c) prep_##a##b##c,
#define REP10(m, a, b)                                                                             \
	m(a, b, 0) m(a, b, 1) m(a, b, 2) m(a, b, 3) m(a, b, 4) m(a, b, 5) m(a, b, 6) m(a, b, 7)    \
	    m(a, b, 8) m(a, b, 9)
#define REP100(m, a)                                                                               \
	REP10(m, a, 0)                                                                             \
	REP10(m, a, 1) REP10(m, a, 2) REP10(m, a, 3) REP10(m, a, 4) REP10(m, a, 5) REP10(m, a, 6)  \
	    REP10(m, a, 7) REP10(m, a, 8) REP10(m, a, 9)
#define REP1000(m)                                                                                 \
	REP100(m, 0)                                                                               \
	REP100(m, 1) REP100(m, 2) REP100(m, 3) REP100(m, 4) REP100(m, 5) REP100(m, 6) REP100(m, 7) \
	    REP100(m, 8) REP100(m, 9)
REP1000(PREP_ONE)
static void *(*const prep_fns[MAX_CASES])(size_t) = { REP1000(PREP_PTR) };

/* Setup when the program starts: find the inputs, then describe every case. */

static uint64_t run_nothing(const struct perf_call *c, uint64_t calls)
{
	(void)c;
	return calls;
}

static void add_case(size_t *n, enum op op, int input, int arg)
{
	static const char *const functions[] = {
		"isal_inflate_stateless", "isal_inflate", "isal_deflate_stateless",
		"isal_deflate",           "zlib_deflate", "libdeflate_deflate_compress"
	};
	static const char *const bytes[] = { "decompressed bytes", "decompressed bytes",
		                             "input bytes",        "input bytes",
		                             "input bytes",        "input bytes" };
	size_t i = (*n)++;
	specs[i] = (struct spec){ op, input, arg };
	const struct input *in = &inputs[input];
	if (op == INFLATE_STATELESS || op == INFLATE_STREAM)
		snprintf(params[i], sizeof(params[i]), "%s %s", in->name, form_names[arg]);
	else
		snprintf(params[i], sizeof(params[i]), "%s level=%d", in->name, arg);
	struct perf_case *pc = &igzip_cases[i];
	*pc = (struct perf_case){ .module = "igzip",
		                  .function = functions[op],
		                  .params = params[i],
		                  .bytes = bytes[op],
		                  .footprint = igzip_footprint,
		                  .prepare = prep_fns[i],
		                  .release = release_state,
		                  .sizes = in->sizes };
	/* A quick run: every file for one-call inflate and deflate at levels 0-3, the
	 * concatenations and a shorter mix for the rest. */
	static const size_t none[] = { 0 }, quick_mix[] = { QUICK_MIX_LEN, 0 };
	/* Levels above ISA-L's, through ISA-L's API (zlib's and libdeflate's levels are theirs). */
	const int isal_api = op == DEFLATE_STATELESS || op == DEFLATE_STREAM;
	const int high = isal_api && arg > 3;
	if (input == IN_MIX)
		pc->quick_sizes = quick_mix;
	else if (input < IN_CAT0 && ((op != INFLATE_STATELESS && op != DEFLATE_STATELESS) || high))
		pc->quick_sizes = none;
	else if (op >= ZLIB_DEFLATE && arg != 1 && arg != 6)
		pc->quick_sizes = none;
	/* STOA_PERF_IGZIP_HIGH: "skip" leaves the levels above 3 out, "only" runs only them (make
	 * perf_report times them apart: one call of level 9 on canterbury.cat takes 2.5 s here). */
	const char *hl = getenv("STOA_PERF_IGZIP_HIGH");
	if (hl && isal_api && (high ? strcmp(hl, "skip") == 0 : strcmp(hl, "only") == 0))
		pc->sizes = none;
	/* The library a form needs must be there, or the case gets no rows. */
	int usable = 1;
	switch (op) {
#if HAVE_INFLATE
	case INFLATE_STATELESS:
		pc->api = PERF_FN(isal_inflate_stateless);
		pc->run = run_inflate_stateless;
		pc->peers = arg == GZIP6 ? inflate_gzip_peers : inflate_raw_peers;
		pc->npeers = arg == GZIP6 ? NPEERS(inflate_gzip_peers) : NPEERS(inflate_raw_peers);
		break;
	case INFLATE_STREAM:
		pc->api = PERF_FN(isal_inflate);
		pc->run = run_inflate_stream;
		pc->peers = inflate_stream_peers;
		pc->npeers = NPEERS(inflate_stream_peers);
		break;
#endif
#if HAVE_DEFLATE
	case DEFLATE_STATELESS:
		pc->api = PERF_FN(isal_deflate_stateless);
		pc->run = run_deflate_stateless;
		pc->own_output = 1;
		break;
	case DEFLATE_STREAM:
		pc->api = PERF_FN(isal_deflate);
		pc->run = run_deflate_stream;
		pc->own_output = 1;
		break;
#endif
#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_ZLIB)
	case ZLIB_DEFLATE:
		pc->api = PERF_FN(deflate);
		pc->run = run_zlib_deflate;
		break;
#endif
#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_LIBDEFLATE)
	case LIBDEFLATE_DEFLATE:
		pc->api = PERF_FN(libdeflate_deflate_compress);
		pc->run = run_libdeflate_deflate;
		break;
#endif
	default:
		usable = 0;
		break;
	}
	if (!usable) {
		/* A placeholder the driver accepts and never runs: no sizes. */
		pc->api = PERF_FN(release_state);
		pc->run = run_nothing;
		pc->sizes = none;
	}
#ifndef PERF_HAVE_ZLIB
	if (op == INFLATE_STATELESS || op == INFLATE_STREAM)
		usable &= arg == LIBDEFLATE6;
#endif
#ifndef PERF_HAVE_LIBDEFLATE
	if (op == INFLATE_STATELESS || op == INFLATE_STREAM)
		usable &= arg != LIBDEFLATE6;
#endif
	/* The pieces run one call each, stateless only. */
	if (op == INFLATE_STREAM && arg >= PIECES1)
		usable = 0;
	if (!usable)
		pc->sizes = none;
}

__attribute__((constructor)) static void igzip_setup(void)
{
	find_inputs();

	size_t n = 0;
	for (int op = INFLATE_STATELESS; HAVE_INFLATE && op <= INFLATE_STREAM; op++) {
		for (int i = 0; i < IN_CAT0; i++)
			add_case(&n, (enum op)op, i, ZLIB6);
		for (int i = IN_CAT0; i < IN_MIX; i++)
			for (int f = 0; f < NFORMS; f++)
				add_case(&n, (enum op)op, i, f);
	}
	for (int op = DEFLATE_STATELESS; HAVE_DEFLATE && op <= DEFLATE_STREAM; op++)
		for (int i = 0; i < NINPUTS; i++)
			for (int level = 0; level <= 3; level++)
				add_case(&n, (enum op)op, i, level);
	for (int i = 0; HAVE_DEFLATE && i < NINPUTS; i++)
		for (int level = 4; level <= 3 + HIGH_LEVELS; level++)
			add_case(&n, DEFLATE_STATELESS, i, level);
	for (int i = IN_CAT0; HAVE_DEFLATE && i < IN_MIX; i++)
		for (int level = 10; level <= 9 + OPT_LEVELS; level++)
			add_case(&n, DEFLATE_STATELESS, i, level);
#ifdef PERF_LIB_STOA
	for (int op = ZLIB_DEFLATE; op <= LIBDEFLATE_DEFLATE; op++) {
		for (int i = 0; i < NINPUTS; i++) {
			add_case(&n, (enum op)op, i, 1);
			add_case(&n, (enum op)op, i, 6);
		}
		const int top = op == ZLIB_DEFLATE ? 9 : 12;
		for (int i = IN_CAT0; i < IN_MIX; i++)
			for (int level = 2; level <= top; level++)
				if (level != 6)
					add_case(&n, (enum op)op, i, level);
	}
#endif
	if (n != N_CASES) {
		fprintf(stderr, "stoa_perf: igzip registry holds %zu cases, expected %d\n", n,
		        N_CASES);
		exit(2);
	}
}

const struct perf_module perf_module_igzip = { "igzip", igzip_cases, N_CASES };
