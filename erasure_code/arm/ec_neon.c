/* Erasure-code kernels on 128-bit Advanced SIMD vectors: every product by two TBL lookups in the
 * portable 32-byte table of its coefficient (c * i for the low nibble i, c * (i << 4) for the
 * high one; ec_internal.h), the layout every variant reads.
 *
 * The unit of work is a block: C vectors (64 or 128 bytes) at one offset of each of the R rows of a
 * pass, accumulated in registers while every source is folded in, then stored once. R is a
 * compile-time constant in each instance (1 to EC_RMAX); a call splits its rows into passes of
 * at most EC_RMAX. A pass with one source (ec_encode_data_update, gf_vect_mad, gf_vect_mul) holds
 * its tables in registers for the whole call. Lengths end with single vectors, then the portable
 * kernel for the last bytes. */
#include <arm_neon.h>

#include "ec_arch.h"
#include "ec_entries.h"

#define EC_INLINE static inline __attribute__((always_inline))
/* Rows per pass: four rows of four vectors are 16 accumulators, beside a source's 8 nibble
 * vectors and one row's 2 table halves in the 32 registers. */
#define EC_RMAX 4

/* The low and the high nibbles of a source vector, the TBL indices. */
typedef struct {
	uint8x16_t lo, hi;
} ec_src;

EC_INLINE ec_src ec_prep(uint8x16_t x)
{
	return (ec_src){ vandq_u8(x, vdupq_n_u8(0x0f)), vshrq_n_u8(x, 4) };
}

/* c * x for the coefficient whose table halves are lo and hi. */
EC_INLINE uint8x16_t ec_mul(uint8x16_t lo, uint8x16_t hi, ec_src x)
{
	return veorq_u8(vqtbl1q_u8(lo, x.lo), vqtbl1q_u8(hi, x.hi));
}

/* Rows 0..3 and vectors 0..7 by name: the accumulators and tables are named locals, not arrays,
 * which gcc 12 kept on the stack when a loop over the rows indexed them. A row at or past R and a
 * vector at or past C are dead code. */
#define EC_ROWS(M) M(0) M(1) M(2) M(3)
#define EC_VECS(M, r) M(r, 0) M(r, 1) M(r, 2) M(r, 3) M(r, 4) M(r, 5) M(r, 6) M(r, 7)
#define EC_ALL(M)                                                                                  \
	EC_VECS(M, 0) EC_VECS(M, 1) EC_VECS(M, 2) EC_VECS(M, 3)

/* The row pointers in registers: every store through a uint8_t pointer may alias dst[], which gcc
 * would otherwise read again before each store. */
#define EC_DST(r) uint8_t *const d##r = (r) < R ? dst[r] : NULL;

/* acc(r, v) of a block takes the product p: the first source starts it (from dst when
 * accumulating), the others add to it. */
#define EC_TAKE(r, v, p)                                                                           \
	if (!first)                                                                                \
		acc##r##_##v = veorq_u8(acc##r##_##v, p);                                          \
	else if (accumulate)                                                                       \
		acc##r##_##v = veorq_u8(vld1q_u8(d##r + off + 16 * (v)), p);                       \
	else                                                                                       \
		acc##r##_##v = (p);

/*
 * Rows [0, R) of dst over [off, end) from k sources: dst[r] = (accumulate ? dst[r] : 0) ^ sum
 * over j of c(r, j) * src[j], c(r, j) the table at tbls + r * rstride + j * jstride. Whole
 * 16-byte vectors only; returns where it stopped.
 *
 * A block is C vectors of each of the R rows, held in R * C accumulators while every source is
 * folded in. One or two rows: eight vectors, each source vector prepared and multiplied by the R
 * table pairs held for the source (16 accumulators, 4 table and 2 nibble registers). Three or
 * four rows: four vectors, the source's four prepared first, then one row's table pair at a time
 * (16 accumulators, 8 nibble and 2 table registers).
 */
