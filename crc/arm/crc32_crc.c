/* crc32_iscsi and crc32_gzip_refl on the CRC32C and CRC32 instructions: three streams of one
 * block in flight, each its own chain of dependent instructions, their states moved to the
 * block's end by a carry-less multiply (crc32_streams_merge_pmull, in the pmull file: these
 * entries need PMULL too) and merged (struct crc32_stream_consts, crc_internal.h). */
#include <arm_acle.h>

#include "crc_arch.h"

#define CRC_INLINE static inline __attribute__((always_inline))

CRC_INLINE uint64_t load_le64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* One step of the CRC32C (castagnoli set) or the CRC32 instruction. */
CRC_INLINE uint32_t crc_step64(uint32_t s, uint64_t v, int castagnoli)
{
	return castagnoli ? __crc32cd(s, v) : __crc32d(s, v);
}

/* Blocks of three streams of CRC32_STREAM_BYTES(i) bytes while they fit. */
CRC_INLINE uint32_t crc_blocks(uint32_t s, const uint8_t **pp, uint64_t *plen, int i,
			       const struct crc32_stream_consts *k, int castagnoli)
{
	const uint64_t n = CRC32_STREAM_BYTES(i);
	const uint8_t *p = *pp;
	uint64_t len = *plen;
	for (; len >= 3 * n; len -= 3 * n, p += 3 * n) {
		uint32_t a = s, b = 0, c = 0;
		for (uint64_t j = 0; j < n; j += 16) {
			a = crc_step64(a, load_le64(p + j), castagnoli);
			b = crc_step64(b, load_le64(p + n + j), castagnoli);
			c = crc_step64(c, load_le64(p + 2 * n + j), castagnoli);
			a = crc_step64(a, load_le64(p + j + 8), castagnoli);
			b = crc_step64(b, load_le64(p + n + j + 8), castagnoli);
			c = crc_step64(c, load_le64(p + 2 * n + j + 8), castagnoli);
		}
		uint64_t moved = crc32_streams_merge_pmull(a, k->k[i][0], b, k->k[i][1]);
		s = crc_step64(0, moved, castagnoli) ^ c;
	}
	*pp = p;
	*plen = len;
	return s;
}

CRC_INLINE uint32_t crc32_streams(uint32_t s, const uint8_t *p, uint64_t len,
				  const struct crc32_stream_consts *k, int castagnoli)
{
	s = crc_blocks(s, &p, &len, 0, k, castagnoli);
	s = crc_blocks(s, &p, &len, 1, k, castagnoli);
	s = crc_blocks(s, &p, &len, 2, k, castagnoli);
	for (; len >= 8; len -= 8, p += 8)
		s = crc_step64(s, load_le64(p), castagnoli);
	for (; len; len--, p++)
		s = castagnoli ? __crc32cb(s, *p) : __crc32b(s, *p);
	return s;
}

unsigned int crc32_iscsi_crc(unsigned char *buf, int len, unsigned int init)
{
	if (len <= 0)
		return init;
	return crc32_streams(init, buf, (uint64_t)len, &crc32_streams_iscsi, 1);
}

uint32_t crc32_gzip_refl_crc(uint32_t init, const unsigned char *buf, uint64_t len)
{
	return ~crc32_streams(~init, buf, len, &crc32_streams_gzip, 0);
}
