/* SHA-1 with the SHA extensions: one stream, and two streams whose blocks alternate so the
 * out-of-order core overlaps their independent sha1rnds4 chains.
 *
 * sha1rnds4 takes {A,B,C,D} with A in the top lane and E riding in the top lane of the message
 * operand; sha1nexte derives the next E (A rotated by 30) while adding it to the next message
 * words. */
#include <immintrin.h>

#include "hash_arch.h"
#include "sha_vzu.h"

/* Four rounds with function/constant f (0-3 for rounds 0-19, 20-39, 40-59, 60-79) on message
 * words m = W[4i..4i+3]; the E input comes from the previous group's saved ABCD (ein) except in
 * group 0. While i < 16, m then becomes W[4i+16..4i+19] from it and the next three groups. */
#define QUAD(i, f, ein, eout, m, n, o, p)                                                          \
	do {                                                                                       \
		ein = (i) == 0 ? _mm_add_epi32(ein, m) : _mm_sha1nexte_epu32(ein, m);              \
		eout = abcd;                                                                       \
		abcd = _mm_sha1rnds4_epu32(abcd, ein, f);                                          \
		if ((i) < 16)                                                                      \
			m = _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32(m, n), o), p);     \
	} while (0)

static inline __attribute__((always_inline)) void block(__m128i *abcd_io, __m128i *e_io,
                                                        const uint8_t *data)
{
	const __m128i rev = _mm_set_epi64x(0x0001020304050607ll, 0x08090a0b0c0d0e0fll);
	__m128i abcd = *abcd_io, e0 = *e_io, e1;
	__m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)data), rev);
	__m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), rev);
	__m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), rev);
	__m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), rev);
	QUAD(0, 0, e0, e1, m0, m1, m2, m3);
	QUAD(1, 0, e1, e0, m1, m2, m3, m0);
	QUAD(2, 0, e0, e1, m2, m3, m0, m1);
	QUAD(3, 0, e1, e0, m3, m0, m1, m2);
	QUAD(4, 0, e0, e1, m0, m1, m2, m3);
	QUAD(5, 1, e1, e0, m1, m2, m3, m0);
	QUAD(6, 1, e0, e1, m2, m3, m0, m1);
	QUAD(7, 1, e1, e0, m3, m0, m1, m2);
	QUAD(8, 1, e0, e1, m0, m1, m2, m3);
	QUAD(9, 1, e1, e0, m1, m2, m3, m0);
	QUAD(10, 2, e0, e1, m2, m3, m0, m1);
	QUAD(11, 2, e1, e0, m3, m0, m1, m2);
	QUAD(12, 2, e0, e1, m0, m1, m2, m3);
	QUAD(13, 2, e1, e0, m1, m2, m3, m0);
	QUAD(14, 2, e0, e1, m2, m3, m0, m1);
	QUAD(15, 3, e1, e0, m3, m0, m1, m2);
	QUAD(16, 3, e0, e1, m0, m1, m2, m3);
	QUAD(17, 3, e1, e0, m1, m2, m3, m0);
	QUAD(18, 3, e0, e1, m2, m3, m0, m1);
	QUAD(19, 3, e1, e0, m3, m0, m1, m2);
	/* e0 holds the ABCD that entered the last group: its A, rotated, is the new E. */
	*e_io = _mm_sha1nexte_epu32(e0, *e_io);
	*abcd_io = _mm_add_epi32(*abcd_io, abcd);
}

static inline void load_state(const uint32_t st[5], __m128i *abcd, __m128i *e)
{
	*abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)st), 0x1b);
	*e = _mm_set_epi32((int)st[4], 0, 0, 0);
}

static inline void store_state(uint32_t st[5], __m128i abcd, __m128i e)
{
	_mm_storeu_si128((__m128i *)st, _mm_shuffle_epi32(abcd, 0x1b));
	st[4] = (uint32_t)_mm_extract_epi32(e, 3);
}

void SHANI_NAME(sha1_x1)(uint32_t st[5], const uint8_t *data, uint64_t nblocks)
{
	SHANI_ENTER();
	__m128i abcd, e;
	load_state(st, &abcd, &e);
	for (; nblocks; nblocks--, data += 64)
		block(&abcd, &e, data);
	store_state(st, abcd, e);
}

void SHANI_NAME(sha1_x2)(uint32_t a[5], uint32_t b[5], const uint8_t *da, const uint8_t *db,
                         uint64_t nblocks)
{
	SHANI_ENTER();
	__m128i abcd_a, e_a, abcd_b, e_b;
	load_state(a, &abcd_a, &e_a);
	load_state(b, &abcd_b, &e_b);
	for (; nblocks; nblocks--, da += 64, db += 64) {
		block(&abcd_a, &e_a, da);
		block(&abcd_b, &e_b, db);
	}
	store_state(a, abcd_a, e_a);
	store_state(b, abcd_b, e_b);
}
