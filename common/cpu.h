/* CPU feature probe (internal header). */
#ifndef STOA_CPU_H
#define STOA_CPU_H

#include <stdint.h>

#include "stoa.h"

/* Parse a STOA_ISA value into the mask of features it allows. Returns 0 on success, -1 for an
 * unknown value (then *mask is left untouched). */
int stoa_isa_parse(const char *value, uint64_t *mask);

/* The features the hardware and OS offer (no STOA_ISA cap), probed once. */
uint64_t stoa_cpu_probe(void);

#endif
