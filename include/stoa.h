/* stoa: what stoa adds beyond the ISA-L API.
 *
 * The ISA-L functions themselves are declared in <isa-l.h>; this header holds stoa's own
 * additions: version, CPU feature report, and the variant chosen for each dispatched function. */
#ifndef STOA_H
#define STOA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STOA_VERSION_MAJOR 0
#define STOA_VERSION_MINOR 1
#define STOA_VERSION_PATCH 0
#define STOA_VERSION_STRING "0.1.0"

/* The library's version string, e.g. "0.1.0". */
const char *stoa_version(void);

/* CPU features, one bit each, as reported by stoa_cpu_features(). A bit is set only when the
 * CPU has the instructions and the OS saves the register state they need (XCR0). */
#define STOA_CPU_SSSE3 (1ull << 0)
#define STOA_CPU_SSE41 (1ull << 1)
#define STOA_CPU_SSE42 (1ull << 2)
#define STOA_CPU_POPCNT (1ull << 3)
#define STOA_CPU_PCLMUL (1ull << 4)
#define STOA_CPU_AESNI (1ull << 5)
#define STOA_CPU_SHANI (1ull << 6)
#define STOA_CPU_AVX (1ull << 7)
#define STOA_CPU_AVX2 (1ull << 8)
#define STOA_CPU_BMI1 (1ull << 9)
#define STOA_CPU_BMI2 (1ull << 10)
#define STOA_CPU_FMA (1ull << 11)
#define STOA_CPU_MOVBE (1ull << 12)
#define STOA_CPU_ADX (1ull << 13)
#define STOA_CPU_GFNI (1ull << 14)
#define STOA_CPU_VAES (1ull << 15)
#define STOA_CPU_VPCLMUL (1ull << 16)
#define STOA_CPU_AVX512F (1ull << 17)
#define STOA_CPU_AVX512DQ (1ull << 18)
#define STOA_CPU_AVX512CD (1ull << 19)
#define STOA_CPU_AVX512BW (1ull << 20)
#define STOA_CPU_AVX512VL (1ull << 21)
#define STOA_CPU_AVX512VBMI (1ull << 22)
#define STOA_CPU_AVX512VBMI2 (1ull << 23)
#define STOA_CPU_AVX512VNNI (1ull << 24)
#define STOA_CPU_AVX512BITALG (1ull << 25)
#define STOA_CPU_AVX512VPOPCNTDQ (1ull << 26)

/* Features the CPU and OS support, whatever STOA_ISA says. */
uint64_t stoa_cpu_features(void);

/* Features stoa will use: stoa_cpu_features() limited by the STOA_ISA environment variable
 * (base, sse42, avx, avx2, avx512 or native), read once per process. An unknown STOA_ISA value
 * is reported on stderr and treated as "base", the safe choice. */
uint64_t stoa_cpu_features_enabled(void);

/* Name of a feature bit ("avx512bw"), or NULL for a value that is not exactly one known bit. */
const char *stoa_cpu_feature_name(uint64_t feature);

/* The variant a dispatched function uses in this process ("vpclmul", "pclmul", "base" ...), for
 * an exported function name such as "crc32_iscsi"; NULL when the name is not a dispatched
 * function. */
const char *stoa_function_variant(const char *function);

/* A one-line report: detected features, the STOA_ISA cap and the variant of every dispatched
 * function. Writes at most size bytes including the terminating NUL, like snprintf, and returns
 * the length the whole report needs. */
size_t stoa_cpu_report(char *buf, size_t size);

/* ---- Hashes: one-call SHA-1, SHA-256, SHA-512 and MD5 (hash module) ----
 *
 * The digest of len bytes at buf (buf may be NULL when len is 0), in the algorithm's standard
 * byte order: 20, 32, 64 and 16 bytes. One message on one core at the best single-stream speed
 * (SHA-NI where the CPU has it); for many messages at once use the isa-l_crypto managers
 * (<isa-l_crypto/sha256_mb.h> ...). */
void stoa_sha1(const void *buf, size_t len, unsigned char *digest);
void stoa_sha256(const void *buf, size_t len, unsigned char *digest);
void stoa_sha512(const void *buf, size_t len, unsigned char *digest);
void stoa_md5(const void *buf, size_t len, unsigned char *digest);

#ifdef __cplusplus
}
#endif

#endif
