/* XTS-AES and key expansion with the Armv8 AES instructions: eight blocks in flight.
 *
 * AESE is AddRoundKey, ShiftRows and SubBytes, AESMC MixColumns (cores fuse the pair), so a round
 * key is added before its round's S-boxes and the last one after them: Nr AESE with keys 0 to
 * Nr - 1, an AESMC after all but the last, then an XOR with key Nr. Decryption is the same shape
 * with AESD and AESIMC over the equivalent inverse cipher's schedule (isa-l_crypto's exp_key_dec),
 * the schedule x86's AESDEC uses too. Nothing indexes memory by secret data.
 *
 * The tweaks are doubled in general-purpose registers, one serial chain of four scalar
 * instructions per block (the top bit of each 64-bit half moves to the other, the top bit of the
 * whole brings in 0x87), and each goes to a vector register by two moves. On Neoverse N1 AESE,
 * AESMC and PMULL share one pipe, so a tweak update by vector multiplies would take turns from
 * the rounds; the scalar chain runs on the integer pipes beside them, its latency hidden under
 * the pass's rounds.
 *
 * With eight lanes, eight tweaks and 15 round keys the 32 vector registers are nearly all live
 * for AES-256; whatever the compiler spills is cleared by the forms' stack burn
 * (XTS_BURNING_FORM). */
#include <arm_neon.h>

#include "aes_arch.h"

#define AES_INLINE static inline __attribute__((always_inline))
#define LANES      8

/* The stack pointer (XTS_BURNING_FORM). */
AES_INLINE uintptr_t aes_stack_pointer(void)
{
	uintptr_t sp;
	__asm__ __volatile__("mov %0, sp" : "=r"(sp));
	return sp;
}

/* Zero stores the compiler has to keep. */
AES_INLINE void arm_wipe(uint8x16_t *p, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = vdupq_n_u8(0);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

AES_INLINE void arm_copy_schedule(uint8x16_t *dst, const uint8_t *sched, int rounds)
{
#pragma GCC unroll 15
	for (int r = 0; r <= rounds; r++)
		dst[r] = vld1q_u8(sched + AES_BLOCK * r);
}

/* ---- key expansion (FIPS-197 section 5.2) ---- */

/* w0..w3 -> w0, w0^w1, w0^w1^w2, w0^w1^w2^w3. */
AES_INLINE uint8x16_t prefix_xor(uint8x16_t k)
{
	const uint8x16_t z = vdupq_n_u8(0);
	k = veorq_u8(k, vextq_u8(z, k, 12));
	return veorq_u8(k, vextq_u8(z, k, 8));
}

/* SubWord of a word repeated in all four columns: ShiftRows moves nothing when the columns are
 * equal, so AESE with a zero key is SubBytes alone. ROT3 repeats RotWord(w3), DUP3 w3. */
static const uint8_t rot3[16] = { 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12 };
static const uint8_t dup3[16] = { 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15 };

AES_INLINE uint8x16_t sub_word(uint8x16_t v, const uint8_t pick[16], uint32_t rcon)
{
	uint8x16_t s = vaeseq_u8(vqtbl1q_u8(v, vld1q_u8(pick)), vdupq_n_u8(0));
	return veorq_u8(s, vreinterpretq_u8_u32(vdupq_n_u32(rcon)));
}

#define NEXT128(prev, rcon)           veorq_u8(prefix_xor(prev), sub_word(prev, rot3, rcon))
#define NEXT256_A(prev2, prev1, rcon) veorq_u8(prefix_xor(prev2), sub_word(prev1, rot3, rcon))
#define NEXT256_B(prev2, prev1)       veorq_u8(prefix_xor(prev2), sub_word(prev1, dup3, 0))

/* FIPS-197 section 5.2 round constants. */
static const uint8_t rcon[10] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36 };

AES_INLINE void expand128(const uint8_t *key, uint8x16_t rk[AES128_ROUNDS + 1])
{
	rk[0] = vld1q_u8(key);
#pragma GCC unroll 10
	for (int i = 1; i <= AES128_ROUNDS; i++)
		rk[i] = NEXT128(rk[i - 1], rcon[i - 1]);
}

