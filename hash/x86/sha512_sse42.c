/* SHA-512 for x86-64-v2: one stream, its message schedule two words at a time in SSSE3 vectors
 * beside scalar rounds. */
#include "hash_arch.h"

#define X5_BITS  128
#define X5_CORE  sha512_sse42_core
#define X5_NAME1 sha512_x1_sse42
#include "sha512_x1_tpl.h"
