/* SHA-512 with the ARMv8.2 SHA-512 instructions (FEAT_SHA512), one stream.
 *
 * The state lives in four registers of two words each, {A,B} {C,D} {E,F} {G,H} (A, C, E, G in
 * the low lanes). SHA512H runs the T1 half of two rounds: given {G,H} plus the two rounds' K + W
 * (the later round's in the low lane), {F,G} and {D,E} (each an EXT of neighbouring registers),
 * it returns the two rounds' T1 sums; {C,D} plus those is the new {E,F}. SHA512H2 adds Sigma0
 * and Maj to the T1 sums with {C,D} and {A,B}, which gives the new {A,B}; the old {A,B} and
 * {E,F} become {C,D} and {G,H}. SHA512SU0 and SHA512SU1 extend the schedule two words at a
 * time.
 *
 * No two-stream form: two streams' state, message and feed-forward registers outnumber the 32
 * vector registers, and the spills cost more instructions than the two single streams. */
#include <arm_neon.h>

#include "hash_arch.h"

typedef struct {
	uint64x2_t ab, cd, ef, gh;
} sha512_ce_state;

static inline void ce_load(sha512_ce_state *s, const uint64_t st[8])
{
	s->ab = vld1q_u64(st);
	s->cd = vld1q_u64(st + 2);
	s->ef = vld1q_u64(st + 4);
	s->gh = vld1q_u64(st + 6);
}

static inline void ce_store(uint64_t st[8], const sha512_ce_state *s)
{
	vst1q_u64(st, s->ab);
	vst1q_u64(st + 2, s->cd);
	vst1q_u64(st + 4, s->ef);
	vst1q_u64(st + 6, s->gh);
}

/* The 16 message bytes at p as two big-endian words. */
static inline uint64x2_t load_be(const uint8_t *p)
{
	return vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(p)));
}

static inline __attribute__((always_inline)) void ce_block(sha512_ce_state *s, const uint8_t *data)
{
	uint64x2_t ab = s->ab, cd = s->cd, ef = s->ef, gh = s->gh;
	uint64x2_t m[8];
#pragma GCC unroll 8
	for (int j = 0; j < 8; j++)
		m[j] = load_be(data + 16 * j);
		/* Rounds 2j and 2j + 1 on m[j % 8] = W[2j..2j+1]; while j < 32, that register then
		 * becomes W[2j+16..2j+17] = sigma1(W[2j+14..]) + W[2j+9..] + sigma0(W[2j+1..]) +
		 * W[2j..]. */
#pragma GCC unroll 40
	for (int j = 0; j < 40; j++) {
		uint64x2_t kw = vaddq_u64(m[j % 8], vld1q_u64(sha512_k + 2 * j));
		uint64x2_t t1 = vsha512hq_u64(vaddq_u64(gh, vextq_u64(kw, kw, 1)),
		                              vextq_u64(ef, gh, 1), vextq_u64(cd, ef, 1));
		uint64x2_t ef_next = vaddq_u64(cd, t1);
		uint64x2_t ab_next = vsha512h2q_u64(t1, cd, ab);
		gh = ef;
		ef = ef_next;
		cd = ab;
		ab = ab_next;
		if (j < 32)
			m[j % 8] = vsha512su1q_u64(vsha512su0q_u64(m[j % 8], m[(j + 1) % 8]),
			                           m[(j + 7) % 8],
			                           vextq_u64(m[(j + 4) % 8], m[(j + 5) % 8], 1));
	}
	s->ab = vaddq_u64(s->ab, ab);
	s->cd = vaddq_u64(s->cd, cd);
	s->ef = vaddq_u64(s->ef, ef);
	s->gh = vaddq_u64(s->gh, gh);
}

#define CE_ALG   sha512
#define CE_TOKEN sha512
#define CE_WORD  uint64_t
#define CE_BLOCK 128
#define CE_STATE sha512_ce_state
#define CE_NO_X2
#include "hash_ce.h"
