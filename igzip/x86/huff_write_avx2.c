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

/* The table entries of tokens tok[0..3] (e: litlen, d: distance) and the tokens. */
struct entries4 {
	__m256i e, d;
	__m128i t;
};

static inline __attribute__((always_inline)) struct entries4
load_entries4(const struct merged_tables *m, const uint32_t *tok)
{
	struct entries4 r;
	r.t = _mm_loadu_si128((const __m128i *)tok);
	/* The table indexes come from scalar loads (free) through a pointer the compiler cannot
	 * see is tok, or clang takes them out of r.t with vpextrd/vpextrb, vector uops (the
	 * loop's bottleneck). */
	const uint32_t *ts = tok;
	__asm__("" : "+r"(ts));
	r.e = load4(m->ll, DEFL_TOK_LL(ts[0]), DEFL_TOK_LL(ts[1]), DEFL_TOK_LL(ts[2]),
	            DEFL_TOK_LL(ts[3]));
	/* Byte 1 of each token indexes the distance table (x86 is little-endian). */
	const uint8_t *tb = (const uint8_t *)ts;
	r.d = load4(m->d, tb[1], tb[5], tb[9], tb[13]);
	return r;
}

/* Codes and bit counts of four tokens, as token_bits gives them, one per lane. */
static inline __attribute__((always_inline)) void codes4(struct entries4 x, __m256i *code,
                                                         __m256i *nb)
{
	const __m256i e = x.e, d = x.d;
	const __m256i low6 = _mm256_set1_epi64x(63);
	const __m256i sum = _mm256_add_epi64(e, d);
	const __m256i extra = _mm256_cvtepu32_epi64(_mm_srli_epi32(x.t, 15));
	__m256i c = _mm256_sllv_epi64(_mm256_srli_epi64(d, 32), _mm256_and_si256(e, low6));
	c = _mm256_or_si256(c, _mm256_srli_epi64(e, 32));
	c = _mm256_or_si256(c, _mm256_sllv_epi64(extra, _mm256_and_si256(sum, low6)));
	*code = c;
	*nb = _mm256_and_si256(_mm256_srli_epi64(sum, 8), low6);
}

/* Append bits (nb <= 56 of them) to the accumulator and store, as PUT_BITS. */
static inline __attribute__((always_inline)) void
put_unit(uint64_t *acc, uint32_t *cnt, uint8_t **out, uint64_t bits, uint32_t nb)
{
	uint64_t a = *acc | bits << *cnt;
	uint32_t c = *cnt + nb;
	memcpy(*out, &a, 8);
	*out += c >> 3;
	*acc = a >> (c & 56);
	*cnt = c & 7;
}

static size_t write_run_avx2(const struct merged_tables *m, const uint32_t *tok, size_t n,
                             uint64_t *acc_p, uint32_t *cnt_p, uint8_t **out_p)
{
	uint64_t acc = *acc_p;
	uint32_t cnt = *cnt_p;
	uint8_t *out = *out_p;
	const __m256i max_unit = _mm256_set1_epi64x(56);
	size_t i = 0;
	struct entries4 x0 = { 0 }, x1 = x0;
	if (n >= 8) {
		x0 = load_entries4(m, tok);
		x1 = load_entries4(m, tok + 4);
	}

	for (; i + 8 <= n; i += 8) {
		__m256i c0, n0, c1, n1;
		codes4(x0, &c0, &n0);
		codes4(x1, &c1, &n1);
		/* The next group's loads come before this group's stores: a store's address is
		 * known only at the end of its group's chain (table loads, codes, bit counts), and
		 * the core holds or replays younger loads behind stores whose addresses are not
		 * known (Zen 3, gcc: 0.72x the time per token). The last group loads its own
		 * tokens again. */
		const size_t next = i + 16 <= n ? i + 8 : i;
		x0 = load_entries4(m, tok + next);
		x1 = load_entries4(m, tok + next + 4);
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
			_mm256_storeu_si256((__m256i *)cs, c0);
			_mm256_storeu_si256((__m256i *)(cs + 4), c1);
			_mm256_storeu_si256((__m256i *)ns, n0);
			_mm256_storeu_si256((__m256i *)(ns + 4), n1);
			for (int k = 0; k < 8; k++)
				put_unit(&acc, &cnt, &out, cs[k], (uint32_t)ns[k]);
			continue;
		}
		const __m128i u0h = _mm256_extracti128_si256(u0, 1);
		const __m128i u1h = _mm256_extracti128_si256(u1, 1);
		const __m128i un0h = _mm256_extracti128_si256(un0, 1);
		const __m128i un1h = _mm256_extracti128_si256(un1, 1);
		put_unit(&acc, &cnt, &out, (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(u0)),
		         (uint32_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(un0)));
		put_unit(&acc, &cnt, &out, (uint64_t)_mm_cvtsi128_si64(u0h),
		         (uint32_t)_mm_cvtsi128_si64(un0h));
		put_unit(&acc, &cnt, &out, (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(u1)),
		         (uint32_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(un1)));
		put_unit(&acc, &cnt, &out, (uint64_t)_mm_cvtsi128_si64(u1h),
		         (uint32_t)_mm_cvtsi128_si64(un1h));
	}
	*acc_p = acc;
	*cnt_p = cnt;
	*out_p = out;
	return i;
}
