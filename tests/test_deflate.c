/* Deflate (compressor) tests, written against the public igzip_lib.h API only.
 *
 * Every stream the compressor makes is decoded by three independent decoders: zlib, the library's
 * own isal_inflate, and a small bit-at-a-time reference decoder in this file, which also reports
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
 * The source builds against stoa (make tests) and, for checking the tests themselves, against
 * Debian's ISA-L: cc -std=c11 -D_DEFAULT_SOURCE -DAGAINST_SYSTEM -Itests tests/test_deflate.c
 * tests/testutil.c -lisal -lcmocka -lz. Everything random comes from test_rand() (STOA_SEED=N repeats a run);
 * STOA_CORPUS=dir points at a directory holding calgary/ and canterbury/. */
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
#ifndef AGAINST_SYSTEM
#include "oracle.h"
#endif
#include "testutil.h"

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

#define KIB 1024u
#define MIB (1024u * 1024u)

/* ---- small helpers ------------------------------------------------------------------------ */

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "test_deflate: out of memory (%zu bytes)\n", n);
		abort();
	}
	return q;
}

static void *xmalloc(size_t n)
{
	return xrealloc(NULL, n);
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* zlib's crc32 or adler32 over any length, fed in pieces its uInt length can hold. */
static uint32_t zsum(uLong (*sum)(uLong, const Bytef *, uInt), const uint8_t *p, size_t n)
{
	uLong c = sum(0L, Z_NULL, 0);
	while (n) {
		uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
		c = sum(c, p, k);
		p += k;
		n -= k;
	}
	return (uint32_t)c;
}

static uint32_t zcrc32(const uint8_t *p, size_t n)
{
	return zsum(crc32, p, n);
}

static uint32_t zadler32(const uint8_t *p, size_t n)
{
	return zsum(adler32, p, n);
}

/* ---- test data ---------------------------------------------------------------------------- */

struct dataset {
	char name[64];
	uint8_t *data;
	size_t len;
};

#define MAX_FILES 64
static struct dataset files[MAX_FILES];
static size_t n_files;
static char corpus_root[512];

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_dir(const char *root, const char *sub)
{
	char dir[700];
	snprintf(dir, sizeof(dir), "%s/%s", root, sub);
	DIR *d = opendir(dir);
	if (!d)
		return;
	char *names[MAX_FILES];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < MAX_FILES) {
		if (e->d_name[0] == '.')
			continue;
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_names);
	for (size_t i = 0; i < n; i++) {
		char path[1000];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		struct stat st;
		FILE *f = fopen(path, "rb");
		if (f && n_files < MAX_FILES && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
			struct dataset *ds = &files[n_files];
			ds->len = (size_t)st.st_size;
			ds->data = xmalloc(ds->len);
			if (fread(ds->data, 1, ds->len, f) == ds->len) {
				snprintf(ds->name, sizeof(ds->name), "%s/%s", sub, names[i]);
				n_files++;
			} else {
				free(ds->data);
			}
		}
		if (f)
			fclose(f);
		free(names[i]);
	}
}

/* Text-like data with repeats at every distance, for machines without the corpus. */
static void synth_file(const char *name, size_t len, int kind)
{
	struct dataset *ds = &files[n_files++];
	snprintf(ds->name, sizeof(ds->name), "generated/%s", name);
	ds->len = len;
	ds->data = xmalloc(len);
	static const char *words[] = { "the ", "deflate ", "stream ", "of ", "bytes ",
		                       "window ", "match ", "literal ", "block ", "\n" };
	size_t i = 0;
	while (i < len) {
		if (kind == 0) {
			const char *w = words[test_rand_below(10)];
			size_t n = strlen(w);
			for (size_t k = 0; k < n && i < len; k++)
				ds->data[i++] = (uint8_t)w[k];
		} else if (i > 100 && test_rand_below(4) == 0) {
			size_t dist = 1 + test_rand_below(i < 32768 ? i : 32768);
			size_t n = 3 + test_rand_below(300);
			for (size_t k = 0; k < n && i < len; k++, i++)
				ds->data[i] = ds->data[i - dist];
		} else {
			ds->data[i++] = (uint8_t)test_rand();
		}
	}
}

static void load_corpus(void)
{
	const char *env = getenv("STOA_CORPUS");
	const char *roots[] = { env, "../shared/corpus", "/work/shared/corpus" };
	for (size_t r = 0; r < 3 && n_files == 0; r++) {
		if (!roots[r] || !*roots[r])
			continue;
		load_dir(roots[r], "calgary");
		load_dir(roots[r], "canterbury");
		if (n_files)
			snprintf(corpus_root, sizeof(corpus_root), "%s", roots[r]);
	}
	if (n_files == 0) {
		printf("corpus not found (set STOA_CORPUS): using generated data instead\n");
		synth_file("text1", 60000, 0);
		synth_file("mixed1", 40000, 1);
		synth_file("text2", 200000, 0);
		synth_file("mixed2", 300000, 1);
		snprintf(corpus_root, sizeof(corpus_root), "(generated)");
	}
}

static const struct dataset *find_file(const char *suffix)
{
	for (size_t i = 0; i < n_files; i++) {
		size_t a = strlen(files[i].name), b = strlen(suffix);
		if (a >= b && strcmp(files[i].name + a - b, suffix) == 0)
			return &files[i];
	}
	return NULL;
}

/* The text the dictionary tests draw from: alice29.txt, else the last file loaded. */
static const struct dataset *dict_text(void)
{
	const struct dataset *ds = find_file("/alice29.txt");
	return ds ? ds : &files[n_files - 1];
}

/* The three files that get the whole parameter matrix: text, object code, and a binary. */
static const struct dataset *matrix_file(int i)
{
	static const char *names[] = { "/paper1", "/obj1", "/sum" };
	const struct dataset *d = find_file(names[i]);
	return d ? d : &files[(size_t)i % n_files];
}

/* ---- reference decoder (RFC 1951), bit at a time ------------------------------------------ */

struct ref_stats {
	size_t blocks[3]; /* stored, fixed, dynamic */
	unsigned max_dist;
	unsigned max_len;
	size_t n_len258;
	size_t n_dist32768;
	size_t in_used; /* bytes of input up to the end of the final block */
};

struct bitin {
	const uint8_t *p;
	size_t len, pos;
	uint32_t bits;
	int nbits;
	int err;
};

static unsigned getbits(struct bitin *b, int n)
{
	uint32_t v = b->bits;
	while (b->nbits < n) {
		if (b->pos >= b->len) {
			b->err = 1;
			return 0;
		}
		v |= (uint32_t)b->p[b->pos++] << b->nbits;
		b->nbits += 8;
	}
	b->bits = (uint32_t)((uint64_t)v >> n);
	b->nbits -= n;
	return v & ((1u << n) - 1);
}

struct canon {
	uint16_t count[16]; /* codes of each length */
	uint16_t symbol[288]; /* symbols ordered by code */
};

/* Returns -1 for an over-subscribed set of lengths; incomplete sets are accepted here (zlib is
 * the strict judge of completeness). */
static int canon_build(struct canon *h, const uint8_t *lens, int n)
{
	uint16_t next[16];
	memset(h->count, 0, sizeof(h->count));
	for (int i = 0; i < n; i++)
		h->count[lens[i]]++;
	h->count[0] = 0;
	int room = 1;
	for (int l = 1; l < 16; l++) {
		room = room * 2 - h->count[l];
		if (room < 0)
			return -1;
	}
	next[1] = 0;
	for (int l = 1; l < 15; l++)
		next[l + 1] = (uint16_t)(next[l] + h->count[l]);
	for (int i = 0; i < n; i++)
		if (lens[i])
			h->symbol[next[lens[i]]++] = (uint16_t)i;
	return 0;
}

/* Codes are sent most significant bit first: grow the code a bit at a time and compare with the
 * first code of each length. */
static int canon_decode(struct bitin *b, const struct canon *h)
{
	int code = 0, first = 0, index = 0;
	for (int l = 1; l < 16; l++) {
		code |= (int)getbits(b, 1);
		if (b->err)
			return -1;
		int c = h->count[l];
		if (code - first < c)
			return h->symbol[index + code - first];
		index += c;
		first = (first + c) << 1;
		code <<= 1;
	}
	return -1;
}

/* Decodes raw deflate from in into out[hist_len..] where out[0..hist_len) is preset history (a
 * dictionary). Returns the number of bytes produced, or -1 with *why set. */
static long ref_inflate(const uint8_t *in, size_t in_len, uint8_t *out, size_t hist_len,
			size_t out_cap, struct ref_stats *st, const char **why)
{
	static const uint8_t clen_order[19] = { 16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
		                                11, 4,  12, 3, 13, 2, 14, 1, 15 };
	static const uint16_t lbase[29] = { 3,  4,  5,  6,  7,  8,  9,  10,  11,  13,
		                            15, 17, 19, 23, 27, 31, 35, 43,  51,  59,
		                            67, 83, 99, 115, 131, 163, 195, 227, 258 };
	static const uint8_t lextra[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
		                            2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
	static const uint16_t dbase[30] = { 1,    2,    3,    4,    5,    7,     9,     13,
		                            17,   25,   33,   49,   65,   97,    129,   193,
		                            257,  385,  513,  769,  1025, 1537,  2049,  3073,
		                            4097, 6145, 8193, 12289, 16385, 24577 };
	struct bitin b = { in, in_len, 0, 0, 0, 0 };
	struct canon lit, dist;
	uint8_t lens[320];
	size_t o = hist_len;
	int final = 0;
	memset(st, 0, sizeof(*st));
	*why = "ok";
	while (!final) {
		final = (int)getbits(&b, 1);
		unsigned type = getbits(&b, 2);
		if (b.err) {
			*why = "input ends in a block header";
			return -1;
		}
		if (type == 3) {
			*why = "block type 3";
			return -1;
		}
		st->blocks[type]++;
		if (type == 0) {
			b.bits = 0;
			b.nbits = 0;
			if (b.pos + 4 > b.len) {
				*why = "input ends in a stored block header";
				return -1;
			}
			unsigned n = b.p[b.pos] | (unsigned)b.p[b.pos + 1] << 8;
			unsigned nc = b.p[b.pos + 2] | (unsigned)b.p[b.pos + 3] << 8;
			b.pos += 4;
			if (n != (~nc & 0xffffu)) {
				*why = "stored block LEN != ~NLEN";
				return -1;
			}
			if (b.pos + n > b.len || o + n > out_cap) {
				*why = "stored block overruns input or output";
				return -1;
			}
			memcpy(out + o, b.p + b.pos, n);
			b.pos += n;
			o += n;
			continue;
		}
		if (type == 1) {
			int i = 0;
			for (; i < 144; i++)
				lens[i] = 8;
			for (; i < 256; i++)
				lens[i] = 9;
			for (; i < 280; i++)
				lens[i] = 7;
			for (; i < 288; i++)
				lens[i] = 8;
			canon_build(&lit, lens, 288);
			for (i = 0; i < 30; i++)
				lens[i] = 5;
			canon_build(&dist, lens, 30);
		} else {
			int nlit = (int)getbits(&b, 5) + 257;
			int ndist = (int)getbits(&b, 5) + 1;
			int nclen = (int)getbits(&b, 4) + 4;
			uint8_t clens[19] = { 0 };
			for (int i = 0; i < nclen; i++)
				clens[clen_order[i]] = (uint8_t)getbits(&b, 3);
			struct canon cl;
			if (b.err || nlit > 286 || ndist > 30 || canon_build(&cl, clens, 19) < 0) {
				*why = "bad dynamic header counts or code-length code";
				return -1;
			}
			int i = 0;
			while (i < nlit + ndist) {
				int sym = canon_decode(&b, &cl);
				int rep = 0;
				uint8_t val = 0;
				if (sym < 0) {
					*why = "bad code-length symbol";
					return -1;
				}
				if (sym < 16) {
					lens[i++] = (uint8_t)sym;
					continue;
				}
				if (sym == 16) {
					if (i == 0) {
						*why = "repeat with no previous length";
						return -1;
					}
					val = lens[i - 1];
					rep = 3 + (int)getbits(&b, 2);
				} else if (sym == 17) {
					rep = 3 + (int)getbits(&b, 3);
				} else {
					rep = 11 + (int)getbits(&b, 7);
				}
				if (b.err || i + rep > nlit + ndist) {
					*why = "code lengths overrun the header";
					return -1;
				}
				while (rep--)
					lens[i++] = val;
			}
			if (lens[256] == 0) {
				*why = "no end-of-block code";
				return -1;
			}
			if (canon_build(&lit, lens, nlit) < 0 ||
			    canon_build(&dist, lens + nlit, ndist) < 0) {
				*why = "over-subscribed literal/length or distance code";
				return -1;
			}
		}
		for (;;) {
			int sym = canon_decode(&b, &lit);
			if (sym < 0) {
				*why = "bad literal/length code";
				return -1;
			}
			if (sym < 256) {
				if (o >= out_cap) {
					*why = "output overrun";
					return -1;
				}
				out[o++] = (uint8_t)sym;
				continue;
			}
			if (sym == 256)
				break;
			sym -= 257;
			if (sym >= 29) {
				*why = "length symbol 286/287";
				return -1;
			}
			unsigned len = lbase[sym] + getbits(&b, lextra[sym]);
			int ds = canon_decode(&b, &dist);
			if (ds < 0 || ds >= 30) {
				*why = "bad distance code";
				return -1;
			}
			unsigned d = dbase[ds] + getbits(&b, ds < 4 ? 0 : (ds - 2) / 2);
			if (b.err) {
				*why = "input ends inside a match";
				return -1;
			}
			if (d > o) {
				*why = "distance before the start of the data";
				return -1;
			}
			if (o + len > out_cap) {
				*why = "output overrun";
				return -1;
			}
			if (d > st->max_dist)
				st->max_dist = d;
			if (len > st->max_len)
				st->max_len = len;
			st->n_len258 += len == 258;
			st->n_dist32768 += d == 32768;
			for (unsigned k = 0; k < len; k++, o++)
				out[o] = out[o - d];
		}
	}
	st->in_used = b.pos;
	return (long)(o - hist_len);
}

/* ---- decoders used as oracles ------------------------------------------------------------- */

static char zlib_msg[128]; /* zlib's message for the last zlib_decode */

/* zlib inflate of the whole of in; window_bits as inflateInit2 takes it. Returns zlib's final
 * code (Z_STREAM_END on success) and sets *out_len and *in_used. */
static int zlib_decode(const uint8_t *in, size_t in_len, int window_bits, const uint8_t *dict,
		       size_t dict_len, uint8_t *out, size_t out_cap, size_t *out_len,
		       size_t *in_used, gz_header *gzh)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	int ret = inflateInit2(&z, window_bits);
	if (ret != Z_OK)
		return ret;
	if (gzh)
		inflateGetHeader(&z, gzh);
	if (dict && window_bits < 0)
		inflateSetDictionary(&z, dict, (uInt)dict_len);
	size_t in_pos = 0, out_pos = 0;
	for (;;) {
		size_t ni = in_len - in_pos, no = out_cap - out_pos;
		z.next_in = (Bytef *)(uintptr_t)(in + in_pos);
		z.avail_in = ni > (1u << 30) ? (1u << 30) : (uInt)ni;
		z.next_out = out + out_pos;
		z.avail_out = no > (1u << 30) ? (1u << 30) : (uInt)no;
		uInt ai = z.avail_in, ao = z.avail_out;
		ret = inflate(&z, Z_NO_FLUSH);
		in_pos += ai - z.avail_in;
		out_pos += ao - z.avail_out;
		if (ret == Z_NEED_DICT && dict) {
			ret = inflateSetDictionary(&z, dict, (uInt)dict_len);
			if (ret != Z_OK)
				break;
			continue;
		}
		if (ret != Z_OK)
			break;
		if (ai == z.avail_in && ao == z.avail_out) {
			ret = Z_BUF_ERROR;
			break;
		}
	}
	*out_len = out_pos;
	*in_used = in_pos;
	snprintf(zlib_msg, sizeof(zlib_msg), "%s", z.msg ? z.msg : "no message");
	inflateEnd(&z);
	return ret;
}

