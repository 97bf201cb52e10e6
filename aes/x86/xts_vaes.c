/* XTS-AES with VAES on 512-bit registers: 16 blocks in flight.
 *
 * Each ZMM register carries four consecutive blocks and their four tweaks; a pass takes four
 * registers, 16 blocks. The tweaks never go through a serial doubling chain: the first pass's 16
 * are T x^0 .. T x^15, each register computed straight from T (variable shifts per lane, the bits
 * that leave the top folded back by one carry-less multiply), and after each pass every register
 * moves on by x^16: a 2-byte shift in each 128-bit lane and the 16 bits that fall out, times 0x87,
 * added back at the bottom with shifts and XORs.
 *
 * Fewer than 16 blocks left: one more pass with masked loads and stores, so a short or odd length
 * costs about one pass's latency and nothing past the buffers is touched. A partial last block is
 * done by ciphertext stealing on 128-bit registers (aes_x86.h).
 *
 * Key expansion and the keyed forms' work functions are AES-NI's (aes_x86.h, XTS_AESNI_KEYED):
 * each public form runs its work in a function of its own whose whole frame, schedules included,
 * is overwritten afterwards (XTS_BURNING_FORM), and test_aes checks it after every form. */
#include "aes/x86/aes_x86.h"

/* Registers per pass, four blocks each: 16 blocks in flight. The AES unit takes one 512-bit
 * round per cycle with a latency of four (Zen 5), so four independent registers keep it busy, and
 * the round keys (up to 15) stay in registers beside them. Measured against eight registers (32
 * blocks): equal from 64 KiB on, 4-8% faster at 512 B and 4 KiB; with AES-256 eight spill. */
#define REGS 4

/* Each 128-bit lane times x^(8 * bytes) for bytes < 8: the lane shifts left by whole bytes, and
 * the bits that fall out, times 0x87, come back at the bottom. A macro: the shifts take
 * immediates. */
#define MUL_X_BYTES(v, bytes)                                                                      \
	mul_x_fold(_mm512_bslli_epi128((v), (bytes)), _mm512_bsrli_epi128((v), 16 - (bytes)))

/* shifted ^ top * 0x87, top < 2^57 in the low half of each lane (the high half zero): 0x87 is
 * x^7 + x^2 + x + 1, so four shifted copies, added with two three-way XORs. Shifts and XORs
 * rather than a carry-less multiply, which issues on the AES units: one per register per pass
 * cost 7-9% of the AES-256 throughput. */
AES_INLINE __m512i mul_x_fold(__m512i shifted, __m512i top)
{
	__m512i f = _mm512_ternarylogic_epi64(top, _mm512_slli_epi64(top, 1),
					      _mm512_slli_epi64(top, 2), 0x96);
	return _mm512_ternarylogic_epi64(shifted, f, _mm512_slli_epi64(top, 7), 0x96);
}

/* Each 128-bit lane of v times x^k, k given per lane in both 64-bit elements of counts, k < 58:
 * the halves shift left by k, the low half's top k bits move into the high half, and the high
 * half's top k bits come back at the bottom times 0x87 (degree < 64, so no second fold). Only
 * for the first tweaks, where the multiply's shorter dependency chain matters more than the AES
 * slot it takes (measured: 3% at 512 B). */
AES_INLINE __m512i mul_x_lanes(__m512i v, __m512i counts)
{
	__m512i out = _mm512_srlv_epi64(v, _mm512_sub_epi64(_mm512_set1_epi64(64), counts));
	__m512i up = _mm512_bslli_epi128(out, 8);
	__m512i fold = _mm512_clmulepi64_epi128(_mm512_bsrli_epi128(out, 8),
						_mm512_set1_epi64(0x87), 0x00);
	return _mm512_ternarylogic_epi64(_mm512_sllv_epi64(v, counts), up, fold, 0x96);
}

