/* CRC engines on 256-bit VPCLMULQDQ folds for CPUs with AVX2, VPCLMULQDQ and GFNI but no
 * AVX-512 (Alder Lake, Sierra Forest): crc_fold256.h's engine; MSB-first CRCs run as their
 * bit-reversed reflected twins from CRC_BITREV_MIN bytes on, as in crc_vpclmul.c. */
#include "crc_fold256.h"

CRC_GFNI_ENGINES(crc_fold_vpclmul256)
CRC_PUBLIC_FORMS(vpclmul256, norm_inline, refl_inline)
