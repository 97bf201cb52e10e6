/* Template: a SHA-2 compression function on HV_LANES messages at once (FIPS 180-4 sections 6.2
 * and 6.4), one message per vector lane.
 *
 * Parameters, defined before inclusion and undefined at the end:
 *   HV_BITS, MB_NAME      the vector width (512, 256 or 128) and the function defined
 *   SHA2_BITS             32 (SHA-256) or 64 (SHA-512): the lane width
 *   SHA2_WORD, SHA2_DIGEST_LANES   the digest array, SHA2_WORD digest[8][SHA2_DIGEST_LANES]
 *   SHA2_K, SHA2_ROUNDS   the round constants (64 or 80 of them)
 *   SHA2_K4               (SSE SHA-256 only) the constants, each four times: uint32_t [64][4]
 *   SHA2_BSWAP            the 16-byte shuffle that byte-swaps every word
 *   SHA2_S0, SHA2_S1, SHA2_s0, SHA2_s1   the sigma functions on vectors */
#define HV_W SHA2_BITS
#include "hash_vec.h"

#define SHA2_CAT_(a, b) a##b
#define SHA2_CAT(a, b)  SHA2_CAT_(a, b)
#define VADD            SHA2_CAT(V_ADD, SHA2_BITS)
#define VSET1           SHA2_CAT(V_SET1_, SHA2_BITS)
#define VCH             SHA2_CAT(V_CH_, SHA2_BITS)
#define VMAJ            SHA2_CAT(V_MAJ_, SHA2_BITS)

#define W(t) w[(t)&15]
#define SCHED(t)                                                                                   \
	(W(t) = VADD(VADD(W(t), SHA2_s1(W((t) + 14))), VADD(W((t) + 9), SHA2_s0(W((t) + 1)))))
/* The round constant of round t in every lane. SSE has no broadcast from memory: SHA2_K4 holds
 * each constant four times over, so the add takes it as its memory operand, where a PSHUFD
 * picking it out of sha256_k cost an operation a round (x4 manager, 16 jobs of 4 KiB, Zen 3:
 * 0.97 -> 0.99 of isa-l_crypto's). */
#if HV_BITS == 128 && SHA2_BITS == 32
#define KSPLAT(t)  _mm_load_si128((const __m128i *)kt[t])
#define SHA2_KT(n) const uint32_t(*n)[4]
#define SHA2_KTAB  SHA2_K4
#else
#define KSPLAT(t)  VSET1(kt[t])
#define SHA2_KT(n) const SHA2_WORD *n
#define SHA2_KTAB  SHA2_K
#endif
/* KW(t): word t of the schedule plus its round constant. */
#if HV_BITS == 512
/* AVX-512 (32 registers): word t + 16 is computed in round t, once word t has gone into the
 * previous round's hk, so the schedule's rotates have 15 rounds to find a free slot (gcc, 8 KiB
 * per lane in cache: 1-2% faster than one round ahead; clang the same either way). */
#define KW(t) VADD(KSPLAT(t), W(t))
#define FAR(t)                                                                                     \
	do {                                                                                       \
		if ((t) + 16 < SHA2_ROUNDS)                                                        \
			SCHED((t) + 16);                                                           \
	} while (0)
#elif HV_BITS == 128
/* SSE: word t + 3 computed in round t, whose registers gcc then spills less (x2 SHA-512 kernel
 * 0.89 -> 0.99 of isa-l_crypto's on Zen 3). At the end of rounds 16-31's code the words belong
 * to the next chunk, if there is one. */
#define KW(t) VADD(KSPLAT(t), W(t))
#define FAR(t)                                                                                     \
	do {                                                                                       \
		if ((t) + 3 >= 16 && (t) + 3 < SHA2_ROUNDS && ((t) + 3 < 32 || more))              \
			SCHED((t) + 3);                                                            \
	} while (0)
