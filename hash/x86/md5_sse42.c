/* MD5 in XMM registers (RFC 1321 section 3.4), one message per dword lane: 8 messages at once
 * (two sets of 4 lanes, their steps one after the other) and 4 (one set) for a manager with few
 * jobs.
 *
 * Its own kernel, not md5_mb_tpl.h's: with two-operand SSE the compiler's register copies and
 * spills, and an unrolled block too big for the decoded-op cache, held that code at 0.84 of
 * isa-l_crypto's kernel on Zen 1. Here each step is an asm statement with the instructions it
 * needs, and each round a loop of four iterations of four steps over the message words stored
 * twice in a row (fixed offsets from a pointer that moves four words an iteration), with the
 * constants broadcast in a table. A rotate's two shifts issue a cycle apart where vector shifts
 * have one pipe (Zen 1), so b + (x <<< s) adds b to the left half before the right half arrives
 * (the halves share no bit); rotations by 16 are one pshufb. 1.06x isa-l_crypto's kernel there. */
#include "hash_arch.h"

#define HV_BITS 128
#define HV_W    32
#include "hash_vec.h"

#define MD5_T4(x) { x, x, x, x },
/* T[i] in all four lanes, for memory operands (aligned, as legacy SSE requires). */
static _Alignas(16) const uint32_t md5_t4[64][4] = { MD5_T_LIST(MD5_T4) };

#if defined(__GNUC__)
/* f(b, c, d) into t, b (the newest variable) last. G = (d & b) + (c & ~d), the terms share no
 * bit: c & ~d goes into a first, so b passes one operation before the sum. I = c ^ (b | ~d),
 * ~d from a register of ones. */
#define MD5_ASM_F "movdqa %[c], %[t]\n\tpxor %[d], %[t]\n\tpand %[b], %[t]\n\tpxor %[d], %[t]\n\t"
#define MD5_ASM_G                                                                                  \
	"movdqa %[d], %[t]\n\tpandn %[c], %[t]\n\tpaddd %[t], %[a]\n\t"                            \
	"movdqa %[d], %[t]\n\tpand %[b], %[t]\n\t"
#define MD5_ASM_H "movdqa %[c], %[t]\n\tpxor %[d], %[t]\n\tpxor %[b], %[t]\n\t"
#define MD5_ASM_I "movdqa %[d], %[t]\n\tpxor %[ones], %[t]\n\tpor %[b], %[t]\n\tpxor %[c], %[t]\n\t"
/* A = B + ((A + K + X + f(B, C, D)) <<< S). A is four steps old: the constant and the word go in
 * first, off the chain that starts at B. */
#define MD5_STEP1(f, A, B, C, D, K, X, S)                                                          \
	do {                                                                                       \
		V t_;                                                                              \
		__asm__(                                                                           \
		    "paddd %[k], %[a]\n\tpaddd %[x], %[a]\n\t" MD5_ASM_##f                         \
		    "paddd %[t], %[a]\n\t"                                                         \
		    ".if %c[s] == 16\n\tpshufb %[rot16], %[a]\n\tpaddd %[b], %[a]\n\t.else\n\t"    \
		    "movdqa %[a], %[t]\n\tpslld %[s], %[a]\n\tpsrld %[r], %[t]\n\t"                \
		    "paddd %[b], %[a]\n\tpaddd %[t], %[a]\n\t.endif"                               \
		    : [a] "+x"(A), [t] "=&x"(t_)                                                   \
		    : [b] "x"(B), [c] "x"(C), [d] "x"(D), [k] "m"(K), [x] "m"(X),                  \
		      [ones] "x"(ones), [rot16] "x"(rot16), [s] "i"(S), [r] "i"(32 - (S)));        \
	} while (0)
