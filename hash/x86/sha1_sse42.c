/* SHA-1 for x86-64-v2: 4 messages at once in the 4 dword lanes of XMM registers (FIPS 180-4
 * section 6.1), and one message with the schedule in SSSE3 vectors beside scalar rounds
 * (sha1_x1_tpl.h).
 *
 * The four-lane kernel is its own, not sha1_mb_tpl.h's: with two-operand SSE the compiler's
 * register copies and spills, and an unrolled block too big for the decoded-op cache, held that
 * code at 0.89 of isa-l_crypto's kernel on Zen 1. Here each round and schedule word is an asm
 * statement with the instructions it needs, each twenty rounds a loop of four iterations of five
 * over the 80 words stored in a row (iteration j computes the words 20 rounds ahead), and the
 * rotates spare the shift pipe (one on Zen 1): rol1 shifts left by an add, rol5(a) enters e as
 * its two halves. 1.12x isa-l_crypto's kernel there. */
#include "hash_arch.h"

#define X1_NAME sha1_x1_sse42
#include "sha1_x1_tpl.h"

#define HV_BITS 128
#define HV_W    32
#include "hash_vec.h"

/* The round constants, broadcast: x1_k of sha1_x1_tpl.h, aligned as legacy SSE's memory operands
 * require. */

#if defined(__GNUC__)
/* f(b, c, d) added to e, through t and u. */
#define SHA1_ASM_CH                                                                                \
	"movdqa %[c], %[t]\n\tpxor %[d], %[t]\n\tpand %[b], %[t]\n\tpxor %[d], %[t]\n\t"           \
	"paddd %[t], %[e]\n\t"
#define SHA1_ASM_PAR                                                                               \
	"movdqa %[b], %[t]\n\tpxor %[c], %[t]\n\tpxor %[d], %[t]\n\tpaddd %[t], %[e]\n\t"
/* Maj(b, c, d) = (b & c) + (d & (b ^ c)): the terms share no bit. */
#define SHA1_ASM_MAJ                                                                               \
	"movdqa %[b], %[t]\n\tpand %[c], %[t]\n\tpaddd %[t], %[e]\n\t"                             \
	"movdqa %[b], %[t]\n\tpxor %[c], %[t]\n\tpand %[d], %[t]\n\tpaddd %[t], %[e]\n\t"
/* e += K + W + f(b, c, d) + (a <<< 5); b <<<= 30. The rotate's halves share no bit and go into
 * e one at a time: the left half's add waits on one shift, not on both (one shift pipe). */
#define SHA1_ROUND(f, A, B, C, D, E, K, X)                                                         \
	do {                                                                                       \
		V t_, u_;                                                                          \
		__asm__("paddd %[k], %[e]\n\tpaddd %[x], %[e]\n\t" SHA1_ASM_##f                    \
		        "movdqa %[a], %[t]\n\tmovdqa %[a], %[u]\n\tpslld $5, %[t]\n\t"             \
		        "psrld $27, %[u]\n\tpaddd %[t], %[e]\n\tpaddd %[u], %[e]\n\t"              \
		        "movdqa %[b], %[t]\n\tpslld $30, %[b]\n\tpsrld $2, %[t]\n\tpor %[t], %[b]" \
		        : [e] "+x"(E), [b] "+x"(B), [t] "=&x"(t_), [u] "=&x"(u_)                   \
		        : [a] "x"(A), [c] "x"(C), [d] "x"(D), [k] "m"(K), [x] "m"(X));             \
	} while (0)
/* W[t] = (W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16]) <<< 1, for w = &W[t]; the left shift by one
 * is an add, off the shift pipe. W[t - 3], stored three words before and read back through the
 * store queue, enters last: the words form a chain through it, and with it first that chain (a
 * forwarded load, three XORs, the rotate and the store every three words) paced the rounds on
 * Zen 3 (x4 manager, 16 jobs of 4 KiB: 0.965 -> 1.004 of isa-l_crypto's). */
#define SHA1_SCHED(w)                                                                              \
	do {                                                                                       \
		V s_, r_;                                                                          \
		__asm__("movdqa %[m16], %[s]\n\tpxor %[m14], %[s]\n\tpxor %[m8], %[s]\n\t"         \
		        "pxor %[m3], %[s]\n\tmovdqa %[s], %[r]\n\tpaddd %[s], %[s]\n\t"            \
		        "psrld $31, %[r]\n\tpor %[r], %[s]\n\tmovdqa %[s], %[w0]"                  \
		        : [w0] "=m"((w)[0]), [s] "=&x"(s_), [r] "=&x"(r_)                          \
		        : [m3] "m"((w)[-3]), [m8] "m"((w)[-8]), [m14] "m"((w)[-14]),               \
		          [m16] "m"((w)[-16]));                                                    \
	} while (0)