EC_INLINE size_t ec_span(const int R, size_t k, const uint8_t *const *src, size_t off, size_t end,
			 const uint8_t *tbls, size_t rstride, size_t jstride, uint8_t *const *dst,
			 int accumulate)
{
	const int C = R <= 2 ? 8 : 4;
	EC_ROWS(EC_DST)
	for (; off + 16 * C <= end; off += 16 * C) {
#define EC_DECL(r, v) uint8x16_t acc##r##_##v = vdupq_n_u8(0);
		EC_ALL(EC_DECL)
#undef EC_DECL
/* Vectors v and w (= v + 1) of the source, loaded together (one LDP), into rows 0 and (R == 2)
 * 1. */
#define EC_VEC8(v, w)                                                                              \
	{                                                                                          \
		uint8x16_t in0 = vld1q_u8(s + 16 * (v)), in1 = vld1q_u8(s + 16 * (w));             \
		ec_src x = ec_prep(in0);                                                           \
		EC_TAKE(0, v, ec_mul(tl0, th0, x))                                                 \
		if (R == 2) {                                                                      \
			EC_TAKE(1, v, ec_mul(tl1, th1, x))                                         \
		}                                                                                  \
		x = ec_prep(in1);                                                                  \
		EC_TAKE(0, w, ec_mul(tl0, th0, x))                                                 \
		if (R == 2) {                                                                      \
			EC_TAKE(1, w, ec_mul(tl1, th1, x))                                         \
		}                                                                                  \
	}
#define EC_VEC4(r, v) EC_TAKE(r, v, ec_mul(tl, th, x##v))
#define EC_ROW4(r)                                                                                 \
	if ((r) < R) {                                                                             \
		uint8x16x2_t t = vld1q_u8_x2(tj + (r) * rstride);                                  \
		uint8x16_t tl = t.val[0], th = t.val[1];                                           \
		EC_VEC4(r, 0) EC_VEC4(r, 1) EC_VEC4(r, 2) EC_VEC4(r, 3)                            \
	}
/* One source j into the block; "first" is a constant in each copy. */
#define EC_SOURCE_BODY                                                                             \
	const uint8_t *s = src[j] + off, *tj = tbls + j * jstride;                                 \
	if (C == 8) {                                                                              \
		uint8x16x2_t t0 = vld1q_u8_x2(tj), t1 = t0;                                        \
		if (R == 2)                                                                        \
			t1 = vld1q_u8_x2(tj + rstride);                                            \
		uint8x16_t tl0 = t0.val[0], th0 = t0.val[1], tl1 = t1.val[0], th1 = t1.val[1];     \
		EC_VEC8(0, 1) EC_VEC8(2, 3) EC_VEC8(4, 5) EC_VEC8(6, 7)                            \
	} else {                                                                                   \
		ec_src x0 = ec_prep(vld1q_u8(s)), x1 = ec_prep(vld1q_u8(s + 16));                  \
		ec_src x2 = ec_prep(vld1q_u8(s + 32)), x3 = ec_prep(vld1q_u8(s + 48));             \
		EC_ROWS(EC_ROW4)                                                                   \
	}
		{
			const size_t j = 0;
			const int first = 1;
			EC_SOURCE_BODY
		}
		for (size_t j = 1; j < k; j++) {
			const int first = 0;
			EC_SOURCE_BODY
		}
#undef EC_SOURCE_BODY
#undef EC_VEC8
#undef EC_VEC4
#undef EC_ROW4
#define EC_STORE(r, v)                                                                             \
	if ((r) < R && (v) < C)                                                                    \
		vst1q_u8(d##r + off + 16 * (v), acc##r##_##v);
		EC_ALL(EC_STORE)
#undef EC_STORE
	}
	for (; off + 16 <= end; off += 16) {
#define EC_ZERO(r) uint8x16_t a##r = (r) < R && accumulate ? vld1q_u8(d##r + off) : vdupq_n_u8(0);
		EC_ROWS(EC_ZERO)
#undef EC_ZERO
		for (size_t j = 0; j < k; j++) {
			ec_src x = ec_prep(vld1q_u8(src[j] + off));
			const uint8_t *tj = tbls + j * jstride;
#define EC_MAC1(r)                                                                                 \
	if ((r) < R) {                                                                             \
		const uint8_t *t = tj + (r) * rstride;                                             \
		a##r = veorq_u8(a##r, ec_mul(vld1q_u8(t), vld1q_u8(t + 16), x));                   \
	}
			EC_ROWS(EC_MAC1)
#undef EC_MAC1
		}
#define EC_STORE1(r)                                                                               \
	if ((r) < R)                                                                               \
		vst1q_u8(d##r + off, a##r);
		EC_ROWS(EC_STORE1)
#undef EC_STORE1
	}
	return off;
}

/* One source: its R tables stay in registers; four vectors (64 bytes) a step. */
EC_INLINE size_t ec_span1(const int R, const uint8_t *src, size_t off, size_t end,
			  const uint8_t *tbls, size_t rstride, uint8_t *const *dst, int accumulate)
{
#define EC_TABLE(r)                                                                                \
	uint8x16_t tl##r = vdupq_n_u8(0), th##r = tl##r;                                           \
	if ((r) < R) {                                                                             \
		tl##r = vld1q_u8(tbls + (r) * rstride);                                            \
		th##r = vld1q_u8(tbls + (r) * rstride + 16);                                       \
	}
	EC_ROWS(EC_TABLE)
#undef EC_TABLE
	EC_ROWS(EC_DST)
	for (; off + 64 <= end; off += 64) {
		const uint8_t *s = src + off;
		ec_src x0 = ec_prep(vld1q_u8(s)), x1 = ec_prep(vld1q_u8(s + 16));
		ec_src x2 = ec_prep(vld1q_u8(s + 32)), x3 = ec_prep(vld1q_u8(s + 48));
#define EC_ROW4(r)                                                                                 \
	if ((r) < R) {                                                                             \
		uint8_t *d = d##r + off;                                                           \
		uint8x16_t p0 = ec_mul(tl##r, th##r, x0), p1 = ec_mul(tl##r, th##r, x1);           \
		uint8x16_t p2 = ec_mul(tl##r, th##r, x2), p3 = ec_mul(tl##r, th##r, x3);           \
		if (accumulate) {                                                                  \
			p0 = veorq_u8(p0, vld1q_u8(d));                                            \
			p1 = veorq_u8(p1, vld1q_u8(d + 16));                                       \
			p2 = veorq_u8(p2, vld1q_u8(d + 32));                                       \
			p3 = veorq_u8(p3, vld1q_u8(d + 48));                                       \
		}                                                                                  \
		vst1q_u8(d, p0);                                                                   \
		vst1q_u8(d + 16, p1);                                                              \
		vst1q_u8(d + 32, p2);                                                              \
		vst1q_u8(d + 48, p3);                                                              \
	}
		EC_ROWS(EC_ROW4)
#undef EC_ROW4
	}
	for (; off + 16 <= end; off += 16) {
		ec_src x = ec_prep(vld1q_u8(src + off));
#define EC_ROW1(r)                                                                                 \
	if ((r) < R) {                                                                             \
		uint8x16_t p = ec_mul(tl##r, th##r, x);                                            \
		if (accumulate)                                                                    \
			p = veorq_u8(p, vld1q_u8(d##r + off));                                     \
		vst1q_u8(d##r + off, p);                                                         \
	}
		EC_ROWS(EC_ROW1)
#undef EC_ROW1
	}
	return off;
}

/* One pass of R rows (a constant in each case), then the last bytes by the portable kernel. */
#define EC_PASS(R)                                                                                 \
	(k == 1 ? ec_span1(R, src[0], 0, len, tbls, rstride, dst, accumulate)                      \
		: ec_span(R, k, src, 0, len, tbls, rstride, jstride, dst, accumulate))

/* gcc's first scheduling pass (12, at -O2) hoists every table load of a source ahead of its use
 * and spills accumulators to the stack at four rows; without it the loop keeps them in
 * registers. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-schedule-insns")))
#endif
void ec_run_neon(size_t len, size_t k, size_t rows, const uint8_t *tbls, size_t rstride,
		 size_t jstride, const uint8_t *const *src, uint8_t *const *dst, int accumulate)
{
	for (size_t r0 = 0; r0 < rows; r0 += EC_RMAX, tbls += EC_RMAX * rstride, dst += EC_RMAX) {
		size_t R = rows - r0 < EC_RMAX ? rows - r0 : EC_RMAX, off;
		switch (R) {
		case 1:
			off = EC_PASS(1);
			break;
		case 2:
			off = EC_PASS(2);
			break;
		case 3:
			off = EC_PASS(3);
			break;
		default:
			off = EC_PASS(4);
			break;
		}
		if (off < len)
			ec_portable(off, len - off, k, R, tbls, rstride, jstride, src, dst,
				    accumulate);
	}
}

EC_ARM_ENTRIES(neon)
