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

/* The key schedule's SubWord by AESENCLAST instead of AESKEYGENASSIST: a vector whose four dwords
 * are equal has equal bytes along each row, so ShiftRows leaves it alone and AESENCLAST with key
 * K yields SubWord(w) ^ K in each dword. Measured latencies on a Skylake-SP: AESENCLAST 4 cycles,
 * AESKEYGENASSIST 15 (isa-l_crypto uses AESKEYGENASSIST). AESNI_ROT3 puts RotWord of dword 3 in
 * every dword (bytes 13, 14, 15, 12).
 *
 * With L = prefix_xor below, B(w) = w in every dword and p the round key one (AES-128) or two
 * (AES-256) steps back, the next round key is L(p) ^ B(SubWord(...) ^ rcon). Written that way
 * (aesni_serial*) each step's chain runs through a shuffle, the AESENCLAST and the XOR: 7 cycles
 * on Zen 5, where PSHUFB and PSHUFD take 2. Where the schedule is a chain something waits on (k2's,
 * for the tweak), only the SubWord input goes around it instead (aesni_ks*): u, the newest round
 * key's last word in every dword. The new last word is xorall(p) ^ SubWord(...) ^ rcon, so
 * AESENCLAST(in, B(xorall(p) ^ rcon)) yields the next u directly, and the round key hangs off it:
 * L(p) ^ B(xorall(p)) ^ u. A step is then a RotWord shuffle and an AESENCLAST (6 cycles), or an
 * AESENCLAST alone (AES-256's odd steps, 4). Two identities keep the key operand off the chain:
 * xorall(L(p) ^ B(s)) = p1 ^ p3, so the xorall of a round key is known a step ahead of it (its
 * p3 is the u before); and L(L(p)) = p ^ (p << 64) with L(B(s)) = s in dwords 0 and 2, which
 * lets AES-128 step its round keys two at a time (through L alone they would be a chain slower
 * than u's). The fast form costs about half as many instructions again as the serial one, and
 * the core issues four vector operations a cycle, of which both chains and the tweak together
 * use most: a schedule nothing waits on early takes the serial form. */
#define AESNI_ROT3 _mm_setr_epi8(13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12)

/* w0..w3 -> w0, w0^w1, w0^w1^w2, w0^w1^w2^w3 (L). */
AES_INLINE __m128i aesni_prefix_xor(__m128i k)
{
	k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
	return _mm_xor_si128(k, _mm_slli_si128(k, 8));
}

/* The XOR of all four dwords in every dword. */
AES_INLINE __m128i aesni_bcast_xorall(__m128i p)
{
	p = _mm_xor_si128(p, _mm_shuffle_epi32(p, 0x4e));
	return _mm_xor_si128(p, _mm_shuffle_epi32(p, 0xb1));
}

/* v, computed in full before what follows uses it: the compiler would otherwise reassociate
 * x ^ y ^ u so that two or three XORs follow the late u instead of one. */
AES_INLINE __m128i aesni_done(__m128i v)
{
	__asm__("" : "+x"(v));
	return v;
}

/* The round constants of AES-128's steps 1..10 (AES-256's even step 2j takes the j-th). */
#define AESNI_RCON(n)                                                                              \
	((const int[]){ 0, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36 }[n])

/* The serial forms: round key i from round keys i - 1 (and i - 2). */
AES_INLINE __m128i aesni_serial128(__m128i prev, int rcon)
{
	return _mm_xor_si128(aesni_prefix_xor(prev),
			     _mm_aesenclast_si128(_mm_shuffle_epi8(prev, AESNI_ROT3),
						  _mm_set1_epi32(rcon)));
}

AES_INLINE __m128i aesni_serial256(__m128i prev2, __m128i prev1, int i)
{
	const __m128i in = i % 2 == 0 ? _mm_shuffle_epi8(prev1, AESNI_ROT3)
				      : _mm_shuffle_epi32(prev1, 0xff);
	return _mm_xor_si128(aesni_prefix_xor(prev2),
			     _mm_aesenclast_si128(in, _mm_set1_epi32(i % 2 == 0 ? AESNI_RCON(i / 2)
										 : 0)));
}

