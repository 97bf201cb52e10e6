/* RAID module internals: argument rules, the portable kernels the vector variants fall back on
 * for short tails, and the variant tables that tests and the benchmark walk.
 *
 * Every variant has the API's signature and checks its own arguments (raid_args_ok), so any
 * table entry can be called directly with anything. The kernels below the check see n >= 1
 * sources (or vectors) and len >= 0 only. */
#ifndef STOA_RAID_INTERNAL_H
#define STOA_RAID_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"

#pragma GCC visibility push(hidden)

/* Smallest vects each function accepts. The dispatched API follows ISA-L's vector versions;
 * the exported _base functions follow ISA-L's portable ones, which allow one source less. */
enum {
	RAID_XOR_GEN_MIN = 3,
	RAID_XOR_CHECK_MIN = 2,
	RAID_PQ_MIN = 4,
	RAID_XOR_GEN_BASE_MIN = 2,
	RAID_XOR_CHECK_BASE_MIN = 1,
	RAID_PQ_BASE_MIN = 3,
};

/* True when a call may touch its buffers: the stoa policy of raid.h (no NULLs, len >= 0, enough
 * vects). Checked before any buffer is read, so a rejected call has no effect. */
static inline int raid_args_ok(int vects, int min_vects, int len, void *const *array)
{
	if (array == NULL || vects < min_vects || len < 0)
		return 0;
	if (len > 0)
		for (int i = 0; i < vects; i++)
			if (array[i] == NULL)
				return 0;
	return 1;
}

/* Portable kernels over the byte range [off, len) of every buffer; the vector variants call
 * them for what is left after their last whole vector. n counts sources (gen) or every buffer
 * (xor check). The checks return 0 when consistent, 1 when not. */
void raid_xor_gen_portable(size_t n, void *const *src, uint8_t *dst, size_t off, size_t len);
int raid_xor_check_portable(size_t n, void *const *vec, size_t off, size_t len);
void raid_pq_gen_portable(size_t n, void *const *src, uint8_t *p, uint8_t *q, size_t off,
			  size_t len);
int raid_pq_check_portable(size_t n, void *const *src, const uint8_t *p, const uint8_t *q,
			   size_t off, size_t len);
int raid_zero_detect_portable(const uint8_t *mem, size_t len);

/* The variants, each with the API's signature. An architecture's are stoa_<API name>_<token>:
 * ISA-L exports <API name>_<isa> for the same tokens (pq_gen_avx2, ...), which stoa provides as
 * separate entry points (x86/raid_isal_names.c). */
typedef int raid_fn(int vects, int len, void **array);
typedef int raid_zero_fn(void *mem, size_t len);

raid_fn xor_gen_portable, xor_check_portable, pq_gen_portable, pq_check_portable;
raid_zero_fn isal_zero_detect_portable;

/* The variant tables, best first, base last. */
extern const struct stoa_variant xor_gen_variants[];
extern const struct stoa_variant xor_check_variants[];
extern const struct stoa_variant pq_gen_variants[];
extern const struct stoa_variant pq_check_variants[];
extern const struct stoa_variant isal_zero_detect_variants[];

extern const struct stoa_module stoa_module_raid;

#pragma GCC visibility pop

#endif
