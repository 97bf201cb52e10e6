/* CRC engines on 256-bit VPCLMULQDQ folds for CPUs with AVX2 and VPCLMULQDQ but neither GFNI
 * nor AVX-512 (AMD Zen 3): crc_fold256.h's engine, MSB-first CRCs in byte-swapped order at
 * every length. Without it such a CPU ran the 128-bit engine at 0.53-0.75x ISA-L's
 * VPCLMULQDQ code. */
#include "crc_fold256.h"

CRC_PLAIN_ENGINES(crc_fold_vpclmul256)
CRC_PUBLIC_FORMS(vpclmul256n, norm_inline, refl_inline)
CRC_GZIP_COPY_FORM(vpclmul256n, crc_fold_vpclmul256_to, memcpy)
