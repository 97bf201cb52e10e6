/* Level 0: one pass, codes as it goes with the stream's Huffman codes (no level_buf). */
#include "deflate_internal.h"

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

uint32_t defl_lvl0_base(struct BitBuf2 *out, const struct isal_hufftables *t, uint16_t *head,
			const struct defl_win *w, uint32_t p, uint32_t stop)
{
	/* A private copy of the writer: the output bytes it stores cannot alias it, so its fields
	 * stay in registers. */
	struct BitBuf2 bb = *out;
	struct BitBuf2 *const b = &bb;
	const uint8_t *base = w->base;
	const uint32_t end = w->end, lo = w->lo, bias = w->bias, maxd = w->maxdist;
	const uint32_t hend = end > 3 ? end - 3 : 0; /* positions with 4 bytes to hash */

	while (p < stop && bw_room(b) >= 16) {
		if (p >= hend) {
			defl_emit_lit(b, t, base[p]);
			p++;
			continue;
		}
		const uint32_t x = defl_load32(base + p);
		const uint32_t h = defl_hash4(x, DEFL_LVL0_HASH_BITS);
		const uint32_t now = p + bias;
		const uint32_t d = (uint16_t)(now - head[h]);
		head[h] = (uint16_t)now;
		if (d - 1 < min_u32(maxd, p - lo) && defl_load32(base + p - d) == x) {
			const uint32_t max = min_u32(DEFL_MAX_MATCH, end - p) - 4;
			const uint32_t len = 4 + defl_extend(base + p + 4, base + p - d + 4, max);
			defl_emit_match(b, t, len, d);
			/* One more entry near the match's end keeps runs of matches chained. */
			const uint32_t q = p + len - 1;
			if (q < hend)
				head[defl_hash4(defl_load32(base + q), DEFL_LVL0_HASH_BITS)] =
					(uint16_t)(q + bias);
			p += len;
		} else {
			defl_emit_lit(b, t, base[p]);
			p++;
		}
	}
	*out = bb;
	return p;
}

void defl_lvl0_insert(uint16_t *head, const struct defl_win *w, uint32_t from, uint32_t to)
{
	const uint32_t hend = w->end > 3 ? w->end - 3 : 0;
	for (uint32_t q = from; q < to && q < hend; q++)
		head[defl_hash4(defl_load32(w->base + q), DEFL_LVL0_HASH_BITS)] =
			(uint16_t)(q + w->bias);
}