#else
#define SHA1_FN_CH(b, c, d)  V_CH_32(b, c, d)
#define SHA1_FN_PAR(b, c, d) V_XOR3_32(b, c, d)
#define SHA1_FN_MAJ(b, c, d) V_ADD32(V_AND(b, c), V_AND(d, V_XOR(b, c)))
#define SHA1_ROUND(f, A, B, C, D, E, K, X)                                                         \
	do {                                                                                       \
		E = V_ADD32(V_ADD32(E, _mm_load_si128((const V *)(K))), X);                        \
		E = V_ADD32(E, SHA1_FN_##f(B, C, D));                                              \
		E = V_ADD32(V_ADD32(E, _mm_slli_epi32(A, 5)), _mm_srli_epi32(A, 27));              \
		B = V_ROL32(B, 30);                                                                \
	} while (0)
#define SHA1_SCHED(w)                                                                              \
	do {                                                                                       \
		V s_ = V_XOR(V_XOR((w)[-3], (w)[-8]), V_XOR((w)[-14], (w)[-16]));                  \
		(w)[0] = V_ROL1_32(s_);                                                            \
	} while (0)
#endif

#if defined(__clang__)
#define SHA1_ROLLED _Pragma("clang loop unroll(disable)")
#elif defined(__GNUC__)
#define SHA1_ROLLED _Pragma("GCC unroll 1")
#else
#define SHA1_ROLLED
#endif

/* Twenty rounds with one f: four iterations of five (the variables' roles come back after five).
 * With SCHED, iteration j also computes the words 20 rounds ahead of its own. */
#define SHA1_STAGE(f, q, SCHED)                                                                    \
	SHA1_ROLLED                                                                                \
	for (int j = 0; j < 4; j++) {                                                              \
		V *x = w + 20 * (q) + 5 * j;                                                       \
		SHA1_ROUND(f, a, b, c, d, e, x1_k[q], x[0]);                                       \
		SCHED(x + 20);                                                                     \
		SHA1_ROUND(f, e, a, b, c, d, x1_k[q], x[1]);                                       \
		SCHED(x + 21);                                                                     \
		SHA1_ROUND(f, d, e, a, b, c, x1_k[q], x[2]);                                       \
		SCHED(x + 22);                                                                     \
		SHA1_ROUND(f, c, d, e, a, b, x1_k[q], x[3]);                                       \
		SCHED(x + 23);                                                                     \
		SHA1_ROUND(f, b, c, d, e, a, x1_k[q], x[4]);                                       \
		SCHED(x + 24);                                                                     \
	}
#define SHA1_NO_SCHED(w) ((void)0)

void sha1_x4_sse42(uint32_t digest[5][16], uint8_t *const *data, uint64_t nblocks)
{
	const V bswap = V_BCAST128(hv_bswap32);
	V a = V_LOADU(digest[0]), b = V_LOADU(digest[1]), c = V_LOADU(digest[2]);
	V d = V_LOADU(digest[3]), e = V_LOADU(digest[4]);
	V w[80];
	for (uint64_t blk = 0; blk < nblocks; blk++) {
		hv_load_block(w, data, blk * 64);
		HV_UNROLL
		for (int i = 0; i < 16; i++)
			w[i] = V_SHUF8(w[i], bswap);
		HV_UNROLL
		for (int i = 16; i < 20; i++)
			SHA1_SCHED(w + i);
		V sa = a, sb = b, sc = c, sd = d, se = e;
		SHA1_STAGE(CH, 0, SHA1_SCHED)
		SHA1_STAGE(PAR, 1, SHA1_SCHED)
		SHA1_STAGE(MAJ, 2, SHA1_SCHED)
		SHA1_STAGE(PAR, 3, SHA1_NO_SCHED)
		a = V_ADD32(a, sa);
		b = V_ADD32(b, sb);
		c = V_ADD32(c, sc);
		d = V_ADD32(d, sd);
		e = V_ADD32(e, se);
	}
	V_STOREU(digest[0], a);
	V_STOREU(digest[1], b);
	V_STOREU(digest[2], c);
	V_STOREU(digest[3], d);
	V_STOREU(digest[4], e);
}
