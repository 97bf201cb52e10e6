/* CRC combination: the CRC of A followed by B from the CRCs of A and B and the length of B.
 *
 * Every function of the API computes, on its w-bit state, s -> s * x^(8n) + C(M) modulo its
 * polynomial P (MSB first or reflected, and with or without inversions on the way in and out,
 * which add the same constant to both sides). So for any function f,
 *   f(init, A || B) = f(init, A) * x^(8 |B|) + f(0, B)        (mod P)
 * and combining needs only x^(8n) mod P: the product of the generated powers x^(8 * 2^k) mod P
 * for the bits k set in n, at most 64 products of two w-bit polynomials of w shift-and-add steps
 * each (one for a power-of-two length).
 *
 * Arithmetic is done in the reflected order (bit w-1 holds x^0, bit 0 holds x^(w-1)), with the
 * reflected polynomial taken from the model's slice table: feeding byte 0x80 to a zero reflected
 * state shifts its one bit out at the eighth step, leaving exactly the polynomial. An MSB-first
 * CRC is bit-reversed into that order and back. */
#include "crc_internal.h"
#include "stoa.h"

struct combine_form {
	const struct crc_model *refl; /* the reflected model of the function's polynomial */
	unsigned width;
	int msb_first;
};

static uint64_t reverse_bits(uint64_t v, unsigned width)
{
	uint64_t r = 0;
	for (unsigned i = 0; i < width; i++, v >>= 1)
		r = (r << 1) | (v & 1);
	return r;
}

/* a * b mod P, both in the reflected order of width bits. Masks rather than branches: the bits
 * are random, and mispredicted branches would cost more than the arithmetic. */
static uint64_t mul_mod(uint64_t a, uint64_t b, uint64_t rpoly, unsigned width)
{
	uint64_t p = 0;
	for (unsigned i = width; i--;) {
		p ^= b & (0 - (a >> i & 1));
		b = (b >> 1) ^ (rpoly & (0 - (b & 1)));
	}
	return p;
}

/* crc * x^(8 len) mod P, crc in the function's own bit order. */
static uint64_t shift_bytes(const struct combine_form *f, uint64_t crc, uint64_t len)
{
	const unsigned w = f->width;
	const uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
	const uint64_t rpoly = f->refl->slice[0][0x80] & mask;
	uint64_t v = f->msb_first ? reverse_bits(crc, w) : crc & mask;
	for (unsigned k = 0; len && v; k++, len >>= 1)
		if (len & 1)
			v = mul_mod(v, f->refl->x8n[k], rpoly, w);
	return f->msb_first ? reverse_bits(v, w) : v;
}

#define COMBINE(type, name, model, width, msb_first)                                               \
	STOA_API type stoa_##name##_combine(type crc_a, type crc_b, uint64_t len_b)                \
	{                                                                                          \
		static const struct combine_form form = { &crc_model_##model, width, msb_first };  \
		return (type)(shift_bytes(&form, crc_a, len_b) ^ crc_b);                           \
	}

COMBINE(uint16_t, crc16_t10dif, t10dif_refl, 16, 1)
COMBINE(uint32_t, crc32_ieee, gzip, 32, 1)
COMBINE(uint32_t, crc32_gzip_refl, gzip, 32, 0)
COMBINE(uint32_t, crc32_iscsi, iscsi, 32, 0)
COMBINE(uint64_t, crc64_ecma_refl, ecma_refl, 64, 0)
COMBINE(uint64_t, crc64_ecma_norm, ecma_refl, 64, 1)
COMBINE(uint64_t, crc64_iso_refl, iso_refl, 64, 0)
COMBINE(uint64_t, crc64_iso_norm, iso_refl, 64, 1)
COMBINE(uint64_t, crc64_jones_refl, jones_refl, 64, 0)
COMBINE(uint64_t, crc64_jones_norm, jones_refl, 64, 1)
COMBINE(uint64_t, crc64_rocksoft_refl, rocksoft_refl, 64, 0)
COMBINE(uint64_t, crc64_rocksoft_norm, rocksoft_refl, 64, 1)
