/* SHA-256 on HV_LANES messages at once: the SHA-2 lane template on 32-bit lanes.
 * Parameters: HV_BITS (512 or 256) and MB_NAME, the function defined (a sha256_lanes_fn). */
#define SHA2_BITS         32
#define SHA2_WORD         uint32_t
#define SHA2_DIGEST_LANES 16
#define SHA2_K            sha256_k
#define SHA2_ROUNDS       64
#define SHA2_BSWAP        hv_bswap32
#define SHA2_S0(x)        V_XOR3_32(V_ROR32(x, 2), V_ROR32(x, 13), V_ROR32(x, 22))
#define SHA2_S1(x)        V_XOR3_32(V_ROR32(x, 6), V_ROR32(x, 11), V_ROR32(x, 25))
#define SHA2_s0(x)        V_XOR3_32(V_ROR32(x, 7), V_ROR32(x, 18), V_SHR32(x, 3))
#define SHA2_s1(x)        V_XOR3_32(V_ROR32(x, 17), V_ROR32(x, 19), V_SHR32(x, 10))
#include "sha2_mb_tpl.h"
