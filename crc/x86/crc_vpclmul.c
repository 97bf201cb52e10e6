/* CRC engines on 512-bit VPCLMULQDQ folds: four ZMM accumulators (256 bytes per step) for long
 * buffers, then two, whose eight lanes fold straight onto one 128-bit chunk with per-lane
 * constants, then the 128-bit stage of crc_fold.h. Lane constants come from one aligned load,
 * not from shuffles: on Zen 5 shuffles compete with VPCLMULQDQ for issue.
 *
 * MSB-first CRCs lay each 16 bytes out with one byte shuffle, as ISA-L's code does. Running them
 * as their reflected twins over GFNI bit-reversed bytes instead was as fast on an idle Zen 5,
 * but fell to 0.77-0.93x ISA-L's while the machine was loaded, where the shuffle held 0.99.
 *
 * The ceiling: VPCLMULQDQ issues once every two cycles at any width and a zmm multiply covers 32
 * message bytes, so no fold passes 16 bytes a cycle; the loop below reaches that bound from
 * 64 KiB on. Sending the sixteen lanes straight to the Barrett point, a slice-by-8 final
 * reduction, and GFNI affine products as a second GF(2) unit were tried and gained nothing. */
#include "crc_fold.h"

CRC_WIDE_HELPERS(512, _mm512_broadcast_i32x4)

/* Every 128-bit lane of x moved forward by k's distance, xored with d. */
CRC_INLINE __m512i crc_fold512(__m512i x, __m512i k, __m512i d)
{
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00),
					 _mm512_clmulepi64_epi128(x, k, 0x11), d, 0x96);
}

/* XOR of the four 128-bit lanes. */
CRC_INLINE __m128i crc_xor_lanes(__m512i x)
{
	__m256i h = _mm256_xor_si256(_mm512_castsi512_si256(x), _mm512_extracti64x4_epi64(x, 1));
	return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

/* Two consecutive blocks (a, then b) moved onto b's last lane. */
CRC_INLINE __m128i crc_pair_to128(__m512i a, __m512i b, const struct crc_model *m)
{
	__m512i ka = _mm512_load_si512((const void *)m->fold_lanes[0]);
	__m512i kb = _mm512_load_si512((const void *)m->fold_lanes[4]);
	__m512i s = _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(a, ka, 0x00),
					      _mm512_clmulepi64_epi128(a, ka, 0x11),
					      _mm512_clmulepi64_epi128(b, kb, 0x00), 0x96);
	s = _mm512_ternarylogic_epi64(s, _mm512_clmulepi64_epi128(b, kb, 0x11),
				      _mm512_maskz_mov_epi64(0xC0, b), 0x96);
	return crc_xor_lanes(s);
}

/* len >= 16. The message runs through up to four accumulators of 64 bytes, then two (the last
 * 128 bytes seen, a before b), which fold straight onto one 128-bit chunk for crc_fold.h.
 * With copy set (a compile-time constant), every whole 64-byte block the engine loads also goes to
 * dst at the same offset, and *copied says how far that reached (the caller copies the rest,
 * under 64 bytes, and has checked that the buffers do not overlap). */
