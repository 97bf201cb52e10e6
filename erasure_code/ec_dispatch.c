/* Erasure-code variant tables, best first, and the exported entry points that dispatch through
 * them. The scalar functions (gf_mul, matrices, ec_init_tables) are in gf_base.c: they are the
 * same on every CPU, and so are the tables ec_init_tables writes. */
#include "ec_internal.h"
#include "isa-l/erasure_code.h"
#include "isa-l/gf_vect_mul.h"

#ifdef STOA_ARCH
#include STOA_ARCH_HEADER(erasure_code, ec)
#else
#define EC_ARCH_ENTRIES(name)
#endif

STOA_TABLE(EC, ec_encode_data)
STOA_TABLE(EC, ec_encode_data_update)
STOA_TABLE(EC, gf_vect_dot_prod)
STOA_TABLE(EC, gf_vect_mad)
STOA_TABLE(EC, gf_vect_mul)

/* Each entry point dispatches through its table, reading tables of either of ISA-L's layouts
 * (ec_table_layouts.c). */
STOA_DISPATCH_PTR(void, ec_encode_data,
                  (int len, int k, int rows, unsigned char *gftbls, unsigned char **data,
                   unsigned char **coding),
                  (len, k, rows, gftbls, data, coding))
STOA_DISPATCH_PTR(void, ec_encode_data_update,
                  (int len, int k, int rows, int vec_i, unsigned char *g_tbls,
                   unsigned char *data, unsigned char **coding),
                  (len, k, rows, vec_i, g_tbls, data, coding))
STOA_DISPATCH_PTR(void, gf_vect_dot_prod,
                  (int len, int vlen, unsigned char *gftbls, unsigned char **src,
                   unsigned char *dest),
                  (len, vlen, gftbls, src, dest))
STOA_DISPATCH_PTR(void, gf_vect_mad,
                  (int len, int vec, int vec_i, unsigned char *gftbls, unsigned char *src,
                   unsigned char *dest),
                  (len, vec, vec_i, gftbls, src, dest))
STOA_DISPATCH_PTR(int, gf_vect_mul, (int len, unsigned char *gftbl, void *src, void *dest),
                  (len, gftbl, src, dest))

STOA_API void ec_encode_data(int len, int k, int rows, unsigned char *gftbls,
                             unsigned char **data, unsigned char **coding)
{
	ec_encode_any(STOA_IMPL(ec_encode_data), len, k, rows, gftbls, data, coding);
}

STOA_API void ec_encode_data_update(int len, int k, int rows, int vec_i, unsigned char *g_tbls,
                                    unsigned char *data, unsigned char **coding)
{
	ec_update_any(STOA_IMPL(ec_encode_data_update), len, k, rows, vec_i, g_tbls, data,
	              coding);
}

STOA_API void gf_vect_dot_prod(int len, int vlen, unsigned char *gftbls, unsigned char **src,
                               unsigned char *dest)
{
	ec_dot_any(STOA_IMPL(gf_vect_dot_prod), len, vlen, gftbls, src, dest);
}

STOA_API void gf_vect_mad(int len, int vec, int vec_i, unsigned char *gftbls, unsigned char *src,
                          unsigned char *dest)
{
	ec_mad_any(STOA_IMPL(gf_vect_mad), len, vec, vec_i, gftbls, src, dest);
}

STOA_API int gf_vect_mul(int len, unsigned char *gftbl, void *src, void *dest)
{
	return ec_mul_any(STOA_IMPL(gf_vect_mul), len, gftbl, src, dest);
}

static const struct stoa_func ec_funcs[] = {
	STOA_FUNC(ec_encode_data), STOA_FUNC(ec_encode_data_update), STOA_FUNC(gf_vect_dot_prod),
	STOA_FUNC(gf_vect_mad),    STOA_FUNC(gf_vect_mul),
};

const struct stoa_module stoa_module_erasure_code = { "erasure_code", ec_funcs,
	                                              STOA_COUNT(ec_funcs) };
