/* MD5 on MB_GROUPS x HV_LANES messages at once (RFC 1321 section 3.4), one message per vector
 * lane. Parameters: HV_BITS (512 or 256; SSE has its own kernel, md5_sse42.c), MB_GROUPS (1 or 2)
 * and MB_NAME, the function defined (an md5_lanes_fn).
 *
 * Each MD5 step waits on the one before (four dependent operations), so one set of vectors
 * leaves the core idle most of the time; two independent sets of lanes, their steps
 * interleaved, fill those gaps. One set serves a manager with few jobs at half the work. */
#define HV_W 32
#include "hash_vec.h"

/* RFC 1321's four functions of b, c and d. On AVX-512 each is one vpternlog that overwrites its
 * first operand, b, which lives on, so the compiler copies b first: that copy (a register
 * rename, no execution unit) puts the newest variable at the front of the step's chain. Truth
 * tables with b = 0xf0, c = 0xcc, d = 0xaa: F = b ? c : d, G = d ? b : c, H = b ^ c ^ d,
 * I = c ^ (b | ~d). PRE_x(a, c, d) adds to a, before the step's chain, the part of x that does
 * not depend on b (none on AVX-512). */
#if HV_BITS == 512
#define F(b, c, d)     V_TERN32(b, c, d, 0xca)
#define G(b, c, d)     V_TERN32(b, c, d, 0xe4)
#define H(b, c, d)     V_TERN32(b, c, d, 0x96)
#define I(b, c, d)     V_TERN32(b, c, d, 0x39)
#define PRE_G(a, c, d) ((void)0)
#else
/* AVX2 composes them so that b, the newest, passes through one operation before the sum where
 * it can: H = b ^ (c ^ d), and G = (d & b) + (c & ~d) (the two terms share no bit), its second
 * term added to a early. Measured on the x16 kernel, in cycles per byte: 0.375 with
 * G = c ^ (d & (b ^ c)) and H = (b ^ c) ^ d, 0.353 with G = (d & b) | (c & ~d), 0.343 with the
 * term added early (isa-l_crypto's x8x2: 0.345). */
#define F(b, c, d)     V_CH_32(b, c, d)
#define G(b, c, d)     V_AND(d, b)
#define H(b, c, d)     V_XOR(b, V_XOR(c, d))
#define I(b, c, d)     V_MD5I_32(b, c, d)
#define PRE_G(a, c, d) (a = V_ADD32(a, _mm256_andnot_si256(d, c)))
#endif
/* a = b + (x <<< s). AVX2 adds b and the rotate's halves (they share no bit) one at a time, so
 * b goes in while the second shift waits for the first where shifts have one pipe (Zen 1, one
 * set of lanes: 4% faster). */
#if HV_BITS == 512
#define ROT_ADD(a, x, b, s) (a = V_ADD32(b, V_ROL32(x, s)))
#else
#define ROT_ADD(a, x, b, s)                                                                        \
	do {                                                                                       \
		V x_ = (x);                                                                        \
		a = V_ADD32(V_ADD32(_mm256_slli_epi32(x_, s), b),                                  \
		            _mm256_srli_epi32(x_, 32 - (s)));                                      \
	} while (0)
#endif
#define PRE_F(a, c, d) ((void)0)
#define PRE_H(a, c, d) ((void)0)
#define PRE_I(a, c, d) ((void)0)
/* Step i of 64: the message word it takes and its rotation, per RFC 1321 section 3.4. */
#define MIDX(i)                                                                                    \
	((i) < 16   ? (i)                                                                          \
	 : (i) < 32 ? (1 + 5 * (i)) & 15                                                           \
	 : (i) < 48 ? (5 + 3 * (i)) & 15                                                           \
	            : (7 * (i)) & 15)
/* One step with the variables' roles of step i. a, written four steps ago, takes the constant
 * and the word first, off the critical path; b, the newest variable, enters f, and the chain
 * f, add, rotate, add follows.
 *
 * Measured on Zen 4 (AVX-512, 32 lanes, 16 KiB per lane in cache): this form, with the groups'
 * steps one after the other as written, takes 0.189 TSC cycles per byte; the earlier form, which
 * added the next step's word and constant to d a step ahead so that f could overwrite d without
 * a copy, took 0.221 with the same number of vector operations (isa-l_crypto's kernel: 0.199). */
#define STEP1(f, a, b, c, d, w, i, s)                                                              \
	do {                                                                                       \
		a = V_ADD32(a, V_SET1_32(kt[i]));                                                  \
		a = V_ADD32(a, w[MIDX(i)]);                                                        \
		PRE_##f(a, c, d);                                                                  \
		ROT_ADD(a, V_ADD32(a, f(b, c, d)), b, s);                                          \
	} while (0)