/* The library's own decoder, whole buffers in one call. Returns isal_inflate's code, or 100 when
 * the stream did not reach ISAL_BLOCK_FINISH. */
static int isal_decode(const uint8_t *in, size_t in_len, uint32_t crc_flag, uint32_t hist_bits,
		       uint8_t *dict, uint32_t dict_len, uint8_t *out, size_t out_cap,
		       size_t *out_len)
{
	struct inflate_state *st = xmalloc(sizeof(*st));
	isal_inflate_init(st);
	st->crc_flag = crc_flag;
	st->hist_bits = hist_bits;
	int ret = ISAL_DECOMP_OK;
	if (dict)
		ret = isal_inflate_set_dict(st, dict, dict_len);
	st->next_in = (uint8_t *)(uintptr_t)in;
	st->avail_in = (uint32_t)in_len;
	st->next_out = out;
	st->avail_out = (uint32_t)out_cap;
	if (ret == ISAL_DECOMP_OK)
		ret = isal_inflate(st);
	if (ret == ISAL_NEED_DICT && dict) {
		/* A zlib header with FDICT: the dictionary goes in now. */
		ret = isal_inflate_set_dict(st, dict, dict_len);
		if (ret == ISAL_DECOMP_OK)
			ret = isal_inflate(st);
	}
	if (ret == ISAL_DECOMP_OK && st->block_state != ISAL_BLOCK_FINISH)
		ret = 100;
	*out_len = st->total_out;
	free(st);
	return ret;
}

/* ---- the compressor driver ---------------------------------------------------------------- */

enum chunking { CH_WHOLE, CH_ONE, CH_RANDOM, CH_64K, CH_COUNT };
static const char *const chunk_name[] = { "whole", "1-byte", "random", "64KiB" };
static const char *const flush_name[] = { "NO_FLUSH", "SYNC_FLUSH", "FULL_FLUSH" };
static const char *const wrap_name[] = { "deflate", "gzip", "gzip-no-hdr", "zlib", "zlib-no-hdr" };

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

static struct dparams dparams_default(int level)
{
	struct dparams p;
	memset(&p, 0, sizeof(p));
	p.level = level;
	p.lbuf_size_index = -1;
	return p;
}

static uint32_t level_buf_size(int level, int index)
{
	static const uint32_t sizes[4][5] = {
		{ ISAL_DEF_LVL0_MIN, ISAL_DEF_LVL0_SMALL, ISAL_DEF_LVL0_MEDIUM, ISAL_DEF_LVL0_LARGE,
		  ISAL_DEF_LVL0_EXTRA_LARGE },
		{ ISAL_DEF_LVL1_MIN, ISAL_DEF_LVL1_SMALL, ISAL_DEF_LVL1_MEDIUM, ISAL_DEF_LVL1_LARGE,
		  ISAL_DEF_LVL1_EXTRA_LARGE },
		{ ISAL_DEF_LVL2_MIN, ISAL_DEF_LVL2_SMALL, ISAL_DEF_LVL2_MEDIUM, ISAL_DEF_LVL2_LARGE,
		  ISAL_DEF_LVL2_EXTRA_LARGE },
		{ ISAL_DEF_LVL3_MIN, ISAL_DEF_LVL3_SMALL, ISAL_DEF_LVL3_MEDIUM, ISAL_DEF_LVL3_LARGE,
		  ISAL_DEF_LVL3_EXTRA_LARGE },
	};
	static const uint32_t defaults[4] = { ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT,
		                              ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT };
	if (level < 0 || level > 3)
		return 0;
	return index < 0 ? defaults[level] : sizes[level][index];
}

/* A stream initialised (stateless or streaming) at level, with a level buffer of
 * level_buf_size(level, index) bytes (none at level 0) returned in *lb for the caller to free. */
static struct isal_zstream *new_stream(int level, int index, int stateless, uint8_t **lb)
{
	struct isal_zstream *s = xmalloc(sizeof(*s));
	const uint32_t lbs = level_buf_size(level, index);
	*lb = level ? xmalloc(lbs) : NULL;
	if (stateless)
		isal_deflate_stateless_init(s);
	else
		isal_deflate_init(s);
	s->level = (uint32_t)level;
	s->level_buf = *lb;
	s->level_buf_size = *lb ? lbs : 0;
	return s;
}

static size_t chunk_size(enum chunking c)
{
	switch (c) {
	case CH_ONE:
		return 1;
	case CH_64K:
		return 64 * KIB;
	case CH_RANDOM:
		switch (test_rand_below(3)) {
		case 0:
			return 1 + test_rand_below(64);
		case 1:
			return 1 + test_rand_below(4096);
		default:
			return 1 + test_rand_below(100000);
		}
	default:
		return SIZE_MAX;
	}
}

static void describe(char *buf, size_t n, const char *what, const struct dparams *p, size_t len)
{
	snprintf(buf, n,
		 "%s (%zu bytes): level %d, %s, %s, hist_bits %d, in %s, out %s, %s, level_buf "
		 "%u, dict %s/%u",
		 what, len, p->level, flush_name[p->flush % 3], wrap_name[p->gzip_flag % 5],
		 p->hist_bits, chunk_name[p->in_chunk], chunk_name[p->out_chunk],
		 p->stateless ? "stateless" : "streaming", level_buf_size(p->level, p->lbuf_size_index),
		 p->dict_mode == DICT_NONE  ? "none"
		 : p->dict_mode == DICT_SET ? "set_dict"
					    : "process+reset",
		 p->dict_len);
}

struct compressed {
	uint8_t *buf;
	size_t len;
	uint32_t state_crc;  /* internal_state.crc at the end */
	uint32_t total_in;   /* the stream's counters at the end */
	uint32_t total_out;
};

/* Compresses data with p into c. Returns COMP_OK or the first error isal_deflate* returned;
 * fails the test if the stream stalls. */
static int deflate_run(const struct dparams *p, const uint8_t *data, size_t len,
		       struct compressed *c)
{
	struct isal_zstream *s = xmalloc(sizeof(*s));
	uint32_t lbsize = level_buf_size(p->level, p->lbuf_size_index);
	uint8_t *lbuf = p->level > 0 ? xmalloc(lbsize) : NULL;
	struct isal_dict *pdict = NULL;
	int ret = COMP_OK;
	size_t cap = len + len / 4 + 64 * KIB, produced = 0;
	c->buf = xmalloc(cap);

	/* init must set every field it relies on: start from garbage, as malloc may. */
	memset(s, 0xa5, sizeof(*s));
	if (p->stateless)
		isal_deflate_stateless_init(s);
	else
		isal_deflate_init(s);
	s->next_in = NULL;
	s->avail_in = 0;
	s->next_out = NULL;
	s->avail_out = 0;
	s->level = (uint32_t)p->level;
	s->level_buf = lbuf;
	s->level_buf_size = lbuf ? lbsize : 0;
	s->flush = (uint16_t)p->flush;
	s->gzip_flag = (uint16_t)p->gzip_flag;
	s->hist_bits = (uint16_t)p->hist_bits;
	if (p->huff_set)
		ret = isal_deflate_set_hufftables(s, p->huff, p->huff_type);
	if (ret == COMP_OK && p->dict_mode == DICT_SET)
		ret = isal_deflate_set_dict(s, p->dict, p->dict_len);
	if (ret == COMP_OK && p->dict_mode == DICT_PROCESSED) {
		/* ISA-L 2.30 fails process_dict on a struct isal_dict holding garbage: zero it. */
		pdict = xmalloc(sizeof(*pdict));
		memset(pdict, 0, sizeof(*pdict));
		ret = isal_deflate_process_dict(s, pdict, p->dict, p->dict_len);
		if (ret == COMP_OK)
			ret = isal_deflate_reset_dict(s, pdict);
	}
	if (ret != COMP_OK)
		goto out;

	if (p->stateless) {
		s->next_in = (uint8_t *)(uintptr_t)data;
		s->avail_in = (uint32_t)len;
		s->end_of_stream = 1;
		s->next_out = c->buf;
		s->avail_out = (uint32_t)cap;
		ret = isal_deflate_stateless(s);
		produced = cap - s->avail_out;
		goto out;
	}

	/* Eager callers add input as soon as avail_in is 0, even while a flush still has output
	 * pending (the last call filled avail_out); others wait until a call returns with room
	 * left or the flush is complete (ZSTATE_NEW_HDR). Both are valid uses of the API. ISA-L 2.30 (and 2.32) corrupt level-3
	 * FULL_FLUSH streams fed eagerly, so the check against ISA-L waits there. */
	int eager = (int)test_rand_below(4) != 0;
#ifndef STOA_ISAL_IGZIP_LIB_H
	if (p->level == 3 && p->flush == FULL_FLUSH)
		eager = 0;
#endif
	size_t in_pos = 0;
	int fed = 0, stalls = 0;
	for (;;) {
		if (s->avail_in == 0 && (in_pos < len || !fed) &&
		    (eager || !fed || s->avail_out > 0 ||
		     s->internal_state.state == ZSTATE_NEW_HDR)) {
			size_t n = chunk_size(p->in_chunk);
			if (n > len - in_pos)
				n = len - in_pos;
			s->next_in = (uint8_t *)(uintptr_t)(data + in_pos);
			s->avail_in = (uint32_t)n;
			in_pos += n;
			s->end_of_stream = in_pos == len;
			fed = 1;
		}
		if (s->avail_out == 0) {
			if (produced > 64 * (size_t)len + 4 * MIB)
				TEST_FAIL("runaway output: %zu bytes for %zu bytes of input (state "
					  "%d)\n",
					  produced, len, (int)s->internal_state.state);
			if (produced == cap) {
				cap *= 2;
				c->buf = xrealloc(c->buf, cap);
			}
			size_t n = chunk_size(p->out_chunk);
			if (n > cap - produced)
				n = cap - produced;
			s->next_out = c->buf + produced;
			s->avail_out = (uint32_t)n;
		}
		uint32_t ai = s->avail_in, ao = s->avail_out;
		uint8_t *before = s->next_out;
		ret = isal_deflate(s);
		if (ret != COMP_OK)
			break;
		if (s->next_out != before + (ao - s->avail_out)) {
			TEST_FAIL("next_out and avail_out disagree after isal_deflate\n");
		}
		produced += ao - s->avail_out;
		if (s->internal_state.state == ZSTATE_END)
			break;
		if (ai == s->avail_in && ao == s->avail_out) {
			if (++stalls > 16)
				TEST_FAIL("isal_deflate makes no progress (state %d, avail_in %u, "
					  "avail_out %u, end_of_stream %u)\n",
					  (int)s->internal_state.state, s->avail_in, s->avail_out,
					  s->end_of_stream);
		} else {
			stalls = 0;
		}
	}
out:
	c->len = produced;
	c->state_crc = s->internal_state.crc;
	c->total_in = s->total_in;
	c->total_out = s->total_out;
	free(pdict);
	free(lbuf);
	free(s);
	return ret;
}

