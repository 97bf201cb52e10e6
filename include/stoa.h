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

/* CPU features, one bit each, as reported by stoa_cpu_features(). Each architecture has its own
 * range of bits, and a build reports only its target's:
 *   bits  0-31  x86-64 (bits 27-31 free for later x86 features);
 *   bits 32-47  aarch64 (bits 42-47 free);
 *   bits 48-63  reserved for other architectures; stoa uses none of them today.
 * Other targets (i686, armhf, s390x, ...) report no features and run the portable code.
 *
 * x86-64, from cpuid. A bit is set only when the CPU has the instructions and the OS saves the
 * register state they need (XCR0): no AVX bits without YMM state, no AVX-512 bits without ZMM
 * and opmask state. */
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

/* aarch64, from the kernel's hardware capabilities (getauxval AT_HWCAP and AT_HWCAP2). */
#define STOA_CPU_ASIMD (1ull << 32)  /* Advanced SIMD (NEON) */
#define STOA_CPU_PMULL (1ull << 33)  /* 64x64-bit polynomial multiply (PMULL, PMULL2) */
#define STOA_CPU_CRC32 (1ull << 34)  /* CRC32 and CRC32C instructions */
#define STOA_CPU_SHA1 (1ull << 35)   /* SHA-1 instructions */
#define STOA_CPU_SHA2 (1ull << 36)   /* SHA-256 instructions */
#define STOA_CPU_SHA512 (1ull << 37) /* SHA-512 instructions (ARMv8.2) */
#define STOA_CPU_SHA3 (1ull << 38)   /* SHA-3 instructions: EOR3, RAX1, XAR, BCAX (ARMv8.2) */
#define STOA_CPU_AES (1ull << 39)    /* AES instructions */
#define STOA_CPU_SVE (1ull << 40)    /* Scalable Vector Extension */
#define STOA_CPU_SVE2 (1ull << 41)   /* SVE2 */

/* Features the CPU and OS support, whatever STOA_ISA says. */
uint64_t stoa_cpu_features(void);

/* Features stoa will use: stoa_cpu_features() limited by the STOA_ISA environment variable, read
 * once per process. STOA_ISA is a word, optionally followed by comma-separated "+feature" or
 * "-feature" items that add or remove one feature (a name as stoa_cpu_feature_name spells it,
 * or its short form such as "pclmul", "vpclmul", "shani"): "x86-64-v3", "native,-gfni",
 * "x86-64-v3,+gfni,+vaes,+vpclmul". Words on every architecture: base (portable code only) and
 * native (everything detected, the same as leaving STOA_ISA unset). x86-64, classes of real
 * machines:
 *   x86-64-v2  SSSE3, SSE4.1, SSE4.2, POPCNT, PCLMULQDQ, AES-NI: Westmere to Ivy Bridge
 *   x86-64-v3  v2 and AVX, AVX2, BMI1, BMI2, FMA, MOVBE: Haswell and later clients, Zen 1-3
 *              (without their SHA-NI)
 *   x86-64-v4  v3 and AVX-512 F, BW, DQ, VL, CD: Skylake-SP, Cascade Lake (no GFNI, VAES or
 *              VPCLMULQDQ)
 * and the older levels sse42 (v2 and SHA-NI), avx (sse42, AVX and MOVBE), avx2 (avx, AVX2, BMI1,
 * BMI2, FMA, ADX, GFNI, VAES, VPCLMULQDQ) and avx512 (everything). aarch64:
 *   neon       Advanced SIMD only: Cortex-A53 or A72 without the crypto extension
 *   crypto     neon and AES, PMULL, SHA1, SHA2, CRC32: Cortex-A72, Neoverse N1 (Graviton 2)
 *   sve        crypto and SHA512, SHA3, SVE: Neoverse V1 (Graviton 3)
 *   sve2       sve and SVE2: Neoverse N2 and V2 (Graviton 4)
 * An unknown value is reported on stderr and treated as "base", the safe choice. */
uint64_t stoa_cpu_features_enabled(void);

/* Name of a feature bit of the target's architecture ("avx512bw", "pmull"), or NULL for a value
 * that is not exactly one such bit. */
const char *stoa_cpu_feature_name(uint64_t feature);

/* The variant a dispatched function uses in this process ("vpclmul", "pclmul", "base" ...), for
 * an exported function name such as "crc32_iscsi"; NULL when the name is not a dispatched
 * function. */
const char *stoa_function_variant(const char *function);