AES_INLINE void crypt_regs(__m512i x[REGS], const __m512i *rk, int rounds, int decrypt)
{
#pragma GCC unroll 8
	for (int i = 0; i < REGS; i++)
		x[i] = _mm512_xor_si512(x[i], rk[0]);
#pragma GCC unroll 14
	for (int r = 1; r < rounds; r++) {
#pragma GCC unroll 8
		for (int i = 0; i < REGS; i++)
			x[i] = decrypt ? _mm512_aesdec_epi128(x[i], rk[r])
				       : _mm512_aesenc_epi128(x[i], rk[r]);
	}
#pragma GCC unroll 8
	for (int i = 0; i < REGS; i++)
		x[i] = decrypt ? _mm512_aesdeclast_epi128(x[i], rk[rounds])
			       : _mm512_aesenclast_epi128(x[i], rk[rounds]);
}

/* T x^k .. T x^(k + 3) from T in every lane. */
AES_INLINE __m512i tweaks_from(__m512i tb, long long k)
{
	return mul_x_lanes(tb, _mm512_set_epi64(k + 3, k + 3, k + 2, k + 2, k + 1, k + 1, k, k));
}

/* The initial tweak encrypted with k2's schedule, in all four lanes: run on the broadcast input,
 * it comes out ready for the per-lane multiplications, a shuffle sooner than a 128-bit result. */
AES_INLINE __m512i encrypt_tweak(const uint8_t *tw, const uint8_t *k2, int rounds)
{
	__m512i x = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)tw));
	x = _mm512_xor_si512(x, _mm512_broadcast_i32x4(aes_round_key(k2, 0)));
#pragma GCC unroll 14
	for (int r = 1; r < rounds; r++)
		x = _mm512_aesenc_epi128(x, _mm512_broadcast_i32x4(aes_round_key(k2, r)));
	return _mm512_aesenclast_epi128(x, _mm512_broadcast_i32x4(aes_round_key(k2, rounds)));
}

AES_INLINE void broadcast_keys(__m512i *rk, const uint8_t *ks, int rounds)
{
#pragma GCC unroll 15
	for (int r = 0; r <= rounds; r++)
		rk[r] = _mm512_broadcast_i32x4(aes_round_key(ks, r));
}

/* XTS over len >= 16 bytes: ks is k1's schedule for the direction, tb the encrypted tweak in
 * every lane.
 *
 * The round keys are broadcast into registers once before the passes: loaded per pass they would
 * be reloaded after every store (the compiler cannot tell the output from the schedule), and such
 * loads stall behind stores whose addresses agree with theirs in the low 12 bits. The last,
 * masked pass and the stealing load them afresh, after telling the compiler the schedule's
 * memory may have changed: otherwise it keeps the first copies alive across the loop beside the
 * loop's own and runs out of registers, spilling round keys to the stack. */
