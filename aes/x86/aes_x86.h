/* AES-NI pieces shared by the x86 XTS engines: key expansion, the decryption schedule, one-block
 * encryption, tweak doubling and the ciphertext-stealing tail. Included by files compiled with
 * AES-NI enabled (xts_aesni.c, xts_vaes.c); everything is static inline.
 *
 * Schedules are isa-l_crypto's byte layout (16 bytes per round key, any alignment): the caller's
 * own for the *_expanded_key forms, or a local __m128i array filled by the expansion here, which
 * its owner clears (aesni_wipe, or the stack burn that covers its whole frame). */
#ifndef STOA_AES_X86_H
#define STOA_AES_X86_H

#include <immintrin.h>
#include <stdint.h>

#include "aes_arch.h"

#define AES_INLINE static inline __attribute__((always_inline))

/* w0..w3 -> w0, w0^w1, w0^w1^w2, w0^w1^w2^w3: the running XOR every key expansion step adds
 * to the word that went through SubWord. */
AES_INLINE __m128i aesni_prefix_xor(__m128i k)
{
	k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
	return _mm_xor_si128(k, _mm_slli_si128(k, 8));
}

/* The key schedule's SubWord by AESENCLAST instead of AESKEYGENASSIST: a vector whose four dwords
 * are equal has equal bytes along each row, so ShiftRows leaves it alone and AESENCLAST with the
 * round constant in every dword yields SubWord(w) ^ rcon in each. Measured latencies on a
 * Skylake-SP: AESENCLAST 4 cycles, AESKEYGENASSIST 15; the schedule is a serial chain that the
 * first blocks' rounds wait on (isa-l_crypto uses AESKEYGENASSIST). AESNI_ROT3 puts RotWord of
 * dword 3 in every dword (bytes 13, 14, 15, 12), AESNI_DUP3 dword 3 itself (AES-256's middle
 * step, SubWord without RotWord or constant). */
#define AESNI_ROT3 _mm_setr_epi8(13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12)
#define AESNI_DUP3 _mm_setr_epi8(12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15)
#define AESNI_SUBWORD(v, pick, rcon)                                                               \
	_mm_aesenclast_si128(_mm_shuffle_epi8((v), pick), _mm_set1_epi32(rcon))
#define AESNI_NEXT128(prev, rcon)                                                                  \
	_mm_xor_si128(aesni_prefix_xor(prev), AESNI_SUBWORD(prev, AESNI_ROT3, rcon))
#define AESNI_NEXT256_A(prev2, prev1, rcon)                                                        \
	_mm_xor_si128(aesni_prefix_xor(prev2), AESNI_SUBWORD(prev1, AESNI_ROT3, rcon))
#define AESNI_NEXT256_B(prev2, prev1)                                                              \
	_mm_xor_si128(aesni_prefix_xor(prev2), AESNI_SUBWORD(prev1, AESNI_DUP3, 0))

AES_INLINE void aesni_expand128(const uint8_t *key, __m128i rk[AES128_ROUNDS + 1])
{
	rk[0] = _mm_loadu_si128((const __m128i *)key);
	rk[1] = AESNI_NEXT128(rk[0], 0x01);
	rk[2] = AESNI_NEXT128(rk[1], 0x02);
	rk[3] = AESNI_NEXT128(rk[2], 0x04);
	rk[4] = AESNI_NEXT128(rk[3], 0x08);
	rk[5] = AESNI_NEXT128(rk[4], 0x10);
	rk[6] = AESNI_NEXT128(rk[5], 0x20);
	rk[7] = AESNI_NEXT128(rk[6], 0x40);
	rk[8] = AESNI_NEXT128(rk[7], 0x80);
	rk[9] = AESNI_NEXT128(rk[8], 0x1b);
	rk[10] = AESNI_NEXT128(rk[9], 0x36);
}

AES_INLINE void aesni_expand256(const uint8_t *key, __m128i rk[AES256_ROUNDS + 1])
{
	rk[0] = _mm_loadu_si128((const __m128i *)key);
	rk[1] = _mm_loadu_si128((const __m128i *)(key + 16));
	rk[2] = AESNI_NEXT256_A(rk[0], rk[1], 0x01);
	rk[3] = AESNI_NEXT256_B(rk[1], rk[2]);
	rk[4] = AESNI_NEXT256_A(rk[2], rk[3], 0x02);
	rk[5] = AESNI_NEXT256_B(rk[3], rk[4]);
	rk[6] = AESNI_NEXT256_A(rk[4], rk[5], 0x04);
	rk[7] = AESNI_NEXT256_B(rk[5], rk[6]);
	rk[8] = AESNI_NEXT256_A(rk[6], rk[7], 0x08);
	rk[9] = AESNI_NEXT256_B(rk[7], rk[8]);
	rk[10] = AESNI_NEXT256_A(rk[8], rk[9], 0x10);
	rk[11] = AESNI_NEXT256_B(rk[9], rk[10]);
	rk[12] = AESNI_NEXT256_A(rk[10], rk[11], 0x20);
	rk[13] = AESNI_NEXT256_B(rk[11], rk[12]);
	rk[14] = AESNI_NEXT256_A(rk[12], rk[13], 0x40);
}

