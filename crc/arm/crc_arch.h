/* aarch64 CRC kernels: their declarations and their entries in crc_dispatch.c's tables. */
#ifndef STOA_CRC_ARM_ARCH_H
#define STOA_CRC_ARM_ARCH_H

#include "../crc_internal.h"
#include "common/arm/tokens.h"

#pragma GCC visibility push(hidden)

/* PMULL folds, 128 bits at a time (crc_pmull.c). */
CRC_DECLARE_FORMS(pmull)
unsigned int crc32_iscsi_pmull(unsigned char *buf, int len, unsigned int init);

/* The low 64 bits of a * ka ^ b * kb, carry-less: the three-stream kernels' merge, which needs
 * PMULL (crc_pmull.c). */
uint64_t crc32_streams_merge_pmull(uint32_t a, uint32_t ka, uint32_t b, uint32_t kb);

/* Three streams of CRC32C or CRC32 instructions, merged by crc32_streams_merge_pmull
 * (crc32_crc.c). */
unsigned int crc32_iscsi_crc(unsigned char *buf, int len, unsigned int init);
uint32_t crc32_gzip_refl_crc(uint32_t init, const unsigned char *buf, uint64_t len);

#pragma GCC visibility pop

/* The entries ahead of each table's portable one. The crc entries call the pmull file's merge,
 * so they need its features too. */
#define CRC_ARCH_ENTRIES(name) CRC_ARM_ENTRIES_##name
#define CRC_ARM_STREAMS(name) STOA_ENTRY_PLUS(crc, STOA_NEED_pmull, name##_crc)
#define CRC_ARM_FOLDS(name) STOA_ENTRY(pmull, name##_pmull)
#define CRC_ARM_ENTRIES_crc32_iscsi CRC_ARM_STREAMS(crc32_iscsi) CRC_ARM_FOLDS(crc32_iscsi)
#define CRC_ARM_ENTRIES_crc32_gzip_refl \
	CRC_ARM_STREAMS(crc32_gzip_refl) CRC_ARM_FOLDS(crc32_gzip_refl)
#define CRC_ARM_ENTRIES_crc16_t10dif CRC_ARM_FOLDS(crc16_t10dif)
#define CRC_ARM_ENTRIES_crc16_t10dif_copy CRC_ARM_FOLDS(crc16_t10dif_copy)
#define CRC_ARM_ENTRIES_crc32_ieee CRC_ARM_FOLDS(crc32_ieee)
#define CRC_ARM_ENTRIES_crc64_ecma_refl CRC_ARM_FOLDS(crc64_ecma_refl)
#define CRC_ARM_ENTRIES_crc64_ecma_norm CRC_ARM_FOLDS(crc64_ecma_norm)
#define CRC_ARM_ENTRIES_crc64_iso_refl CRC_ARM_FOLDS(crc64_iso_refl)
#define CRC_ARM_ENTRIES_crc64_iso_norm CRC_ARM_FOLDS(crc64_iso_norm)
#define CRC_ARM_ENTRIES_crc64_jones_refl CRC_ARM_FOLDS(crc64_jones_refl)
#define CRC_ARM_ENTRIES_crc64_jones_norm CRC_ARM_FOLDS(crc64_jones_norm)
#define CRC_ARM_ENTRIES_crc64_rocksoft_refl CRC_ARM_FOLDS(crc64_rocksoft_refl)
#define CRC_ARM_ENTRIES_crc64_rocksoft_norm CRC_ARM_FOLDS(crc64_rocksoft_norm)
/* (The CRC then the copy: the base entry, on the best crc32_gzip_refl.) */
#define CRC_ARM_ENTRIES_inf_crc32_gzip_copy

#endif