#else
#define MD5_FN_F(b, c, d) V_CH_32(b, c, d)
#define MD5_FN_G(b, c, d) V_ADD32(V_AND(d, b), _mm_andnot_si128(d, c))
#define MD5_FN_H(b, c, d) V_XOR(b, V_XOR(c, d))
#define MD5_FN_I(b, c, d) V_XOR(c, V_OR(b, V_XOR(d, ones)))
#define MD5_STEP1(f, A, B, C, D, K, X, S)                                                          \
	do {                                                                                       \
		V x_ = V_ADD32(V_ADD32(A, _mm_load_si128((const V *)(K))), X);                     \
		x_ = V_ADD32(x_, MD5_FN_##f(B, C, D));                                             \
		if ((S) == 16)                                                                     \
			A = V_ADD32(_mm_shuffle_epi8(x_, rot16), B);                               \
		else                                                                               \
			A = V_ADD32(V_ADD32(_mm_slli_epi32(x_, S), B),                             \
			            _mm_srli_epi32(x_, 32 - (S)));                                 \
	} while (0)
#endif

/* The rounds' loops stay loops (the point of the layout above). */
#if defined(__clang__)
#define MD5_ROLLED _Pragma("clang loop unroll(disable)")
#elif defined(__GNUC__)
#define MD5_ROLLED _Pragma("GCC unroll 1")
#else
#define MD5_ROLLED
#endif

/* Step r of an iteration: constant r of its four, word O of its window (x0, x1). */
#define MD5_STEP(f, A, B, C, D, r, O, S)                                                           \
	do {                                                                                       \
		MD5_STEP1(f, A##0, B##0, C##0, D##0, k[r], x0[O], S);                              \
		if (groups == 2)                                                                   \
			MD5_STEP1(f, A##1, B##1, C##1, D##1, k[r], x1[O], S);                      \
	} while (0)
/* One round, rounds' first constant kbase: iteration j's words are at base + sign * 4j + o of the
 * doubled words, base chosen so every offset o fits a byte displacement (-8..7 words). */
#define MD5_ROUND(f, kbase, sign, base, o0, o1, o2, o3, s0, s1, s2, s3)                            \
	MD5_ROLLED                                                                                 \
	for (int j = 0; j < 4; j++) {                                                              \
		const uint32_t(*k)[4] = md5_t4 + (kbase) + 4 * j;                                  \
		const V *x0 = w0 + (base) + (sign)*4 * j, *x1 = w1 + (base) + (sign)*4 * j;        \
		MD5_STEP(f, a, b, c, d, 0, o0, s0);                                                \
		MD5_STEP(f, d, a, b, c, 1, o1, s1);                                                \
		MD5_STEP(f, c, d, a, b, 2, o2, s2);                                                \
		MD5_STEP(f, b, c, d, a, 3, o3, s3);                                                \
	}

static inline __attribute__((always_inline)) void
md5_sse42_lanes(uint32_t digest[4][32], uint8_t *const *data, uint64_t nblocks, int groups)
{
	V a0 = V_LOADU(digest[0]), b0 = V_LOADU(digest[1]), c0 = V_LOADU(digest[2]);
	V d0 = V_LOADU(digest[3]);
	/* The second set's state when there is one (else unused copies of the first). */
	int g1 = groups == 2 ? 4 : 0;
	V a1 = V_LOADU(digest[0] + g1), b1 = V_LOADU(digest[1] + g1);
	V c1 = V_LOADU(digest[2] + g1), d1 = V_LOADU(digest[3] + g1);
	const V ones = _mm_set1_epi32(-1);
	const V rot16 = _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
	V w0[32], w1[32]; /* each set's 16 words, then the same 16 again */
	for (uint64_t blk = 0; blk < nblocks; blk++) {
		hv_load_block(w0, data, blk * 64);
		if (groups == 2)
			hv_load_block(w1, data + 4, blk * 64);
		HV_UNROLL
		for (int i = 0; i < 16; i++) {
			w0[16 + i] = w0[i];
			if (groups == 2)
				w1[16 + i] = w1[i];
		}
		V sa0 = a0, sb0 = b0, sc0 = c0, sd0 = d0, sa1 = a1, sb1 = b1, sc1 = c1, sd1 = d1;
		/* Step i of a round takes word i (F), 1 + 5i (G), 5 + 3i (H) or 7i (I), mod 16: in
		 * iteration j, 4j + {0, 1, 2, 3}, 4j + {1, 6, 11, 16}, 16 - 4j + {5, 8, 11, 14} and
		 * 16 - 4j + {0, 7, 14, 5}. */
		MD5_ROUND(F, 0, 1, 0, 0, 1, 2, 3, 7, 12, 17, 22)
		MD5_ROUND(G, 16, 1, 9, -8, -3, 2, 7, 5, 9, 14, 20)
		MD5_ROUND(H, 32, -1, 26, -5, -2, 1, 4, 4, 11, 16, 23)
		MD5_ROUND(I, 48, -1, 23, -7, 0, 7, -2, 6, 10, 15, 21)
		a0 = V_ADD32(a0, sa0);
		b0 = V_ADD32(b0, sb0);
		c0 = V_ADD32(c0, sc0);
		d0 = V_ADD32(d0, sd0);
		if (groups == 2) {
			a1 = V_ADD32(a1, sa1);
			b1 = V_ADD32(b1, sb1);
			c1 = V_ADD32(c1, sc1);
			d1 = V_ADD32(d1, sd1);
		}
	}
	V_STOREU(digest[0], a0);
	V_STOREU(digest[1], b0);
	V_STOREU(digest[2], c0);
	V_STOREU(digest[3], d0);
	if (groups == 2) {
		V_STOREU(digest[0] + 4, a1);
		V_STOREU(digest[1] + 4, b1);
		V_STOREU(digest[2] + 4, c1);
		V_STOREU(digest[3] + 4, d1);
	}
}

void md5_x8_sse42(uint32_t digest[4][32], uint8_t *const *data, uint64_t nblocks)
{
	md5_sse42_lanes(digest, data, nblocks, 2);
}

void md5_x4_sse42(uint32_t digest[4][32], uint8_t *const *data, uint64_t nblocks)
{
	md5_sse42_lanes(digest, data, nblocks, 1);
}
