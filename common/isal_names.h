/* The registry of ISA-L's and isa-l_crypto's per-instruction-set entry points (internal header).
 *
 * Each <module>/<arch>/<module>_isal_names.c file registers every such name it defines with
 * STOA_ISAL_NAME: the name, the dispatched function whose variants back it, the instruction set
 * it is limited to, and the function itself. The entries are collected in one linker section, so
 * the tests can walk every name of the library and check each against its set and against the
 * dispatched function, and a name cannot be added without being tested. */
#ifndef STOA_ISAL_NAMES_H
#define STOA_ISAL_NAMES_H

#include "dispatch.h"

#pragma GCC visibility push(hidden)

struct stoa_isal_name {
	const char *name; /* the exported name, e.g. "gf_4vect_mad_avx512" */
	const char
	    *func;     /* the dispatched function of the variants, e.g. "ec_encode_data_update" */
	uint64_t set;  /* STOA_CPU_* features the name may use */
	int outputs;   /* the fixed output count of gf_<N>vect_*, else 0 */
	stoa_fnptr fn; /* the entry point */
};

#define STOA_ISAL_NAME(name, func, set, outputs)                                                   \
	static const struct stoa_isal_name name##_isal_entry = { #name, func, set, outputs,        \
		                                                 (stoa_fnptr)(name) };             \
	static const struct stoa_isal_name *const name##_isal_ref                                  \
	    __attribute__((used, section("stoa_isal_names"))) = &name##_isal_entry;

/* The section's bounds, provided by the linker: every registered entry lies between them. */
extern const struct stoa_isal_name *const __start_stoa_isal_names[];
extern const struct stoa_isal_name *const __stop_stoa_isal_names[];

#pragma GCC visibility pop

#endif
