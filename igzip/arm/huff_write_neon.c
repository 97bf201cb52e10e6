/* The token writer for aarch64 (../huff_write.c with a run function of its own). Two tokens a
 * step, merged into one unit of at most 56 bits beside the pending ones and appended with one
 * store, as the portable pair loop does; a pair longer than 56 bits (almost never) goes out one
 * token at a time on a path of its own, so the common step carries none of its work (gcc
 * computes both forms of the portable loop's step and selects: 57 instructions a pair against
 * 37 here under qemu-aarch64, Calgary level 1). Scalar code on the baseline (ASIMD) target: the
 * lane-wise table loads NEON would need cost more than the shifts they save. */
#include "deflate_arch.h"

#define DEFL_WRITE_TOKENS_FN  defl_write_tokens_neon
#define DEFL_WRITE_TOKENS_RUN write_run_neon
#include "../huff_write.c"

/* Append bits (nb <= 56 of them, beside fewer than 8 pending) and store, as PUT_BITS. */
static inline __attribute__((always_inline)) void put_unit(uint64_t *acc, uint32_t *cnt,
							   uint8_t **out, uint64_t bits, uint32_t nb)
{
	const uint64_t a = *acc | bits << *cnt;
	const uint32_t c = *cnt + nb;
	stoa_store_le64(*out, a);
	*out += c >> 3;
	*acc = a >> (c & 56);
	*cnt = c & 7;
}

static size_t write_run_neon(const struct merged_tables *m, const uint32_t *tok, size_t n,
			     uint64_t *acc_p, uint32_t *cnt_p, uint8_t **out_p)
{
	uint64_t acc = *acc_p;
	uint32_t cnt = *cnt_p;
	uint8_t *out = *out_p;
	/* The distance table through a base register of its own: gcc otherwise addresses it off
	 * the litlen table's (m + 8) with an add per token. */
	const uint64_t *dt = m->d;
	__asm__("" : "+r"(dt));
	size_t i = 0;
	for (; i + 2 <= n; i += 2) {
		uint32_t n0, n1;
		const uint64_t b0 = token_bits_at(m->ll, dt, tok[i], &n0);
		const uint64_t b1 = token_bits_at(m->ll, dt, tok[i + 1], &n1);
		if (__builtin_expect(n0 + n1 > 56, 0)) {
			put_unit(&acc, &cnt, &out, b0, n0);
			put_unit(&acc, &cnt, &out, b1, n1);
			continue;
		}
		put_unit(&acc, &cnt, &out, b0 | b1 << n0, n0 + n1);
	}
	*acc_p = acc;
	*cnt_p = cnt;
	*out_p = out;
	return i;
}
