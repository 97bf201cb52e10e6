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

/* 16 bytes as two little-endian words in one LDP, which gcc 12 does not form from two loads
 * here (15 instructions per 48 bytes instead of 12). */
CRC_INLINE void load_le128(const uint8_t *p, uint64_t *lo, uint64_t *hi)
{
	uint64_t a, b;
#ifdef __clang__
	/* clang pairs the loads itself (and has no "Ump" constraint). */
	memcpy(&a, p, 8);
	memcpy(&b, p + 8, 8);
#else
	__asm__("ldp %0, %1, %2" : "=r"(a), "=r"(b) : "Ump"(*(const uint64_t(*)[2])p));
#endif
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	a = __builtin_bswap64(a);
	b = __builtin_bswap64(b);
#endif
	*lo = a;
	*hi = b;
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
		/* 32 bytes of each stream a step: the loop's own instructions stay few. */
		for (uint64_t j = 0; j < n; j += 32) {
			uint64_t a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3;
			load_le128(p + j, &a0, &a1);
			load_le128(p + n + j, &b0, &b1);
			load_le128(p + 2 * n + j, &c0, &c1);
			load_le128(p + j + 16, &a2, &a3);
			load_le128(p + n + j + 16, &b2, &b3);
			load_le128(p + 2 * n + j + 16, &c2, &c3);
			a = crc_step64(crc_step64(a, a0, castagnoli), a1, castagnoli);
			b = crc_step64(crc_step64(b, b0, castagnoli), b1, castagnoli);
			c = crc_step64(crc_step64(c, c0, castagnoli), c1, castagnoli);
			a = crc_step64(crc_step64(a, a2, castagnoli), a3, castagnoli);
			b = crc_step64(crc_step64(b, b2, castagnoli), b3, castagnoli);
			c = crc_step64(crc_step64(c, c2, castagnoli), c3, castagnoli);
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
