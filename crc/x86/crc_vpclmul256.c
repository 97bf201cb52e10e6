/* crc32_iscsi on crc_fold256.h's 256-bit engine for CPUs with AVX2, VPCLMULQDQ and GFNI but no
 * AVX-512 (Alder Lake, Sierra Forest); their other CRCs take crc_vpclmul256n.c's forms. */
#include "crc32c_serial.h"
#include "crc_fold256.h"

CRC_ISCSI_ENGINE(crc_fold_vpclmul256)

/* crc32_iscsi for these CPUs: the fold engine below 8 KiB, where the crc32 streams beside 128-bit
 * folds (crc32_iscsi_streams) have not reached their speed (1 KiB: 27.8 against 22.3 GB/s on Zen
 * 4), the streams from there on (64 KiB: 34.3 against 29.5), data in DRAM (crc32c_cold) the
 * folds. */
unsigned int crc32_iscsi_fold256(unsigned char *buf, int len, unsigned int init);
CRC_ISCSI_FORM(fold256, iscsi_inline)

/* From 8 KiB on, apart, so that the call below keeps no frame (its AVX state and the DRAM probe
 * cost 256 bytes 10%). */
static __attribute__((noinline)) unsigned int iscsi_long(const uint8_t *p, size_t n, uint64_t s)
{
	if (n >= CRC32C_COLD_MIN && crc32c_cold(iscsi_inline, &s, &p, &n))
		return (uint32_t)iscsi_inline(&crc_model_iscsi, s, p, n);
	return crc32c_streams_warm((uint32_t)s, p, n);
}

unsigned int crc32_iscsi_vpclmul256(unsigned char *buf, int len, unsigned int init)
{
	if (len < 8192)
		return crc32_iscsi_fold256(buf, len, init);
	return iscsi_long(buf, (size_t)len, init);
}
