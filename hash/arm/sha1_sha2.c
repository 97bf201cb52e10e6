/* SHA-1 with the ARMv8 crypto extensions (FEAT_SHA1): one stream and two interleaved.
 *
 * SHA1C, SHA1P and SHA1M run four rounds with the choose, parity and majority functions on
 * {A,B,C,D} (the state's word order), E in a scalar register and W + K; the E of the next four
 * rounds is the A that entered these, rotated by SHA1H. SHA1SU0 and SHA1SU1 extend the schedule
 * four words at a time. */
#include <arm_neon.h>

#include "hash_arch.h"

typedef struct {
	uint32x4_t abcd;
	uint32_t e;
} sha1_ce_state;

static inline void ce_load(sha1_ce_state *s, const uint32_t st[5])
{
	s->abcd = vld1q_u32(st);
	s->e = st[4];
}

static inline void ce_store(uint32_t st[5], const sha1_ce_state *s)
{
	vst1q_u32(st, s->abcd);
	st[4] = s->e;
}

static inline uint32x4_t load_be(const uint8_t *p)
{
	return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)));
}

/* FIPS 180-4 section 4.2.1: the constant of rounds 0-19, 20-39, 40-59, 60-79. */
#define K0 0x5a827999u
#define K1 0x6ed9eba1u
#define K2 0x8f1bbcdcu
#define K3 0xca62c1d6u

/* Four rounds (group i) with round function op (vsha1cq_u32, vsha1pq_u32, vsha1mq_u32) and
 * constant k on message words m = W[4i..4i+3]; then, while i < 16, m becomes W[4i+16..4i+19]
 * from it and the next three groups n, o, p. */
#define QUAD(i, op, k, m, n, o, p)                                                                 \
	do {                                                                                       \
		uint32x4_t wk = vaddq_u32(m, vdupq_n_u32(k));                                      \
		uint32_t e_next = vsha1h_u32(vgetq_lane_u32(abcd, 0));                             \
		abcd = op(abcd, e, wk);                                                            \
		e = e_next;                                                                        \
		if ((i) < 16)                                                                      \
			m = vsha1su1q_u32(vsha1su0q_u32(m, n, o), p);                              \
	} while (0)

static inline __attribute__((always_inline)) void ce_block(sha1_ce_state *s, const uint8_t *data)
{
	uint32x4_t abcd = s->abcd;
	uint32_t e = s->e;
	uint32x4_t m0 = load_be(data), m1 = load_be(data + 16);
	uint32x4_t m2 = load_be(data + 32), m3 = load_be(data + 48);
	QUAD(0, vsha1cq_u32, K0, m0, m1, m2, m3);
	QUAD(1, vsha1cq_u32, K0, m1, m2, m3, m0);
	QUAD(2, vsha1cq_u32, K0, m2, m3, m0, m1);
	QUAD(3, vsha1cq_u32, K0, m3, m0, m1, m2);
	QUAD(4, vsha1cq_u32, K0, m0, m1, m2, m3);
	QUAD(5, vsha1pq_u32, K1, m1, m2, m3, m0);
	QUAD(6, vsha1pq_u32, K1, m2, m3, m0, m1);
	QUAD(7, vsha1pq_u32, K1, m3, m0, m1, m2);
	QUAD(8, vsha1pq_u32, K1, m0, m1, m2, m3);
	QUAD(9, vsha1pq_u32, K1, m1, m2, m3, m0);
	QUAD(10, vsha1mq_u32, K2, m2, m3, m0, m1);
	QUAD(11, vsha1mq_u32, K2, m3, m0, m1, m2);
	QUAD(12, vsha1mq_u32, K2, m0, m1, m2, m3);
	QUAD(13, vsha1mq_u32, K2, m1, m2, m3, m0);
	QUAD(14, vsha1mq_u32, K2, m2, m3, m0, m1);
	QUAD(15, vsha1pq_u32, K3, m3, m0, m1, m2);
	QUAD(16, vsha1pq_u32, K3, m0, m1, m2, m3);
	QUAD(17, vsha1pq_u32, K3, m1, m2, m3, m0);
	QUAD(18, vsha1pq_u32, K3, m2, m3, m0, m1);
	QUAD(19, vsha1pq_u32, K3, m3, m0, m1, m2);
	s->abcd = vaddq_u32(s->abcd, abcd);
	s->e += e;
}

#define CE_ALG   sha1
#define CE_TOKEN sha2
#define CE_WORD  uint32_t
#define CE_BLOCK 64
#define CE_STATE sha1_ce_state
#include "hash_ce.h"
