/* aarch64 RAID kernels: none yet. Their declarations and table entries go here, in the form
 * of the x86-64 ones (../x86/). */
#ifndef STOA_RAID_ARM_ARCH_H
#define STOA_RAID_ARM_ARCH_H

#define RAID_ARCH_ENTRIES(name)

#endif