/* A one-line report: the architecture and its detected features, the STOA_ISA cap, the class
 * in force (as a STOA_ISA value: the largest class within the enabled features, then "+feature"
 * for each enabled one beyond it) and the variant of every dispatched function. Writes at most
 * size bytes including the terminating NUL, like snprintf, and returns the length the whole
 * report needs. */
size_t stoa_cpu_report(char *buf, size_t size);

/* ---- Erasure codes: decode tables, one-call encode and recover (erasure_code module) ----
 *
 * These build on ISA-L's erasure_code.h functions. A code has k data and p parity fragments,
 * 1 <= k, 1 <= p, k + p <= STOA_EC_MAX_FRAGMENTS; fragment i is row i of a (k + p) x k matrix
 * (identity on top) times the data. The functions returning int return 0 on success or a
 * negative enum stoa_ec_error value, and on error write none of their outputs. */

#define STOA_EC_MAX_FRAGMENTS 255

enum stoa_ec_error {
	STOA_EC_OK = 0,
	/* An argument is NULL or out of range, or lost[] repeats an index. */
	STOA_EC_EINVAL = -1,
	/* More fragments lost than there are parity fragments. */
	STOA_EC_ETOOMANY = -2,
	/* The surviving fragments do not determine the data: every choice of k of them has a
	 * singular matrix (possible with gf_gen_rs_matrix, never with the Cauchy matrix). */
	STOA_EC_ESINGULAR = -3,
	/* Memory for the matrix inversion or a cache entry could not be allocated. */
	STOA_EC_ENOMEM = -4,
};

/* A short English description of a stoa_ec_error value. */
const char *stoa_ec_strerror(int err);

/* The coding matrix of the one-call functions. */
enum stoa_ec_matrix {
	STOA_EC_CAUCHY = 0,      /* gf_gen_cauchy1_matrix: any p losses are recoverable */
	STOA_EC_VANDERMONDE = 1, /* gf_gen_rs_matrix: ISA-L's other choice, not MDS for p >= 5 */
};

/* Decode tables for one loss pattern, for use with ec_encode_data.
 *   matrix     the (k + p) x k coding matrix, row-major
 *   lost       nlost distinct fragment indices in [0, k + p), data or parity, any order;
 *              1 <= nlost <= p
 *   survivors  out: k fragment indices to read, ascending: the first k intact fragments whose
 *              rows are independent (for an MDS matrix simply the first k intact ones)
 *   tables     out: 32 * k * nlost bytes
 * Then ec_encode_data(len, k, nlost, tables, in, out), with in[i] = fragment survivors[i] and
 * out[i] = the buffer for fragment lost[i], rebuilds exactly the lost fragments.
 * Errors: STOA_EC_EINVAL, STOA_EC_ETOOMANY, STOA_EC_ESINGULAR, STOA_EC_ENOMEM. */
int stoa_ec_decode_tables(int k, int p, const unsigned char *matrix, const int *lost, int nlost,
			  int *survivors, unsigned char *tables);

/* How stoa_ec_encode cuts an object of size bytes (size >= 1) into k data fragments: each is
 * stoa_ec_fragment_len(size, k) = ceil(size / k) bytes, fragment i holding object bytes from
 * i * len on. A fragment that runs past the end of the object is padded with zeros; the pad
 * buffer the caller provides holds the one partial fragment and, when the object is too small
 * to reach every fragment (possible only for size < k * (k - 1)), a fragment of zeros for the
 * empty ones: stoa_ec_pad_len(size, k) bytes, 0 to 2 fragment lengths. Both return 0 for size 0
 * or k < 1. */
size_t stoa_ec_fragment_len(size_t size, int k);
size_t stoa_ec_pad_len(size_t size, int k);

/* One-call encode of a whole object in one buffer, without copying it.
 *   matrix   an enum stoa_ec_matrix value (STOA_EC_CAUCHY unless a Vandermonde code is needed)
 *   data     out: k pointers, the data fragments: into object where a fragment lies wholly
 *            inside it (stoa never writes through these), else into pad
 *   pad      stoa_ec_pad_len(size, k) bytes (NULL allowed when that is 0)
 *   parity   p buffers of stoa_ec_fragment_len(size, k) bytes each, written
 * The fragments are data[0..k) and parity[0..p) in that order (indices 0..k+p-1 for
 * stoa_ec_recover). Errors: STOA_EC_EINVAL, STOA_EC_ENOMEM. */
int stoa_ec_encode(int k, int p, int matrix, const void *object, size_t size,
		   unsigned char **data, unsigned char *pad, unsigned char **parity);

