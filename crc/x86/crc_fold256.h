/* The 256-bit VPCLMULQDQ fold engine for AVX2 CPUs (static inline, compiled by each file that
 * includes it with its own ISA flags: crc_vpclmul256n.c for the CRCs, crc_vpclmul256.c, with
 * GFNI, for crc32_iscsi):
 * eight YMM accumulators (256 bytes per step, the distance of the 512-bit engine's four ZMM),
 * then four (the last 128 bytes seen), whose eight lanes fold straight onto one 128-bit chunk
 * with the per-lane constants of struct crc_model, then the 128-bit stage of crc_fold.h. */
#ifndef STOA_CRC_FOLD256_H
#define STOA_CRC_FOLD256_H

#include "crc_fold.h"

CRC_WIDE_HELPERS(256, _mm256_broadcastsi128_si256)

/* Every 128-bit lane of x moved forward by k's distance, xored with d. */
CRC_INLINE __m256i crc_fold256(__m256i x, __m256i k, __m256i d)
{
	return _mm256_xor_si256(crc_lanes_product256(x, k), d);
}

/* XOR of the two 128-bit lanes. */
CRC_INLINE __m128i crc_xor_lanes256(__m256i x)
{
	return _mm_xor_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
}

/* The constants of lanes 2i, 2i+1 of an eight-lane window (tbl is fold_lanes or fold_lanes64). */
CRC_INLINE __m256i crc_lane_konst(const uint64_t tbl[][2], int i)
{
	return _mm256_load_si256((const __m256i *)tbl[2 * i]);
}

/* The window a, b, c, d (128 bytes, 8 lanes) as one 128-bit chunk congruent to it: every lane
 * onto the last one, which enters as itself. */
CRC_INLINE __m128i crc_window_to128(__m256i a, __m256i b, __m256i c, __m256i d,
				    const struct crc_model *m)
{
	__m256i s = _mm256_xor_si256(crc_lanes_product256(a, crc_lane_konst(m->fold_lanes, 0)),
				     crc_lanes_product256(b, crc_lane_konst(m->fold_lanes, 1)));
	__m256i t = _mm256_xor_si256(
		crc_lanes_product256(c, crc_lane_konst(m->fold_lanes, 2)),
		_mm256_blend_epi32(crc_lanes_product256(d, crc_lane_konst(m->fold_lanes, 3)), d,
				   0xF0));
	return crc_xor_lanes256(_mm256_xor_si256(s, t));
}

/* The same window, with nothing after it, straight to the Barrett point. */
CRC_INLINE uint64_t crc_window_reduce(__m256i a, __m256i b, __m256i c, __m256i d,
				      const struct crc_model *m, int order)
{
	__m256i s = _mm256_xor_si256(crc_lanes_product256(a, crc_lane_konst(m->fold_lanes64, 0)),
				     crc_lanes_product256(b, crc_lane_konst(m->fold_lanes64, 1)));
	__m256i t = _mm256_xor_si256(crc_lanes_product256(c, crc_lane_konst(m->fold_lanes64, 2)),
				     crc_lanes_product256(d, crc_lane_konst(m->fold_lanes64, 3)));
	return crc_barrett(crc_xor_lanes256(_mm256_xor_si256(s, t)), m, order);
}

/* len >= 16. With copy set (a compile-time constant), every whole 32-byte block the engine
 * loads also goes to dst at the same offset, and *copied says how far that reached (the caller
 * copies the rest, under 32 bytes, and has checked that the buffers do not overlap). */
