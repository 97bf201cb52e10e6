/* CRC engines on 256-bit VPCLMULQDQ folds for CPUs with AVX2 and VPCLMULQDQ but no AVX-512
 * (AMD Zen 3; Alder Lake and Sierra Forest, which also have GFNI): crc_fold256.h's engine.
 * Without it Zen 3 ran the 128-bit engine at 0.53-0.75x ISA-L's VPCLMULQDQ code. */
#include "crc_fold256.h"

CRC_PLAIN_ENGINES(crc_fold_vpclmul256)
CRC_PUBLIC_FORMS(vpclmul256n, norm_inline, refl_inline)
CRC_GZIP_COPY_FORM(vpclmul256n, crc_fold_vpclmul256_to, memcpy)
