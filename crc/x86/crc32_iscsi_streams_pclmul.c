/* crc32_iscsi (CRC32C) for CPUs with SSE4.2 and PCLMULQDQ but no VPCLMULQDQ: several chains of
 * the crc32 instruction over adjacent parts of the buffer at once, merged by carry-less
 * multiplies.
 *
 * Why: crc32 takes 8 bytes an instruction with a latency of 3 cycles and issues one a cycle, so
 * one chain (the serial path) runs at a third of what the integer unit can do, and the 128-bit
 * PCLMULQDQ engine stops near 14 GB/s on Zen 5. CRC32C_X86_STREAMS independent chains keep the
 * unit busy; each chain but the last then moves its state to the block's end (crc_internal.h,
 * struct crc32c_x86_consts) and the states XOR together, as in Gopal et al., "Fast CRC
 * Computation for iSCSI Polynomial Using CRC32 Instruction" (Intel, 2011).
 *
 * Layout: the len % 8 bytes in front go through crc32 alone; then blocks of CRC32C_X86_MAX_WORDS
 * words a stream while more than one block's worth is left; then one block of what remains, its
 * last stream taking the words that do not divide evenly. The last stream needs no multiply,
 * so its extra words run beside the others' merge. Short buffers take one chain. */
#include "crc32c_serial.h"

#include <wmmintrin.h>

#define CRC_INLINE static inline __attribute__((always_inline))
#define S CRC32C_X86_STREAMS

/* Below this many bytes a single chain finishes first: the merge costs a multiply and a crc32
 * on the critical path. */
#define CRC32C_SERIAL_MAX 64

CRC_INLINE uint64_t load64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* A block at p behind the state s: S streams of m words, the last one `extra` words longer. */
CRC_INLINE uint32_t crc32c_block(uint32_t s, const uint8_t *p, size_t m, size_t extra)
{
	uint64_t t[S];
	const uint8_t *q[S];
	t[0] = s;
	for (int j = 0; j < S; j++) {
		q[j] = p + 8 * m * (size_t)j;
		if (j)
			t[j] = 0;
	}
	for (size_t i = 0; i < m; i++) {
#pragma GCC unroll 8
		for (int j = 0; j < S; j++) {
			t[j] = _mm_crc32_u64(t[j], load64(q[j]));
			q[j] += 8;
		}
	}
	/* Stream j crosses the later streams' words: (S - 1 - j) m + extra. */
	__m128i x = _mm_setzero_si128();
#pragma GCC unroll 8
	for (int j = 0; j < S - 1; j++) {
		__m128i a = _mm_cvtsi32_si128((int)(uint32_t)t[j]);
		__m128i k = _mm_cvtsi32_si128(
			(int)crc32c_x86.pow[(size_t)(S - 1 - j) * m + extra]);
		x = _mm_xor_si128(x, _mm_clmulepi64_si128(a, k, 0x00));
	}
	uint64_t last = t[S - 1];
	for (size_t i = 0; i < extra; i++, q[S - 1] += 8)
		last = _mm_crc32_u64(last, load64(q[S - 1]));
	return (uint32_t)(_mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(x)) ^ last);
}

unsigned int crc32_iscsi_streams(unsigned char *buf, int len, unsigned int init)
{
	if (len <= 0)
		return init;
	size_t n = (size_t)len;
	if (n < CRC32C_SERIAL_MAX)
		return (uint32_t)crc32c_serial(init, buf, n);
	const uint8_t *p = buf;
	uint32_t s = (uint32_t)crc32c_serial(init, p, n % 8);
	p += n % 8;
	size_t w = n / 8;
	for (; w > S * CRC32C_X86_MAX_WORDS; w -= S * CRC32C_X86_MAX_WORDS) {
		s = crc32c_block(s, p, CRC32C_X86_MAX_WORDS, 0);
		p += 8 * S * CRC32C_X86_MAX_WORDS;
	}
	return crc32c_block(s, p, w / S, w % S);
}
