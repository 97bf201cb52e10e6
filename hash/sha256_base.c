/* SHA-256 (FIPS 180-4 section 6.2), portable single-stream engine: a rolling 16-word schedule and
 * unrolled rounds, the eight working variables renamed by macro arguments. */
#include "hash_internal.h"

const uint32_t sha256_iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

#define SHA256_K1(k) k,
const uint32_t sha256_k[64] __attribute__((aligned(64))) = { SHA256_K_LIST(SHA256_K1) };

#define SHA2_FN     sha256_x1_portable
#define SHA2_WORD   uint32_t
#define SHA2_LOAD   hash_be32
#define SHA2_K      sha256_k
#define SHA2_ROUNDS 64
#define SHA2_S0(x)  (hash_ror32(x, 2) ^ hash_ror32(x, 13) ^ hash_ror32(x, 22))
#define SHA2_S1(x)  (hash_ror32(x, 6) ^ hash_ror32(x, 11) ^ hash_ror32(x, 25))
#define SHA2_s0(x)  (hash_ror32(x, 7) ^ hash_ror32(x, 18) ^ ((x) >> 3))
#define SHA2_s1(x)  (hash_ror32(x, 17) ^ hash_ror32(x, 19) ^ ((x) >> 10))
#include "sha2_tpl.h"