static void compressed_free(struct compressed *c)
{
	free(c->buf);
	c->buf = NULL;
}

/* ---- verification ------------------------------------------------------------------------- */

static const uint8_t plain_gzip_header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff };

/* A zlib header (RFC 1950, 2.2) for a window of 2^wbits and an optional dictionary. */
static size_t make_zlib_header(uint8_t *h, int wbits, const uint8_t *dict, size_t dict_len)
{
	unsigned cmf = (unsigned)(wbits - 8) << 4 | 8;
	unsigned flg = dict ? 0x20 : 0;
	flg |= 31 - ((cmf << 8 | flg) % 31);
	if ((cmf << 8 | flg) % 31)
		flg = 0; /* cannot happen; keeps the check below meaningful */
	h[0] = (uint8_t)cmf;
	h[1] = (uint8_t)flg;
	if (!dict)
		return 2;
	uint32_t id = zadler32(dict, dict_len);
	h[2] = (uint8_t)(id >> 24);
	h[3] = (uint8_t)(id >> 16);
	h[4] = (uint8_t)(id >> 8);
	h[5] = (uint8_t)id;
	return 6;
}

/* Inside verify(): report and go on, so one broken stream shows every decoder's verdict. */
#define VFAIL(...)                                                                                 \
	do {                                                                                       \
		print_error(__VA_ARGS__);                                                          \
		bad = 1;                                                                           \
	} while (0)

static unsigned n_checked_streams;

/* Decodes c with every decoder and checks it against data; returns the reference decoder's
 * statistics in st when st is not NULL (always decoded then). */
static void verify(const char *what, const struct dparams *p, const uint8_t *data, size_t len,
		   const struct compressed *c, struct ref_stats *st)
{
	char desc[512];
	describe(desc, sizeof(desc), what, p, len);
	int wb = p->hist_bits ? p->hist_bits : 15;
	int bad = 0;
	size_t hdr = 0, trl = 0;
	const uint8_t *b = c->buf;
	size_t n = c->len;
	uint8_t *dict = p->dict_mode != DICT_NONE ? p->dict : NULL;
	size_t dict_used = dict ? (p->dict_len > 32768 ? 32768 : p->dict_len) : 0;
	uint8_t *dict_tail = dict ? dict + p->dict_len - dict_used : NULL;

	/* The wrapper, byte by byte. */
	switch (p->gzip_flag) {
	case IGZIP_GZIP:
		if (n < 18 || memcmp(b, "\x1f\x8b\x08", 3) != 0)
			TEST_FAIL("%s: no gzip header\n", desc);
		hdr = 10;
		/* fallthrough */
	case IGZIP_GZIP_NO_HDR:
		trl = 8;
		if (n < hdr + trl + 2)
			TEST_FAIL("%s: %zu bytes is too short for the wrapper\n", desc, n);
		if (get_le32(b + n - 8) != zcrc32(data, len))
			VFAIL("%s: gzip trailer CRC %08x, expected %08x\n", desc,
				  get_le32(b + n - 8), zcrc32(data, len));
		if (get_le32(b + n - 4) != (uint32_t)len)
			VFAIL("%s: gzip trailer ISIZE %u, expected %u\n", desc,
				  get_le32(b + n - 4), (uint32_t)len);
		if (c->state_crc != zcrc32(data, len))
			VFAIL("%s: internal_state.crc %08x, CRC-32 of the input %08x\n", desc,
				  c->state_crc, zcrc32(data, len));
		break;
	case IGZIP_ZLIB:
		if (n < 6 || (b[0] & 0x0f) != 8 || ((unsigned)b[0] << 8 | b[1]) % 31 != 0)
			TEST_FAIL("%s: bad zlib header %02x %02x\n", desc, n ? b[0] : 0,
				  n > 1 ? b[1] : 0);
		if ((b[0] >> 4) + 8 > 15)
			VFAIL("%s: zlib header window %d bits\n", desc, (b[0] >> 4) + 8);
		if ((b[0] >> 4) + 8 < wb)
			VFAIL("%s: zlib header declares a %d-bit window, stream uses %d\n",
				  desc, (b[0] >> 4) + 8, wb);
		hdr = (b[1] & 0x20) ? 6 : 2;
		/* fallthrough */
	case IGZIP_ZLIB_NO_HDR:
		trl = 4;
		if (n < hdr + trl + 2)
			TEST_FAIL("%s: %zu bytes is too short for the wrapper\n", desc, n);
		if (get_be32(b + n - 4) != zadler32(data, len))
			VFAIL("%s: zlib trailer Adler-32 %08x, expected %08x\n", desc,
				  get_be32(b + n - 4), zadler32(data, len));
		break;
	default:
		break;
	}
	if (c->total_out != (uint32_t)c->len || c->total_in != (uint32_t)len)
		VFAIL("%s: total_in %u total_out %u, expected %u and %u\n", desc, c->total_in,
			  c->total_out, (uint32_t)len, (uint32_t)c->len);

	/* zlib, with the wrapper it understands (headers added for the _NO_HDR forms). */
	uint8_t *wrapped = xmalloc(n + 16);
	size_t wn = 0;
	int zwb;
	int gzip_wrap = p->gzip_flag == IGZIP_GZIP || p->gzip_flag == IGZIP_GZIP_NO_HDR;
	int zlib_fdict = p->gzip_flag == IGZIP_ZLIB && (b[1] & 0x20);
	if (zlib_fdict && (!dict || get_be32(b + 2) != zadler32(dict_tail, dict_used)))
		VFAIL("%s: zlib header FDICT with DICTID %08x, dictionary's Adler-32 %08x\n",
			  desc, get_be32(b + 2), dict ? zadler32(dict_tail, dict_used) : 0);
	if (dict && (gzip_wrap || (p->gzip_flag == IGZIP_ZLIB && !zlib_fdict))) {
		/* gzip has no dictionary, and ISA-L 2.30 writes a zlib header without FDICT
		 * even when it compresses against one: zlib decodes the raw deflate between the
		 * wrapper's header and trailer (both checked above). */
		memcpy(wrapped, b + hdr, n - hdr - trl);
		wn = n - hdr - trl;
		zwb = -(wb < 9 ? 9 : wb);
		goto decode;
	}
	if (p->gzip_flag == IGZIP_GZIP_NO_HDR) {
		memcpy(wrapped, plain_gzip_header, 10);
		wn = 10;
	} else if (p->gzip_flag == IGZIP_ZLIB_NO_HDR) {
		wn = make_zlib_header(wrapped, wb < 9 ? 9 : wb, dict_tail, dict_used);
	}
	memcpy(wrapped + wn, b, n);
	wn += n;
	switch (p->gzip_flag) {
	case IGZIP_GZIP:
	case IGZIP_GZIP_NO_HDR:
		zwb = 16 + (wb < 9 ? 9 : wb);
		break;
	case IGZIP_ZLIB:
		zwb = 15;
		break;
	case IGZIP_ZLIB_NO_HDR:
		zwb = wb < 9 ? 9 : wb;
		break;
	default:
		zwb = -(wb < 9 ? 9 : wb);
		break;
	}
decode:;
	uint8_t *out = xmalloc(len + 1);
	size_t out_len = 0, used = 0;
	int zr = zlib_decode(wrapped, wn, zwb, dict_tail, dict_used, out, len + 1, &out_len, &used,
			     NULL);
	if (zr != Z_STREAM_END)
		VFAIL("%s: zlib inflate returned %d (%s) after %zu of %zu bytes (%zu out)\n",
			  desc, zr, zlib_msg, used, wn, out_len);
	if (used != wn)
		VFAIL("%s: %zu bytes follow the end of the stream\n", desc, wn - used);
	if (out_len != len || memcmp(out, data, len) != 0)
		VFAIL("%s: zlib decodes %zu bytes that differ from the input\n", desc, out_len);

	/* isal_inflate, checking the wrapper itself. */
	static const uint32_t crc_flags[5] = { ISAL_DEFLATE, ISAL_GZIP, ISAL_GZIP_NO_HDR_VER,
		                               ISAL_ZLIB, ISAL_ZLIB_NO_HDR_VER };
	memset(out, 0, len + 1);
	int ir = isal_decode(b, n, crc_flags[p->gzip_flag], (uint32_t)p->hist_bits, dict_tail,
			     (uint32_t)dict_used, out, len + 1, &out_len);
	if (ir != ISAL_DECOMP_OK)
		VFAIL("%s: isal_inflate returned %d (%zu bytes out)\n", desc, ir, out_len);
	if (out_len != len || memcmp(out, data, len) != 0)
		VFAIL("%s: isal_inflate decodes %zu bytes that differ from the input\n", desc,
			  out_len);

	/* The reference decoder on the raw deflate part: contents and the window bound. */
	if (st || bad || p->hist_bits) {
		struct ref_stats local;
		struct ref_stats *rs = st ? st : &local;
		uint8_t *ro = xmalloc(dict_used + len + 1);
		if (dict_used)
			memcpy(ro, dict_tail, dict_used);
		const char *why;
		long r = ref_inflate(b + hdr, n - hdr - trl, ro, dict_used, dict_used + len + 1, rs,
				     &why);
		if (r < 0)
			VFAIL("%s: reference decoder: %s\n", desc, why);
		if ((size_t)r != len || memcmp(ro + dict_used, data, len) != 0)
			VFAIL("%s: reference decoder output differs\n", desc);
		if (rs->in_used != n - hdr - trl)
			VFAIL("%s: deflate data ends %zu bytes before the trailer\n", desc,
				  n - hdr - trl - rs->in_used);
		if (rs->max_dist > (1u << wb))
			VFAIL("%s: a match reaches back %u bytes, beyond the 2^%d window\n",
				  desc, rs->max_dist, wb);
		free(ro);
	}
	free(out);
	free(wrapped);
	n_checked_streams++;
	if (bad) {
		/* STOA_DEFLATE_DUMP=dir keeps the input and the stream for a bug report. */
		const char *dir = getenv("STOA_DEFLATE_DUMP");
		if (dir && *dir) {
			char path[600];
			snprintf(path, sizeof(path), "%s/deflate_fail_%u.in", dir, n_checked_streams);
			FILE *f = fopen(path, "wb");
			if (f) {
				fwrite(data, 1, len, f);
				fclose(f);
			}
			snprintf(path, sizeof(path), "%s/deflate_fail_%u.out", dir, n_checked_streams);
			f = fopen(path, "wb");
			if (f) {
				fwrite(c->buf, 1, c->len, f);
				fclose(f);
			}
			print_error("input and stream written to %s/deflate_fail_%u.{in,out}\n", dir,
				    n_checked_streams);
		}
		fail();
	}
}

/* Compress with p, expect success, verify; returns the compressed size. */
static size_t roundtrip(const char *what, const struct dparams *p, const uint8_t *data,
			size_t len, struct ref_stats *st)
{
	struct compressed c;
	int ret = deflate_run(p, data, len, &c);
	if (ret != COMP_OK) {
		char desc[512];
		describe(desc, sizeof(desc), what, p, len);
		TEST_FAIL("%s: isal_deflate%s returned %d\n", desc, p->stateless ? "_stateless" : "",
			  ret);
	}
	verify(what, p, data, len, &c, st);
	size_t n = c.len;
	compressed_free(&c);
	return n;
}

/* ---- tests -------------------------------------------------------------------------------- */

/* Chunkings for the full matrix: (in, out) pairs. One-byte chunks run on a prefix only. */
static const enum chunking chunk_pairs[][2] = {
	{ CH_WHOLE, CH_WHOLE }, { CH_64K, CH_64K },   { CH_RANDOM, CH_RANDOM },
	{ CH_ONE, CH_WHOLE },   { CH_WHOLE, CH_ONE }, { CH_RANDOM, CH_ONE },
	{ CH_ONE, CH_RANDOM },
};
#define ONE_BYTE_PREFIX (UNDER_SANITIZER ? 2048u : 6144u)

static void test_matrix(void **state)
{
	(void)state;
	unsigned streams = 0;
	double t0 = now_seconds();
	for (int f = 0; f < 3; f++) {
		const struct dataset *ds = matrix_file(f);
		for (int level = 0; level <= 3; level++)
			for (int flush = 0; flush < 3; flush++)
				for (int wrap = 0; wrap < 5; wrap++) {
					struct dparams p = dparams_default(level);
					p.flush = flush;
					p.gzip_flag = wrap;
					for (size_t k = 0;
					     k < sizeof(chunk_pairs) / sizeof(chunk_pairs[0]); k++) {
						p.in_chunk = chunk_pairs[k][0];
						p.out_chunk = chunk_pairs[k][1];
						size_t len = ds->len;
						if ((p.in_chunk == CH_ONE || p.out_chunk == CH_ONE) &&
						    len > ONE_BYTE_PREFIX)
							len = ONE_BYTE_PREFIX;
						roundtrip(ds->name, &p, ds->data, len, NULL);
						streams++;
					}
					/* Stateless takes NO_FLUSH and FULL_FLUSH. */
					if (flush != SYNC_FLUSH) {
						p.in_chunk = p.out_chunk = CH_WHOLE;
						p.stateless = 1;
						roundtrip(ds->name, &p, ds->data, ds->len, NULL);
						streams++;
					}
				}
	}
	print_message("full matrix on %s, %s, %s: %u streams (levels 0-3 x 3 flushes x 5 wrappers x "
		      "7 chunkings + stateless), each decoded by zlib and isal_inflate, %.1f s\n",
		      matrix_file(0)->name, matrix_file(1)->name, matrix_file(2)->name, streams,
		      now_seconds() - t0);
}

