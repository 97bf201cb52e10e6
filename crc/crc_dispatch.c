/* CRC variant tables, best first, and the exported entry points that dispatch through them. */
#include "crc_internal.h"
#include "isa-l/crc.h"
#include "isa-l/crc64.h"

#ifdef STOA_ARCH
#include STOA_ARCH_HEADER(crc, crc)
#else
#define CRC_ARCH_ENTRIES(name)
#endif

STOA_TABLE(CRC, crc16_t10dif)
STOA_TABLE(CRC, crc16_t10dif_copy)
STOA_TABLE(CRC, crc32_ieee)
STOA_TABLE(CRC, crc32_gzip_refl)
STOA_TABLE(CRC, crc32_iscsi)
STOA_TABLE(CRC, crc64_ecma_refl)
STOA_TABLE(CRC, crc64_ecma_norm)
STOA_TABLE(CRC, crc64_iso_refl)
STOA_TABLE(CRC, crc64_iso_norm)
STOA_TABLE(CRC, crc64_jones_refl)
STOA_TABLE(CRC, crc64_jones_norm)
STOA_TABLE(CRC, crc64_rocksoft_refl)
STOA_TABLE(CRC, crc64_rocksoft_norm)
STOA_TABLE(CRC, inf_crc32_gzip_copy)

STOA_DISPATCH(uint16_t, crc16_t10dif, (uint16_t init_crc, const unsigned char *buf, uint64_t len),
	      (init_crc, buf, len))
STOA_DISPATCH(uint16_t, crc16_t10dif_copy,
	      (uint16_t init_crc, uint8_t *dst, uint8_t *src, uint64_t len),
	      (init_crc, dst, src, len))
STOA_DISPATCH(uint32_t, crc32_ieee, (uint32_t init_crc, const unsigned char *buf, uint64_t len),
	      (init_crc, buf, len))
STOA_DISPATCH(uint32_t, crc32_gzip_refl,
	      (uint32_t init_crc, const unsigned char *buf, uint64_t len), (init_crc, buf, len))
STOA_DISPATCH_INTERNAL(uint32_t, inf_crc32_gzip_copy,
		       (uint32_t init, uint8_t *dst, const uint8_t *src, uint64_t len),
		       (init, dst, src, len))
STOA_DISPATCH(unsigned int, crc32_iscsi, (unsigned char *buffer, int len, unsigned int init_crc),
	      (buffer, len, init_crc))

/* Each crc64 entry point, plus ISA-L's older _by8 name for the same function, unless this
 * architecture's folder defines the _by8 names for their own instruction set (x86: PCLMULQDQ). */
#ifdef CRC_ARCH_BY8_NAMES
#define CRC64_BY8(name)
#else
#define CRC64_BY8(name)                                                                            \
	uint64_t name##_by8(uint64_t init_crc, const unsigned char *buf, uint64_t len)             \
		STOA_ALIAS(name);
#endif
#define CRC64_DISPATCH(name)                                                                       \
	STOA_DISPATCH(uint64_t, name, (uint64_t init_crc, const unsigned char *buf, uint64_t len), \
		      (init_crc, buf, len))                                                        \
	CRC64_BY8(name)

CRC64_DISPATCH(crc64_ecma_refl)
CRC64_DISPATCH(crc64_ecma_norm)
CRC64_DISPATCH(crc64_iso_refl)
CRC64_DISPATCH(crc64_iso_norm)
CRC64_DISPATCH(crc64_jones_refl)
CRC64_DISPATCH(crc64_jones_norm)
CRC64_DISPATCH(crc64_rocksoft_refl)
CRC64_DISPATCH(crc64_rocksoft_norm)

static const struct stoa_func crc_funcs[] = {
	STOA_FUNC(crc16_t10dif),        STOA_FUNC(crc16_t10dif_copy),   STOA_FUNC(crc32_ieee),
	STOA_FUNC(crc32_gzip_refl),     STOA_FUNC(crc32_iscsi),         STOA_FUNC(crc64_ecma_refl),
	STOA_FUNC(crc64_ecma_norm),     STOA_FUNC(crc64_iso_refl),      STOA_FUNC(crc64_iso_norm),
	STOA_FUNC(crc64_jones_refl),    STOA_FUNC(crc64_jones_norm),    STOA_FUNC(crc64_rocksoft_refl),
	STOA_FUNC(crc64_rocksoft_norm), STOA_FUNC(inf_crc32_gzip_copy),
};

const struct stoa_module stoa_module_crc = { "crc", crc_funcs, STOA_COUNT(crc_funcs) };
