/* One chain of the SSE4.2 crc32 instruction over a buffer: CRC32C (reflected 0x1EDC6F41) in the
 * engine form's low 32 bits, no inversions. Shared by the crc32_iscsi kernels; each includes it
 * under its own ISA flags (all of which enable SSE4.2). */
#ifndef STOA_CRC32C_SERIAL_H
#define STOA_CRC32C_SERIAL_H

#include <nmmintrin.h>
#include <string.h>

#include "crc_arch.h"

static inline uint64_t crc32c_serial(uint64_t s, const uint8_t *p, size_t len)
{
	for (; len >= 8; len -= 8, p += 8) {
		uint64_t v;
		memcpy(&v, p, sizeof(v));
		s = _mm_crc32_u64(s, v);
	}
	if (len & 4) {
		uint32_t v;
		memcpy(&v, p, sizeof(v));
		s = _mm_crc32_u32((uint32_t)s, v);
		p += 4;
	}
	if (len & 2) {
		uint16_t v;
		memcpy(&v, p, sizeof(v));
		s = _mm_crc32_u16((uint32_t)s, v);
		p += 2;
	}
	if (len & 1)
		s = _mm_crc32_u8((uint32_t)s, *p);
	return s;
}

#endif
