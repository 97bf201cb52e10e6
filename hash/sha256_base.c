/* SHA-256 (FIPS 180-4 section 6.2), portable single-stream engine: a rolling 16-word schedule and
 * unrolled rounds, the eight working variables renamed by macro arguments. */
#include "hash_internal.h"

const uint32_t sha256_iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

/* FIPS 180-4 section 4.2.2. */
const uint32_t sha256_k[64] __attribute__((aligned(64))) = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

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
