/* xts_aesni.c's XTS forms built for CPUs with AVX but no VAES (Sandy Bridge to Cascade Lake,
 * Zen 1-3): the same code in VEX encodings, which never waits on upper vector halves another piece
 * of code left dirty (the legacy SSE build would, as crc_pclmul_avx.c measures). */
#define XTS_AESNI_AVX 1
#include "xts_aesni.c"
