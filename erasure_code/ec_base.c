/* The portable kernels: ec_encode_data and friends in C for any architecture, and ISA-L's
 * exported _base functions.
 *
 * Many bytes are multiplied at once in a word (SWAR). A product c * x is linear in the bits of x:
 * c * x = sum over b of x_b * (c * 2^b). So for each bit position b of the source bytes, a mask
 * with 0xFF in every byte whose bit b is set selects the precomputed c * 2^b (replicated in every
 * byte), and the selections are XORed together. The masks depend only on the source word, so
 * they are made once and serve every output row of the pass. On this project's Zen 5 machine
 * that is 4.4x (2+1) to 6.5x (10+4) the speed of ISA-L's byte-at-a-time log/antilog base, with no
 * tables beyond 64 bytes per coefficient.
 *
 * Like ISA-L's base functions these read only byte 1 of each 32-byte table (the coefficient). */
#include <string.h>

#include "ec_internal.h"
#include "isa-l/erasure_code.h"
#include "isa-l/gf_vect_mul.h"

#define LOW_BITS 0x0101010101010101ull

/* The word the kernel works on. With GCC or clang it is a 16-byte vector of two such 64-bit
 * words, which the compiler maps to the target's baseline SIMD (SSE2 on x86-64, NEON on AArch64)
 * or splits back into scalars: 1.6 to 2x the plain word on x86-64, same operations. Elsewhere,
 * or built with -DEC_SWAR_SCALAR (to test that form), plain uint64_t; also on 32-bit x86 without
 * SSE2 (Debian's i686 baseline), where GCC would pass such vectors in memory and warns that this
 * changes the calling convention (-Wpsabi), for no gain over the split scalars. */
#if defined(__GNUC__) && !defined(EC_SWAR_SCALAR) && !(defined(__i386__) && !defined(__SSE2__))
typedef uint64_t swar_word_t __attribute__((vector_size(16)));
#else
typedef uint64_t swar_word_t;
#endif
#define SWAR_BYTES sizeof(swar_word_t)

/* Output rows per pass: four accumulators, the source word, the mask and the loop's pointers fit
 * the sixteen general (or SSE) registers of x86-64 without spilling. */
#define SWAR_ROWS 4

/* Coefficients prepared per row set: 256 x 64 bytes of stack. */
#define SWAR_COEFS 256

/* Sources are worked in chunks of about this many bytes in all, so that a pass for the next rows
 * finds them still in L1. */
#define SWAR_CHUNK_BYTES 16384

struct swar_coef {
	uint64_t m[8]; /* c * 2^b in every byte */
};

static void swar_coef_init(struct swar_coef *s, uint8_t c)
{
	for (int b = 0; b < 8; b++) {
		s->m[b] = c * LOW_BITS;
		c = (uint8_t)((c << 1) ^ ((c & 0x80) ? 0x1d : 0));
	}
}

/* 0xFF in every byte of x whose bit b is set, 0 elsewhere: (t << 8) - t turns each 0x01 into
 * 0xFF without borrowing from the next byte, the top byte included (its carry wraps out). */
static inline swar_word_t swar_spread(swar_word_t x, unsigned b)
{
	swar_word_t t = (x >> b) & LOW_BITS;
	return (t << 8) - t;
}

/* A word of n (1..SWAR_BYTES) bytes; the rest reads as zero. */
static inline swar_word_t swar_load(const uint8_t *p, size_t n)
{
	swar_word_t v;
	memset(&v, 0, sizeof(v));
	memcpy(&v, p, n);
	return v;
}

static inline void swar_store(uint8_t *p, swar_word_t v, size_t n)
{
	memcpy(p, &v, n);
}

#define SWAR_INLINE static inline __attribute__((always_inline))

/* One word (n bytes) of R output rows from k sources at off; cf holds the coefficients source by
 * source, R to a source. The accumulators are named so they stay in registers. */