/* The raw-key XTS setup: k1's schedule into s1, and the initial tweak encrypted under k2, whose
 * schedule only ever lives in registers. The two expansions and the tweak's rounds advance in
 * step: each is a serial chain, and written one after the other the later chains would queue
 * behind the earlier one's waiting instructions instead of running beside them (measured: 5-8%
 * at 512 bytes). */
#define AESNI_STEP128(i, rcon)                                                                     \
	do {                                                                                       \
		a = AESNI_NEXT128(a, rcon);                                                        \
		s1[i] = AESNI_NEXT128(s1[(i) - 1], rcon);                                          \
		t = (i) < AES128_ROUNDS ? _mm_aesenc_si128(t, a) : _mm_aesenclast_si128(t, a);     \
	} while (0)

AES_INLINE __m128i aesni_expand128_tweak(const uint8_t *k2, const uint8_t *k1, const uint8_t *iv,
					 __m128i s1[AES128_ROUNDS + 1])
{
	__m128i a = _mm_loadu_si128((const __m128i *)k2);
	__m128i t = _mm_xor_si128(_mm_loadu_si128((const __m128i *)iv), a);
	s1[0] = _mm_loadu_si128((const __m128i *)k1);
	AESNI_STEP128(1, 0x01);
	AESNI_STEP128(2, 0x02);
	AESNI_STEP128(3, 0x04);
	AESNI_STEP128(4, 0x08);
	AESNI_STEP128(5, 0x10);
	AESNI_STEP128(6, 0x20);
	AESNI_STEP128(7, 0x40);
	AESNI_STEP128(8, 0x80);
	AESNI_STEP128(9, 0x1b);
	AESNI_STEP128(10, 0x36);
	return t;
}

/* a0, a1: k2's two latest round keys (the older first); rounds i and i + 1 of both keys. */
#define AESNI_STEP256(i, rcon)                                                                     \
	do {                                                                                       \
		a0 = AESNI_NEXT256_A(a0, a1, rcon);                                                \
		s1[i] = AESNI_NEXT256_A(s1[(i) - 2], s1[(i) - 1], rcon);                           \
		t = _mm_aesenc_si128(t, a0);                                                       \
		a1 = AESNI_NEXT256_B(a1, a0);                                                      \
		s1[(i) + 1] = AESNI_NEXT256_B(s1[(i) - 1], s1[i]);                                 \
		t = _mm_aesenc_si128(t, a1);                                                       \
	} while (0)

AES_INLINE __m128i aesni_expand256_tweak(const uint8_t *k2, const uint8_t *k1, const uint8_t *iv,
					 __m128i s1[AES256_ROUNDS + 1])
{
	__m128i a0 = _mm_loadu_si128((const __m128i *)k2);
	__m128i a1 = _mm_loadu_si128((const __m128i *)(k2 + 16));
	__m128i t = _mm_xor_si128(_mm_loadu_si128((const __m128i *)iv), a0);
	t = _mm_aesenc_si128(t, a1);
	s1[0] = _mm_loadu_si128((const __m128i *)k1);
	s1[1] = _mm_loadu_si128((const __m128i *)(k1 + 16));
	AESNI_STEP256(2, 0x01);
	AESNI_STEP256(4, 0x02);
	AESNI_STEP256(6, 0x04);
	AESNI_STEP256(8, 0x08);
	AESNI_STEP256(10, 0x10);
	AESNI_STEP256(12, 0x20);
	a0 = AESNI_NEXT256_A(a0, a1, 0x40);
	s1[14] = AESNI_NEXT256_A(s1[12], s1[13], 0x40);
	return _mm_aesenclast_si128(t, a0);
}

/* The equivalent inverse cipher's schedule, isa-l_crypto's exp_key_dec layout. */
AES_INLINE void aesni_dec_schedule(const __m128i *ek, __m128i *dk, int rounds)
{
	dk[0] = ek[rounds];
#pragma GCC unroll 14
	for (int r = 1; r < rounds; r++)
		dk[r] = _mm_aesimc_si128(ek[rounds - r]);
	dk[rounds] = ek[0];
}

/* Zero stores the compiler has to keep: the asm tells it the buffer is read afterwards. Inline,
 * so clearing a schedule costs a few stores, not a call. */