static void test_corpus_sample(void **state)
{
	(void)state;
	unsigned streams = 0;
	double t0 = now_seconds();
	for (size_t f = 0; f < n_files; f++) {
		const struct dataset *ds = &files[f];
		for (int level = 0; level <= 3; level++) {
			struct dparams p = dparams_default(level);
			p.flush = (int)test_rand_below(3);
			p.gzip_flag = (int)test_rand_below(5);
			p.in_chunk = (enum chunking)test_rand_below(CH_COUNT);
			p.out_chunk = (enum chunking)test_rand_below(CH_COUNT);
			if (p.in_chunk == CH_ONE)
				p.in_chunk = CH_RANDOM;
			if (p.out_chunk == CH_ONE)
				p.out_chunk = CH_64K;
			p.lbuf_size_index = (int)test_rand_below(6) - 1;
			if (test_rand_below(3) == 0)
				p.hist_bits = 8 + (int)test_rand_below(8);
			roundtrip(ds->name, &p, ds->data, ds->len, NULL);
			/* And the plain whole-buffer forms, streaming and stateless. */
			struct dparams q = dparams_default(level);
			roundtrip(ds->name, &q, ds->data, ds->len, NULL);
			q.stateless = 1;
			q.gzip_flag = (int)test_rand_below(5);
			roundtrip(ds->name, &q, ds->data, ds->len, NULL);
			streams += 3;
		}
	}
	print_message("%zu files from %s at levels 0-3: %u streams (random flush, wrapper, "
		      "chunking, level_buf, hist_bits; whole streaming; stateless), %.1f s\n",
		      n_files, corpus_root, streams, now_seconds() - t0);
}

static void test_hist_bits(void **state)
{
	(void)state;
	unsigned streams = 0;
	for (int f = 0; f < 2; f++) {
		const struct dataset *ds = matrix_file(f);
		for (int hb = 8; hb <= 15; hb++)
			for (int level = 0; level <= 3; level++)
				for (int wrap = 0; wrap < 5; wrap += (f ? 1 : 2)) {
					struct dparams p = dparams_default(level);
					p.hist_bits = hb;
					p.gzip_flag = wrap;
					p.flush = (int)test_rand_below(3);
					p.in_chunk = test_rand_below(2) ? CH_WHOLE : CH_RANDOM;
					struct ref_stats st;
					roundtrip(ds->name, &p, ds->data, ds->len, &st);
					if (st.max_dist > (1u << hb))
						TEST_FAIL("hist_bits %d: distance %u\n", hb, st.max_dist);
					p.stateless = 1;
					p.flush = NO_FLUSH;
					p.in_chunk = CH_WHOLE;
					roundtrip(ds->name, &p, ds->data, ds->len, &st);
					streams += 2;
				}
	}
	/* A 32 KiB random block repeated: every match is 32768 back, so any window smaller than
	 * that must fall back to literals, and 15 must find them. */
	size_t len = 96 * KIB;
	uint8_t *d = xmalloc(len);
	test_fill_random(d, 32 * KIB);
	for (size_t i = 32 * KIB; i < len; i++)
		d[i] = d[i - 32 * KIB];
	for (int level = 0; level <= 3; level++)
		for (int hb = 8; hb <= 15; hb++) {
			struct dparams p = dparams_default(level);
			p.hist_bits = hb;
			struct ref_stats st;
			size_t clen = roundtrip("random 32 KiB block x3", &p, d, len, &st);
			if (hb < 15 && st.max_dist > (1u << hb))
				TEST_FAIL("hist_bits %d level %d: distance %u\n", hb, level,
					  st.max_dist);
			if (hb == 15)
				print_message("level %d, 32 KiB window: %zu bytes for a 32 KiB random "
					      "block x3, %zu matches at distance 32768\n",
					      level, clen, st.n_dist32768);
			streams++;
		}
	free(d);
	print_message("hist_bits 8..15 at levels 0-3, all wrappers, streaming and stateless: %u "
		      "streams; no distance beyond 2^hist_bits (reference decoder), zlib decoded "
		      "each with windowBits = max(9, hist_bits), isal_inflate with hist_bits set\n",
		      streams);
}

static void test_level_buf_sizes(void **state)
{
	(void)state;
	unsigned streams = 0;
	const struct dataset *ds = find_file("/alice29.txt");
	if (!ds)
		ds = matrix_file(0);
	for (int level = 1; level <= 3; level++)
		for (int i = -1; i < 5; i++) {
			struct dparams p = dparams_default(level);
			p.lbuf_size_index = i;
			size_t whole = roundtrip(ds->name, &p, ds->data, ds->len, NULL);
			p.in_chunk = CH_RANDOM;
			p.out_chunk = CH_RANDOM;
			p.flush = (int)test_rand_below(3);
			roundtrip(ds->name, &p, ds->data, ds->len, NULL);
			p.stateless = 1;
			p.flush = NO_FLUSH;
			p.in_chunk = p.out_chunk = CH_WHOLE;
			size_t sl = roundtrip(ds->name, &p, ds->data, ds->len, NULL);
			streams += 3;
			print_message("level %d level_buf %7u: %zu -> %zu (streaming), %zu "
				      "(stateless)\n",
				      level, level_buf_size(level, i), ds->len, whole, sl);
		}
	/* Level 1 stateless may go without a level_buf. */
	struct isal_zstream *s = xmalloc(sizeof(*s));
	size_t cap = ds->len + ds->len / 4 + 1024;
	uint8_t *out = xmalloc(cap);
	isal_deflate_stateless_init(s);
	s->level = 1;
	s->next_in = ds->data;
	s->avail_in = (uint32_t)ds->len;
	s->end_of_stream = 1;
	s->next_out = out;
	s->avail_out = (uint32_t)cap;
	assert_int_equal(isal_deflate_stateless(s), COMP_OK);
	struct compressed c = { out, cap - s->avail_out, s->internal_state.crc, s->total_in,
		                s->total_out };
	struct dparams p = dparams_default(1);
	p.stateless = 1;
	verify("level 1 stateless without level_buf", &p, ds->data, ds->len, &c, NULL);
	free(out);
	free(s);
	print_message("levels 1-3 x level_buf MIN, SMALL, MEDIUM, LARGE, EXTRA_LARGE, DEFAULT: %u "
		      "streams; level 1 stateless without level_buf\n",
		      streams + 1);
}

static void test_gzip_command(void **state)
{
	(void)state;
	if (system("gzip --version >/dev/null 2>&1") != 0) {
		print_message("gzip command not found: skipped\n");
		skip();
	}
	char path[] = "/tmp/stoa_deflate_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	unsigned runs = 0;
	for (int f = 0; f < 2; f++) {
		const struct dataset *ds = matrix_file(f);
		for (int level = 0; level <= 3; level++) {
			struct dparams p = dparams_default(level);
			p.gzip_flag = IGZIP_GZIP;
			p.flush = f ? FULL_FLUSH : NO_FLUSH;
			p.in_chunk = CH_RANDOM;
			struct compressed c;
			assert_int_equal(deflate_run(&p, ds->data, ds->len, &c), COMP_OK);
			FILE *w = fopen(path, "wb");
			assert_non_null(w);
			assert_int_equal(fwrite(c.buf, 1, c.len, w), c.len);
			fclose(w);
			char cmd[600];
			snprintf(cmd, sizeof(cmd), "gzip -dc < '%s'", path);
			FILE *r = popen(cmd, "r");
			assert_non_null(r);
			uint8_t *out = xmalloc(ds->len + 1);
			size_t n = fread(out, 1, ds->len + 1, r);
			int st = pclose(r);
			if (st != 0 || n != ds->len || memcmp(out, ds->data, ds->len) != 0)
				TEST_FAIL("gzip -d of %s level %d: status %d, %zu bytes, %s\n",
					  ds->name, level, st, n,
					  n == ds->len ? "contents differ" : "wrong length");
			free(out);
			compressed_free(&c);
			runs++;
		}
	}
	unlink(path);
	print_message("gzip -d restored %u gzip streams (2 files, levels 0-3)\n", runs);
}

static void test_empty_input(void **state)
{
	(void)state;
	unsigned streams = 0;
	uint8_t none[1] = { 0 };
	for (int level = 0; level <= 3; level++)
		for (int wrap = 0; wrap < 5; wrap++)
			for (int flush = 0; flush < 3; flush++)
				for (int sl = 0; sl < 2; sl++) {
					if (sl && flush == SYNC_FLUSH)
						continue;
					struct dparams p = dparams_default(level);
					p.gzip_flag = wrap;
					p.flush = flush;
					p.stateless = sl;
					p.out_chunk = (flush == FULL_FLUSH && !sl) ? CH_ONE : CH_WHOLE;
					struct ref_stats st;
					roundtrip("empty input", &p, none, 0, &st);
					streams++;
				}
	print_message("empty input at levels 0-3 x 5 wrappers x flushes x streaming/stateless: %u "
		      "valid streams that decode to nothing\n",
		      streams);
}

static void test_long_runs_and_random(void **state)
{
	(void)state;
	size_t run = (UNDER_SANITIZER ? 2 : 8) * MIB;
	uint8_t *d = xmalloc(run);
	memset(d, 'a', run);
	for (int level = 0; level <= 3; level++) {
		struct dparams p = dparams_default(level);
		struct ref_stats st;
		size_t clen = roundtrip("one byte repeated", &p, d, run, &st);
		if (level > 0 && st.n_len258 == 0)
			TEST_FAIL("level %d: a run of %zu equal bytes has no length-258 match\n", level,
				  run);
		if (level > 0 && clen > run / 100)
			TEST_FAIL("level %d: %zu bytes for a run of %zu equal bytes\n", level, clen,
				  run);
		p.in_chunk = CH_64K;
		p.out_chunk = CH_RANDOM;
		p.gzip_flag = IGZIP_GZIP;
		roundtrip("one byte repeated, chunked", &p, d, run, NULL);
		print_message("level %d: %zu equal bytes -> %zu bytes, %zu matches of length "
			      "258\n",
			      level, run, clen, st.n_len258);
	}
	/* Runs of exactly 258, 259 and 3 bytes between random bytes. */
	size_t len = 300 * KIB, i = 0;
	while (i < len) {
		size_t n = test_rand_below(4) == 0 ? 258 : 3 + test_rand_below(600);
		uint8_t v = (uint8_t)test_rand();
		for (size_t k = 0; k < n && i < len; k++)
			d[i++] = v;
		if (i < len)
			d[i++] = (uint8_t)test_rand();
	}
	for (int level = 0; level <= 3; level++) {
		struct dparams p = dparams_default(level);
		roundtrip("runs of 3..600 bytes", &p, d, len, NULL);
	}

	/* Incompressible data: every level stays close to the input size. */
	size_t rlen = (UNDER_SANITIZER ? 1 : 4) * MIB;
	test_fill_random(d, rlen);
	for (int level = 0; level <= 3; level++)
		for (int sl = 0; sl < 2; sl++) {
			struct dparams p = dparams_default(level);
			p.stateless = sl;
			p.gzip_flag = IGZIP_GZIP;
			size_t clen = roundtrip("random bytes", &p, d, rlen, NULL);
			/* ISA-L 2.30's streaming level 0 codes random bytes with its default
			 * Huffman codes (+23%), so only a blow-up fails there; the other levels
			 * fall back to stored blocks. */
			size_t bound = level == 0 && !sl ? rlen + rlen / 3 : rlen + rlen / 100 + 1024;
			if (clen > bound)
				TEST_FAIL("level %d %s: random %zu bytes grew to %zu\n", level,
					  sl ? "stateless" : "streaming", rlen, clen);
			print_message("level %d %s: %zu random bytes -> %zu\n", level,
				      sl ? "stateless" : "streaming", rlen, clen);
		}
	/* Small random inputs of every length around the stored-block and buffer edges. */
	static const size_t edges[] = { 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 255, 256, 257, 258, 259,
		                        65535, 65536, 65537, 131072, 131073 };
	for (size_t e = 0; e < sizeof(edges) / sizeof(edges[0]); e++)
		for (int level = 0; level <= 3; level++) {
			struct dparams p = dparams_default(level);
			p.stateless = (int)test_rand_below(2);
			p.gzip_flag = (int)test_rand_below(5);
			roundtrip("random bytes, edge length", &p, d, edges[e], NULL);
		}
	free(d);
}

/* Distance 32768 and length 258: a random block repeated at exactly the window size, and a
 * 258-byte random string repeated. */
