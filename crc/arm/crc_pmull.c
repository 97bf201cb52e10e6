/* CRC engines on 128-bit PMULL folds: eight chunks in flight (128 bytes per step), then one, then
 * the tail and a Barrett reduction (crc_fold.h); the x86-64 PCLMULQDQ engine's algorithm. */
#include "crc_fold.h"

CRC_INLINE uint64_t crc_fold_pmull(const struct crc_model *m, uint64_t state, const uint8_t *p,
				   uint64_t len, int order)
{
	if (len < 16)
		return order == CRC_MSB ? crc_norm_portable(m, state, p, len)
					: crc_refl_portable(m, state, p, len);

	crc_v x0 = veorq_u64(crc_load128(p, order), crc_state128(state, order));
	p += 16;
	len -= 16;
	if (len >= 112) {
		crc_v x1 = crc_load128(p, order), x2 = crc_load128(p + 16, order);
		crc_v x3 = crc_load128(p + 32, order), x4 = crc_load128(p + 48, order);
		crc_v x5 = crc_load128(p + 64, order), x6 = crc_load128(p + 80, order);
		crc_v x7 = crc_load128(p + 96, order);
		p += 112;
		len -= 112;
		crc_v k = crc_konst(m->fold[7]);
		for (; len >= 128; len -= 128, p += 128) {
			x0 = veorq_u64(crc_fold128(x0, k), crc_load128(p, order));
			x1 = veorq_u64(crc_fold128(x1, k), crc_load128(p + 16, order));
			x2 = veorq_u64(crc_fold128(x2, k), crc_load128(p + 32, order));
			x3 = veorq_u64(crc_fold128(x3, k), crc_load128(p + 48, order));
			x4 = veorq_u64(crc_fold128(x4, k), crc_load128(p + 64, order));
			x5 = veorq_u64(crc_fold128(x5, k), crc_load128(p + 80, order));
			x6 = veorq_u64(crc_fold128(x6, k), crc_load128(p + 96, order));
			x7 = veorq_u64(crc_fold128(x7, k), crc_load128(p + 112, order));
		}
		/* Eight chunks to one: chunk i moves forward (7 - i) * 128 bits. */
		x0 = veorq_u64(crc_fold128(x0, crc_konst(m->fold[6])),
			       crc_fold128(x1, crc_konst(m->fold[5])));
		x2 = veorq_u64(crc_fold128(x2, crc_konst(m->fold[4])),
			       crc_fold128(x3, crc_konst(m->fold[3])));
		x4 = veorq_u64(crc_fold128(x4, crc_konst(m->fold[2])),
			       crc_fold128(x5, crc_konst(m->fold[1])));
		x6 = veorq_u64(crc_fold128(x6, crc_konst(m->fold[0])), x7);
		x0 = veorq_u64(veorq_u64(x0, x2), veorq_u64(x4, x6));
	}
	return crc_reduce128(crc_rest128(x0, p, len, m, order), m, order);
}

uint64_t crc32_streams_merge_pmull(uint32_t a, uint32_t ka, uint32_t b, uint32_t kb)
{
	crc_v x = vcombine_u64(vcreate_u64(a), vcreate_u64(b));
	crc_v k = vcombine_u64(vcreate_u64(ka), vcreate_u64(kb));
	return vgetq_lane_u64(veorq_u64(crc_mul_ll(x, k), crc_mul_hh(x, k)), 0);
}

/* The public forms inline the engine: one call from the dispatcher, no second hop. */
CRC_INLINE uint64_t norm_inline(const struct crc_model *m, uint64_t s, const uint8_t *p, uint64_t n)
{
	return crc_fold_pmull(m, s, p, n, CRC_MSB);
}

CRC_INLINE uint64_t refl_inline(const struct crc_model *m, uint64_t s, const uint8_t *p, uint64_t n)
{
	return crc_fold_pmull(m, s, p, n, CRC_LSB);
}

CRC_PUBLIC_FORMS(pmull, norm_inline, refl_inline)
CRC_ISCSI_FORM(pmull, refl_inline)