/* One-call recovery of lost fragments in place.
 *   fragments  k + p pointers, each to frag_len bytes: intact fragments are read, and the
 *              buffers of the fragments named in lost are written (the other entries may be
 *              NULL as long as k intact ones that determine the data are given)
 *   lost       nlost distinct indices; 0 <= nlost <= p (0 does nothing)
 * Uses the same matrix as stoa_ec_encode for the same k, p and matrix. Errors:
 * STOA_EC_EINVAL, STOA_EC_ETOOMANY, STOA_EC_ESINGULAR, STOA_EC_ENOMEM. */
int stoa_ec_recover(int k, int p, int matrix, size_t frag_len, unsigned char **fragments,
		    const int *lost, int nlost);

/* The cache behind stoa_ec_encode and stoa_ec_recover: the encode tables of each (matrix, k, p)
 * and the decode tables of each loss pattern used, least recently used dropped first, at most
 * 64 entries and 8 MiB of tables (a pattern whose tables alone exceed 2 MiB is built per call and
 * not kept). It is the only state these helpers keep between calls; all threads share it
 * behind one mutex, held only to look up, insert and drop entries. stoa_ec_cache_clear frees
 * every entry not in use at that moment (those in use are freed when their call ends). */
void stoa_ec_cache_clear(void);

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

/* ---- Deflate levels above ISA-L's (igzip module) ----
 * isal_deflate and isal_deflate_stateless run levels 0 to STOA_DEF_MAX_LEVEL through the same
 * level, level_buf and level_buf_size fields. isa-l/igzip_lib.h keeps ISA-L's ISAL_DEF_MAX_LEVEL
 * (3), so that programs built for ISA-L see what they expect.
 *
 * Levels 4-9 search hash chains with lazy matching, deeper at each level (candidates visited at
 * most, levels 4-9: 2, 2, 5, 12, 35, 600; 5-9 look two positions ahead). Their level_buf
 * holds the level state (4 KiB), the chains' heads and links (64 KiB each), a table of 3-byte
 * matches (32 KiB) and the tokens of a block (4 bytes each): the same at every level, 164 KiB
 * plus the tokens. _MIN runs (blocks of at most 1 K tokens), _DEFAULT is what the igzip command
 * and the zlib layer (at memLevel 8) give: 420 KiB (64 K tokens) at levels 4-8, 676 KiB (128 K)
 * at level 9, whose blocks then end where their statistics change rather than where the tokens
 * run out (Calgary 436 bytes smaller). More tokens let blocks grow where the data's statistics
 * stay the same. From 8 K tokens (the _SMALL size and up) levels 5-9 also join two blocks into
 * one where the two apart would code no smaller: fewer tables for the inflater to build
 * (Calgary at level 9: 30-33 blocks instead of 52-57) and a slightly smaller stream.
 *
 * Levels 10-12 parse near-optimally: binary match trees (24, 60, 150 nodes visited at most) find
 * every position's matches, and a block's literals and matches are chosen as the cheapest path
 * under the codes they will be written with, refined in 2, 3 and 3 passes. Several times slower
 * than level 9 and about 3% smaller on text. Their level_buf adds the matches and the path of up
 * to 64 K positions (2312 KiB) to level 9's tokens. Nothing is allocated beyond level_buf at any
 * level. */
#define STOA_DEF_MAX_LEVEL 12
#define STOA_DEF_CHAIN_REQ (4 * 1024 + 2 * 32768 + 2 * 32768 + 2 * 16384)
#define STOA_DEF_CHAIN_SIZE(ktok) (STOA_DEF_CHAIN_REQ + 4 * 1024 * (ktok))
#define STOA_DEF_OPT_REQ (STOA_DEF_CHAIN_REQ + 2312 * 1024)
#define STOA_DEF_OPT_SIZE(ktok) (STOA_DEF_OPT_REQ + 4 * 1024 * (ktok))

#define ISAL_DEF_LVL4_REQ STOA_DEF_CHAIN_REQ
#define ISAL_DEF_LVL4_TOKEN_SIZE 4
#define ISAL_DEF_LVL4_MIN STOA_DEF_CHAIN_SIZE(1)
#define ISAL_DEF_LVL4_SMALL STOA_DEF_CHAIN_SIZE(16)
#define ISAL_DEF_LVL4_MEDIUM STOA_DEF_CHAIN_SIZE(32)
#define ISAL_DEF_LVL4_LARGE STOA_DEF_CHAIN_SIZE(64)
#define ISAL_DEF_LVL4_EXTRA_LARGE STOA_DEF_CHAIN_SIZE(128)
#define ISAL_DEF_LVL4_DEFAULT ISAL_DEF_LVL4_LARGE

