/* libFuzzer target: isal_inflate_stateless on arbitrary input.
 *
 * Input: byte 0 picks crc_flag (mod 7), byte 1 the output buffer size (mod 8: 0, 1, 100, 4 KiB,
 * 64 KiB, 1 MiB, 4x or 16x the input), byte 2 is ignored (the seeds share their layout with
 * fuzz_inflate_stream); the rest is the stream. Input and output live in buffers of exactly their
 * size, so AddressSanitizer sees any access past either end. The call must return a code of the
 * API, and on success must have written total_out bytes and consumed no more than it was given. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isa-l/igzip_lib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	int flag = data[0] % 7;
	size_t n = size - 3;
	const size_t caps[8] = { 0, 1, 100, 4096, 65536, 1 << 20, 4 * n, 16 * n };
	size_t cap = caps[data[1] % 8];
	uint8_t *in = malloc(n ? n : 1), *out = malloc(cap ? cap : 1);
	struct inflate_state *st = malloc(sizeof(*st));
	if (!in || !out || !st)
		abort();
	memcpy(in, data + 3, n);
	isal_inflate_init(st);
	st->crc_flag = (uint32_t)flag;
	st->next_in = in;
	st->avail_in = (uint32_t)n;
	st->next_out = out;
	st->avail_out = (uint32_t)cap;
	int rc = isal_inflate_stateless(st);
	if (rc < ISAL_INCORRECT_CHECKSUM || rc > ISAL_NEED_DICT)
		__builtin_trap();
	if (st->next_out < out || st->next_out > out + cap)
		__builtin_trap();
	if (rc == ISAL_DECOMP_OK) {
		if (st->total_out != (uint32_t)(st->next_out - out) || st->next_in < in ||
		    st->next_in > in + n || st->avail_in != (uint32_t)(in + n - st->next_in))
			__builtin_trap();
	}
	free(st);
	free(in);
	free(out);
	return 0;
}
