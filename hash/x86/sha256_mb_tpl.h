/* SHA-256 on HV_LANES messages at once: the SHA-2 lane template on 32-bit lanes.
 * Parameters: HV_BITS (512, 256 or 128) and MB_NAME, the function defined (a sha256_lanes_fn). */
#define SHA2_BITS         32
#define SHA2_WORD         uint32_t
#define SHA2_DIGEST_LANES 16
#define SHA2_K            sha256_k
#define SHA2_ROUNDS       64
#define SHA2_BSWAP        hv_bswap32
#if HV_BITS == 128
/* The rotates' halves nested (HV_SIGMA): Sigma0's right halves are
 * ((x >> 9 ^ x) >> 11 ^ x) >> 2, its left ((x << 11 ^ x) << 9 ^ x) << 10, and so on. */
#define SHA2_S0(x) HV_SIGMA(x, 9, 11, 2, 11, 9, 10)
#define SHA2_S1(x) HV_SIGMA(x, 14, 5, 6, 5, 14, 7)
#define SHA2_s0(x) HV_SIGMA_SHR(x, 11, 4, 3, 11, 14)
#define SHA2_s1(x) HV_SIGMA_SHR(x, 2, 7, 10, 2, 13)
#else
#define SHA2_S0(x)        V_XOR3_32(V_ROR32(x, 2), V_ROR32(x, 13), V_ROR32(x, 22))
#define SHA2_S1(x)        V_XOR3_32(V_ROR32(x, 6), V_ROR32(x, 11), V_ROR32(x, 25))
#define SHA2_s0(x)        V_XOR3_32(V_ROR32(x, 7), V_ROR32(x, 18), V_SHR32(x, 3))
#define SHA2_s1(x)        V_XOR3_32(V_ROR32(x, 17), V_ROR32(x, 19), V_SHR32(x, 10))
#endif
#include "sha2_mb_tpl.h"
