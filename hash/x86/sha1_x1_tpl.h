/* Template: SHA-1 on one message (FIPS 180-4 section 6.1) for CPUs without SHA-NI: the message
 * schedule four words at a time in 128-bit vectors, the rounds on scalar registers.
 *
 * Parameter, defined before inclusion and undefined at the end:
 *   X1_NAME  the function defined (a sha1_x1_fn)
 *
 * Why: the schedule is a third of the portable engine's work; in vectors a group of four words
 * costs about a dozen operations on ports the rounds leave idle. Each group goes, its round
 * constant added, to a small stack array that the rounds read as one memory operand each, and
 * is written among the rounds that come before it, so the two streams of work share the core.
 *
 * The schedule, section 6.1.2 step 1: W[t] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]). In a group
 * of four the last word needs the first (t + 3 - 3), which a vector computes with a zero in its
 * place and then adds: its term rol1(W[t]) is rol2 of the first lane before its rotate. From
 * t = 32 on the recurrence unrolled once, W[t] = rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]) (each
 * term of the original appears twice over two steps and cancels except these), has no term
 * inside the group. */
#include "hash_x1.h"

/* The round constants of section 4.2.1, four of each. */
static const uint32_t x1_k[4][4] __attribute__((aligned(16))) = {
	{ 0x5a827999, 0x5a827999, 0x5a827999, 0x5a827999 },
	{ 0x6ed9eba1, 0x6ed9eba1, 0x6ed9eba1, 0x6ed9eba1 },
	{ 0x8f1bbcdc, 0x8f1bbcdc, 0x8f1bbcdc, 0x8f1bbcdc },
	{ 0xca62c1d6, 0xca62c1d6, 0xca62c1d6, 0xca62c1d6 },
};

/* W[t .. t+3] for 16 <= t < 32 from the sixteen words before them, x0 oldest. */
X1_INLINE __m128i x1_sched_early(__m128i x0, __m128i x1, __m128i x2, __m128i x3)
{
	__m128i w14 = _mm_alignr_epi8(x1, x0, 8); /* W[t-14 .. t-11] */
	__m128i w3 = _mm_srli_si128(x3, 4);       /* W[t-3 .. t-1], 0 */
	__m128i t = _mm_xor_si128(_mm_xor_si128(x0, w14), _mm_xor_si128(x2, w3));
	__m128i r = x1_rol4(t, 1);
	/* Lane 3's missing term: rol1(W[t]) = rol2(lane 0 of t). */
	return _mm_xor_si128(r, x1_rol4(_mm_slli_si128(t, 12), 2));
}

/* W[t .. t+3] for t >= 32 from the groups that start at W[t-32], W[t-28], W[t-16], W[t-8] and
 * W[t-4]. */
X1_INLINE __m128i x1_sched_late(__m128i w32, __m128i w28, __m128i w16, __m128i w8, __m128i w4)
{
	__m128i w6 = _mm_alignr_epi8(w4, w8, 8); /* W[t-6 .. t-3] */
	return x1_rol4(_mm_xor_si128(_mm_xor_si128(w32, w28), _mm_xor_si128(w16, w6)), 2);
}

/* The round functions of section 4.1.1. Maj(b, c, d) = (b & c) + (d & (b ^ c)): the two terms
 * never share a bit, so an addition joins them and the compiler may fold it into the round's
 * sum. */
#define X1_CH(b, c, d)  ((((c) ^ (d)) & (b)) ^ (d))
#define X1_PAR(b, c, d) ((b) ^ (c) ^ (d))
#define X1_MAJ(b, c, d) (((b) & (c)) + ((d) & ((b) ^ (c))))

#define X1_ROUND(a, b, c, d, e, F, t)                                                              \
	do {                                                                                       \
		e += x1_rol(a, 5) + F(b, c, d) + wk[(t)&15];                                       \
		b = x1_rol(b, 30);                                                                 \
	} while (0)
#define X1_FIVE(F, t)                                                                              \
	do {                                                                                       \
		X1_ROUND(a, b, c, d, e, F, (t));                                                   \
		X1_ROUND(e, a, b, c, d, F, (t) + 1);                                               \
		X1_ROUND(d, e, a, b, c, F, (t) + 2);                                               \
		X1_ROUND(c, d, e, a, b, F, (t) + 3);                                               \
		X1_ROUND(b, c, d, e, a, F, (t) + 4);                                               \
	} while (0)
#define X1_FUNC(t) ((t) < 20 ? 0 : (t) < 40 ? 1 : (t) < 60 ? 2 : 3)
/* Four rounds from t, whichever function applies to each (t, a multiple of 4, may straddle the
 * five-round renaming: the names go by t % 5). */
#define X1_R(t)                                                                                    \
	do {                                                                                       \
		switch ((t) % 5) {                                                                 \
		case 0:                                                                            \
			X1_RF(a, b, c, d, e, t);                                                   \
			break;                                                                     \
		case 1:                                                                            \
			X1_RF(e, a, b, c, d, t);                                                   \
			break;                                                                     \
		case 2:                                                                            \
			X1_RF(d, e, a, b, c, t);                                                   \
			break;                                                                     \
		case 3:                                                                            \
			X1_RF(c, d, e, a, b, t);                                                   \
			break;                                                                     \
		default:                                                                           \
			X1_RF(b, c, d, e, a, t);                                                   \
			break;                                                                     \
		}                                                                                  \
	} while (0)
