/* Template: SHA-256 on one message (FIPS 180-4 section 6.2) for CPUs without SHA-NI: the message
 * schedule four words at a time in 128-bit vectors, the rounds on scalar registers.
 *
 * Parameter, defined before inclusion and undefined at the end:
 *   X1_NAME  the function defined (a sha256_x1_fn)
 * The including file's flags decide the rest: with BMI2 the rotates become RORX, which leaves
 * the flags alone and needs no copy of its source.
 *
 * Why: the portable engine computes each schedule word with a dozen scalar operations and keeps
 * the sixteen-word window in memory; here a group of four words costs about thirty vector
 * operations on ports the rounds leave idle, and goes to a small stack array with its round
 * constants added, which the rounds read as one memory operand each. Each group is written
 * between the four rounds that come before it in the block, so the two streams of work share
 * the core instead of queueing one behind the other. */
#include "hash_x1.h"

/* sigma1 of the two words in the low half of x, in the low half of the result (the high half
 * is junk the caller masks). Section 4.1.2 (4.7). */
X1_INLINE __m128i x1_s1_lo(__m128i x)
{
	return _mm_xor_si128(_mm_xor_si128(x1_ror4(x, 17), x1_ror4(x, 19)), _mm_srli_epi32(x, 10));
}

/* The next four schedule words from the sixteen before them (x0 oldest), section 6.2.2 step 1:
 * W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16]. s1 of the group's first two words needs the
 * last group's two newest, of its last two the group's own first two, so it goes in two halves. */
X1_INLINE __m128i x1_sched(__m128i x0, __m128i x1, __m128i x2, __m128i x3)
{
	__m128i w15 = _mm_alignr_epi8(x1, x0, 4); /* W[t-15 .. t-12] */
	__m128i w7 = _mm_alignr_epi8(x3, x2, 4);  /* W[t-7 .. t-4] */
	__m128i s0 =
	    _mm_xor_si128(_mm_xor_si128(x1_ror4(w15, 7), x1_ror4(w15, 18)), _mm_srli_epi32(w15, 3));
	__m128i t = _mm_add_epi32(_mm_add_epi32(x0, w7), s0);
	/* W[t-2], W[t-1] into the low half: W[t], W[t+1] in the low half of lo. */
	__m128i lo = _mm_add_epi32(t, _mm_move_epi64(x1_s1_lo(_mm_srli_si128(x3, 8))));
	/* s1(W[t]), s1(W[t+1]) into the high half. */
	__m128i hi = _mm_slli_si128(x1_s1_lo(lo), 8);
	return _mm_add_epi32(lo, hi);
}

/* Sigma0 and Sigma1 (section 4.1.2, 4.4 and 4.5). With BMI2 three RORX side by side; without,
 * each rotate needs a copy of its source, and nesting them, ror(x ^ ror(x ^ ror(x, 14), 5), 6)
 * for Sigma1, takes one copy for all three: fewer operations, which bound these rounds more than
 * the two cycles of latency it adds. */
#ifdef __BMI2__
#define X1_S0(x) (x1_ror(x, 2) ^ x1_ror(x, 13) ^ x1_ror(x, 22))
#define X1_S1(x) (x1_ror(x, 6) ^ x1_ror(x, 11) ^ x1_ror(x, 25))
#else
#define X1_S0(x) x1_ror((x) ^ x1_ror((x) ^ x1_ror(x, 9), 11), 2)
#define X1_S1(x) x1_ror((x) ^ x1_ror((x) ^ x1_ror(x, 14), 5), 6)
#endif

/* One round on the renamed working variables; x = W[t] + K[t]. Maj(a, b, c) is
 * ((a ^ b) & (b ^ c)) ^ b, and this round's a ^ b is the next round's b ^ c, so it is carried. */
#define X1_ROUND(a, b, c, d, e, f, g, h, x)                                                        \
	do {                                                                                       \
		uint32_t t1_ = h + (x) + X1_S1(e) + ((((f) ^ (g)) & (e)) ^ (g));                   \
		uint32_t ab_ = (a) ^ (b);                                                          \
		d += t1_;                                                                          \
		h = t1_ + X1_S0(a) + ((ab_ & bc) ^ (b));                                           \
		bc = ab_;                                                                          \
	} while (0)
