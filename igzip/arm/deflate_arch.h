/* aarch64 deflate kernels: their declarations and their entries in deflate_dispatch.c's tables,
 * in the form of the x86-64 ones (../x86/). */
#ifndef STOA_DEFLATE_ARM_ARCH_H
#define STOA_DEFLATE_ARM_ARCH_H

#include "../deflate_internal.h"
#include "common/arm/tokens.h"

#pragma GCC visibility push(hidden)

defl_write_tokens_fn defl_write_tokens_neon;
defl_path_fn defl_path_neon;

#pragma GCC visibility pop

#define DEFL_ARCH_ENTRIES(name) DEFL_ARM_ENTRIES_##name
#define DEFL_ARM_ENTRIES_defl_lvl0
#define DEFL_ARM_ENTRIES_defl_tok_lvl1
#define DEFL_ARM_ENTRIES_defl_tok_lvl2
#define DEFL_ARM_ENTRIES_defl_tok_lvl3
#define DEFL_ARM_ENTRIES_defl_write_tokens STOA_ENTRY(neon, defl_write_tokens_neon)
#define DEFL_ARM_ENTRIES_defl_entropy
#define DEFL_ARM_ENTRIES_defl_path STOA_ENTRY(neon, defl_path_neon)

#endif