static void test_window_edges(void **state)
{
	(void)state;
	size_t len = 160 * KIB;
	uint8_t *d = xmalloc(len);
	test_fill_random(d, 32 * KIB);
	for (size_t i = 32 * KIB; i < len; i++)
		d[i] = d[i - 32 * KIB];
	for (int level = 0; level <= 3; level++) {
		struct dparams p = dparams_default(level);
		struct ref_stats st;
		size_t clen = roundtrip("32 KiB random block repeated", &p, d, len, &st);
		if (st.max_dist != 32768 || st.n_dist32768 == 0)
			TEST_FAIL("level %d: no match at distance 32768 (max %u)\n", level,
				  st.max_dist);
		print_message("level %d: 32 KiB random block x5 -> %zu bytes, %zu matches at "
			      "distance 32768, longest %u\n",
			      level, clen, st.n_dist32768, st.max_len);
	}
	/* A random 258-byte string repeated: distance 258, length up to 258. */
	test_fill_random(d, 258);
	for (size_t i = 258; i < 64 * KIB; i++)
		d[i] = d[i - 258];
	for (int level = 0; level <= 3; level++) {
		struct dparams p = dparams_default(level);
		struct ref_stats st;
		roundtrip("258-byte random string repeated", &p, d, 64 * KIB, &st);
		if (st.max_len != 258)
			TEST_FAIL("level %d: longest match %u, expected 258\n", level, st.max_len);
	}
	free(d);
}

/* Byte i of the long stream: a 1 MiB pattern of random 4 KiB blocks, with the chunk number
 * stamped into each MiB so chunks differ. */
static uint8_t *long_pattern;

static void long_chunk(uint8_t *dst, uint64_t chunk_index)
{
	memcpy(dst, long_pattern, MIB);
	memcpy(dst, &chunk_index, sizeof(chunk_index));
}

static void test_4gib_stream(void **state)
{
	(void)state;
	const char *quick = getenv("STOA_TEST_QUICK");
	if (UNDER_SANITIZER || (quick && *quick == '1')) {
		print_message("sanitizer build or STOA_TEST_QUICK=1: the 4 GiB stream is skipped "
			      "(too slow)\n");
		skip();
	}
	const uint64_t total = 4100ull * MIB + 12345;
	double t0 = now_seconds();
	long_pattern = xmalloc(MIB);
	uint8_t *block = xmalloc(4 * KIB);
	test_fill_random(block, 4 * KIB);
	for (size_t i = 0; i < MIB; i++)
		long_pattern[i] = block[(i + i / (4 * KIB)) % (4 * KIB)];
	free(block);

	uint8_t *in = xmalloc(MIB), *cbuf = xmalloc(MIB), *dbuf = xmalloc(MIB),
		*expect = xmalloc(MIB);
	struct isal_zstream *s = xmalloc(sizeof(*s));
	uint8_t *lbuf = xmalloc(ISAL_DEF_LVL1_DEFAULT);
	isal_deflate_init(s);
	s->level = 1;
	s->level_buf = lbuf;
	s->level_buf_size = ISAL_DEF_LVL1_DEFAULT;
	s->gzip_flag = IGZIP_GZIP;
	s->next_in = NULL;
	s->avail_in = 0;
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, 16 + 15), Z_OK);

	uint64_t fed = 0, compressed = 0, decoded = 0;
	uint64_t expect_chunk = UINT64_MAX;
	int zret = Z_OK;
	while (s->internal_state.state != ZSTATE_END) {
		if (s->avail_in == 0 && fed < total) {
			size_t n = total - fed < MIB ? (size_t)(total - fed) : MIB;
			long_chunk(in, fed / MIB);
			s->next_in = in;
			s->avail_in = (uint32_t)n;
			fed += n;
			s->end_of_stream = fed == total;
		}
		s->next_out = cbuf;
		s->avail_out = MIB;
		int ret = isal_deflate(s);
		if (ret != COMP_OK)
			TEST_FAIL("isal_deflate returned %d after %" PRIu64 " bytes in\n", ret,
				  fed);
		size_t produced = MIB - s->avail_out;
		compressed += produced;
		z.next_in = cbuf;
		z.avail_in = (uInt)produced;
		while (z.avail_in > 0 || (s->internal_state.state == ZSTATE_END &&
					  zret != Z_STREAM_END)) {
			z.next_out = dbuf;
			z.avail_out = MIB;
			zret = inflate(&z, Z_NO_FLUSH);
			if (zret != Z_OK && zret != Z_STREAM_END && zret != Z_BUF_ERROR)
				TEST_FAIL("zlib inflate returned %d (%s) after %" PRIu64
					  " bytes out\n",
					  zret, z.msg ? z.msg : "", decoded);
			size_t got = MIB - z.avail_out;
			/* Compare what came out with the generator, chunk by chunk. */
			size_t k = 0;
			while (k < got) {
				uint64_t pos = decoded + k;
				if (pos / MIB != expect_chunk) {
					expect_chunk = pos / MIB;
					long_chunk(expect, expect_chunk);
				}
				size_t off = (size_t)(pos % MIB);
				size_t m = MIB - off < got - k ? MIB - off : got - k;
				if (memcmp(dbuf + k, expect + off, m) != 0)
					TEST_FAIL("decoded data differs near byte %" PRIu64 "\n",
						  pos);
				k += m;
			}
			decoded += got;
			if (zret == Z_STREAM_END || (zret == Z_BUF_ERROR && got == 0))
				break;
		}
	}
	if (zret != Z_STREAM_END)
		TEST_FAIL("zlib did not reach the end of the stream (%d)\n", zret);
	assert_true(decoded == total);
	assert_true(z.total_out == (uLong)total); /* (zlib's count is 32 bits on ILP32) */
	if (s->total_in != (uint32_t)total || s->total_out != (uint32_t)compressed)
		TEST_FAIL("total_in %u total_out %u; expected %u and %u (mod 2^32)\n", s->total_in,
			  s->total_out, (uint32_t)total, (uint32_t)compressed);
	inflateEnd(&z);
	print_message("%" PRIu64 " bytes (> 4 GiB) at level 1 in 1 MiB chunks -> %" PRIu64
		      " bytes gzip; zlib inflated it on the fly, checked CRC-32 and ISIZE and every "
		      "byte; total_in/total_out wrapped mod 2^32; %.1f s\n",
		      total, compressed, now_seconds() - t0);
	free(lbuf);
	free(s);
	free(in);
	free(cbuf);
	free(dbuf);
	free(expect);
	free(long_pattern);
}

static void test_dictionary(void **state)
{
	(void)state;
	const struct dataset *ds = dict_text();
	size_t dlen = ds->len > 40000 ? 40000 : ds->len / 2;
	uint8_t *dict = xmalloc(dlen);
	memcpy(dict, ds->data, dlen);
	/* The data repeats the dictionary's last 32 KiB, then goes on with new text. */
	size_t len = ds->len - dlen + 32 * KIB > 96 * KIB ? 96 * KIB : ds->len - dlen + 32 * KIB;
	uint8_t *data = xmalloc(len);
	size_t rep = dlen < 32 * KIB ? dlen : 32 * KIB;
	memcpy(data, dict + dlen - rep, rep);
	memcpy(data + rep, ds->data + dlen, len - rep);
	unsigned streams = 0;
	for (int level = 0; level <= 3; level++) {
		struct dparams p = dparams_default(level);
		size_t plain = roundtrip("dictionary text, no dictionary", &p, data, len, NULL);
		for (int mode = DICT_SET; mode <= DICT_PROCESSED; mode++)
			for (int wrap = 0; wrap < 5; wrap++) {
				p.dict_mode = (enum dict_mode)mode;
				p.dict = dict;
				p.dict_len = (uint32_t)dlen;
				p.gzip_flag = wrap;
				p.in_chunk = test_rand_below(2) ? CH_WHOLE : CH_RANDOM;
				struct ref_stats st;
				size_t with = roundtrip("with dictionary", &p, data, len, &st);
				streams++;
				if (with > plain - plain / 5 || st.max_dist < 32 * KIB - 300)
					TEST_FAIL("level %d %s: %zu bytes with the dictionary, %zu "
						  "without; farthest match %u: the dictionary is not "
						  "used\n",
						  level, mode == DICT_SET ? "set_dict" : "reset_dict",
						  with, plain, st.max_dist);
			}
		print_message("level %d: %zu bytes -> %zu plain, dictionary used by set_dict and "
			      "process_dict+reset_dict\n",
			      level, len, plain);
	}
	/* A short dictionary, and the same processed dictionary on several streams. */
	struct isal_dict *pd = xmalloc(sizeof(*pd));
	memset(pd, 0, sizeof(*pd));
	for (int level = 0; level <= 3; level++) {
		struct dparams p = dparams_default(level);
		p.dict_mode = DICT_SET;
		p.dict = dict;
		p.dict_len = 100;
		roundtrip("100-byte dictionary", &p, data, len, NULL);

		uint8_t *lb;
		struct isal_zstream *s = new_stream(level, -1, 0, &lb);
		assert_int_equal(isal_deflate_process_dict(s, pd, dict, (uint32_t)dlen), COMP_OK);
		size_t cap = len * 2 + 1024;
		uint8_t *out = xmalloc(cap);
		for (int rpt = 0; rpt < 3; rpt++) {
			isal_deflate_reset(s);
			assert_int_equal(isal_deflate_reset_dict(s, pd), COMP_OK);
			s->next_in = data;
			s->avail_in = (uint32_t)len;
			s->end_of_stream = 1;
			s->next_out = out;
			s->avail_out = (uint32_t)cap;
			assert_int_equal(isal_deflate(s), COMP_OK);
			assert_int_equal(s->internal_state.state, ZSTATE_END);
			struct compressed c = { out, cap - s->avail_out, s->internal_state.crc,
				                s->total_in, s->total_out };
			struct dparams q = dparams_default(level);
			q.dict_mode = DICT_PROCESSED;
			q.dict = dict;
			q.dict_len = (uint32_t)dlen;
			verify("one processed dictionary, stream after reset", &q, data, len, &c,
			       NULL);
		}
		free(out);
		free(lb);
		free(s);
	}
	free(pd);
	print_message("%u streams with a 40000-byte dictionary (last 32 KiB used), every "
		      "wrapper; a 100-byte dictionary; one processed dictionary reused by three "
		      "streams; zlib inflateSetDictionary and isal_inflate_set_dict decode them\n",
		      streams);
	free(data);
	free(dict);
}

/* ---- dictionaries in stateless and streaming mode, and the stored-block bound -------------- */

/* One raw deflate stream of data with the dictionary given as dict_mode says, stateless or
 * streaming (input in pieces of in_step bytes, all output room at once). Returns the stream's
 * length; fails the test on any error code or a stream that does not end. */
static size_t dict_compress(int level, int stateless, enum dict_mode mode, int wipe_table,
			    const uint8_t *dict, uint32_t dict_len, const uint8_t *data, size_t len,
			    size_t in_step, uint8_t *out, size_t cap)
{
	uint8_t *lb;
	struct isal_zstream *s = new_stream(level, -1, stateless, &lb);
	struct isal_dict *pd = NULL;
	const char *how = stateless ? "stateless" : "streaming";
	int ret = COMP_OK;
	if (mode == DICT_SET) {
		ret = isal_deflate_set_dict(s, (uint8_t *)(uintptr_t)dict, dict_len);
	} else if (mode == DICT_PROCESSED) {
		pd = xmalloc(sizeof(*pd));
		memset(pd, 0, sizeof(*pd));
		ret = isal_deflate_process_dict(s, pd, (uint8_t *)(uintptr_t)dict, dict_len);
		/* wipe_table: every hash entry then names the dictionary's first byte, so a
		 * reset_dict that installs the table loses most matches, one that hashes the
		 * history again does not. */
		if (wipe_table)
			memset(pd->hashtable, 0, sizeof(pd->hashtable));
		if (ret == COMP_OK)
			ret = isal_deflate_reset_dict(s, pd);
	}
	if (ret != COMP_OK)
		TEST_FAIL("level %d %s: setting the dictionary (mode %d) returned %d\n", level, how,
			  (int)mode, ret);
	s->next_out = out;
	s->avail_out = (uint32_t)cap;
	if (stateless) {
		s->next_in = (uint8_t *)(uintptr_t)data;
		s->avail_in = (uint32_t)len;
		s->end_of_stream = 1;
		ret = isal_deflate_stateless(s);
		if (ret != COMP_OK || s->avail_in != 0)
			TEST_FAIL("level %d stateless, dictionary mode %d: returned %d, %u bytes "
				  "left\n",
				  level, (int)mode, ret, s->avail_in);
	} else {
		size_t pos = 0;
		unsigned calls = 0;
		while (s->internal_state.state != ZSTATE_END) {
			if (s->avail_in == 0 && pos < len) {
				size_t n = len - pos < in_step ? len - pos : in_step;
				s->next_in = (uint8_t *)(uintptr_t)(data + pos);
				s->avail_in = (uint32_t)n;
				pos += n;
				s->end_of_stream = pos == len;
			}
			ret = isal_deflate(s);
			if (ret != COMP_OK || ++calls > 4 * (len / in_step + 16))
				TEST_FAIL("level %d streaming, dictionary mode %d: returned %d after "
					  "%u calls (state %d)\n",
					  level, (int)mode, ret, calls, (int)s->internal_state.state);
		}
	}
	size_t n = cap - s->avail_out;
	free(pd);
	free(lb);
	free(s);
	return n;
}

/* zlib (raw, inflateSetDictionary) and isal_inflate with isal_inflate_set_dict must both give
 * back data from the stream. */