#define STEP(f, a, b, c, d, i, s)                                                                  \
	do {                                                                                       \
		STEP1(f, a##0, b##0, c##0, d##0, w0, i, s);                                        \
		if (MB_GROUPS == 2)                                                                \
			STEP1(f, a##1, b##1, c##1, d##1, w1, i, s);                                \
	} while (0)
/* With two sets of 16 lanes, the next block's message words are loaded and transposed during
 * this block's steps, a sixteenth of the work after each four steps, into the other half of a
 * double buffer in memory; the steps add their words from memory. The compiler barrier after
 * each piece keeps it there, rather than all of it in the first steps' registers. */
#if HV_BITS == 512 && MB_GROUPS == 2
#define MD5_AHEAD 1
#if defined(__GNUC__)
#define MD5_BARRIER(buf) __asm__ volatile("" : : "r"(buf) : "memory")
#else
#define MD5_BARRIER(buf) ((void)0)
#endif
#define PIECE(q)                                                                                   \
	do {                                                                                       \
		if (blk + 1 < nblocks)                                                             \
			hv_load_piece(wnext[(q) >> 3], sq, data + HV_LANES * ((q) >> 3),           \
			              (blk + 1) * 64, (q)&7);                                      \
		MD5_BARRIER(wbuf);                                                                 \
	} while (0)
#else
#define MD5_AHEAD 0
#define PIECE(q)  ((void)0)
#endif
#define FOUR(f, i, s0, s1, s2, s3)                                                                 \
	do {                                                                                       \
		STEP(f, a, b, c, d, (i), s0);                                                      \
		STEP(f, d, a, b, c, (i) + 1, s1);                                                  \
		STEP(f, c, d, a, b, (i) + 2, s2);                                                  \
		STEP(f, b, c, d, a, (i) + 3, s3);                                                  \
		PIECE((i) / 4);                                                                    \
	} while (0)
#define STEP_ADD(i, x, g)                                                                          \
	do {                                                                                       \
		x = V_ADD32(x, V_LOADU(digest[i] + HV_LANES * (g)));                               \
		V_STOREU(digest[i] + HV_LANES * (g), x);                                           \
	} while (0)

/* gcc's scheduler after register allocation interleaves the two groups' steps operation by
 * operation and moves constant adds early, which measured slower on AVX-512 (0.196 against
 * 0.189 cycles per byte in the order written); AVX2 measured the same either way. */
#if HV_BITS == 512 && defined(__GNUC__) && !defined(__clang__)
#define MD5_KERNEL __attribute__((optimize("no-tree-reassoc", "no-schedule-insns2")))
#else
#define MD5_KERNEL HV_KERNEL
#endif

MD5_KERNEL void MB_NAME(uint32_t digest[4][32], uint8_t *const *data, uint64_t nblocks)
{
	V a0 = V_LOADU(digest[0]), b0 = V_LOADU(digest[1]), c0 = V_LOADU(digest[2]);
	V d0 = V_LOADU(digest[3]);
	/* The second set's state when there is one (else unused copies of the first). */
	int g1 = MB_GROUPS == 2 ? HV_LANES : 0;
	V a1 = V_LOADU(digest[0] + g1), b1 = V_LOADU(digest[1] + g1);
	V c1 = V_LOADU(digest[2] + g1), d1 = V_LOADU(digest[3] + g1);
#if MD5_AHEAD
	V wbuf[2][2][16], sq[4][4];
	if (nblocks) {
		hv_load_block(wbuf[0][0], data, 0);
		hv_load_block(wbuf[0][1], data + HV_LANES, 0);
	}
#endif
	for (uint64_t blk = 0; blk < nblocks; blk++) {
#if MD5_AHEAD
		V *w0 = wbuf[blk & 1][0], *w1 = wbuf[blk & 1][1];
		V(*wnext)[16] = wbuf[~blk & 1];
#else
		V w0[16], w1[16];
		hv_load_block(w0, data, blk * 64);
		if (MB_GROUPS == 2)
			hv_load_block(w1, data + HV_LANES, blk * 64);
#endif
		const uint32_t *kt = md5_t;
		HV_FRESH(kt);
		MD5_FOURS(FOUR);
		STEP_ADD(0, a0, 0);
		STEP_ADD(1, b0, 0);
		STEP_ADD(2, c0, 0);
		STEP_ADD(3, d0, 0);
		if (MB_GROUPS == 2) {
			STEP_ADD(0, a1, 1);
			STEP_ADD(1, b1, 1);
			STEP_ADD(2, c1, 1);
			STEP_ADD(3, d1, 1);
		}
	}
}

#undef F
#undef G
#undef H
#undef I
#undef PRE_F
#undef PRE_G
#undef PRE_H
#undef PRE_I
#undef MIDX
#undef STEP1
#undef ROT_ADD
#undef STEP
#undef FOUR
#undef PIECE
#undef MD5_AHEAD
#undef MD5_BARRIER
#undef STEP_ADD
#undef MD5_KERNEL
#undef MB_NAME
#undef MB_GROUPS
#undef HV_BITS
#undef HV_W
