/* stoa: the ISA-L umbrella header. Including it gives the whole ISA-L API that stoa provides. */
#ifndef STOA_ISAL_H
#define STOA_ISAL_H

#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#include <isa-l/erasure_code.h>
#include <isa-l/gf_vect_mul.h>
#include <isa-l/igzip_lib.h>
#include <isa-l/isal_api.h>
#include <isa-l/mem_routines.h>
#include <isa-l/raid.h>

#endif
