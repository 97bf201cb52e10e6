/* XTS-AES with AES-NI on 128-bit registers: eight blocks in flight.
 *
 * AESENC takes four cycles and two issue each cycle (Zen 5), so eight independent blocks per
 * round keep the units busy. The tweaks of whole passes are stepped in general-purpose
 * registers (xts_passes_gpr), which leaves the vector units to the rounds. A carry-less
 * multiply per lane competes with AESENC for its units: measured 20% slower. A last pass with
 * fewer than eight blocks runs four lanes (up to four blocks) or eight, the unused ones on zeros.
 * Idle units would run those for free, but a core's other thread may share them: four lanes made
 * 16-byte calls 1.15x on such a core (Zen 3 VM).
 *
 * With only 16 XMM registers for eight lanes, eight tweaks, round keys and temporaries, the
 * compiler spills to the stack: round keys, or tweaks where they live in registers. Each public
 * form is therefore a thin wrapper: it runs the work in a function of its own, which records its
 * stack pointer, then overwrites the stack that function used (aes_burn_stack). That covers the
 * work function's whole frame, the local schedules and tweak tables included, so they get no
 * wipe of their own: those extra stores cost 12-20% of a 512-byte call.
 *
 * xts_aesni_avx.c builds the same forms with AVX's encodings (XTS_AESNI_AVX) for CPUs with AVX. */
#include <stddef.h>

#include "aes/x86/aes_x86.h"

#define LANES 8

/* The tweak (lo, hi) times x in general-purpose registers: the bit leaving the top comes back
 * as 0x87, by a mask. */
AES_INLINE void xts_double(uint64_t *lo, uint64_t *hi)
{
	const uint64_t carry = (uint64_t)((int64_t)*hi >> 63) & 0x87;
	*hi = *hi << 1 | *lo >> 63;
	*lo = *lo << 1 ^ carry;
}

/* n <= width blocks through one pass of width (LANES or LANES / 2) lanes with tweaks tw; lanes
 * n to width - 1 run on zeros and are not stored. Each tweak is read twice, for the input and
 * after the last round: from a table in memory (xts_passes_gpr) that is a second load, where
 * keeping it would take a register the eight blocks and the round keys need. With a chain, the
 * pass also runs LANES steps of the integer doubling chain (*lo, *hi) into chain[], one a round,
 * while the vector units run the rounds. */
AES_INLINE void xts_lanes(const __m128i *tw, const __m128i *rk, int rounds, int decrypt,
			  const uint8_t *in, uint8_t *out, unsigned n, uint64_t (*chain)[2],
			  uint64_t *lo, uint64_t *hi, unsigned width)
{
	__m128i x[LANES];
#pragma GCC unroll 8
	for (unsigned i = 0; i < width; i++) {
		x[i] = _mm_setzero_si128();
		if (i < n) {
			const __m128i block = _mm_loadu_si128((const __m128i *)(in + AES_BLOCK * i));
			x[i] = _mm_xor_si128(_mm_xor_si128(block, tw[i]), rk[0]);
		}
	}
#pragma GCC unroll 14
	for (int r = 1; r < rounds; r++) {
#pragma GCC unroll 8
		for (unsigned i = 0; i < width; i++)
			x[i] = decrypt ? _mm_aesdec_si128(x[i], rk[r])
				       : _mm_aesenc_si128(x[i], rk[r]);
		if (chain && r <= LANES) {
			chain[r - 1][0] = *lo;
			chain[r - 1][1] = *hi;
			xts_double(lo, hi);
		}
	}
#pragma GCC unroll 8
	for (unsigned i = 0; i < width; i++) {
		x[i] = decrypt ? _mm_aesdeclast_si128(x[i], rk[rounds])
			       : _mm_aesenclast_si128(x[i], rk[rounds]);
		if (i < n)
			_mm_storeu_si128((__m128i *)(out + AES_BLOCK * i),
					 _mm_xor_si128(x[i], tw[i]));
	}
}

