/* Adler-32 with Advanced SIMD, 32 bytes per step. Over a run of n steps s1 grows by the bytes'
 * sum (pairwise widening adds) and s2 by 32 n times the s1 before the run, plus 32 times the sum
 * of the partial sums before each step, plus the bytes weighted 32..1 by their place in the
 * step: the bytes of each place are summed over the run in 16-bit columns and weighted once at
 * its end. */
#include <arm_neon.h>

#include "inflate_arch.h"

#define ADLER_MOD 65521u
/* Steps per run: a 16-bit column gains at most 255 a step; a 32-bit lane of the partial sums,
 * times 32, stays below 32 * 2040 * n^2 / 2 (2.1e9 at n = 256). */
#define ADLER_STEPS 256u

uint32_t adler32_neon(uint32_t init, const unsigned char *buf, uint64_t len)
{
	static const uint16_t weights[32] = { 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22,
		                              21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11,
		                              10, 9,  8,  7,  6,  5,  4,  3,  2,  1 };
	const uint16x8_t w0 = vld1q_u16(weights), w1 = vld1q_u16(weights + 8);
	const uint16x8_t w2 = vld1q_u16(weights + 16), w3 = vld1q_u16(weights + 24);
	uint32_t s1 = (init & 0xffff) % ADLER_MOD, s2 = (init >> 16) % ADLER_MOD;

	while (len >= 32) {
		uint64_t steps = len / 32;
		if (steps > ADLER_STEPS)
			steps = ADLER_STEPS;
		len -= steps * 32;
		uint64_t t2 = (uint64_t)s2 + steps * 32 * s1;
		uint32x4_t vs1 = vdupq_n_u32(0), vps = vdupq_n_u32(0);
		uint16x8_t c0 = vdupq_n_u16(0), c1 = c0, c2 = c0, c3 = c0;
		for (uint64_t i = 0; i < steps; i++, buf += 32) {
			const uint8x16_t a = vld1q_u8(buf), b = vld1q_u8(buf + 16);
			vps = vaddq_u32(vps, vs1);
			vs1 = vpadalq_u16(vs1, vpadalq_u8(vpaddlq_u8(a), b));
			c0 = vaddw_u8(c0, vget_low_u8(a));
			c1 = vaddw_high_u8(c1, a);
			c2 = vaddw_u8(c2, vget_low_u8(b));
			c3 = vaddw_high_u8(c3, b);
		}
		uint32x4_t v2 = vshlq_n_u32(vps, 5);
		v2 = vmlal_u16(v2, vget_low_u16(c0), vget_low_u16(w0));
		v2 = vmlal_high_u16(v2, c0, w0);
		v2 = vmlal_u16(v2, vget_low_u16(c1), vget_low_u16(w1));
		v2 = vmlal_high_u16(v2, c1, w1);
		v2 = vmlal_u16(v2, vget_low_u16(c2), vget_low_u16(w2));
		v2 = vmlal_high_u16(v2, c2, w2);
		v2 = vmlal_u16(v2, vget_low_u16(c3), vget_low_u16(w3));
		v2 = vmlal_high_u16(v2, c3, w3);
		s1 = (uint32_t)((s1 + vaddlvq_u32(vs1)) % ADLER_MOD);
		s2 = (uint32_t)((t2 + vaddlvq_u32(v2)) % ADLER_MOD);
	}
	return adler32_portable((s2 << 16) | s1, buf, len);
}
