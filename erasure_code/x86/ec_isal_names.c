/* ISA-L's per-instruction-set erasure-code entry points (ec_encode_data_avx2, gf_4vect_mad_avx512,
 * ec_encode_data_avx512_gfni, ...), with ISA-L's signatures and results.
 *
 * Each runs stoa's code within its instruction set (common/x86/isal_sets.h): the best variant of
 * the dispatched function that needs nothing outside the set and that this CPU and STOA_ISA
 * allow, down to the portable code. So a name whose set the CPU lacks (the GFNI ones on a CPU
 * without GFNI) runs correctly where ISA-L's would stop on an illegal instruction.
 *
 * ISA-L's gf_<N>vect_dot_prod_* and gf_<N>vect_mad_* compute N outputs from tables laid out as
 * ec_encode_data's and ec_encode_data_update's are for N rows, which is how they are run here.
 * The _gfni names take ISA-L's GFNI tables (ec_init_tables_gfni, gf_vect_mul_init_gfni, also
 * defined here); like every stoa data function they read the portable layout as well, telling
 * the two apart by their bytes (../ec_table_layouts.c), so no pairing of a table builder with a
 * data function gives a wrong result. Unlike ISA-L's, they accept any length, as stoa's
 * gf_vect_mul does. */
#include <string.h>

#include "../ec_internal.h"
#include "common/x86/isal_sets.h"
#include "isal_names.h"

#define EC_ENCODE_PARAMS                                                                           \
	(int len, int k, int rows, unsigned char *tbls, unsigned char **data,                      \
	 unsigned char **coding)
#define EC_ENCODE_ARGS (len, k, rows, tbls, data, coding)
#define EC_UPDATE_PARAMS                                                                           \
	(int len, int k, int rows, int vec_i, unsigned char *tbls, unsigned char *data,            \
	 unsigned char **coding)
#define EC_UPDATE_ARGS (len, k, rows, vec_i, tbls, data, coding)
#define EC_DOT_PARAMS                                                                              \
	(int len, int vlen, unsigned char *tbls, unsigned char **src, unsigned char *dest)
#define EC_DOT_ARGS (len, vlen, tbls, src, dest)
#define EC_MAD_PARAMS                                                                              \
	(int len, int vec, int vec_i, unsigned char *tbls, unsigned char *src, unsigned char *dest)
#define EC_MAD_ARGS   (len, vec, vec_i, tbls, src, dest)
#define EC_MUL_PARAMS (int len, unsigned char *tbl, void *src, void *dest)
#define EC_MUL_ARGS   (len, tbl, src, dest)

