/* SHA-1 on HV_LANES messages at once (FIPS 180-4 section 6.1), one message per vector lane.
 * Parameters: HV_BITS (512 or 256; SSE has its own kernel in sha1_sse42.c) and MB_NAME, the
 * function defined (a sha1_lanes_fn). */
#define HV_W 32
#include "hash_vec.h"

#define W(t)             w[(t)&15]
#define XOR4(p, q, r, s) V_XOR(V_XOR3_32(p, q, r), s)
/* The word being replaced goes where vpternlog writes, saving a register copy. */
#define SCHED(t)     (W(t) = V_ROL1_32(XOR4(W((t) + 13), W((t) + 8), W(t), W((t) + 2))))
#define PAR(b, c, d) V_XOR3X_32(b, c, d)
/* The newest variable, a, enters last: one rotate and one add from one round to the next. With
 * vpternlog b is rotated into a new register first, so f may write over the old b. AVX2 adds a's
 * rotate as its two halves one at a time (they share no bit): the first add waits on one shift,
 * not two, where vector shifts have one pipe (Zen 1: x8 kernel 1.12x with this and V_ROL1_32). */
#if HV_BITS == 512
#define ADD_ROL5(e, a) V_ADD32(e, V_ROL32(a, 5))
#else
#define ADD_ROL5(e, a) V_ADD32(V_ADD32(e, _mm256_slli_epi32(a, 5)), _mm256_srli_epi32(a, 27))
#endif
/* e + K + W is summed first. clang reassociates the sum otherwise, so that b reaches the new a
 * through f and three adds, a chain as long as a's own rotate and add where Zen 5's 512-bit adds
 * take 2 cycles: pinned, its x16 kernel went from 0.90 to 1.04 of isa-l_crypto's. gcc keeps the
 * order written, and the pin cost it 1-3%. */
#if HV_BITS == 512 && defined(__clang__)
static inline __attribute__((always_inline)) V sha1_ekw(V e, V kw)
{
	V s = V_ADD32(e, kw);
	HV_PIN(s);
	return s;
}
#define SHA1_EKW(e, kw) sha1_ekw(e, kw)
#else
#define SHA1_EKW(e, kw) V_ADD32(e, kw)
#endif
#define ROUND(a, b, c, d, e, f, k, x)                                                              \
	do {                                                                                       \
		V nb = V_ROL32(b, 30);                                                             \
		e = ADD_ROL5(V_ADD32(SHA1_EKW(e, V_ADD32(V_SET1_32(k), x)), f(b, c, d)), a);       \
		b = nb;                                                                            \
	} while (0)
/* Round t's word of the schedule, with word t + 5 computed beside it: the rounds take words
 * computed five rounds before, and gcc spills fewer registers around them (x8 AVX2 kernel 0.92
 * -> 1.04 of isa-l_crypto's on Zen 3). Word t + 5 replaces word t - 11, which nothing needs
 * after round t. AVX-512, with 32 registers, keeps each word's computation in its round (tuned
 * on Zen 4 so). */
#define AHEAD (HV_BITS == 512 ? 0 : 5)
#define WA(t) (((t) >= 16 - AHEAD && (t) + AHEAD < 80) ? (void)SCHED((t) + AHEAD) : (void)0, W(t))
/* AVX-512: the next block's message words are loaded and transposed during rounds 0-39 of this
 * one, a piece after every five rounds, into the other half of a double buffer: the rounds are
 * bound by their rotate-and-add chain (2-cycle 512-bit adds and rotates on Zen 5), with vector
 * pipes to spare, and rows loaded at the block's top (from L2) held up round 0 (x16 kernel alone,
 * 4-64 KiB per lane: 0.94 of isa-l_crypto's before, 1.04 so). The last block's pieces load that
 * block again rather than read past it: no branch, which clang laid out of line. */
