/* x86-64 CRC kernels: their declarations and their entries in crc_dispatch.c's tables. */
#ifndef STOA_CRC_X86_ARCH_H
#define STOA_CRC_X86_ARCH_H

#include "../crc_internal.h"
#include "common/x86/tokens.h"

#pragma GCC visibility push(hidden)

/* The engines (the form of crc_norm_portable): PCLMULQDQ folds 128 bits at a time
 * (crc_pclmul.c), VPCLMULQDQ 512 (crc_vpclmul.c). crc_vpclmul256n.c folds 256 bits for AVX2
 * CPUs and has only the public forms; crc_vpclmul256.c (with GFNI) only crc32_iscsi's. */
uint64_t crc_norm_pclmul(const struct crc_model *m, uint64_t state, const uint8_t *buf,
			 uint64_t len);
uint64_t crc_refl_pclmul(const struct crc_model *m, uint64_t state, const uint8_t *buf,
			 uint64_t len);
uint64_t crc_norm_vpclmul(const struct crc_model *m, uint64_t state, const uint8_t *buf,
			  uint64_t len);
uint64_t crc_refl_vpclmul(const struct crc_model *m, uint64_t state, const uint8_t *buf,
			  uint64_t len);

CRC_DECLARE_FORMS(pclmul)
CRC_DECLARE_FORMS(pclmul_avx)
CRC_DECLARE_FORMS(vpclmul)
CRC_DECLARE_FORMS(vpclmul256n)

/* inf_crc32_gzip_copy on the engines' copying forms (CRC_GZIP_COPY_FORM, crc_fold.h): each
 * runs at its engine's CRC speed, so it beats memcpy and then the same class's CRC in every class
 * (512-bit at 64 KiB: 1.4x). */
#define CRC_DECLARE_GZIP_COPY(sfx)                                                                 \
	uint32_t inf_crc32_gzip_copy_##sfx(uint32_t init, uint8_t *dst, const uint8_t *src,        \
					   uint64_t len);
CRC_DECLARE_GZIP_COPY(vpclmul)
CRC_DECLARE_GZIP_COPY(vpclmul256n)
CRC_DECLARE_GZIP_COPY(pclmul)
CRC_DECLARE_GZIP_COPY(pclmul_avx)

/* crc32_iscsi alone: the vector folds beside scalar crc32 streams (crc32_iscsi_vpclmul.c), and
 * scalar crc32 streams merged by PCLMULQDQ (crc32_iscsi_streams_pclmul.c). */
unsigned int crc32_iscsi_hybrid(unsigned char *buf, int len, unsigned int init);
unsigned int crc32_iscsi_streams(unsigned char *buf, int len, unsigned int init);
unsigned int crc32_iscsi_vpclmul256(unsigned char *buf, int len, unsigned int init);
/* crc32_iscsi_streams without its probe for data in DRAM (n >= CRC32C_SERIAL_MAX). */
uint32_t crc32c_streams_warm(uint32_t s, const uint8_t *p, size_t n);

#pragma GCC visibility pop

/* The entries ahead of each table's portable one. Every kernel needs exactly what its file's
 * flags enable. crc32_iscsi: the vector folds beside scalar crc32 streams first; then the
 * crc32 streams merged by PCLMULQDQ, which run twice as fast as the 128-bit engine alone and
 * take its place (and token), except where crc32 is slow (stoa_x86_crc32_slow: AMD Zen 1 and 2),
 * where that kernel runs the engine itself. */
#define CRC_ARCH_ENTRIES(name) CRC_X86_ENTRIES_##name
/* ISA-L's crc64_*_by8 are its PCLMULQDQ code: defined with its other names in crc_isal_names.c. */
#define CRC_ARCH_BY8_NAMES
#define CRC_X86_FOLDS(name)                                                                        \
	STOA_ENTRY(vpclmul, name##_vpclmul)                                                        \
	STOA_ENTRY(vpclmul256n, name##_vpclmul256n)                                                \
	STOA_ENTRY(pclmul_avx, name##_pclmul_avx) STOA_ENTRY(pclmul, name##_pclmul)
#define CRC_X86_ENTRIES_crc32_iscsi                                                                \
	STOA_ENTRY(vpclmul, crc32_iscsi_hybrid)                                                    \
	STOA_ENTRY(vpclmul256, crc32_iscsi_vpclmul256)                                             \
	STOA_ENTRY(pclmul, crc32_iscsi_streams)
#define CRC_X86_ENTRIES_crc16_t10dif CRC_X86_FOLDS(crc16_t10dif)
#define CRC_X86_ENTRIES_crc16_t10dif_copy CRC_X86_FOLDS(crc16_t10dif_copy)
#define CRC_X86_ENTRIES_crc32_ieee CRC_X86_FOLDS(crc32_ieee)
#define CRC_X86_ENTRIES_crc32_gzip_refl CRC_X86_FOLDS(crc32_gzip_refl)
#define CRC_X86_ENTRIES_crc64_ecma_refl CRC_X86_FOLDS(crc64_ecma_refl)
#define CRC_X86_ENTRIES_crc64_ecma_norm CRC_X86_FOLDS(crc64_ecma_norm)
#define CRC_X86_ENTRIES_crc64_iso_refl CRC_X86_FOLDS(crc64_iso_refl)
#define CRC_X86_ENTRIES_crc64_iso_norm CRC_X86_FOLDS(crc64_iso_norm)
#define CRC_X86_ENTRIES_crc64_jones_refl CRC_X86_FOLDS(crc64_jones_refl)
#define CRC_X86_ENTRIES_crc64_jones_norm CRC_X86_FOLDS(crc64_jones_norm)
#define CRC_X86_ENTRIES_crc64_rocksoft_refl CRC_X86_FOLDS(crc64_rocksoft_refl)
#define CRC_X86_ENTRIES_crc64_rocksoft_norm CRC_X86_FOLDS(crc64_rocksoft_norm)
#define CRC_X86_ENTRIES_inf_crc32_gzip_copy CRC_X86_FOLDS(inf_crc32_gzip_copy)

#endif
