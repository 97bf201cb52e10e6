/* RAID variant tables, best first, and the exported entry points that dispatch through them. */
#include "isa-l/mem_routines.h"
#include "isa-l/raid.h"
#include "raid_internal.h"

#ifdef STOA_ARCH
#include STOA_ARCH_HEADER(raid, raid)
#else
#define RAID_ARCH_ENTRIES(name)
#endif

STOA_TABLE(RAID, xor_gen)
STOA_TABLE(RAID, xor_check)
STOA_TABLE(RAID, pq_gen)
STOA_TABLE(RAID, pq_check)
STOA_TABLE(RAID, isal_zero_detect)

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
