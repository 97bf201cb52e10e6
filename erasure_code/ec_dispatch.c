/* Erasure-code variant tables, best first, and the exported entry points that dispatch through
 * them. The scalar functions (gf_mul, matrices, ec_init_tables) are in gf_base.c: they are the
 * same on every CPU, and so are the tables ec_init_tables writes. */
#include "ec_internal.h"
#include "isa-l/erasure_code.h"
#include "isa-l/gf_vect_mul.h"

/* What each file's compiler flags let it use (the Makefile's ISA_FLAGS_*): a variant needs every
 * feature its file was built for, not only the ones its intrinsics name. */
#define NEED_AVX2                                                                                  \
	(STOA_CPU_AVX | STOA_CPU_AVX2 | STOA_CPU_BMI1 | STOA_CPU_BMI2 | STOA_CPU_SSE42 |           \
	 STOA_CPU_POPCNT | STOA_CPU_SSSE3 | STOA_CPU_SSE41)
#define NEED_AVX512                                                                                \
	(NEED_AVX2 | STOA_CPU_AVX512F | STOA_CPU_AVX512BW | STOA_CPU_AVX512VL | STOA_CPU_AVX512DQ)

#ifdef __x86_64__
#define EC_TABLE(name, portable)                                                                   \
	const struct stoa_variant name##_variants[] = {                                            \
		STOA_VARIANT("avx512_gfni", NEED_AVX512 | STOA_CPU_GFNI, name##_avx512_gfni),      \
		STOA_VARIANT("avx512", NEED_AVX512, name##_avx512),                                \
		STOA_VARIANT("avx2_gfni", NEED_AVX2 | STOA_CPU_GFNI, name##_avx2_gfni),            \
		STOA_VARIANT("avx2", NEED_AVX2, name##_avx2),                                      \
		STOA_VARIANT("base", 0, portable),                                                 \
	};
#else
#define EC_TABLE(name, portable)                                                                   \
	const struct stoa_variant name##_variants[] = {                                            \
		STOA_VARIANT("base", 0, portable),                                                 \
	};
#endif

EC_TABLE(ec_encode_data, ec_encode_data_portable)
EC_TABLE(ec_encode_data_update, ec_encode_data_update_portable)
EC_TABLE(gf_vect_dot_prod, gf_vect_dot_prod_portable)
EC_TABLE(gf_vect_mad, gf_vect_mad_portable)
EC_TABLE(gf_vect_mul, gf_vect_mul_portable)

STOA_DISPATCH(void, ec_encode_data,
              (int len, int k, int rows, unsigned char *gftbls, unsigned char **data,
               unsigned char **coding),
              (len, k, rows, gftbls, data, coding))
STOA_DISPATCH(void, ec_encode_data_update,
              (int len, int k, int rows, int vec_i, unsigned char *g_tbls, unsigned char *data,
               unsigned char **coding),
              (len, k, rows, vec_i, g_tbls, data, coding))
STOA_DISPATCH(void, gf_vect_dot_prod,
              (int len, int vlen, unsigned char *gftbls, unsigned char **src, unsigned char *dest),
              (len, vlen, gftbls, src, dest))
STOA_DISPATCH(void, gf_vect_mad,
              (int len, int vec, int vec_i, unsigned char *gftbls, unsigned char *src,
               unsigned char *dest),
              (len, vec, vec_i, gftbls, src, dest))
STOA_DISPATCH(int, gf_vect_mul, (int len, unsigned char *gftbl, void *src, void *dest),
              (len, gftbl, src, dest))

static const struct stoa_func ec_funcs[] = {
	STOA_FUNC(ec_encode_data), STOA_FUNC(ec_encode_data_update), STOA_FUNC(gf_vect_dot_prod),
	STOA_FUNC(gf_vect_mad),    STOA_FUNC(gf_vect_mul),
};

const struct stoa_module stoa_module_erasure_code = { "erasure_code", ec_funcs,
	                                              STOA_COUNT(ec_funcs) };
