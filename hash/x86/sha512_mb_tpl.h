/* SHA-512 on HV_LANES messages at once: the SHA-2 lane template on 64-bit lanes.
 * Parameters: HV_BITS (512 or 256) and MB_NAME, the function defined (a sha512_lanes_fn). */
#define SHA2_BITS         64
#define SHA2_WORD         uint64_t
#define SHA2_DIGEST_LANES 8
#define SHA2_K            sha512_k
#define SHA2_ROUNDS       80
#define SHA2_BSWAP        hv_bswap64
#define SHA2_S0(x)        V_XOR3_64(V_ROR64(x, 28), V_ROR64(x, 34), V_ROR64(x, 39))
#define SHA2_S1(x)        V_XOR3_64(V_ROR64(x, 14), V_ROR64(x, 18), V_ROR64(x, 41))
#define SHA2_s0(x)        V_XOR3_64(V_ROR64(x, 1), V_ROR64(x, 8), V_SHR64(x, 7))
#define SHA2_s1(x)        V_XOR3_64(V_ROR64(x, 19), V_ROR64(x, 61), V_SHR64(x, 6))
#include "sha2_mb_tpl.h"