/* AES-128, the fast form: the state between steps. */
struct aesni_ks128 {
	__m128i prev2, prev1; /* round keys i - 2, i - 1 */
	__m128i u2, u1;       /* their last words in every dword */
	__m128i lz;           /* L(B(SubWord output ^ rcon)) of step i - 1 */
};

/* Round key 1, from the key (round key 0). */
AES_INLINE __m128i aesni_ks128_init(struct aesni_ks128 *ks, __m128i k)
{
	const __m128i x = aesni_bcast_xorall(k);
	/* The xorall joins after the AESENCLAST here: it takes as long as the shuffle and the
	 * AESENCLAST together. */
	const __m128i s = _mm_aesenclast_si128(_mm_shuffle_epi8(k, AESNI_ROT3), _mm_set1_epi32(0x01));
	ks->u2 = _mm_shuffle_epi32(k, 0xff);
	ks->u1 = _mm_xor_si128(s, x);
	ks->prev2 = k;
	ks->prev1 = _mm_xor_si128(aesni_done(_mm_xor_si128(aesni_prefix_xor(k), x)), ks->u1);
	ks->lz = _mm_and_si128(s, _mm_setr_epi32(-1, 0, -1, 0));
	return ks->prev1;
}

/* Round key i >= 2. */
AES_INLINE __m128i aesni_ks128_step(struct aesni_ks128 *ks, int rcon)
{
	const __m128i p = ks->prev2;
	/* xorall of round key i - 1: dword 1 of round key i - 2, and its dword 3, which is u2. */
	const __m128i x = _mm_xor_si128(_mm_shuffle_epi32(p, 0x55), ks->u2);
	const __m128i base = aesni_done(_mm_xor_si128(
		_mm_xor_si128(p, _mm_unpacklo_epi64(_mm_setzero_si128(), p)),
		_mm_xor_si128(ks->lz, x)));
	const __m128i u = _mm_aesenclast_si128(_mm_shuffle_epi8(ks->u1, AESNI_ROT3),
					       _mm_xor_si128(x, _mm_set1_epi32(rcon)));
	const __m128i rk = _mm_xor_si128(base, u);
	ks->lz = _mm_and_si128(_mm_xor_si128(u, x), _mm_setr_epi32(-1, 0, -1, 0));
	ks->prev2 = ks->prev1;
	ks->prev1 = rk;
	ks->u2 = ks->u1;
	ks->u1 = u;
	return rk;
}

/* AES-256, the fast form. */
struct aesni_ks256 {
	__m128i prev2, prev1; /* round keys i - 2, i - 1 */
	__m128i u2, u1;       /* their last words in every dword */
	__m128i x2, x1;       /* xorall of each in every dword */
};

AES_INLINE void aesni_ks256_init(struct aesni_ks256 *ks, __m128i k0, __m128i k1)
{
	ks->prev2 = k0;
	ks->prev1 = k1;
	ks->u2 = _mm_shuffle_epi32(k0, 0xff);
	ks->u1 = _mm_shuffle_epi32(k1, 0xff);
	ks->x2 = aesni_bcast_xorall(k0);
	ks->x1 = aesni_bcast_xorall(k1);
}

/* Round key i >= 2; odd i: SubWord alone (no RotWord, no constant). */
AES_INLINE __m128i aesni_ks256_step(struct aesni_ks256 *ks, int i)
{
	const __m128i p = ks->prev2, x = ks->x2;
	const __m128i base = aesni_done(_mm_xor_si128(aesni_prefix_xor(p), x));
	__m128i u;
	if (i % 2 == 0) {
		const __m128i k = _mm_xor_si128(x, _mm_set1_epi32(AESNI_RCON(i / 2)));
		/* Step 2's x comes from a full xorall of the key: it joins after the AESENCLAST. */
		u = i == 2 ? _mm_xor_si128(_mm_aesenclast_si128(
						   _mm_shuffle_epi8(ks->prev1, AESNI_ROT3),
						   _mm_set1_epi32(AESNI_RCON(1))),
					   x)
			   : _mm_aesenclast_si128(_mm_shuffle_epi8(ks->u1, AESNI_ROT3), k);
	} else {
		u = _mm_aesenclast_si128(ks->u1, x);
	}
	const __m128i rk = _mm_xor_si128(base, u);
	/* xorall of round key i, for step i + 2: dwords 1 and 3 of round key i - 2. */
	ks->x2 = ks->x1;
	ks->x1 = _mm_xor_si128(_mm_shuffle_epi32(p, 0x55), ks->u2);
	ks->prev2 = ks->prev1;
	ks->prev1 = rk;
	ks->u2 = ks->u1;
	ks->u1 = u;
	return rk;
}

