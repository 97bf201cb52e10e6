/* The near-optimal levels' cached matches and their cheapest path (deflate_optimal.c).
 *
 * The path is built once portable (deflate_optimal.c) and again, the same walk, with vector
 * primitives (below) for AVX2 and SSE4.1 (x86/deflate_path_avx2.c, _sse42.c) and NEON
 * (arm/deflate_path_neon.c). Where a match offers more lengths than a vector has lanes, the
 * cheapest of them is found a vector a step. Runs of one byte offer up to 258 lengths at each of
 * their positions, and the scalar minimum took 80% of the path's time on them (a third of level
 * 11's time on runs, 16% on Calgary). Every variant takes the same lengths: the least cost, and
 * of equal costs the shortest length, as the scalar loop's strict comparison from the shortest
 * keeps it. */
#ifndef STOA_DEFLATE_PATH_H
#define STOA_DEFLATE_PATH_H

#include "deflate_internal.h"

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

/* A vector build defines, before including this file, PATH_LANES and over vectors of that many
 * costs: path_vec, PATH_SUM(lc, rest, l) (lc + rest at l), PATH_MIN, PATH_ONES(), PATH_SPLAT(x),
 * path_least_lane(v) (the least lane) and path_first(y, want) (the lowest lane equal to want,
 * PATH_LANES if none); optionally PATH_SUM_FIRST(lc, rest, l, k), PATH_SUM's first k lanes and
 * all ones in the others (its loads may pass l + k: both arrays are followed by more of their
 * struct). Without them the walk is scalar. */
/* The least of lc[l] + rest[l] for l in [lo, hi], and in *at the shortest l that takes it (lo
 * alone when lo > hi). Branch-free minima: where they fall is data, which a predictor misses
 * often. */
static inline __attribute__((always_inline)) uint32_t
path_least(const uint32_t *lc, const uint32_t *rest, uint32_t lo, uint32_t hi, uint32_t *at)
{
#ifdef PATH_LANES
	if (hi >= lo + PATH_LANES) {
		/* The least value a vector a step, the last step overlapping the one before it;
		 * then the first length that has it. No load passes hi. */
		path_vec v = PATH_ONES();
		uint32_t l = lo;
		for (; l + PATH_LANES - 1 <= hi; l += PATH_LANES)
			v = PATH_MIN(v, PATH_SUM(lc, rest, l));
		v = PATH_MIN(v, PATH_SUM(lc, rest, hi - (PATH_LANES - 1)));
		const uint32_t least = path_least_lane(v);
		const path_vec want = PATH_SPLAT(least);
		for (l = lo;; l += PATH_LANES) {
			/* Past the last whole step the overlapping one: the lengths it repeats
			 * were not the least. */
			const uint32_t from = l + PATH_LANES - 1 <= hi ? l : hi - (PATH_LANES - 1);
			const uint32_t k = path_first(PATH_SUM(lc, rest, from), want);
			if (k < PATH_LANES) {
				*at = from + k;
				return least;
			}
		}
	}
#endif
#ifdef PATH_SUM_FIRST
	if (hi > lo && hi < lo + PATH_LANES) {
		/* A few lengths (2-7 of them: 38% of the calls on Calgary at level 10) in one
		 * vector, without the scalar loop's exit branch, whose varying trip count the
		 * predictor missed. */
		const path_vec y = PATH_SUM_FIRST(lc, rest, lo, hi - lo + 1);
		const uint32_t least = path_least_lane(y);
		*at = lo + path_first(y, PATH_SPLAT(least));
		return least;
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
