/* What the single-stream templates with a vector schedule share (sha1_x1_tpl.h, sha256_x1_tpl.h,
 * sha512_x1_tpl.h): the byte swaps of the message words, the rotates, and the barrier that keeps
 * the rounds reading their W + K from memory. */
#ifndef STOA_HASH_X1_H
#define STOA_HASH_X1_H

#include <immintrin.h>

#include "hash_arch.h"

#define X1_INLINE static inline __attribute__((always_inline))

/* Byte swap of every 32-bit word. */
static const uint8_t x1_bswap32[16]
    __attribute__((aligned(16))) = { 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12 };
/* Byte swap of every 64-bit word. */
static const uint8_t x1_bswap64[16]
    __attribute__((aligned(16))) = { 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8 };

X1_INLINE uint32_t x1_rol(uint32_t x, int n)
{
	return x << n | x >> (32 - n);
}

X1_INLINE uint32_t x1_ror(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}

X1_INLINE __m128i x1_rol4(__m128i x, int n)
{
	return _mm_or_si128(_mm_slli_epi32(x, n), _mm_srli_epi32(x, 32 - n));
}

X1_INLINE __m128i x1_ror4(__m128i x, int n)
{
	return x1_rol4(x, 32 - n);
}

/* The 16 message bytes at p as four big-endian words. */
X1_INLINE __m128i x1_load_be(const uint8_t *p)
{
	return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p),
	                        _mm_load_si128((const __m128i *)x1_bswap32));
}

/* The rounds read each W + K from the small stack array the schedule stores it to, as one memory
 * operand of an addition: without this barrier after the stores the compilers forward the
 * stored vector to the rounds with PEXTRD, two operations a round where the load costs none
 * beside the addition. */
#define X1_FROM_MEMORY() __asm__ volatile("" : : : "memory")

#endif
