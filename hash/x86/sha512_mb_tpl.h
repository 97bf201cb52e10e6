/* SHA-512 on HV_LANES messages at once (FIPS 180-4 section 6.4), one message per vector lane.
 * Parameters: HV_BITS (512 or 256) and MB_NAME, the function defined (a sha512_lanes_fn). */
#define HV_W 64
#include "hash_vec.h"

#define S0(x) V_XOR3_64(V_ROR64(x, 28), V_ROR64(x, 34), V_ROR64(x, 39))
#define S1(x) V_XOR3_64(V_ROR64(x, 14), V_ROR64(x, 18), V_ROR64(x, 41))
#define s0(x) V_XOR3_64(V_ROR64(x, 1), V_ROR64(x, 8), V_SHR64(x, 7))
#define s1(x) V_XOR3_64(V_ROR64(x, 19), V_ROR64(x, 61), V_SHR64(x, 6))
#define W(t)  w[(t)&15]
#define SCHED(t)                                                                                   \
	(W(t) = V_ADD64(V_ADD64(W(t), s1(W((t) + 14))), V_ADD64(W((t) + 9), s0(W((t) + 1)))))
/* What depends on the newest e enters last, shortening the chain from round to round. */
#define ROUND(a, b, c, d, e, f, g, h, t, x)                                                        \
	do {                                                                                       \
		V t1 = V_ADD64(                                                                    \
		    V_ADD64(V_ADD64(h, V_ADD64(V_SET1_64(sha512_k[t]), x)), V_CH_64(e, f, g)),     \
		    S1(e));                                                                        \
		d = V_ADD64(d, t1);                                                                \
		h = V_ADD64(t1, V_ADD64(S0(a), V_MAJ_64(a, b, c)));                                \
	} while (0)
#define EIGHT(t, X)                                                                                \
	do {                                                                                       \
		ROUND(a, b, c, d, e, f, g, h, (t), X(t));                                          \
		ROUND(h, a, b, c, d, e, f, g, (t) + 1, X((t) + 1));                                \
		ROUND(g, h, a, b, c, d, e, f, (t) + 2, X((t) + 2));                                \
		ROUND(f, g, h, a, b, c, d, e, (t) + 3, X((t) + 3));                                \
		ROUND(e, f, g, h, a, b, c, d, (t) + 4, X((t) + 4));                                \
		ROUND(d, e, f, g, h, a, b, c, (t) + 5, X((t) + 5));                                \
		ROUND(c, d, e, f, g, h, a, b, (t) + 6, X((t) + 6));                                \
		ROUND(b, c, d, e, f, g, h, a, (t) + 7, X((t) + 7));                                \
	} while (0)
#define STEP_ADD(i, x)                                                                             \
	do {                                                                                       \
		x = V_ADD64(x, V_LOADU(digest[i]));                                                \
		V_STOREU(digest[i], x);                                                            \
	} while (0)

HV_KERNEL void MB_NAME(uint64_t digest[8][8], uint8_t *const *data, uint64_t nblocks)
{
	const V bswap = V_BCAST128(hv_bswap64);
	V a = V_LOADU(digest[0]), b = V_LOADU(digest[1]), c = V_LOADU(digest[2]);
	V d = V_LOADU(digest[3]), e = V_LOADU(digest[4]), f = V_LOADU(digest[5]);
	V g = V_LOADU(digest[6]), h = V_LOADU(digest[7]);
	for (uint64_t blk = 0; blk < nblocks; blk++) {
		V w[16];
		hv_load_block(w, data, blk * 128);
		for (int i = 0; i < 16; i++)
			w[i] = V_SHUF8(w[i], bswap);
		EIGHT(0, W);
		EIGHT(8, W);
		EIGHT(16, SCHED);
		EIGHT(24, SCHED);
		EIGHT(32, SCHED);
		EIGHT(40, SCHED);
		EIGHT(48, SCHED);
		EIGHT(56, SCHED);
		EIGHT(64, SCHED);
		EIGHT(72, SCHED);
		/* The starting state comes back from memory, leaving registers to the words. */
		STEP_ADD(0, a);
		STEP_ADD(1, b);
		STEP_ADD(2, c);
		STEP_ADD(3, d);
		STEP_ADD(4, e);
		STEP_ADD(5, f);
		STEP_ADD(6, g);
		STEP_ADD(7, h);
	}
}

#undef S0
#undef S1
#undef s0
#undef s1
#undef W
#undef SCHED
#undef ROUND
#undef EIGHT
#undef STEP_ADD
#undef MB_NAME
#undef HV_BITS
#undef HV_W
