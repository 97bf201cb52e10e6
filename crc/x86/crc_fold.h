/* 128-bit carry-less folding shared by the PCLMULQDQ and VPCLMULQDQ engines (static inline, so
 * each variant file compiles it with its own ISA flags). The `order` argument is a compile-time
 * constant at every call and says how message bytes are laid into registers (enum crc_order).
 * The constants and the algebra behind them are documented in crc_internal.h and crc_gen.c. */
#ifndef STOA_CRC_FOLD_H
#define STOA_CRC_FOLD_H

#include <immintrin.h>

#include "crc_arch.h"

#define CRC_INLINE static inline __attribute__((always_inline))

enum crc_order {
	/* MSB-first CRC: each 16-byte chunk byte-reversed, so the first message bit is the top
	 * bit of the register. */
	CRC_MSB = 0,
	/* Reflected CRC: bytes as they are. */
	CRC_LSB = 1,
	/* CRC32C (crc32_iscsi): bytes as CRC_LSB, and the last 128 bits reduced with two crc32
	 * instructions (SSE4.2) instead of three carry-less products. */
	CRC_LSB_C32 = 3,
};

/* pshufb masks: a 16-byte window at offset 16 - s moves bytes up by s (zero fill), at offset
 * 16 + s shifts them down by s; crc_blend_tbl + r selects the top r bytes. */
