/* stoa: RAID parity, XOR (RAID 5) and P+Q (RAID 6), with ISA-L's names and conventions.
 *
 * Every function takes an array of `vects` pointers to buffers of `len` bytes each. The parity
 * buffers come last: for XOR the final pointer, for P+Q the last two, P then Q. Over the
 * sources D_0 .. D_(n-1) (n = vects - 1 for XOR, vects - 2 for P+Q):
 *
 *   P = D_0 ^ D_1 ^ ... ^ D_(n-1)
 *   Q = g^0 * D_0 ^ g^1 * D_1 ^ ... ^ g^(n-1) * D_(n-1)
 *
 * with products in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1 (0x11D) and g = 2, byte by byte,
 * the same bytes ISA-L writes.
 *
 * Return values: 0 for success (or, for the checks, a consistent stripe), non-zero otherwise.
 *
 * Where stoa differs from ISA-L 2.30, always by accepting a call ISA-L rejects or handles
 * badly, never the other way round for a call ISA-L documents as valid:
 *   - Any pointer alignment is accepted; ISA-L asks for 16- or 32-byte aligned buffers.
 *   - pq_gen and pq_check accept any len >= 0 and compute every byte. ISA-L's return 1 unless
 *     len is a multiple of 32 (pq_gen on AVX2 and AVX-512 machines) or of 16 (pq_check, and
 *     pq_gen on older machines).
 *   - pq_gen_base computes every byte; ISA-L's leaves the last len % 8 bytes of P and Q
 *     unwritten, though it returns 0.
 *   - A bad argument returns 1 and touches no buffer: array == NULL, a NULL buffer pointer when
 *     len > 0, len < 0, or vects below the function's minimum (listed with each function).
 *     ISA-L crashes on most of these; its _base functions return 0 for a negative len and for
 *     some too-small vects (xor_gen_base with vects 1, for one), where stoa returns 1.
 * None of these functions reads or writes outside the len bytes of each buffer. */
#ifndef STOA_ISAL_RAID_H
#define STOA_ISAL_RAID_H

#include "isal_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the XOR of array[0 .. vects-2] to array[vects-1]. vects >= 3, any len >= 0.
 * Returns 0, or 1 for a bad argument. */
int xor_gen(int vects, int len, void **array);

/* Checks that the XOR of all vects buffers is zero. vects >= 2, any len >= 0.
 * Returns 0 when it is, 1 when it is not or for a bad argument. */
int xor_check(int vects, int len, void **array);

/* Writes P to array[vects-2] and Q to array[vects-1] from the sources array[0 .. vects-3].
 * vects >= 4, any len >= 0 (ISA-L: a multiple of 32). Returns 0, or 1 for a bad argument. */
int pq_gen(int vects, int len, void **array);

/* Checks that array[vects-2] and array[vects-1] are the P and Q of the sources before them.
 * vects >= 4, any len >= 0 (ISA-L: a multiple of 16). Returns 0 when they are, 1 when they are
 * not or for a bad argument. */
int pq_check(int vects, int len, void **array);

/* The portable versions, callable on any CPU. Same results as the functions above, with ISA-L's
 * looser limits on vects and its own failure values: */

/* vects >= 2; with vects 2 the one source is copied. */
int xor_gen_base(int vects, int len, void **array);

/* vects >= 1; with vects 1 the one buffer must be all zero. On an inconsistent stripe returns
 * len (as ISA-L's does), which is non-zero. */
int xor_check_base(int vects, int len, void **array);

/* vects >= 3; with one source, P and Q are copies of it. */
int pq_gen_base(int vects, int len, void **array);

/* vects >= 3. On an inconsistent stripe returns a value built from the first byte offset i at
 * which P or Q disagrees: i | 1 when P disagrees there, else i | 2 (Q), as ISA-L's does. Either
 * is non-zero. */
int pq_check_base(int vects, int len, void **array);

#if defined(__x86_64__) || defined(__i386__)
/* ISA-L's names for one instruction set each, kept for old callers: the function of the same
 * stem limited to that set (SSE4, AVX, AVX2), never running code beyond it. */
ISAL_LIB_DEPRECATED("Please use xor_gen() instead.")
int xor_gen_sse(int vects, int len, void **array);
ISAL_LIB_DEPRECATED("Please use xor_gen() instead.")
int xor_gen_avx(int vects, int len, void **array);
ISAL_LIB_DEPRECATED("Please use xor_check() instead.")
int xor_check_sse(int vects, int len, void **array);
ISAL_LIB_DEPRECATED("Please use pq_gen() instead.")
int pq_gen_sse(int vects, int len, void **array);
ISAL_LIB_DEPRECATED("Please use pq_gen() instead.")
int pq_gen_avx(int vects, int len, void **array);
ISAL_LIB_DEPRECATED("Please use pq_gen() instead.")
int pq_gen_avx2(int vects, int len, void **array);
ISAL_LIB_DEPRECATED("Please use pq_check() instead.")
int pq_check_sse(int vects, int len, void **array);
#endif

#ifdef __cplusplus
}
#endif

#endif
