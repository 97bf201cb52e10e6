/* The round trip (stoa_perf --roundtrip): what a program that compresses with a library and later
 * decompresses with the same library sees. Each library compresses the concatenated Calgary
 * corpus at each of its levels and then inflates its own output:
 *   stoa and ISA-L (each in its own driver build): isal_deflate_stateless (raw deflate, one call)
 *     and isal_deflate (gzip from 64 KiB input chunks), each inflated by isal_inflate_stateless;
 *     levels 0-3, and 4-9 where the library has them (stoa);
 *   zlib, libdeflate and zlib-ng (stoa build, where installed): raw deflate in one call at levels
 *     1-9, inflated in one call.
 * One CSV line per library, mode and level on stdout:
 *   roundtrip,LIBRARY,MODE,LEVEL,INPUT_BYTES,COMPRESSED_BYTES,COMPRESS_MBPS,DECOMPRESS_MBPS
 * (MB/s of input bytes both ways, the best of a few calls). Every output is inflated once and
 * compared with the input before it is timed; a mismatch ends the run with status 1.
 *
 * The drivers run apart, so their rows meet different moments of a shared machine's load. The
 * paired form (stoa_perf --roundtrip-pair LIB, stoa build) loads another build of the ISA-L API
 * (upstream ISA-L's libisal.so) with dlmopen into a namespace of its own, lets each library
 * compress at levels 0-3 both ways and then inflates the two outputs in alternation, each by its
 * own library (CPU time, the best of three calls per turn), and prints the median and quartiles
 * of the per-turn ratios (above 1: stoa faster):
 *   roundtrip_pair,LIBRARY,MODE,LEVEL,INPUT_BYTES,STOA_BYTES,PEER_BYTES,MEDIAN,Q1,Q3
 * then, where zlib is linked, stoa's inflate on stoa's output at each level from 4 against the
 * same inflate on zlib -9's (roundtrip_z9pair lines), and where libdeflate is linked, the same as
 * the pairs above against each libdeflate level with the lowest stoa level (one call) whose
 * output is no larger (roundtrip_ldpair lines). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

#if defined(PERF_LIB_STOA) && defined(STOA_DEF_MAX_LEVEL)
#define RT_MAX_LEVEL STOA_DEF_MAX_LEVEL
#else
#define RT_MAX_LEVEL 3
#endif

#ifndef PERF_NO_DEFLATE
#define RT_HAVE_ISAL 1
#else
#define RT_HAVE_ISAL 0
#endif

/* Calls per measurement (the best one counts): quick, then full. */
struct rt_reps {
	int comp, dec;
};

struct rt_io {
	const uint8_t *in;
	size_t len;
	uint8_t *comp, *back;
	size_t cap;
	struct rt_reps reps;
	int failed;
};

