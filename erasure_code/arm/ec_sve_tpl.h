/* Erasure-code kernels on SVE vectors of any length, included by ec_sve.c and ec_sve2.c with
 * EC_SFX set to their token: every product by two TBL lookups in the portable 32-byte table of
 * its coefficient (ec_internal.h), each half replicated into every 128-bit segment (LD1RQB; TBL
 * reads its first 16 bytes). With SVE2, the two lookups join the accumulator in one EOR3.
 *
 * A block is four vectors at one offset of each of the R rows of a pass (R <= 4, a constant in
 * each instance): sixteen accumulators while every source is folded in, each source's four
 * vectors prepared first, then one row's table pair at a time. The last block is cut to the
 * length by its predicates, so there is no scalar tail. */
#include <arm_sve.h>

#include "ec_arch.h"
#include "ec_entries.h"

#define EC_INLINE static inline __attribute__((always_inline))
#define EC_RMAX   4

/* acc ^ t[lo] ^ u[hi]. */
EC_INLINE svuint8_t ec_mac(svuint8_t acc, svuint8_t t, svuint8_t u, svuint8_t lo, svuint8_t hi)
{
#ifdef __ARM_FEATURE_SVE2
	return sveor3_u8(acc, svtbl_u8(t, lo), svtbl_u8(u, hi));
#else
	return sveor_u8_x(svptrue_b8(), acc, sveor_u8_x(svptrue_b8(), svtbl_u8(t, lo),
							 svtbl_u8(u, hi)));
#endif
}

#define EC_ROWS(M) M(0) M(1) M(2) M(3)
#define EC_VECS(M, r) M(r, 0) M(r, 1) M(r, 2) M(r, 3) M(r, 4) M(r, 5) M(r, 6) M(r, 7)
#define EC_ALL(M)     EC_VECS(M, 0) EC_VECS(M, 1) EC_VECS(M, 2) EC_VECS(M, 3)

/* Rows [0, R) of dst over [0, len) from k sources, as ec_neon.c's ec_span (k may be 1), C
 * vectors a row: eight at one or two rows (each source vector into the R rows whose table pairs
 * are held for the source), four at three or four (the source's four first, then one row's
 * table pair at a time). */
EC_INLINE void ec_pass(const int R, size_t len, size_t k, const uint8_t *const *src,
		       const uint8_t *tbls, size_t rstride, size_t jstride, uint8_t *const *dst,
		       int accumulate)
{
	const int C = R <= 2 ? 8 : 4;
	const svbool_t all = svptrue_b8();
	const size_t vl = svcntb();
	/* The low-nibble mask in a register, opaque to the compiler: AND with a register has a
	 * non-destructive form, AND with an immediate does not (a MOVPRFX more a vector). */
	svuint8_t nib = svdup_n_u8(0x0f);
	__asm__("" : "+w"(nib));
#define EC_DST(r) uint8_t *const d##r = (r) < R ? dst[r] : NULL;
	EC_ROWS(EC_DST)
#undef EC_DST
	for (size_t off = 0; off < len; off += (size_t)C * vl) {
#define EC_PRED(r, v) const svbool_t p##v = svwhilelt_b8_u64(off + (v) * vl, len);
		EC_VECS(EC_PRED, 0)
#undef EC_PRED
#define EC_DECL(r, v)                                                                              \
	svuint8_t acc##r##_##v = svdup_n_u8(0);                                                    \
	if ((r) < R && (v) < C && accumulate)                                                      \
		acc##r##_##v = svld1_vnum_u8(p##v, d##r + off, v);
		EC_ALL(EC_DECL)
#undef EC_DECL
		for (size_t j = 0; j < k; j++) {
			const uint8_t *s = src[j] + off, *tj = tbls + j * jstride;
#define EC_PREP(v)                                                                                 \
	svuint8_t x##v = svld1_vnum_u8(p##v, s, v);                                                \
	svuint8_t lo##v = svand_u8_x(all, x##v, nib), hi##v = svlsr_n_u8_x(all, x##v, 4);
#define EC_MAC(r, v) acc##r##_##v = ec_mac(acc##r##_##v, t##r, u##r, lo##v, hi##v);
#define EC_TABLE(r)                                                                                \
	svuint8_t t##r = svld1rq_u8(all, tj + (r) * rstride);                                      \
	svuint8_t u##r = svld1rq_u8(all, tj + (r) * rstride + 16);
			if (C == 8) {
				EC_TABLE(0)
				svuint8_t t1 = t0, u1 = u0;
				if (R == 2) {
					t1 = svld1rq_u8(all, tj + rstride);
					u1 = svld1rq_u8(all, tj + rstride + 16);
				}
#define EC_VEC8(r, v)                                                                              \
	{                                                                                          \
		EC_PREP(v)                                                                         \
		EC_MAC(0, v)                                                                       \
		if (R == 2) {                                                                      \
			EC_MAC(1, v)                                                               \
		}                                                                                  \
	}
				EC_VECS(EC_VEC8, 0)
#undef EC_VEC8
			} else {
				EC_PREP(0) EC_PREP(1) EC_PREP(2) EC_PREP(3)
#define EC_ROW(r)                                                                                  \
	if ((r) < R) {                                                                             \
		EC_TABLE(r)                                                                        \
		EC_MAC(r, 0) EC_MAC(r, 1) EC_MAC(r, 2) EC_MAC(r, 3)                                \
	}
				EC_ROWS(EC_ROW)
#undef EC_ROW
			}
#undef EC_TABLE
#undef EC_MAC
#undef EC_PREP
		}
#define EC_STORE(r, v)                                                                             \
	if ((r) < R && (v) < C)                                                                    \
		svst1_vnum_u8(p##v, d##r + off, v, acc##r##_##v);
		EC_ALL(EC_STORE)
#undef EC_STORE
	}
}

#ifdef __ARM_FEATURE_SVE2
#define EC_EOR3 1
#else
#define EC_EOR3 0
#endif

#define EC_CAT_(a, b) a##b
#define EC_CAT(a, b)  EC_CAT_(a, b)

static void EC_CAT(ec_run_, EC_SFX)(size_t len, size_t k, size_t rows, const uint8_t *tbls,
				    size_t rstride, size_t jstride, const uint8_t *const *src,
				    uint8_t *const *dst, int accumulate)
{
	/* At 128-bit vectors the NEON engine is as short or shorter (proxy instruction counts):
	 * SVE has no pair loads and needs predicates; SVE2's EOR3 wins it back only where four
	 * vectors a row leave the table loads a larger share, at three and four rows. */
	const int neon_up_to = svcntb() > 16 ? 0 : EC_EOR3 ? 2 : EC_RMAX;
	for (size_t r0 = 0; r0 < rows; r0 += EC_RMAX, tbls += EC_RMAX * rstride, dst += EC_RMAX) {
		size_t R = rows - r0 < EC_RMAX ? rows - r0 : EC_RMAX;
		if ((int)R <= neon_up_to) {
			ec_run_neon(len, k, R, tbls, rstride, jstride, src, dst, accumulate);
			continue;
		}
		switch (R) {
		case 1:
			ec_pass(1, len, k, src, tbls, rstride, jstride, dst, accumulate);
			break;
		case 2:
			ec_pass(2, len, k, src, tbls, rstride, jstride, dst, accumulate);
			break;
		case 3:
			ec_pass(3, len, k, src, tbls, rstride, jstride, dst, accumulate);
			break;
		default:
			ec_pass(4, len, k, src, tbls, rstride, jstride, dst, accumulate);
			break;
		}
	}
}

EC_ARM_ENTRIES(EC_SFX)
