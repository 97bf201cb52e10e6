/* CRC engines on 128-bit PMULL folds: eight chunks in flight (128 bytes per step), then one, then
 * the tail and a Barrett reduction (crc_fold.h); the x86-64 PCLMULQDQ engine's algorithm.
 * crc16_t10dif_copy runs the same engine with the copy folded in: each chunk is stored to the
 * destination as it is loaded. */
#include <stdint.h>
#include <string.h>

#include "crc_fold.h"

/* The chunk at p + off in register order; with a copy destination d, its bytes also go to
 * d + off. */
CRC_INLINE crc_v crc_take128(const uint8_t *p, uint8_t *d, size_t off, int order)
{
	uint8x16_t v = vld1q_u8(p + off);
	if (d)
		vst1q_u8(d + off, v);
	return crc_order128(vreinterpretq_u64_u8(v), order);
}

/* v unchanged, through an empty assembly statement: gcc's reassociation turns a tree of XORs into
 * one serial chain (15 dependent EORs where the eight chunks meet), and it cannot look through
 * this. No instruction. */
CRC_INLINE crc_v crc_node(crc_v v)
{
	__asm__("" : "+w"(v));
	return v;
}

/* The MSB-first engine's sum of the eight chunks: x0 ... x6 each moved by its constant pair in
 * k[0 .. 6], summed with x7 (already moved, or the last chunk itself), as a tree of depth four
 * after the multiplies. */
CRC_INLINE crc_v crc_sum8(crc_v x0, crc_v x1, crc_v x2, crc_v x3, crc_v x4, crc_v x5, crc_v x6,
			  crc_v x7, const uint64_t k[][2])
{
	/* Each pair's constants are loaded only after the previous pair's sum (the empty assembly
	 * statement makes the table's address depend on it): loaded all at once, the constants and
	 * the products outgrow the caller-saved registers, and the stack frame for the callee-saved
	 * ones then costs every call, short ones too. */
	x0 = crc_node(veorq_u64(crc_fold128(x0, crc_konst(k[0])), crc_fold128(x1, crc_konst(k[1]))));
	__asm__("" : "+r"(k) : "w"(x0));
	x2 = crc_node(veorq_u64(crc_fold128(x2, crc_konst(k[2])), crc_fold128(x3, crc_konst(k[3]))));
	__asm__("" : "+r"(k) : "w"(x2));
	x4 = crc_node(veorq_u64(crc_fold128(x4, crc_konst(k[4])), crc_fold128(x5, crc_konst(k[5]))));
	__asm__("" : "+r"(k) : "w"(x4));
	x6 = crc_node(veorq_u64(crc_fold128(x6, crc_konst(k[6])), x7));
	return veorq_u64(crc_node(veorq_u64(x0, x2)), crc_node(veorq_u64(x4, x6)));
}

/* The reflected engine's sum of the eight chunks: chunk i moves forward (7 - i) * 128 bits by
 * fold[6 - i], every product and every sum behind its own barrier, a tree of depth four after the
 * multiplies. The 16-byte stage and the 64-bit fold follow it. The MSB-first engine's crc_sum8
 * here, with or without the Barrett shortcut, made 500-512 byte calls 1.5% slower in the proxy
 * (llvm-mca N1), where this engine was already ahead of ISA-L. */
CRC_INLINE crc_v crc_sum8_refl(crc_v x0, crc_v x1, crc_v x2, crc_v x3, crc_v x4, crc_v x5,
			       crc_v x6, crc_v x7, const struct crc_model *m)
{
	x0 = crc_node(veorq_u64(crc_node(crc_fold128(x0, crc_konst(m->fold[6]))),
				crc_node(crc_fold128(x1, crc_konst(m->fold[5])))));
	x2 = crc_node(veorq_u64(crc_node(crc_fold128(x2, crc_konst(m->fold[4]))),
				crc_node(crc_fold128(x3, crc_konst(m->fold[3])))));
	x4 = crc_node(veorq_u64(crc_node(crc_fold128(x4, crc_konst(m->fold[2]))),
				crc_node(crc_fold128(x5, crc_konst(m->fold[1])))));
	x6 = crc_node(veorq_u64(crc_node(crc_fold128(x6, crc_konst(m->fold[0]))), x7));
	return veorq_u64(crc_node(veorq_u64(x0, x2)), crc_node(veorq_u64(x4, x6)));
}

