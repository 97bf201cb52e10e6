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