AES_INLINE void expand256(const uint8_t *key, uint8x16_t rk[AES256_ROUNDS + 1])
{
	rk[0] = vld1q_u8(key);
	rk[1] = vld1q_u8(key + 16);
#pragma GCC unroll 7
	for (int i = 2; i <= AES256_ROUNDS; i += 2) {
		rk[i] = NEXT256_A(rk[i - 2], rk[i - 1], rcon[i / 2 - 1]);
		if (i < AES256_ROUNDS)
			rk[i + 1] = NEXT256_B(rk[i - 1], rk[i]);
	}
}

/* The equivalent inverse cipher's schedule, isa-l_crypto's exp_key_dec layout. */
AES_INLINE void dec_schedule(const uint8x16_t *ek, uint8x16_t *dk, int rounds)
{
	dk[0] = ek[rounds];
#pragma GCC unroll 14
	for (int r = 1; r < rounds; r++)
		dk[r] = vaesimcq_u8(ek[rounds - r]);
	dk[rounds] = ek[0];
}

/* ---- blocks ---- */

/* One block through all rounds but the last key addition, which the caller folds in. */
AES_INLINE uint8x16_t rounds1(uint8x16_t x, const uint8x16_t *rk, int rounds, int decrypt)
{
#pragma GCC unroll 14
	for (int r = 0; r < rounds - 1; r++)
		x = decrypt ? vaesimcq_u8(vaesdq_u8(x, rk[r])) : vaesmcq_u8(vaeseq_u8(x, rk[r]));
	return decrypt ? vaesdq_u8(x, rk[rounds - 1]) : vaeseq_u8(x, rk[rounds - 1]);
}

/* The tweak times x (IEEE 1619 section 5.2): both 64-bit halves shift left; each half's top bit,
 * as a sign mask moved to the other half, brings in 1 (low into high) or 0x87 (high into low). */
AES_INLINE uint8x16_t mul_x(uint8x16_t t)
{
	static const uint64_t carry_bits[2] = { 0x87, 1 };
	uint64x2_t v = vreinterpretq_u64_u8(t);
	uint64x2_t sign = vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_u64(v), 63));
	uint64x2_t carry = vandq_u64(vextq_u64(sign, sign, 1), vld1q_u64(carry_bits));
	return vreinterpretq_u8_u64(veorq_u64(vaddq_u64(v, v), carry));
}

/* The scalar tweak state: tw[0..LANES-1] get T, T x, .., T x^(LANES-1) for T = (lo, hi), and
 * (lo, hi) becomes T x^LANES, the next pass's first tweak. */
AES_INLINE void next_tweaks(uint64_t *lo, uint64_t *hi, uint8x16_t tw[LANES])
{
	uint64_t l = *lo, h = *hi;
#pragma GCC unroll 8
	for (int i = 0; i < LANES; i++) {
		tw[i] = vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(l), vcreate_u64(h)));
		const uint64_t carry = (uint64_t)((int64_t)h >> 63) & 0x87;
		h = h << 1 | l >> 63;
		l = l << 1 ^ carry;
	}
	*lo = l;
	*hi = h;
}

/* n <= LANES blocks with tweaks tw[0..n-1]; rk is k1's schedule for the direction. */
AES_INLINE void xts_lanes(const uint8x16_t *tw, const uint8x16_t *rk, int rounds, int decrypt,
                          const uint8_t *in, uint8_t *out, int n)
{
	uint8x16_t x[LANES];
#pragma GCC unroll 8
	for (int i = 0; i < n; i++)
		x[i] = veorq_u8(vld1q_u8(in + AES_BLOCK * i), tw[i]);
#pragma GCC unroll 14
	for (int r = 0; r < rounds - 1; r++) {
#pragma GCC unroll 8
		for (int i = 0; i < n; i++)
			x[i] = decrypt ? vaesimcq_u8(vaesdq_u8(x[i], rk[r]))
			               : vaesmcq_u8(vaeseq_u8(x[i], rk[r]));
	}
#pragma GCC unroll 8
	for (int i = 0; i < n; i++) {
		x[i] = decrypt ? vaesdq_u8(x[i], rk[rounds - 1]) : vaeseq_u8(x[i], rk[rounds - 1]);
		vst1q_u8(out + AES_BLOCK * i, veorq_u8(x[i], veorq_u8(tw[i], rk[rounds])));
	}
}

