/* aarch64 AES engines: none yet. Their declarations and table entries go here, in the form
 * of the x86-64 ones (../x86/). */
#ifndef STOA_AES_ARM_ARCH_H
#define STOA_AES_ARM_ARCH_H

#define AES_ARCH_XTS_ENTRIES(impl)
#define AES_ARCH_KEYEXP_ENTRIES(bits)

#endif
