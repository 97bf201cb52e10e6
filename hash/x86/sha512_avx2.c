/* SHA-512, 4 messages at once in the 4 qword lanes of YMM registers. */
#include "hash_arch.h"

#define HV_BITS 256
#define MB_NAME sha512_x4_avx2
#include "sha512_mb_tpl.h"

/* One stream, and two sharing one schedule pass: scalar BMI2 rounds (RORX, ANDN) beside an AVX2
 * schedule of two blocks at once. */
#define X5_BITS  256
#define X5_CORE  sha512_avx2_core
#define X5_NAME1 sha512_x1_avx2
#define X5_NAME2 sha512_x2_avx2
#include "sha512_x1_tpl.h"
