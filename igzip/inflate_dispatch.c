/* The inflate half of the igzip module: its variant tables and module entry. */
#include "inflate_internal.h"

/* The Huffman block decoder (not exported: isal_inflate calls it through
 * inflate_huff_select()). */
const struct stoa_variant inflate_huff_variants[] = {
#if defined(__x86_64__)
	STOA_ENTRY(avx2, inflate_huff_avx2),
#endif
	STOA_BASE(inflate_huff_portable),
};
const size_t inflate_huff_variant_count = STOA_COUNT(inflate_huff_variants);

inf_block_fn *inflate_huff_select(void)
{
	return (inf_block_fn *)stoa_select(inflate_huff_variants, inflate_huff_variant_count)->fn;
}

const struct stoa_variant isal_adler32_variants[] = {
#if defined(__x86_64__)
	STOA_ENTRY(avx2, adler32_avx2),
#endif
	STOA_BASE(adler32_portable),
};

STOA_DISPATCH(uint32_t, isal_adler32, (uint32_t init, const unsigned char *buf, uint64_t len),
              (init, buf, len))

static const struct stoa_func inflate_funcs[] = {
	{ "inflate_huff", inflate_huff_variants, STOA_COUNT(inflate_huff_variants) },
	STOA_FUNC(isal_adler32),
};

const struct stoa_module stoa_module_inflate = { "inflate", inflate_funcs,
	                                         STOA_COUNT(inflate_funcs) };