/* The engine over p[0, len); d, NULL or a destination that may be written front to back while
 * p is read (at or below p, or not overlapping it), receives a copy of the bytes. */
CRC_INLINE uint64_t crc_fold_pmull(const struct crc_model *m, uint64_t state, const uint8_t *p,
				   uint64_t len, int order, uint8_t *d)
{
	if (len < 16) {
		state = order == CRC_MSB ? crc_norm_portable(m, state, p, len)
					 : crc_refl_portable(m, state, p, len);
		if (d && len)
			memmove(d, p, len);
		return state;
	}

	crc_v x0 = veorq_u64(crc_take128(p, d, 0, order), crc_state128(state, order));
	p += 16;
	d = d ? d + 16 : d;
	len -= 16;
	if (len >= 112) {
		crc_v x1 = crc_take128(p, d, 0, order), x2 = crc_take128(p, d, 16, order);
		crc_v x3 = crc_take128(p, d, 32, order), x4 = crc_take128(p, d, 48, order);
		crc_v x5 = crc_take128(p, d, 64, order), x6 = crc_take128(p, d, 80, order);
		crc_v x7 = crc_take128(p, d, 96, order);
		p += 112;
		d = d ? d + 112 : d;
		len -= 112;
		crc_v k = crc_konst(m->fold[7]);
		for (; len >= 128; len -= 128, p += 128, d = d ? d + 128 : d) {
			x0 = veorq_u64(crc_fold128(x0, k), crc_take128(p, d, 0, order));
			x1 = veorq_u64(crc_fold128(x1, k), crc_take128(p, d, 16, order));
			x2 = veorq_u64(crc_fold128(x2, k), crc_take128(p, d, 32, order));
			x3 = veorq_u64(crc_fold128(x3, k), crc_take128(p, d, 48, order));
			x4 = veorq_u64(crc_fold128(x4, k), crc_take128(p, d, 64, order));
			x5 = veorq_u64(crc_fold128(x5, k), crc_take128(p, d, 80, order));
			x6 = veorq_u64(crc_fold128(x6, k), crc_take128(p, d, 96, order));
			x7 = veorq_u64(crc_fold128(x7, k), crc_take128(p, d, 112, order));
		}
		if (order == CRC_MSB) {
			/* Nothing after the eight chunks (every multiple of 128 bytes): chunk i moves
			 * straight to the Barrett point, (7 - i) * 128 + 64 bits on, which saves the
			 * separate 64-bit fold and its place in the serial chain. */
			if (len == 0) {
				x7 = crc_fold128(x7, crc_konst(m->fold_lanes64[7]));
				x0 = crc_sum8(x0, x1, x2, x3, x4, x5, x6, x7, m->fold_lanes64);
				return crc_barrett(x0, m, order);
			}
			x0 = crc_sum8(x0, x1, x2, x3, x4, x5, x6, x7, m->fold_lanes);
		} else {
			x0 = crc_sum8_refl(x0, x1, x2, x3, x4, x5, x6, x7, m);
		}
	}
	x0 = crc_rest128(x0, p, len, m, order);
	/* The last bytes, already read. */
	if (d && len)
		memmove(d, p, len);
	return crc_reduce128(x0, m, order);
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
	return crc_fold_pmull(m, s, p, n, CRC_MSB, NULL);
}

CRC_INLINE uint64_t refl_inline(const struct crc_model *m, uint64_t s, const uint8_t *p, uint64_t n)
{
	return crc_fold_pmull(m, s, p, n, CRC_LSB, NULL);
}

#undef CRC_T10DIF_COPY_FORM
#define CRC_T10DIF_COPY_FORM(sfx)
CRC_PUBLIC_FORMS(pmull, norm_inline, refl_inline)

uint16_t crc16_t10dif_copy_pmull(uint16_t init, uint8_t *dst, uint8_t *src, uint64_t len)
{
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
	/* A destination inside the source past its start would overwrite bytes not yet read: the
	 * CRC first, then memmove. (No destination, no copy: the test also tells the compiler that
	 * dst is not NULL below, so the engine's copy branches go.) */
	if (!dst || (d > s && d - s < len)) {
		uint16_t crc = crc16_t10dif_pmull(init, src, len);
		if (dst)
			memmove(dst, src, len);
		return crc;
	}
	return (uint16_t)(crc_fold_pmull(&crc_model_t10dif, (uint64_t)init << 48, src, len, CRC_MSB,
					 dst) >>
			  48);
}
CRC_ISCSI_FORM(pmull, refl_inline)
