/* XTS-AES with VAES on 256-bit registers (AVX2, no AVX-512): 16 blocks in flight.
 *
 * For CPUs with VAES but not AVX-512: AMD Zen 3, Intel Alder Lake and later clients, Sierra
 * Forest. VAESENC on a YMM register runs the round of two blocks at the rate and latency of
 * AESENC on one block (Zen 3: the same 4.1-4.6 G instructions a second either way), so the
 * rounds cost half of xts_aesni.c's. Eight registers of two blocks keep the units busy (four
 * cycles' latency, two a cycle).
 *
 * Sixteen YMM registers hold the eight blocks' registers, the round key of the moment and
 * temporaries. The tweaks live in two tables of eight registers that take turns: a pass reads
 * its tweaks from one, for the input and again after the last round, and writes the next pass's
 * into the other, each times x^16: a 2-byte shift in each 128-bit lane and the 16 bits that fall
 * out, times 0x87 by a carry-less multiply, added back at the bottom. No serial doubling chain;
 * the multiply takes an AES unit's slot, eight a pass against 80-112 rounds, and still beat the
 * six shifts and XORs it replaces (1.03x at 512 B).
 *
 * The round keys stay 128-bit in a local array and each is broadcast where a round uses it; the
 * compiler is told before each pass that the array may have changed (aesni_forget), or it keeps
 * the broadcast keys in registers across the loop and spills blocks instead. Against one
 * broadcast copy of the schedule made up front: 1.2x at 512 B on Zen 3.
 *
 * Fewer than 16 blocks left: one more pass with as many registers loaded as there are blocks,
 * the last one's upper half empty when their number is odd, so nothing past either buffer is
 * touched. A partial last block is done by ciphertext stealing on 128-bit registers
 * (aes_x86.h).
 *
 * Key expansion and the work functions are AES-NI's (aes_x86.h, XTS_AESNI_WORK): as in
 * xts_aesni.c, each public form runs its work in a function of its own whose whole frame,
 * schedules and tweak tables included, is overwritten afterwards (XTS_BURNING_FORM). */
#include "aes/x86/aes_x86.h"

/* Registers per pass, two blocks each. */
#define REGS 8

/* Each 128-bit lane of t times x^16: the lane shifts left by two bytes, and the 16 bits that
 * fall out, v, come back at the bottom as the carry-less product v * (x^7 + x^2 + x + 1), under
 * 2^23: no further reduction. */
AES_INLINE __m256i mul_x16(__m256i t)
{
	const __m256i v = _mm256_bsrli_epi128(t, 14);
	const __m256i r = _mm256_clmulepi64_epi128(v, _mm256_set1_epi64x(0x87), 0x00);
	return _mm256_xor_si256(_mm256_bslli_epi128(t, 2), r);
}

/* Each 128-bit lane of t times x^k, 1 <= k <= 16, straight from t: the lane shifted by k bits,
 * and the k bits that leave at the top, v, back at the bottom as above. For the first pass's
 * tweaks, which then wait for one such step each instead of a chain. */
AES_INLINE __m256i mul_xk(__m256i t, int k)
{
	const __m256i v = _mm256_srli_epi64(_mm256_bsrli_epi128(t, 8), 64 - k);
	const __m256i r = _mm256_clmulepi64_epi128(v, _mm256_set1_epi64x(0x87), 0x00);
	const __m256i s = _mm256_or_si256(_mm256_slli_epi64(t, k),
					  _mm256_srli_epi64(_mm256_bslli_epi128(t, 8), 64 - k));
	return _mm256_xor_si256(s, r);
}

/* Register i of a pass over n blocks: both of its blocks, the first alone (upper half zero), or
 * none. */
AES_INLINE __m256i load_blocks(const uint8_t *p, unsigned i, unsigned n)
{
	if (2 * i + 2 <= n)
		return _mm256_loadu_si256((const __m256i *)(p + 2 * AES_BLOCK * i));
	if (2 * i + 1 == n)
		return _mm256_zextsi128_si256(
			_mm_loadu_si128((const __m128i *)(p + 2 * AES_BLOCK * i)));
	return _mm256_setzero_si256();
}

AES_INLINE void store_blocks(uint8_t *p, unsigned i, unsigned n, __m256i x)
{
	if (2 * i + 2 <= n)
		_mm256_storeu_si256((__m256i *)(p + 2 * AES_BLOCK * i), x);
	else if (2 * i + 1 == n)
		_mm_storeu_si128((__m128i *)(p + 2 * AES_BLOCK * i), _mm256_castsi256_si128(x));
}