/* Seconds on clock id (CLOCK_MONOTONIC for the rows, the thread's CPU time for the pairs). */
static double rt_clock(clockid_t id)
{
	struct timespec t;
	clock_gettime(id, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double rt_now(void)
{
	return rt_clock(CLOCK_MONOTONIC);
}

/* One compressor or decompressor call on io: the compressed length (compress) or the
 * decompressed length (decompress); 0 on failure. */
typedef size_t rt_fn(struct rt_io *io, int level, int gzip);

/* Times comp then dec, checks the round trip, prints the line. */
static void rt_measure(struct rt_io *io, const char *library, const char *mode, int level,
                       int gzip, rt_fn *comp, rt_fn *dec)
{
	double tc = 1e30, td = 1e30;
	size_t clen = 0;
	for (int r = 0; r < io->reps.comp; r++) {
		double t = rt_now();
		clen = comp(io, level, gzip);
		t = rt_now() - t;
		tc = t < tc ? t : tc;
	}
	memset(io->back, 0, io->len);
	if (!clen || dec(io, (int)clen, gzip) != io->len || memcmp(io->back, io->in, io->len)) {
		fprintf(stderr, "stoa_perf --roundtrip: %s %s level %d does not round-trip\n",
		        library, mode, level);
		io->failed = 1;
		return;
	}
	for (int r = 0; r < io->reps.dec; r++) {
		double t = rt_now();
		dec(io, (int)clen, gzip);
		t = rt_now() - t;
		td = t < td ? t : td;
	}
	printf("roundtrip,%s,%s,%d,%zu,%zu,%.1f,%.1f\n", library, mode, level, io->len, clen,
	       (double)io->len / tc / 1e6, (double)io->len / td / 1e6);
	fflush(stdout);
}

#if RT_HAVE_ISAL
static uint8_t *rt_level_buf;

static uint32_t rt_level_buf_size(int level)
{
	switch (level) {
	case 1: return ISAL_DEF_LVL1_DEFAULT;
	case 2: return ISAL_DEF_LVL2_DEFAULT;
	case 3: return ISAL_DEF_LVL3_DEFAULT;
#if RT_MAX_LEVEL >= 9
	case 4: return ISAL_DEF_LVL4_DEFAULT;
	case 5: return ISAL_DEF_LVL5_DEFAULT;
	case 6: return ISAL_DEF_LVL6_DEFAULT;
	case 7: return ISAL_DEF_LVL7_DEFAULT;
	case 8: return ISAL_DEF_LVL8_DEFAULT;
	case 9: return ISAL_DEF_LVL9_DEFAULT;
#endif
#if RT_MAX_LEVEL >= 12
	case 10: return ISAL_DEF_LVL10_DEFAULT;
	case 11: return ISAL_DEF_LVL11_DEFAULT;
	case 12: return ISAL_DEF_LVL12_DEFAULT;
#endif
	default: return 0;
	}
}

/* The ISA-L API functions the round trip calls: the linked library's, or (paired form) those of
 * a build loaded beside it. */
struct rt_api {
	void (*deflate_init)(struct isal_zstream *);
	void (*deflate_stateless_init)(struct isal_zstream *);
	int (*deflate)(struct isal_zstream *);
	int (*deflate_stateless)(struct isal_zstream *);
	void (*inflate_init)(struct inflate_state *);
	int (*inflate_stateless)(struct inflate_state *);
};

static const struct rt_api rt_linked = { isal_deflate_init,      isal_deflate_stateless_init,
					 isal_deflate,           isal_deflate_stateless,
					 isal_inflate_init,      isal_inflate_stateless };

static size_t api_comp(const struct rt_api *a, struct rt_io *io, int level, int gzip)
{
	static struct isal_zstream z;
	if (gzip)
		a->deflate_init(&z);
	else
		a->deflate_stateless_init(&z);
	z.level = (uint32_t)level;
	z.level_buf = level ? rt_level_buf : NULL;
	z.level_buf_size = rt_level_buf_size(level);
	z.gzip_flag = gzip ? IGZIP_GZIP : IGZIP_DEFLATE;
	z.flush = NO_FLUSH;
	z.next_out = io->comp;
	z.avail_out = (uint32_t)io->cap;
	if (!gzip) {
		z.end_of_stream = 1;
		z.next_in = (uint8_t *)(uintptr_t)io->in;
		z.avail_in = (uint32_t)io->len;
		return a->deflate_stateless(&z) == COMP_OK ? z.total_out : 0;
	}
	size_t at = 0;
	z.avail_in = 0;
	for (size_t guard = 0; guard < io->len / 1024 + 1024; guard++) {
		if (!z.avail_in && at < io->len) {
			size_t n = io->len - at < 64 * KIB ? io->len - at : 64 * KIB;
			z.next_in = (uint8_t *)(uintptr_t)(io->in + at);
			z.avail_in = (uint32_t)n;
			at += n;
			z.end_of_stream = at == io->len;
		}
		if (a->deflate(&z) != COMP_OK)
			return 0;
		if (z.internal_state.state == ZSTATE_END)
			return z.total_out;
	}
	return 0;
}

static size_t api_dec(const struct rt_api *a, const uint8_t *comp, int clen, uint8_t *back,
		      size_t len, int gzip)
{
	static struct inflate_state s;
	a->inflate_init(&s);
	s.next_in = (uint8_t *)(uintptr_t)comp;
	s.avail_in = (uint32_t)clen;
	s.next_out = back;
	s.avail_out = (uint32_t)len;
	s.crc_flag = gzip ? ISAL_GZIP : ISAL_DEFLATE;
	return a->inflate_stateless(&s) == ISAL_DECOMP_OK ? s.total_out : 0;
}

static size_t isal_comp(struct rt_io *io, int level, int gzip)
{
	return api_comp(&rt_linked, io, level, gzip);
}

static size_t isal_dec(struct rt_io *io, int clen, int gzip)
{
	return api_dec(&rt_linked, io->comp, clen, io->back, io->len, gzip);
}
#endif

#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_ZLIB)
static size_t zlib_comp(struct rt_io *io, int level, int gzip)
{
	(void)gzip;
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	z.next_in = (Bytef *)(uintptr_t)io->in;
	z.avail_in = (uInt)io->len;
	z.next_out = io->comp;
	z.avail_out = (uInt)io->cap;
	int ret = deflate(&z, Z_FINISH);
	size_t n = z.total_out;
	deflateEnd(&z);
	return ret == Z_STREAM_END ? n : 0;
}

static size_t zlib_dec(struct rt_io *io, int clen, int gzip)
{
	(void)gzip;
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, -15) != Z_OK)
		return 0;
	z.next_in = io->comp;
	z.avail_in = (uInt)clen;
	z.next_out = io->back;
	z.avail_out = (uInt)io->len;
	int ret = inflate(&z, Z_FINISH);
	size_t n = z.total_out;
	inflateEnd(&z);
	return ret == Z_STREAM_END ? n : 0;
}
#endif

