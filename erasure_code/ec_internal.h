/* Erasure-code module internals: argument rules, the GF(2^8) tables, the portable kernels and
 * the variant tables that tests and the benchmark walk.
 *
 * The field is GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1 (0x11D), ISA-L's. A coefficient c
 * reaches the kernels as ISA-L's portable 32-byte table: c * i for i = 0..15, then
 * c * (i << 4) for i = 0..15 (gf_vect_mul_init). Every variant reads that layout:
 *   - the _base functions read only byte 1 (c itself), as ISA-L documents for them;
 *   - the nibble-shuffle kernels (AVX2, AVX-512BW) use both halves as PSHUFB tables;
 *   - the GFNI kernels take the products of 1, 2, 4, 8 (bytes 1, 2, 4, 8) and of 16, 32, 64,
 *     128 (bytes 17, 18, 20, 24), which are the columns of c's 8x8 bit matrix.
 * So tables are the same bytes on every CPU and a client may build, store and reuse them.
 *
 * Every variant has the API's signature and checks its own arguments, so any table entry can be
 * called directly with anything; a rejected call has no effect (ISA-L's functions return void,
 * so "do nothing" is the only safe answer). */
#ifndef STOA_EC_INTERNAL_H
#define STOA_EC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dispatch.h"

#pragma GCC visibility push(hidden)

/* Largest k (sources) and rows any function accepts: ISA-L's limit of 255 fragments, applied to
 * each on its own (the data functions do not care how the coefficients were chosen), which also
 * keeps 32 * k * rows far from int overflow. The matrix generators and stoa's helpers use the
 * tighter k + p <= 255. */
#define EC_MAX_SOURCES   255
#define EC_MAX_ROWS      255
#define EC_MAX_FRAGMENTS 255

/* Bytes of one coefficient's table. */
#define EC_TBL 32

/* Powers of the generator 2: gf_exp[i] = 2^i for i in 0..254, and gf_log its inverse on the
 * non-zero elements (gf_log[0] is unused). */
extern const uint8_t gf_exp[255];
extern const uint8_t gf_log[256];

/* c * b for one coefficient; fine for set-up work, not for bulk data. */
static inline uint8_t gf_mul_fast(uint8_t a, uint8_t b)
{
	if (a == 0 || b == 0)
		return 0;
	unsigned e = (unsigned)gf_log[a] + gf_log[b];
	return gf_exp[e >= 255 ? e - 255 : e];
}

/* Whether k sources by rows rows of tables can be read: the part of every data function's
 * argument check that the table-layout test (ec_*_any below) needs. */
static inline int ec_shape_ok(int len, int k, int rows, const unsigned char *tbls)
{
	return len > 0 && k >= 1 && k <= EC_MAX_SOURCES && rows >= 1 && rows <= EC_MAX_ROWS &&
	       tbls != NULL;
}

/* Arguments of ec_encode_data and gf_vect_dot_prod (rows = 1): true when the call may touch its
 * buffers. */
static inline int ec_encode_args_ok(int len, int k, int rows, const unsigned char *tbls,
                                    unsigned char *const *src, unsigned char *const *dst)
{
	if (!ec_shape_ok(len, k, rows, tbls) || src == NULL || dst == NULL)
		return 0;
	for (int j = 0; j < k; j++)
		if (src[j] == NULL)
			return 0;
	for (int r = 0; r < rows; r++)
		if (dst[r] == NULL)
			return 0;
	return 1;
}

/* Arguments of ec_encode_data_update and gf_vect_mad (rows = 1) but the output pointers, for the
 * kernels that check those themselves. */
static inline int ec_update_shape_ok(int len, int k, int rows, int vec_i, const unsigned char *tbls,
                                     const unsigned char *data, unsigned char *const *dst)
{
	return ec_shape_ok(len, k, rows, tbls) && vec_i >= 0 && vec_i < k && data != NULL &&
	       dst != NULL;
}

/* Arguments of ec_encode_data_update and gf_vect_mad (rows = 1). */
static inline int ec_update_args_ok(int len, int k, int rows, int vec_i, const unsigned char *tbls,
                                    const unsigned char *data, unsigned char *const *dst)
{
	if (!ec_update_shape_ok(len, k, rows, vec_i, tbls, data, dst))
		return 0;
	for (int r = 0; r < rows; r++)
		if (dst[r] == NULL)
			return 0;
	return 1;
}

