/* SHA-256, 8 messages at once in the 8 dword lanes of YMM registers. */
#include "hash_arch.h"

#define HV_BITS 256
#define MB_NAME sha256_x8_avx2
#include "sha256_mb_tpl.h"

/* One message: the vector schedule beside scalar rounds, with BMI2's RORX. */
#define X1_NAME sha256_x1_avx2
#include "sha256_x1_tpl.h"
