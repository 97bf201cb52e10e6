/* The inflate half of the igzip module: its variant tables and module entry. */
#include "inflate_internal.h"

#ifdef STOA_ARCH
#include STOA_ARCH_HEADER(igzip, inflate)
#else
#define INFL_ARCH_ENTRIES(name)
#endif

/* The Huffman block decoder (not exported: isal_inflate calls it through inflate_huff_impl()). */
STOA_TABLE(INFL, inflate_huff)

STOA_DISPATCH_PTR(int, inflate_huff, (struct inf_ctx * c), (c))

inf_block_fn *inflate_huff_impl(void)
{
	return inflate_huff_pick();
}

/* The table builder's doubling copy (inflate_tables.c), resolved once like the decoder. */
const struct stoa_variant inf_table_double_variants[] = {
	INFL_ARCH_ENTRIES(inf_table_double) STOA_BASE(inf_table_double_portable),
};

STOA_DISPATCH_PTR(void, inf_table_double, (uint32_t * t, uint32_t n), (t, n))

inf_double_fn *inf_table_double_impl(void)
{
	return inf_table_double_pick();
}

const struct stoa_variant isal_adler32_variants[] = {
	INFL_ARCH_ENTRIES(isal_adler32) STOA_BASE(adler32_portable),
};

STOA_DISPATCH(uint32_t, isal_adler32, (uint32_t init, const unsigned char *buf, uint64_t len),
              (init, buf, len))

const struct stoa_variant inf_adler32_copy_variants[] = {
	INFL_ARCH_ENTRIES(inf_adler32_copy) STOA_BASE(adler32_copy_base),
};

STOA_DISPATCH_INTERNAL(uint32_t, inf_adler32_copy,
                       (uint32_t init, unsigned char *dst, const unsigned char *src,
                        uint64_t len),
                       (init, dst, src, len))

static const struct stoa_func inflate_funcs[] = {
	{ "inflate_huff", inflate_huff_variants, STOA_COUNT(inflate_huff_variants) },
	STOA_FUNC(inf_table_double),
	STOA_FUNC(isal_adler32),
	STOA_FUNC(inf_adler32_copy),
};

const struct stoa_module stoa_module_inflate = { "inflate", inflate_funcs,
	                                         STOA_COUNT(inflate_funcs) };