AES_INLINE void aesni_expand128(const uint8_t *key, __m128i rk[AES128_ROUNDS + 1])
{
	struct aesni_ks128 ks;
	rk[0] = _mm_loadu_si128((const __m128i *)key);
	rk[1] = aesni_ks128_init(&ks, rk[0]);
#pragma GCC unroll 10
	for (int i = 2; i <= AES128_ROUNDS; i++)
		rk[i] = aesni_ks128_step(&ks, AESNI_RCON(i));
}

AES_INLINE void aesni_expand256(const uint8_t *key, __m128i rk[AES256_ROUNDS + 1])
{
	struct aesni_ks256 ks;
	rk[0] = _mm_loadu_si128((const __m128i *)key);
	rk[1] = _mm_loadu_si128((const __m128i *)(key + 16));
	aesni_ks256_init(&ks, rk[0], rk[1]);
#pragma GCC unroll 14
	for (int i = 2; i <= AES256_ROUNDS; i++)
		rk[i] = aesni_ks256_step(&ks, i);
}

/* The raw-key XTS setup: k1's schedule into s1, and the initial tweak encrypted under k2, whose
 * schedule only ever lives in registers. The two expansions and the tweak's rounds advance in
 * step: each is a serial chain, and written one after the other the later chains would queue
 * behind the earlier one's waiting instructions instead of running beside them (measured: 5-8%
 * at 512 bytes). k2's schedule takes the fast form: the tweak, which every block waits for,
 * waits for its last round key. k1's takes the serial one, which with fewer instructions leaves
 * the issue slots to k2's chain: measured 2-3% faster at 512 bytes than both fast, decryption
 * included (whose first round key is k1's last, but its blocks wait for the tweak as well). */
AES_INLINE __m128i aesni_expand128_tweak(const uint8_t *k2, const uint8_t *k1, const uint8_t *iv,
					 __m128i s1[AES128_ROUNDS + 1])
{
	struct aesni_ks128 a;
	const __m128i a0 = _mm_loadu_si128((const __m128i *)k2);
	__m128i t = _mm_xor_si128(_mm_loadu_si128((const __m128i *)iv), a0);
	s1[0] = _mm_loadu_si128((const __m128i *)k1);
	t = _mm_aesenc_si128(t, aesni_ks128_init(&a, a0));
	s1[1] = aesni_serial128(s1[0], 0x01);
#pragma GCC unroll 10
	for (int i = 2; i < AES128_ROUNDS; i++) {
		t = _mm_aesenc_si128(t, aesni_ks128_step(&a, AESNI_RCON(i)));
		s1[i] = aesni_serial128(s1[i - 1], AESNI_RCON(i));
	}
	t = _mm_aesenclast_si128(t, aesni_ks128_step(&a, AESNI_RCON(AES128_ROUNDS)));
	s1[AES128_ROUNDS] = aesni_serial128(s1[AES128_ROUNDS - 1], AESNI_RCON(AES128_ROUNDS));
	return t;
}

