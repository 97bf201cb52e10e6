/* Byte order and bit scans for portable code (internal header).
 *
 * Formats such as deflate's bit stream, CRC inputs and the hashes' message words have a fixed
 * byte order, while a plain memcpy into an integer reads them in the host's: portable code reads
 * and writes multi-byte values through these helpers, so s390x produces the same bytes as
 * x86-64. On a little-endian host a little-endian load or store is one unaligned move; on a
 * big-endian one it adds a byte swap, which compilers fold into a byte-reversing load or store
 * where the target has one (s390x lrvg/strvg, POWER ldbrx).
 *
 *   stoa_bswap16/32/64(v)                   the bytes of v reversed
 *   stoa_le16/32/64(v), stoa_be32/64(v)     v as stored in that order, and back (one swap or none)
 *   stoa_load_le16/32/64(p), stoa_load_be32/64(p), stoa_store_le16/32/64(p, v),
 *   stoa_store_be32/64(p, v)                unaligned loads and stores in that order
 *   stoa_ctz32/64(v), stoa_clz32/64(v)      trailing / leading zero bits of a nonzero v
 */
#ifndef STOA_BYTES_H
#define STOA_BYTES_H

#include <stdint.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) ||                                                                   \
    (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ && __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__)
#error "stoa needs a compiler that defines __BYTE_ORDER__ as little- or big-endian"
#endif
#define STOA_BIG_ENDIAN (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

static inline uint16_t stoa_bswap16(uint16_t v)
{
	return __builtin_bswap16(v);
}
static inline uint32_t stoa_bswap32(uint32_t v)
{
	return __builtin_bswap32(v);
}
static inline uint64_t stoa_bswap64(uint64_t v)
{
	return __builtin_bswap64(v);
}

/* The conversion between the host's order and ORDER (le: swap on big-endian hosts, be: on
 * little-endian ones), and the load and store through it, for BITS-bit words. */
#define STOA_BYTES_ORDER(order, bits, swap_on_big)                                                 \
	static inline uint##bits##_t stoa_##order##bits(uint##bits##_t v)                          \
	{                                                                                          \
		return STOA_BIG_ENDIAN == (swap_on_big) ? stoa_bswap##bits(v) : v;                 \
	}                                                                                          \
	static inline uint##bits##_t stoa_load_##order##bits(const void *p)                        \
	{                                                                                          \
		uint##bits##_t v;                                                                  \
		memcpy(&v, p, sizeof(v));                                                          \
		return stoa_##order##bits(v);                                                      \
	}                                                                                          \
	static inline void stoa_store_##order##bits(void *p, uint##bits##_t v)                     \
	{                                                                                          \
		v = stoa_##order##bits(v);                                                         \
		memcpy(p, &v, sizeof(v));                                                          \
	}
STOA_BYTES_ORDER(le, 16, 1)
STOA_BYTES_ORDER(le, 32, 1)
STOA_BYTES_ORDER(le, 64, 1)
STOA_BYTES_ORDER(be, 32, 0)
STOA_BYTES_ORDER(be, 64, 0)
#undef STOA_BYTES_ORDER

static inline uint32_t stoa_ctz32(uint32_t v)
{
	return (uint32_t)__builtin_ctz(v);
}
static inline uint32_t stoa_ctz64(uint64_t v)
{
	return (uint32_t)__builtin_ctzll(v);
}
static inline uint32_t stoa_clz32(uint32_t v)
{
	return (uint32_t)__builtin_clz(v);
}
static inline uint32_t stoa_clz64(uint64_t v)
{
	return (uint32_t)__builtin_clzll(v);
}

#endif
