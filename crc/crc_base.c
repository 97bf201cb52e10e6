/* Portable CRC engines: slice-by-8 over the generated tables, any architecture. */
#include <string.h>

#include "crc_internal.h"
#include "isa-l/crc.h"
#include "isa-l/crc64.h"

static uint64_t load_le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint64_t load_be64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

uint64_t crc_norm_portable(const struct crc_model *m, uint64_t crc, const uint8_t *buf,
			   uint64_t len)
{
	const uint64_t(*t)[256] = m->slice;

	for (; len >= 8; len -= 8, buf += 8) {
		crc ^= load_be64(buf);
		crc = t[7][crc >> 56] ^ t[6][(crc >> 48) & 0xff] ^ t[5][(crc >> 40) & 0xff] ^
		      t[4][(crc >> 32) & 0xff] ^ t[3][(crc >> 24) & 0xff] ^
		      t[2][(crc >> 16) & 0xff] ^ t[1][(crc >> 8) & 0xff] ^ t[0][crc & 0xff];
	}
	while (len--)
		crc = (crc << 8) ^ t[0][(crc >> 56) ^ *buf++];
	return crc;
}

uint64_t crc_refl_portable(const struct crc_model *m, uint64_t crc, const uint8_t *buf,
			   uint64_t len)
{
	const uint64_t(*t)[256] = m->slice;

	for (; len >= 8; len -= 8, buf += 8) {
		crc ^= load_le64(buf);
		crc = t[7][crc & 0xff] ^ t[6][(crc >> 8) & 0xff] ^ t[5][(crc >> 16) & 0xff] ^
		      t[4][(crc >> 24) & 0xff] ^ t[3][(crc >> 32) & 0xff] ^
		      t[2][(crc >> 40) & 0xff] ^ t[1][(crc >> 48) & 0xff] ^ t[0][crc >> 56];
	}
	while (len--)
		crc = (crc >> 8) ^ t[0][(crc ^ *buf++) & 0xff];
	return crc;
}

CRC_PUBLIC_FORMS(portable, crc_norm_portable, crc_refl_portable)
CRC_ISCSI_FORM(portable, crc_refl_portable)

/* The CRC first, from the source, then the copy; the CRC by the best crc32_gzip_refl the process
 * runs (the portable one under STOA_ISA=base, and on CPUs where fusing does not pay). */
uint32_t inf_crc32_gzip_copy_portable(uint32_t init, uint8_t *dst, const uint8_t *src,
				      uint64_t len)
{
	const uint32_t crc = crc32_gzip_refl(init, src, len);
	if (len)
		memcpy(dst, src, len);
	return crc;
}

/* ISA-L's exported _base functions, with ISA-L's exact parameter types. */
STOA_API uint16_t crc16_t10dif_base(uint16_t seed, uint8_t *buf, uint64_t len)
{
	return crc16_t10dif_portable(seed, buf, len);
}

STOA_API uint16_t crc16_t10dif_copy_base(uint16_t init_crc, uint8_t *dst, uint8_t *src,
					 uint64_t len)
{
	return crc16_t10dif_copy_portable(init_crc, dst, src, len);
}

STOA_API uint32_t crc32_ieee_base(uint32_t seed, uint8_t *buf, uint64_t len)
{
	return crc32_ieee_portable(seed, buf, len);
}

STOA_API uint32_t crc32_gzip_refl_base(uint32_t seed, uint8_t *buf, uint64_t len)
{
	return crc32_gzip_refl_portable(seed, buf, len);
}

STOA_API unsigned int crc32_iscsi_base(unsigned char *buffer, int len, unsigned int crc_init)
{
	return crc32_iscsi_portable(buffer, len, crc_init);
}

#define CRC64_BASE(name)                                                                          \
	STOA_API uint64_t name##_base(uint64_t init_crc, const unsigned char *buf, uint64_t len)   \
	{                                                                                          \
		return name##_portable(init_crc, buf, len);                                        \
	}
CRC64_BASE(crc64_ecma_refl)
CRC64_BASE(crc64_ecma_norm)
CRC64_BASE(crc64_iso_refl)
CRC64_BASE(crc64_iso_norm)
CRC64_BASE(crc64_jones_refl)
CRC64_BASE(crc64_jones_norm)
CRC64_BASE(crc64_rocksoft_refl)
CRC64_BASE(crc64_rocksoft_norm)
