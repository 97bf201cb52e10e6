/* Portable RAID kernels: 64-bit words, every source folded into a block of four words (of P and
 * of Q) before the block is stored, so each parity word is written once. Any architecture, any
 * alignment. */
#include <string.h>

#include "isa-l/mem_routines.h"
#include "isa-l/raid.h"
#include "raid_internal.h"

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void store64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static inline const uint8_t *buf(void *const *array, size_t i)
{
	return (const uint8_t *)array[i];
}

/* Multiply each of the eight bytes by 2 in GF(2^8) mod 0x11D: shift left within the byte, and
 * fold a bit shifted out of the top back in as 0x1D. The per-byte product (0 or 1) * 0x1D fits
 * in its byte, so the multiplication carries nothing into the next byte. */
static inline uint64_t gf_mul2_x8(uint64_t v)
{
	uint64_t top = (v >> 7) & 0x0101010101010101ull;
	return ((v & 0x7f7f7f7f7f7f7f7full) << 1) ^ (top * 0x1d);
}

static inline uint8_t gf_mul2(uint8_t v)
{
	return (uint8_t)((v << 1) ^ ((v & 0x80) ? 0x1d : 0));
}

void raid_xor_gen_portable(size_t n, void *const *src, uint8_t *dst, size_t off, size_t len)
{
	for (; off + 32 <= len; off += 32) {
		const uint8_t *s = buf(src, 0) + off;
		uint64_t a0 = load64(s), a1 = load64(s + 8);
		uint64_t a2 = load64(s + 16), a3 = load64(s + 24);
		for (size_t j = 1; j < n; j++) {
			s = buf(src, j) + off;
			a0 ^= load64(s);
			a1 ^= load64(s + 8);
			a2 ^= load64(s + 16);
			a3 ^= load64(s + 24);
		}
		store64(dst + off, a0);
		store64(dst + off + 8, a1);
		store64(dst + off + 16, a2);
		store64(dst + off + 24, a3);
	}
	for (; off < len; off++) {
		uint8_t a = buf(src, 0)[off];
		for (size_t j = 1; j < n; j++)
			a ^= buf(src, j)[off];
		dst[off] = a;
	}
}

int raid_xor_check_portable(size_t n, void *const *vec, size_t off, size_t len)
{
	for (; off + 32 <= len; off += 32) {
		const uint8_t *s = buf(vec, 0) + off;
		uint64_t a0 = load64(s), a1 = load64(s + 8);
		uint64_t a2 = load64(s + 16), a3 = load64(s + 24);
		for (size_t j = 1; j < n; j++) {
			s = buf(vec, j) + off;
			a0 ^= load64(s);
			a1 ^= load64(s + 8);
			a2 ^= load64(s + 16);
			a3 ^= load64(s + 24);
		}
		if (a0 | a1 | a2 | a3)
			return 1;
	}
	for (; off < len; off++) {
		uint8_t a = buf(vec, 0)[off];
		for (size_t j = 1; j < n; j++)
			a ^= buf(vec, j)[off];
		if (a)
			return 1;
	}
	return 0;
}

/* P and Q of the 32 bytes at off into p and q: Horner's rule from the highest source down,
 * Q = (...(D_(n-1) * 2 ^ D_(n-2)) * 2 ...) ^ D_0. Four independent words keep the multiply
 * chains overlapping. */
static void pq_words(size_t n, void *const *src, size_t off, uint64_t p[4], uint64_t q[4])
{
	const uint8_t *s = buf(src, n - 1) + off;
	uint64_t p0 = load64(s), p1 = load64(s + 8), p2 = load64(s + 16);
	uint64_t p3 = load64(s + 24);
	uint64_t q0 = p0, q1 = p1, q2 = p2, q3 = p3;
	for (size_t j = n - 1; j-- > 0;) {
		s = buf(src, j) + off;
		uint64_t d0 = load64(s), d1 = load64(s + 8);
		uint64_t d2 = load64(s + 16), d3 = load64(s + 24);
		p0 ^= d0, p1 ^= d1, p2 ^= d2, p3 ^= d3;
		q0 = gf_mul2_x8(q0) ^ d0;
		q1 = gf_mul2_x8(q1) ^ d1;
		q2 = gf_mul2_x8(q2) ^ d2;
		q3 = gf_mul2_x8(q3) ^ d3;
	}
	p[0] = p0, p[1] = p1, p[2] = p2, p[3] = p3;
	q[0] = q0, q[1] = q1, q[2] = q2, q[3] = q3;
}

static void pq_byte(size_t n, void *const *src, size_t off, uint8_t *p, uint8_t *q)
{
	uint8_t a = buf(src, n - 1)[off], b = a;
	for (size_t j = n - 1; j-- > 0;) {
		uint8_t d = buf(src, j)[off];
		a ^= d;
		b = gf_mul2(b) ^ d;
	}
	*p = a, *q = b;
}

