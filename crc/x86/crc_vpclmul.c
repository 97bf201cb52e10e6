/* CRC engines on 512-bit VPCLMULQDQ folds: four ZMM accumulators (256 bytes per step) for long
 * buffers, one ZMM for 64..255 bytes, then the 128-bit stage of crc_fold.h.
 *
 * MSB-first CRCs run as their reflected twins over bit-reversed bytes (CRC_LSB_BITREV): on this
 * class of CPU the per-chunk byte shuffle an MSB-first fold needs competes with VPCLMULQDQ for
 * issue, and cost ~10% of the large-buffer rate, while the GFNI bit reversal does not. */
#include "crc_fold.h"

CRC_INLINE __m512i crc_load512(const uint8_t *p, int order)
{
	__m512i v = _mm512_loadu_si512((const void *)p);
	if (order == CRC_MSB) {
		/* Byte-reverse each 16-byte lane: lanes stay in message order. */
		const __m512i rev = _mm512_broadcast_i32x4(
			_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
		return _mm512_shuffle_epi8(v, rev);
	}
	if (order == CRC_LSB_BITREV)
		return _mm512_gf2p8affine_epi64_epi8(v, _mm512_set1_epi64(CRC_BITREV_MATRIX), 0);
	return v;
}

CRC_INLINE __m512i crc_konst512(const uint64_t k[2])
{
	return _mm512_broadcast_i32x4(crc_konst(k));
}

/* Every 128-bit lane of x moved forward by k's distance, xored with d. */
CRC_INLINE __m512i crc_fold512(__m512i x, __m512i k, __m512i d)
{
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00),
					 _mm512_clmulepi64_epi128(x, k, 0x11), d, 0x96);
}

/* The four lanes of x folded into one 128-bit chunk (lane i moves (3 - i) * 128 bits). */
CRC_INLINE __m128i crc_lanes_to128(__m512i x, const struct crc_model *m)
{
	__m512i k = _mm512_inserti64x4(
		_mm512_castsi256_si512(_mm256_inserti128_si256(
			_mm256_castsi128_si256(crc_konst(m->fold[2])), crc_konst(m->fold[1]), 1)),
		_mm256_castsi128_si256(crc_konst(m->fold[0])), 1);
	/* Lane 3 does not move: its product is computed but replaced by the lane itself. */
	__m512i moved = _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00),
						  _mm512_clmulepi64_epi128(x, k, 0x11),
						  _mm512_setzero_si512(), 0x96);
	moved = _mm512_mask_mov_epi64(moved, 0xC0, x);
	__m256i h = _mm256_xor_si256(_mm512_castsi512_si256(moved),
				     _mm512_extracti64x4_epi64(moved, 1));
	return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

/* len >= 16. */
CRC_INLINE uint64_t crc_fold_vpclmul(const struct crc_model *m, uint64_t state, const uint8_t *p,
				     uint64_t len, int order)
{
	if (len < 64)
		return crc_finish128(_mm_xor_si128(crc_load128(p, order), crc_state128(state, order)),
				     p + 16, len - 16, m, order);

	__m512i z0 = _mm512_xor_si512(crc_load512(p, order),
				      _mm512_zextsi128_si512(crc_state128(state, order)));
	p += 64;
	len -= 64;
	if (len >= 192) {
		__m512i z1 = crc_load512(p, order), z2 = crc_load512(p + 64, order);
		__m512i z3 = crc_load512(p + 128, order);
		p += 192;
		len -= 192;
		__m512i k = crc_konst512(m->fold[15]); /* 2048 bits */
		for (; len >= 256; len -= 256, p += 256) {
			z0 = crc_fold512(z0, k, crc_load512(p, order));
			z1 = crc_fold512(z1, k, crc_load512(p + 64, order));
			z2 = crc_fold512(z2, k, crc_load512(p + 128, order));
			z3 = crc_fold512(z3, k, crc_load512(p + 192, order));
		}
		/* Pairwise: z0 onto z1 and z2 onto z3 (512 bits), then the pair 1024 bits. */
		__m512i k512 = crc_konst512(m->fold[3]);
		z0 = crc_fold512(z0, k512, z1);
		z2 = crc_fold512(z2, k512, z3);
		z0 = crc_fold512(z0, crc_konst512(m->fold[7]), z2);
	}
	__m512i k512 = crc_konst512(m->fold[3]);
	for (; len >= 64; len -= 64, p += 64)
		z0 = crc_fold512(z0, k512, crc_load512(p, order));
	return crc_finish128(crc_lanes_to128(z0, m), p, len, m, order);
}

/* Bit reversal of a 64-bit value: byte swap, then each byte's bits. */
CRC_INLINE uint64_t crc_rev64(uint64_t v)
{
	__m128i x = _mm_cvtsi64_si128((long long)__builtin_bswap64(v));
	return (uint64_t)_mm_cvtsi128_si64(crc_bitrev_bytes128(x));
}

/* The engines below are what the public forms inline: one call from the dispatcher. */
CRC_INLINE uint64_t norm_inline(const struct crc_model *m, uint64_t s, const uint8_t *p, uint64_t n)
{
	if (n < 16)
		return crc_norm_base(m, s, p, n);
	return crc_rev64(crc_fold_vpclmul(m->twin, crc_rev64(s), p, n, CRC_LSB_BITREV));
}

CRC_INLINE uint64_t refl_inline(const struct crc_model *m, uint64_t s, const uint8_t *p, uint64_t n)
{
	if (n < 16)
		return crc_refl_base(m, s, p, n);
	return crc_fold_vpclmul(m, s, p, n, CRC_LSB);
}

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

CRC_PUBLIC_FORMS(vpclmul, norm_inline, refl_inline)