SWAR_INLINE void swar_word(const int R, size_t k, const uint8_t *const *src, size_t off, size_t n,
                           const struct swar_coef *cf, uint8_t *const *dst, int accumulate)
{
	swar_word_t a0, a1, a2, a3;
	memset(&a0, 0, sizeof(a0));
	a1 = a2 = a3 = a0;
	if (accumulate) {
		a0 = swar_load(dst[0] + off, n);
		if (R > 1)
			a1 = swar_load(dst[1] + off, n);
		if (R > 2)
			a2 = swar_load(dst[2] + off, n);
		if (R > 3)
			a3 = swar_load(dst[3] + off, n);
	}
	for (size_t j = 0; j < k; j++, cf += R) {
		swar_word_t x = swar_load(src[j] + off, n);
#pragma GCC unroll 8
		for (unsigned b = 0; b < 8; b++) {
			swar_word_t m = swar_spread(x, b);
			a0 ^= m & cf[0].m[b];
			if (R > 1)
				a1 ^= m & cf[1].m[b];
			if (R > 2)
				a2 ^= m & cf[2].m[b];
			if (R > 3)
				a3 ^= m & cf[3].m[b];
		}
	}
	swar_store(dst[0] + off, a0, n);
	if (R > 1)
		swar_store(dst[1] + off, a1, n);
	if (R > 2)
		swar_store(dst[2] + off, a2, n);
	if (R > 3)
		swar_store(dst[3] + off, a3, n);
}

SWAR_INLINE void swar_span(const int R, size_t k, const uint8_t *const *src, size_t off, size_t n,
                           const struct swar_coef *cf, uint8_t *const *dst, int accumulate)
{
	size_t end = off + n;
	for (; off + SWAR_BYTES <= end; off += SWAR_BYTES)
		swar_word(R, k, src, off, SWAR_BYTES, cf, dst, accumulate);
	if (off < end)
		swar_word(R, k, src, off, end - off, cf, dst, accumulate);
}

typedef void swar_rows_fn(size_t k, const uint8_t *const *src, size_t off, size_t n,
                          const struct swar_coef *cf, uint8_t *const *dst, int accumulate);

#define SWAR_ROWS_FN(R)                                                                            \
	static void swar_rows##R(size_t k, const uint8_t *const *src, size_t off, size_t n,        \
	                         const struct swar_coef *cf, uint8_t *const *dst, int accumulate)  \
	{                                                                                          \
		swar_span(R, k, src, off, n, cf, dst, accumulate);                                 \
	}
SWAR_ROWS_FN(1)
SWAR_ROWS_FN(2)
SWAR_ROWS_FN(3)
SWAR_ROWS_FN(4)

static swar_rows_fn *const swar_rows[SWAR_ROWS + 1] = { NULL, swar_rows1, swar_rows2, swar_rows3,
	                                                swar_rows4 };

/* Rows [r0, r0 + nrows) split into passes of at most SWAR_ROWS, sizes as even as possible. */
static size_t pass_rows(size_t nrows, size_t pass, size_t npasses)
{
	return nrows / npasses + (pass < nrows % npasses);
}

void ec_portable(size_t off, size_t n, size_t k, size_t rows, const uint8_t *tbls, size_t rstride,
                 size_t jstride, const uint8_t *const *src, uint8_t *const *dst, int accumulate)
{
	struct swar_coef cf[SWAR_COEFS];
	size_t set_rows = SWAR_COEFS / k;
	if (set_rows < 1)
		set_rows = 1;
	for (size_t r0 = 0; r0 < rows; r0 += set_rows) {
		size_t nrows = rows - r0 < set_rows ? rows - r0 : set_rows;
		size_t npasses = (nrows + SWAR_ROWS - 1) / SWAR_ROWS;
		/* Coefficients pass by pass, source by source within a pass. */
		struct swar_coef *c = cf;
		for (size_t p = 0, r = r0; p < npasses; p++) {
			size_t R = pass_rows(nrows, p, npasses);
			for (size_t j = 0; j < k; j++)
				for (size_t i = 0; i < R; i++)
					swar_coef_init(c++,
					               tbls[(r + i) * rstride + j * jstride + 1]);
			r += R;
		}
		size_t chunk = n;
		if (npasses > 1) {
			chunk = SWAR_CHUNK_BYTES / k & ~(size_t)(SWAR_BYTES - 1);
			chunk = chunk < 64 ? 64 : chunk;
		}
		for (size_t at = 0; at < n; at += chunk) {
			size_t len = n - at < chunk ? n - at : chunk;
			c = cf;
			for (size_t p = 0, r = r0; p < npasses; p++) {
				size_t R = pass_rows(nrows, p, npasses);
				swar_rows[R](k, src, off + at, len, c, dst + r, accumulate);
				c += k * R;
				r += R;
			}
		}
	}
}

