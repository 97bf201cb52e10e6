/* zlib's utility functions on stoa: version and error strings, memory functions, the checksums
 * (CRC-32 and Adler-32 on stoa's kernels, their combination by polynomial arithmetic), and the
 * one-call compress and uncompress. */
#include <stdlib.h>
#include <string.h>

#include "isa-l/crc.h"
#include "isa-l/igzip_lib.h"
#include "zlib_abi.h"

ZAPI const char *zlibVersion(void)
{
	return ZLIB_VERSION_STRING;
}

/* Bits 0-7 give the sizes of uInt, uLong, a pointer and z_off_t, two bits each (0: 16 bits,
 * 1: 32, 2: 64); no option bit is set: no debug build, no limits on the gz functions,
 * vsnprintf present. */
ZAPI uLong zlibCompileFlags(void)
{
	const uLong size_code[9] = { 3, 3, 0, 3, 1, 3, 3, 3, 2 };
	return size_code[sizeof(uInt)] | size_code[sizeof(uLong)] << 2 |
	       size_code[sizeof(voidpf)] << 4 | size_code[sizeof(z_off_t)] << 6;
}

/* The texts zlib gives each return code (z_errmsg), from Z_NEED_DICT down to
 * Z_VERSION_ERROR. */
static const char *const err_text[] = {
	"need dictionary",     "stream end",   "",
	"file error",          "stream error", "data error",
	"insufficient memory", "buffer error", "incompatible version",
};

const char *zlib_err_msg(int err)
{
	if (err > Z_NEED_DICT || err < Z_VERSION_ERROR)
		return "";
	return err_text[Z_NEED_DICT - err];
}

ZAPI const char *zError(int err)
{
	return zlib_err_msg(err);
}

/* ---- memory ---------------------------------------------------------------------------------- */

static voidpf default_zalloc(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	return malloc((size_t)items * size);
}

static void default_zfree(voidpf opaque, voidpf p)
{
	(void)opaque;
	free(p);
}

void zlib_default_alloc(z_streamp strm)
{
	if (!strm->zalloc) {
		strm->zalloc = default_zalloc;
		strm->opaque = NULL;
	}
	if (!strm->zfree)
		strm->zfree = default_zfree;
}

void *zlib_alloc(z_streamp strm, size_t size)
{
	if (size > 0xffffffffu)
		return NULL;
	return strm->zalloc(strm->opaque, 1, (uInt)size);
}

void zlib_free(z_streamp strm, void *p)
{
	if (p)
		strm->zfree(strm->opaque, p);
}

int zlib_version_mismatch(const char *version, int stream_size)
{
	return !version || version[0] != ZLIB_VERSION_STRING[0] ||
	       stream_size != (int)sizeof(z_stream);
}

/* ---- checksums --------------------------------------------------------------------------------
 */

uint32_t zlib_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	return crc32_gzip_refl(crc, p, n);
}

uint32_t zlib_adler32(uint32_t adler, const uint8_t *p, size_t n)
{
	return isal_adler32(adler, p, n);
}

ZAPI uLong crc32_z(uLong crc, const Bytef *buf, size_t len)
{
	if (!buf)
		return 0;
	return zlib_crc32((uint32_t)crc, buf, len);
}

ZAPI uLong crc32(uLong crc, const Bytef *buf, uInt len)
{
	return crc32_z(crc, buf, len);
}

ZAPI uLong adler32_z(uLong adler, const Bytef *buf, size_t len)
{
	if (!buf)
		return 1;
	return zlib_adler32((uint32_t)adler, buf, len);
}

ZAPI uLong adler32(uLong adler, const Bytef *buf, uInt len)
{
	return adler32_z(adler, buf, len);
}

#define ADLER_MOD 65521u /* the largest prime below 2^16 (RFC 1950) */

/* The Adler-32 of A then B from theirs and B's length: B's byte sum moves by A's sum less one,
 * and each of B's len2 running sums by A's byte sum less one. */
static uLong adler_combine(uLong adler1, uLong adler2, uint64_t len2)
{
	const uint64_t r = len2 % ADLER_MOD;
	const uint64_t a1 = adler1 & 0xffff, s1 = (adler1 >> 16) & 0xffff;
	const uint64_t a2 = adler2 & 0xffff, s2 = (adler2 >> 16) & 0xffff;
	const uint64_t a = (a1 + a2 + ADLER_MOD - 1) % ADLER_MOD;
	const uint64_t s = (s1 + s2 + r * a1 % ADLER_MOD + ADLER_MOD - r) % ADLER_MOD;
	return (uLong)(s << 16 | a);
}

ZAPI uLong adler32_combine64(uLong adler1, uLong adler2, z_off64_t len2)
{
	if (len2 < 0)
		return 0xffffffffu;
	return adler_combine(adler1, adler2, (uint64_t)len2);
}

ZAPI uLong adler32_combine(uLong adler1, uLong adler2, z_off_t len2)
{
	return adler32_combine64(adler1, adler2, len2);
}

/* CRC-32 arithmetic in GF(2)[x] modulo its polynomial, bit-reflected as the CRC is: bit 31 is
 * x^0, bit 0 is x^31. */
#define CRC32_POLY 0xedb88320u /* x^32 + x^26 + ... + 1, reflected (IEEE 802.3) */
#define CRC32_X0   0x80000000u /* the polynomial 1 */

static uint32_t crc_mulmod(uint32_t a, uint32_t b)
{
	uint32_t prod = 0;
	for (int i = 31; i >= 0; i--) {
		if (a >> i & 1)
			prod ^= b;
		b = b & 1 ? b >> 1 ^ CRC32_POLY : b >> 1; /* b times x */
	}
	return prod;
}

