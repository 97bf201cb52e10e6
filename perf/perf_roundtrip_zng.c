/* zlib-ng's side of the round trip (perf_roundtrip.c): its own file because zlib-ng.h and zlib.h
 * define the same macros and cannot share a translation unit. */
#include <stddef.h>
#include <stdint.h>

#include "perf_igzip.h"

#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_ZLIBNG)
#include <string.h>
#include <zlib-ng.h>

size_t perf_zng_compress(const uint8_t *in, size_t len, uint8_t *out, size_t cap, int level)
{
	zng_stream z;
	memset(&z, 0, sizeof(z));
	if (zng_deflateInit2(&z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	z.next_in = in;
	z.avail_in = (uint32_t)len;
	z.next_out = out;
	z.avail_out = (uint32_t)cap;
	int ret = zng_deflate(&z, Z_FINISH);
	size_t n = z.total_out;
	zng_deflateEnd(&z);
	return ret == Z_STREAM_END ? n : 0;
}

size_t perf_zng_decompress(const uint8_t *in, size_t clen, uint8_t *out, size_t len)
{
	zng_stream z;
	memset(&z, 0, sizeof(z));
	if (zng_inflateInit2(&z, -15) != Z_OK)
		return 0;
	z.next_in = in;
	z.avail_in = (uint32_t)clen;
	z.next_out = out;
	z.avail_out = (uint32_t)len;
	int ret = zng_inflate(&z, Z_FINISH);
	size_t n = z.total_out;
	zng_inflateEnd(&z);
	return ret == Z_STREAM_END ? n : 0;
}
#else
/* (Nothing else in this build: ISO C wants a declaration in every file.) */
typedef int perf_roundtrip_zng_unused;
#endif