/* The API-shaped portable variants: the base entries of the dispatch tables. */

void ec_encode_data_portable(int len, int k, int rows, unsigned char *gftbls, unsigned char **data,
                             unsigned char **coding)
{
	if (!ec_encode_args_ok(len, k, rows, gftbls, data, coding))
		return;
	ec_portable(0, (size_t)len, (size_t)k, (size_t)rows, gftbls, (size_t)k * EC_TBL, EC_TBL,
	            (const uint8_t *const *)data, coding, 0);
}

void ec_encode_data_update_portable(int len, int k, int rows, int vec_i, unsigned char *g_tbls,
                                    unsigned char *data, unsigned char **coding)
{
	if (!ec_update_args_ok(len, k, rows, vec_i, g_tbls, data, coding))
		return;
	const uint8_t *src[1] = { data };
	ec_portable(0, (size_t)len, 1, (size_t)rows, g_tbls + (size_t)vec_i * EC_TBL,
	            (size_t)k * EC_TBL, EC_TBL, src, coding, 1);
}

void gf_vect_dot_prod_portable(int len, int vlen, unsigned char *gftbls, unsigned char **src,
                               unsigned char *dest)
{
	if (!ec_encode_args_ok(len, vlen, 1, gftbls, src, &dest))
		return;
	ec_portable(0, (size_t)len, (size_t)vlen, 1, gftbls, 0, EC_TBL, (const uint8_t *const *)src,
	            &dest, 0);
}

void gf_vect_mad_portable(int len, int vec, int vec_i, unsigned char *gftbls, unsigned char *src,
                          unsigned char *dest)
{
	if (!ec_update_args_ok(len, vec, 1, vec_i, gftbls, src, &dest))
		return;
	const uint8_t *s[1] = { src };
	ec_portable(0, (size_t)len, 1, 1, gftbls + (size_t)vec_i * EC_TBL, 0, EC_TBL, s, &dest, 1);
}

/* Any len (ISA-L's vector versions want a multiple of 32 and fail otherwise); 0 on success, -1
 * for a negative len or a NULL pointer. src == dest is fine: each word is read before it is
 * written. */
int gf_vect_mul_portable(int len, unsigned char *gftbl, void *src, void *dest)
{
	int go = ec_mul_args(len, gftbl, src, dest);
	if (go <= 0)
		return go;
	const uint8_t *s[1] = { src };
	uint8_t *d[1] = { dest };
	ec_portable(0, (size_t)len, 1, 1, gftbl, 0, EC_TBL, s, d, 0);
	return 0;
}

/* ISA-L's exported portable functions, with ISA-L's parameter names. */

STOA_API void ec_encode_data_base(int len, int srcs, int dests, unsigned char *v,
                                  unsigned char **src, unsigned char **dest)
{
	ec_encode_data_portable(len, srcs, dests, v, src, dest);
}

STOA_API void ec_encode_data_update_base(int len, int k, int rows, int vec_i, unsigned char *v,
                                         unsigned char *data, unsigned char **dest)
{
	ec_encode_data_update_portable(len, k, rows, vec_i, v, data, dest);
}

STOA_API void gf_vect_dot_prod_base(int len, int vlen, unsigned char *v, unsigned char **src,
                                    unsigned char *dest)
{
	gf_vect_dot_prod_portable(len, vlen, v, src, dest);
}

STOA_API void gf_vect_mad_base(int len, int vec, int vec_i, unsigned char *v, unsigned char *src,
                               unsigned char *dest)
{
	gf_vect_mad_portable(len, vec, vec_i, v, src, dest);
}

STOA_API int gf_vect_mul_base(int len, unsigned char *a, unsigned char *src, unsigned char *dest)
{
	return gf_vect_mul_portable(len, a, src, dest);
}
