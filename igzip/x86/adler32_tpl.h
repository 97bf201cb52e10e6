/* Adler-32 over vector blocks, instantiated per width (adler32_avx2.c, adler32_avx512.c). Per
 * block of ADLER_W bytes, s1 grows by the bytes' sum (psadbw) and s2 by ADLER_W times the s1
 * before the block plus the bytes weighted ADLER_W..1 (pmaddubsw, then pmaddwd by ones).
 * Parameters, #undef'd at the end:
 *   ADLER_FN          name of the function to define
 *   ADLER_W           bytes per block (the vector width); ADLER_LOG_W its log2
 *   ADLER_VEC         the vector type
 *   ADLER_LOAD(p)     unaligned load of a block
 *   ADLER_ZERO, ADLER_ONES16, ADLER_WEIGHTS   all zero; 16-bit ones; bytes ADLER_W..1 in memory
 *                     order
 *   ADLER_ADD32(a, b), ADLER_SAD(v, zero), ADLER_MADDUBS(v, w), ADLER_MADD16(a, b),
 *   ADLER_SLLI32(a, n)   the instructions of those names
 *   ADLER_SUM32(v)    the sum of the 32-bit lanes, as uint32_t (adler_sum256 below does a
 *                     256-bit vector's)
 *   ADLER_STORE(p, v) with it, the function copies as it sums: (init, dst, buf, len), each block
 *                     stored to dst after its load (inflate's stored blocks: one pass over the
 *                     bytes instead of a copy and then a sum)
 *   ADLER_KEEP        keep these parameters defined after the instantiation */
#include <immintrin.h>
#include <string.h>

#include "inflate_arch.h"

#ifndef ADLER_MOD
#define ADLER_MOD 65521u
/* The longest run summed before reducing: s2's weighted sum of that many 0xff bytes, from zero,
 * stays below 2^32 (zlib's NMAX). */
#define ADLER_NMAX 5552u
#endif

#ifndef ADLER_SUM256_DEFINED
#define ADLER_SUM256_DEFINED
/* The sum of a 256-bit vector's 32-bit lanes, by vector adds (which wrap, as s2's lanes need). */
static inline uint32_t adler_sum256(__m256i v)
{
	__m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
	s = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
	s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 1));
	return (uint32_t)_mm_cvtsi128_si32(s);
}
#endif

#ifdef ADLER_STORE
#define ADLER_PUT(off, v) ADLER_STORE(dst + (off), (v))
#define ADLER_ON(n)       (dst += (n))
uint32_t ADLER_FN(uint32_t init, unsigned char *dst, const unsigned char *buf, uint64_t len)
#else
#define ADLER_PUT(off, v) ((void)0)
#define ADLER_ON(n)       ((void)0)
uint32_t ADLER_FN(uint32_t init, const unsigned char *buf, uint64_t len)
#endif
{
	uint32_t s1 = (init & 0xffff) % ADLER_MOD, s2 = (init >> 16) % ADLER_MOD;
	const ADLER_VEC weights = ADLER_WEIGHTS;
	const ADLER_VEC ones = ADLER_ONES16;
	const ADLER_VEC zero = ADLER_ZERO;

	while (len >= ADLER_W) {
		uint64_t blocks = len / ADLER_W;
		if (blocks > ADLER_NMAX / ADLER_W)
			blocks = ADLER_NMAX / ADLER_W;
		len -= blocks * ADLER_W;
		ADLER_VEC vs1 = zero, vs2 = zero, vps = zero, vsa = zero;
		/* s2 gains the run's length times the s1 held before it. */
		s2 += (uint32_t)(blocks * ADLER_W) * s1;
		/* Two blocks a step: s2 gains 2W times s1 before the pair (vps, doubled below) and
		 * W times the first block's sum (vsa). One block a step, the loop was bound by its
		 * instruction count: this is 1.3-1.6x as fast on 64 KiB (AVX2, Zen 3). Runs of
		 * fewer than four blocks keep the one-block loop (the pair's setup cost 8% at 64 B). */
		uint64_t b = 0;
		if (blocks >= 4) {
			for (; b + 2 <= blocks; b += 2) {
				const ADLER_VEC v0 = ADLER_LOAD(buf);
				const ADLER_VEC v1 = ADLER_LOAD(buf + ADLER_W);
				ADLER_PUT(0, v0);
				ADLER_PUT(ADLER_W, v1);
				ADLER_ON(2 * ADLER_W);
				buf += 2 * ADLER_W;
				const ADLER_VEC sad0 = ADLER_SAD(v0, zero);
				vps = ADLER_ADD32(vps, vs1);
				vsa = ADLER_ADD32(vsa, sad0);
				vs1 = ADLER_ADD32(vs1, ADLER_ADD32(sad0, ADLER_SAD(v1, zero)));
				vs2 = ADLER_ADD32(vs2, ADLER_MADD16(ADLER_MADDUBS(v0, weights), ones));
				vs2 = ADLER_ADD32(vs2, ADLER_MADD16(ADLER_MADDUBS(v1, weights), ones));
			}
			vps = ADLER_ADD32(ADLER_ADD32(vps, vps), vsa);
		}
		for (; b < blocks; b++) {
			const ADLER_VEC v = ADLER_LOAD(buf);
			ADLER_PUT(0, v);
			ADLER_ON(ADLER_W);
			buf += ADLER_W;
			vps = ADLER_ADD32(vps, vs1);
			vs1 = ADLER_ADD32(vs1, ADLER_SAD(v, zero));
			vs2 = ADLER_ADD32(vs2, ADLER_MADD16(ADLER_MADDUBS(v, weights), ones));
		}
		vs2 = ADLER_ADD32(vs2, ADLER_SLLI32(vps, ADLER_LOG_W));
		s1 = (s1 + ADLER_SUM32(vs1)) % ADLER_MOD;
		s2 = (s2 % ADLER_MOD + ADLER_SUM32(vs2) % ADLER_MOD) % ADLER_MOD;
	}
#ifdef ADLER_STORE
	if (len)
		memcpy(dst, buf, len);
#endif
	return adler32_portable((s2 << 16) | s1, buf, len);
}

#undef ADLER_PUT
#undef ADLER_ON
#undef ADLER_STORE
#undef ADLER_FN
#ifndef ADLER_KEEP
#undef ADLER_W
#undef ADLER_LOG_W
#undef ADLER_VEC
#undef ADLER_LOAD
#undef ADLER_ZERO
#undef ADLER_ONES16
#undef ADLER_WEIGHTS
#undef ADLER_ADD32
#undef ADLER_SAD
#undef ADLER_MADDUBS
#undef ADLER_MADD16
#undef ADLER_SLLI32
#undef ADLER_SUM32
#endif
#undef ADLER_KEEP