/* The tweak times x^k for 1 <= k <= 7, straight from t: the 128-bit value shifted by k, and the
 * k bits that leave at the top, v, come back as v * (x^7 + x^2 + x + 1), carry-less v ^ v<<1 ^
 * v<<2 ^ v<<7. The first pass's lanes then wait for one such step each instead of a chain of up
 * to seven doublings. */
AES_INLINE __m128i xts_mul_xk(__m128i t, int k)
{
	const __m128i v = _mm_srli_epi64(_mm_srli_si128(t, 15), 8 - k);
	const __m128i r = _mm_xor_si128(_mm_xor_si128(v, _mm_slli_epi64(v, 1)),
					_mm_xor_si128(_mm_slli_epi64(v, 2), _mm_slli_epi64(v, 7)));
	const __m128i s = _mm_or_si128(_mm_slli_epi64(t, k),
				       _mm_srli_epi64(_mm_slli_si128(t, 8), 64 - k));
	return _mm_xor_si128(s, r);
}

/* Whole passes of eight blocks with the tweaks doubled in general-purpose registers: on 128-bit
 * registers a step costs shift and XOR operations on the vector units the eleven to fifteen AES
 * rounds need (without VAES those units are the bound), while the integer units are idle. One
 * doubling chain runs two passes ahead, five integer operations a tweak, into three tables of
 * eight that take turns: a pass reads its tweaks from one and fills another for the pass after
 * next, so a 16-byte load of a table reads 8-byte stores made a whole pass earlier (a load that
 * straddles two stores still in flight waits for them to reach the cache). The pass reads its
 * table twice, for the input and for the output: with only 16 XMM registers, eight blocks and
 * the round keys, the tweaks would otherwise be copied to the stack and read back (two tables,
 * where the one being read is also refilled, forced that: 8 stores and 8 loads a pass). The
 * tables rotate through pointers, so the compiler cannot merge the second read into the first.
 * Takes the first tweak in tw[0]; returns with tw holding the tweaks of the blocks after the
 * last pass. */
AES_INLINE void xts_passes_gpr(__m128i *tw, const __m128i *rk, int rounds, int decrypt,
			       uint64_t passes, const uint8_t *in, uint8_t *out)
{
	uint64_t table[3][LANES][2] __attribute__((aligned(16)));
	uint64_t(*now)[2] = table[0], (*next)[2] = table[1], (*later)[2] = table[2];
	uint64_t lo = (uint64_t)_mm_cvtsi128_si64(tw[0]);
	uint64_t hi = (uint64_t)_mm_extract_epi64(tw[0], 1);

	/* The first two passes' tweaks from the same chain, not seven vector multiplications by
	 * x^k and eight by x^8 (about 150 SSE instructions). The first pass reads its table at
	 * once, so its tweaks go in as whole 16-byte stores, which a 16-byte load can take straight
	 * from the store queue; the second's are read a pass later. */
#pragma GCC unroll 16
	for (int i = 0; i < 2 * LANES; i++) {
		if (i < LANES) {
			const __m128i v = _mm_set_epi64x((int64_t)hi, (int64_t)lo);
			_mm_store_si128((__m128i *)table[0][i], v);
		} else {
			table[1][i - LANES][0] = lo;
			table[1][i - LANES][1] = hi;
		}
		xts_double(&lo, &hi);
	}
	for (; passes; passes--, in += LANES * AES_BLOCK, out += LANES * AES_BLOCK) {
		xts_lanes((const __m128i *)now, rk, rounds, decrypt, in, out, LANES, later, &lo,
			  &hi, LANES);
		uint64_t(*const done)[2] = now;
		now = next;
		next = later;
		later = done;
	}
#pragma GCC unroll 8
	for (int i = 0; i < LANES; i++)
		tw[i] = _mm_load_si128((const __m128i *)now[i]);
}