void raid_pq_gen_portable(size_t n, void *const *src, uint8_t *p, uint8_t *q, size_t off,
			  size_t len)
{
	for (; off + 32 <= len; off += 32) {
		uint64_t pw[4], qw[4];
		pq_words(n, src, off, pw, qw);
		for (int k = 0; k < 4; k++) {
			store64(p + off + 8 * k, pw[k]);
			store64(q + off + 8 * k, qw[k]);
		}
	}
	for (; off < len; off++)
		pq_byte(n, src, off, p + off, q + off);
}

int raid_pq_check_portable(size_t n, void *const *src, const uint8_t *p, const uint8_t *q,
			   size_t off, size_t len)
{
	for (; off + 32 <= len; off += 32) {
		uint64_t pw[4], qw[4], diff = 0;
		pq_words(n, src, off, pw, qw);
		for (int k = 0; k < 4; k++) {
			diff |= pw[k] ^ load64(p + off + 8 * k);
			diff |= qw[k] ^ load64(q + off + 8 * k);
		}
		if (diff)
			return 1;
	}
	for (; off < len; off++) {
		uint8_t a, b;
		pq_byte(n, src, off, &a, &b);
		if (a != p[off] || b != q[off])
			return 1;
	}
	return 0;
}

int raid_zero_detect_portable(const uint8_t *mem, size_t len)
{
	size_t off = 0;
	for (; off + 32 <= len; off += 32)
		if (load64(mem + off) | load64(mem + off + 8) | load64(mem + off + 16) |
		    load64(mem + off + 24))
			return 1;
	/* Under 32 bytes left: whole words, then the buffer's last word again (overlapping bytes
	 * already seen as zero) rather than a byte loop (16-byte buffers through the AVX2 variant:
	 * 0.55x ISA-L 2.30's speed with the byte loop). */
	if (len >= 8) {
		uint64_t any = load64(mem + len - 8);
		for (; off + 8 <= len; off += 8)
			any |= load64(mem + off);
		return any != 0;
	}
	for (; off < len; off++)
		if (mem[off])
			return 1;
	return 0;
}

/* The base entries of the dispatch tables: the dispatched API's limits. */

int xor_gen_portable(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_XOR_GEN_MIN, len, array))
		return 1;
	raid_xor_gen_portable((size_t)vects - 1, array, array[vects - 1], 0, (size_t)len);
	return 0;
}

int xor_check_portable(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_XOR_CHECK_MIN, len, array))
		return 1;
	return raid_xor_check_portable((size_t)vects, array, 0, (size_t)len);
}

int pq_gen_portable(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_PQ_MIN, len, array))
		return 1;
	raid_pq_gen_portable((size_t)vects - 2, array, array[vects - 2], array[vects - 1], 0,
			     (size_t)len);
	return 0;
}

int pq_check_portable(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_PQ_MIN, len, array))
		return 1;
	return raid_pq_check_portable((size_t)vects - 2, array, array[vects - 2], array[vects - 1],
				      0, (size_t)len);
}

int isal_zero_detect_portable(void *mem, size_t len)
{
	if (len == 0)
		return 0;
	if (mem == NULL)
		return 1;
	return raid_zero_detect_portable(mem, len);
}

/* ISA-L's exported _base functions: its smaller minimum vects and its failure values. */

/* ISA-L exports its portable zero check under this name (no header declares it). */
int mem_zero_detect_base(void *mem, size_t len);
STOA_API int mem_zero_detect_base(void *mem, size_t len)
{
	return isal_zero_detect_portable(mem, len);
}

STOA_API int xor_gen_base(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_XOR_GEN_BASE_MIN, len, array))
		return 1;
	raid_xor_gen_portable((size_t)vects - 1, array, array[vects - 1], 0, (size_t)len);
	return 0;
}

STOA_API int xor_check_base(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_XOR_CHECK_BASE_MIN, len, array))
		return 1;
	return raid_xor_check_portable((size_t)vects, array, 0, (size_t)len) ? len : 0;
}

STOA_API int pq_gen_base(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_PQ_BASE_MIN, len, array))
		return 1;
	raid_pq_gen_portable((size_t)vects - 2, array, array[vects - 2], array[vects - 1], 0,
			     (size_t)len);
	return 0;
}

STOA_API int pq_check_base(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_PQ_BASE_MIN, len, array))
		return 1;
	size_t n = (size_t)vects - 2;
	const uint8_t *p = array[vects - 2], *q = array[vects - 1];
	if (!raid_pq_check_portable(n, array, p, q, 0, (size_t)len))
		return 0;
	/* Inconsistent: the value names the first bad byte, which only a byte scan finds. */
	for (int i = 0; i < len; i++) {
		uint8_t a, b;
		pq_byte(n, array, (size_t)i, &a, &b);
		if (a != p[i])
			return i | 1;
		if (b != q[i])
			return i | 2;
	}
	return 1; /* not reached: the word check saw a difference */
}