/* The XTS tail by ciphertext stealing, as xts_steal in ../x86/aes_x86.h: in/out point at the
 * last whole block, t is its tweak; only whole 16-byte loads and stores inside both buffers,
 * both loads first so in == out works. */
AES_INLINE void xts_steal(const uint8x16_t *rk, int rounds, int decrypt, uint8x16_t t,
                          unsigned tail, const uint8_t *in, uint8_t *out)
{
	static const uint8_t iota[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	const unsigned k = AES_BLOCK - tail;
	const uint8x16_t down = vld1q_u8(xts_shift_window + 16 + k);
	const uint8x16_t up = vld1q_u8(xts_shift_window + 16 - k);
	const uint8x16_t head = vcgtq_u8(vdupq_n_u8((uint8_t)tail), vld1q_u8(iota));
	const uint8x16_t t_next = mul_x(t);
	const uint8x16_t t_first = decrypt ? t_next : t, t_second = decrypt ? t : t_next;
	const uint8x16_t whole = vld1q_u8(in);
	const uint8x16_t part = vqtbl1q_u8(vld1q_u8(in + tail), down);

	uint8x16_t x = rounds1(veorq_u8(whole, t_first), rk, rounds, decrypt);
	x = veorq_u8(x, veorq_u8(rk[rounds], t_first));
	vst1q_u8(out + tail, vqtbl1q_u8(x, up));
	x = vbslq_u8(head, part, x);
	x = rounds1(veorq_u8(x, t_second), rk, rounds, decrypt);
	vst1q_u8(out, veorq_u8(x, veorq_u8(rk[rounds], t_second)));
}

/* XTS over len >= 16 bytes: rk is k1's schedule for the direction, t the encrypted tweak. */
AES_INLINE void xts_arm(const uint8x16_t *rk, int rounds, int decrypt, uint8x16_t t, uint64_t len,
                        const uint8_t *in, uint8_t *out)
{
	uint8x16_t tw[LANES];
	const unsigned tail = (unsigned)(len % AES_BLOCK);
	uint64_t bulk = len / AES_BLOCK - (tail ? 1 : 0);

	uint64_t lo = vgetq_lane_u64(vreinterpretq_u64_u8(t), 0);
	uint64_t hi = vgetq_lane_u64(vreinterpretq_u64_u8(t), 1);

	next_tweaks(&lo, &hi, tw);
	for (; bulk >= LANES; bulk -= LANES, in += LANES * AES_BLOCK, out += LANES * AES_BLOCK) {
		xts_lanes(tw, rk, rounds, decrypt, in, out, LANES);
		next_tweaks(&lo, &hi, tw);
	}
	/* bulk < LANES blocks are left, with tweaks tw[0..bulk-1]: passes of 4, 2 and 1, each
	 * moving the unused tweaks down to tw[0]. */
	if (bulk & 4) {
		xts_lanes(tw, rk, rounds, decrypt, in, out, 4);
		in += 4 * AES_BLOCK, out += 4 * AES_BLOCK;
#pragma GCC unroll 4
		for (int i = 0; i < 4; i++)
			tw[i] = tw[i + 4];
	}
	if (bulk & 2) {
		xts_lanes(tw, rk, rounds, decrypt, in, out, 2);
		in += 2 * AES_BLOCK, out += 2 * AES_BLOCK;
		tw[0] = tw[2];
		tw[1] = tw[3];
	}
	if (bulk & 1) {
		xts_lanes(tw, rk, rounds, decrypt, in, out, 1);
		in += AES_BLOCK, out += AES_BLOCK;
		tw[0] = tw[1];
	}
	if (tail)
		xts_steal(rk, rounds, decrypt, tw[0], tail, in, out);
}

/* The initial tweak encrypted under a schedule. */
AES_INLINE uint8x16_t encrypt_tweak(const uint8_t *iv, const uint8x16_t *rk, int rounds)
{
	return veorq_u8(rounds1(vld1q_u8(iv), rk, rounds, 0), rk[rounds]);
}

/* The work of each public form. The expanded-key ones copy both schedules into locals (see
 * aesni_copy_schedule in ../x86/aes_x86.h for why); the others expand both keys. */
#define XTS_ARM_EXPANDED(name, rounds, decrypt)                                                    \
	static AES_NOINLINE void name(uint8_t *k2, uint8_t *k1, uint8_t *tw, uint64_t len,         \
	                              const uint8_t *in, uint8_t *out, uintptr_t *sp)              \
	{                                                                                          \
		uint8x16_t s[AES_MAX_ROUNDS + 1];                                                  \
		*sp = aes_stack_pointer();                                                         \
		arm_copy_schedule(s, k2, rounds);                                                  \
		uint8x16_t t = encrypt_tweak(tw, s, rounds);                                       \
		arm_copy_schedule(s, k1, rounds);                                                  \
		xts_arm(s, rounds, decrypt, t, len, in, out);                                      \
		arm_wipe(s, rounds + 1);                                                           \
	}
#define XTS_ARM_WORK(bits, rounds, expand)                                                         \
	XTS_ARM_EXPANDED(enc_expanded_##bits, rounds, 0)                                           \
	XTS_ARM_EXPANDED(dec_expanded_##bits, rounds, 1)                                           \
	static AES_NOINLINE void enc_##bits(uint8_t *k2, uint8_t *k1, uint8_t *tw, uint64_t len,   \
	                                    const uint8_t *in, uint8_t *out, uintptr_t *sp)        \
	{                                                                                          \
		uint8x16_t s[AES_MAX_ROUNDS + 1];                                                  \
		*sp = aes_stack_pointer();                                                         \
		expand(k2, s);                                                                     \
		uint8x16_t t = encrypt_tweak(tw, s, rounds);                                       \
		expand(k1, s);                                                                     \
		xts_arm(s, rounds, 0, t, len, in, out);                                            \
		arm_wipe(s, rounds + 1);                                                           \
	}                                                                                          \
	static AES_NOINLINE void dec_##bits(uint8_t *k2, uint8_t *k1, uint8_t *tw, uint64_t len,   \
	                                    const uint8_t *in, uint8_t *out, uintptr_t *sp)        \
	{                                                                                          \
		uint8x16_t s[AES_MAX_ROUNDS + 1], d[AES_MAX_ROUNDS + 1];                           \
		*sp = aes_stack_pointer();                                                         \
		expand(k2, s);                                                                     \
		uint8x16_t t = encrypt_tweak(tw, s, rounds);                                       \
		expand(k1, s);                                                                     \
		dec_schedule(s, d, rounds);                                                        \
		xts_arm(d, rounds, 1, t, len, in, out);                                            \
		arm_wipe(s, rounds + 1);                                                           \
		arm_wipe(d, rounds + 1);                                                           \
	}

XTS_ARM_WORK(128, AES128_ROUNDS, expand128)
XTS_ARM_WORK(256, AES256_ROUNDS, expand256)

XTS_ENGINE_FORMS(aes)

/* Key expansion into the caller's two schedules. */
#define KEYEXP_ARM(bits, rounds, expand)                                                           \
	void aes_keyexp_##bits##_aes(const uint8_t *key, uint8_t *exp_key_enc,                     \
	                             uint8_t *exp_key_dec)                                         \
	{                                                                                          \
		uint8x16_t rk[AES_MAX_ROUNDS + 1], dk[AES_MAX_ROUNDS + 1];                         \
		expand(key, rk);                                                                   \
		dec_schedule(rk, dk, rounds);                                                      \
		for (int r = 0; r <= rounds; r++) {                                                \
			vst1q_u8(exp_key_enc + AES_BLOCK * r, rk[r]);                              \
			vst1q_u8(exp_key_dec + AES_BLOCK * r, dk[r]);                              \
		}                                                                                  \
		arm_wipe(rk, rounds + 1);                                                          \
		arm_wipe(dk, rounds + 1);                                                          \
	}

KEYEXP_ARM(128, AES128_ROUNDS, expand128)
KEYEXP_ARM(256, AES256_ROUNDS, expand256)