/* x^(8 n) modulo the polynomial: the operator that moves a CRC past n zero bytes. */
static uint32_t crc_shift_op(uint64_t n)
{
	uint32_t op = CRC32_X0, sq = CRC32_X0 >> 8; /* x^8 */
	for (; n; n >>= 1) {
		if (n & 1)
			op = crc_mulmod(op, sq);
		sq = crc_mulmod(sq, sq);
	}
	return op;
}

ZAPI uLong crc32_combine_gen64(z_off64_t len2)
{
	return crc_shift_op((uint64_t)len2);
}

ZAPI uLong crc32_combine_gen(z_off_t len2)
{
	return crc32_combine_gen64(len2);
}

/* The CRC of A then B: A's CRC moved past B's length, plus B's (a CRC is linear). */
ZAPI uLong crc32_combine_op(uLong crc1, uLong crc2, uLong op)
{
	return crc_mulmod((uint32_t)op, (uint32_t)crc1) ^ (uint32_t)crc2;
}

ZAPI uLong crc32_combine64(uLong crc1, uLong crc2, z_off64_t len2)
{
	return crc32_combine_op(crc1, crc2, crc32_combine_gen64(len2));
}

ZAPI uLong crc32_combine(uLong crc1, uLong crc2, z_off_t len2)
{
	return crc32_combine64(crc1, crc2, len2);
}

/* The byte-at-a-time table of the reflected CRC-32 (entry i: the CRC register after shifting
 * byte i through it), built by the compiler: eight conditional steps per entry. */
#define CRC_STEP(c) ((c)&1 ? (c) >> 1 ^ CRC32_POLY : (c) >> 1)
#define CRC_BYTE(i)                                                                                \
	CRC_STEP(                                                                                  \
	    CRC_STEP(CRC_STEP(CRC_STEP(CRC_STEP(CRC_STEP(CRC_STEP(CRC_STEP((uint32_t)(i)))))))))
#define CRC_ROW4(i)  CRC_BYTE(i), CRC_BYTE((i) + 1), CRC_BYTE((i) + 2), CRC_BYTE((i) + 3)
#define CRC_ROW16(i) CRC_ROW4(i), CRC_ROW4((i) + 4), CRC_ROW4((i) + 8), CRC_ROW4((i) + 12)
#define CRC_ROW64(i) CRC_ROW16(i), CRC_ROW16((i) + 16), CRC_ROW16((i) + 32), CRC_ROW16((i) + 48)
static const z_crc_t crc_table[256] = {
	CRC_ROW64(0),
	CRC_ROW64(64),
	CRC_ROW64(128),
	CRC_ROW64(192),
};

ZAPI const z_crc_t *get_crc_table(void)
{
	return crc_table;
}

/* ---- one-call compression -------------------------------------------------------------------- */

ZAPI uLong compressBound(uLong source_len)
{
	return source_len + (source_len >> 12) + (source_len >> 14) + (source_len >> 25) + 13;
}

/* Move at most UINT_MAX bytes of a 64-bit count into a stream's 32-bit field. */
static uInt take_chunk(uLong *left)
{
	const uInt n = *left > 0xffffffffu ? 0xffffffffu : (uInt)*left;
	*left -= n;
	return n;
}

ZAPI int compress2(Bytef *dest, uLong *dest_len, const Bytef *source, uLong source_len, int level)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	int err = zlib_deflate_init2(&z, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY);
	if (err != Z_OK)
		return err;
	uLong out_left = *dest_len, in_left = source_len;
	z.next_out = dest;
	z.next_in = source;
	do {
		if (!z.avail_out)
			z.avail_out = take_chunk(&out_left);
		if (!z.avail_in)
			z.avail_in = take_chunk(&in_left);
		err = zlib_deflate(&z, in_left ? Z_NO_FLUSH : Z_FINISH);
	} while (err == Z_OK);
	*dest_len = z.total_out;
	zlib_deflate_end(&z);
	return err == Z_STREAM_END ? Z_OK : err;
}

ZAPI int compress(Bytef *dest, uLong *dest_len, const Bytef *source, uLong source_len)
{
	return compress2(dest, dest_len, source, source_len, Z_DEFAULT_COMPRESSION);
}

ZAPI int uncompress2(Bytef *dest, uLong *dest_len, const Bytef *source, uLong *source_len)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	int err = zlib_inflate_init2(&z, 15);
	if (err != Z_OK)
		return err;
	/* Without room for output, one byte of scratch still tells an empty stream from one
	 * that has data. */
	Bytef scratch;
	const int probe = *dest_len == 0;
	uLong out_left = probe ? 1 : *dest_len, in_left = *source_len;
	z.next_out = probe ? &scratch : dest;
	z.next_in = source;
	do {
		if (!z.avail_out)
			z.avail_out = take_chunk(&out_left);
		if (!z.avail_in)
			z.avail_in = take_chunk(&in_left);
		err = zlib_inflate(&z, Z_NO_FLUSH);
	} while (err == Z_OK);
	*source_len -= in_left + z.avail_in;
	if (!probe)
		*dest_len = z.total_out;
	else if (z.total_out && err == Z_BUF_ERROR)
		out_left = 1;
	zlib_inflate_end(&z);
	/* A buffer error with output room left means the input ran out first: the stream is cut
	 * short, a data error; with none left, the output buffer was too small. */
	if (err == Z_STREAM_END)
		return Z_OK;
	if (err == Z_NEED_DICT)
		return Z_DATA_ERROR;
	if (err == Z_BUF_ERROR && out_left + z.avail_out)
		return Z_DATA_ERROR;
	return err;
}

ZAPI int uncompress(Bytef *dest, uLong *dest_len, const Bytef *source, uLong source_len)
{
	return uncompress2(dest, dest_len, source, &source_len);
}