#if HV_BITS == 512
#define SHA1_AHEAD 1
#define PIECE(t)                                                                                   \
	do {                                                                                       \
		if ((t) < 40)                                                                      \
			hv_load_piece(wnext, sq, data, next, (t) / 5);                             \
		HV_MEMORY();                                                                       \
	} while (0)
#else
#define SHA1_AHEAD 0
#define PIECE(t)   ((void)0)
#endif
#define FIVE(t, f, k)                                                                              \
	do {                                                                                       \
		ROUND(a, b, c, d, e, f, k, WA(t));                                                 \
		ROUND(e, a, b, c, d, f, k, WA((t) + 1));                                           \
		ROUND(d, e, a, b, c, f, k, WA((t) + 2));                                           \
		ROUND(c, d, e, a, b, f, k, WA((t) + 3));                                           \
		ROUND(b, c, d, e, a, f, k, WA((t) + 4));                                           \
		PIECE(t);                                                                          \
	} while (0)
#define STEP_ADD(i, x)                                                                             \
	do {                                                                                       \
		x = V_ADD32(x, V_LOADU(digest[i]));                                                \
		V_STOREU(digest[i], x);                                                            \
	} while (0)

HV_KERNEL void MB_NAME(uint32_t digest[5][16], uint8_t *const *data, uint64_t nblocks)
{
	const V bswap = V_BCAST128(hv_bswap32);
	V a = V_LOADU(digest[0]), b = V_LOADU(digest[1]), c = V_LOADU(digest[2]);
	V d = V_LOADU(digest[3]), e = V_LOADU(digest[4]);
#if SHA1_AHEAD
	V wbuf[2][16], sq[4][4];
	if (nblocks)
		hv_load_block(wbuf[0], data, 0);
#endif
	for (uint64_t blk = 0; blk < nblocks; blk++) {
		V w[16];
#if SHA1_AHEAD
		const V *wcur = wbuf[blk & 1];
		V *wnext = wbuf[~blk & 1];
		size_t next = (size_t)(blk + 1 < nblocks ? blk + 1 : blk) * 64;
		HV_UNROLL
		for (int i = 0; i < 16; i++)
			w[i] = V_SHUF8(wcur[i], bswap);
#else
		hv_load_block(w, data, blk * 64);
		HV_UNROLL
		for (int i = 0; i < 16; i++)
			w[i] = V_SHUF8(w[i], bswap);
#endif
		FIVE(0, V_CHX_32, 0x5a827999);
		FIVE(5, V_CHX_32, 0x5a827999);
		FIVE(10, V_CHX_32, 0x5a827999);
		FIVE(15, V_CHX_32, 0x5a827999);
		FIVE(20, PAR, 0x6ed9eba1);
		FIVE(25, PAR, 0x6ed9eba1);
		FIVE(30, PAR, 0x6ed9eba1);
		FIVE(35, PAR, 0x6ed9eba1);
		FIVE(40, V_MAJX_32, 0x8f1bbcdc);
		FIVE(45, V_MAJX_32, 0x8f1bbcdc);
		FIVE(50, V_MAJX_32, 0x8f1bbcdc);
		FIVE(55, V_MAJX_32, 0x8f1bbcdc);
		FIVE(60, PAR, 0xca62c1d6);
		FIVE(65, PAR, 0xca62c1d6);
		FIVE(70, PAR, 0xca62c1d6);
		FIVE(75, PAR, 0xca62c1d6);
		/* The starting state comes back from memory, leaving registers to the words. */
		STEP_ADD(0, a);
		STEP_ADD(1, b);
		STEP_ADD(2, c);
		STEP_ADD(3, d);
		STEP_ADD(4, e);
	}
}

#undef W
#undef XOR4
#undef SCHED
#undef PAR
#undef ROUND
#undef ADD_ROL5
#undef FIVE
#undef WA
#undef AHEAD
#undef STEP_ADD
#undef PIECE
#undef SHA1_EKW
#undef SHA1_AHEAD
#undef MB_NAME
#undef HV_BITS
#undef HV_W
