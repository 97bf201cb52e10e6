/* stoa: memory routines, with ISA-L's names and conventions. */
#ifndef STOA_ISAL_MEM_ROUTINES_H
#define STOA_ISAL_MEM_ROUTINES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returns 0 when the len bytes at mem are all zero (len 0 included, with any mem), 1 when any
 * of them is not. Reads only those len bytes, whatever their alignment. A NULL mem with
 * len > 0 returns 1 (ISA-L would crash). */
int isal_zero_detect(void *mem, size_t len);

#ifdef __cplusplus
}
#endif

#endif
