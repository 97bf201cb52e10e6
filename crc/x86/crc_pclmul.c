/* CRC engines on 128-bit PCLMULQDQ folds: eight chunks in flight (128 bytes per step), then one,
 * then the tail and a Barrett reduction (crc_fold.h). */
#include "crc_fold.h"

CRC_INLINE uint64_t crc_fold_pclmul(const struct crc_model *m, uint64_t state, const uint8_t *p,
				    uint64_t len, int order)
{
	if (len < 16)
		return order == CRC_MSB ? crc_norm_portable(m, state, p, len)
					: crc_refl_portable(m, state, p, len);

	__m128i x0 = crc_first128(p, state, order);
	p += 16;
	len -= 16;
	if (len >= 112) {
		__m128i x1 = crc_load128(p, order), x2 = crc_load128(p + 16, order);
		__m128i x3 = crc_load128(p + 32, order), x4 = crc_load128(p + 48, order);
		__m128i x5 = crc_load128(p + 64, order), x6 = crc_load128(p + 80, order);
		__m128i x7 = crc_load128(p + 96, order);
		p += 112;
		len -= 112;
		__m128i k = crc_konst(m->fold[7]);
		for (; len >= 128; len -= 128, p += 128) {
			x0 = _mm_xor_si128(crc_fold128(x0, k), crc_load128(p, order));
			x1 = _mm_xor_si128(crc_fold128(x1, k), crc_load128(p + 16, order));
			x2 = _mm_xor_si128(crc_fold128(x2, k), crc_load128(p + 32, order));
			x3 = _mm_xor_si128(crc_fold128(x3, k), crc_load128(p + 48, order));
			x4 = _mm_xor_si128(crc_fold128(x4, k), crc_load128(p + 64, order));
			x5 = _mm_xor_si128(crc_fold128(x5, k), crc_load128(p + 80, order));
			x6 = _mm_xor_si128(crc_fold128(x6, k), crc_load128(p + 96, order));
			x7 = _mm_xor_si128(crc_fold128(x7, k), crc_load128(p + 112, order));
		}
		/* Eight chunks to one: chunk i moves forward (7 - i) * 128 bits. */
		x0 = _mm_xor_si128(crc_fold128(x0, crc_konst(m->fold[6])),
				   crc_fold128(x1, crc_konst(m->fold[5])));
		x2 = _mm_xor_si128(crc_fold128(x2, crc_konst(m->fold[4])),
				   crc_fold128(x3, crc_konst(m->fold[3])));
		x4 = _mm_xor_si128(crc_fold128(x4, crc_konst(m->fold[2])),
				   crc_fold128(x5, crc_konst(m->fold[1])));
		x6 = _mm_xor_si128(crc_fold128(x6, crc_konst(m->fold[0])), x7);
		x0 = _mm_xor_si128(_mm_xor_si128(x0, x2), _mm_xor_si128(x4, x6));
	}
	return crc_finish128(x0, p, len, m, order);
}

/* The public forms inline the engine: one call from the dispatcher, no second hop. */
CRC_INLINE uint64_t norm_inline(const struct crc_model *m, uint64_t s, const uint8_t *p, uint64_t n)
{
	return crc_fold_pclmul(m, s, p, n, CRC_MSB);
}

CRC_INLINE uint64_t refl_inline(const struct crc_model *m, uint64_t s, const uint8_t *p, uint64_t n)
{
	return crc_fold_pclmul(m, s, p, n, CRC_LSB);
}

uint64_t crc_norm_pclmul(const struct crc_model *m, uint64_t state, const uint8_t *buf,
			 uint64_t len)
{
	return crc_fold_pclmul(m, state, buf, len, CRC_MSB);
}

uint64_t crc_refl_pclmul(const struct crc_model *m, uint64_t state, const uint8_t *buf,
			 uint64_t len)
{
	return crc_fold_pclmul(m, state, buf, len, CRC_LSB);
}

CRC_PUBLIC_FORMS(pclmul, norm_inline, refl_inline)