/* XTS over len >= 16 bytes: rk is k1's schedule for the direction, t the encrypted tweak. Whole
 * passes, from one on, take their tweaks from the integer chain (xts_passes_gpr): stepping each
 * lane by x^8 in SSE registers instead ran 512-byte calls at 0.85x. A message under one pass
 * takes its tweaks from multiplications by x^k, which do not wait for one another as the chain's
 * steps do. */
AES_INLINE void xts_aesni(const __m128i *rk, int rounds, int decrypt, __m128i t, uint64_t len,
			  const uint8_t *in, uint8_t *out)
{
	__m128i tw[LANES];
	const unsigned tail = (unsigned)(len % AES_BLOCK);
	const uint64_t bulk = len / AES_BLOCK - (tail ? 1 : 0);

	tw[0] = t;
	if (bulk >= LANES) {
		const uint64_t passes = bulk / LANES;
		xts_passes_gpr(tw, rk, rounds, decrypt, passes, in, out);
		in += passes * LANES * AES_BLOCK;
		out += passes * LANES * AES_BLOCK;
	} else {
		/* Only the lanes the last pass runs (below); with four, the tail's tweak is among
		 * them, as rest < 4. */
		const int lanes = bulk >= LANES / 2 ? LANES : LANES / 2;
#pragma GCC unroll 8
		for (int i = 1; i < LANES; i++)
			tw[i] = i < lanes ? xts_mul_xk(t, i) : t;
	}
	/* bulk % LANES blocks are left; lane i holds block i's tweak. Up to four of them run four
	 * lanes. */
	const unsigned rest = (unsigned)(bulk % LANES);
	if (rest > LANES / 2)
		xts_lanes(tw, rk, rounds, decrypt, in, out, rest, NULL, NULL, NULL, LANES);
	else if (rest)
		xts_lanes(tw, rk, rounds, decrypt, in, out, rest, NULL, NULL, NULL, LANES / 2);
	if (tail) {
		__m128i t_last = tw[0];
#pragma GCC unroll 8
		for (unsigned i = 1; i < LANES; i++)
			t_last = i == rest ? tw[i] : t_last;
		xts_steal((const uint8_t *)rk, rounds, decrypt, t_last, tail, in + AES_BLOCK * rest,
			  out + AES_BLOCK * rest);
	}
}

XTS_AESNI_WORK(128, AES128_ROUNDS, aesni_expand128_tweak, xts_aesni)
XTS_AESNI_WORK(256, AES256_ROUNDS, aesni_expand256_tweak, xts_aesni)

#if defined(XTS_AESNI_AVX)
XTS_ENGINE_FORMS(aesni_avx)
#else
XTS_ENGINE_FORMS(aesni)

/* Key expansion into the caller's two schedules; nothing spills here (four registers live). */
#define KEYEXP_AESNI(bits, rounds, expand)                                                         \
	void aes_keyexp_##bits##_aesni(const uint8_t *key, uint8_t *exp_key_enc,                   \
				       uint8_t *exp_key_dec)                                       \
	{                                                                                          \
		__m128i rk[AES_MAX_ROUNDS + 1], dk[AES_MAX_ROUNDS + 1];                            \
		expand(key, rk);                                                                   \
		aesni_dec_schedule(rk, dk, rounds);                                                \
		for (int r = 0; r <= rounds; r++) {                                                \
			_mm_storeu_si128((__m128i *)(exp_key_enc + AES_BLOCK * r), rk[r]);         \
			_mm_storeu_si128((__m128i *)(exp_key_dec + AES_BLOCK * r), dk[r]);         \
		}                                                                                  \
		aesni_wipe(rk, rounds + 1);                                                        \
		aesni_wipe(dk, rounds + 1);                                                        \
	}

KEYEXP_AESNI(128, AES128_ROUNDS, aesni_expand128)
KEYEXP_AESNI(256, AES256_ROUNDS, aesni_expand256)
#endif