static void check_raw_with_dict(const char *what, const uint8_t *strm, size_t slen,
				const uint8_t *dict, uint32_t dict_len, const uint8_t *data,
				size_t len)
{
	uint8_t *back = xmalloc(len + 64);
	size_t got = 0, used = 0;
	int zr = zlib_decode(strm, slen, -15, dict, dict_len, back, len + 64, &got, &used, NULL);
	if (zr != Z_STREAM_END || got != len || used != slen || memcmp(back, data, len) != 0)
		TEST_FAIL("%s: zlib with the dictionary gives %d (%s), %zu of %zu bytes out, %zu "
			  "of %zu bytes in, %s\n",
			  what, zr, zlib_msg, got, len, used, slen,
			  got == len && memcmp(back, data, len) == 0 ? "same data" : "other data");
	int ir = isal_decode(strm, slen, ISAL_DEFLATE, 0, (uint8_t *)(uintptr_t)dict, dict_len,
			     back, len + 64, &got);
	if (ir != ISAL_DECOMP_OK || got != len || memcmp(back, data, len) != 0)
		TEST_FAIL("%s: isal_inflate with the dictionary gives %d, %zu of %zu bytes\n", what,
			  ir, got, len);
	n_checked_streams++;
	free(back);
}

/* Stateless and streaming, levels 0-3: with set_dict and with process_dict + reset_dict the
 * stream decodes (zlib's raw inflateSetDictionary) to the data, is well below the stream made
 * without the dictionary when the data repeats it, and the two ways give the same bytes: the
 * prehashed table of process_dict is what reset_dict installs. */
static void test_dict_modes(void **state)
{
	(void)state;
	const struct dataset *ds = dict_text();
	/* A 32 KiB dictionary; the data is its last 24 KiB (all within the window), then 12 KiB
	 * of the text that follows it. */
	uint32_t dlen = 32 * KIB;
	size_t rep = 24 * KIB, newl = 12 * KIB;
	if (ds->len < dlen + newl)
		skip();
	const uint8_t *dict = ds->data;
	size_t len = rep + newl;
	uint8_t *data = xmalloc(len);
	memcpy(data, dict + dlen - rep, rep);
	memcpy(data + rep, ds->data + dlen, newl);
	size_t cap = 2 * len + 4 * KIB;
	uint8_t *plain = xmalloc(cap), *set = xmalloc(cap), *proc = xmalloc(cap);
	static const size_t steps[] = { 64 * KIB, 4 * KIB, 1000 };
	for (int level = 0; level <= 3; level++)
		for (int sl = 1; sl >= 0; sl--) {
			/* Streaming: the whole input at once, then in smaller pieces. */
			size_t nsteps = sl ? 1 : sizeof(steps) / sizeof(steps[0]);
			for (size_t k = 0; k < nsteps; k++) {
				size_t st = steps[k];
				char what[160];
				size_t np = dict_compress(level, sl, DICT_NONE, 0, NULL, 0, data, len, st,
							  plain, cap);
				size_t ns = dict_compress(level, sl, DICT_SET, 0, dict, dlen, data, len,
							  st, set, cap);
				size_t nr = dict_compress(level, sl, DICT_PROCESSED, 0, dict, dlen, data,
							  len, st, proc, cap);
				snprintf(what, sizeof(what), "level %d %s (input in %zu-byte pieces) "
					 "set_dict", level, sl ? "stateless" : "streaming", st);
				check_raw_with_dict(what, set, ns, dict, dlen, data, len);
				snprintf(what, sizeof(what), "level %d %s (input in %zu-byte pieces) "
					 "process_dict+reset_dict", level, sl ? "stateless" : "streaming",
					 st);
				check_raw_with_dict(what, proc, nr, dict, dlen, data, len);
				/* Two thirds of the data are in the dictionary: it must show. */
				if (ns > np - np / 4 || nr > np - np / 4)
					TEST_FAIL("level %d %s: %zu bytes without the dictionary, %zu "
						  "with set_dict, %zu with process_dict+reset_dict: "
						  "the dictionary is not used\n",
						  level, sl ? "stateless" : "streaming", np, ns, nr);
				if (ns != nr || memcmp(set, proc, ns) != 0)
					TEST_FAIL("level %d %s: set_dict gives %zu bytes, "
						  "process_dict+reset_dict %zu bytes, not the same "
						  "stream\n",
						  level, sl ? "stateless" : "streaming", ns, nr);
				/* The same with the prepared table wiped: a valid stream, and
				 * (streaming, levels 0-1) not the one made from the intact
				 * table. The stateless call may hash the dictionary again for a
				 * table sized to its input, and levels 2-3 with the default
				 * level_buf use more buckets than struct isal_dict holds, so
				 * reset_dict hashes again there: both only reported. */
				size_t nw = dict_compress(level, sl, DICT_PROCESSED, 1, dict, dlen,
							  data, len, st, plain, cap);
				snprintf(what, sizeof(what), "level %d %s (input in %zu-byte pieces) "
					 "wiped prepared table", level, sl ? "stateless" : "streaming",
					 st);
				check_raw_with_dict(what, plain, nw, dict, dlen, data, len);
				const int wipe_seen = nw != nr || memcmp(plain, proc, nr) != 0;
				if (!sl && level <= 1 && !wipe_seen)
					TEST_FAIL("level %d %s: wiping the table process_dict made "
						  "changes nothing: reset_dict does not use it\n",
						  level, sl ? "stateless" : "streaming");
				if (k == 0)
					print_message("level %d %s: %zu bytes -> %zu without the "
						      "dictionary, %zu with it (set_dict and "
						      "process_dict+reset_dict byte-identical), %zu "
						      "with the prepared table wiped (table %s)\n",
						      level, sl ? "stateless" : "streaming", len, np,
						      ns, nw, wipe_seen ? "used" : "not used");
			}
		}
	free(plain);
	free(set);
	free(proc);
	free(data);
}

/* Incompressible data through the streaming API in 64 KiB pieces, with at least 64 KiB of
 * output room per call: stored blocks bound the stream at 5 bytes per 64 KiB block plus the
 * wrapper, so anything above 1% means the library coded random bytes with Huffman codes or
 * split stored blocks badly. Levels 0-3, output room either all of it or 64 KiB per call. */
static void test_random_stored_bound(void **state)
{
	(void)state;
	size_t len = 3 * MIB, step = 64 * KIB;
	uint8_t *d = xmalloc(len);
	test_fill_random(d, len);
	size_t cap = len + len / 2;
	uint8_t *out = xmalloc(cap), *back = xmalloc(len + 64);
	for (int level = 0; level <= 3; level++)
		for (int room = 0; room < 2; room++) {
			uint8_t *lb;
			struct isal_zstream *s = new_stream(level, -1, 0, &lb);
			s->next_out = out;
			s->avail_out = 0;
			size_t pos = 0;
			unsigned calls = 0;
			while (s->internal_state.state != ZSTATE_END) {
				if (s->avail_in == 0 && pos < len) {
					s->next_in = d + pos;
					s->avail_in = (uint32_t)step;
					pos += step;
					s->end_of_stream = pos == len;
				}
				size_t used = (size_t)(s->next_out - out);
				if (used + step > cap)
					TEST_FAIL("level %d: %zu bytes out for %zu bytes in so far\n",
						  level, used, pos);
				/* room 0: everything left; room 1: exactly 64 KiB every call. */
				s->avail_out = (uint32_t)(room ? step : cap - used);
				int ret = isal_deflate(s);
				if (ret != COMP_OK || ++calls > 4 * (len / step) + 64)
					TEST_FAIL("level %d: isal_deflate returned %d after %u calls "
						  "(state %d)\n",
						  level, ret, calls, (int)s->internal_state.state);
			}
			size_t clen = (size_t)(s->next_out - out);
			size_t bound = len + len / 100;
			size_t got = 0, used = 0;
			int zr = zlib_decode(out, clen, -15, NULL, 0, back, len + 64, &got, &used,
					     NULL);
			if (zr != Z_STREAM_END || got != len || memcmp(back, d, len) != 0)
				TEST_FAIL("level %d: zlib gives %d (%s) on the stream, %zu of %zu "
					  "bytes\n",
					  level, zr, zlib_msg, got, len);
			n_checked_streams++;
			if (clen > bound)
				TEST_FAIL("level %d, output room %s: %zu random bytes in 64 KiB "
					  "pieces grew to %zu (%.2f%%), more than the 1%% a stored "
					  "block costs\n",
					  level, room ? "64 KiB per call" : "all", len, clen,
					  100.0 * (double)(clen - len) / (double)len);
			print_message("level %d streaming, 64 KiB pieces, output room %s: %zu random "
				      "bytes -> %zu (+%.3f%%)\n",
				      level, room ? "64 KiB per call" : "all", len, clen,
				      100.0 * ((double)clen - (double)len) / (double)len);
			free(lb);
			free(s);
		}
	free(out);
	free(back);
	free(d);
}

static void test_reset(void **state)
{
	(void)state;
	const struct dataset *a = matrix_file(0), *b = matrix_file(1);
	for (int level = 0; level <= 3; level++) {
		uint8_t *lb;
		struct isal_zstream *s = new_stream(level, 2, 0, &lb);
		const uint32_t lbs = level_buf_size(level, 2); /* what reset must keep */
		size_t cap = a->len + b->len + 64 * KIB;
		uint8_t *out1 = xmalloc(cap), *out2 = xmalloc(cap);

		s->gzip_flag = IGZIP_GZIP;
		s->hist_bits = 12;
		s->flush = SYNC_FLUSH;
		s->next_in = a->data;
		s->avail_in = (uint32_t)(a->len / 2); /* reset in the middle of a stream */
		s->next_out = out1;
		s->avail_out = (uint32_t)cap;
		assert_int_equal(isal_deflate(s), COMP_OK);

		/* ISA-L 2.30 turns gzip_flag into IGZIP_GZIP_NO_HDR once it has written the
		 * header, and reset keeps that: the next stream then has no header. Either
		 * way reset must not change the field. */
		uint16_t flag = s->gzip_flag;
		if (flag != IGZIP_GZIP && flag != IGZIP_GZIP_NO_HDR)
			TEST_FAIL("gzip_flag is %u after the header was written\n", flag);
		if (level == 0)
			print_message("gzip_flag after the first isal_deflate call: %s\n",
				      flag == IGZIP_GZIP ? "IGZIP_GZIP (kept)"
							 : "IGZIP_GZIP_NO_HDR (as ISA-L 2.30)");
		isal_deflate_reset(s);
		assert_int_equal(s->level, (uint32_t)level);
		assert_ptr_equal(s->level_buf, lb);
		assert_int_equal(s->level_buf_size, lb ? lbs : 0);
		assert_int_equal(s->gzip_flag, flag);
		assert_int_equal(s->hist_bits, 12);
		assert_int_equal(s->flush, SYNC_FLUSH);
		assert_int_equal(s->total_in, 0);
		assert_int_equal(s->total_out, 0);
		s->next_in = b->data;
		s->avail_in = (uint32_t)b->len;
		s->end_of_stream = 1;
		s->next_out = out1;
		s->avail_out = (uint32_t)cap;
		assert_int_equal(isal_deflate(s), COMP_OK);
		assert_int_equal(s->internal_state.state, ZSTATE_END);
		size_t n1 = cap - s->avail_out;
		struct compressed c = { out1, n1, s->internal_state.crc, s->total_in,
			                s->total_out };
		struct dparams p = dparams_default(level);
		p.lbuf_size_index = 2;
		p.gzip_flag = flag;
		p.hist_bits = 12;
		p.flush = SYNC_FLUSH;
		verify("second stream after isal_deflate_reset", &p, b->data, b->len, &c, NULL);

		/* A fresh stream with the same settings makes the same bytes. */
		isal_deflate_init(s);
		s->level = (uint32_t)level;
		s->level_buf = lb;
		s->level_buf_size = lb ? lbs : 0;
		s->gzip_flag = flag;
		s->hist_bits = 12;
		s->flush = SYNC_FLUSH;
		s->next_in = b->data;
		s->avail_in = (uint32_t)b->len;
		s->end_of_stream = 1;
		s->next_out = out2;
		s->avail_out = (uint32_t)cap;
		assert_int_equal(isal_deflate(s), COMP_OK);
		size_t n2 = cap - s->avail_out;
		if (n1 != n2 || memcmp(out1, out2, n1) != 0)
			TEST_FAIL("level %d: the stream after reset (%zu bytes) differs from a "
				  "fresh stream (%zu bytes)\n",
				  level, n1, n2);
		free(out1);
		free(out2);
		free(lb);
		free(s);
	}
	print_message("isal_deflate_reset mid-stream keeps level, level_buf, gzip_flag, hist_bits, "
		      "flush; the next stream is valid and equal to a fresh stream's, levels 0-3\n");
}

