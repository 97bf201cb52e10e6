/* Byte order and bit scans for portable code (internal header).
 *
 * Formats such as deflate's bit stream, CRC inputs and the hashes' message words have a fixed
 * byte order, while a plain memcpy into an integer reads them in the host's: portable code reads
 * and writes multi-byte values through these helpers, so s390x produces the same bytes as
 * x86-64. On a little-endian host a load or store is one unaligned move; on a big-endian one it
 * adds a byte swap, which compilers fold into a byte-reversing load or store where the target
 * has one (s390x lrvg/strvg, POWER ldbrx).
 *
 * The scans take a nonzero argument, as the builtins they wrap do.
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

/* The host's value as stored little-endian, and back (the same swap both ways). */
static inline uint16_t stoa_le16(uint16_t v)
{
	return STOA_BIG_ENDIAN ? stoa_bswap16(v) : v;
}
static inline uint32_t stoa_le32(uint32_t v)
{
	return STOA_BIG_ENDIAN ? stoa_bswap32(v) : v;
}
static inline uint64_t stoa_le64(uint64_t v)
{
	return STOA_BIG_ENDIAN ? stoa_bswap64(v) : v;
}
static inline uint32_t stoa_be32(uint32_t v)
{
	return STOA_BIG_ENDIAN ? v : stoa_bswap32(v);
}
static inline uint64_t stoa_be64(uint64_t v)
{
	return STOA_BIG_ENDIAN ? v : stoa_bswap64(v);
}

static inline uint16_t stoa_load_le16(const void *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return stoa_le16(v);
}
static inline uint32_t stoa_load_le32(const void *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return stoa_le32(v);
}
static inline uint64_t stoa_load_le64(const void *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return stoa_le64(v);
}
static inline uint32_t stoa_load_be32(const void *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return stoa_be32(v);
}
static inline uint64_t stoa_load_be64(const void *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return stoa_be64(v);
}

static inline void stoa_store_le16(void *p, uint16_t v)
{
	v = stoa_le16(v);
	memcpy(p, &v, sizeof(v));
}
static inline void stoa_store_le32(void *p, uint32_t v)
{
	v = stoa_le32(v);
	memcpy(p, &v, sizeof(v));
}
static inline void stoa_store_le64(void *p, uint64_t v)
{
	v = stoa_le64(v);
	memcpy(p, &v, sizeof(v));
}
static inline void stoa_store_be32(void *p, uint32_t v)
{
	v = stoa_be32(v);
	memcpy(p, &v, sizeof(v));
}
static inline void stoa_store_be64(void *p, uint64_t v)
{
	v = stoa_be64(v);
	memcpy(p, &v, sizeof(v));
}

/* Trailing and leading zero bits of a nonzero value. */
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