/* Round key r in both lanes. */
AES_INLINE __m256i key2(const __m128i *ks, int r)
{
	return _mm256_broadcastsi128_si256(ks[r]);
}

/* n <= 2 * REGS blocks through one pass with tweaks tw; with next, the tweaks of the pass after
 * it go there. Each tweak is read twice, for the input and after the last round: a second load,
 * where keeping it would take a register the blocks and round keys need. */
AES_INLINE void pass(const __m256i *tw, __m256i *next, const __m128i *ks, int rounds,
		     int decrypt, const uint8_t *in, uint8_t *out, unsigned n, unsigned regs)
{
	__m256i x[REGS];
#pragma GCC unroll 8
	for (unsigned i = 0; i < regs; i++) {
		const __m256i blocks = load_blocks(in, i, n);
		x[i] = _mm256_xor_si256(_mm256_xor_si256(blocks, tw[i]), key2(ks, 0));
		if (next)
			next[i] = mul_x16(tw[i]);
	}
#pragma GCC unroll 14
	for (int r = 1; r < rounds; r++) {
#pragma GCC unroll 8
		for (unsigned i = 0; i < regs; i++)
			x[i] = decrypt ? _mm256_aesdec_epi128(x[i], key2(ks, r))
				       : _mm256_aesenc_epi128(x[i], key2(ks, r));
	}
#pragma GCC unroll 8
	for (unsigned i = 0; i < regs; i++) {
		x[i] = decrypt ? _mm256_aesdeclast_epi128(x[i], key2(ks, rounds))
			       : _mm256_aesenclast_epi128(x[i], key2(ks, rounds));
		store_blocks(out, i, n, _mm256_xor_si256(x[i], tw[i]));
	}
}

/* XTS over len >= 16 bytes: rk is k1's schedule for the direction (a local array, see
 * aesni_copy_schedule), t the encrypted tweak. */
AES_INLINE void xts_vaes256(const __m128i *rk, int rounds, int decrypt, __m128i t, uint64_t len,
			    const uint8_t *in, uint8_t *out)
{
	__m256i table[2][REGS] __attribute__((aligned(32)));
	__m256i *now = table[0], *next = table[1];
	const unsigned tail = (unsigned)(len % AES_BLOCK);
	uint64_t bulk = len / AES_BLOCK - (tail ? 1 : 0);

	/* Register i holds T x^(2i) and T x^(2i + 1). */
	const __m256i t01 = _mm256_inserti128_si256(_mm256_castsi128_si256(t), xts_mul_x(t), 1);
	now[0] = t01;
	/* Under one pass, only the registers the last pass runs (below); with four, the tail's
	 * tweak is among them, as rest < 8. */
	const unsigned regs = bulk >= REGS ? REGS : REGS / 2;
#pragma GCC unroll 8
	for (unsigned i = 1; i < REGS; i++)
		now[i] = i < regs ? mul_xk(t01, 2 * (int)i) : t01;

	for (; bulk >= 2 * REGS; bulk -= 2 * REGS, in += 2 * REGS * AES_BLOCK,
				 out += 2 * REGS * AES_BLOCK) {
		/* The keys are read afresh in each pass (see the top of the file). */
		aesni_forget(rk);
		pass(now, next, rk, rounds, decrypt, in, out, 2 * REGS, REGS);
		__m256i *const done = now;
		now = next;
		next = done;
	}
	/* bulk < 16 blocks are left; block j's tweak is 128-bit lane j of now. Up to eight of
	 * them run four registers. */
	const unsigned rest = (unsigned)bulk;
	if (rest > REGS)
		pass(now, NULL, rk, rounds, decrypt, in, out, rest, REGS);
	else if (rest)
		pass(now, NULL, rk, rounds, decrypt, in, out, rest, REGS / 2);
	if (tail)
		xts_steal((const uint8_t *)rk, rounds, decrypt,
			  _mm_load_si128((const __m128i *)now + rest), tail, in + AES_BLOCK * rest,
			  out + AES_BLOCK * rest);
}

XTS_AESNI_WORK(128, AES128_ROUNDS, aesni_expand128_tweak, xts_vaes256)
XTS_AESNI_WORK(256, AES256_ROUNDS, aesni_expand256_tweak, xts_vaes256)

XTS_ENGINE_FORMS(vaes256)