AES_INLINE void xts_vaes(const uint8_t *ks, int rounds, int decrypt, __m512i tb, uint64_t len,
			 const uint8_t *in, uint8_t *out)
{
	__m512i tw[REGS], x[REGS];
	const unsigned tail = (unsigned)(len % AES_BLOCK);
	uint64_t bulk = len / AES_BLOCK - (tail ? 1 : 0);

	/* tw[i] lane j holds T x^(4i + j), each straight from T, so the first pass waits for one
	 * multiplication, not a chain of doublings. */
#pragma GCC unroll 8
	for (int i = 0; i < REGS; i++)
		tw[i] = tweaks_from(tb, 4 * i);

	if (bulk >= 4 * REGS) {
		__m512i rk[AES_MAX_ROUNDS + 1];
		broadcast_keys(rk, ks, rounds);
		for (; bulk >= 4 * REGS; bulk -= 4 * REGS, in += 64 * REGS, out += 64 * REGS) {
#pragma GCC unroll 8
			for (int i = 0; i < REGS; i++)
				x[i] = _mm512_xor_si512(_mm512_loadu_si512(in + 64 * i), tw[i]);
			crypt_regs(x, rk, rounds, decrypt);
#pragma GCC unroll 8
			for (int i = 0; i < REGS; i++) {
				_mm512_storeu_si512(out + 64 * i, _mm512_xor_si512(x[i], tw[i]));
				/* On by x^16, the blocks of a pass. */
				tw[i] = MUL_X_BYTES(tw[i], 2);
			}
		}
	}

	/* bulk < 16 blocks are left; register i takes blocks 4i .. 4i + 3 of them, as many as
	 * there are, under a mask of two 64-bit elements per block. */
	const unsigned rest = (unsigned)bulk;
	if (rest) {
		__m512i rk[AES_MAX_ROUNDS + 1];
		__mmask8 m[REGS];
		aesni_forget((const __m128i *)ks);
		broadcast_keys(rk, ks, rounds);
#pragma GCC unroll 8
		for (int i = 0; i < REGS; i++) {
			unsigned n = rest > 4u * i ? rest - 4u * i : 0;
			m[i] = (__mmask8)((1u << 2 * (n < 4 ? n : 4)) - 1);
			x[i] = _mm512_xor_si512(_mm512_maskz_loadu_epi64(m[i], in + 64 * i), tw[i]);
		}
		crypt_regs(x, rk, rounds, decrypt);
#pragma GCC unroll 8
		for (int i = 0; i < REGS; i++)
			_mm512_mask_storeu_epi64(out + 64 * i, m[i], _mm512_xor_si512(x[i], tw[i]));
		in += AES_BLOCK * rest;
		out += AES_BLOCK * rest;
	}
	if (tail) {
		/* The last whole block's tweak: lane rest % 4 of register rest / 4. */
		__m512i sel = tw[0];
#pragma GCC unroll 8
		for (int i = 1; i < REGS; i++)
			sel = _mm512_mask_mov_epi64(
				sel, (__mmask8)((unsigned)i == rest / 4 ? 0xff : 0), tw[i]);
		const long long lane = 2 * (rest % 4);
		sel = _mm512_permutexvar_epi64(
			_mm512_set_epi64(0, 0, 0, 0, 0, 0, lane + 1, lane), sel);
		aesni_forget((const __m128i *)ks);
		xts_steal(ks, rounds, decrypt, _mm512_castsi512_si128(sel), tail, in, out);
	}
}

/* The expanded-key forms work straight from the caller's schedules: the tweak encrypted on the
 * broadcast input (encrypt_tweak) and k1's keys broadcast from the caller's array, once. Through
 * XTS_AESNI_EXPANDED's copy of the schedule and 128-bit tweak, 16 / 512 bytes took 1.28 / 1.03x
 * the time. */
#define XTS_VAES_EXPANDED(bits, rounds)                                                            \
	static AES_NOINLINE void enc_expanded_##bits(uint8_t *k2, uint8_t *k1, uint8_t *tw,        \
						     uint64_t len, const uint8_t *in,              \
						     uint8_t *out, uintptr_t *sp)                  \
	{                                                                                          \
		*sp = aes_stack_pointer();                                                         \
		xts_vaes(k1, rounds, 0, encrypt_tweak(tw, k2, rounds), len, in, out);              \
	}                                                                                          \
	static AES_NOINLINE void dec_expanded_##bits(uint8_t *k2, uint8_t *k1, uint8_t *tw,        \
						     uint64_t len, const uint8_t *in,              \
						     uint8_t *out, uintptr_t *sp)                  \
	{                                                                                          \
		*sp = aes_stack_pointer();                                                         \
		xts_vaes(k1, rounds, 1, encrypt_tweak(tw, k2, rounds), len, in, out);              \
	}

/* The forms that take the keys are AES-NI's (XTS_AESNI_KEYED), on this engine. */
AES_INLINE void xts_vaes_keyed(const __m128i *rk, int rounds, int decrypt, __m128i t,
			       uint64_t len, const uint8_t *in, uint8_t *out)
{
	xts_vaes((const uint8_t *)rk, rounds, decrypt, _mm512_broadcast_i32x4(t), len, in, out);
}

XTS_VAES_EXPANDED(128, AES128_ROUNDS)
XTS_VAES_EXPANDED(256, AES256_ROUNDS)
XTS_AESNI_KEYED(128, AES128_ROUNDS, aesni_expand128_tweak, xts_vaes_keyed)
XTS_AESNI_KEYED(256, AES256_ROUNDS, aesni_expand256_tweak, xts_vaes_keyed)

XTS_ENGINE_FORMS(vaes)
