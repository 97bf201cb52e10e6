/* The Huffman block decoder built for AVX2 + BMI1/BMI2: bzhi/shrx for the bit reader, and short
 * match periods expanded with one pshufb. Match steps stay at 16 bytes: measured on Calgary,
 * 32-byte loads stalled more often on recent narrow stores than they saved. */
#include <immintrin.h>

#include "inflate_arch.h"

/* Row d (1..15): byte i of a 16-byte window repeats byte i mod d of the pattern. */
static const uint8_t period_shuffle[16][16] __attribute__((aligned(16))) = {
#define ROW(d)                                                                                     \
	{                                                                                          \
		0 % d, 1 % d, 2 % d, 3 % d, 4 % d, 5 % d, 6 % d, 7 % d, 8 % d, 9 % d, 10 % d,      \
		    11 % d, 12 % d, 13 % d, 14 % d, 15 % d                                         \
	}
	{ 0 },  ROW(1), ROW(2),  ROW(3),  ROW(4),  ROW(5),  ROW(6),  ROW(7),
	ROW(8), ROW(9), ROW(10), ROW(11), ROW(12), ROW(13), ROW(14), ROW(15),
#undef ROW
};

static inline __attribute__((always_inline)) void copy_short_avx2(uint8_t *out, const uint8_t *src,
                                                                  uint8_t *end, uint32_t dist)
{
	/* The 16 bytes at src hold the period in their first dist bytes (the rest may be output
	 * not yet written: the fast loop's margin keeps the load inside the buffer). */
	__m128i head = _mm_loadu_si128((const __m128i *)(const void *)src);
	__m128i pat = _mm_shuffle_epi8(
	    head, _mm_load_si128((const __m128i *)(const void *)period_shuffle[dist]));
	unsigned step = inf_period_step[dist];
	do {
		_mm_storeu_si128((__m128i *)(void *)out, pat);
		out += step;
	} while (out < end);
}

/* The rest of a long match from at least 32 bytes back, 32 bytes a step, in inline assembly: a
 * 256-bit intrinsic in the decoder makes gcc realign its stack, which takes the frame pointer's
 * register from the loop (out_begin goes to the stack), and a call to a function apart cost pic
 * and ptt5 2-3%. vzeroupper at the end, as the compiler puts before a return, so that legacy SSE
 * code after it runs clean. */
static inline __attribute__((always_inline)) void copy_wide_avx2(uint8_t *out, const uint8_t *src,
                                                                 const uint8_t *end)
{
	__asm__ volatile("1:\n\t"
	                 "vmovdqu (%1), %%ymm15\n\t"
	                 "vmovdqu %%ymm15, (%0)\n\t"
	                 "add $32, %0\n\t"
	                 "add $32, %1\n\t"
	                 "cmp %2, %0\n\t"
	                 "jb 1b\n\t"
	                 "vzeroupper"
	                 : "+r"(out), "+r"(src)
	                 : "r"(end)
	                 : "xmm15", "cc", "memory");
}

/* The table builder's doubling copy in 32-byte steps: twice what the portable loop's 16-byte
 * moves copy a store, and the 12-bit litlen root's doublings copy 16 KiB a block (Calgary's
 * headers at stoa -9 built 5% faster). */
void inf_table_double_avx2(uint32_t *t, uint32_t n)
{
	for (uint32_t i = 0; i < n; i += 16) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(t + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(t + i + 8));
		_mm256_storeu_si256((__m256i *)(void *)(t + n + i), a);
		_mm256_storeu_si256((__m256i *)(void *)(t + n + i + 8), b);
	}
}

#define INF_FN    inflate_huff_avx2
#define INF_CHUNK 16
#define INF_COPY_CHUNK(dst, src)                                                                   \
	_mm_storeu_si128((__m128i *)(void *)(dst),                                                 \
	                 _mm_loadu_si128((const __m128i *)(const void *)(src)))
#define INF_COPY_2CHUNKS(dst, src)                                                                 \
	do {                                                                                       \
		__m128i c2a_ = _mm_loadu_si128((const __m128i *)(const void *)(src));              \
		__m128i c2b_ = _mm_loadu_si128((const __m128i *)(const void *)((src) + 16));       \
		_mm_storeu_si128((__m128i *)(void *)(dst), c2a_);                                  \
		_mm_storeu_si128((__m128i *)(void *)((dst) + 16), c2b_);                           \
	} while (0)
#define INF_COPY_WIDE(dst, src, end) copy_wide_avx2(dst, src, end)
#define INF_COPY_SHORT(out, src, end, dist) copy_short_avx2(out, src, end, dist)
#define INF_EXTRA(e, sb)                    ((uint32_t)(_bzhi_u64((sb), (e)&63) >> (((e) >> 8) & 15)))
/* For a distance entry (bits 6-7 and 12-13 zero once it is known valid) or a match entry (the
 * same bits zero) bzhi and shrx can take the entry's fields without masking: they read only
 * index bits 0-7 and count bits 0-5. */
#define INF_DEXTRA(d, sb) ((uint32_t)(_bzhi_u64((sb), (d)) >> (((d) >> 8) & 63)))
#include "../inflate_tpl.h"