CRC_INLINE uint64_t crc_fold_vpclmul256_to(const struct crc_model *m, uint64_t state,
					   const uint8_t *p, uint64_t len, int order, uint8_t *dst,
					   int copy, uint64_t *copied)
{
	if (len < 32)
		return crc_short128(m, state, p, len, order);

	const uint8_t *const start = p;
	/* The block at q, stored to the same offset of dst first when copying. */
#define CRC_TAKE(q) crc_take256((q), dst, (uint64_t)((q) - start), copy, order)
	__m256i a = crc_first256(p, state, dst, copy, order);
	if (len < 128) {
		/* One register slides over the buffer, then its two lanes meet the last one's
		 * constants (fold[0], then zero or, with nothing after, the Barrett point's). */
		__m256i k = crc_konst256(m->fold[1]);
		for (p += 32, len -= 32; len >= 32; len -= 32, p += 32)
			a = crc_fold256(a, k, CRC_TAKE(p));
		*copied = (uint64_t)(p - start);
		if (len == 0)
			return crc_barrett(crc_xor_lanes256(crc_lanes_product256(
						   a, crc_lane_konst(m->fold_lanes64, 3))),
					   m, order);
		__m256i s = _mm256_blend_epi32(
			crc_lanes_product256(a, crc_lane_konst(m->fold_lanes, 3)), a, 0xF0);
		return crc_finish128(crc_xor_lanes256(s), p, len, m, order);
	}
	__m256i b = CRC_TAKE(p + 32), c = CRC_TAKE(p + 64);
	__m256i d = CRC_TAKE(p + 96);
	p += 128;
	len -= 128;
	if (len >= 128) {
		__m256i e = CRC_TAKE(p), f = CRC_TAKE(p + 32);
		__m256i g = CRC_TAKE(p + 64), h = CRC_TAKE(p + 96);
		p += 128;
		len -= 128;
		__m256i k = crc_konst256(m->fold[15]); /* 2048 bits */
		for (; len >= 256; len -= 256, p += 256) {
			a = crc_fold256(a, k, CRC_TAKE(p));
			b = crc_fold256(b, k, CRC_TAKE(p + 32));
			c = crc_fold256(c, k, CRC_TAKE(p + 64));
			d = crc_fold256(d, k, CRC_TAKE(p + 96));
			e = crc_fold256(e, k, CRC_TAKE(p + 128));
			f = crc_fold256(f, k, CRC_TAKE(p + 160));
			g = crc_fold256(g, k, CRC_TAKE(p + 192));
			h = crc_fold256(h, k, CRC_TAKE(p + 224));
		}
		/* Eight accumulators to four: each onto the one 1024 bits on. */
		k = crc_konst256(m->fold[7]);
		a = crc_fold256(a, k, e);
		b = crc_fold256(b, k, f);
		c = crc_fold256(c, k, g);
		d = crc_fold256(d, k, h);
		if (len >= 128) {
			a = crc_fold256(a, k, CRC_TAKE(p));
			b = crc_fold256(b, k, CRC_TAKE(p + 32));
			c = crc_fold256(c, k, CRC_TAKE(p + 64));
			d = crc_fold256(d, k, CRC_TAKE(p + 96));
			p += 128;
			len -= 128;
		}
	}
	if (len >= 64) {
		/* Slide the 128-byte window by two registers. */
		__m256i k = crc_konst256(m->fold[3]);
		a = crc_fold256(a, k, c);
		b = crc_fold256(b, k, d);
		c = CRC_TAKE(p);
		d = CRC_TAKE(p + 32);
		p += 64;
		len -= 64;
	}
	if (len >= 32) {
		/* And by one. */
		a = crc_fold256(a, crc_konst256(m->fold[1]), b);
		b = c;
		c = d;
		d = CRC_TAKE(p);
		p += 32;
		len -= 32;
	}
#undef CRC_TAKE
	*copied = (uint64_t)(p - start);
	if (len == 0 && order != CRC_LSB_C32)
		return crc_window_reduce(a, b, c, d, m, order);
	return crc_finish128(crc_window_to128(a, b, c, d, m), p, len, m, order);
}

CRC_INLINE uint64_t crc_fold_vpclmul256(const struct crc_model *m, uint64_t state, const uint8_t *p,
					uint64_t len, int order)
{
	uint64_t unused;
	return crc_fold_vpclmul256_to(m, state, p, len, order, NULL, 0, &unused);
}

#endif
