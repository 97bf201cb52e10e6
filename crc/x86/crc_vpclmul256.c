/* CRC engines on 256-bit VPCLMULQDQ folds for CPUs with AVX2, VPCLMULQDQ and GFNI but no
 * AVX-512 (Alder Lake, Sierra Forest): crc_fold256.h's engine; MSB-first CRCs run as their
 * bit-reversed reflected twins from CRC_BITREV_MIN bytes on, as in crc_vpclmul.c. */
#include "crc_fold256.h"

CRC_GFNI_ENGINES(crc_fold_vpclmul256)
CRC_PUBLIC_FORMS(vpclmul256, norm_inline, refl_inline)

/* crc32_iscsi for these CPUs: the fold engine below 8 KiB, where the crc32 streams beside 128-bit
 * folds (crc32_iscsi_streams) have not yet reached their speed, the streams from there on (with
 * x86-64-v3 + GFNI on Zen 4: 512 B 26.3 against 25.3 GB/s, 1 KiB 27.8 / 22.3, 4 KiB 29.1 / 28.1,
 * 8 KiB a tie, 16 KiB 29.4 / 33.9, 64 KiB 29.5 / 34.3). */
unsigned int crc32_iscsi_fold256(unsigned char *buf, int len, unsigned int init);
CRC_ISCSI_FORM(fold256, refl_inline)

unsigned int crc32_iscsi_vpclmul256(unsigned char *buf, int len, unsigned int init)
{
	return len < 8192 ? crc32_iscsi_fold256(buf, len, init)
	                  : crc32_iscsi_streams(buf, len, init);
}