static const uint8_t crc_shift_tbl[48] __attribute__((aligned(16))) = {
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	0x80, 0x80, 0x80, 0x80, 0,    1,    2,    3,    4,    5,    6,    7,
	8,    9,    10,   11,   12,   13,   14,   15,   0x80, 0x80, 0x80, 0x80,
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
};
static const uint8_t crc_blend_tbl[32] __attribute__((aligned(16))) = {
	0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
	0,    0,    0,    0,    0,    0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

CRC_INLINE __m128i crc_bswap128(__m128i v)
{
	return _mm_shuffle_epi8(v,
				_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* 16 message bytes as loaded, laid out for order. */
CRC_INLINE __m128i crc_order128(__m128i v, int order)
{
	return order == CRC_MSB ? crc_bswap128(v) : v;
}

/* A 16-byte chunk in register order. */
CRC_INLINE __m128i crc_load128(const uint8_t *p, int order)
{
	return crc_order128(_mm_loadu_si128((const __m128i *)p), order);
}

/* The state, placed where it meets the first 8 message bytes of a chunk. */
CRC_INLINE __m128i crc_state128(uint64_t state, int order)
{
	__m128i s = _mm_cvtsi64_si128((long long)state);
	return order != CRC_MSB ? s : _mm_slli_si128(s, 8);
}

/* The first 16-byte chunk of a message with the state added. */
CRC_INLINE __m128i crc_first128(const uint8_t *p, uint64_t state, int order)
{
	return _mm_xor_si128(crc_load128(p, order), crc_state128(state, order));
}

CRC_INLINE __m128i crc_konst(const uint64_t k[2])
{
	return _mm_load_si128((const __m128i *)k);
}

/* x moved forward by the distance k was built for. */
CRC_INLINE __m128i crc_fold128(__m128i x, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

/* x (16 message bytes) followed by the last r message bytes (1 <= r <= 15), which end at end.
 * The first r bytes of x move forward 128 bits onto the other 16. Reads end - 16 .. end only,
 * which the caller guarantees is inside the buffer. */
CRC_INLINE __m128i crc_tail128(__m128i x, const uint8_t *end, size_t r, __m128i k128, int order)
{
	__m128i last = _mm_loadu_si128((const __m128i *)(end - 16));
	__m128i xm = order != CRC_MSB ? x : crc_bswap128(x); /* message byte order */
	__m128i head = _mm_shuffle_epi8(xm, _mm_loadu_si128((const __m128i *)(crc_shift_tbl + r)));
	__m128i rest =
		_mm_shuffle_epi8(xm, _mm_loadu_si128((const __m128i *)(crc_shift_tbl + 16 + r)));
	rest = _mm_blendv_epi8(rest, last, _mm_loadu_si128((const __m128i *)(crc_blend_tbl + r)));
	if (order == CRC_MSB) {
		head = crc_bswap128(head);
		rest = crc_bswap128(rest);
	}
	return _mm_xor_si128(crc_fold128(head, k128), rest);
}

/* V = R_lo * x^64 + R_hi * (x^128 mod P), 128 bits congruent to R * x^64, for the message whose
 * last 16 bytes are x (R). */
CRC_INLINE __m128i crc_fold64(__m128i x, const struct crc_model *m, int order)
{
	__m128i f = _mm_cvtsi64_si128((long long)m->fold64);
	if (order != CRC_MSB)
		return _mm_xor_si128(_mm_clmulepi64_si128(x, f, 0x00), _mm_srli_si128(x, 8));
	return _mm_xor_si128(_mm_clmulepi64_si128(x, f, 0x01), _mm_slli_si128(x, 8));
}

/* The engine state V mod P, by Barrett reduction of the 128-bit V. */
CRC_INLINE uint64_t crc_barrett(__m128i v, const struct crc_model *m, int order)
{
	__m128i k = _mm_set_epi64x((long long)m->barrett[1], (long long)m->barrett[0]);
	if (order != CRC_MSB) {
		__m128i q = _mm_clmulepi64_si128(v, k, 0x00); /* low qword: rev(q) */
		__m128i p = _mm_clmulepi64_si128(q, k, 0x10); /* rev(q) * rev(P / x) */
		uint64_t qv = (uint64_t)_mm_cvtsi128_si64(q);
		return (uint64_t)_mm_extract_epi64(_mm_xor_si128(v, p), 1) ^ (qv & m->barrett_q);
	}
	__m128i t = _mm_clmulepi64_si128(v, k, 0x01); /* V_hi * mu' */
	/* q = V_hi ^ T_hi, the high half of V ^ T: multiplied from there, no shifts. */
	__m128i p = _mm_clmulepi64_si128(_mm_xor_si128(v, t), k, 0x11); /* q * P' */
	return (uint64_t)_mm_cvtsi128_si64(_mm_xor_si128(v, p));
}

/* The engine state for the message whose last 16 bytes are x: x * x^64 mod P. */
CRC_INLINE uint64_t crc_reduce128(__m128i x, const struct crc_model *m, int order)
{
	/* x is a 16-byte message with the CRC of the whole (state in): its CRC from zero. */
	if (order == CRC_LSB_C32)
		return _mm_crc32_u64(_mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(x)),
				     (uint64_t)_mm_extract_epi64(x, 1));
	return crc_barrett(crc_fold64(x, m, order), m, order);
}

/* The 16-byte stage every engine ends with: x holds the message up to p, whose len remaining
 * bytes (any number) are folded in; the result is the message's last 16 bytes, congruent to it. */
CRC_INLINE __m128i crc_rest128(__m128i x, const uint8_t *p, size_t len, const struct crc_model *m,
			       int order)
{
	__m128i k128 = crc_konst(m->fold[0]);
	for (; len >= 16; len -= 16, p += 16)
		x = _mm_xor_si128(crc_fold128(x, k128), crc_load128(p, order));
	if (len)
		x = crc_tail128(x, p + len, len, k128, order);
	return x;
}

/* The same, then the final reduction. */
CRC_INLINE uint64_t crc_finish128(__m128i x, const uint8_t *p, size_t len,
				  const struct crc_model *m, int order)
{
	return crc_reduce128(crc_rest128(x, p, len, m, order), m, order);
}

/* The engine state for a message of len >= 16 bytes on the 128-bit stage alone. */
CRC_INLINE uint64_t crc_short128(const struct crc_model *m, uint64_t state, const uint8_t *p,
				 uint64_t len, int order)
{
	return crc_finish128(crc_first128(p, state, order), p + 16, len - 16, m, order);
}

/* The 128-bit PCLMULQDQ engine (crc_pclmul.c; crc32_iscsi_streams_pclmul.c inlines it too):
 * eight chunks in flight (128 bytes per step), then one, then the tail and the reduction. */

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
		/* Eight chunks to one: chunk i moves forward (7 - i) * 128 bits onto chunk 7, in
		 * one chain of XORs. In the SSE build each link is pinned (an empty asm): left
		 * free, gcc rebuilds the chain as a tree whose temporaries spill x7 to the stack
		 * and read it back on the result's path (crc64_*_norm at 512 bytes). The AVX build
		 * has no spill either way, and pinned, its copying form ran 0.7% slower
		 * (crc16_t10dif_copy at 512 bytes, x86-64-v3, Zen 3). */
#if defined(__AVX__)
#define CRC_LINK(i, j) x7 = _mm_xor_si128(x7, crc_fold128(x##i, crc_konst(m->fold[j])))
#else
#define CRC_LINK(i, j)                                                                             \
	x7 = _mm_xor_si128(x7, crc_fold128(x##i, crc_konst(m->fold[j])));                          \
	__asm__("" : "+x"(x7))
#endif
		CRC_LINK(0, 6);
		CRC_LINK(1, 5);
		CRC_LINK(2, 4);
		CRC_LINK(3, 3);
		CRC_LINK(4, 2);
		CRC_LINK(5, 1);
#undef CRC_LINK
		x0 = _mm_xor_si128(x7, crc_fold128(x6, crc_konst(m->fold[0])));
		if (!len) {
			*copied = (uint64_t)(p - start);
			return crc_reduce128(x0, m, order);
		}
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

/* inf_crc32_gzip_copy (crc_internal.h) for the variant sfx on a copying engine fold_to (the form
 * of crc_fold_pclmul_to, len >= 16): the bytes the engine loads in whole blocks go to dst as they
 * are loaded, the few after the last block (all of them under 16 bytes) by rest_copy(dst, src,
 * n) after it. */
#define CRC_GZIP_COPY_FORM(sfx, fold_to, rest_copy)                                                \
	uint32_t inf_crc32_gzip_copy_##sfx(uint32_t init, uint8_t *dst, const uint8_t *src,        \
					   uint64_t len)                                           \
	{                                                                                          \
		uint64_t done = 0;                                                                 \
		uint32_t crc;                                                                      \
		if (len < 16)                                                                      \
			crc = crc32_gzip_refl_##sfx(init, src, len);                               \
		else                                                                               \
			crc = ~(uint32_t)fold_to(&crc_model_gzip, (uint32_t)~init, src, len,       \
						 CRC_LSB, dst, 1, &done);                          \
		if (len > done)                                                                    \
			rest_copy(dst + done, src + done, len - done);                             \
		return crc;                                                                        \
	}

/* The engines the public forms inline (one call from the dispatcher) on a wide fold engine
 * fold (the form of crc_fold_vpclmul, len >= 16): refl_inline, and norm_inline in the two forms
 * below. CRC_WIDE_ENGINE is one of them in the given bit order, the portable form under 16
 * bytes. */
#define CRC_WIDE_ENGINE(name, portable, fold, order)                                               \
	CRC_INLINE uint64_t name(const struct crc_model *m, uint64_t s, const uint8_t *p,          \
				 uint64_t n)                                                       \
	{                                                                                          \
		if (n < 16)                                                                        \
			return portable(m, s, p, n);                                               \
		return fold(m, s, p, n, order);                                                    \
	}
#define CRC_REFL_ENGINE(fold) CRC_WIDE_ENGINE(refl_inline, crc_refl_portable, fold, CRC_LSB)
/* crc32_iscsi's engine (crc_model_iscsi only): CRC_LSB_C32. */
#define CRC_ISCSI_ENGINE(fold) CRC_WIDE_ENGINE(iscsi_inline, crc_refl_portable, fold, CRC_LSB_C32)

/* The wide engines' norm_inline and refl_inline: MSB-first CRCs in byte-swapped order, one byte
 * shuffle per 16 bytes (crc_vpclmul.c says why not a GFNI bit reversal). */
#define CRC_PLAIN_ENGINES(fold)                                                                    \
	CRC_WIDE_ENGINE(norm_inline, crc_norm_portable, fold, CRC_MSB)                             \
	CRC_REFL_ENGINE(fold)

/* The wide engines' block helpers for a vector width B (256 or 512; bcast128 is that width's
 * 128-bit broadcast): crc_orderB, a B-bit block in register order
 * with every 16-byte lane laid out as crc_order128 lays one; crc_takeB, the block at p so laid
 * out, and with copy set (a compile-time constant) also stored as loaded to dst + off (the
 * copying engines' loads, as crc_take128 above); crc_konstB, a fold pair in every lane;
 * crc_lanes_productB, the sum of the products of x's lanes with k's lanes; crc_firstB, the first
 * block with the state added (taken so, to dst). */
#define CRC_WIDE_HELPERS(B, bcast128)                                                              \
	CRC_INLINE __m##B##i crc_order##B(__m##B##i v, int order)                                  \
	{                                                                                          \
		if (order == CRC_MSB)                                                              \
			return _mm##B##_shuffle_epi8(                                              \
				v, bcast128(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, \
							 13, 14, 15)));                            \
		return v;                                                                          \
	}                                                                                          \
	CRC_INLINE __m##B##i crc_take##B(const uint8_t *p, uint8_t *dst, uint64_t off, int copy,   \
					 int order)                                                \
	{                                                                                          \
		__m##B##i v = _mm##B##_loadu_si##B((const void *)p);                               \
		if (copy)                                                                          \
			_mm##B##_storeu_si##B((void *)(dst + off), v);                             \
		return crc_order##B(v, order);                                                     \
	}                                                                                          \
	CRC_INLINE __m##B##i crc_konst##B(const uint64_t k[2])                                     \
	{                                                                                          \
		return bcast128(crc_konst(k));                                                     \
	}                                                                                          \
	CRC_INLINE __m##B##i crc_lanes_product##B(__m##B##i x, __m##B##i k)                        \
	{                                                                                          \
		return _mm##B##_xor_si##B(_mm##B##_clmulepi64_epi128(x, k, 0x00),                  \
					  _mm##B##_clmulepi64_epi128(x, k, 0x11));                 \
	}                                                                                          \
	CRC_INLINE __m##B##i crc_first##B(const uint8_t *p, uint64_t state, uint8_t *dst,          \
					  int copy, int order)                                     \
	{                                                                                          \
		return _mm##B##_xor_si##B(crc_take##B(p, dst, 0, copy, order),                     \
					  _mm##B##_zextsi128_si##B(crc_state128(state, order)));   \
	}

#endif
