/* Erasure-code kernels on 128-bit Advanced SIMD vectors: every product by two TBL lookups in the
 * portable 32-byte table of its coefficient (c * i for the low nibble i, c * (i << 4) for the
 * high one; ec_internal.h), the layout every variant reads.
 *
 * The unit of work is a block: C vectors (48 or 64 bytes) at one offset of each of the R rows of a
 * pass, accumulated in registers while every source is folded in, then stored once. R is a
 * compile-time constant in each instance (1 to EC_RMAX); a call splits its rows into passes of
 * at most EC_RMAX. A pass with one source (ec_encode_data_update, gf_vect_mad, gf_vect_mul) holds
 * its tables in registers for the whole call. Lengths end with single vectors, then the portable
 * kernel for the last bytes. */
#include <arm_neon.h>

#include "ec_arch.h"

#define EC_INLINE static inline __attribute__((always_inline))
/* Rows per pass: four rows of three vectors are 12 accumulators, beside a source's 8 table halves
 * and 6 nibble vectors in the 32 registers. */
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

/* Rows 0..3 by name: the accumulators and tables are named locals, not arrays, which gcc 12 kept
 * on the stack when a loop over the rows indexed them. A row at or past R is dead code. */
#define EC_ROWS(M) M(0) M(1) M(2) M(3)

/*
 * Rows [0, R) of dst over [off, end) from k sources: dst[r] = (accumulate ? dst[r] : 0) ^ sum
 * over j of c(r, j) * src[j], c(r, j) the table at tbls + r * rstride + j * jstride. Whole
 * 16-byte vectors only; returns where it stopped.
 */
