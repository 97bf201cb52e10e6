/* RAID variant tables, best first, and the exported entry points that dispatch through them. */
#include "isa-l/mem_routines.h"
#include "isa-l/raid.h"
#include "raid_internal.h"

/* Each entry needs what its file's flags enable (STOA_NEED_<token> in dispatch.h) and nothing
 * more: the kernels test for no feature beyond them. */
#ifdef __x86_64__
#define X86_ENTRY(token, fn) STOA_ENTRY(token, fn),
#else
#define X86_ENTRY(token, fn)
#endif

/* clang-format off */
const struct stoa_variant xor_gen_variants[] = {
	X86_ENTRY(avx512, xor_gen_avx512)
	X86_ENTRY(avx2, xor_gen_avx2)
	STOA_BASE(xor_gen_portable),
};

const struct stoa_variant xor_check_variants[] = {
	X86_ENTRY(avx512, xor_check_avx512)
	X86_ENTRY(avx2, xor_check_avx2)
	STOA_BASE(xor_check_portable),
};

const struct stoa_variant pq_gen_variants[] = {
	X86_ENTRY(avx512_gfni, pq_gen_avx512_gfni)
	X86_ENTRY(avx512, pq_gen_avx512)
	X86_ENTRY(avx2_gfni, pq_gen_avx2_gfni)
	X86_ENTRY(avx2, pq_gen_avx2)
	STOA_BASE(pq_gen_portable),
};

const struct stoa_variant pq_check_variants[] = {
	X86_ENTRY(avx512_gfni, pq_check_avx512_gfni)
	X86_ENTRY(avx512, pq_check_avx512)
	X86_ENTRY(avx2_gfni, pq_check_avx2_gfni)
	X86_ENTRY(avx2, pq_check_avx2)
	STOA_BASE(pq_check_portable),
};

const struct stoa_variant isal_zero_detect_variants[] = {
	X86_ENTRY(avx512, isal_zero_detect_avx512)
	X86_ENTRY(avx2, isal_zero_detect_avx2)
	STOA_BASE(isal_zero_detect_portable),
};
/* clang-format on */

STOA_DISPATCH(int, xor_gen, (int vects, int len, void **array), (vects, len, array))
STOA_DISPATCH(int, xor_check, (int vects, int len, void **array), (vects, len, array))
STOA_DISPATCH(int, pq_gen, (int vects, int len, void **array), (vects, len, array))
STOA_DISPATCH(int, pq_check, (int vects, int len, void **array), (vects, len, array))
STOA_DISPATCH(int, isal_zero_detect, (void *mem, size_t len), (mem, len))

static const struct stoa_func raid_funcs[] = {
	STOA_FUNC(xor_gen),  STOA_FUNC(xor_check),        STOA_FUNC(pq_gen),
	STOA_FUNC(pq_check), STOA_FUNC(isal_zero_detect),
};

const struct stoa_module stoa_module_raid = { "raid", raid_funcs, STOA_COUNT(raid_funcs) };