#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_LIBDEFLATE)
static size_t ld_comp(struct rt_io *io, int level, int gzip)
{
	(void)gzip;
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(level);
	size_t n = c ? libdeflate_deflate_compress(c, io->in, io->len, io->comp, io->cap) : 0;
	libdeflate_free_compressor(c);
	return n;
}

static size_t ld_dec(struct rt_io *io, int clen, int gzip)
{
	(void)gzip;
	static struct libdeflate_decompressor *d;
	if (!d)
		d = libdeflate_alloc_decompressor();
	size_t n = 0;
	if (!d || libdeflate_deflate_decompress(d, io->comp, (size_t)clen, io->back, io->len,
	                                        &n) != LIBDEFLATE_SUCCESS)
		return 0;
	return n;
}
#endif

#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_ZLIBNG)
static size_t zng_comp(struct rt_io *io, int level, int gzip)
{
	(void)gzip;
	return perf_zng_compress(io->in, io->len, io->comp, io->cap, level);
}

static size_t zng_dec(struct rt_io *io, int clen, int gzip)
{
	(void)gzip;
	return perf_zng_decompress(io->comp, (size_t)clen, io->back, io->len);
}
#endif

/* The corpus and the buffers; 0, or 2 when memory ran out. */
static int rt_open(struct rt_io *io)
{
	io->len = inputs[IN_CAT0].len;
	io->in = load_input(IN_CAT0, io->len);
	io->cap = io->len + io->len / 4 + 64 * KIB;
	io->comp = malloc(io->cap);
	io->back = malloc(io->len);
	return io->in && io->comp && io->back ? 0 : 2;
}

static void rt_close(struct rt_io *io)
{
	free((void *)(uintptr_t)io->in);
	free(io->comp);
	free(io->back);
}

#if defined(PERF_LIB_STOA) && RT_HAVE_ISAL
/* The best of three inflations of comp by a's library, CPU seconds; -1 if it does not give back
 * the input. */
static double rt_dec_time(const struct rt_api *a, const uint8_t *comp, size_t clen,
			  struct rt_io *io, int gzip)
{
	double best = 1e30;
	for (int r = 0; r < 3; r++) {
		double t = rt_clock(CLOCK_THREAD_CPUTIME_ID);
		size_t n = api_dec(a, comp, (int)clen, io->back, io->len, gzip);
		t = rt_clock(CLOCK_THREAD_CPUTIME_ID) - t;
		if (n != io->len)
			return -1;
		best = t < best ? t : best;
	}
	return memcmp(io->back, io->in, io->len) ? -1 : best;
}

static int rt_cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

#if defined(PERF_HAVE_LIBDEFLATE)
/* The best of three libdeflate inflations of comp, CPU seconds; -1 if it does not give back the
 * input. */
static double rt_ld_time(const uint8_t *comp, size_t clen, struct rt_io *io)
{
	static struct libdeflate_decompressor *d;
	if (!d && !(d = libdeflate_alloc_decompressor()))
		return -1;
	double best = 1e30;
	for (int r = 0; r < 3; r++) {
		size_t n = 0;
		double t = rt_clock(CLOCK_THREAD_CPUTIME_ID);
		const int rc = libdeflate_deflate_decompress(d, comp, clen, io->back, io->len, &n);
		t = rt_clock(CLOCK_THREAD_CPUTIME_ID) - t;
		if (rc != LIBDEFLATE_SUCCESS || n != io->len)
			return -1;
		best = t < best ? t : best;
	}
	return memcmp(io->back, io->in, io->len) ? -1 : best;
}

/* For each libdeflate level, the lowest stoa level whose one-call output is no larger, each
 * library inflating its own output in alternation (issue: stoa's streams decode at least as fast
 * as libdeflate's own where they are no larger). sc and sn: stoa's one-call output at each level.
 * Lines:
 *   roundtrip_ldpair,LD_LEVEL,STOA_LEVEL,INPUT,STOA_BYTES,LD_BYTES,MEDIAN,Q1,Q3
 * with STOA_LEVEL -1 (and the ratios 0) where no stoa level is as small. */
