/* SHA-512, 4 messages at once in the 4 qword lanes of YMM registers. */
#include "hash/hash_internal.h"

#define HV_BITS 256
#define MB_NAME sha512_x4_avx2
#include "sha512_mb_tpl.h"

/*
 * One SHA-512 stream. The scalar rounds are short of registers for the 16-word schedule
 * window, which then lives in memory, and each new word waits on a store and reload of the one
 * two before it. Here the window lives in eight XMM registers, two words each, computed a pair at
 * a time with AVX2-era vector instructions, interleaved with the rounds 16 words behind, and
 * W + K goes to a small table the rounds load from.
 */
static inline __m128i ror64x2(__m128i x, int n)
{
	return _mm_or_si128(_mm_srli_epi64(x, n), _mm_slli_epi64(x, 64 - n));
}
#define XS0(x) _mm_xor_si128(_mm_xor_si128(ror64x2(x, 1), ror64x2(x, 8)), _mm_srli_epi64(x, 7))
#define XS1(x) _mm_xor_si128(_mm_xor_si128(ror64x2(x, 19), ror64x2(x, 61)), _mm_srli_epi64(x, 6))
/* Words t, t+1 replace xa (words t-16, t-15); xb follows xa, xe and xf hold t-8..t-5, xh t-2. */
#define PAIR(xa, xb, xe, xf, xh, t)                                                                \
	do {                                                                                       \
		xa = _mm_add_epi64(_mm_add_epi64(xa, XS0(_mm_alignr_epi8(xb, xa, 8))),             \
		                   _mm_add_epi64(_mm_alignr_epi8(xf, xe, 8), XS1(xh)));            \
		_mm_store_si128(                                                                   \
		    (__m128i *)(wk + ((t)&31)),                                                    \
		    _mm_add_epi64(xa, _mm_load_si128((const __m128i *)(sha512_k + (t)))));         \
	} while (0)
#define R64(x, n) ((x) >> (n) | (x) << (64 - (n)))
/* Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b, and this round's a ^ b is the next round's b ^ c:
 * the two alternate between p and q. */
#define SROUND(a, b, c, d, e, f, g, h, t, p, q)                                                    \
	do {                                                                                       \
		uint64_t t1 = h + wk[(t)&31] + ((g) ^ ((e) & ((f) ^ (g)))) +                       \
		              (R64(e, 14) ^ R64(e, 18) ^ R64(e, 41));                              \
		d += t1;                                                                           \
		p = (a) ^ (b);                                                                     \
		h = t1 + (R64(a, 28) ^ R64(a, 34) ^ R64(a, 39)) + ((p & q) ^ (b));                 \
	} while (0)
#define ROUNDS2(r, t)                                                                              \
	do {                                                                                       \
		if ((r) == 0) {                                                                    \
			SROUND(a, b, c, d, e, f, g, h, (t), ab, bc);                               \
			SROUND(h, a, b, c, d, e, f, g, (t) + 1, bc, ab);                           \
		} else if ((r) == 1) {                                                             \
			SROUND(g, h, a, b, c, d, e, f, (t), ab, bc);                               \
			SROUND(f, g, h, a, b, c, d, e, (t) + 1, bc, ab);                           \
		} else if ((r) == 2) {                                                             \
			SROUND(e, f, g, h, a, b, c, d, (t), ab, bc);                               \
			SROUND(d, e, f, g, h, a, b, c, (t) + 1, bc, ab);                           \
		} else {                                                                           \
			SROUND(c, d, e, f, g, h, a, b, (t), ab, bc);                               \
			SROUND(b, c, d, e, f, g, h, a, (t) + 1, bc, ab);                           \
		}                                                                                  \
	} while (0)
/* Rounds t0..t0+15 with the schedule of words t0+16..t0+31 between them (none past 79). */
#define GROUP(t0)                                                                                  \
	do {                                                                                       \
		if ((t0) + 16 < 80)                                                                \
			PAIR(x0, x1, x4, x5, x7, (t0) + 16);                                       \
		ROUNDS2(0, (t0));                                                                  \
		if ((t0) + 16 < 80)                                                                \
			PAIR(x1, x2, x5, x6, x0, (t0) + 18);                                       \
		ROUNDS2(1, (t0) + 2);                                                              \
		if ((t0) + 16 < 80)                                                                \
			PAIR(x2, x3, x6, x7, x1, (t0) + 20);                                       \
		ROUNDS2(2, (t0) + 4);                                                              \
		if ((t0) + 16 < 80)                                                                \
			PAIR(x3, x4, x7, x0, x2, (t0) + 22);                                       \
		ROUNDS2(3, (t0) + 6);                                                              \
		if ((t0) + 16 < 80)                                                                \
			PAIR(x4, x5, x0, x1, x3, (t0) + 24);                                       \
		ROUNDS2(0, (t0) + 8);                                                              \
		if ((t0) + 16 < 80)                                                                \
			PAIR(x5, x6, x1, x2, x4, (t0) + 26);                                       \
		ROUNDS2(1, (t0) + 10);                                                             \
		if ((t0) + 16 < 80)                                                                \
			PAIR(x6, x7, x2, x3, x5, (t0) + 28);                                       \
		ROUNDS2(2, (t0) + 12);                                                             \
		if ((t0) + 16 < 80)                                                                \
			PAIR(x7, x0, x3, x4, x6, (t0) + 30);                                       \
		ROUNDS2(3, (t0) + 14);                                                             \
	} while (0)

void sha512_x1_avx2(uint64_t st[8], const uint8_t *data, uint64_t nblocks)
{
	const __m128i bswap = _mm_loadu_si128((const __m128i *)hv_bswap64);
	/* W + K for 32 rounds: the 16 being hashed and the 16 computed ahead. */
	uint64_t wk[32] __attribute__((aligned(16)));
	for (; nblocks; nblocks--, data += 128) {
		__m128i x0, x1, x2, x3, x4, x5, x6, x7;
#define LOADW(x, j)                                                                                \
	do {                                                                                       \
		x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * (j))), bswap);  \
		_mm_store_si128(                                                                   \
		    (__m128i *)(wk + 2 * (j)),                                                     \
		    _mm_add_epi64(x, _mm_load_si128((const __m128i *)(sha512_k + 2 * (j)))));      \
	} while (0)
		LOADW(x0, 0);
		LOADW(x1, 1);
		LOADW(x2, 2);
		LOADW(x3, 3);
		LOADW(x4, 4);
		LOADW(x5, 5);
		LOADW(x6, 6);
		LOADW(x7, 7);
#undef LOADW
		uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
		uint64_t e = st[4], f = st[5], g = st[6], h = st[7];
		uint64_t ab, bc = b ^ c;
		GROUP(0);
		GROUP(16);
		GROUP(32);
		GROUP(48);
		GROUP(64);
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
