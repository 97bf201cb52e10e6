/* The token writer built for AVX2 + BMI2. Runs of eight tokens have their codes assembled four
 * to a vector (64-bit lanes: vpsllvq places each token's distance code and extra bits), and
 * neighbours are merged pairwise into one unit, so the scalar part only appends four units per
 * eight tokens. The table entries are loaded one by one and inserted: on Zen 4 vpgatherdq
 * measured no faster than the portable writer (1.73 against 1.76 ns per token on Calgary level
 * 1), the inserts 1.03; on Zen 3 the gathers were 1.2x slower than the inserts. The rest of the
 * writer (tables, room checks, the pair loop for the tail) is ../huff_write.c's. */
#include <immintrin.h>

#include "deflate_arch.h"

#define DEFL_WRITE_TOKENS_FN  defl_write_tokens_avx2
#define DEFL_WRITE_TOKENS_RUN write_run_avx2
#include "../huff_write.c"

/* Entries a, b, c, d of a merged table, one per lane. */
static inline __attribute__((always_inline)) __m256i load4(const uint64_t *tab, uint32_t a,
                                                           uint32_t b, uint32_t c, uint32_t d)
{
	__m128i lo = _mm_insert_epi64(_mm_cvtsi64_si128((long long)tab[a]), (long long)tab[b], 1);
	__m128i hi = _mm_insert_epi64(_mm_cvtsi64_si128((long long)tab[c]), (long long)tab[d], 1);
	return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

/* Codes and bit counts of tokens tok[0..3], as token_bits gives them, one per lane. */
static inline __attribute__((always_inline)) void
codes4(const struct merged_tables *m, const uint32_t *tok, __m256i *code, __m256i *nb)
{
	__m128i t = _mm_loadu_si128((const __m128i *)tok);
	/* Hide t's origin, or clang takes table indexes out of it with vpextrd/vpextrb, vector
	 * uops (the loop's bottleneck) where scalar loads are free: clang 1.42 -> 1.33 ns per
	 * token with this (it still extracts some), gcc 0.98 either way. */
	__asm__("" : "+x"(t));
	const __m256i e = load4(m->ll, DEFL_TOK_LL(tok[0]), DEFL_TOK_LL(tok[1]),
	                        DEFL_TOK_LL(tok[2]), DEFL_TOK_LL(tok[3]));
	/* Byte 1 of each token indexes the distance table (x86 is little-endian). */
	const uint8_t *tb = (const uint8_t *)tok;
	const __m256i d = load4(m->d, tb[1], tb[5], tb[9], tb[13]);
	const __m256i low6 = _mm256_set1_epi64x(63);
	const __m256i sum = _mm256_add_epi64(e, d);
	const __m256i extra = _mm256_cvtepu32_epi64(_mm_srli_epi32(t, 15));
	__m256i c = _mm256_sllv_epi64(_mm256_srli_epi64(d, 32), _mm256_and_si256(e, low6));
	c = _mm256_or_si256(c, _mm256_srli_epi64(e, 32));
	c = _mm256_or_si256(c, _mm256_sllv_epi64(extra, _mm256_and_si256(sum, low6)));
	*code = c;
	*nb = _mm256_and_si256(_mm256_srli_epi64(sum, 8), low6);
}

/* Append bits (nb <= 56 of them) to the accumulator, as PUT_BITS does, and return the word
 * PUT_BITS would store at the old *out (the caller stores it). */
static inline __attribute__((always_inline)) uint64_t
unit_word(uint64_t *acc, uint32_t *cnt, uint8_t **out, uint64_t bits, uint32_t nb)
{
	uint64_t a = *acc | bits << *cnt;
	uint32_t c = *cnt + nb;
	*out += c >> 3;
	*acc = a >> (c & 56);
	*cnt = c & 7;
	return a;
}

/* Append and store at once, as PUT_BITS. */
static inline __attribute__((always_inline)) void
put_unit(uint64_t *acc, uint32_t *cnt, uint8_t **out, uint64_t bits, uint32_t nb)
{
	uint8_t *o = *out;
	const uint64_t a = unit_word(acc, cnt, out, bits, nb);
	memcpy(o, &a, 8);
}

/* The previous group's words, in order (a later store overwrites an earlier one's zeros). */
#define STORE_PENDING()                                                                            \
	do {                                                                                       \
		memcpy(q0, &v0, 8);                                                                \
		memcpy(q1, &v1, 8);                                                                \
		memcpy(q2, &v2, 8);                                                                \
		memcpy(q3, &v3, 8);                                                                \
	} while (0)

static size_t write_run_avx2(const struct merged_tables *m, const uint32_t *tok, size_t n,
                             uint64_t *acc_p, uint32_t *cnt_p, uint8_t **out_p)
{
	uint64_t acc = *acc_p;
	uint32_t cnt = *cnt_p;
	uint8_t *out = *out_p;
	const __m256i max_unit = _mm256_set1_epi64x(56);
	size_t i = 0;
	/* A group's four stores are issued one group later, after the next group's loads. A
	 * store's address is known only at the end of its group's chain (table loads, codes, bit
	 * counts); the core holds or replays younger loads behind stores whose addresses are not
	 * known, and issued at once they cost the loop a fifth of its speed (Zen 3, Calgary level
	 * 1: 1.72 -> 1.36 ns per token with the delay). Before the first group the pending stores
	 * write the pending bits at out, as the last PUT_BITS did. */
	uint64_t v0 = acc, v1 = acc, v2 = acc, v3 = acc;
	uint8_t *q0 = out, *q1 = out, *q2 = out, *q3 = out;

	for (; i + 8 <= n; i += 8) {
		__m256i c0, n0, c1, n1;
		codes4(m, tok + i, &c0, &n0);
		codes4(m, tok + i + 4, &c1, &n1);
		/* Lanes 0 and 2 of u take the pair (lane, lane + 1): the odd token's code goes
		 * above the even one's. */
		const __m256i u0 =
		    _mm256_or_si256(c0, _mm256_sllv_epi64(_mm256_srli_si256(c0, 8), n0));
		const __m256i u1 =
		    _mm256_or_si256(c1, _mm256_sllv_epi64(_mm256_srli_si256(c1, 8), n1));
		const __m256i un0 = _mm256_add_epi64(n0, _mm256_srli_si256(n0, 8));
		const __m256i un1 = _mm256_add_epi64(n1, _mm256_srli_si256(n1, 8));
		const __m256i big = _mm256_or_si256(_mm256_cmpgt_epi64(un0, max_unit),
		                                    _mm256_cmpgt_epi64(un1, max_unit));
		if (__builtin_expect(_mm256_movemask_pd(_mm256_castsi256_pd(big)) & 5, 0)) {
			/* A pair longer than 56 bits: these eight one at a time. */
			uint64_t cs[8], ns[8];
			STORE_PENDING();
			_mm256_storeu_si256((__m256i *)cs, c0);
			_mm256_storeu_si256((__m256i *)(cs + 4), c1);
			_mm256_storeu_si256((__m256i *)ns, n0);
			_mm256_storeu_si256((__m256i *)(ns + 4), n1);
			for (int k = 0; k < 8; k++)
				put_unit(&acc, &cnt, &out, cs[k], (uint32_t)ns[k]);
			q0 = q1 = q2 = q3 = out;
			v0 = v1 = v2 = v3 = acc;
			continue;
		}
		const __m128i u0h = _mm256_extracti128_si256(u0, 1);
		const __m128i u1h = _mm256_extracti128_si256(u1, 1);
		const __m128i un0h = _mm256_extracti128_si256(un0, 1);
		const __m128i un1h = _mm256_extracti128_si256(un1, 1);
		uint8_t *const o0 = out;
		const uint64_t s0 = unit_word(&acc, &cnt, &out,
		                              (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(u0)),
		                              (uint32_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(un0)));
		uint8_t *const o1 = out;
		const uint64_t s1 = unit_word(&acc, &cnt, &out, (uint64_t)_mm_cvtsi128_si64(u0h),
		                              (uint32_t)_mm_cvtsi128_si64(un0h));
		uint8_t *const o2 = out;
		const uint64_t s2 = unit_word(&acc, &cnt, &out,
		                              (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(u1)),
		                              (uint32_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(un1)));
		uint8_t *const o3 = out;
		const uint64_t s3 = unit_word(&acc, &cnt, &out, (uint64_t)_mm_cvtsi128_si64(u1h),
		                              (uint32_t)_mm_cvtsi128_si64(un1h));
		STORE_PENDING();
		q0 = o0, v0 = s0;
		q1 = o1, v1 = s1;
		q2 = o2, v2 = s2;
		q3 = o3, v3 = s3;
	}
	STORE_PENDING();
	*acc_p = acc;
	*cnt_p = cnt;
	*out_p = out;
	return i;
}

#undef STORE_PENDING