#else
/* AVX2 (16 registers): word t computed one round ahead of its use. */
#define KW(t)  VADD(KSPLAT(t), (t) < 16 ? W(t) : SCHED(t))
#define FAR(t) ((void)0)
#endif
#if HV_BITS == 128
/* SSE: Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b, where this round's a ^ b is the next round's
 * b ^ c, kept in ab0 or ab1 by the round's parity: three operations where VMAJ takes four (x4
 * SHA-256 engine alone, 64 KiB: 2-4% faster; with AVX2 no faster, and vpternlog does Maj in one). */
#define MAJ(a, b, c, t)                                                                            \
	((t)&1 ? (ab1 = V_XOR(a, b), V_XOR(V_AND(ab1, ab0), b))                                    \
	       : (ab0 = V_XOR(a, b), V_XOR(V_AND(ab0, ab1), b)))
#else
#define MAJ(a, b, c, t) VMAJ(a, b, c)
#endif
/* hk holds h + K[t] + W[t], added a round early: g (the next round's h) takes its K and W before
 * Ch, whose vpternlog then overwrites g where it dies instead of a copy of it. What depends on
 * the newest e enters last, shortening the chain from round to round. */
#define ROUND(a, b, c, d, e, f, g, h, t)                                                           \
	do {                                                                                       \
		V hkn = hk;                                                                        \
		if ((t) + 1 < SHA2_ROUNDS && ((t) != 31 || more))                                  \
			hkn = VADD(g, KW((t) + 1));                                                \
		HV_PIN(hkn);                                                                       \
		V t1 = VADD(VADD(hk, VCH(e, f, g)), SHA2_S1(e));                                   \
		d = VADD(d, t1);                                                                   \
		h = VADD(t1, VADD(SHA2_S0(a), MAJ(a, b, c, t)));                                   \
		hk = hkn;                                                                          \
		FAR(t);                                                                            \
	} while (0)
/* AVX-512: the next block's message words are loaded and transposed during this block's
 * rounds, a piece (an eighth of the work for SHA-256, a quarter for SHA-512) after each eight
 * rounds, into the other half of a double buffer in memory (the compiler barrier keeps each
 * piece where it is put). */
#if HV_BITS == 512
#define SHA2_AHEAD  1
#define SHA2_PIECES (SHA2_BITS == 32 ? 8 : 4)
#define PIECE(q)                                                                                   \
	do {                                                                                       \
		if ((q) < SHA2_PIECES && blk + 1 < nblocks)                                        \
			hv_load_piece(wnext, sq, data, (blk + 1) * 16 * sizeof(SHA2_WORD),         \
			              (q) % SHA2_PIECES);                                          \
		HV_MEMORY();                                                                       \
	} while (0)
#else
#define SHA2_AHEAD 0
#define PIECE(q) ((void)0)
#endif
/* AVX2 and SSE: rounds 16 on run as a loop of sixteen. Unrolled, a block's rounds outgrow Zen
 * 3's op cache and the decoders cannot feed four vector operations a cycle (x4 SSE SHA-256 kernel
 * 0.77 -> 0.98 of isa-l_crypto's). AVX-512 stays unrolled, the next block's loads spread over
 * its rounds. */
#define SHA2_LOOP (HV_BITS != 512)
#define EIGHT(t)                                                                                   \
	do {                                                                                       \
		SHA2_EIGHT(ROUND, t);                                                              \
		PIECE((t) / 8);                                                                    \
	} while (0)
/* AVX-512 under gcc: the rounds in the order written. gcc's scheduler after register
 * allocation moves each round's operations towards its critical path, which on Zen 5 (one
 * 512-bit rotate per cycle, two operations in all) leaves the rotate unit idle more often
 * (measured: x8 SHA-512 kernel 2-3% faster without it, x16 SHA-256 1-2%). */
#if HV_BITS == 512 && defined(__GNUC__) && !defined(__clang__)
#define SHA2_KERNEL __attribute__((optimize("no-tree-reassoc", "no-schedule-insns2")))
/* AVX2 under gcc: scheduling before register allocation, weighing register pressure, spills
 * less (x8 SHA-256 kernel 0.90 -> 0.99 of isa-l_crypto's); SSE's rounds are faster without it.
 * Both align the round loop to 64 bytes, since where it starts in a line moved the x4 SHA-256
 * manager by 5-8%. */