#define X1_RF(a, b, c, d, e, t)                                                                    \
	do {                                                                                       \
		if (X1_FUNC(t) == 0)                                                               \
			X1_ROUND(a, b, c, d, e, X1_CH, t);                                         \
		else if (X1_FUNC(t) == 2)                                                          \
			X1_ROUND(a, b, c, d, e, X1_MAJ, t);                                        \
		else                                                                               \
			X1_ROUND(a, b, c, d, e, X1_PAR, t);                                        \
	} while (0)
#define X1_FOUR(t)                                                                                 \
	do {                                                                                       \
		X1_R(t);                                                                           \
		X1_R((t) + 1);                                                                     \
		X1_R((t) + 2);                                                                     \
		X1_R((t) + 3);                                                                     \
	} while (0)
/* Schedule group t (t >= 16) into wk over the words rounds t - 16 .. t - 13 read: stored in the
 * ring of eight vectors xs at t / 4 % 8. */
#define X1_GROUP(t)                                                                                \
	do {                                                                                       \
		__m128i n_;                                                                        \
		if ((t) < 32)                                                                      \
			n_ = x1_sched_early(xs[((t) / 4 + 4) % 8], xs[((t) / 4 + 5) % 8],          \
			                    xs[((t) / 4 + 6) % 8], xs[((t) / 4 + 7) % 8]);         \
		else                                                                               \
			n_ = x1_sched_late(xs[(t) / 4 % 8], xs[((t) / 4 + 1) % 8],                 \
			                   xs[((t) / 4 + 4) % 8], xs[((t) / 4 + 6) % 8],           \
			                   xs[((t) / 4 + 7) % 8]);                                 \
		xs[(t) / 4 % 8] = n_;                                                              \
		_mm_store_si128(                                                                   \
		    (__m128i *)&wk[(t)&15],                                                        \
		    _mm_add_epi32(n_, _mm_load_si128((const __m128i *)x1_k[X1_FUNC(t)])));         \
		X1_FROM_MEMORY();                                                                  \
	} while (0)
/* Message words 4i .. 4i + 3 of the block at p into group i and, their round constant added, into
 * wk. Written out, not looped: a loop's variable index puts xs in memory, and each schedule group
 * then waits on a store-to-load forward of the one before it (that cost a quarter of the block's
 * time). */
#define X1_LOAD(p, i)                                                                              \
	do {                                                                                       \
		xs[i] = x1_load_be((p) + 16 * (i));                                                \
		_mm_store_si128((__m128i *)&wk[4 * (i)], _mm_add_epi32(xs[i], k0));                \
	} while (0)
/* Rounds t .. t + 3, and the schedule group sixteen words on: in this block up to t = 60, after
 * that the next block's first words (xs and wk[t % 16 ..] are free by then), so a block starts on
 * rounds, not on loads (2-4% at 4 and 64 KiB). */
#define X1_STEP(t)                                                                                 \
	do {                                                                                       \
		X1_FOUR(t);                                                                        \
		if ((t) + 16 < 80) {                                                               \
			X1_GROUP((t) + 16);                                                        \
		} else {                                                                           \
			X1_LOAD(next, ((t)-64) / 4);                                               \
			X1_FROM_MEMORY();                                                          \
		}                                                                                  \
	} while (0)

void X1_NAME(uint32_t st[5], const uint8_t *data, uint64_t nblocks)
{
	const __m128i k0 = _mm_load_si128((const __m128i *)x1_k[0]);
	uint32_t wk[16] __attribute__((aligned(16)));
	/* The last 32 schedule words, four to a vector, group t / 4 at t / 4 % 8. Named elements
	 * of an array the compiler keeps in registers: every index is a constant. */
	__m128i xs[8];
	if (!nblocks)
		return;
	X1_LOAD(data, 0);
	X1_LOAD(data, 1);
	X1_LOAD(data, 2);
	X1_LOAD(data, 3);
	X1_FROM_MEMORY();
	for (; nblocks; nblocks--, data += 64) {
		uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4];
		/* The block whose first words the last rounds load: the next, or this one again
		 * (never past the message). */
		const uint8_t *next = nblocks > 1 ? data + 64 : data;
		X1_STEP(0);
		X1_STEP(4);
		X1_STEP(8);
		X1_STEP(12);
		X1_STEP(16);
		X1_STEP(20);
		X1_STEP(24);
		X1_STEP(28);
		X1_STEP(32);
		X1_STEP(36);
		X1_STEP(40);
		X1_STEP(44);
		X1_STEP(48);
		X1_STEP(52);
		X1_STEP(56);
		X1_STEP(60);
		X1_STEP(64);
		X1_STEP(68);
		X1_STEP(72);
		X1_STEP(76);
		st[0] += a;
		st[1] += b;
		st[2] += c;
		st[3] += d;
		st[4] += e;
	}
}

#undef X1_CH
#undef X1_PAR
#undef X1_MAJ
#undef X1_ROUND
#undef X1_FIVE
#undef X1_FUNC
#undef X1_R
#undef X1_RF
#undef X1_FOUR
#undef X1_GROUP
#undef X1_STEP
#undef X1_LOAD
#undef X1_NAME
