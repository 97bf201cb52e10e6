/* crc_pclmul.c's forms built for CPUs with AVX (Sandy Bridge to Cascade Lake, Zen 1-2 and every
 * AVX2 CPU without VPCLMULQDQ): the same folds in VEX encodings. Their three-operand forms drop
 * the register copy in front of each carry-less multiply (8 of 59 instructions in the 128-byte
 * loop), and a VEX instruction never waits on upper vector halves that another piece of code left
 * dirty, where the legacy SSE build ran at 0.55x (crc32_ieee at 4 KiB on Zen 5, 8.4 against 14.9
 * GB/s, after one 512-bit instruction with no vzeroupper after it). */
#define CRC_PCLMUL_AVX 1
#include "crc_pclmul.c"
