/* SHA-512 on HV_LANES messages at once: the SHA-2 lane template on 64-bit lanes.
 * Parameters: HV_BITS (512, 256 or 128) and MB_NAME, the function defined (a sha512_lanes_fn). */
#define SHA2_BITS         64
#define SHA2_WORD         uint64_t
#define SHA2_DIGEST_LANES 8
#define SHA2_K            sha512_k
#define SHA2_ROUNDS       80
#define SHA2_BSWAP        hv_bswap64
#if HV_BITS == 128
/* The rotates' halves nested, as in SHA-256's SSE engine (sha256_mb_tpl.h). */
#define SHA2_S0(x) HV_SIGMA(x, 5, 6, 28, 6, 5, 25)
#define SHA2_S1(x) HV_SIGMA(x, 23, 4, 14, 4, 23, 23)
#define SHA2_s0(x) HV_SIGMA_SHR(x, 1, 6, 1, 7, 56)
#define SHA2_s1(x) HV_SIGMA_SHR(x, 42, 13, 6, 42, 3)
#else
#define SHA2_S0(x) V_XOR3_64(V_ROR64(x, 28), V_ROR64(x, 34), V_ROR64(x, 39))
#define SHA2_S1(x) V_XOR3_64(V_ROR64(x, 14), V_ROR64(x, 18), V_ROR64(x, 41))
#if HV_BITS == 512
#define SHA2_s0(x) V_XOR3_64(V_ROR64(x, 1), V_ROR64(x, 8), V_SHR64(x, 7))
#else
/* Without a rotate instruction, the rotate by 8 is one byte shuffle instead of two shifts and an
 * OR (x4 kernel alone: 2-3% faster). */
static const uint8_t hv_ror8_64[16] = { 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8 };
#define SHA2_s0(x) V_XOR3_64(V_ROR64(x, 1), V_SHUF8(x, V_BCAST128(hv_ror8_64)), V_SHR64(x, 7))
#endif
#define SHA2_s1(x) V_XOR3_64(V_ROR64(x, 19), V_ROR64(x, 61), V_SHR64(x, 6))
#endif
#include "sha2_mb_tpl.h"