static int rt_pair_libdeflate(struct rt_io *io, uint8_t *pcomp, int turns, uint8_t *const *sc,
			      const size_t *sn)
{
	int status = 0;
	struct rt_io pio = *io;
	pio.comp = pcomp;
	for (int dl = 1; dl <= 12 && !status; dl++) {
		const size_t pn = ld_comp(&pio, dl, 0);
		int sl = -1;
		for (int l = 0; l <= RT_MAX_LEVEL && sl < 0; l++)
			if (pn && sn[l] <= pn)
				sl = l;
		double r[31] = { 0 };
		for (int t = 0; sl >= 0 && t < turns; t++) {
			const double ts = rt_dec_time(&rt_linked, sc[sl], sn[sl], io, 0);
			const double tp = rt_ld_time(pcomp, pn, io);
			if (ts <= 0 || tp <= 0) {
				fprintf(stderr, "stoa_perf --roundtrip-pair: libdeflate level %d or stoa "
				                "level %d does not round-trip\n",
				        dl, sl);
				status = 1;
				break;
			}
			r[t] = tp / ts;
		}
		if (status)
			break;
		if (sl >= 0)
			qsort(r, (size_t)turns, sizeof(r[0]), rt_cmp_double);
		printf("roundtrip_ldpair,%d,%d,%zu,%zu,%zu,%.3f,%.3f,%.3f\n", dl, sl, io->len,
		       sl >= 0 ? sn[sl] : 0, pn, r[turns / 2], r[turns / 4], r[3 * turns / 4]);
		fflush(stdout);
	}
	return status;
}
#endif

#if defined(PERF_HAVE_ZLIB)
/* Stoa's inflate on stoa's one-call output at each level from 4 against the same inflate on zlib
 * -9's output (default memory level), in alternation (issue: stoa's high-level output inflates at
 * least as fast as zlib -9's). Lines, the ratio zlib -9 time over level time (above 1: stoa's
 * output decodes faster):
 *   roundtrip_z9pair,LEVEL,INPUT,STOA_BYTES,ZLIB9_BYTES,MEDIAN,Q1,Q3 */
static int rt_pair_zlib9(struct rt_io *io, uint8_t *pcomp, int turns, uint8_t *const *sc,
			 const size_t *sn)
{
	struct rt_io pio = *io;
	pio.comp = pcomp;
	const size_t zn = zlib_comp(&pio, 9, 0);
	for (int l = 4; l <= RT_MAX_LEVEL; l++) {
		double r[31];
		for (int t = 0; t < turns; t++) {
			const double ts = rt_dec_time(&rt_linked, sc[l], sn[l], io, 0);
			const double tz = zn ? rt_dec_time(&rt_linked, pcomp, zn, io, 0) : -1;
			if (ts <= 0 || tz <= 0) {
				fprintf(stderr, "stoa_perf --roundtrip-pair: zlib -9 or stoa level %d "
				                "does not round-trip\n",
				        l);
				return 1;
			}
			r[t] = tz / ts;
		}
		qsort(r, (size_t)turns, sizeof(r[0]), rt_cmp_double);
		printf("roundtrip_z9pair,%d,%zu,%zu,%zu,%.3f,%.3f,%.3f\n", l, io->len, sn[l], zn,
		       r[turns / 2], r[turns / 4], r[3 * turns / 4]);
		fflush(stdout);
	}
	return 0;
}
#endif

