/* 128-bit carry-less folding on PMULL (static inline, for files built with the pmull token's
 * flags): the aarch64 form of crc/x86/crc_fold.h, on the same generated constants (struct
 * crc_model, crc_internal.h and crc_gen.c document them). The `order` argument is a compile-time
 * constant at every call and says how message bytes are laid into registers. */
#ifndef STOA_CRC_ARM_FOLD_H
#define STOA_CRC_ARM_FOLD_H

#include <arm_neon.h>
#include <stddef.h>

#include "crc_arch.h"

#define CRC_INLINE static inline __attribute__((always_inline))

enum crc_order {
	/* MSB-first CRC: each 16-byte chunk byte-reversed, so the first message bit is the top
	 * bit of the register. */
	CRC_MSB = 0,
	/* Reflected CRC: bytes as they are. */
	CRC_LSB = 1,
};

/* tbl indices: a 16-byte window at offset 16 - s moves bytes up by s (an index past 15 reads as
 * zero), at offset 16 + s shifts them down by s; crc_blend_tbl + r selects the top r bytes. */
static const uint8_t crc_shift_tbl[48] __attribute__((aligned(16))) = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0,    1,    2,    3,    4,    5,    6,    7,
	8,    9,    10,   11,   12,   13,   14,   15,   0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};
static const uint8_t crc_blend_tbl[32] __attribute__((aligned(16))) = {
	0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
	0,    0,    0,    0,    0,    0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};
static const uint8_t crc_bswap_tbl[16] __attribute__((aligned(16))) = {
	15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
};

typedef uint64x2_t crc_v;

CRC_INLINE crc_v crc_bswap128(crc_v v)
{
	return vreinterpretq_u64_u8(vqtbl1q_u8(vreinterpretq_u8_u64(v), vld1q_u8(crc_bswap_tbl)));
}

/* Carry-less products of one 64-bit half of a by one of b (lo = lane 0, hi = lane 1). PMULL by
 * inline assembly: gcc 12's arm_neon.h offers vmull_p64 only with every crypto extension enabled
 * (+crypto, SHA included), not with +aes alone, which is all this file's token enables. */
CRC_INLINE crc_v crc_mul_ll(crc_v a, crc_v b)
{
	crc_v r;
	__asm__("pmull %0.1q, %1.1d, %2.1d" : "=w"(r) : "w"(a), "w"(b));
	return r;
}

CRC_INLINE crc_v crc_mul_hh(crc_v a, crc_v b)
{
	crc_v r;
	__asm__("pmull2 %0.1q, %1.2d, %2.2d" : "=w"(r) : "w"(a), "w"(b));
	return r;
}

CRC_INLINE crc_v crc_mul_hl(crc_v a, crc_v b)
{
	return crc_mul_hh(a, vdupq_laneq_u64(b, 0));
}

CRC_INLINE crc_v crc_mul_lh(crc_v a, crc_v b)
{
	return crc_mul_hh(vdupq_laneq_u64(a, 0), b);
}

/* 16 message bytes as loaded, laid out for order. */
CRC_INLINE crc_v crc_order128(crc_v v, int order)
{
	return order == CRC_MSB ? crc_bswap128(v) : v;
}

/* A 16-byte chunk in register order. */
CRC_INLINE crc_v crc_load128(const uint8_t *p, int order)
{
	return crc_order128(vreinterpretq_u64_u8(vld1q_u8(p)), order);
}

/* The state, placed where it meets the first 8 message bytes of a chunk. */
CRC_INLINE crc_v crc_state128(uint64_t state, int order)
{
	return order != CRC_MSB ? vcombine_u64(vcreate_u64(state), vcreate_u64(0))
				: vcombine_u64(vcreate_u64(0), vcreate_u64(state));
}

CRC_INLINE crc_v crc_konst(const uint64_t k[2])
{
	return vld1q_u64(k);
}

/* The 16 bytes of the model that end with *k (so *k is lane 1): the fields before fold64 and
 * barrett[0] are model constants too, and the lane-0 value is never used. */
CRC_INLINE crc_v crc_hi_lane(const uint64_t *k)
{
	return vld1q_u64(k - 1);
}
_Static_assert(offsetof(struct crc_model, fold64) > 0 &&
		       offsetof(struct crc_model, barrett) > 0,
	       "crc_hi_lane reads the 8 bytes before fold64 and barrett[0]");

