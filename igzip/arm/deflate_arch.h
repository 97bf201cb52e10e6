/* aarch64 deflate kernels: none yet. Their declarations and table entries go here, in the form
 * of the x86-64 ones (../x86/). */
#ifndef STOA_DEFLATE_ARM_ARCH_H
#define STOA_DEFLATE_ARM_ARCH_H

#define DEFL_ARCH_ENTRIES(name)

#endif