#define ISAL_DEF_LVL5_REQ STOA_DEF_CHAIN_REQ
#define ISAL_DEF_LVL5_TOKEN_SIZE 4
#define ISAL_DEF_LVL5_MIN STOA_DEF_CHAIN_SIZE(1)
#define ISAL_DEF_LVL5_SMALL STOA_DEF_CHAIN_SIZE(16)
#define ISAL_DEF_LVL5_MEDIUM STOA_DEF_CHAIN_SIZE(32)
#define ISAL_DEF_LVL5_LARGE STOA_DEF_CHAIN_SIZE(64)
#define ISAL_DEF_LVL5_EXTRA_LARGE STOA_DEF_CHAIN_SIZE(128)
#define ISAL_DEF_LVL5_DEFAULT ISAL_DEF_LVL5_LARGE

#define ISAL_DEF_LVL6_REQ STOA_DEF_CHAIN_REQ
#define ISAL_DEF_LVL6_TOKEN_SIZE 4
#define ISAL_DEF_LVL6_MIN STOA_DEF_CHAIN_SIZE(1)
#define ISAL_DEF_LVL6_SMALL STOA_DEF_CHAIN_SIZE(16)
#define ISAL_DEF_LVL6_MEDIUM STOA_DEF_CHAIN_SIZE(32)
#define ISAL_DEF_LVL6_LARGE STOA_DEF_CHAIN_SIZE(64)
#define ISAL_DEF_LVL6_EXTRA_LARGE STOA_DEF_CHAIN_SIZE(128)
#define ISAL_DEF_LVL6_DEFAULT ISAL_DEF_LVL6_LARGE

#define ISAL_DEF_LVL7_REQ STOA_DEF_CHAIN_REQ
#define ISAL_DEF_LVL7_TOKEN_SIZE 4
#define ISAL_DEF_LVL7_MIN STOA_DEF_CHAIN_SIZE(1)
#define ISAL_DEF_LVL7_SMALL STOA_DEF_CHAIN_SIZE(16)
#define ISAL_DEF_LVL7_MEDIUM STOA_DEF_CHAIN_SIZE(32)
#define ISAL_DEF_LVL7_LARGE STOA_DEF_CHAIN_SIZE(64)
#define ISAL_DEF_LVL7_EXTRA_LARGE STOA_DEF_CHAIN_SIZE(128)
#define ISAL_DEF_LVL7_DEFAULT ISAL_DEF_LVL7_LARGE

#define ISAL_DEF_LVL8_REQ STOA_DEF_CHAIN_REQ
#define ISAL_DEF_LVL8_TOKEN_SIZE 4
#define ISAL_DEF_LVL8_MIN STOA_DEF_CHAIN_SIZE(1)
#define ISAL_DEF_LVL8_SMALL STOA_DEF_CHAIN_SIZE(16)
#define ISAL_DEF_LVL8_MEDIUM STOA_DEF_CHAIN_SIZE(32)
#define ISAL_DEF_LVL8_LARGE STOA_DEF_CHAIN_SIZE(64)
#define ISAL_DEF_LVL8_EXTRA_LARGE STOA_DEF_CHAIN_SIZE(128)
#define ISAL_DEF_LVL8_DEFAULT ISAL_DEF_LVL8_LARGE

#define ISAL_DEF_LVL9_REQ STOA_DEF_CHAIN_REQ
#define ISAL_DEF_LVL9_TOKEN_SIZE 4
#define ISAL_DEF_LVL9_MIN STOA_DEF_CHAIN_SIZE(1)
#define ISAL_DEF_LVL9_SMALL STOA_DEF_CHAIN_SIZE(16)
#define ISAL_DEF_LVL9_MEDIUM STOA_DEF_CHAIN_SIZE(32)
#define ISAL_DEF_LVL9_LARGE STOA_DEF_CHAIN_SIZE(64)
#define ISAL_DEF_LVL9_EXTRA_LARGE STOA_DEF_CHAIN_SIZE(128)
#define ISAL_DEF_LVL9_DEFAULT ISAL_DEF_LVL9_EXTRA_LARGE

#define ISAL_DEF_LVL10_REQ STOA_DEF_OPT_REQ
#define ISAL_DEF_LVL10_TOKEN_SIZE 4
#define ISAL_DEF_LVL10_MIN STOA_DEF_OPT_SIZE(1)
#define ISAL_DEF_LVL10_SMALL STOA_DEF_OPT_SIZE(16)
#define ISAL_DEF_LVL10_MEDIUM STOA_DEF_OPT_SIZE(32)
#define ISAL_DEF_LVL10_LARGE STOA_DEF_OPT_SIZE(64)
#define ISAL_DEF_LVL10_EXTRA_LARGE STOA_DEF_OPT_SIZE(128)
#define ISAL_DEF_LVL10_DEFAULT ISAL_DEF_LVL10_LARGE

