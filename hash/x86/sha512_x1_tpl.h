/* Template: one SHA-512 stream (FIPS 180-4 section 6.4) with its message schedule in vectors
 * beside scalar rounds, and with 256-bit vectors the two-stream form.
 *
 * Parameters, defined before inclusion and undefined at the end:
 *   X5_BITS   256 (AVX2 and BMI2) or 128 (SSSE3: x86-64-v2)
 *   X5_NAME1  the one-stream function defined (a sha512_x1_fn)
 *   X5_NAME2  optional, with X5_BITS 256: the two-stream function defined (a sha512_x2_fn)
 *   X5_VL     optional, with X5_BITS 256: AVX-512VL's rotate and vpternlogq in the schedule
 *
 * The scalar rounds are short of registers for the 16-word schedule
 * window, so the schedule is computed in vector registers and W + K goes to a table the rounds
 * load from. Two blocks share the vector work: the low 128-bit lane of each YMM register holds
 * two words of block n, the high lane the same two words of block n + 1 (vpalignr works within
 * each 128-bit lane, so the pairwise schedule step is the same for both). Block n's rounds run
 * 16 words behind the schedule; block n + 1's rounds then only read the table. A lone last
 * block goes in both lanes and only the first copy is hashed. The two-stream form puts block n
 * of each stream in the two lanes instead: two short messages share one schedule pass. With
 * 128-bit vectors a register holds two words of one block and the rounds follow block by block.
 */
#include "hash_x1.h"

#if X5_BITS == 256
typedef __m256i X5V;
#define X5_ADD   _mm256_add_epi64
#define X5_XOR   _mm256_xor_si256
#define X5_OR    _mm256_or_si256
#define X5_SRL   _mm256_srli_epi64
#define X5_SLL   _mm256_slli_epi64
#define X5_ALIGN _mm256_alignr_epi8
#define X5_SHUF  _mm256_shuffle_epi8
#define X5_STORE(p, x) _mm256_store_si256((__m256i *)(p), x)
/* The round constants of words t, t + 1 in both 128-bit lanes. */
#define X5_K2(t) _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(sha512_k + (t))))
/* wk[] holds, per word pair t, t+1 (t even): block n's W + K at 2t, 2t+1, block n + 1's at
 * 2t+2, 2t+3. */
#define WK(t, o) wk[2 * ((t) & ~1) + ((t)&1) + (o)]
#else
typedef __m128i X5V;
#define X5_ADD   _mm_add_epi64
#define X5_XOR   _mm_xor_si128
#define X5_OR    _mm_or_si128
#define X5_SRL   _mm_srli_epi64
#define X5_SLL   _mm_slli_epi64
#define X5_ALIGN _mm_alignr_epi8
#define X5_SHUF  _mm_shuffle_epi8
#define X5_STORE(p, x) _mm_store_si128((__m128i *)(p), x)
#define X5_K2(t) _mm_load_si128((const __m128i *)(sha512_k + (t)))
/* wk[t]: block n's W + K of word t. */
#define WK(t, o) wk[(t) + (o)]
#endif
#if defined(X5_VL) && X5_BITS == 256
#define XROR(x, n) _mm256_ror_epi64(x, n)
#define XS0(x)     _mm256_ternarylogic_epi64(XROR(x, 1), XROR(x, 8), X5_SRL(x, 7), 0x96)
#define XS1(x)     _mm256_ternarylogic_epi64(XROR(x, 19), XROR(x, 61), X5_SRL(x, 6), 0x96)
#else
#define XROR(x, n) X5_OR(X5_SRL(x, n), X5_SLL(x, 64 - (n)))
#define XS0(x)     X5_XOR(X5_XOR(XROR(x, 1), XROR(x, 8)), X5_SRL(x, 7))
#define XS1(x)     X5_XOR(X5_XOR(XROR(x, 19), XROR(x, 61)), X5_SRL(x, 6))
#endif
/* Words t, t+1 replace xa (words t-16, t-15); xb follows xa, xe and xf hold t-8..t-5, xh t-2. */
#if X5_BITS == 256 && !defined(X5_VL)
/* AVX2 has no 64-bit rotate, so a Sigma is 9 instructions, and as intrinsics both compilers ran
 * out of the 16 YMM registers (x0..x7 live throughout) and spilled. As one asm statement with
 * three temporaries 12 are live and nothing spills (Zen 5, 64 KiB: 1100 -> 1200 MB/s under gcc,
 * 856 -> 1210 under clang, OpenSSL's speed). */
