/* The near-optimal levels' cached matches and their cheapest path (deflate_optimal.c).
 *
 * The path is built once portable (deflate_optimal.c) and once with AVX2 (x86/deflate_path_avx2.c,
 * the same walk): where a match offers 9 lengths or more, the cheapest of them is found eight
 * lengths a step. Runs of one byte offer up to 258 lengths at each of their positions, and the
 * scalar minimum took 80% of the path's time on them (a third of level 11's time on runs, 16% on
 * Calgary). Every variant takes the same lengths: the least cost, and of equal costs the shortest
 * length, as the scalar loop's strict comparison from the shortest keeps it. */
#ifndef STOA_DEFLATE_PATH_H
#define STOA_DEFLATE_PATH_H

#include "deflate_internal.h"
#ifdef __AVX2__
#include <immintrin.h>
#endif

#define COST_UNIT 16u /* cost units per bit */

/* A cached match: length (3 .. 258), distance symbol and distance; a choice of the path is one
 * too (0: a literal). */
#define OPT_M(len, dsym, dist) ((uint32_t)(len) | (uint32_t)(dsym) << 9 | (uint32_t)(dist) << 14)
#define OPT_LEN(m)             ((m)&511u)
#define OPT_DSYM(m)            (((m) >> 9) & 31u)
#define OPT_DIST(m)            (((m) >> 14) & 0xffffu)
/* A match inside a long one (a skipped position's rest of it), offered at its full length only:
 * the lengths below it would cost the path a loop per position, quadratic in a long match. */
#define OPT_WHOLE 0x40000000u

/* The most matches kept for one position. */
#define OPT_PER_POS 12

/* Costs of one pass (units of 1/16 bit, one more per token). */
struct defl_opt_costs {
	uint32_t lit[256];
	uint32_t len[DEFL_MAX_MATCH + 1];
	uint32_t dsym[30];
};

/* The least of lc[l] + rest[l] for l in [lo, hi], and in *at the shortest l that takes it (lo
 * alone when lo > hi). Branch-free minima: where they fall is data, which a predictor misses
 * often. */
static inline __attribute__((always_inline)) uint32_t
path_least(const uint32_t *lc, const uint32_t *rest, uint32_t lo, uint32_t hi, uint32_t *at)
{
#ifdef __AVX2__
	if (hi >= lo + 8) {
		/* The least value, eight lengths a step with the last step overlapping the one
		 * before it; then the first length that has it. No load passes hi. */
		__m256i v = _mm256_set1_epi32(-1);
		uint32_t l = lo;
		for (; l + 7 <= hi; l += 8)
			v = _mm256_min_epu32(
			    v, _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(lc + l)),
			                        _mm256_loadu_si256((const __m256i *)(rest + l))));
		v = _mm256_min_epu32(
		    v, _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(lc + hi - 7)),
		                        _mm256_loadu_si256((const __m256i *)(rest + hi - 7))));
		__m128i h = _mm_min_epu32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
		h = _mm_min_epu32(h, _mm_shuffle_epi32(h, 0x4e));
		h = _mm_min_epu32(h, _mm_shuffle_epi32(h, 0xb1));
		const uint32_t least = (uint32_t)_mm_cvtsi128_si32(h);
		const __m256i want = _mm256_broadcastd_epi32(h);
		for (l = lo;; l += 8) {
			/* Past the last whole step the overlapping one: the lengths it repeats
			 * were not the least. */
			const uint32_t from = l + 7 <= hi ? l : hi - 7;
			const __m256i y =
			    _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(lc + from)),
			                     _mm256_loadu_si256((const __m256i *)(rest + from)));
			const uint32_t eq = (uint32_t)_mm256_movemask_ps(
			    _mm256_castsi256_ps(_mm256_cmpeq_epi32(y, want)));
			if (eq) {
				*at = from + (uint32_t)__builtin_ctz(eq);
				return least;
			}
		}
	}
#endif
	uint32_t mx = lc[lo] + rest[lo], ml = lo;
	for (uint32_t len = lo + 1; len <= hi; len++) {
		const uint32_t y = lc[len] + rest[len];
		const int lt = y < mx;
		mx = lt ? y : mx;
		ml = lt ? len : ml;
	}
	*at = ml;
	return mx;
}

/* The cheapest path through the n cached positions from src (choice[i]: 0 a literal, else the
 * match taken at i). */
static inline __attribute__((always_inline)) void
path_walk(struct defl_opt *o, const uint8_t *src, uint32_t n, const struct defl_opt_costs *c)
{
	uint32_t *const cost = o->cost;
	cost[n] = 0;
	for (uint32_t i = n; i-- > 0;) {
		uint32_t best = c->lit[src[i]] + cost[i + 1], ch = 0;
		const uint32_t room = n - i;
		const uint32_t k0 = o->start[i], k1 = o->start[i + 1];
		/* Each match adds the lengths above the shorter one before it, at its own distance
		 * (one per length, the nearest: a longer one is farther and rarely cheaper). Most
		 * add one length. */
		uint32_t lo = 2;
		for (uint32_t k = k0; k < k1 && lo < room; k++) {
			const uint32_t m = o->m[k];
			const uint32_t hi = OPT_LEN(m) < room ? OPT_LEN(m) : room;
			uint32_t ml;
			const uint32_t mx =
			    path_least(c->len, cost + i, m & OPT_WHOLE ? hi : lo + 1, hi, &ml);
			const uint32_t x = mx + c->dsym[OPT_DSYM(m)];
			const int lt = x < best;
			best = lt ? x : best;
			ch = lt ? (m & ~(511u | OPT_WHOLE)) | ml : ch;
			lo = hi;
		}
		cost[i] = best;
		o->choice[i] = ch;
	}
}

#endif
