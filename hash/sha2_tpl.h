/* Template: one SHA-2 compression function (FIPS 180-4 sections 6.2 and 6.4), portable and
 * single-stream, with a rolling 16-word schedule and unrolled rounds whose eight working
 * variables are renamed by macro arguments instead of being moved.
 *
 * Parameters, defined before inclusion and undefined at the end:
 *   SHA2_FN      the function: void SHA2_FN(SHA2_WORD st[8], const uint8_t *data, uint64_t nblocks)
 *   SHA2_WORD    uint32_t (SHA-256) or uint64_t (SHA-512)
 *   SHA2_LOAD    big-endian load of one word
 *   SHA2_K       the round constants, SHA2_ROUNDS of them (64 or 80)
 *   SHA2_ROUNDS
 *   SHA2_S0, SHA2_S1, SHA2_s0, SHA2_s1   the four sigma functions */

#define SHA2_W(t) w[(t)&15]
#define SHA2_SCHED(t)                                                                              \
	(SHA2_W(t) += SHA2_s1(SHA2_W((t) + 14)) + SHA2_W((t) + 9) + SHA2_s0(SHA2_W((t) + 1)))
#define SHA2_ROUND(a, b, c, d, e, f, g, h, t, x)                                                   \
	do {                                                                                       \
		SHA2_WORD t1 = h + SHA2_K[t] + (x) + ((g) ^ ((e) & ((f) ^ (g)))) + SHA2_S1(e);     \
		d += t1;                                                                           \
		h = t1 + SHA2_S0(a) + (((a) & (b)) | ((c) & ((a) | (b))));                         \
	} while (0)
#define SHA2_EIGHT(t, X)                                                                           \
	do {                                                                                       \
		SHA2_ROUND(a, b, c, d, e, f, g, h, (t), X(t));                                     \
		SHA2_ROUND(h, a, b, c, d, e, f, g, (t) + 1, X((t) + 1));                           \
		SHA2_ROUND(g, h, a, b, c, d, e, f, (t) + 2, X((t) + 2));                           \
		SHA2_ROUND(f, g, h, a, b, c, d, e, (t) + 3, X((t) + 3));                           \
		SHA2_ROUND(e, f, g, h, a, b, c, d, (t) + 4, X((t) + 4));                           \
		SHA2_ROUND(d, e, f, g, h, a, b, c, (t) + 5, X((t) + 5));                           \
		SHA2_ROUND(c, d, e, f, g, h, a, b, (t) + 6, X((t) + 6));                           \
		SHA2_ROUND(b, c, d, e, f, g, h, a, (t) + 7, X((t) + 7));                           \
	} while (0)

void SHA2_FN(SHA2_WORD st[8], const uint8_t *data, uint64_t nblocks)
{
	SHA2_WORD w[16];
	for (; nblocks; nblocks--, data += 16 * sizeof(SHA2_WORD)) {
		SHA2_WORD a = st[0], b = st[1], c = st[2], d = st[3];
		SHA2_WORD e = st[4], f = st[5], g = st[6], h = st[7];
		for (int i = 0; i < 16; i++)
			w[i] = SHA2_LOAD(data + sizeof(SHA2_WORD) * i);
		SHA2_EIGHT(0, SHA2_W);
		SHA2_EIGHT(8, SHA2_W);
		SHA2_EIGHT(16, SHA2_SCHED);
		SHA2_EIGHT(24, SHA2_SCHED);
		SHA2_EIGHT(32, SHA2_SCHED);
		SHA2_EIGHT(40, SHA2_SCHED);
		SHA2_EIGHT(48, SHA2_SCHED);
		SHA2_EIGHT(56, SHA2_SCHED);
#if SHA2_ROUNDS == 80
		SHA2_EIGHT(64, SHA2_SCHED);
		SHA2_EIGHT(72, SHA2_SCHED);
#endif
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

#undef SHA2_W
#undef SHA2_SCHED
#undef SHA2_ROUND
#undef SHA2_EIGHT
#undef SHA2_FN
#undef SHA2_WORD
#undef SHA2_LOAD
#undef SHA2_K
#undef SHA2_ROUNDS
#undef SHA2_S0
#undef SHA2_S1
#undef SHA2_s0
#undef SHA2_s1
