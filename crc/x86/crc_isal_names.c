/* ISA-L's per-instruction-set CRC entry points (crc32_iscsi_01, crc16_t10dif_by4,
 * crc64_ecma_refl_by16_10, ...), with ISA-L's signatures and results. Each runs stoa's code
 * within its instruction set (common/x86/isal_sets.h): the best variant of the dispatched
 * function that needs nothing outside the set and that this CPU and STOA_ISA allow, down to the
 * portable code, so a name whose set the CPU lacks (the _by16_10 ones without VPCLMULQDQ) runs
 * correctly where ISA-L's would stop on an illegal instruction. */
#include "../crc_internal.h"
#include "common/x86/isal_sets.h"
#include "isal_names.h"

#define T10_PARAMS   (uint16_t init_crc, const unsigned char *buf, uint64_t len)
#define COPY_PARAMS  (uint16_t init_crc, uint8_t * dst, uint8_t * src, uint64_t len)
#define CRC32_PARAMS (uint32_t init_crc, const unsigned char *buf, uint64_t len)
#define ISCSI_PARAMS (unsigned char *buffer, int len, unsigned int init_crc)
#define CRC64_PARAMS (uint64_t init_crc, const unsigned char *buf, uint64_t len)
#define CRC_ARGS     (init_crc, buf, len)
#define COPY_ARGS    (init_crc, dst, src, len)
#define ISCSI_ARGS   (buffer, len, init_crc)

/* func_<suffix> on func's table within ISA-L's set (ISAL_SET_<set>). */
#define CRC_ISAL(ret, func, suffix, set, params, args)                                             \
	ret func##_##suffix params;                                                                \
	STOA_DISPATCH_WITHIN(ret, func##_##suffix, #func, ISAL_SET_##set, params, args)            \
	STOA_ISAL_NAME(func##_##suffix, #func, ISAL_SET_##set, 0)

CRC_ISAL(uint16_t, crc16_t10dif, 01, crc_01, T10_PARAMS, CRC_ARGS)
CRC_ISAL(uint16_t, crc16_t10dif, by4, crc_01, T10_PARAMS, CRC_ARGS)
CRC_ISAL(uint16_t, crc16_t10dif, 02, crc_02, T10_PARAMS, CRC_ARGS)
CRC_ISAL(uint16_t, crc16_t10dif, avx2, crc_avx2, T10_PARAMS, CRC_ARGS)
CRC_ISAL(uint16_t, crc16_t10dif, by16_10, crc_10, T10_PARAMS, CRC_ARGS)
CRC_ISAL(uint16_t, crc16_t10dif_copy, by4, crc_01, COPY_PARAMS, COPY_ARGS)
CRC_ISAL(uint16_t, crc16_t10dif_copy, by4_02, crc_02, COPY_PARAMS, COPY_ARGS)

CRC_ISAL(uint32_t, crc32_ieee, 01, crc_01, CRC32_PARAMS, CRC_ARGS)
CRC_ISAL(uint32_t, crc32_ieee, by4, crc_01, CRC32_PARAMS, CRC_ARGS)
CRC_ISAL(uint32_t, crc32_ieee, 02, crc_02, CRC32_PARAMS, CRC_ARGS)
CRC_ISAL(uint32_t, crc32_ieee, avx2, crc_avx2, CRC32_PARAMS, CRC_ARGS)
CRC_ISAL(uint32_t, crc32_ieee, by16_10, crc_10, CRC32_PARAMS, CRC_ARGS)

CRC_ISAL(uint32_t, crc32_gzip_refl, by8, crc_01, CRC32_PARAMS, CRC_ARGS)
CRC_ISAL(uint32_t, crc32_gzip_refl, by8_02, crc_02, CRC32_PARAMS, CRC_ARGS)
CRC_ISAL(uint32_t, crc32_gzip_refl, avx2, crc_avx2, CRC32_PARAMS, CRC_ARGS)
CRC_ISAL(uint32_t, crc32_gzip_refl, by16_10, crc_10, CRC32_PARAMS, CRC_ARGS)

CRC_ISAL(unsigned int, crc32_iscsi, 00, crc_00, ISCSI_PARAMS, ISCSI_ARGS)
CRC_ISAL(unsigned int, crc32_iscsi, 01, crc_01, ISCSI_PARAMS, ISCSI_ARGS)
CRC_ISAL(unsigned int, crc32_iscsi, by8_02, crc_02, ISCSI_PARAMS, ISCSI_ARGS)
CRC_ISAL(unsigned int, crc32_iscsi, avx2, crc_avx2, ISCSI_PARAMS, ISCSI_ARGS)
CRC_ISAL(unsigned int, crc32_iscsi, by16_10, crc_10, ISCSI_PARAMS, ISCSI_ARGS)

/* Each crc64 function: _by8 (PCLMULQDQ), _avx2 and _by16_10. */
#define CRC64_ISAL(func)                                                                           \
	CRC_ISAL(uint64_t, func, by8, crc_01, CRC64_PARAMS, CRC_ARGS)                              \
	CRC_ISAL(uint64_t, func, avx2, crc_avx2, CRC64_PARAMS, CRC_ARGS)                           \
	CRC_ISAL(uint64_t, func, by16_10, crc_10, CRC64_PARAMS, CRC_ARGS)

CRC64_ISAL(crc64_ecma_refl)
CRC64_ISAL(crc64_ecma_norm)
CRC64_ISAL(crc64_iso_refl)
CRC64_ISAL(crc64_iso_norm)
CRC64_ISAL(crc64_jones_refl)
CRC64_ISAL(crc64_jones_norm)
CRC64_ISAL(crc64_rocksoft_refl)
CRC64_ISAL(crc64_rocksoft_norm)
