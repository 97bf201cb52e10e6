/* Every exported CRC symbol (public, _base and the crc64 _by8 names) behind one shape, so that
 * a table can hold them all: test_crc, test_dispatch and the crc oracle programs use these.
 * dst matters only to crc16_t10dif_copy; the casts drop const only where ISA-L's prototypes lack
 * it, and nothing writes through them. Built against stoa or, in the oracle's system build
 * (ORACLE_SYSTEM), against Debian's ISA-L 2.30, whose headers have no crc64_rocksoft. */
#ifndef STOA_TESTS_CRC_CALLS_H
#define STOA_TESTS_CRC_CALLS_H

#include <stdint.h>

#include <isa-l/crc.h>
#include <isa-l/crc64.h>

typedef uint64_t crc_call_fn(uint64_t init, const uint8_t *buf, uint64_t len, uint8_t *dst);

/* cc_<tag> and cc_<tag>_base for fn(init, buf, len), the shape of all but two. */
#define CC_PAIR(tag, fn, init_type)                                                                \
	static inline uint64_t cc_##tag(uint64_t i, const uint8_t *b, uint64_t n, uint8_t *d)      \
	{                                                                                          \
		(void)d;                                                                           \
		return fn((init_type)i, (uint8_t *)b, n);                                          \
	}                                                                                          \
	static inline uint64_t cc_##tag##_base(uint64_t i, const uint8_t *b, uint64_t n,           \
	                                       uint8_t *d)                                         \
	{                                                                                          \
		(void)d;                                                                           \
		return fn##_base((init_type)i, (uint8_t *)b, n);                                   \
	}
/* A crc64 function also has its older _by8 name. */
#define CC_CRC64(name)                                                                             \
	CC_PAIR(name, name, uint64_t)                                                              \
	static inline uint64_t cc_##name##_by8(uint64_t i, const uint8_t *b, uint64_t n,           \
	                                       uint8_t *d)                                         \
	{                                                                                          \
		(void)d;                                                                           \
		return name##_by8(i, b, n);                                                        \
	}

CC_PAIR(t10dif, crc16_t10dif, uint16_t)
CC_PAIR(ieee, crc32_ieee, uint32_t)
CC_PAIR(gzip, crc32_gzip_refl, uint32_t)

/* The two other shapes: a copy, and ISA-L's (buf, int len, init) for crc32_iscsi. */
static inline uint64_t cc_t10dif_copy(uint64_t i, const uint8_t *b, uint64_t n, uint8_t *d)
{
	return crc16_t10dif_copy((uint16_t)i, d, (uint8_t *)b, n);
}
static inline uint64_t cc_t10dif_copy_base(uint64_t i, const uint8_t *b, uint64_t n, uint8_t *d)
{
	return crc16_t10dif_copy_base((uint16_t)i, d, (uint8_t *)b, n);
}
static inline uint64_t cc_iscsi(uint64_t i, const uint8_t *b, uint64_t n, uint8_t *d)
{
	(void)d;
	return crc32_iscsi((unsigned char *)b, (int)n, (unsigned int)i);
}
static inline uint64_t cc_iscsi_base(uint64_t i, const uint8_t *b, uint64_t n, uint8_t *d)
{
	(void)d;
	return crc32_iscsi_base((unsigned char *)b, (int)n, (unsigned int)i);
}

CC_CRC64(crc64_ecma_refl)
CC_CRC64(crc64_ecma_norm)
CC_CRC64(crc64_iso_refl)
CC_CRC64(crc64_iso_norm)
CC_CRC64(crc64_jones_refl)
CC_CRC64(crc64_jones_norm)
#ifndef ORACLE_SYSTEM
CC_CRC64(crc64_rocksoft_refl)
CC_CRC64(crc64_rocksoft_norm)
#endif
#undef CC_CRC64
#undef CC_PAIR

#endif
