/* Adler-32 with AVX2: 32-byte blocks (adler32_tpl.h). */
#include <immintrin.h>
#include <stdint.h>

#define ADLER_FN      adler32_avx2
#define ADLER_W       32
#define ADLER_LOG_W   5
#define ADLER_VEC     __m256i
#define ADLER_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define ADLER_ZERO    _mm256_setzero_si256()
#define ADLER_ONES16  _mm256_set1_epi16(1)
#define ADLER_WEIGHTS                                                                              \
	_mm256_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15,   \
	                 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define ADLER_ADD32    _mm256_add_epi32
#define ADLER_SAD      _mm256_sad_epu8
#define ADLER_MADDUBS  _mm256_maddubs_epi16
#define ADLER_MADD16   _mm256_madd_epi16
#define ADLER_SLLI32   _mm256_slli_epi32
#define ADLER_SUM32(v) adler_sum256(v)
#define ADLER_KEEP
#include "adler32_tpl.h"
#define ADLER_FN          adler32_copy_avx2
#define ADLER_STORE(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#include "adler32_tpl.h"
