/* libFuzzer target: isal_inflate fed one input byte per call, with small output steps.
 *
 * Input: byte 0 picks crc_flag (mod 7), byte 1 hist_bits (mod 16), byte 2 the output step
 * (1 + byte mod 64); the rest is the stream, copied to a buffer of exactly its size. Each call
 * gets one more input byte (none once all are given) and the next output step, up to 1 MiB of
 * output. A call that consumes nothing, writes nothing and changes no state while both input and
 * output are available three times running is a hang (trap). ISAL_NEED_DICT is answered with a
 * dictionary made of the input. When the stream finishes and the one-call decoder (hist_bits is
 * a streaming-only setting, so only when it is 0 or 15) succeeds too, both must give the same
 * bytes and checksum. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isa-l/igzip_lib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define OUT_MAX (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	int flag = data[0] % 7;
	uint32_t hist_bits = data[1] % 16, step = 1 + data[2] % 64;
	size_t n = size - 3;
	uint8_t *in = malloc(n ? n : 1), *out = malloc(OUT_MAX), *out2 = malloc(OUT_MAX);
	struct inflate_state *st = malloc(sizeof(*st));
	if (!in || !out || !out2 || !st)
		abort();
	memcpy(in, data + 3, n);
	isal_inflate_init(st);
	st->crc_flag = (uint32_t)flag;
	st->hist_bits = hist_bits;
	st->next_in = in;
	size_t produced = 0, given = 0;
	int rc = ISAL_DECOMP_OK, stalls = 0, dict_given = 0;
	for (size_t calls = 0; calls < 4 * (n + OUT_MAX) + 100; calls++) {
		/* One more byte per call, counting from where the decoder stands. */
		if (given < n)
			given++;
		if (st->next_in < in || st->next_in > in + given)
			__builtin_trap();
		st->avail_in = (uint32_t)(in + given - st->next_in);
		size_t room = OUT_MAX - produced;
		st->next_out = out + produced;
		st->avail_out = (uint32_t)(room < step ? room : step);
		uint32_t give_out = st->avail_out;
		const uint8_t *before = st->next_in;
		int before_state = (int)st->block_state;
		rc = isal_inflate(st);
		size_t wrote = (size_t)(st->next_out - (out + produced));
		if (st->next_out < out + produced || wrote != give_out - st->avail_out)
			__builtin_trap();
		produced += wrote;
		if (rc == ISAL_NEED_DICT && !dict_given) {
			dict_given = 1;
			if (isal_inflate_set_dict(st, in, (uint32_t)(n < 40000 ? n : 40000)) != 0)
				__builtin_trap();
			continue;
		}
		if (rc != ISAL_DECOMP_OK || st->block_state == ISAL_BLOCK_FINISH)
			break;
		if (st->next_in != before || wrote || (int)st->block_state != before_state) {
			stalls = 0;
			continue;
		}
		if (given == n && st->next_in == in + n)
			break; /* waiting for input that does not exist */
		if (produced == OUT_MAX)
			break;
		if (given == n && ++stalls >= 3)
			__builtin_trap();
	}
	if (rc < ISAL_INCORRECT_CHECKSUM || rc > ISAL_NEED_DICT)
		__builtin_trap();

	if (rc == ISAL_DECOMP_OK && st->block_state == ISAL_BLOCK_FINISH && !dict_given &&
	    (hist_bits == 0 || hist_bits == 15)) {
		uint32_t crc = st->crc;
		isal_inflate_init(st);
		st->crc_flag = (uint32_t)flag;
		st->next_in = in;
		st->avail_in = (uint32_t)n;
		st->next_out = out2;
		st->avail_out = OUT_MAX;
		int rc2 = isal_inflate_stateless(st);
		if (rc2 == ISAL_DECOMP_OK &&
		    ((size_t)(st->next_out - out2) != produced || memcmp(out, out2, produced) != 0 ||
		     st->crc != crc))
			__builtin_trap();
	}
	free(st);
	free(in);
	free(out);
	free(out2);
	return 0;
}
