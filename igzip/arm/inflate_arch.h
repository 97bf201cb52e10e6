/* aarch64 inflate kernels: none yet. Their declarations and table entries go here, in the form
 * of the x86-64 ones (../x86/). */
#ifndef STOA_INFLATE_ARM_ARCH_H
#define STOA_INFLATE_ARM_ARCH_H

#define INFL_ARCH_ENTRIES(name)

#endif
