/* xor_gen, xor_check, pq_gen, pq_check and isal_zero_detect on 128-bit Advanced SIMD vectors.
 *
 * Work goes a block of eight vectors (128 bytes) at a time (two blocks for xor), its accumulators
 * in registers while every source is folded in, so each parity byte is stored once and each source byte loaded once;
 * then single vectors; the last bytes go to the portable kernels. Q follows Horner's rule from
 * the highest source down, as the portable code does: Q = (...(D_(n-1) * 2 ^ D_(n-2)) * 2 ...)
 * ^ D_0, in GF(2^8) mod 0x11D. */
#include <arm_neon.h>

#include "raid_arch.h"

#define RAID_INLINE static inline __attribute__((always_inline))
/* gcc's first scheduling pass (12, at -O2) hoists the loads of a source ahead of their use and
 * spills at the 24 live vectors of P, Q and a source's block: pq_gen and pq_check go without it.
 * (xor keeps it: the pass is what pairs its loads into LDPs.) */
#if defined(__GNUC__) && !defined(__clang__)
#define RAID_ENTRY __attribute__((optimize("no-schedule-insns")))
#else
#define RAID_ENTRY
#endif
#define RAID_BLOCK 128

/* A block: eight vectors at consecutive addresses, named members so they stay in registers (an
 * array member, as in uint8x16x4_t, sent every block through the stack with gcc 12). */
typedef struct {
	uint8x16_t v0, v1, v2, v3, v4, v5, v6, v7;
} rvb;

#define RVB_EACH(M) M(v0, 0) M(v1, 1) M(v2, 2) M(v3, 3) M(v4, 4) M(v5, 5) M(v6, 6) M(v7, 7)

RAID_INLINE const uint8_t *src_at(void *const *array, size_t i, size_t off)
{
	return (const uint8_t *)array[i] + off;
}

RAID_INLINE rvb rvb_load(const uint8_t *p)
{
	rvb r;
#define RVB_LOAD(m, i) r.m = vld1q_u8(p + 16 * (i));
	RVB_EACH(RVB_LOAD)
#undef RVB_LOAD
	return r;
}

RAID_INLINE void rvb_store(uint8_t *p, rvb v)
{
#define RVB_STORE(m, i) vst1q_u8(p + 16 * (i), v.m);
	RVB_EACH(RVB_STORE)
#undef RVB_STORE
}

RAID_INLINE rvb rvb_xor(rvb x, rvb y)
{
#define RVB_XOR(m, i) x.m = veorq_u8(x.m, y.m);
	RVB_EACH(RVB_XOR)
#undef RVB_XOR
	return x;
}

/* Each byte times 2 in GF(2^8) mod 0x11D: shifted left, 0x1D where the top bit fell out. */
RAID_INLINE uint8x16_t gf_mul2(uint8x16_t v)
{
	uint8x16_t top = vreinterpretq_u8_s8(vshrq_n_s8(vreinterpretq_s8_u8(v), 7));
	return veorq_u8(vaddq_u8(v, v), vandq_u8(top, vdupq_n_u8(0x1d)));
}

RAID_INLINE rvb rvb_mul2_xor(rvb q, rvb d)
{
#define RVB_MUL2_XOR(m, i) q.m = veorq_u8(gf_mul2(q.m), d.m);
	RVB_EACH(RVB_MUL2_XOR)
#undef RVB_MUL2_XOR
	return q;
}

RAID_INLINE int rv_nonzero(uint8x16_t v)
{
	return vmaxvq_u32(vreinterpretq_u32_u8(v)) != 0;
}

RAID_INLINE int rvb_nonzero(rvb v)
{
	uint8x16_t a = vorrq_u8(vorrq_u8(v.v0, v.v1), vorrq_u8(v.v2, v.v3));
	uint8x16_t b = vorrq_u8(vorrq_u8(v.v4, v.v5), vorrq_u8(v.v6, v.v7));
	return rv_nonzero(vorrq_u8(a, b));
}

/* XOR of buffers [0, n) over the block or the vector at off. */
RAID_INLINE rvb xor_block(size_t n, void *const *array, size_t off)
{
	rvb acc = rvb_load(src_at(array, 0, off));
	for (size_t j = 1; j < n; j++)
		acc = rvb_xor(acc, rvb_load(src_at(array, j, off)));
	return acc;
}

/* The same over the two blocks at off and off + RAID_BLOCK in one pass over the sources (xor has
 * the registers for sixteen accumulators: each source pointer is read once per 256 bytes). */
RAID_INLINE void xor_block2(size_t n, void *const *array, size_t off, rvb *lo, rvb *hi)
{
	const uint8_t *s = src_at(array, 0, off);
	rvb a = rvb_load(s), b = rvb_load(s + RAID_BLOCK);
	for (size_t j = 1; j < n; j++) {
		s = src_at(array, j, off);
		a = rvb_xor(a, rvb_load(s));
		b = rvb_xor(b, rvb_load(s + RAID_BLOCK));
	}
	*lo = a, *hi = b;
}

RAID_INLINE uint8x16_t xor_one(size_t n, void *const *array, size_t off)
{
	uint8x16_t acc = vld1q_u8(src_at(array, 0, off));
	for (size_t j = 1; j < n; j++)
		acc = veorq_u8(acc, vld1q_u8(src_at(array, j, off)));
	return acc;
}