int perf_roundtrip_pair(const char *lib, int quick)
{
	if (!inputs[IN_CAT0].len) {
		fprintf(stderr, "stoa_perf --roundtrip-pair: no %s input\n", inputs[IN_CAT0].name);
		return 0;
	}
	/* A namespace of its own: the two libraries export the same names. */
	void *h = dlmopen(LM_ID_NEWLM, lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "stoa_perf --roundtrip-pair: %s\n", dlerror());
		return 2;
	}
	struct rt_api peer;
	void **slot[] = { (void **)&peer.deflate_init,      (void **)&peer.deflate_stateless_init,
			  (void **)&peer.deflate,           (void **)&peer.deflate_stateless,
			  (void **)&peer.inflate_init,      (void **)&peer.inflate_stateless };
	static const char *const names[] = { "isal_deflate_init", "isal_deflate_stateless_init",
					     "isal_deflate",      "isal_deflate_stateless",
					     "isal_inflate_init", "isal_inflate_stateless" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!(*slot[i] = dlsym(h, names[i]))) {
			fprintf(stderr, "stoa_perf --roundtrip-pair: %s lacks %s\n", lib, names[i]);
			dlclose(h);
			return 2;
		}
	struct rt_io io = { 0 };
	uint8_t *pcomp = NULL;
	rt_level_buf = malloc(4 * MIB);
	int status = rt_open(&io);
	if (!status && (!rt_level_buf || !(pcomp = malloc(io.cap))))
		status = 2;
	/* Turns: the median of 9 (quick) or 31 ratios. */
	enum { TURNS_MAX = 31 };
	const int turns = quick ? 9 : TURNS_MAX;
	for (int level = 0; level <= 3 && !status; level++)
		for (int gzip = 0; gzip <= 1 && !status; gzip++) {
			struct rt_io pio = io;
			pio.comp = pcomp;
			const size_t sn = api_comp(&rt_linked, &io, level, gzip);
			const size_t pn = api_comp(&peer, &pio, level, gzip);
			double r[TURNS_MAX];
			for (int t = 0; t < turns && !status; t++) {
				/* A failed compression (0 bytes) fails the turn too. */
				const double ts =
					sn ? rt_dec_time(&rt_linked, io.comp, sn, &io, gzip) : -1;
				const double tp = pn ? rt_dec_time(&peer, pcomp, pn, &io, gzip) : -1;
				if (ts <= 0 || tp <= 0) {
					fprintf(stderr,
						"stoa_perf --roundtrip-pair: level %d %s does not "
						"round-trip\n",
						level, gzip ? "stream" : "stateless");
					status = 1;
					break;
				}
				r[t] = tp / ts;
			}
			if (status)
				break;
			qsort(r, (size_t)turns, sizeof(r[0]), rt_cmp_double);
			printf("roundtrip_pair,%s,%s,%d,%zu,%zu,%zu,%.3f,%.3f,%.3f\n", lib,
			       gzip ? "stream" : "stateless", level, io.len, sn, pn, r[turns / 2],
			       r[turns / 4], r[3 * turns / 4]);
			fflush(stdout);
		}
	/* Stoa's one-call output at every level, for the pairs against zlib -9 and libdeflate. */
	size_t sn[RT_MAX_LEVEL + 1];
	uint8_t *sc[RT_MAX_LEVEL + 1] = { 0 };
	for (int l = 0; l <= RT_MAX_LEVEL && !status; l++) {
		sn[l] = api_comp(&rt_linked, &io, l, 0);
		if (!sn[l] || !(sc[l] = malloc(sn[l])))
			status = 2;
		else
			memcpy(sc[l], io.comp, sn[l]);
	}
#if defined(PERF_HAVE_ZLIB)
	if (!status)
		status = rt_pair_zlib9(&io, pcomp, turns, sc, sn);
#endif
#if defined(PERF_HAVE_LIBDEFLATE)
	if (!status)
		status = rt_pair_libdeflate(&io, pcomp, turns, sc, sn);
#endif
	for (int l = 0; l <= RT_MAX_LEVEL; l++)
		free(sc[l]);
	free(pcomp);
	free(rt_level_buf);
	rt_close(&io);
	dlclose(h);
	return status;
}
#endif

int perf_roundtrip(int quick)
{
	if (!inputs[IN_CAT0].len) {
		fprintf(stderr, "stoa_perf --roundtrip: no %s input\n", inputs[IN_CAT0].name);
		return 0;
	}
	struct rt_io io = { 0 };
	/* Quick: one compression (zlib -9 alone takes 0.3 s) and 5 inflations per row. */
	io.reps = quick ? (struct rt_reps){ 1, 5 } : (struct rt_reps){ 5, 20 };
	if (rt_open(&io))
		return 2;
#if RT_HAVE_ISAL
	rt_level_buf = malloc(4 * MIB);
	if (!rt_level_buf)
		return 2;
	for (int level = 0; level <= RT_MAX_LEVEL; level++) {
		rt_measure(&io, PERF_LIBRARY, "stateless", level, 0, isal_comp, isal_dec);
		rt_measure(&io, PERF_LIBRARY, "stream", level, 1, isal_comp, isal_dec);
	}
	free(rt_level_buf);
#endif
	for (int level = 1; level <= 9; level++) {
#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_ZLIB)
		rt_measure(&io, "zlib", "stateless", level, 0, zlib_comp, zlib_dec);
#endif
#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_LIBDEFLATE)
		rt_measure(&io, "libdeflate", "stateless", level, 0, ld_comp, ld_dec);
#endif
#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_ZLIBNG)
		rt_measure(&io, "zlib-ng", "stateless", level, 0, zng_comp, zng_dec);
#endif
	}
	rt_close(&io);
	return io.failed;
}
