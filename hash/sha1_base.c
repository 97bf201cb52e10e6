/* SHA-1 (FIPS 180-4 section 6.1), portable single-stream engine. The 80-word schedule is kept
 * as a rolling window of 16, and the rounds are unrolled so the five working variables stay in
 * registers, renamed by the macro arguments instead of shuffled. */
#include "hash_internal.h"

const uint32_t sha1_iv[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };

#define W(t)         w[(t)&15]
#define SCHED(t)     (W(t) = hash_rol32(W((t) + 13) ^ W((t) + 8) ^ W((t) + 2) ^ W(t), 1))
#define CH(b, c, d)  ((d) ^ ((b) & ((c) ^ (d))))
#define PAR(b, c, d) ((b) ^ (c) ^ (d))
#define MAJ(b, c, d) (((b) & (c)) | ((d) & ((b) | (c))))
#define ROUND(a, b, c, d, e, f, k, x)                                                              \
	do {                                                                                       \
		e += hash_rol32(a, 5) + f(b, c, d) + (k) + (x);                                    \
		b = hash_rol32(b, 30);                                                             \
	} while (0)
#define FIVE(t, f, k, X)                                                                           \
	do {                                                                                       \
		ROUND(a, b, c, d, e, f, k, X(t));                                                  \
		ROUND(e, a, b, c, d, f, k, X((t) + 1));                                            \
		ROUND(d, e, a, b, c, f, k, X((t) + 2));                                            \
		ROUND(c, d, e, a, b, f, k, X((t) + 3));                                            \
		ROUND(b, c, d, e, a, f, k, X((t) + 4));                                            \
	} while (0)

void sha1_x1_portable(uint32_t st[5], const uint8_t *data, uint64_t nblocks)
{
	uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4];
	uint32_t w[16];
	for (; nblocks; nblocks--, data += 64) {
		for (int i = 0; i < 16; i++)
			w[i] = hash_be32(data + 4 * i);
		uint32_t sa = a, sb = b, sc = c, sd = d, se = e;
		FIVE(0, CH, 0x5a827999, W);
		FIVE(5, CH, 0x5a827999, W);
		FIVE(10, CH, 0x5a827999, W);
		ROUND(a, b, c, d, e, CH, 0x5a827999, W(15));
		ROUND(e, a, b, c, d, CH, 0x5a827999, SCHED(16));
		ROUND(d, e, a, b, c, CH, 0x5a827999, SCHED(17));
		ROUND(c, d, e, a, b, CH, 0x5a827999, SCHED(18));
		ROUND(b, c, d, e, a, CH, 0x5a827999, SCHED(19));
		FIVE(20, PAR, 0x6ed9eba1, SCHED);
		FIVE(25, PAR, 0x6ed9eba1, SCHED);
		FIVE(30, PAR, 0x6ed9eba1, SCHED);
		FIVE(35, PAR, 0x6ed9eba1, SCHED);
		FIVE(40, MAJ, 0x8f1bbcdc, SCHED);
		FIVE(45, MAJ, 0x8f1bbcdc, SCHED);
		FIVE(50, MAJ, 0x8f1bbcdc, SCHED);
		FIVE(55, MAJ, 0x8f1bbcdc, SCHED);
		FIVE(60, PAR, 0xca62c1d6, SCHED);
		FIVE(65, PAR, 0xca62c1d6, SCHED);
		FIVE(70, PAR, 0xca62c1d6, SCHED);
		FIVE(75, PAR, 0xca62c1d6, SCHED);
		a += sa;
		b += sb;
		c += sc;
		d += sd;
		e += se;
	}
	st[0] = a;
	st[1] = b;
	st[2] = c;
	st[3] = d;
	st[4] = e;
}