/* x moved forward by the distance k was built for. */
CRC_INLINE crc_v crc_fold128(crc_v x, crc_v k)
{
	return veorq_u64(crc_mul_ll(x, k), crc_mul_hh(x, k));
}

/* x (16 message bytes) followed by the last r message bytes (1 <= r <= 15), which end at end.
 * The first r bytes of x move forward 128 bits onto the other 16. Reads end - 16 .. end only,
 * which the caller guarantees is inside the buffer. */
CRC_INLINE crc_v crc_tail128(crc_v x, const uint8_t *end, size_t r, crc_v k128, int order)
{
	uint8x16_t last = vld1q_u8(end - 16);
	uint8x16_t xm = vreinterpretq_u8_u64(order != CRC_MSB ? x : crc_bswap128(x));
	uint8x16_t head = vqtbl1q_u8(xm, vld1q_u8(crc_shift_tbl + r));
	uint8x16_t rest = vqtbl1q_u8(xm, vld1q_u8(crc_shift_tbl + 16 + r));
	rest = vbslq_u8(vld1q_u8(crc_blend_tbl + r), last, rest);
	crc_v h = vreinterpretq_u64_u8(head), t = vreinterpretq_u64_u8(rest);
	if (order == CRC_MSB) {
		h = crc_bswap128(h);
		t = crc_bswap128(t);
	}
	return veorq_u64(crc_fold128(h, k128), t);
}

/* V = R_lo * x^64 + R_hi * (x^128 mod P), 128 bits congruent to R * x^64, for the message whose
 * last 16 bytes are x (R). */
CRC_INLINE crc_v crc_fold64(crc_v x, const struct crc_model *m, int order)
{
	crc_v zero = vdupq_n_u64(0);
	if (order != CRC_MSB) {
		crc_v f = vcombine_u64(vcreate_u64(m->fold64), vcreate_u64(0));
		return veorq_u64(crc_mul_ll(x, f), vextq_u64(x, zero, 1));
	}
	/* fold64 as lane 1 of the 16 bytes ending with it: PMULL2 takes it where it lies, no lane
	 * move on the way to the Barrett step. */
	return veorq_u64(crc_mul_hh(x, crc_hi_lane(&m->fold64)), vextq_u64(zero, x, 1));
}

/* The engine state V mod P, by Barrett reduction of the 128-bit V. */
CRC_INLINE uint64_t crc_barrett(crc_v v, const struct crc_model *m, int order)
{
	crc_v k = vld1q_u64(m->barrett);
	if (order != CRC_MSB) {
		crc_v q = crc_mul_ll(v, k); /* low half: rev(q) */
		crc_v p = crc_mul_lh(q, k); /* rev(q) * rev(P / x) */
		return vgetq_lane_u64(veorq_u64(v, p), 1) ^ (vgetq_lane_u64(q, 0) & m->barrett_q);
	}
	/* Both products by PMULL2, on lane 1 of each operand: V_hi * mu' (mu' = barrett[0], lane 1
	 * of the 16 bytes ending with it), then q = V_hi ^ (its top half), lane 1 of V ^ t, times
	 * P' (barrett[1], lane 1 of k). */
	crc_v t = crc_mul_hh(v, crc_hi_lane(&m->barrett[0]));
	crc_v p = crc_mul_hh(veorq_u64(v, t), k);
	return vgetq_lane_u64(veorq_u64(v, p), 0);
}

/* The engine state for the message whose last 16 bytes are x: x * x^64 mod P. */
CRC_INLINE uint64_t crc_reduce128(crc_v x, const struct crc_model *m, int order)
{
	return crc_barrett(crc_fold64(x, m, order), m, order);
}

/* The 16-byte stage every engine ends with: x holds the message up to p, whose len remaining
 * bytes (any number) are folded in; the result is the message's last 16 bytes, congruent to it. */
CRC_INLINE crc_v crc_rest128(crc_v x, const uint8_t *p, size_t len, const struct crc_model *m,
			     int order)
{
	crc_v k128 = crc_konst(m->fold[0]);
	for (; len >= 16; len -= 16, p += 16)
		x = veorq_u64(crc_fold128(x, k128), crc_load128(p, order));
	if (len)
		x = crc_tail128(x, p + len, len, k128, order);
	return x;
}

#endif
