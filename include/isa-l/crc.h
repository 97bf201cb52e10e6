/* stoa: CRC16 T10-DIF and CRC32 (IEEE, gzip, iSCSI), with ISA-L's names and conventions.
 *
 * All functions accept len 0 with any buffer pointer (NULL included) and then return the value
 * that processing nothing gives: init_crc itself. None reads past buf + len. */
#ifndef STOA_ISAL_CRC_H
#define STOA_ISAL_CRC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CRC16 T10-DIF: polynomial 0x8BB7, MSB first, init_crc used as is, no final inversion.
 * crc16_t10dif(0, "123456789", 9) == 0xD0DB. */
uint16_t crc16_t10dif(uint16_t init_crc, const unsigned char *buf, uint64_t len);

/* crc16_t10dif of src while copying len bytes from src to dst. */
uint16_t crc16_t10dif_copy(uint16_t init_crc, uint8_t *dst, uint8_t *src, uint64_t len);

/* CRC32 with polynomial 0x04C11DB7, MSB first (the "BZIP2" form): the state is ~init_crc and
 * the result is inverted, so crc32_ieee(0, "123456789", 9) == 0xFC891918 and a result can be
 * passed back as init_crc to continue. */
uint32_t crc32_ieee(uint32_t init_crc, const unsigned char *buf, uint64_t len);

/* CRC32 with polynomial 0x04C11DB7 reflected, as gzip, zlib and PNG compute it:
 * crc32_gzip_refl(0, "123456789", 9) == 0xCBF43926, chainable like zlib's crc32(). */
uint32_t crc32_gzip_refl(uint32_t init_crc, const unsigned char *buf, uint64_t len);

/* CRC32C (Castagnoli, polynomial 0x1EDC6F41 reflected). Note the argument order, and that
 * init_crc is the raw state with no inversion on either side: the standard CRC-32C is
 * crc32_iscsi(buf, len, 0xFFFFFFFF) ^ 0xFFFFFFFF. A len of 0 or less returns init_crc. */
unsigned int crc32_iscsi(unsigned char *buffer, int len, unsigned int init_crc);

/* The portable implementations, same results, callable on any CPU. */
unsigned int crc32_iscsi_base(unsigned char *buffer, int len, unsigned int crc_init);
uint16_t crc16_t10dif_base(uint16_t seed, uint8_t *buf, uint64_t len);
uint16_t crc16_t10dif_copy_base(uint16_t init_crc, uint8_t *dst, uint8_t *src, uint64_t len);
uint32_t crc32_ieee_base(uint32_t seed, uint8_t *buf, uint64_t len);
uint32_t crc32_gzip_refl_base(uint32_t seed, uint8_t *buf, uint64_t len);

#ifdef __cplusplus
}
#endif

#endif
