/* SHA-512 for x86-64-v2: 2 messages at once in the 2 qword lanes of XMM registers. */
#include "hash_arch.h"

#define HV_BITS 128
#define MB_NAME sha512_lanes2_sse42
#include "sha512_mb_tpl.h"
