/* ISA-L's per-instruction-set RAID entry points (xor_gen_sse, pq_gen_avx512, mem_zero_detect_avx2,
 * ...), with ISA-L's signatures and results. Each runs stoa's code within its instruction set
 * (common/x86/isal_sets.h): the best variant of the dispatched function that needs nothing
 * outside the set and that this CPU and STOA_ISA allow, down to the portable code, so a name
 * whose set the CPU lacks runs correctly where ISA-L's would stop on an illegal instruction. */
#include "../raid_internal.h"
#include "common/x86/isal_sets.h"
#include "isal_names.h"

#define RAID_PARAMS (int vects, int len, void **array)
#define RAID_ARGS   (vects, len, array)

/* name = func_<isa>, on func's table within ISA-L's set isa. */
#define RAID_ISAL(func, isa)                                                                       \
	int func##_##isa RAID_PARAMS;                                                              \
	STOA_DISPATCH_WITHIN(int, func##_##isa, #func, ISAL_SET_##isa, RAID_PARAMS, RAID_ARGS)     \
	STOA_ISAL_NAME(func##_##isa, #func, ISAL_SET_##isa, 0)

#define ZERO_ISAL(isa)                                                                             \
	int mem_zero_detect_##isa(void *mem, size_t len);                                          \
	STOA_DISPATCH_WITHIN(int, mem_zero_detect_##isa, "isal_zero_detect", ISAL_SET_##isa,       \
	                     (void *mem, size_t len), (mem, len))                                  \
	STOA_ISAL_NAME(mem_zero_detect_##isa, "isal_zero_detect", ISAL_SET_##isa, 0)

RAID_ISAL(xor_gen, sse)
RAID_ISAL(xor_gen, avx)
RAID_ISAL(xor_gen, avx512)
RAID_ISAL(xor_check, sse)
RAID_ISAL(pq_gen, sse)
RAID_ISAL(pq_gen, avx)
RAID_ISAL(pq_gen, avx2)
RAID_ISAL(pq_gen, avx512)
RAID_ISAL(pq_gen, avx2_gfni)
RAID_ISAL(pq_gen, avx512_gfni)
RAID_ISAL(pq_check, sse)

ZERO_ISAL(sse)
ZERO_ISAL(avx)
ZERO_ISAL(avx2)
ZERO_ISAL(avx512)
