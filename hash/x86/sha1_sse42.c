/* SHA-1 for x86-64-v2: 4 messages at once in the 4 dword lanes of XMM registers, and one message
 * with the schedule in SSSE3 vectors beside scalar rounds. */
#include "hash_arch.h"

#define HV_BITS 128
#define MB_NAME sha1_x4_sse42
#include "sha1_mb_tpl.h"

#define X1_NAME sha1_x1_sse42
#include "sha1_x1_tpl.h"
