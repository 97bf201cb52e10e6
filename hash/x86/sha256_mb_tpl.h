/* SHA-256 on HV_LANES messages at once: the SHA-2 lane template on 32-bit lanes.
 * Parameters: HV_BITS (512, 256 or 128) and MB_NAME, the function defined (a sha256_lanes_fn);
 * optional SHA2_MUL_ROT (256 bits, GNU C): one rotate of each sigma takes its left half as a
 * multiply (below). */
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
#elif HV_BITS == 256 && defined(SHA2_MUL_ROT) && defined(__GNUC__)
/* For cores whose vector shifts have one pipe and the multiplier another (stoa_x86_vshift_slow),
 * where the round's 22 shifts bound it: one rotate of each sigma computes x << (32 - n) as
 * x * 2^(32 - n) (x8 kernel on Zen 1: 1.11x the shifts-only code; more multiplies, fewer gains).
 * The factor is pinned in a register (HV_PIN), else the compiler turns the multiply back into a
 * shift. */
#define SHA2_ROR_MUL(x, n)                                                                         \
	__extension__({                                                                            \
		V f_ = V_SET1_32((int)(1u << (32 - (n))));                                         \
		HV_PIN(f_);                                                                        \
		V_OR(V_SHR32(x, n), _mm256_mullo_epi32(x, f_));                                    \
	})
#define SHA2_S0(x)        V_XOR3_32(V_ROR32(x, 2), SHA2_ROR_MUL(x, 13), V_ROR32(x, 22))
#define SHA2_S1(x)        V_XOR3_32(SHA2_ROR_MUL(x, 6), V_ROR32(x, 11), V_ROR32(x, 25))
#define SHA2_s0(x)        V_XOR3_32(SHA2_ROR_MUL(x, 7), V_ROR32(x, 18), V_SHR32(x, 3))
#define SHA2_s1(x)        V_XOR3_32(V_ROR32(x, 17), SHA2_ROR_MUL(x, 19), V_SHR32(x, 10))
#else
#define SHA2_S0(x)        V_XOR3_32(V_ROR32(x, 2), V_ROR32(x, 13), V_ROR32(x, 22))
#define SHA2_S1(x)        V_XOR3_32(V_ROR32(x, 6), V_ROR32(x, 11), V_ROR32(x, 25))
#define SHA2_s0(x)        V_XOR3_32(V_ROR32(x, 7), V_ROR32(x, 18), V_SHR32(x, 3))
#define SHA2_s1(x)        V_XOR3_32(V_ROR32(x, 17), V_ROR32(x, 19), V_SHR32(x, 10))
#endif
#include "sha2_mb_tpl.h"
#undef SHA2_ROR_MUL
#undef SHA2_MUL_ROT