/* Arguments of gf_vect_mul: -1 for bad ones (its documented answer), 0 when len is 0 (nothing to
 * do), 1 when the call may touch its buffers. */
static inline int ec_mul_args(int len, const unsigned char *tbl, const void *src, const void *dest)
{
	if (len < 0 || tbl == NULL || src == NULL || dest == NULL)
		return -1;
	return len > 0;
}

/*
 * The portable kernel (ec_base.c) behind the base entries and ISA-L's _base functions.
 *
 * dst[r][off .. off+n) = (accumulate ? dst[r] : 0) ^ sum over j < k of c(r, j) * src[j][...],
 * where c(r, j) is byte 1 of the table at tbls + r * rstride + j * jstride. k >= 1, rows >= 1.
 */
void ec_portable(size_t off, size_t n, size_t k, size_t rows, const uint8_t *tbls, size_t rstride,
                 size_t jstride, const uint8_t *const *src, uint8_t *const *dst, int accumulate);

/* The variants, each with the API's signature. */
typedef void ec_encode_fn(int len, int k, int rows, unsigned char *gftbls, unsigned char **data,
                          unsigned char **coding);
typedef void ec_update_fn(int len, int k, int rows, int vec_i, unsigned char *g_tbls,
                          unsigned char *data, unsigned char **coding);
typedef void ec_dot_fn(int len, int vlen, unsigned char *gftbls, unsigned char **src,
                       unsigned char *dest);
typedef void ec_mad_fn(int len, int vec, int vec_i, unsigned char *gftbls, unsigned char *src,
                       unsigned char *dest);
typedef int ec_mul_fn(int len, unsigned char *gftbl, void *src, void *dest);

/* An architecture's variants are stoa_<API name>_<token>: ISA-L exports <API name>_<isa> for the
 * same tokens (ec_encode_data_avx2, ...), which stoa provides as separate entry points
 * (x86/ec_isal_names.c). */
#define EC_DECLARE_VARIANTS(sfx)                                                                   \
	ec_encode_fn stoa_ec_encode_data_##sfx;                                                    \
	ec_update_fn stoa_ec_encode_data_update_##sfx;                                             \
	ec_dot_fn stoa_gf_vect_dot_prod_##sfx;                                                     \
	ec_mad_fn stoa_gf_vect_mad_##sfx;                                                          \
	ec_mul_fn stoa_gf_vect_mul_##sfx;

/* The portable variants (ec_base.c). */
ec_encode_fn ec_encode_data_portable;
ec_update_fn ec_encode_data_update_portable;
ec_dot_fn gf_vect_dot_prod_portable;
ec_mad_fn gf_vect_mad_portable;
ec_mul_fn gf_vect_mul_portable;

/* Calls of a variant with tables of either ISA-L layout (ec_table_layouts.c tells why both
 * exist): tables in the matrix layout of ISA-L's GFNI functions are translated to the portable one
 * first. The test is inline and checks only what reading the tables needs (the variant checks the
 * rest), and the translations, with their stack buffers, are functions apart: a wrapper that
 * did both in one frame cost every call about 4 ns. */
static inline uint64_t ec_quad(const uint8_t *p, int i)
{
	uint64_t v;
	memcpy(&v, p + 8 * i, 8);
	return v;
}

/* A matrix table repeats one quadword four times; a portable table of c != 0 has 0 in byte 0 and
 * c * 8 != 0 in byte 8, so its first two quadwords differ. Both layouts of c = 0 are all zero. */
static inline int ec_is_matrix_table(const uint8_t *t)
{
	const uint64_t q = ec_quad(t, 0);
	return q == ec_quad(t, 1) && q == ec_quad(t, 2) && q == ec_quad(t, 3);
}

/* Whether the n tables from t on, stride bytes apart, are in the matrix layout: the first
 * non-zero one decides (one table builder writes all of them). */
