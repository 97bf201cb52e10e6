/* SHA-256 for x86-64-v2: 4 messages at once in the 4 dword lanes of XMM registers, and one
 * message with the schedule in SSSE3 vectors beside scalar rounds. */
#include "hash_arch.h"

#define SHA256_K4(k) { k, k, k, k },
/* K[t] in all four lanes, for memory operands (aligned, as legacy SSE requires). */
static _Alignas(16) const uint32_t sha256_k4[64][4] = { SHA256_K_LIST(SHA256_K4) };

#define HV_BITS 128
#define MB_NAME sha256_x4_sse42
#define SHA2_K4 sha256_k4
#include "sha256_mb_tpl.h"

#define X1_NAME sha256_x1_sse42
#include "sha256_x1_tpl.h"