#define PAIR(xa, xb, xe, xf, xh, t)                                                                \
	do {                                                                                       \
		X5V y_, s_, u_;                                                                    \
		__asm__("vpalignr $8, %[a], %[b], %[y]\n\t" /* words t-15, t-14 */                 \
		        "vpsrlq $1, %[y], %[s]\n\t"                                                \
		        "vpsllq $63, %[y], %[u]\n\t"                                               \
		        "vpxor %[u], %[s], %[s]\n\t"                                               \
		        "vpsrlq $8, %[y], %[u]\n\t"                                                \
		        "vpxor %[u], %[s], %[s]\n\t"                                               \
		        "vpsllq $56, %[y], %[u]\n\t"                                               \
		        "vpxor %[u], %[s], %[s]\n\t"                                               \
		        "vpsrlq $7, %[y], %[u]\n\t"                                                \
		        "vpxor %[u], %[s], %[s]\n\t"                                               \
		        "vpaddq %[s], %[a], %[a]\n\t"                                              \
		        "vpalignr $8, %[e], %[f], %[y]\n\t" /* words t-7, t-6 */                   \
		        "vpaddq %[y], %[a], %[a]\n\t"                                              \
		        "vpsrlq $19, %[h], %[s]\n\t"                                               \
		        "vpsllq $45, %[h], %[u]\n\t"                                               \
		        "vpxor %[u], %[s], %[s]\n\t"                                               \
		        "vpsrlq $61, %[h], %[u]\n\t"                                               \
		        "vpsllq $3, %[h], %[y]\n\t"                                                \
		        "vpxor %[y], %[u], %[u]\n\t"                                               \
		        "vpxor %[u], %[s], %[s]\n\t"                                               \
		        "vpsrlq $6, %[h], %[u]\n\t"                                                \
		        "vpxor %[u], %[s], %[s]\n\t"                                               \
		        "vpaddq %[s], %[a], %[a]\n\t"                                              \
		        "vbroadcasti128 %[k], %[y]\n\t"                                            \
		        "vpaddq %[y], %[a], %[y]\n\t"                                              \
		        "vmovdqa %[y], %[wk]"                                                       \
		        : [a] "+x"(xa), [y] "=&x"(y_), [s] "=&x"(s_), [u] "=&x"(u_),              \
		          [wk] "=m"(*(X5V *)&WK(t, 0))                                             \
		        : [b] "x"(xb), [e] "x"(xe), [f] "x"(xf), [h] "x"(xh),                     \
		          [k] "m"(*(const __m128i *)(sha512_k + (t))));                           \
	} while (0)
#else
#define PAIR(xa, xb, xe, xf, xh, t)                                                                \
	do {                                                                                       \
		xa = X5_ADD(X5_ADD(xa, XS0(X5_ALIGN(xb, xa, 8))),                                  \
		            X5_ADD(X5_ALIGN(xf, xe, 8), XS1(xh)));                                 \
		X5_STORE(&WK(t, 0), X5_ADD(xa, X5_K2(t)));                                         \
		/* The rounds then read W + K back from wk[] (an add with a memory operand)    \
		 * instead of the compiler moving each word out of a vector register. */      \
		__asm__ volatile("" ::: "memory");                                                 \
	} while (0)
#endif
#define R64(x, n) ((x) >> (n) | (x) << (64 - (n)))
/* Ch(e, f, g) = (e & f) + (~e & g) (the two terms have no bits in common: andn, no copy of e
 * for the second). Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b, and this round's a ^ b is the next
 * round's b ^ c: the two alternate between p and q. T1 is summed in h itself, which d then takes
 * and Maj and Sigma0 complete: 21 scalar operations a round, where summing T1 apart and adding it
 * twice took 23 and ran 30% slower. */
#define SROUND(a, b, c, d, e, f, g, h, t, o, p, q)                                                 \
	do {                                                                                       \
		h += WK(t, o);                                                                     \
		h += (e) & (f);                                                                    \
		h += ~(e) & (g);                                                                   \
		h += R64(e, 14) ^ R64(e, 18) ^ R64(e, 41);                                         \
		__asm__("" : "+r"(h)); /* T1 whole before d takes it (clang reassociates) */      \
		d += h;                                                                            \
		p = (a) ^ (b);                                                                     \
		h += (p & q) ^ (b);                                                                \
		h += R64(a, 28) ^ R64(a, 34) ^ R64(a, 39);                                         \
	} while (0)
#define ROUNDS2(r, t, o)                                                                           \
	do {                                                                                       \
		if ((r) == 0) {                                                                    \
			SROUND(a, b, c, d, e, f, g, h, (t), o, ab, bc);                            \
			SROUND(h, a, b, c, d, e, f, g, (t) + 1, o, bc, ab);                        \
		} else if ((r) == 1) {                                                             \
			SROUND(g, h, a, b, c, d, e, f, (t), o, ab, bc);                            \
			SROUND(f, g, h, a, b, c, d, e, (t) + 1, o, bc, ab);                        \
		} else if ((r) == 2) {                                                             \
			SROUND(e, f, g, h, a, b, c, d, (t), o, ab, bc);                            \
			SROUND(d, e, f, g, h, a, b, c, (t) + 1, o, bc, ab);                        \
		} else {                                                                           \
			SROUND(c, d, e, f, g, h, a, b, (t), o, ab, bc);                            \
			SROUND(b, c, d, e, f, g, h, a, (t) + 1, o, bc, ab);                        \
		}                                                                                  \
	} while (0)