AES_INLINE void aesni_wipe(__m128i *p, int n)
{
	for (int i = 0; i < n; i++)
		_mm_store_si128(p + i, _mm_setzero_si128());
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

/* A caller's byte schedule copied into a local array. The kernels read their round keys once
 * into registers, but only from memory no store of theirs can overwrite: from the caller's
 * schedule, which might overlap the output as far as the compiler knows, they would reload
 * every key on every pass (and such loads stall behind the output stores whenever their
 * addresses agree in the low 12 bits). */
AES_INLINE void aesni_copy_schedule(__m128i *dst, const uint8_t *sched, int rounds)
{
#pragma GCC unroll 15
	for (int r = 0; r <= rounds; r++)
		dst[r] = _mm_loadu_si128((const __m128i *)(sched + AES_BLOCK * r));
}

/* After a schedule is stored, tells the compiler its memory may have changed: later uses then load
 * the keys from the array (which is cleared at the end) instead of keeping the computed values
 * live in registers, which under pressure it would spill to stack slots no one clears. */
AES_INLINE void aesni_forget(const __m128i *sched)
{
	__asm__ __volatile__("" : : "r"(sched) : "memory");
}

/* The stack pointer. A form's work function records its own; the form then knows how deep the
 * work went and overwrites that much (aes_burn_stack), whatever frame the compiler chose. */
AES_INLINE uintptr_t aes_stack_pointer(void)
{
	uintptr_t sp;
	__asm__ __volatile__("mov %%rsp, %0" : "=r"(sp));
	return sp;
}

/* Round key r of a byte schedule. */
AES_INLINE __m128i aes_round_key(const uint8_t *sched, int r)
{
	return _mm_loadu_si128((const __m128i *)(sched + AES_BLOCK * r));
}

AES_INLINE __m128i aesni_encrypt1(__m128i x, const uint8_t *sched, int rounds)
{
	x = _mm_xor_si128(x, aes_round_key(sched, 0));
#pragma GCC unroll 14
	for (int r = 1; r < rounds; r++)
		x = _mm_aesenc_si128(x, aes_round_key(sched, r));
	return _mm_aesenclast_si128(x, aes_round_key(sched, rounds));
}

AES_INLINE __m128i aesni_decrypt1(__m128i x, const uint8_t *sched, int rounds)
{
	x = _mm_xor_si128(x, aes_round_key(sched, 0));
#pragma GCC unroll 14
	for (int r = 1; r < rounds; r++)
		x = _mm_aesdec_si128(x, aes_round_key(sched, r));
	return _mm_aesdeclast_si128(x, aes_round_key(sched, rounds));
}

/* The tweak times x modulo x^128 + x^7 + x^2 + x + 1 (IEEE 1619 5.2): both 64-bit halves
 * shift left, the low half's top bit moves into the high half and the high half's top bit comes
 * back as 0x87, selected by sign masks rather than a branch. */
AES_INLINE __m128i xts_mul_x(__m128i t)
{
	__m128i sign = _mm_shuffle_epi32(_mm_srai_epi32(t, 31), 0x13);
	__m128i carry = _mm_and_si128(sign, _mm_set_epi32(0, 1, 0, 0x87));
	return _mm_xor_si128(_mm_add_epi64(t, t), carry);
}

/* The XTS tail: with len % 16 != 0 the last whole block and the partial one are done by
 * ciphertext stealing. in/out point at the last whole block; t is its tweak T(m-1), and T(m) is
 * t times x. Encryption: CC = E(P(m-1)) under T(m-1); its first tail bytes become the partial
 * output block, the rest, behind the partial input block, is encrypted under T(m) into the last
 * whole output block. Decryption is the mirror image with the two tweaks swapped.
 *
 * Only whole 16-byte loads and stores, none past either buffer: the partial block is read as
 * the last 16 bytes of the input and shifted down, and written as the last 16 bytes of the
 * output, whose head (inside the last whole block) the final store then overwrites. Both loads
 * come first, so in == out works. No byte loops: a compiler would turn them into memcpy calls,
 * around which it spills the live key and tweak registers to the stack. */
AES_INLINE void xts_steal(const uint8_t *sched, int rounds, int decrypt, __m128i t, unsigned tail,
			  const uint8_t *in, uint8_t *out)
{
	const unsigned k = AES_BLOCK - tail;
	const __m128i down = _mm_loadu_si128((const __m128i *)(xts_shift_window + 16 + k));
	const __m128i up = _mm_loadu_si128((const __m128i *)(xts_shift_window + 16 - k));
	const __m128i head = _mm_cmpgt_epi8(
		_mm_set1_epi8((char)tail),
		_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
	const __m128i t_next = xts_mul_x(t);
	const __m128i t_first = decrypt ? t_next : t, t_second = decrypt ? t : t_next;
	const __m128i whole = _mm_loadu_si128((const __m128i *)in);
	const __m128i part = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + tail)), down);

	__m128i x = _mm_xor_si128(whole, t_first);
	x = decrypt ? aesni_decrypt1(x, sched, rounds) : aesni_encrypt1(x, sched, rounds);
	x = _mm_xor_si128(x, t_first);
	_mm_storeu_si128((__m128i *)(out + tail), _mm_shuffle_epi8(x, up));
	x = _mm_or_si128(part, _mm_andnot_si128(head, x));
	x = _mm_xor_si128(x, t_second);
	x = decrypt ? aesni_decrypt1(x, sched, rounds) : aesni_encrypt1(x, sched, rounds);
	_mm_storeu_si128((__m128i *)out, _mm_xor_si128(x, t_second));
}

#endif
