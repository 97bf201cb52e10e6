/* The SHA-NI engines' entry (internal header for sha1_shani.c and sha256_shani.c).
 *
 * The SHA instructions have legacy SSE encodings only, and on Zen 5 they run 1.3x slower while
 * another piece of code has left the upper halves of the vector registers dirty: SHA-1 of 4 KiB
 * messages 1.39 GB/s against 1.81 after one 512-bit instruction with no vzeroupper after it
 * (isa-l_crypto's AVX-512 manager leaves that state behind, in the paired class benchmark). The
 * _shani_avx build of each file, dispatched wherever AVX is, clears that state on entry; the
 * plain _shani build serves SHA-NI CPUs without AVX (Goldmont), which have no such state. */
#ifndef STOA_HASH_X86_SHA_VZU_H
#define STOA_HASH_X86_SHA_VZU_H

#include <immintrin.h>

#if defined(SHANI_AVX)
#define SHANI_NAME(f) f##_shani_avx
#define SHANI_ENTER() _mm256_zeroupper()
#else
#define SHANI_NAME(f) f##_shani
#define SHANI_ENTER() ((void)0)
#endif

#endif
