/* aarch64 CRC kernels: none yet. Their declarations and table entries go here, in the form
 * of the x86-64 ones (../x86/). */
#ifndef STOA_CRC_ARM_ARCH_H
#define STOA_CRC_ARM_ARCH_H

#define CRC_ARCH_ENTRIES(name)

#endif
