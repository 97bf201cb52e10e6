/* stoa: Reed-Solomon style erasure codes over GF(2^8), with ISA-L's names and conventions.
 *
 * An erasure code of k data fragments and p parity fragments is a (k + p) x k matrix over
 * GF(2^8) (polynomial 0x11D) whose first k rows are usually the identity: fragment i is row i
 * times the data. Encoding multiplies the data by the parity rows; decoding multiplies k
 * surviving fragments by the inverse of their rows. Both are the one operation ec_encode_data
 * performs, with coefficients expanded beforehand by ec_init_tables.
 *
 * Coefficient tables: 32 bytes per coefficient (gf_vect_mul_init's layout), coefficient (r, j)
 * of `rows` outputs from k sources at offset 32 * (r * k + j). ec_init_tables writes exactly
 * these bytes on every CPU, so tables may be stored, shared between machines and built by hand.
 *
 * Buffers: any len >= 1 (no multiple of anything), any alignment; nothing past len is read or
 * written. Outputs must not overlap the inputs (gf_vect_mul excepted, see gf_vect_mul.h).
 *
 * Bad arguments: the functions that return void do nothing at all when an argument is out of
 * range: len <= 0, k or rows below 1 or above 255, vec_i outside [0, k), a NULL table or array,
 * or a NULL entry in a source or output array. ISA-L does not check; stoa does, so that a
 * wrong call cannot crash or write somewhere unexpected. */
#ifndef STOA_ISAL_ERASURE_CODE_H
#define STOA_ISAL_ERASURE_CODE_H

#include "gf_vect_mul.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Expands the rows x k coefficients of a (row-major) into gftbls, 32 * k * rows bytes. */
void ec_init_tables(int k, int rows, unsigned char *a, unsigned char *gftbls);

/* coding[r][i] = sum over j < k of a(r, j) * data[j][i], for r < rows and i < len, with the
 * coefficients a(r, j) as expanded by ec_init_tables(k, rows, a, gftbls). */
void ec_encode_data(int len, int k, int rows, unsigned char *gftbls, unsigned char **data,
                    unsigned char **coding);

/* Adds one source's share to the outputs: coding[r][i] ^= a(r, vec_i) * data[i]. Applied once
 * for every source j (vec_i = j) to zeroed outputs, it gives ec_encode_data's result, so a
 * stripe can be encoded as its data arrives. g_tbls is the whole k x rows table set. */
void ec_encode_data_update(int len, int k, int rows, int vec_i, unsigned char *g_tbls,
                           unsigned char *data, unsigned char **coding);

/* One output: dest[i] = sum over j < vlen of a(j) * src[j][i], gftbls holding vlen tables. */
void gf_vect_dot_prod(int len, int vlen, unsigned char *gftbls, unsigned char **src,
                      unsigned char *dest);

/* One source into one output: dest[i] ^= a(vec_i) * src[i], gftbls holding vec tables. */
void gf_vect_mad(int len, int vec, int vec_i, unsigned char *gftbls, unsigned char *src,
                 unsigned char *dest);

/* The portable versions: the same results on any CPU. As in ISA-L they read only byte 1 of
 * each 32-byte table (the coefficient itself), so a table with just that byte set serves them. */
void ec_encode_data_base(int len, int srcs, int dests, unsigned char *v, unsigned char **src,
                         unsigned char **dest);
void ec_encode_data_update_base(int len, int k, int rows, int vec_i, unsigned char *v,
                                unsigned char *data, unsigned char **dest);
void gf_vect_dot_prod_base(int len, int vlen, unsigned char *v, unsigned char **src,
                           unsigned char *dest);
void gf_vect_mad_base(int len, int vec, int vec_i, unsigned char *v, unsigned char *src,
                      unsigned char *dest);
/* ec_init_tables under the name later ISA-L releases also export. */
void ec_init_tables_base(int k, int rows, unsigned char *a, unsigned char *gftbls);

/* Field arithmetic. */
unsigned char gf_mul(unsigned char a, unsigned char b);
/* The inverse of a; gf_inv(0) is 0, as in ISA-L. */
unsigned char gf_inv(unsigned char a);

