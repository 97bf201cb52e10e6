/* Facts of the deflate format shared by the compressor and the decompressor (internal header).
 * RFC 1951, section 3.2.5: each length symbol 257..285 and distance symbol 0..29 stands for a
 * base value plus a number of extra bits read after the symbol. */
#ifndef STOA_IGZIP_INTERNAL_H
#define STOA_IGZIP_INTERNAL_H

#include <stdint.h>

#include "dispatch.h"
#include "isa-l/igzip_lib.h"

#pragma GCC visibility push(hidden)

/* Length symbol 257 + i: base length and extra bits. */
static const uint16_t deflate_len_base[29] = {
	3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23,  27,
	31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
};
static const uint8_t deflate_len_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
};

/* The length symbol's index i (symbol 257 + i) of a match length 3..258: past 10, four symbols
 * per power of two of len - 3, told apart by the two bits below its top bit. */
static inline uint32_t deflate_len_index(uint32_t len)
{
	const uint32_t l = len - 3;
	if (len == 258)
		return 28;
	if (l < 8)
		return l;
	const uint32_t hb = 31u - (uint32_t)__builtin_clz(l);
	return 4 * (hb - 1) + ((l >> (hb - 2)) & 3);
}

/* Distance symbol i: base distance and extra bits. */
static const uint16_t deflate_dist_base[30] = {
	1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
	193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
};
static const uint8_t deflate_dist_extra[30] = {
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
};

/* The order in which a dynamic block header sends the code-length code's lengths. */
static const uint8_t deflate_precode_order[19] = {
	16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
};

/* ISA-L lets a caller pass next_in or next_out NULL with length 0 (a stream finished or flushed
 * without more input). Arithmetic on a null pointer, even + 0, and memcpy to or from one are
 * undefined, so the API functions swap such a pointer on entry for one to no bytes, which the
 * code never reads or writes (its length is 0), and give NULL back on return. */
static inline uint8_t *igzip_no_bytes(void)
{
	static uint8_t none[1];
	return none;
}

/* Swap *p for igzip_no_bytes() when it is NULL and len is 0; returns whether it did. */
static inline int igzip_unnull(uint8_t **p, uint32_t len)
{
	if (*p || len)
		return 0;
	*p = igzip_no_bytes();
	return 1;
}

static inline void igzip_renull(uint8_t **p, int swapped)
{
	if (swapped && *p == igzip_no_bytes())
		*p = NULL;
}

/* The bits of each byte in reverse order (huff_codes.c), and the low len bits of c (len <= 16)
 * reversed: deflate sends Huffman codes most significant bit first, while the bit streams are
 * read and written from bit 0. */
extern const uint8_t igzip_rev8[256];
static inline uint32_t igzip_rev_code(uint32_t c, uint32_t len)
{
	return ((uint32_t)igzip_rev8[c & 0xff] << 8 | igzip_rev8[(c >> 8) & 0xff]) >> (16 - len);
}

#pragma GCC visibility pop

#endif
