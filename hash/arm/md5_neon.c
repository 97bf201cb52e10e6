/* MD5 (RFC 1321 section 3.4) on Advanced SIMD lanes: eight messages at once (two sets of four
 * 32-bit lanes, their steps interleaved, since each MD5 step waits on the one before), and four
 * (one set) for a manager with few jobs.
 *
 * Each set's sixteen message words are transposed from the four lanes' blocks (TRN1/TRN2 on
 * words, then on doublewords) into a small array the steps read. */
#include <arm_neon.h>

#include "hash_arch.h"

#define KERNEL static inline __attribute__((always_inline))

/* RFC 1321's functions: F = b ? c : d, G = d ? b : c, H = b ^ c ^ d, I = c ^ (b | ~d). */
#define F(b, c, d) vbslq_u32(b, c, d)
#define G(b, c, d) vbslq_u32(d, b, c)
#define H(b, c, d) veorq_u32(b, veorq_u32(c, d))
#define I(b, c, d) veorq_u32(c, vornq_u32(b, d))

/* Step i of 64: the message word it takes, per RFC 1321 section 3.4. */
#define MIDX(i)                                                                                    \
	((i) < 16   ? (i)                                                                          \
	 : (i) < 32 ? (1 + 5 * (i)) & 15                                                           \
	 : (i) < 48 ? (5 + 3 * (i)) & 15                                                           \
	            : (7 * (i)) & 15)

/* acc += x * k[lane], as one MLA (by element) that gcc cannot split: with the intrinsic, gcc 12
 * computes the product once for the two sets' steps and adds it to each (an instruction more
 * per two steps, and a live product that costs spills). */
#define MLA_LANE(acc, x, k, lane)                                                                  \
	__asm__("mla %0.4s, %1.4s, %2.s[%3]" : "+w"(acc) : "w"(x), "w"(k), "i"(lane))

/* One step of one set: a, written four steps ago, takes the word and the constant first, off
 * the chain through b; the constant as a multiply-add of lane i % 4 of the four steps' constants
 * by one (MLA by element: no broadcast of its own). */
#define STEP1(f, a, b, c, d, w, i, s)                                                              \
	do {                                                                                       \
		a = vaddq_u32(a, w[MIDX(i)]);                                                      \
		MLA_LANE(a, ones, kq, (i)&3);                                                      \
		uint32x4_t x_ = vaddq_u32(a, f(b, c, d));                                          \
		a = vaddq_u32(b, vsriq_n_u32(vshlq_n_u32(x_, s), x_, 32 - (s)));                   \
	} while (0)
#define STEP(f, a, b, c, d, i, s)                                                                  \
	do {                                                                                       \
		STEP1(f, a##0, b##0, c##0, d##0, w0, i, s);                                        \
		if (groups == 2)                                                                   \
			STEP1(f, a##1, b##1, c##1, d##1, w1, i, s);                                \
	} while (0)
#define FOUR(f, i, s0, s1, s2, s3)                                                                 \
	do {                                                                                       \
		const uint32x4_t kq = vld1q_u32(kt + (i));                                         \
		STEP(f, a, b, c, d, (i), s0);                                                      \
		STEP(f, d, a, b, c, (i) + 1, s1);                                                  \
		STEP(f, c, d, a, b, (i) + 2, s2);                                                  \
		STEP(f, b, c, d, a, (i) + 3, s3);                                                  \
	} while (0)

#define ADD_STORE(i, x, lane)                                                                      \
	(x = vaddq_u32(x, vld1q_u32(digest[i] + (lane))), vst1q_u32(digest[i] + (lane), x))

/* Block `off` of four lanes' messages as w[j] = word j of each lane. */
KERNEL void load_block(uint32x4_t w[16], uint8_t *const *data, uint64_t off)
{
#pragma GCC unroll 4
	for (int q = 0; q < 4; q++) {
		uint32x4_t r0 = vld1q_u32((const uint32_t *)(data[0] + off + 16 * q));
		uint32x4_t r1 = vld1q_u32((const uint32_t *)(data[1] + off + 16 * q));
		uint32x4_t r2 = vld1q_u32((const uint32_t *)(data[2] + off + 16 * q));
		uint32x4_t r3 = vld1q_u32((const uint32_t *)(data[3] + off + 16 * q));
		uint64x2_t t0 = vreinterpretq_u64_u32(vtrn1q_u32(r0, r1));
		uint64x2_t t1 = vreinterpretq_u64_u32(vtrn2q_u32(r0, r1));
		uint64x2_t t2 = vreinterpretq_u64_u32(vtrn1q_u32(r2, r3));
		uint64x2_t t3 = vreinterpretq_u64_u32(vtrn2q_u32(r2, r3));
		w[4 * q] = vreinterpretq_u32_u64(vtrn1q_u64(t0, t2));
		w[4 * q + 1] = vreinterpretq_u32_u64(vtrn1q_u64(t1, t3));
		w[4 * q + 2] = vreinterpretq_u32_u64(vtrn2q_u64(t0, t2));
		w[4 * q + 3] = vreinterpretq_u32_u64(vtrn2q_u64(t1, t3));
	}
}

KERNEL void md5_lanes(uint32_t digest[4][32], uint8_t *const *data, uint64_t nblocks, int groups)
{
	const int g1 = groups == 2 ? 4 : 0;
	/* Opaque to gcc, which would otherwise turn the multiply-add by one back into a broadcast
	 * and an add. */
	uint32x4_t ones = vdupq_n_u32(1);
	__asm__("" : "+w"(ones));
	uint32x4_t a0 = vld1q_u32(digest[0]), b0 = vld1q_u32(digest[1]);
	uint32x4_t c0 = vld1q_u32(digest[2]), d0 = vld1q_u32(digest[3]);
	uint32x4_t a1 = vld1q_u32(digest[0] + g1), b1 = vld1q_u32(digest[1] + g1);
	uint32x4_t c1 = vld1q_u32(digest[2] + g1), d1 = vld1q_u32(digest[3] + g1);
	for (uint64_t blk = 0; blk < nblocks; blk++) {
		uint32x4_t w0[16], w1[16];
		load_block(w0, data, blk * 64);
		if (groups == 2)
			load_block(w1, data + 4, blk * 64);
		/* The steps read their words from the arrays: kept in registers, the 32 words of
		 * two sets and their state outnumber the registers and gcc spills and reloads
		 * them where it likes. */
		__asm__ volatile("" : : "r"(w0), "r"(w1) : "memory");
		/* The constants' address, hidden from the optimiser per block: otherwise gcc
		 * hoists all 16 loads out of the loop and spills them. */
		const uint32_t *kt = md5_t;
		__asm__("" : "+r"(kt));
		MD5_FOURS(FOUR);
		/* The state before the block is read back from the digest rather than kept in
		 * eight more registers. */
		ADD_STORE(0, a0, 0), ADD_STORE(1, b0, 0), ADD_STORE(2, c0, 0), ADD_STORE(3, d0, 0);
		if (groups == 2) {
			ADD_STORE(0, a1, 4), ADD_STORE(1, b1, 4);
			ADD_STORE(2, c1, 4), ADD_STORE(3, d1, 4);
		}
	}
}

void md5_x8_neon(uint32_t digest[4][32], uint8_t *const *data, uint64_t nblocks)
{
	md5_lanes(digest, data, nblocks, 2);
}

void md5_x4_neon(uint32_t digest[4][32], uint8_t *const *data, uint64_t nblocks)
{
	md5_lanes(digest, data, nblocks, 1);
}