/* The one-output and whole-call names of one set, and the pointers its N-output names use. */
#define EC_ISAL_SET(isa)                                                                           \
	STOA_WITHIN_PTR(void, encode_##isa, "ec_encode_data", ISAL_SET_##isa, EC_ENCODE_PARAMS,    \
	                EC_ENCODE_ARGS)                                                            \
	STOA_WITHIN_PTR(void, update_##isa, "ec_encode_data_update", ISAL_SET_##isa,               \
	                EC_UPDATE_PARAMS, EC_UPDATE_ARGS)                                          \
	STOA_WITHIN_PTR(void, dot_##isa, "gf_vect_dot_prod", ISAL_SET_##isa, EC_DOT_PARAMS,        \
	                EC_DOT_ARGS)                                                               \
	STOA_WITHIN_PTR(void, mad_##isa, "gf_vect_mad", ISAL_SET_##isa, EC_MAD_PARAMS,             \
	                EC_MAD_ARGS)                                                               \
	void ec_encode_data_##isa EC_ENCODE_PARAMS;                                                \
	void ec_encode_data_update_##isa EC_UPDATE_PARAMS;                                         \
	void gf_vect_dot_prod_##isa EC_DOT_PARAMS;                                                 \
	void gf_vect_mad_##isa EC_MAD_PARAMS;                                                      \
	STOA_API void ec_encode_data_##isa EC_ENCODE_PARAMS                                        \
	{                                                                                          \
		ec_encode_any(encode_##isa##_pick(), len, k, rows, tbls, data, coding);            \
	}                                                                                          \
	STOA_API void ec_encode_data_update_##isa EC_UPDATE_PARAMS                                 \
	{                                                                                          \
		ec_update_any(update_##isa##_pick(), len, k, rows, vec_i, tbls, data, coding);     \
	}                                                                                          \
	STOA_API void gf_vect_dot_prod_##isa EC_DOT_PARAMS                                         \
	{                                                                                          \
		ec_dot_any(dot_##isa##_pick(), len, vlen, tbls, src, dest);                        \
	}                                                                                          \
	STOA_API void gf_vect_mad_##isa EC_MAD_PARAMS                                              \
	{                                                                                          \
		ec_mad_any(mad_##isa##_pick(), len, vec, vec_i, tbls, src, dest);                  \
	}                                                                                          \
	STOA_ISAL_NAME(ec_encode_data_##isa, "ec_encode_data", ISAL_SET_##isa, 0)                  \
	STOA_ISAL_NAME(ec_encode_data_update_##isa, "ec_encode_data_update", ISAL_SET_##isa, 0)    \
	STOA_ISAL_NAME(gf_vect_dot_prod_##isa, "gf_vect_dot_prod", ISAL_SET_##isa, 0)              \
	STOA_ISAL_NAME(gf_vect_mad_##isa, "gf_vect_mad", ISAL_SET_##isa, 0)

/* gf_<n>vect_dot_prod_<isa> and gf_<n>vect_mad_<isa>: n rows of ec_encode_data and
 * ec_encode_data_update. */
#define EC_ISAL_DOT(n, isa)                                                                        \
	void gf_##n##vect_dot_prod_##isa(int len, int vlen, unsigned char *tbls,                   \
	                                 unsigned char **src, unsigned char **dest);               \
	STOA_API void gf_##n##vect_dot_prod_##isa(int len, int vlen, unsigned char *tbls,          \
	                                          unsigned char **src, unsigned char **dest)       \
	{                                                                                          \
		ec_encode_any(encode_##isa##_pick(), len, vlen, n, tbls, src, dest);               \
	}                                                                                          \
	STOA_ISAL_NAME(gf_##n##vect_dot_prod_##isa, "ec_encode_data", ISAL_SET_##isa, n)
#define EC_ISAL_MAD(n, isa)                                                                        \
	void gf_##n##vect_mad_##isa(int len, int vec, int vec_i, unsigned char *tbls,              \
	                            unsigned char *src, unsigned char **dest);                     \
	STOA_API void gf_##n##vect_mad_##isa(int len, int vec, int vec_i, unsigned char *tbls,     \
	                                     unsigned char *src, unsigned char **dest)             \
	{                                                                                          \
		ec_update_any(update_##isa##_pick(), len, vec, n, vec_i, tbls, src, dest);         \
	}                                                                                          \
	STOA_ISAL_NAME(gf_##n##vect_mad_##isa, "ec_encode_data_update", ISAL_SET_##isa, n)

#define EC_ISAL_MUL(isa)                                                                           \
	STOA_WITHIN_PTR(int, mul_##isa, "gf_vect_mul", ISAL_SET_##isa, EC_MUL_PARAMS, EC_MUL_ARGS) \
	int gf_vect_mul_##isa EC_MUL_PARAMS;                                                       \
	STOA_API int gf_vect_mul_##isa EC_MUL_PARAMS                                               \
	{                                                                                          \
		return ec_mul_any(mul_##isa##_pick(), len, tbl, src, dest);                        \
	}                                                                                          \
	STOA_ISAL_NAME(gf_vect_mul_##isa, "gf_vect_mul", ISAL_SET_##isa, 0)

/* Every N-output name ISA-L has for a set: 2..6 for the nibble-table sets. */
#define EC_ISAL_N_2_TO_6(isa)                                                                      \
	EC_ISAL_DOT(2, isa)                                                                        \
	EC_ISAL_DOT(3, isa)                                                                        \
	EC_ISAL_DOT(4, isa)                                                                        \
	EC_ISAL_DOT(5, isa)                                                                        \
	EC_ISAL_DOT(6, isa)                                                                        \
	EC_ISAL_MAD(2, isa)                                                                        \
	EC_ISAL_MAD(3, isa)                                                                        \
	EC_ISAL_MAD(4, isa)                                                                        \
	EC_ISAL_MAD(5, isa)                                                                        \
	EC_ISAL_MAD(6, isa)

EC_ISAL_SET(sse)
EC_ISAL_SET(avx)
EC_ISAL_SET(avx2)
EC_ISAL_SET(avx512)
EC_ISAL_SET(avx2_gfni)
EC_ISAL_SET(avx512_gfni)

EC_ISAL_N_2_TO_6(sse)
EC_ISAL_N_2_TO_6(avx)
EC_ISAL_N_2_TO_6(avx2)
EC_ISAL_N_2_TO_6(avx512)
EC_ISAL_N_2_TO_6(avx512_gfni)
/* ISA-L's AVX2+GFNI set stops at 3 outputs for dot products and 5 for multiply-adds. */
EC_ISAL_DOT(2, avx2_gfni)
EC_ISAL_DOT(3, avx2_gfni)
EC_ISAL_MAD(2, avx2_gfni)
EC_ISAL_MAD(3, avx2_gfni)
EC_ISAL_MAD(4, avx2_gfni)
EC_ISAL_MAD(5, avx2_gfni)

EC_ISAL_MUL(sse)
EC_ISAL_MUL(avx)
EC_ISAL_MUL(avx2_gfni)

/* ISA-L's GFNI table builders (exported, not declared by ISA-L's headers). */
void gf_vect_mul_init_gfni(unsigned char c, unsigned char *tbl);
void ec_init_tables_gfni(int k, int rows, unsigned char *a, unsigned char *gftbls);

/* ISA-L's GFNI table of c: its bit matrix (ec_matrix_of) four times over 32 bytes. */
STOA_API void gf_vect_mul_init_gfni(unsigned char c, unsigned char *tbl)
{
	if (tbl == NULL)
		return;
	uint8_t m[8];
	ec_matrix_of(c, m);
	for (int i = 0; i < 4; i++)
		memcpy(tbl + 8 * i, m, 8);
}

STOA_API void ec_init_tables_gfni(int k, int rows, unsigned char *a, unsigned char *gftbls)
{
	if (k < 1 || k > EC_MAX_SOURCES || rows < 1 || rows > EC_MAX_ROWS || a == NULL ||
	    gftbls == NULL)
		return;
	const size_t n = (size_t)k * (size_t)rows;
	for (size_t i = 0; i < n; i++)
		gf_vect_mul_init_gfni(a[i], gftbls + i * EC_TBL);
}
