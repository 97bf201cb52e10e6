/* The architecture seam (internal header): the one place that maps the compiler's target to the
 * folder of architecture-specific code.
 *
 * STOA_ARCH names the folder, <module>/<STOA_ARCH>/, that holds this target's kernels, its
 * declarations and table entries (<module>/<STOA_ARCH>/<name>_arch.h) and, under common/, its CPU
 * probe and variant tokens. It is left undefined on targets that have portable code only (i686,
 * armhf, s390x, ...). The Makefile asks the compiler for it too (with the same CFLAGS), so the
 * C code and the build always agree on the folder.
 *
 * Adding an architecture: one #elif here, and its folders. */
#ifndef STOA_ARCH_H
#define STOA_ARCH_H

#if defined(__x86_64__)
#define STOA_ARCH x86
#elif defined(__aarch64__)
#define STOA_ARCH arm
#endif

/* The quoted path "<dir>/<STOA_ARCH>/<name>_arch.h", for #include STOA_ARCH_HEADER(crc, crc).
 * Only the parameter is pasted: gcc puts a space between a '/' and a token pasted inside a nested
 * macro, and the file name would then have one. */
#define STOA_ARCH_STR_(x) #x
#define STOA_ARCH_STR(x) STOA_ARCH_STR_(x)
#define STOA_ARCH_HEADER(dir, name) STOA_ARCH_STR(dir/STOA_ARCH/name##_arch.h)

#endif