/* Rounds t0..t0+15 (t0 below 64) of block n with the schedule of words t0+16..t0+31 between
 * them. */
#define GROUP(t0)                                                                                  \
	do {                                                                                       \
		PAIR(x0, x1, x4, x5, x7, (t0) + 16);                                               \
		ROUNDS2(0, (t0), 0);                                                               \
		PAIR(x1, x2, x5, x6, x0, (t0) + 18);                                               \
		ROUNDS2(1, (t0) + 2, 0);                                                           \
		PAIR(x2, x3, x6, x7, x1, (t0) + 20);                                               \
		ROUNDS2(2, (t0) + 4, 0);                                                           \
		PAIR(x3, x4, x7, x0, x2, (t0) + 22);                                               \
		ROUNDS2(3, (t0) + 6, 0);                                                           \
		PAIR(x4, x5, x0, x1, x3, (t0) + 24);                                               \
		ROUNDS2(0, (t0) + 8, 0);                                                           \
		PAIR(x5, x6, x1, x2, x4, (t0) + 26);                                               \
		ROUNDS2(1, (t0) + 10, 0);                                                          \
		PAIR(x6, x7, x2, x3, x5, (t0) + 28);                                               \
		ROUNDS2(2, (t0) + 12, 0);                                                          \
		PAIR(x7, x0, x3, x4, x6, (t0) + 30);                                               \
		ROUNDS2(3, (t0) + 14, 0);                                                          \
	} while (0)
/* Rounds t0..t0+7 from the table alone: of block n (o = 0, the last 16) or n + 1 (o = 2). */
#define EIGHT(t0, o)                                                                               \
	do {                                                                                       \
		ROUNDS2(0, (t0), o);                                                               \
		ROUNDS2(1, (t0) + 2, o);                                                           \
		ROUNDS2(2, (t0) + 4, o);                                                           \
		ROUNDS2(3, (t0) + 6, o);                                                           \
	} while (0)

/* One stream (two = 0: with 256-bit vectors blocks n and n + 1 of data share a schedule, st
 * their state; sb and db unused) or two (two = 1: block n of data, state st, shares one with
 * block n of db, state sb). */
static inline __attribute__((always_inline)) void X5_CORE(uint64_t st[8], uint64_t *sb,
                                                          const uint8_t *data, const uint8_t *db,
                                                          uint64_t nblocks, int two, int rolled)
{
#if X5_BITS == 256
	const X5V bswap = _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)x1_bswap64));
#else
	const X5V bswap = _mm_load_si128((const __m128i *)x1_bswap64);
	(void)sb, (void)db, (void)two;
#endif
	uint64_t wk[X5_BITS == 256 ? 160 : 80] __attribute__((aligned(32)));
	while (nblocks) {
#if X5_BITS == 256
		/* The second block of the pair: the other stream's, or the next one, or the first
		 * again when it is alone. */
		const uint8_t *next = two ? db : nblocks > 1 ? data + 128 : data;
#define X5_LOAD16(j)                                                                               \
	_mm256_inserti128_si256(                                                                   \
	    _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(data + 16 * (j)))),          \
	    _mm_loadu_si128((const __m128i *)(next + 16 * (j))), 1)
#else
#define X5_LOAD16(j) _mm_loadu_si128((const __m128i *)(data + 16 * (j)))
#endif
		X5V x0, x1, x2, x3, x4, x5, x6, x7;