#elif HV_BITS == 256 && defined(__GNUC__) && !defined(__clang__)
#define SHA2_KERNEL                                                                                \
	__attribute__((optimize("no-tree-reassoc", "schedule-insns", "sched-pressure",             \
	                        "align-loops=64")))
#elif defined(__GNUC__) && !defined(__clang__)
#define SHA2_KERNEL __attribute__((optimize("no-tree-reassoc", "align-loops=64")))
#else
#define SHA2_KERNEL HV_KERNEL
#endif
#define STEP_ADD(i, x)                                                                             \
	do {                                                                                       \
		x = VADD(x, V_LOADU(digest[i]));                                                   \
		V_STOREU(digest[i], x);                                                            \
	} while (0)

SHA2_KERNEL void MB_NAME(SHA2_WORD digest[8][SHA2_DIGEST_LANES], uint8_t *const *data,
                         uint64_t nblocks)
{
	const V bswap = V_BCAST128(SHA2_BSWAP);
	V a = V_LOADU(digest[0]), b = V_LOADU(digest[1]), c = V_LOADU(digest[2]);
	V d = V_LOADU(digest[3]), e = V_LOADU(digest[4]), f = V_LOADU(digest[5]);
	V g = V_LOADU(digest[6]), h = V_LOADU(digest[7]);
#if SHA2_AHEAD
	V wbuf[2][16], sq[4][4];
	if (nblocks)
		hv_load_block(wbuf[0], data, 0);
#endif
	for (uint64_t blk = 0; blk < nblocks; blk++) {
		V w[16];
		SHA2_KT(kt) = SHA2_KTAB;
		HV_FRESH(kt);
#if SHA2_AHEAD
		const V *wcur = wbuf[blk & 1];
		V *wnext = wbuf[~blk & 1];
		HV_UNROLL
		for (int i = 0; i < 16; i++)
			w[i] = V_SHUF8(wcur[i], bswap);
#else
		hv_load_block(w, data, blk * 16 * sizeof(SHA2_WORD));
		HV_UNROLL
		for (int i = 0; i < 16; i++)
			w[i] = V_SHUF8(w[i], bswap);
#endif
		V hk = VADD(h, KW(0));
#if HV_BITS == 128
		V ab0, ab1 = V_XOR(b, c);
#endif
		int more = 1;
		EIGHT(0);
		EIGHT(8);
#if SHA2_LOOP
		/* Rounds 16 on, sixteen at a time: the code of rounds 16-31 with the constants
		 * moved along. Round 31 computes the next chunk's first hk unless none follows. */
		for (int j = 16; j < SHA2_ROUNDS; j += 16) {
			kt = SHA2_KTAB + j - 16;
			HV_FRESH(kt);
			more = j + 16 < SHA2_ROUNDS;
			EIGHT(16);
			EIGHT(24);
		}
#else
		EIGHT(16);
		EIGHT(24);
		EIGHT(32);
		EIGHT(40);
		EIGHT(48);
		EIGHT(56);
#if SHA2_ROUNDS == 80
		EIGHT(64);
		EIGHT(72);
#endif
#endif
		/* The block's starting state comes back from memory: kept in registers it would
		 * push the message words out of the 32. */
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

#undef SHA2_CAT_
#undef SHA2_CAT
#undef VADD
#undef VSET1
#undef VCH
#undef VMAJ
#undef MAJ
#undef W
#undef SCHED
#undef KW
#undef KSPLAT
#undef SHA2_KT
#undef SHA2_KTAB
#undef SHA2_K4
#undef FAR
#undef SHA2_KERNEL
#undef ROUND
#undef EIGHT
#undef PIECE
#undef SHA2_AHEAD
#undef SHA2_LOOP
#undef SHA2_PIECES
#undef STEP_ADD
#undef MB_NAME
#undef HV_BITS
#undef HV_W
#undef SHA2_BITS
#undef SHA2_WORD
#undef SHA2_DIGEST_LANES
#undef SHA2_K
#undef SHA2_ROUNDS
#undef SHA2_BSWAP
#undef SHA2_S0
#undef SHA2_S1
#undef SHA2_s0
#undef SHA2_s1
