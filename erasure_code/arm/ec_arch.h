/* aarch64 erasure-code kernels: none yet. Their declarations and table entries go here, in the form
 * of the x86-64 ones (../x86/). */
#ifndef STOA_EC_ARM_ARCH_H
#define STOA_EC_ARM_ARCH_H

#define EC_ARCH_ENTRIES(name)

#endif
