/* SHA-256, 8 messages at once in the 8 dword lanes of YMM registers: two builds of the lane
 * template, rotates by shifts or with a multiply in each sigma (sha256_mb_tpl.h), picked per CPU. */
#include "hash_arch.h"

#pragma GCC visibility push(hidden)
sha256_lanes_fn sha256_x8_avx2_shift, sha256_x8_avx2_mul;
#pragma GCC visibility pop

#define HV_BITS 256
#define MB_NAME sha256_x8_avx2_shift
#include "sha256_mb_tpl.h"

#define HV_BITS      256
#define MB_NAME      sha256_x8_avx2_mul
#define SHA2_MUL_ROT 1
#include "sha256_mb_tpl.h"

void sha256_x8_avx2(uint32_t digest[8][16], uint8_t *const *data, uint64_t nblocks)
{
	(stoa_x86_vshift_slow() ? sha256_x8_avx2_mul : sha256_x8_avx2_shift)(digest, data, nblocks);
}

/* One message: the vector schedule beside scalar rounds, with BMI2's RORX. */
#define X1_NAME sha256_x1_avx2
#include "sha256_x1_tpl.h"