/* P and Q of sources [0, n), n >= 2, over the block or the vector at off. The two highest
 * sources start both sums: P and Q would otherwise begin as copies of one source, a register move
 * per vector that does no work. */
RAID_INLINE void pq_block(size_t n, void *const *src, size_t off, rvb *p, rvb *q)
{
	rvb top = rvb_load(src_at(src, n - 1, off)), d = rvb_load(src_at(src, n - 2, off));
	rvb a = rvb_xor(top, d), b = rvb_mul2_xor(top, d);
	for (size_t j = n - 2; j-- > 0;) {
		d = rvb_load(src_at(src, j, off));
		a = rvb_xor(a, d);
		b = rvb_mul2_xor(b, d);
	}
	*p = a, *q = b;
}

RAID_INLINE void pq_one(size_t n, void *const *src, size_t off, uint8x16_t *p, uint8x16_t *q)
{
	uint8x16_t top = vld1q_u8(src_at(src, n - 1, off)), d = vld1q_u8(src_at(src, n - 2, off));
	uint8x16_t a = veorq_u8(top, d), b = veorq_u8(gf_mul2(top), d);
	for (size_t j = n - 2; j-- > 0;) {
		d = vld1q_u8(src_at(src, j, off));
		a = veorq_u8(a, d);
		b = veorq_u8(gf_mul2(b), d);
	}
	*p = a, *q = b;
}

int stoa_xor_gen_neon(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_XOR_GEN_MIN, len, array))
		return 1;
	size_t n = (size_t)vects - 1, l = (size_t)len, off = 0;
	uint8_t *dst = array[n];
	for (; off + 2 * RAID_BLOCK <= l; off += 2 * RAID_BLOCK) {
		rvb a, b;
		xor_block2(n, array, off, &a, &b);
		rvb_store(dst + off, a);
		rvb_store(dst + off + RAID_BLOCK, b);
	}
	for (; off + RAID_BLOCK <= l; off += RAID_BLOCK)
		rvb_store(dst + off, xor_block(n, array, off));
	for (; off + 16 <= l; off += 16)
		vst1q_u8(dst + off, xor_one(n, array, off));
	raid_xor_gen_portable(n, array, dst, off, l);
	return 0;
}

int stoa_xor_check_neon(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_XOR_CHECK_MIN, len, array))
		return 1;
	size_t n = (size_t)vects, l = (size_t)len, off = 0;
	for (; off + 2 * RAID_BLOCK <= l; off += 2 * RAID_BLOCK) {
		rvb a, b;
		xor_block2(n, array, off, &a, &b);
		if (rvb_nonzero(a) || rvb_nonzero(b))
			return 1;
	}
	for (; off + RAID_BLOCK <= l; off += RAID_BLOCK)
		if (rvb_nonzero(xor_block(n, array, off)))
			return 1;
	for (; off + 16 <= l; off += 16)
		if (rv_nonzero(xor_one(n, array, off)))
			return 1;
	return raid_xor_check_portable(n, array, off, l);
}

RAID_ENTRY int stoa_pq_gen_neon(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_PQ_MIN, len, array))
		return 1;
	size_t n = (size_t)vects - 2, l = (size_t)len, off = 0;
	uint8_t *pd = array[n], *qd = array[n + 1];
	for (; off + RAID_BLOCK <= l; off += RAID_BLOCK) {
		rvb p, q;
		pq_block(n, array, off, &p, &q);
		rvb_store(pd + off, p);
		rvb_store(qd + off, q);
	}
	for (; off + 16 <= l; off += 16) {
		uint8x16_t p, q;
		pq_one(n, array, off, &p, &q);
		vst1q_u8(pd + off, p);
		vst1q_u8(qd + off, q);
	}
	raid_pq_gen_portable(n, array, pd, qd, off, l);
	return 0;
}

RAID_ENTRY int stoa_pq_check_neon(int vects, int len, void **array)
{
	if (!raid_args_ok(vects, RAID_PQ_MIN, len, array))
		return 1;
	size_t n = (size_t)vects - 2, l = (size_t)len, off = 0;
	const uint8_t *pd = array[n], *qd = array[n + 1];
	for (; off + RAID_BLOCK <= l; off += RAID_BLOCK) {
		rvb p, q;
		pq_block(n, array, off, &p, &q);
		p = rvb_xor(p, rvb_load(pd + off));
		q = rvb_xor(q, rvb_load(qd + off));
		if (rvb_nonzero(p) || rvb_nonzero(q))
			return 1;
	}
	for (; off + 16 <= l; off += 16) {
		uint8x16_t p, q;
		pq_one(n, array, off, &p, &q);
		p = veorq_u8(p, vld1q_u8(pd + off));
		q = veorq_u8(q, vld1q_u8(qd + off));
		if (rv_nonzero(vorrq_u8(p, q)))
			return 1;
	}
	return raid_pq_check_portable(n, array, pd, qd, off, l);
}

int stoa_isal_zero_detect_neon(void *mem, size_t len)
{
	if (len == 0)
		return 0;
	if (mem == NULL)
		return 1;
	const uint8_t *m = mem;
	size_t off = 0;
	for (; off + RAID_BLOCK <= len; off += RAID_BLOCK)
		if (rvb_nonzero(rvb_load(m + off)))
			return 1;
	for (; off + 16 <= len; off += 16)
		if (rv_nonzero(vld1q_u8(m + off)))
			return 1;
	return raid_zero_detect_portable(m + off, len - off);
}