#define ISAL_DEF_LVL11_REQ STOA_DEF_OPT_REQ
#define ISAL_DEF_LVL11_TOKEN_SIZE 4
#define ISAL_DEF_LVL11_MIN STOA_DEF_OPT_SIZE(1)
#define ISAL_DEF_LVL11_SMALL STOA_DEF_OPT_SIZE(16)
#define ISAL_DEF_LVL11_MEDIUM STOA_DEF_OPT_SIZE(32)
#define ISAL_DEF_LVL11_LARGE STOA_DEF_OPT_SIZE(64)
#define ISAL_DEF_LVL11_EXTRA_LARGE STOA_DEF_OPT_SIZE(128)
#define ISAL_DEF_LVL11_DEFAULT ISAL_DEF_LVL11_LARGE

#define ISAL_DEF_LVL12_REQ STOA_DEF_OPT_REQ
#define ISAL_DEF_LVL12_TOKEN_SIZE 4
#define ISAL_DEF_LVL12_MIN STOA_DEF_OPT_SIZE(1)
#define ISAL_DEF_LVL12_SMALL STOA_DEF_OPT_SIZE(16)
#define ISAL_DEF_LVL12_MEDIUM STOA_DEF_OPT_SIZE(32)
#define ISAL_DEF_LVL12_LARGE STOA_DEF_OPT_SIZE(64)
#define ISAL_DEF_LVL12_EXTRA_LARGE STOA_DEF_OPT_SIZE(128)
#define ISAL_DEF_LVL12_DEFAULT ISAL_DEF_LVL12_LARGE

/* ---- CRC combination (crc module) ----
 *
 * stoa_<crc>_combine(crc_a, crc_b, len_b) gives the CRC of A followed by B, for the ISA-L
 * function <crc> (crc16_t10dif, crc32_ieee, ...), from
 *   crc_a = <crc>(init, A, len_a)   A's value from any init_crc (the whole message's start),
 *   crc_b = <crc>(0, B, len_b)      B's value from init_crc 0,
 * and equals <crc>(crc_a, B, len_b): what one pass over A || B from init would return. Pieces
 * hashed in parallel are joined left to right this way. It takes O(log len_b) time and never
 * reads B; len_b may exceed 4 GiB.
 *
 * The rule is the same for every function whatever its conventions, because the CRC is an affine
 * function of its starting value either way:
 *   - crc16_t10dif and crc32_iscsi use init_crc as the raw register and return it unchanged, so
 *     the value from init_crc 0 is the plain remainder;
 *   - crc32_ieee, crc32_gzip_refl and every crc64_* invert the register on the way in and out,
 *     so init_crc 0 is their standard start (zlib's crc32_combine follows the same rule).
 * When B's value was computed from another init_crc t (crc32_iscsi is usually started from
 * 0xFFFFFFFF), pass crc_a ^ t as crc_a. stoa_<crc>_combine(v, 0, n) alone is v * x^(8n) modulo
 * the polynomial: the change that n zero bytes make to a value. */
uint16_t stoa_crc16_t10dif_combine(uint16_t crc_a, uint16_t crc_b, uint64_t len_b);
uint32_t stoa_crc32_ieee_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b);
uint32_t stoa_crc32_gzip_refl_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b);
uint32_t stoa_crc32_iscsi_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b);
uint64_t stoa_crc64_ecma_refl_combine(uint64_t crc_a, uint64_t crc_b, uint64_t len_b);
uint64_t stoa_crc64_ecma_norm_combine(uint64_t crc_a, uint64_t crc_b, uint64_t len_b);
uint64_t stoa_crc64_iso_refl_combine(uint64_t crc_a, uint64_t crc_b, uint64_t len_b);
uint64_t stoa_crc64_iso_norm_combine(uint64_t crc_a, uint64_t crc_b, uint64_t len_b);
uint64_t stoa_crc64_jones_refl_combine(uint64_t crc_a, uint64_t crc_b, uint64_t len_b);
uint64_t stoa_crc64_jones_norm_combine(uint64_t crc_a, uint64_t crc_b, uint64_t len_b);
uint64_t stoa_crc64_rocksoft_refl_combine(uint64_t crc_a, uint64_t crc_b, uint64_t len_b);
uint64_t stoa_crc64_rocksoft_norm_combine(uint64_t crc_a, uint64_t crc_b, uint64_t len_b);

#ifdef __cplusplus
}
#endif

#endif