#define X1_FOUR(a, b, c, d, e, f, g, h, t)                                                         \
	do {                                                                                       \
		X1_ROUND(a, b, c, d, e, f, g, h, wk[(t)&15]);                                      \
		X1_ROUND(h, a, b, c, d, e, f, g, wk[((t) + 1) & 15]);                              \
		X1_ROUND(g, h, a, b, c, d, e, f, wk[((t) + 2) & 15]);                              \
		X1_ROUND(f, g, h, a, b, c, d, e, wk[((t) + 3) & 15]);                              \
	} while (0)
/* Group t / 4 of the schedule (t >= 16) into wk, written over the words rounds t - 16 .. t - 13
 * have read; the vectors renamed so that x0 is again the oldest. */
#define X1_GROUP(x0, x1, x2, x3, t)                                                                \
	do {                                                                                       \
		x0 = x1_sched(x0, x1, x2, x3);                                                     \
		_mm_store_si128((__m128i *)&wk[(t)&15],                                            \
		                _mm_add_epi32(x0, _mm_load_si128((const __m128i *)&sha256_k[t]))); \
		X1_FROM_MEMORY();                                                                  \
	} while (0)
/* Eight rounds t .. t + 7 with the groups for t + 16 and t + 20 between them (up to round 48,
 * after which the schedule is complete). */
#define X1_EIGHT(t)                                                                                \
	do {                                                                                       \
		X1_FOUR(a, b, c, d, e, f, g, h, t);                                                \
		if ((t) + 16 < 64)                                                                 \
			X1_GROUP(x0, x1, x2, x3, (t) + 16);                                        \
		X1_FOUR(e, f, g, h, a, b, c, d, (t) + 4);                                          \
		if ((t) + 20 < 64)                                                                 \
			X1_GROUP(x1, x2, x3, x0, (t) + 20);                                        \
	} while (0)
/* Sixteen rounds: the vectors' names come back to where they started. */
#define X1_SIXTEEN(t)                                                                              \
	do {                                                                                       \
		X1_EIGHT(t);                                                                       \
		{                                                                                  \
			__m128i y0_ = x2, y1_ = x3, y2_ = x0, y3_ = x1;                            \
			x0 = y0_, x1 = y1_, x2 = y2_, x3 = y3_;                                    \
		}                                                                                  \
		X1_EIGHT((t) + 8);                                                                 \
		{                                                                                  \
			__m128i y0_ = x2, y1_ = x3, y2_ = x0, y3_ = x1;                            \
			x0 = y0_, x1 = y1_, x2 = y2_, x3 = y3_;                                    \
		}                                                                                  \
	} while (0)

void X1_NAME(uint32_t st[8], const uint8_t *data, uint64_t nblocks)
{
	uint32_t wk[16] __attribute__((aligned(16)));
	for (; nblocks; nblocks--, data += 64) {
		uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
		uint32_t e = st[4], f = st[5], g = st[6], h = st[7];
		uint32_t bc = b ^ c;
		__m128i x0 = x1_load_be(data), x1 = x1_load_be(data + 16);
		__m128i x2 = x1_load_be(data + 32), x3 = x1_load_be(data + 48);
		const __m128i *k = (const __m128i *)sha256_k;
		_mm_store_si128((__m128i *)&wk[0], _mm_add_epi32(x0, _mm_load_si128(k)));
		_mm_store_si128((__m128i *)&wk[4], _mm_add_epi32(x1, _mm_load_si128(k + 1)));
		_mm_store_si128((__m128i *)&wk[8], _mm_add_epi32(x2, _mm_load_si128(k + 2)));
		_mm_store_si128((__m128i *)&wk[12], _mm_add_epi32(x3, _mm_load_si128(k + 3)));
		X1_FROM_MEMORY();
		X1_SIXTEEN(0);
		X1_SIXTEEN(16);
		X1_SIXTEEN(32);
		X1_SIXTEEN(48);
		st[0] += a;
		st[1] += b;
		st[2] += c;
		st[3] += d;
		st[4] += e;
		st[5] += f;
		st[6] += g;
		st[7] += h;
	}
}

#undef X1_S0
#undef X1_S1
#undef X1_ROUND
#undef X1_FOUR
#undef X1_GROUP
#undef X1_EIGHT
#undef X1_SIXTEEN
#undef X1_NAME