#define LOADW(x, j)                                                                                \
	do {                                                                                       \
		x = X5_SHUF(X5_LOAD16(j), bswap);                                                  \
		X5_STORE(&WK(2 * (j), 0), X5_ADD(x, X5_K2(2 * (j))));                              \
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
#undef X5_LOAD16
		__asm__ volatile("" ::: "memory"); /* as in PAIR */
		uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
		uint64_t e = st[4], f = st[5], g = st[6], h = st[7];
		uint64_t ab, bc = b ^ c;
		/* Rolled, rounds 0-63 run as a loop (the last 16 stay unrolled: as a loop too they
		 * ran slower); see X5_ROLLED_CALL. */
		if (rolled) {
			for (unsigned t0 = 0; t0 < 64; t0 += 16)
				GROUP(t0);
		} else {
			GROUP(0);
			GROUP(16);
			GROUP(32);
			GROUP(48);
		}
		EIGHT(64, 0);
		EIGHT(72, 0);
		st[0] = a += st[0];
		st[1] = b += st[1];
		st[2] = c += st[2];
		st[3] = d += st[3];
		st[4] = e += st[4];
		st[5] = f += st[5];
		st[6] = g += st[6];
		st[7] = h += st[7];
#if X5_BITS == 256
		if (two) {
			a = sb[0], b = sb[1], c = sb[2], d = sb[3];
			e = sb[4], f = sb[5], g = sb[6], h = sb[7];
		} else if (nblocks == 1) {
			break;
		}
		uint64_t *s2 = two ? sb : st;
		bc = b ^ c;
		if (rolled) {
			for (unsigned t0 = 0; t0 < 80; t0 += 8)
				EIGHT(t0, 2);
		} else {
			EIGHT(0, 2);
			EIGHT(8, 2);
			EIGHT(16, 2);
			EIGHT(24, 2);
			EIGHT(32, 2);
			EIGHT(40, 2);
			EIGHT(48, 2);
			EIGHT(56, 2);
			EIGHT(64, 2);
			EIGHT(72, 2);
		}
		s2[0] += a;
		s2[1] += b;
		s2[2] += c;
		s2[3] += d;
		s2[4] += e;
		s2[5] += f;
		s2[6] += g;
		s2[7] += h;
		if (two) {
			data += 128;
			db += 128;
			nblocks -= 1;
		} else {
			data += 256;
			nblocks -= 2;
		}
#else
		data += 128;
		nblocks -= 1;
#endif
	}
}

/* Under gcc without reassociation of the additions, which otherwise regroups SROUND's sums onto
 * the e chain (the AVX2 engine ran 30% slower with it). */
#if defined(__GNUC__) && !defined(__clang__)
#define X5_KERNEL __attribute__((optimize("no-tree-reassoc")))
#else
#define X5_KERNEL
#endif

/* The rounds of a block in one straight run of code, or rolled into loops. Unrolled, a block
 * pair's code outgrows Zen 3's op cache, so Zen 3 runs the rolled form; elsewhere the unrolled
 * one is faster (Zen 5, AVX2, 64 KiB: 1.10x). Only the choice of code depends on the CPU model,
 * never the result. Zen 3 has no AVX-512: the X5_VL form is never rolled. */
#define X5_FORM(name) X5_CAT(X5_NAME1, name)
#define X5_CAT(a, b) X5_CAT_(a, b)
#define X5_CAT_(a, b) a##_##b

#ifndef X5_VL
static X5_KERNEL __attribute__((noinline)) void X5_FORM(rolled)(uint64_t st[8], uint64_t *sb,
                                                             const uint8_t *data,
                                                             const uint8_t *db, uint64_t nblocks,
                                                             int two)
{
	if (two)
		X5_CORE(st, sb, data, db, nblocks, 1, 1);
	else
		X5_CORE(st, NULL, data, NULL, nblocks, 0, 1);
}
#define X5_ROLLED_CALL(...)                                                                        \
	do {                                                                                       \
		if (stoa_x86_zen3()) {                                                             \
			X5_FORM(rolled)(__VA_ARGS__);                                              \
			return;                                                                    \
		}                                                                                  \
	} while (0)
#else
#define X5_ROLLED_CALL(...) ((void)0)
#endif

X5_KERNEL void X5_NAME1(uint64_t st[8], const uint8_t *data, uint64_t nblocks)
{
	X5_ROLLED_CALL(st, NULL, data, NULL, nblocks, 0);
	X5_CORE(st, NULL, data, NULL, nblocks, 0, 0);
}

#ifdef X5_NAME2
X5_KERNEL void X5_NAME2(uint64_t sa[8], uint64_t sb[8], const uint8_t *da, const uint8_t *db,
                        uint64_t nblocks)
{
	X5_ROLLED_CALL(sa, sb, da, db, nblocks, 1);
	X5_CORE(sa, sb, da, db, nblocks, 1, 0);
}
#endif
#undef X5_ROLLED_CALL
#undef X5_FORM
#undef X5_CAT
#undef X5_CAT_

#undef X5_ADD
#undef X5_XOR
#undef X5_OR
#undef X5_SRL
#undef X5_SLL
#undef X5_ALIGN
#undef X5_SHUF
#undef X5_STORE
#undef X5_K2
#undef WK
#undef XROR
#undef XS0
#undef XS1
#undef PAIR
#undef R64
#undef SROUND
#undef ROUNDS2
#undef GROUP
#undef EIGHT
#undef X5_KERNEL
#undef X5_CORE
#undef X5_BITS
#undef X5_NAME1
#undef X5_NAME2
#undef X5_VL