static void test_gzip_header(void **state)
{
	(void)state;
	int bad = 0;
	const struct dataset *ds = matrix_file(0);
	uint8_t extra[300];
	for (size_t i = 0; i < sizeof(extra); i++)
		extra[i] = (uint8_t)(i * 7 + 1);
	char name[] = "paper1.txt";
	char comment[] = "a comment, written by test_deflate";
	size_t cap = ds->len + 4096;
	uint8_t *buf = xmalloc(cap);

	for (int variant = 0; variant < 4; variant++) {
		struct isal_gzip_header h;
		isal_gzip_header_init(&h);
		h.time = 1700000000u + (uint32_t)variant;
		h.os = 3;
		h.text = variant & 1;
		h.xflags = 0;
		if (variant >= 1) {
			h.name = name;
			h.name_buf_len = sizeof(name);
			h.comment = comment;
			h.comment_buf_len = sizeof(comment);
		}
		if (variant >= 2) {
			h.extra = extra;
			h.extra_len = sizeof(extra);
		}
		h.hcrc = variant == 3;
		struct isal_zstream *s = xmalloc(sizeof(*s));
		isal_deflate_init(s);
		s->gzip_flag = IGZIP_GZIP_NO_HDR;

		/* Too little room: the size it needs, nothing written, the stream untouched. */
		memset(buf, 0xa5, cap);
		s->next_out = buf;
		s->avail_out = 4;
		s->total_out = 0;
		uint32_t need = isal_write_gzip_header(s, &h);
		size_t expect_need = 10 + (variant >= 1 ? sizeof(name) + sizeof(comment) : 0) +
				     (variant >= 2 ? 2 + sizeof(extra) : 0) + (variant == 3 ? 2 : 0);
		if (need != expect_need)
			TEST_FAIL("header variant %d: isal_write_gzip_header with 4 bytes returned "
				  "%u, expected %zu\n",
				  variant, need, expect_need);
		assert_ptr_equal(s->next_out, buf);
		assert_int_equal(s->avail_out, 4);
		assert_int_equal(s->total_out, 0);
		for (size_t i = 0; i < 16; i++)
			assert_int_equal(buf[i], 0xa5);
		s->avail_out = need - 1;
		assert_int_equal(isal_write_gzip_header(s, &h), need);
		assert_int_equal(s->avail_out, need - 1);

		s->avail_out = (uint32_t)cap;
		assert_int_equal(isal_write_gzip_header(s, &h), 0);
		assert_int_equal(s->total_out, need);
		assert_ptr_equal(s->next_out, buf + need);
		assert_int_equal(s->avail_out, cap - need);

		s->next_in = ds->data;
		s->avail_in = (uint32_t)ds->len;
		s->end_of_stream = 1;
		assert_int_equal(isal_deflate(s), COMP_OK);
		assert_int_equal(s->internal_state.state, ZSTATE_END);
		size_t n = cap - s->avail_out;

		/* zlib reads the header back. */
		gz_header zh;
		memset(&zh, 0, sizeof(zh));
		uint8_t zextra[400];
		char zname[64], zcomment[64];
		zh.extra = zextra;
		zh.extra_max = sizeof(zextra);
		zh.name = (Bytef *)zname;
		zh.name_max = sizeof(zname);
		zh.comment = (Bytef *)zcomment;
		zh.comm_max = sizeof(zcomment);
		uint8_t *out = xmalloc(ds->len + 1);
		size_t out_len, used;
		int zr = zlib_decode(buf, n, 16 + 15, NULL, 0, out, ds->len + 1, &out_len, &used,
				     &zh);
		if (zr != Z_STREAM_END || out_len != ds->len ||
		    memcmp(out, ds->data, ds->len) != 0)
			TEST_FAIL("header variant %d: zlib returned %d, %zu bytes\n", variant, zr,
				  out_len);
		assert_int_equal(zh.done, 1);
		assert_int_equal(zh.time, h.time);
		assert_int_equal(zh.os, 3);
		assert_int_equal(zh.text, variant & 1);
		assert_int_equal(zh.hcrc, variant == 3);
		if (variant >= 1) {
			assert_string_equal(zname, name);
			assert_string_equal(zcomment, comment);
		} else {
			assert_null(zh.name == Z_NULL ? NULL : (zh.name[0] ? zh.name : NULL));
		}
		if (variant >= 2) {
			assert_int_equal(zh.extra_len, sizeof(extra));
			assert_memory_equal(zextra, extra, sizeof(extra));
		}

		/* And isal_read_gzip_header. */
		struct inflate_state *is = xmalloc(sizeof(*is));
		isal_inflate_init(is);
		struct isal_gzip_header rh;
		isal_gzip_header_init(&rh);
		uint8_t rextra[400];
		char rname[64], rcomment[64];
		rh.extra = rextra;
		rh.extra_buf_len = sizeof(rextra);
		rh.name = rname;
		rh.name_buf_len = sizeof(rname);
		rh.comment = rcomment;
		rh.comment_buf_len = sizeof(rcomment);
		is->next_in = buf;
		is->avail_in = (uint32_t)n;
		int rr = isal_read_gzip_header(is, &rh);
		assert_int_equal(rr, ISAL_DECOMP_OK);
		assert_int_equal(rh.time, h.time);
		assert_int_equal(rh.os, 3);
		assert_int_equal(rh.text, (uint32_t)(variant & 1));
		assert_int_equal(is->next_in - buf, need);
		if (variant >= 1) {
			assert_string_equal(rname, name);
			assert_string_equal(rcomment, comment);
		}
		if (variant >= 2) {
			assert_int_equal(rh.extra_len, sizeof(extra));
			assert_memory_equal(rextra, extra, sizeof(extra));
		}
		free(is);
		free(out);
		free(s);
	}

	/* An extra field longer than a gzip header can hold (XLEN is 16 bits). */
	{
		struct isal_gzip_header h;
		isal_gzip_header_init(&h);
		uint8_t *big = xmalloc(70000);
		memset(big, 'x', 70000);
		h.extra = big;
		h.extra_len = 70000;
		struct isal_zstream *s = xmalloc(sizeof(*s));
		isal_deflate_init(s);
		size_t bcap = 200000;
		uint8_t *bb = xmalloc(bcap);
		memset(bb, 0xa5, bcap);
		s->next_out = bb;
		s->avail_out = (uint32_t)bcap;
		uint32_t r = isal_write_gzip_header(s, &h);
		print_message("extra_len 70000: isal_write_gzip_header returned %u, wrote %u "
			      "bytes\n",
			      r, s->total_out);
#ifdef STOA_ISAL_IGZIP_LIB_H
		if (r == 0) {
			uint16_t xlen = (uint16_t)(bb[10] | bb[11] << 8);
			VFAIL("an extra field of 70000 bytes was accepted (XLEN written as %u, "
			      "%u bytes): it cannot be represented\n",
			      xlen, s->total_out);
		} else if (s->next_out != bb || s->total_out != 0) {
			VFAIL("extra_len 70000 rejected, but %u bytes were written\n", s->total_out);
		}
#else
		/* ISA-L 2.30 writes XLEN modulo 65536 and all 70000 bytes: a corrupt header. */
		assert_int_equal(r, 0);
		assert_int_equal(bb[10] | bb[11] << 8, 70000 & 0xffff);
		print_message("ISA-L 2.30 writes a corrupt header for extra_len 70000 (stoa must "
			      "reject it)\n");
#endif
		free(bb);
		free(big);
		free(s);
	}

	/* zlib headers: plain and with a dictionary id. */
	for (int with_dict = 0; with_dict < 2; with_dict++)
		for (uint32_t info = 0; info <= 7; info++) {
			struct isal_zlib_header zh;
			memset(&zh, 0, sizeof(zh));
			zh.info = info;
			zh.level = info & 3;
			zh.dict_flag = (uint32_t)with_dict;
			zh.dict_id = 0x12345678u;
			struct isal_zstream *s = xmalloc(sizeof(*s));
			isal_deflate_init(s);
			uint8_t zb[16];
			memset(zb, 0xa5, sizeof(zb));
			s->next_out = zb;
			s->avail_out = 1;
			uint32_t need = isal_write_zlib_header(s, &zh);
			assert_int_equal(need, with_dict ? 6 : 2);
			assert_int_equal(zb[0], 0xa5);
			assert_int_equal(s->avail_out, 1);
			s->avail_out = sizeof(zb);
			assert_int_equal(isal_write_zlib_header(s, &zh), 0);
			assert_int_equal(s->total_out, need);
			assert_int_equal(zb[0], info << 4 | 8);
			assert_int_equal(((unsigned)zb[0] << 8 | zb[1]) % 31, 0);
			assert_int_equal((zb[1] >> 5) & 1, with_dict);
			assert_int_equal(zb[1] >> 6, info & 3);
			if (with_dict) {
#ifdef STOA_ISAL_IGZIP_LIB_H
				/* RFC 1950: DICTID is most significant byte first. */
				assert_int_equal(get_be32(zb + 2), 0x12345678u);
#else
				/* ISA-L 2.30 stores it little-endian (zlib cannot use it). */
				assert_int_equal(get_le32(zb + 2), 0x12345678u);
#endif
			}

			struct inflate_state *is = xmalloc(sizeof(*is));
			isal_inflate_init(is);
			struct isal_zlib_header rh;
			memset(&rh, 0, sizeof(rh));
			is->next_in = zb;
			is->avail_in = need;
			assert_int_equal(isal_read_zlib_header(is, &rh), ISAL_DECOMP_OK);
			assert_int_equal(rh.info, info);
			assert_int_equal(rh.level, info & 3);
			assert_int_equal(rh.dict_flag, (uint32_t)with_dict);
			if (with_dict)
				assert_int_equal(rh.dict_id, 0x12345678u);
			free(is);
			free(s);
		}
	free(buf);
	print_message("isal_write_gzip_header: plain, name+comment, +extra, +hcrc read back by "
		      "zlib inflateGetHeader and isal_read_gzip_header; too-small output returns "
		      "the size and writes nothing; extra_len 70000 rejected; "
		      "isal_write_zlib_header for every window and level, with and without "
		      "dictionary id\n");
	if (bad)
		fail();
}

static void test_hufftables(void **state)
{
	(void)state;
	const struct dataset *train = matrix_file(0), *other = matrix_file(1);
	struct isal_huff_histogram *hist = xmalloc(sizeof(*hist));
	struct isal_hufftables *tab = xmalloc(sizeof(*tab)), *sub = xmalloc(sizeof(*sub));
	memset(hist, 0, sizeof(*hist));
	isal_update_histogram(train->data, (int)train->len, hist);
	uint64_t lits = 0, lens = 0, dists = 0;
	for (int i = 0; i < 256; i++)
		lits += hist->lit_len_histogram[i];
	for (int i = 257; i < ISAL_DEF_LIT_LEN_SYMBOLS; i++)
		lens += hist->lit_len_histogram[i];
	for (int i = 0; i < ISAL_DEF_DIST_SYMBOLS; i++)
		dists += hist->dist_histogram[i];
	if (lits == 0 || lens == 0 || lens != dists || hist->lit_len_histogram[256] == 0)
		TEST_FAIL("histogram of %s: %" PRIu64 " literals, %" PRIu64 " lengths, %" PRIu64
			  " distances, %" PRIu64 " end-of-block\n",
			  train->name, lits, lens, dists, hist->lit_len_histogram[256]);
	/* Every byte not covered by a match is a literal: at most the file size in all. */
	if (lits + 3 * lens > train->len + 258)
		TEST_FAIL("histogram counts more symbols than %s can hold\n", train->name);
	assert_int_equal(isal_create_hufftables(tab, hist), 0);
	assert_int_equal(isal_create_hufftables_subset(sub, hist), 0);

	unsigned streams = 0;
	for (int level = 0; level <= 3; level++) {
		struct dparams p = dparams_default(level);
		size_t def = roundtrip(train->name, &p, train->data, train->len, NULL);
		p.huff_set = 1;
		p.huff = tab;
		p.huff_type = IGZIP_HUFFTABLE_CUSTOM;
		size_t custom = roundtrip(train->name, &p, train->data, train->len, NULL);
		roundtrip(other->name, &p, other->data, other->len, NULL);
		p.huff = sub;
		size_t subset = roundtrip(train->name, &p, train->data, train->len, NULL);
		p.huff = NULL;
		p.huff_type = IGZIP_HUFFTABLE_STATIC;
		struct ref_stats st;
		size_t stat = roundtrip(train->name, &p, train->data, train->len, &st);
		if (level == 0 && (st.blocks[1] == 0 || st.blocks[2] != 0))
			TEST_FAIL("level 0 with IGZIP_HUFFTABLE_STATIC: %zu fixed, %zu dynamic "
				  "blocks\n",
				  st.blocks[1], st.blocks[2]);
		p.huff_type = IGZIP_HUFFTABLE_DEFAULT;
		roundtrip(train->name, &p, train->data, train->len, NULL);
		p.huff_type = IGZIP_HUFFTABLE_CUSTOM;
		p.huff = tab;
		p.gzip_flag = IGZIP_ZLIB;
		p.in_chunk = CH_RANDOM;
		p.flush = FULL_FLUSH;
		roundtrip(train->name, &p, train->data, train->len, NULL);
		p.stateless = 1;
		p.in_chunk = CH_WHOLE;
		roundtrip(train->name, &p, train->data, train->len, NULL);
		streams += 8;
		print_message("level %d, %s: default %zu, custom %zu, subset %zu, static %zu "
			      "bytes\n",
			      level, train->name, def, custom, subset, stat);
		if (level == 0 && custom > def + def / 50)
			TEST_FAIL("level 0: tables trained on %s give %zu bytes, the default %zu\n",
				  train->name, custom, def);
	}
	/* Tables built from an all-zero histogram and from one byte value still work. */
	memset(hist, 0, sizeof(*hist));
	assert_int_equal(isal_create_hufftables(tab, hist), 0);
	struct dparams p = dparams_default(0);
	p.huff_set = 1;
	p.huff = tab;
	roundtrip(other->name, &p, other->data, other->len, NULL);
	uint8_t ones[5000];
	memset(ones, 'q', sizeof(ones));
	memset(hist, 0, sizeof(*hist));
	isal_update_histogram(ones, sizeof(ones), hist);
	assert_int_equal(isal_create_hufftables(tab, hist), 0);
	roundtrip(other->name, &p, other->data, other->len, NULL);
	streams += 2;
	free(hist);
	free(tab);
	free(sub);
	print_message("isal_update_histogram over %s; isal_create_hufftables and _subset; "
		      "IGZIP_HUFFTABLE_CUSTOM/STATIC/DEFAULT at levels 0-3: %u streams decode\n",
		      train->name, streams);
}