EC_INLINE size_t ec_span(const int R, size_t k, const uint8_t *const *src, size_t off, size_t end,
			 const uint8_t *tbls, size_t rstride, size_t jstride, uint8_t *const *dst,
			 int accumulate)
{
	/* Four vectors a row while R <= 2; at three and four rows, three (four spilled). */
	const int C = R <= 2 ? 4 : 3;
	for (; off + 16 * C <= end; off += 16 * C) {
		const uint8_t *s = src[0] + off;
		ec_src x0 = ec_prep(vld1q_u8(s)), x1 = ec_prep(vld1q_u8(s + 16));
		ec_src x2 = ec_prep(vld1q_u8(s + 32)), x3 = x2;
		if (C == 4)
			x3 = ec_prep(vld1q_u8(s + 48));
#define EC_FIRST(r)                                                                                \
	uint8x16_t a##r = vdupq_n_u8(0), b##r = a##r, c##r = a##r, d##r = a##r;                   \
	if ((r) < R) {                                                                             \
		const uint8_t *t = tbls + (r) * rstride;                                           \
		uint8x16_t tl = vld1q_u8(t), th = vld1q_u8(t + 16);                                \
		a##r = ec_mul(tl, th, x0);                                                         \
		b##r = ec_mul(tl, th, x1);                                                         \
		c##r = ec_mul(tl, th, x2);                                                         \
		d##r = C == 4 ? ec_mul(tl, th, x3) : d##r;                                         \
		if (accumulate) {                                                                  \
			const uint8_t *o = dst[r] + off;                                           \
			a##r = veorq_u8(a##r, vld1q_u8(o));                                        \
			b##r = veorq_u8(b##r, vld1q_u8(o + 16));                                   \
			c##r = veorq_u8(c##r, vld1q_u8(o + 32));                                   \
			if (C == 4)                                                                \
				d##r = veorq_u8(d##r, vld1q_u8(o + 48));                           \
		}                                                                                  \
	}
		EC_ROWS(EC_FIRST)
#undef EC_FIRST
		for (size_t j = 1; j < k; j++) {
			s = src[j] + off;
			const uint8_t *tj = tbls + j * jstride;
#define EC_TBL_LOAD(r)                                                                             \
	uint8x16_t tl##r = vdupq_n_u8(0), th##r = tl##r;                                           \
	if ((r) < R) {                                                                             \
		tl##r = vld1q_u8(tj + (r) * rstride);                                              \
		th##r = vld1q_u8(tj + (r) * rstride + 16);                                         \
	}
			EC_ROWS(EC_TBL_LOAD)
#undef EC_TBL_LOAD
#define EC_MAC(r, acc, x)                                                                          \
	if ((r) < R)                                                                               \
		acc##r = veorq_u8(acc##r, ec_mul(tl##r, th##r, x));
#define EC_MAC_VEC(acc, i)                                                                         \
	x0 = ec_prep(vld1q_u8(s + 16 * (i)));                                                      \
	EC_MAC(0, acc, x0) EC_MAC(1, acc, x0) EC_MAC(2, acc, x0) EC_MAC(3, acc, x0)
			EC_MAC_VEC(a, 0)
			EC_MAC_VEC(b, 1)
			EC_MAC_VEC(c, 2)
			if (C == 4) {
				EC_MAC_VEC(d, 3)
			}
#undef EC_MAC_VEC
#undef EC_MAC
		}
#define EC_STORE(r)                                                                                \
	if ((r) < R) {                                                                             \
		uint8_t *o = dst[r] + off;                                                         \
		vst1q_u8(o, a##r);                                                                 \
		vst1q_u8(o + 16, b##r);                                                            \
		vst1q_u8(o + 32, c##r);                                                            \
		if (C == 4)                                                                        \
			vst1q_u8(o + 48, d##r);                                                    \
	}
		EC_ROWS(EC_STORE)
#undef EC_STORE
	}
	for (; off + 16 <= end; off += 16) {
#define EC_ZERO(r) uint8x16_t a##r = (r) < R && accumulate ? vld1q_u8(dst[r] + off) : vdupq_n_u8(0);
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
		vst1q_u8(dst[r] + off, a##r);
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
	for (; off + 64 <= end; off += 64) {
		const uint8_t *s = src + off;
		ec_src x0 = ec_prep(vld1q_u8(s)), x1 = ec_prep(vld1q_u8(s + 16));
		ec_src x2 = ec_prep(vld1q_u8(s + 32)), x3 = ec_prep(vld1q_u8(s + 48));
#define EC_ROW4(r)                                                                                 \
	if ((r) < R) {                                                                             \
		uint8_t *d = dst[r] + off;                                                         \
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
			p = veorq_u8(p, vld1q_u8(dst[r] + off));                                   \
		vst1q_u8(dst[r] + off, p);                                                         \
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

static void ec_run(size_t len, size_t k, size_t rows, const uint8_t *tbls, size_t rstride,
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

void stoa_ec_encode_data_neon(int len, int k, int rows, unsigned char *gftbls,
			      unsigned char **data, unsigned char **coding)
{
	if (!ec_encode_args_ok(len, k, rows, gftbls, data, coding))
		return;
	ec_run((size_t)len, (size_t)k, (size_t)rows, gftbls, (size_t)k * EC_TBL, EC_TBL,
	       (const uint8_t *const *)data, coding, 0);
}

void stoa_ec_encode_data_update_neon(int len, int k, int rows, int vec_i, unsigned char *g_tbls,
				     unsigned char *data, unsigned char **coding)
{
	if (!ec_update_args_ok(len, k, rows, vec_i, g_tbls, data, coding))
		return;
	const uint8_t *src[1] = { data };
	ec_run((size_t)len, 1, (size_t)rows, g_tbls + (size_t)vec_i * EC_TBL, (size_t)k * EC_TBL,
	       EC_TBL, src, coding, 1);
}

void stoa_gf_vect_dot_prod_neon(int len, int vlen, unsigned char *gftbls, unsigned char **src,
				unsigned char *dest)
{
	if (!ec_encode_args_ok(len, vlen, 1, gftbls, src, &dest))
		return;
	ec_run((size_t)len, (size_t)vlen, 1, gftbls, 0, EC_TBL, (const uint8_t *const *)src, &dest,
	       0);
}

void stoa_gf_vect_mad_neon(int len, int vec, int vec_i, unsigned char *gftbls, unsigned char *src,
			   unsigned char *dest)
{
	if (!ec_update_args_ok(len, vec, 1, vec_i, gftbls, src, &dest))
		return;
	const uint8_t *s[1] = { src };
	ec_run((size_t)len, 1, 1, gftbls + (size_t)vec_i * EC_TBL, 0, EC_TBL, s, &dest, 1);
}

int stoa_gf_vect_mul_neon(int len, unsigned char *gftbl, void *src, void *dest)
{
	int go = ec_mul_args(len, gftbl, src, dest);
	if (go <= 0)
		return go;
	const uint8_t *s[1] = { src };
	uint8_t *d[1] = { dest };
	ec_run((size_t)len, 1, 1, gftbl, 0, EC_TBL, s, d, 0);
	return 0;
}
