/* SHA-256, 16 messages at once in the 16 dword lanes of ZMM registers. */
#include "hash_arch.h"

#define HV_BITS 512
#define MB_NAME sha256_x16_avx512
#include "sha256_mb_tpl.h"