CRC_INLINE uint64_t crc_fold_vpclmul_to(const struct crc_model *m, uint64_t state,
					const uint8_t *p, uint64_t len, int order, uint8_t *dst,
					int copy, uint64_t *copied)
{
	if (len < 64)
		return crc_short128(m, state, p, len, order);

	const uint8_t *const start = p;
	/* The block at q, stored to the same offset of dst first when copying. */
#define CRC_TAKE(q) crc_take512((q), dst, (uint64_t)((q) - start), copy, order)
	__m512i a = crc_first512(p, state, dst, copy, order);
	if (len < 128) {
		*copied = 64;
		if (len == 64) /* every lane straight to the Barrett point */
			return crc_barrett(crc_xor_lanes(crc_lanes_product512(
						   a, _mm512_load_si512(m->fold_lanes64[4]))),
					   m, order);
		/* One block onto its last lane, which has a zero constant and enters as itself. */
		__m512i kb = _mm512_load_si512((const void *)m->fold_lanes[4]);
		__m512i s = _mm512_xor_si512(crc_lanes_product512(a, kb),
					     _mm512_maskz_mov_epi64(0xC0, a));
		return crc_finish128(crc_xor_lanes(s), p + 64, len - 64, m, order);
	}
	__m512i b = CRC_TAKE(p + 64);
	p += 128;
	len -= 128;
	if (len >= 128) {
		__m512i c = CRC_TAKE(p), d = CRC_TAKE(p + 64);
		p += 128;
		len -= 128;
		__m512i k = crc_konst512(m->fold[15]); /* 2048 bits */
		for (; len >= 256; len -= 256, p += 256) {
			a = crc_fold512(a, k, CRC_TAKE(p));
			b = crc_fold512(b, k, CRC_TAKE(p + 64));
			c = crc_fold512(c, k, CRC_TAKE(p + 128));
			d = crc_fold512(d, k, CRC_TAKE(p + 192));
		}
		/* Four accumulators to two: a onto c, b onto d (1024 bits). */
		k = crc_konst512(m->fold[7]);
		a = crc_fold512(a, k, c);
		b = crc_fold512(b, k, d);
		if (len >= 128) {
			a = crc_fold512(a, k, CRC_TAKE(p));
			b = crc_fold512(b, k, CRC_TAKE(p + 64));
			p += 128;
			len -= 128;
		}
	}
	if (len >= 64) {
		/* Slide the 128-byte window by one block. */
		a = crc_fold512(a, crc_konst512(m->fold[3]), b);
		b = CRC_TAKE(p);
		p += 64;
		len -= 64;
	}
#undef CRC_TAKE
	*copied = (uint64_t)(p - start);
	if (len == 0) {
		/* Nothing follows: all eight lanes straight to the Barrett point. */
		__m512i ka = _mm512_load_si512((const void *)m->fold_lanes64[0]);
		__m512i kb = _mm512_load_si512((const void *)m->fold_lanes64[4]);
		__m512i s = _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(a, ka, 0x00),
						      _mm512_clmulepi64_epi128(a, ka, 0x11),
						      crc_lanes_product512(b, kb), 0x96);
		return crc_barrett(crc_xor_lanes(s), m, order);
	}
	return crc_finish128(crc_pair_to128(a, b, m), p, len, m, order);
}

CRC_INLINE uint64_t crc_fold_vpclmul(const struct crc_model *m, uint64_t state, const uint8_t *p,
				     uint64_t len, int order)
{
	uint64_t unused;
	return crc_fold_vpclmul_to(m, state, p, len, order, NULL, 0, &unused);
}

CRC_PLAIN_ENGINES(crc_fold_vpclmul)

uint64_t crc_norm_vpclmul(const struct crc_model *m, uint64_t state, const uint8_t *buf,
			  uint64_t len)
{
	return norm_inline(m, state, buf, len);
}

uint64_t crc_refl_vpclmul(const struct crc_model *m, uint64_t state, const uint8_t *buf,
			  uint64_t len)
{
	return refl_inline(m, state, buf, len);
}

/* Up to 64 bytes move through one masked register load and store: the whole source is read
 * before anything is written, so overlap is harmless, and the masks keep both inside the
 * buffers. Saves the library call, a quarter of crc16_t10dif_copy's time at 64 bytes. */
CRC_INLINE void copy_vpclmul(uint8_t *dst, const uint8_t *src, uint64_t len)
{
	if (len > 64) {
		memmove(dst, src, len);
		return;
	}
	__mmask64 m = _bzhi_u64(~0ull, (unsigned)len);
	_mm512_mask_storeu_epi8(dst, m, _mm512_maskz_loadu_epi8(m, src));
}

#undef CRC_COPY
#define CRC_COPY copy_vpclmul

CRC_PUBLIC_FORMS(vpclmul, norm_inline, refl_inline)

/* Inflate's stored gzip data: one pass, each 64-byte block stored as it is loaded for the fold,
 * at the CRC's own speed: 1.3-1.4x memcpy and then crc32_gzip_refl_vpclmul from 4 KiB on, even at
 * 300 bytes (Zen 5, in cache). */
CRC_GZIP_COPY_FORM(vpclmul, crc_fold_vpclmul_to, copy_vpclmul)
