/* One chain of the SSE4.2 crc32 instruction over a buffer: CRC32C (reflected 0x1EDC6F41) in the
 * engine form's low 32 bits, no inversions; and the probe for data in DRAM. Shared by the
 * crc32_iscsi kernels; each includes it under its own ISA flags (all of which enable SSE4.2). */
#ifndef STOA_CRC32C_SERIAL_H
#define STOA_CRC32C_SERIAL_H

#include <nmmintrin.h>
#include <string.h>

#include "common/x86/cold.h"
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

/* Data from DRAM: crc32 streams, each a chain of loads from its own share of a block, stall on
 * every miss, so from CRC32C_COLD_MIN bytes on the kernels with wide folds time their first
 * STOA_COLD_SPAN bytes through them (common/x86/cold.h) and send DRAM's rest there too. */
#define CRC32C_COLD_MIN (32 * 1024)
/* ... and above this many counter ticks the probed KiB came from DRAM: half of cold.h's bound,
 * which on Zen 5 (2.6 GHz counter) sent two in five calls on data in DRAM to the crc32 streams
 * (a KiB from L3 takes up to 256 ticks in 95% of calls; 64 KiB from DRAM: 25.2 -> 28.0 GB/s). */
#define CRC32C_COLD_TICKS (STOA_COLD_SPAN_TICKS / 2)

/* For n >= CRC32C_COLD_MIN bytes at *p: whether they lie in DRAM, after the probe span has gone
 * through fold (*s, *p and *n then past it). */
static inline __attribute__((always_inline)) int crc32c_cold(crc_engine_fn *fold, uint64_t *s,
                                                             const uint8_t **p, size_t *n)
{
	uint64_t t0 = stoa_cold_start();
	if (!t0)
		return 0;
	*s = fold(&crc_model_iscsi, *s, *p, STOA_COLD_SPAN);
	*p += STOA_COLD_SPAN;
	*n -= STOA_COLD_SPAN;
	return stoa_cold_end_ordered(t0, CRC32C_COLD_TICKS);
}

#endif