AES_INLINE __m128i aesni_expand256_tweak(const uint8_t *k2, const uint8_t *k1, const uint8_t *iv,
					 __m128i s1[AES256_ROUNDS + 1])
{
	struct aesni_ks256 a;
	const __m128i a0 = _mm_loadu_si128((const __m128i *)k2);
	const __m128i a1 = _mm_loadu_si128((const __m128i *)(k2 + 16));
	aesni_ks256_init(&a, a0, a1);
	s1[0] = _mm_loadu_si128((const __m128i *)k1);
	s1[1] = _mm_loadu_si128((const __m128i *)(k1 + 16));
	__m128i t = _mm_xor_si128(_mm_loadu_si128((const __m128i *)iv), a0);
	t = _mm_aesenc_si128(t, a1);
#pragma GCC unroll 14
	for (int i = 2; i < AES256_ROUNDS; i++) {
		t = _mm_aesenc_si128(t, aesni_ks256_step(&a, i));
		s1[i] = aesni_serial256(s1[i - 2], s1[i - 1], i);
	}
	t = _mm_aesenclast_si128(t, aesni_ks256_step(&a, AES256_ROUNDS));
	s1[AES256_ROUNDS] =
		aesni_serial256(s1[AES256_ROUNDS - 2], s1[AES256_ROUNDS - 1], AES256_ROUNDS);
	return t;
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

/* The work functions of an engine's public forms (XTS_BURNING_FORM), for an engine
 * engine(rk, rounds, decrypt, t, len, in, out) that takes k1's schedule for the direction as a
 * local array of round keys and the encrypted tweak t. Nothing here is cleared: the forms
 * overwrite the whole frame afterwards.
 *
 * The expanded-key forms encrypt the tweak straight from the caller's k2 and copy k1's schedule
 * (see aesni_copy_schedule). */
#define XTS_AESNI_EXPANDED(bits, rounds, engine)                                                   \
	static AES_NOINLINE void enc_expanded_##bits(uint8_t *k2, uint8_t *k1, uint8_t *tw,        \
						     uint64_t len, const uint8_t *in,              \
						     uint8_t *out, uintptr_t *sp)                  \
	{                                                                                          \
		__m128i s1[AES_MAX_ROUNDS + 1];                                                    \
		*sp = aes_stack_pointer();                                                         \
		__m128i t = aesni_encrypt1(_mm_loadu_si128((const __m128i *)tw), k2, rounds);      \
		aesni_copy_schedule(s1, k1, rounds);                                               \
		engine(s1, rounds, 0, t, len, in, out);                                            \
	}                                                                                          \
	static AES_NOINLINE void dec_expanded_##bits(uint8_t *k2, uint8_t *k1, uint8_t *tw,        \
						     uint64_t len, const uint8_t *in,              \
						     uint8_t *out, uintptr_t *sp)                  \
	{                                                                                          \
		__m128i s1[AES_MAX_ROUNDS + 1];                                                    \
		*sp = aes_stack_pointer();                                                         \
		__m128i t = aesni_encrypt1(_mm_loadu_si128((const __m128i *)tw), k2, rounds);      \
		aesni_copy_schedule(s1, k1, rounds);                                               \
		engine(s1, rounds, 1, t, len, in, out);                                            \
	}

/* The forms that take the keys themselves expand both, k2's only in registers. */
#define XTS_AESNI_KEYED(bits, rounds, expand_tweak, engine)                                        \
	static AES_NOINLINE void enc_##bits(uint8_t *k2, uint8_t *k1, uint8_t *tw, uint64_t len,   \
					    const uint8_t *in, uint8_t *out, uintptr_t *sp)        \
	{                                                                                          \
		__m128i s1[AES_MAX_ROUNDS + 1];                                                    \
		*sp = aes_stack_pointer();                                                         \
		__m128i t = expand_tweak(k2, k1, tw, s1);                                          \
		engine(s1, rounds, 0, t, len, in, out);                                            \
	}                                                                                          \
	static AES_NOINLINE void dec_##bits(uint8_t *k2, uint8_t *k1, uint8_t *tw, uint64_t len,   \
					    const uint8_t *in, uint8_t *out, uintptr_t *sp)        \
	{                                                                                          \
		__m128i s1[AES_MAX_ROUNDS + 1], d1[AES_MAX_ROUNDS + 1];                            \
		*sp = aes_stack_pointer();                                                         \
		__m128i t = expand_tweak(k2, k1, tw, s1);                                          \
		aesni_dec_schedule(s1, d1, rounds);                                                \
		engine(d1, rounds, 1, t, len, in, out);                                            \
	}

#define XTS_AESNI_WORK(bits, rounds, expand_tweak, engine)                                         \
	XTS_AESNI_EXPANDED(bits, rounds, engine)                                                   \
	XTS_AESNI_KEYED(bits, rounds, expand_tweak, engine)

#endif
