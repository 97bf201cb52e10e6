/* stoa: CRC64 with the ECMA-182, ISO 3309, Jones and Rocksoft polynomials, each MSB first
 * ("norm") and reflected ("refl"), with ISA-L's names and conventions.
 *
 * Every function inverts init_crc on the way in and the result on the way out, so results chain
 * (pass one call's result as the next call's init_crc) and init_crc 0 gives, for "123456789":
 *   crc64_ecma_refl     0x995DC9BBDF1939FA  (CRC-64/XZ)
 *   crc64_ecma_norm     0x62EC59E3F1A4F00A  (CRC-64/WE)
 *   crc64_iso_refl      0xB90956C775A41001  (CRC-64/GO-ISO)
 *   crc64_rocksoft_refl 0xAE8B14860A799888  (CRC-64/NVME)
 * len 0 with any pointer (NULL included) returns init_crc; nothing past buf + len is read.
 * The _by8 names are ISA-L's older entry points; here they are the same dispatched functions. */
#ifndef STOA_ISAL_CRC64_H
#define STOA_ISAL_CRC64_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STOA_CRC64_DECLARE(name)                                                                  \
	uint64_t name(uint64_t init_crc, const unsigned char *buf, uint64_t len);                 \
	uint64_t name##_by8(uint64_t init_crc, const unsigned char *buf, uint64_t len);           \
	uint64_t name##_base(uint64_t init_crc, const unsigned char *buf, uint64_t len);

/* Polynomial 0x42F0E1EBA9EA3693. */
STOA_CRC64_DECLARE(crc64_ecma_refl)
STOA_CRC64_DECLARE(crc64_ecma_norm)
/* Polynomial 0x000000000000001B. */
STOA_CRC64_DECLARE(crc64_iso_refl)
STOA_CRC64_DECLARE(crc64_iso_norm)
/* Polynomial 0xAD93D23594C935A9. */
STOA_CRC64_DECLARE(crc64_jones_refl)
STOA_CRC64_DECLARE(crc64_jones_norm)
/* Polynomial 0xAD93D23594C93659 (NVMe). */
STOA_CRC64_DECLARE(crc64_rocksoft_refl)
STOA_CRC64_DECLARE(crc64_rocksoft_norm)

#undef STOA_CRC64_DECLARE

#ifdef __cplusplus
}
#endif

#endif
