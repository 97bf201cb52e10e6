/* SHA-512 for x86-64-v2: 2 messages at once in the 2 qword lanes of XMM registers, and one
 * message with its schedule two words at a time in SSSE3 vectors beside scalar rounds. */
#include "hash_arch.h"

#define HV_BITS 128
#define MB_NAME sha512_x2_sse42
#include "sha512_mb_tpl.h"

#define X5_BITS  128
#define X5_CORE  sha512_sse42_core
#define X5_NAME1 sha512_x1_sse42
#include "sha512_x1_tpl.h"
