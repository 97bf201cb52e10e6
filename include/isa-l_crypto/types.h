/* stoa: the small portability macros isa-l_crypto's public headers rely on.
 *
 * DECLARE_ALIGNED(decl, n) declares decl aligned to n bytes; ISAL_DEPRECATED(msg) marks the
 * older entry points the way isa-l_crypto does, so code written for it sees the same warnings.
 * Defining ISAL_UNIT_TEST before the first include turns the deprecation marks off.
 * aligned_free(p) releases what posix_memalign gave (it expands to free, so <stdlib.h> must be
 * in scope where it is used, as with isa-l_crypto's). */
#ifndef STOA_ISAL_CRYPTO_TYPES_H
#define STOA_ISAL_CRYPTO_TYPES_H

#if defined(__GNUC__) || defined(__clang__)
#define DECLARE_ALIGNED(decl, alignval) decl __attribute__((aligned(alignval)))
#elif defined(_MSC_VER)
#define DECLARE_ALIGNED(decl, alignval) __declspec(align(alignval)) decl
#else
#define DECLARE_ALIGNED(decl, alignval) decl
#endif

#if (defined(__GNUC__) || defined(__clang__)) && !defined(ISAL_UNIT_TEST)
#define ISAL_DEPRECATED(message) __attribute__((deprecated(message)))
#elif defined(_MSC_VER) && !defined(ISAL_UNIT_TEST)
#define ISAL_DEPRECATED(message) __declspec(deprecated(message))
#else
#define ISAL_DEPRECATED(message)
#endif

#define ISAL_EXPERIMENTAL(message) ISAL_DEPRECATED("Experimental: " message)

/* The release call for memory from posix_memalign (free on POSIX systems, _aligned_free for
 * _aligned_malloc on Windows): isa-l_crypto's examples and tests free their buffers with it. */
#ifdef _WIN32
#define aligned_free(x) _aligned_free(x)
#else
#define aligned_free(x) free(x)
#endif

#endif
