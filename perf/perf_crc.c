/* CRC benchmark cases: every function of crc.h and crc64.h, plus zlib's crc32 beside
 * crc32_gzip_refl (the same CRC, so the same answer for the same seed).
 *
 * Bytes are counted as ISA-L's crc perf programs count them: the buffer length. Every call
 * starts from the same seed, so consecutive calls are independent, as they would be for
 * separate blocks; the results are summed so none can be discarded. */
#include "crc.h"
#include "crc64.h"
#include "perf.h"

#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_ZLIB)
#include <zlib.h>
#endif

/* Arbitrary non-trivial seeds, cut to each CRC's width, so a seed mishandled as zero shows up in
 * the cross-library check. */
#define SEED16 ((uint16_t)0x3a5c)
#define SEED32 ((uint32_t)0x6b1d2e4fu)
#define SEED64 ((uint64_t)0x0f1e2d3c4b5a6978ull)

typedef uint16_t crc16_fn(uint16_t init, const unsigned char *buf, uint64_t len);
typedef uint16_t crc16_copy_fn(uint16_t init, uint8_t *dst, uint8_t *src, uint64_t len);
typedef uint32_t crc32_fn(uint32_t init, const unsigned char *buf, uint64_t len);
typedef unsigned int crc32_iscsi_fn(unsigned char *buf, int len, unsigned int init);
typedef uint64_t crc64_fn(uint64_t init, const unsigned char *buf, uint64_t len);

static uint64_t run_crc16(const struct perf_call *c, uint64_t calls)
{
	crc16_fn *f = (crc16_fn *)c->fn;
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++)
		acc += f(SEED16, c->mem, c->size);
	return acc;
}

/* The source is the first half of the instance, the destination the second. */
static uint64_t run_crc16_copy(const struct perf_call *c, uint64_t calls)
{
	crc16_copy_fn *f = (crc16_copy_fn *)c->fn;
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++)
		acc += f(SEED16, c->mem + c->size, c->mem, c->size);
	return acc;
}

static size_t copy_footprint(size_t size)
{
	return 2 * size;
}

static uint64_t run_crc32(const struct perf_call *c, uint64_t calls)
{
	crc32_fn *f = (crc32_fn *)c->fn;
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++)
		acc += f(SEED32, c->mem, c->size);
	return acc;
}

static uint64_t run_crc32_iscsi(const struct perf_call *c, uint64_t calls)
{
	crc32_iscsi_fn *f = (crc32_iscsi_fn *)c->fn;
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++)
		acc += f(c->mem, (int)c->size, SEED32);
	return acc;
}

static uint64_t run_crc64(const struct perf_call *c, uint64_t calls)
{
	crc64_fn *f = (crc64_fn *)c->fn;
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++)
		acc += f(SEED64, c->mem, c->size);
	return acc;
}

#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_ZLIB)
/* zlib's crc32 called directly, not through a wrapper, so it pays no extra call. Its seed is
 * the previous CRC, as crc32_gzip_refl's is, so the results must match. */
static uint64_t run_zlib_crc32(const struct perf_call *c, uint64_t calls)
{
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++)
		acc += crc32(SEED32, c->mem, (uInt)c->size);
	return acc;
}

static const struct perf_peer gzip_peers[] = {
	{ "zlib", "crc32", PERF_FN(crc32), run_zlib_crc32 },
};
#define GZIP_PEERS  gzip_peers
#define GZIP_NPEERS PERF_COUNT(gzip_peers)
#else
#define GZIP_PEERS  NULL
#define GZIP_NPEERS 0
#endif

#define LEN "len"

#define CRC_CASE(fname, runner)                                                                    \
	{                                                                                          \
		.module = "crc", .function = #fname, .params = "", .bytes = LEN,                   \
		.api = PERF_FN(fname), .run = (runner)                                             \
	}

#define CRC64_CASES(poly)                                                                          \
	CRC_CASE(crc64_##poly##_refl, run_crc64), CRC_CASE(crc64_##poly##_norm, run_crc64)

static const struct perf_case crc_cases[] = {
	CRC_CASE(crc16_t10dif, run_crc16),
	{ .module = "crc",
	  .function = "crc16_t10dif_copy",
	  .params = "",
	  .bytes = "len (copied and checksummed once)",
	  .api = PERF_FN(crc16_t10dif_copy),
	  .run = run_crc16_copy,
	  .footprint = copy_footprint },
	CRC_CASE(crc32_ieee, run_crc32),
	{ .module = "crc",
	  .function = "crc32_gzip_refl",
	  .params = "",
	  .bytes = LEN,
	  .api = PERF_FN(crc32_gzip_refl),
	  .run = run_crc32,
	  .peers = GZIP_PEERS,
	  .npeers = GZIP_NPEERS },
	CRC_CASE(crc32_iscsi, run_crc32_iscsi),
	CRC64_CASES(ecma),
	CRC64_CASES(iso),
	CRC64_CASES(jones),
#ifndef PERF_NO_CRC64_ROCKSOFT
	CRC64_CASES(rocksoft),
#endif
};

const struct perf_module perf_module_crc = { "crc", crc_cases, PERF_COUNT(crc_cases) };