static inline int ec_matrix_layout(const uint8_t *t, size_t n, size_t stride)
{
	for (size_t i = 0; i < n; i++, t += stride) {
		if (!ec_is_matrix_table(t))
			return 0;
		if (ec_quad(t, 0) != 0)
			return 1;
	}
	return 0;
}

void ec_encode_translated(ec_encode_fn *f, int len, int k, int rows, const uint8_t *tbls,
                          unsigned char **data, unsigned char **coding);
void ec_update_translated(ec_update_fn *f, int len, int k, int rows, const uint8_t *tbls,
                          unsigned char *data, unsigned char **coding);
void ec_dot_translated(ec_dot_fn *f, int len, int vlen, const uint8_t *tbls, unsigned char **src,
                       unsigned char *dest);
void ec_mad_translated(ec_mad_fn *f, int len, const uint8_t *tbl, unsigned char *src,
                       unsigned char *dest);
int ec_mul_translated(ec_mul_fn *f, int len, const uint8_t *tbl, void *src, void *dest);

static inline void ec_encode_any(ec_encode_fn *f, int len, int k, int rows, unsigned char *tbls,
                                 unsigned char **data, unsigned char **coding)
{
	if (ec_shape_ok(len, k, rows, tbls) &&
	    ec_matrix_layout(tbls, (size_t)k * (size_t)rows, EC_TBL))
		ec_encode_translated(f, len, k, rows, tbls, data, coding);
	else
		f(len, k, rows, tbls, data, coding);
}

static inline void ec_update_any(ec_update_fn *f, int len, int k, int rows, int vec_i,
                                 unsigned char *tbls, unsigned char *data, unsigned char **coding)
{
	if (ec_shape_ok(len, k, rows, tbls) && vec_i >= 0 && vec_i < k &&
	    ec_matrix_layout(tbls + (size_t)vec_i * EC_TBL, (size_t)rows, (size_t)k * EC_TBL))
		ec_update_translated(f, len, k, rows, tbls + (size_t)vec_i * EC_TBL, data, coding);
	else
		f(len, k, rows, vec_i, tbls, data, coding);
}

static inline void ec_dot_any(ec_dot_fn *f, int len, int vlen, unsigned char *tbls,
                              unsigned char **src, unsigned char *dest)
{
	if (ec_shape_ok(len, vlen, 1, tbls) && ec_matrix_layout(tbls, (size_t)vlen, EC_TBL))
		ec_dot_translated(f, len, vlen, tbls, src, dest);
	else
		f(len, vlen, tbls, src, dest);
}

static inline void ec_mad_any(ec_mad_fn *f, int len, int vec, int vec_i, unsigned char *tbls,
                              unsigned char *src, unsigned char *dest)
{
	if (ec_shape_ok(len, vec, 1, tbls) && vec_i >= 0 && vec_i < vec &&
	    ec_matrix_layout(tbls + (size_t)vec_i * EC_TBL, 1, 0))
		ec_mad_translated(f, len, tbls + (size_t)vec_i * EC_TBL, src, dest);
	else
		f(len, vec, vec_i, tbls, src, dest);
}

static inline int ec_mul_any(ec_mul_fn *f, int len, unsigned char *tbl, void *src, void *dest)
{
	if (len > 0 && tbl != NULL && ec_matrix_layout(tbl, 1, 0))
		return ec_mul_translated(f, len, tbl, src, dest);
	return f(len, tbl, src, dest);
}

/* c's 8x8 bit matrix in GF2P8AFFINEQB's form: ISA-L's GFNI table of c is it four times. */
void ec_matrix_of(uint8_t c, uint8_t m[8]);

/* The variant tables, best first, base last. */
extern const struct stoa_variant ec_encode_data_variants[];
extern const struct stoa_variant ec_encode_data_update_variants[];
extern const struct stoa_variant gf_vect_dot_prod_variants[];
extern const struct stoa_variant gf_vect_mad_variants[];
extern const struct stoa_variant gf_vect_mul_variants[];

extern const struct stoa_module stoa_module_erasure_code;

/* The stoa_ec_* helpers' decode-table cache (ec_helpers.c): entries held, for the tests. */
size_t ec_cache_entries(void);

#pragma GCC visibility pop

#endif
