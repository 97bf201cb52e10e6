/* SHA-256 with the ARMv8 crypto extensions (FEAT_SHA256): one stream and two interleaved.
 *
 * SHA256H takes {A,B,C,D} and {E,F,G,H} in the state's own word order and W + K of four rounds;
 * it returns the new {A,B,C,D}, and SHA256H2 the new {E,F,G,H} from the old {A,B,C,D}.
 * SHA256SU0 and SHA256SU1 extend the schedule four words at a time. */
#include <arm_neon.h>

#include "hash_arch.h"

typedef struct {
	uint32x4_t abcd, efgh;
} sha256_ce_state;

static inline void ce_load(sha256_ce_state *s, const uint32_t st[8])
{
	s->abcd = vld1q_u32(st);
	s->efgh = vld1q_u32(st + 4);
}

static inline void ce_store(uint32_t st[8], const sha256_ce_state *s)
{
	vst1q_u32(st, s->abcd);
	vst1q_u32(st + 4, s->efgh);
}

/* The 16 message bytes at p as four big-endian words. */
static inline uint32x4_t load_be(const uint8_t *p)
{
	return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)));
}

/* Four rounds on message words m = W[4i..4i+3]; then, while i < 12, m becomes W[4i+16..4i+19]
 * from it and the next three groups n, o, p. */
#define QUAD(i, m, n, o, p)                                                                        \
	do {                                                                                       \
		uint32x4_t wk = vaddq_u32(m, vld1q_u32(sha256_k + 4 * (i)));                       \
		uint32x4_t abcd0 = abcd;                                                           \
		abcd = vsha256hq_u32(abcd, efgh, wk);                                              \
		efgh = vsha256h2q_u32(efgh, abcd0, wk);                                            \
		if ((i) < 12)                                                                      \
			m = vsha256su1q_u32(vsha256su0q_u32(m, n), o, p);                          \
	} while (0)

static inline __attribute__((always_inline)) void ce_block(sha256_ce_state *s, const uint8_t *data)
{
	uint32x4_t abcd = s->abcd, efgh = s->efgh;
	uint32x4_t m0 = load_be(data), m1 = load_be(data + 16);
	uint32x4_t m2 = load_be(data + 32), m3 = load_be(data + 48);
	SHA256_QUADS(QUAD);
	s->abcd = vaddq_u32(s->abcd, abcd);
	s->efgh = vaddq_u32(s->efgh, efgh);
}

#define CE_ALG   sha256
#define CE_TOKEN sha2
#define CE_WORD  uint32_t
#define CE_BLOCK 64
#define CE_STATE sha256_ce_state
#include "hash_ce.h"
