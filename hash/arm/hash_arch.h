/* aarch64 hash engines: none yet. Their declarations and table entries go here, in the form
 * of the x86-64 ones (../x86/). */
#ifndef STOA_HASH_ARM_ARCH_H
#define STOA_HASH_ARM_ARCH_H

#define HASH_ARCH_SINGLES(alg, S)
#define HASH_ARCH_LANES(alg, L)

#endif