/* Coding matrices, m x k row-major (m = k + p fragments), identity on top. Both leave a
 * untouched unless 1 <= k <= m <= 255.
 *
 * gf_gen_rs_matrix: parity row i is (2^i)^j, j = 0..k-1 (a Vandermonde matrix). It is NOT
 * maximum distance separable for every k and p: from p = 5 on, some choices of k surviving
 * fragments have a singular matrix and cannot be decoded (ISA-L documents the safe region:
 * k <= 3, or p <= 3, or p = 4 with k <= 21, among others). Prefer gf_gen_cauchy1_matrix.
 *
 * gf_gen_cauchy1_matrix: parity row i (k <= i < m), column j is 1 / (i XOR j). Every k rows of
 * it are invertible, so any p losses can be rebuilt. stoa's helpers (stoa.h) use it. */
void gf_gen_rs_matrix(unsigned char *a, int m, int k);
void gf_gen_cauchy1_matrix(unsigned char *a, int m, int k);

/* Inverts the n x n matrix in into out. Returns 0, or -1 when in is singular (or an argument
 * is NULL or n < 0). in is destroyed: on success it ends as the identity. */
int gf_invert_matrix(unsigned char *in, unsigned char *out, const int n);

#if defined(__x86_64__) || defined(__i386__)
/* ISA-L's names for one instruction set each (_sse, _avx, _avx2), kept for old callers: the
 * function of the same stem limited to that set, never running code beyond it, on a CPU that
 * lacks part of it the best code inside what it has. gf_<N>vect_dot_prod_* and
 * gf_<N>vect_mad_* compute N outputs: ec_encode_data and ec_encode_data_update with rows = N,
 * dest holding the N output buffers. (The library also exports ISA-L's _avx512, _avx2_gfni and
 * _avx512_gfni names, which ISA-L's headers do not declare.) */
#define STOA_EC_ISA_DECLARE(isa)                                                                   \
	ISAL_LIB_DEPRECATED("Please use ec_encode_data() instead.")                                \
	void ec_encode_data_##isa(int len, int k, int rows, unsigned char *gftbls,                 \
	                          unsigned char **data, unsigned char **coding);                   \
	ISAL_LIB_DEPRECATED("Please use ec_encode_data_update() instead.")                         \
	void ec_encode_data_update_##isa(int len, int k, int rows, int vec_i,                      \
	                                 unsigned char *gftbls, unsigned char *data,               \
	                                 unsigned char **coding);                                  \
	ISAL_LIB_DEPRECATED("Please use gf_vect_dot_prod() instead.")                              \
	void gf_vect_dot_prod_##isa(int len, int vlen, unsigned char *gftbls, unsigned char **src, \
	                            unsigned char *dest);                                          \
	ISAL_LIB_DEPRECATED("Please use gf_vect_mad() instead.")                                   \
	void gf_vect_mad_##isa(int len, int vec, int vec_i, unsigned char *gftbls,                 \
	                       unsigned char *src, unsigned char *dest);                           \
	STOA_EC_N_DECLARE(2, isa)                                                                  \
	STOA_EC_N_DECLARE(3, isa)                                                                  \
	STOA_EC_N_DECLARE(4, isa)                                                                  \
	STOA_EC_N_DECLARE(5, isa)                                                                  \
	STOA_EC_N_DECLARE(6, isa)
#define STOA_EC_N_DECLARE(n, isa)                                                                  \
	ISAL_LIB_DEPRECATED("Please use ec_encode_data() instead.")                                \
	void gf_##n##vect_dot_prod_##isa(int len, int vlen, unsigned char *gftbls,                 \
	                                 unsigned char **src, unsigned char **dest);               \
	ISAL_LIB_DEPRECATED("Please use ec_encode_data_update() instead.")                         \
	void gf_##n##vect_mad_##isa(int len, int vec, int vec_i, unsigned char *gftbls,            \
	                            unsigned char *src, unsigned char **dest);
STOA_EC_ISA_DECLARE(sse)
STOA_EC_ISA_DECLARE(avx)
STOA_EC_ISA_DECLARE(avx2)
#undef STOA_EC_ISA_DECLARE
#undef STOA_EC_N_DECLARE
#endif

#ifdef __cplusplus
}
#endif

#endif
