/* CRC engines on 128-bit PCLMULQDQ folds (crc_fold_pclmul, crc_fold.h). crc_pclmul_avx.c builds
 * the same forms with AVX's encodings (CRC_PCLMUL_AVX). */
#if !defined(CRC_PCLMUL_AVX) && defined(__GNUC__) && !defined(__clang__)
/* The reflected forms in the SSE build, under gcc: scheduling before register allocation,
 * weighing register pressure, shortens their 512-byte calls by about 2% (x86-64-v2, Zen 3: level
 * with isa-l's by8 kernels). The MSB-first forms ran slower with it, so they keep the default. */
#define CRC_REFL_ATTR __attribute__((optimize("schedule-insns", "sched-pressure")))
#endif
#include "crc_fold.h"

#if defined(CRC_PCLMUL_AVX)
#define PCLMUL_NAME(f) f##_pclmul_avx
#else
#define PCLMUL_NAME(f) f##_pclmul
#endif

/* The public forms inline the engine: one call from the dispatcher, no second hop. */
CRC_INLINE uint64_t norm_inline(const struct crc_model *m, uint64_t s, const uint8_t *p, uint64_t n)
{
	return crc_fold_pclmul(m, s, p, n, CRC_MSB);
}

CRC_INLINE uint64_t refl_inline(const struct crc_model *m, uint64_t s, const uint8_t *p, uint64_t n)
{
	return crc_fold_pclmul(m, s, p, n, CRC_LSB);
}

#if !defined(CRC_PCLMUL_AVX)
uint64_t crc_norm_pclmul(const struct crc_model *m, uint64_t state, const uint8_t *buf,
			 uint64_t len)
{
	return crc_fold_pclmul(m, state, buf, len, CRC_MSB);
}

uint64_t crc_refl_pclmul(const struct crc_model *m, uint64_t state, const uint8_t *buf,
			 uint64_t len)
{
	return crc_fold_pclmul(m, state, buf, len, CRC_LSB);
}
#endif

/* The paths of crc16_t10dif_copy_pclmul that call out, as functions apart: inline, they made
 * the folding path save four registers (2 ns a call, 6% at 512 bytes). */
static __attribute__((noinline)) uint16_t t10dif_copy_apart(uint16_t init, uint8_t *dst,
							    uint8_t *src, uint64_t len)
{
	const uint16_t crc = PCLMUL_NAME(crc16_t10dif)(init, src, len);
	if (len)
		memmove(dst, src, len);
	return crc;
}

static __attribute__((noinline)) uint16_t t10dif_copy_rest(uint16_t crc, uint8_t *dst,
							   const uint8_t *src, uint64_t len)
{
	memcpy(dst, src, len);
	return crc;
}

/* crc16_t10dif_copy with the copy folded into the CRC's pass when the buffers are apart (ISA-L's
 * by4 form works the same way); overlapping ones keep the CRC-then-memmove order of the generic
 * form. */
uint16_t PCLMUL_NAME(crc16_t10dif_copy)(uint16_t init, uint8_t *dst, uint8_t *src, uint64_t len)
{
	const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
	if (len < 128 || (d < s + len && s < d + len))
		return t10dif_copy_apart(init, dst, src, len);
	uint64_t done = 0;
	const uint16_t crc = (uint16_t)(crc_fold_pclmul_to(&crc_model_t10dif, (uint64_t)init << 48,
							   src, len, CRC_MSB, dst, 1, &done) >>
					48);
	if (len > done) /* a call even for nothing costs 5% at 512 bytes */
		return t10dif_copy_rest(crc, dst + done, src + done, len - done);
	return crc;
}

#undef CRC_T10DIF_COPY_FORM
#define CRC_T10DIF_COPY_FORM(sfx)
#if defined(CRC_PCLMUL_AVX)
CRC_PUBLIC_FORMS(pclmul_avx, norm_inline, refl_inline)
CRC_GZIP_COPY_FORM(pclmul_avx, crc_fold_pclmul_to, memcpy)
#else
CRC_PUBLIC_FORMS(pclmul, norm_inline, refl_inline)
CRC_GZIP_COPY_FORM(pclmul, crc_fold_pclmul_to, memcpy)
#endif
