/* crc_pclmul.c's forms built for CPUs with AVX (Sandy Bridge to Cascade Lake, Zen 1-2 and every
 * AVX2 CPU without VPCLMULQDQ): the same folds in VEX encodings, which never wait on upper vector
 * halves another piece of code left dirty, where the legacy SSE build runs at 0.55x (crc32_ieee
 * at 4 KiB on Zen 5). */
#define CRC_PCLMUL_AVX 1
#include "crc_pclmul.c"
