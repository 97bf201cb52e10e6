/* SHA-512, 8 messages at once in the 8 qword lanes of ZMM registers. */
#include "hash/hash_internal.h"

#define HV_BITS 512
#define MB_NAME sha512_x8_avx512
#include "sha512_mb_tpl.h"
