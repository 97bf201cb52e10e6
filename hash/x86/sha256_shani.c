/* SHA-256 with the SHA extensions: one stream, and two streams whose blocks alternate so the
 * out-of-order core overlaps the two independent dependency chains of sha256rnds2.
 *
 * sha256rnds2 keeps the state as two registers, {A,B,E,F} and {C,D,G,H} (A in the top lane);
 * the words are rearranged into that form once per call, not per block. */
#include <immintrin.h>

#include "hash_arch.h"
#include "sha_vzu.h"

static inline void load_state(const uint32_t st[8], __m128i *abef, __m128i *cdgh)
{
	__m128i badc = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)st), 0xb1);
	__m128i hgfe = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(st + 4)), 0x1b);
	*abef = _mm_alignr_epi8(badc, hgfe, 8);
	*cdgh = _mm_blend_epi16(hgfe, badc, 0xf0);
}

static inline void store_state(uint32_t st[8], __m128i abef, __m128i cdgh)
{
	__m128i feba = _mm_shuffle_epi32(abef, 0x1b);
	__m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);
	_mm_storeu_si128((__m128i *)st, _mm_blend_epi16(feba, dchg, 0xf0));
	_mm_storeu_si128((__m128i *)(st + 4), _mm_alignr_epi8(dchg, feba, 8));
}

/* Four rounds on message words m (W[4i..4i+3]); then, while i < 12, m becomes W[4i+16..4i+19]
 * from it and the next three groups n, o, p. */
#define QUAD(i, m, n, o, p)                                                                        \
	do {                                                                                       \
		__m128i wk =                                                                       \
		    _mm_add_epi32(m, _mm_load_si128((const __m128i *)(sha256_k + 4 * (i))));       \
		cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);                                      \
		abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e));             \
		if ((i) < 12)                                                                      \
			m = _mm_sha256msg2_epu32(                                                  \
			    _mm_add_epi32(_mm_sha256msg1_epu32(m, n), _mm_alignr_epi8(p, o, 4)),   \
			    p);                                                                    \
	} while (0)

static inline __attribute__((always_inline)) void block(__m128i *abef_io, __m128i *cdgh_io,
                                                        const uint8_t *data)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
	__m128i abef = *abef_io, cdgh = *cdgh_io;
	__m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)data), bswap);
	__m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), bswap);
	__m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), bswap);
	__m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), bswap);
	SHA256_QUADS(QUAD);
	*abef_io = _mm_add_epi32(*abef_io, abef);
	*cdgh_io = _mm_add_epi32(*cdgh_io, cdgh);
}

void SHANI_NAME(sha256_x1)(uint32_t st[8], const uint8_t *data, uint64_t nblocks)
{
	SHANI_ENTER();
	__m128i abef, cdgh;
	load_state(st, &abef, &cdgh);
	for (; nblocks; nblocks--, data += 64)
		block(&abef, &cdgh, data);
	store_state(st, abef, cdgh);
}

void SHANI_NAME(sha256_x2)(uint32_t a[8], uint32_t b[8], const uint8_t *da, const uint8_t *db,
                           uint64_t nblocks)
{
	SHANI_ENTER();
	__m128i abef_a, cdgh_a, abef_b, cdgh_b;
	load_state(a, &abef_a, &cdgh_a);
	load_state(b, &abef_b, &cdgh_b);
	for (; nblocks; nblocks--, da += 64, db += 64) {
		block(&abef_a, &cdgh_a, da);
		block(&abef_b, &cdgh_b, db);
	}
	store_state(a, abef_a, cdgh_a);
	store_state(b, abef_b, cdgh_b);
}
