/* CRC engines on 128-bit PCLMULQDQ folds: eight chunks in flight (128 bytes per step), then one,
 * then the tail and a Barrett reduction (crc_fold.h). */
#include "crc_fold.h"

/* A 16-byte chunk in register order, stored as it came to dst + off first when copy is set (a
 * compile-time constant at every call). */
CRC_INLINE __m128i crc_take128(const uint8_t *p, uint8_t *dst, uint64_t off, int copy, int order)
{
	const __m128i v = _mm_loadu_si128((const __m128i *)p);
	if (copy)
		_mm_storeu_si128((__m128i *)(dst + off), v);
	return crc_order128(v, order);
}

/* With copy set, every byte the first and the eight-chunk stages read also goes to dst at the
 * same offset from the start (the caller copies the rest, and has checked that the buffers do
 * not overlap): one pass over the data instead of a CRC pass and a memmove pass. */
CRC_INLINE uint64_t crc_fold_pclmul_to(const struct crc_model *m, uint64_t state, const uint8_t *p,
				       uint64_t len, int order, uint8_t *dst, int copy,
				       uint64_t *copied)
{
	if (len < 16)
		return order == CRC_MSB ? crc_norm_portable(m, state, p, len)
					: crc_refl_portable(m, state, p, len);

	const uint8_t *const start = p;
	__m128i x0 = _mm_xor_si128(crc_take128(p, dst, 0, copy, order), crc_state128(state, order));
	p += 16;
	len -= 16;
	if (len >= 112) {
		/* Chunk i of the 128 bytes at p, which start o bytes into the message. */
#define CRC_TAKE(i) crc_take128(p + 16 * (i), dst, o + 16 * (i), copy, order)
		uint64_t o = 16;
		__m128i x1 = CRC_TAKE(0), x2 = CRC_TAKE(1), x3 = CRC_TAKE(2), x4 = CRC_TAKE(3);
		__m128i x5 = CRC_TAKE(4), x6 = CRC_TAKE(5), x7 = CRC_TAKE(6);
		p += 112;
		len -= 112;
		__m128i k = crc_konst(m->fold[7]);
		for (; len >= 128; len -= 128, p += 128) {
			o = (uint64_t)(p - start);
			x0 = _mm_xor_si128(crc_fold128(x0, k), CRC_TAKE(0));
			x1 = _mm_xor_si128(crc_fold128(x1, k), CRC_TAKE(1));
			x2 = _mm_xor_si128(crc_fold128(x2, k), CRC_TAKE(2));
			x3 = _mm_xor_si128(crc_fold128(x3, k), CRC_TAKE(3));
			x4 = _mm_xor_si128(crc_fold128(x4, k), CRC_TAKE(4));
			x5 = _mm_xor_si128(crc_fold128(x5, k), CRC_TAKE(5));
			x6 = _mm_xor_si128(crc_fold128(x6, k), CRC_TAKE(6));
			x7 = _mm_xor_si128(crc_fold128(x7, k), CRC_TAKE(7));
		}
#undef CRC_TAKE
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
	*copied = (uint64_t)(p - start);
	return crc_finish128(x0, p, len, m, order);
}

CRC_INLINE uint64_t crc_fold_pclmul(const struct crc_model *m, uint64_t state, const uint8_t *p,
				    uint64_t len, int order)
{
	uint64_t unused;
	return crc_fold_pclmul_to(m, state, p, len, order, NULL, 0, &unused);
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

/* The paths of crc16_t10dif_copy_pclmul that call out, as functions apart: inline, they made
 * the folding path save four registers (2 ns a call, 6% at 512 bytes). */
static __attribute__((noinline)) uint16_t t10dif_copy_apart(uint16_t init, uint8_t *dst,
							    uint8_t *src, uint64_t len)
{
	const uint16_t crc = crc16_t10dif_pclmul(init, src, len);
	if (len)
		memmove(dst, src, len);
	return crc;
}

static __attribute__((noinline)) uint16_t t10dif_copy_rest(uint16_t crc, uint8_t *dst,
							   const uint8_t *src, uint64_t len)
{
	memcpy(dst, src, len);
	return crc;
}

/* crc16_t10dif_copy with the copy folded into the CRC's pass when the buffers are apart (ISA-L's
 * by4 form works the same way); overlapping ones keep the CRC-then-memmove order of the generic
 * form. */
uint16_t crc16_t10dif_copy_pclmul(uint16_t init, uint8_t *dst, uint8_t *src, uint64_t len)
{
	const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
	if (len < 128 || (d < s + len && s < d + len))
		return t10dif_copy_apart(init, dst, src, len);
	uint64_t done = 0;
	const uint16_t crc = (uint16_t)(crc_fold_pclmul_to(&crc_model_t10dif, (uint64_t)init << 48,
							   src, len, CRC_MSB, dst, 1, &done) >>
					48);
	if (len > done) /* a call even for nothing costs 5% at 512 bytes */
		return t10dif_copy_rest(crc, dst + done, src + done, len - done);
	return crc;
}

#undef CRC_T10DIF_COPY_FORM
#define CRC_T10DIF_COPY_FORM(sfx)
CRC_PUBLIC_FORMS(pclmul, norm_inline, refl_inline)