/* A stream set up for one call: level, optional level_buf of lbs bytes. */
struct misuse {
	struct isal_zstream s;
	uint8_t in[4096];
	uint8_t out[8192];
	uint8_t *lb;
};

static struct misuse *misuse_new(int stateless, uint32_t level, uint32_t lbs)
{
	struct misuse *m = xmalloc(sizeof(*m));
	for (size_t i = 0; i < sizeof(m->in); i++)
		m->in[i] = (uint8_t)(i * i >> 3);
	if (stateless)
		isal_deflate_stateless_init(&m->s);
	else
		isal_deflate_init(&m->s);
	m->lb = lbs ? xmalloc(lbs) : NULL;
	m->s.level = level;
	m->s.level_buf = m->lb;
	m->s.level_buf_size = lbs;
	m->s.next_in = m->in;
	m->s.avail_in = sizeof(m->in);
	m->s.next_out = m->out;
	m->s.avail_out = sizeof(m->out);
	m->s.end_of_stream = 1;
	return m;
}

static int misuse_call(struct misuse *m, int stateless)
{
	return stateless ? isal_deflate_stateless(&m->s) : isal_deflate(&m->s);
}

static void misuse_free(struct misuse *m)
{
	free(m->lb);
	free(m);
}

static void test_error_codes(void **state)
{
	(void)state;
	unsigned checks = 0;
	int bad = 0; /* every mismatch is reported before the test fails */
	for (int sl = 0; sl < 2; sl++) {
		const char *fn = sl ? "isal_deflate_stateless" : "isal_deflate";
		struct misuse *m;
		/* Levels above the maximum (with a level buffer: ISA-L checks the buffer
		 * first). */
		static const uint32_t bad_levels[] = { 4, 5, 100, 0xffffffffu };
		for (size_t i = 0; i < sizeof(bad_levels) / sizeof(bad_levels[0]); i++) {
			m = misuse_new(sl, bad_levels[i], ISAL_DEF_LVL3_DEFAULT);
			int r = misuse_call(m, sl);
			if (r != ISAL_INVALID_LEVEL)
				VFAIL("%s level %u: %d, expected ISAL_INVALID_LEVEL\n", fn,
					  bad_levels[i], r);
			misuse_free(m);
			checks++;
		}
		/* No level buffer: ISAL_INVALID_LEVEL_BUF. One below the level's minimum:
		 * ISA-L 2.30 returns ISAL_INVALID_LEVEL (the level cannot run in that
		 * buffer). */
		for (uint32_t level = 1; level <= 3; level++) {
			uint32_t min = level_buf_size((int)level, 0);
			if (!(sl && level == 1)) {
				m = misuse_new(sl, level, 0);
				m->s.level_buf_size = min;
				int r = misuse_call(m, sl);
				if (r != ISAL_INVALID_LEVEL_BUF)
					VFAIL("%s level %u with level_buf NULL: %d, expected "
						  "ISAL_INVALID_LEVEL_BUF\n",
						  fn, level, r);
				misuse_free(m);
				checks++;
			}
			const uint32_t smalls[] = { 64, min / 2, min - 1 };
			for (size_t i = 0; i < 3; i++) {
				uint32_t small = smalls[i];
				m = misuse_new(sl, level, small);
				int r = misuse_call(m, sl);
				if (r != ISAL_INVALID_LEVEL)
					VFAIL("%s level %u with a %u-byte level_buf (MIN %u): %d, "
						  "expected ISAL_INVALID_LEVEL\n",
						  fn, level, small, min, r);
				misuse_free(m);
				checks++;
			}
			m = misuse_new(sl, level, min);
			assert_int_equal(misuse_call(m, sl), COMP_OK);
			misuse_free(m);
			checks += 2;
		}
		/* Flush values. */
		for (int fl = 0; fl < 6; fl++) {
			m = misuse_new(sl, 0, 0);
			m->s.flush = (uint16_t)fl;
			int r = misuse_call(m, sl);
			int expect = fl == NO_FLUSH || fl == FULL_FLUSH || (!sl && fl == SYNC_FLUSH)
					     ? COMP_OK
					     : INVALID_FLUSH;
			if (r != expect)
				VFAIL("%s with flush %d: %d, expected %d\n", fn, fl, r, expect);
			misuse_free(m);
			checks++;
		}
	}
	/* Stateless output too small: STATELESS_OVERFLOW at every level, and at the exact size
	 * it succeeds. */
	for (uint32_t level = 0; level <= 3; level++) {
		struct misuse *m = misuse_new(1, level, level_buf_size((int)level, -1));
		int r = isal_deflate_stateless(&m->s);
		assert_int_equal(r, COMP_OK);
		uint32_t need = m->s.total_out;
		misuse_free(m);
		/* The output ends at a guard page: nothing may be written past avail_out. */
		for (uint32_t room = 0; room < need; room += 1 + room / 3) {
			m = misuse_new(1, level, level_buf_size((int)level, -1));
			uint8_t *g = guard_alloc(room, GUARD_BACK);
			m->s.next_out = g;
			m->s.avail_out = room;
			r = isal_deflate_stateless(&m->s);
			if (r != STATELESS_OVERFLOW)
				VFAIL("stateless level %u, %u of %u bytes of room: %d, expected "
					  "STATELESS_OVERFLOW\n",
					  level, room, need, r);
			guard_free(g, room, GUARD_BACK);
			misuse_free(m);
			checks++;
		}
	}
	/* A dictionary or new tables after the stream has taken data. */
	for (uint32_t level = 0; level <= 3; level++) {
		struct misuse *m = misuse_new(0, level, level_buf_size((int)level, -1));
		m->s.end_of_stream = 0;
		assert_int_equal(isal_deflate(&m->s), COMP_OK);
		uint8_t dict[64] = { 1, 2, 3 };
		int r = isal_deflate_set_dict(&m->s, dict, sizeof(dict));
		if (r != ISAL_INVALID_STATE)
			VFAIL("level %u: isal_deflate_set_dict after data returned %d, expected "
				  "ISAL_INVALID_STATE\n",
				  level, r);
		struct isal_dict *pd = xmalloc(sizeof(*pd));
		memset(pd, 0, sizeof(*pd));
		struct misuse *fresh = misuse_new(0, level, level_buf_size((int)level, -1));
		assert_int_equal(isal_deflate_process_dict(&fresh->s, pd, dict, sizeof(dict)),
				 COMP_OK);
		r = isal_deflate_reset_dict(&m->s, pd);
		if (r != ISAL_INVALID_STATE)
			VFAIL("level %u: isal_deflate_reset_dict after data returned %d, "
				  "expected ISAL_INVALID_STATE\n",
				  level, r);
		r = isal_deflate_set_hufftables(&m->s, NULL, IGZIP_HUFFTABLE_STATIC);
		if (r != ISAL_INVALID_OPERATION)
			VFAIL("level %u: isal_deflate_set_hufftables after data returned %d, "
				  "expected ISAL_INVALID_OPERATION\n",
				  level, r);
		/* A processed dictionary used at a different level. */
		fresh->s.level = level == 3 ? 1 : level + 1;
		if (fresh->s.level > 0 && !fresh->lb) {
			fresh->lb = xmalloc(ISAL_DEF_LVL3_DEFAULT);
			fresh->s.level_buf = fresh->lb;
			fresh->s.level_buf_size = ISAL_DEF_LVL3_DEFAULT;
		}
		r = isal_deflate_reset_dict(&fresh->s, pd);
		if (r != ISAL_INVALID_STATE)
			VFAIL("dictionary processed at level %u, reset at level %u: %d, "
				  "expected ISAL_INVALID_STATE\n",
				  level, fresh->s.level, r);
		/* Bad table type and CUSTOM without tables. */
		misuse_free(fresh);
		fresh = misuse_new(0, level, level_buf_size((int)level, -1));
		r = isal_deflate_set_hufftables(&fresh->s, NULL, 7);
		if (r != ISAL_INVALID_OPERATION)
			VFAIL("isal_deflate_set_hufftables type 7: %d\n", r);
		r = isal_deflate_set_hufftables(&fresh->s, NULL, IGZIP_HUFFTABLE_CUSTOM);
		if (r != ISAL_INVALID_OPERATION)
			VFAIL("isal_deflate_set_hufftables CUSTOM with NULL: %d\n", r);
		misuse_free(fresh);
		free(pd);
		misuse_free(m);
		checks += 6;
	}
	/* After a finished stream, more calls change nothing. */
	{
		struct misuse *m = misuse_new(0, 1, ISAL_DEF_LVL1_DEFAULT);
		assert_int_equal(isal_deflate(&m->s), COMP_OK);
		assert_int_equal(m->s.internal_state.state, ZSTATE_END);
		uint32_t tout = m->s.total_out;
		assert_int_equal(isal_deflate(&m->s), COMP_OK);
		assert_int_equal(m->s.total_out, tout);
		misuse_free(m);
		checks++;
	}
	print_message("%u misuse checks: ISAL_INVALID_LEVEL, ISAL_INVALID_LEVEL_BUF, INVALID_FLUSH, "
		      "STATELESS_OVERFLOW at every short output size, ISAL_INVALID_STATE for "
		      "dictionaries after data or at another level, ISAL_INVALID_OPERATION for "
		      "tables after data or bad types; values as ISA-L 2.30 returns them\n",
		      checks);
	if (bad)
		fail();
}

#ifndef AGAINST_SYSTEM
/* ---- Debian's libisal in another process ---------------------------------------------------- */

#define ORACLE_COUNT 60

/* Every result line of a sweep says rc=; enough of them succeeded, decoded and overflowed for the
 * comparison to mean something. */
static void check_oracle_sweep(const struct oracle_output *o)
{
	const char *pos = o->text, *l;
	size_t len, lines = 0, decoded = 0, overflow = 0, flush_checked = 0;
	while ((l = oracle_next_line(&pos, &len, NULL))) {
		lines++;
		const char *line_end = l + len;
		const char *dec = strstr(l, " dec=ok");
		const char *ovf = strstr(l, " rc=-1");
		const char *fp = strstr(l, " flush_points=");
		decoded += dec && dec < line_end;
		overflow += ovf && ovf < line_end;
		flush_checked += fp && fp < line_end && fp[14] != '0';
		const char *bad = strstr(l, "BAD");
		if (bad && bad < line_end)
			TEST_FAIL("zlib could not decode: %.*s\n", (int)len, l);
	}
	print_message("oracle sweep: %zu lines, %zu streams decoded by zlib, %zu overflows, %zu "
		      "streams with flush points checked\n",
		      lines, decoded, overflow, flush_checked);
	assert_true(decoded >= ORACLE_COUNT);
	assert_true(overflow >= ORACLE_COUNT / 2);
	assert_true(flush_checked >= ORACLE_COUNT / 4);
}

static void test_isal_oracle(void **state)
{
	(void)state;
	struct oracle_output sys, ours;
	oracle_run("deflate", ORACLE_SYSTEM, test_seed(), ORACLE_COUNT, &sys);
	oracle_run("deflate", ORACLE_STOA, test_seed(), ORACLE_COUNT, &ours);
	check_oracle_sweep(&sys);
	check_oracle_sweep(&ours);
	size_t n = oracle_compare("libisal", &sys, "stoa", &ours, NULL, NULL);
	print_message("Debian libisal vs stoa: %zu results (return codes, input taken, zlib "
		      "decodes at the end and at every flush, adler32, header bytes) identical\n",
		      n);
	assert_true(n > 3 * ORACLE_COUNT);
	oracle_free(&sys);
	oracle_free(&ours);
}

static void test_compat_abi(void **state)
{
	(void)state;
	size_t n = oracle_check_compat("deflate", test_seed(), ORACLE_COUNT / 3);
	assert_true(n > ORACLE_COUNT);
}
#endif

static int setup(void **state)
{
	(void)state;
	test_seed();
	load_corpus();
	printf("%zu data files from %s\n", n_files, corpus_root);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < n_files; i++)
		free(files[i].data);
	printf("%u streams decoded and checked in all\n", n_checked_streams);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_input),
		cmocka_unit_test(test_error_codes),
		cmocka_unit_test(test_gzip_header),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_corpus_sample),
		cmocka_unit_test(test_hist_bits),
		cmocka_unit_test(test_level_buf_sizes),
		cmocka_unit_test(test_dictionary),
		cmocka_unit_test(test_dict_modes),
		cmocka_unit_test(test_random_stored_bound),
		cmocka_unit_test(test_hufftables),
		cmocka_unit_test(test_gzip_command),
		cmocka_unit_test(test_long_runs_and_random),
		cmocka_unit_test(test_window_edges),
		cmocka_unit_test(test_4gib_stream),
#ifndef AGAINST_SYSTEM
		cmocka_unit_test(test_isal_oracle),
		cmocka_unit_test(test_compat_abi),
#endif
	};
	/* STOA_TEST_FILTER=test_reset (a glob) runs only the matching tests. */
	const char *filter = getenv("STOA_TEST_FILTER");
	if (filter && *filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests_name("deflate", tests, setup, teardown);
}
