/* Adler-32 (RFC 1950 section 8.2), portable. */
#include "inflate_internal.h"

#define ADLER_MOD 65521u
/* The most bytes summed before s2 could overflow 32 bits (starting from s1, s2 < ADLER_MOD). */
#define ADLER_NMAX 5552u

uint32_t adler32_portable(uint32_t init, const unsigned char *buf, uint64_t len)
{
	uint32_t s1 = init & 0xffff, s2 = init >> 16;
	/* An init whose halves are not reduced is reduced first, as if it came from earlier data.
	 */
	s1 %= ADLER_MOD;
	s2 %= ADLER_MOD;
	while (len) {
		uint32_t n = len < ADLER_NMAX ? (uint32_t)len : ADLER_NMAX;
		len -= n;
		while (n >= 8) {
			s1 += buf[0];
			s2 += s1;
			s1 += buf[1];
			s2 += s1;
			s1 += buf[2];
			s2 += s1;
			s1 += buf[3];
			s2 += s1;
			s1 += buf[4];
			s2 += s1;
			s1 += buf[5];
			s2 += s1;
			s1 += buf[6];
			s2 += s1;
			s1 += buf[7];
			s2 += s1;
			buf += 8;
			n -= 8;
		}
		while (n--) {
			s1 += *buf++;
			s2 += s1;
		}
		s1 %= ADLER_MOD;
		s2 %= ADLER_MOD;
	}
	return (s2 << 16) | s1;
}

/* The copy, then the sum by the best Adler-32 the process runs (the portable one under
 * STOA_ISA=base; NEON's on aarch64, which has no fused form). */
uint32_t adler32_copy_base(uint32_t init, unsigned char *dst, const unsigned char *src,
                           uint64_t len)
{
	if (len)
		memcpy(dst, src, len);
	return isal_adler32(init, dst, len);
}

/* ISA-L's exported names for the portable Adler-32, and for the form its compressor keeps in
 * internal_state.crc: B << 16 | (A - 1) modulo 65521, so that a new stream's 0 means Adler-32's
 * initial 1 (no header declares either). */
uint32_t adler32_base(uint32_t init, const unsigned char *buf, uint64_t len);
uint32_t isal_adler32_bam1(uint32_t adler32, const unsigned char *start, uint64_t length);

STOA_API uint32_t adler32_base(uint32_t init, const unsigned char *buf, uint64_t len)
{
	return adler32_portable(init, buf, len);
}

STOA_API uint32_t isal_adler32_bam1(uint32_t adler32, const unsigned char *start, uint64_t length)
{
	uint32_t a = adler32 & 0xffff;
	a = a == ADLER_MOD - 1 ? 0 : a + 1;
	const uint32_t r = isal_adler32((adler32 & 0xffff0000u) | a, start, length);
	a = r & 0xffff;
	a = a == 0 ? ADLER_MOD - 1 : a - 1;
	return (r & 0xffff0000u) | a;
}
