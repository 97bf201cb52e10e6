/* CRC module internals: the shared engine form, the generated per-model tables, and the variant
 * tables that tests and the benchmark walk.
 *
 * Every CRC in the API (16, 32 and 64 bits, MSB-first or reflected) runs on one engine form: a
 * 64-bit state. A w-bit MSB-first CRC with polynomial P is computed as a 64-bit MSB-first CRC
 * with polynomial P * x^(64-w), its state kept in the top w bits; a w-bit reflected CRC is a
 * 64-bit reflected CRC whose state sits in the low w bits. The identities behind it:
 * M * x^64 mod (P x^(64-w)) = (M * x^w mod P) * x^(64-w), and bit reversal of both sides.
 * The public functions add only the init/final inversions ISA-L defines for each. */
#ifndef STOA_CRC_INTERNAL_H
#define STOA_CRC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "copy_checks.h"
#include "dispatch.h"

/* Internal symbols are hidden: direct PC-relative references, no GOT or PLT hops. */
#pragma GCC visibility push(hidden)

/* Everything a variant needs to know about one CRC model, written by crc/gen/crc_gen.c. */
struct crc_model {
	/* fold[i] moves a 128-bit chunk forward by (i+1)*128 bits: new = clmul(lo, fold[i][0]) ^
	 * clmul(hi, fold[i][1]). MSB-first: {x^D mod P, x^(D+64) mod P}. Reflected (every value
	 * bit-reversed, and clmul of reversed operands carries an extra factor x):
	 * {rev(x^(D+63) mod P), rev(x^(D-1) mod P)}. */
	uint64_t fold[16][2] __attribute__((aligned(16)));
	/* Folds the high half of the last chunk onto the low half: MSB-first x^128 mod P,
	 * reflected rev(x^127 mod P). */
	uint64_t fold64;
	/* Per-lane constants that move the eight 128-bit lanes of two consecutive 512-bit blocks
	 * onto the last lane: fold[6], fold[5], ..., fold[0], then zero for the last lane itself
	 * (its product is discarded). Two aligned loads; the second alone serves one block. */
	uint64_t fold_lanes[8][2] __attribute__((aligned(64)));
	/* The same lanes moved 64 bits further, onto the point past the message's end where the
	 * Barrett reduction takes over: lane i by (7 - i) * 128 + 64 bits, the last lane included.
	 * Used when no bytes follow the lanes, it saves the separate fold64 multiply. */
	uint64_t fold_lanes64[8][2] __attribute__((aligned(64)));
	/* Barrett reduction of 128 bits to 64. MSB-first: {floor(x^128 / P) - x^64, P - x^64}.
	 * Reflected: {rev(floor(x^127 / P)), rev(floor(P / x))}. */
	uint64_t barrett[2];
	/* Reflected only: the last Barrett product misses q * x^0 when P has an x^0 term (all
	 * 64-bit models); ~0 adds it back, 0 (16- and 32-bit models, whose engine polynomial is a
	 * multiple of x) leaves it out. */
	uint64_t barrett_q;
	/* Slice-by-8 tables for the portable engine: slice[k][b] is byte b advanced by k more
	 * bytes of zeros. */
	uint64_t slice[8][256] __attribute__((aligned(64)));
	/* Reflected models only: x^(8 * 2^k) mod P for k = 0..63, as a w-bit value in the reflected
	 * order (bit w-1 holds x^0), for CRC combination (crc_combine.c). */
	uint64_t x8n[64];
};

extern const struct crc_model crc_model_t10dif;
extern const struct crc_model crc_model_t10dif_refl;
extern const struct crc_model crc_model_ieee;
extern const struct crc_model crc_model_gzip;
extern const struct crc_model crc_model_iscsi;
extern const struct crc_model crc_model_ecma_refl;
extern const struct crc_model crc_model_ecma_norm;
extern const struct crc_model crc_model_iso_refl;
extern const struct crc_model crc_model_iso_norm;
extern const struct crc_model crc_model_jones_refl;
extern const struct crc_model crc_model_jones_norm;
extern const struct crc_model crc_model_rocksoft_refl;
extern const struct crc_model crc_model_rocksoft_norm;

/*
 * CRC32C hybrid kernel (crc/x86/crc32_iscsi_vpclmul.c). Each step folds 256 bytes into four ZMM
 * accumulators while CRC32C_STREAMS scalar crc32 chains take CRC32C_STREAM_WORDS 8-byte words
 * each; a block of n <= CRC32C_MAX_STEPS steps holds the streams' shares, CRC32C_STREAMS runs of
 * n * 8 * CRC32C_STREAM_WORDS bytes, then the vector's 256 n bytes. crc_gen.c repeats these
 * numbers; the generated file checks that they agree.
 */
#define CRC32C_STREAMS 4
#define CRC32C_STREAM_WORDS 4
#define CRC32C_MAX_STEPS 32
/* The final reduction moves up to this many 64-byte chunks onto the last 16 bytes. */
#define CRC32C_MAX_CHUNKS 32
/* Buffers below CRC32C_SHORT_MAX bytes take no steps: their 64-byte blocks each fold straight
 * onto the last 16 bytes (tail below), a few of them through crc32 streams in between. */
#define CRC32C_SHORT_MAX 1536

struct crc32c_hybrid_consts {
	/* tail[t]: moves lane i (16 bytes) of the chunk t chunks before the last one onto the last
	 * lane, 64 t + 16 (3 - i) bytes on; per lane the pair {lo, hi} of struct crc_model's fold.
	 * tail[0] lane 3 (no move) is zero. */
	uint64_t tail[CRC32C_MAX_CHUNKS][8] __attribute__((aligned(64)));
	/* inject[n]: lane j's low word moves stream j's state, taken where the stream ends in an
	 * n-step block, onto lane j of the first accumulator after the block's last step. */
	uint64_t inject[CRC32C_MAX_STEPS + 1][8] __attribute__((aligned(64)));
	/* gap[n]: the fold pair that takes the accumulators to the first step of an n-step block,
	 * across its streams' shares: 256 bytes plus those. */
	uint64_t gap[CRC32C_MAX_STEPS + 1][2] __attribute__((aligned(16)));
};

extern const struct crc32c_hybrid_consts crc32c_hybrid;

/*
 * Three-stream kernels on a crc32 instruction (crc/arm/crc32_crc.c): a block is three streams of
 * CRC32_STREAM_BYTES(i) bytes, each taken by its own chain of instructions; then the first two
 * states move to the block's end, state * x^(8 d) mod P for d of two streams and of one, by a
 * carry-less multiply with k[i][0] and k[i][1] and the crc32 of the product (crc_gen.c).
 */
#define CRC32_STREAM_SIZES 3
#define CRC32_STREAM_BYTES(i) (1024u >> (2 * (i)))

struct crc32_stream_consts {
	uint32_t k[CRC32_STREAM_SIZES][2];
};

extern const struct crc32_stream_consts crc32_streams_iscsi;
extern const struct crc32_stream_consts crc32_streams_gzip;

/*
 * CRC32C on the x86 crc32 instruction (crc/x86/crc32_iscsi_streams_pclmul.c): a block is up to
 * CRC32C_X86_STREAMS streams of m 8-byte words each, m <= CRC32C_X86_MAX_WORDS, the last one
 * possibly a few words longer, each its own chain, behind a share folded on the vector side;
 * every other state then crosses the d words after it to the block's end (d <= STREAMS * m):
 * state * x^(64 d) mod P by a carry-less multiply with pow[d] and the crc32 of the product,
 * which together add x^33 (crc_gen.c).
 */
#define CRC32C_X86_STREAMS 6
#define CRC32C_X86_MAX_WORDS 256

struct crc32c_x86_consts {
	/* pow[i]: x^(64 i - 33) mod P, 32 bits in the reflected order; pow[0] unused. */
	uint32_t pow[CRC32C_X86_STREAMS * CRC32C_X86_MAX_WORDS + 1];
};

extern const struct crc32c_x86_consts crc32c_x86;

/* The engine form: raw state in, raw state out, no inversions. */
typedef uint64_t crc_engine_fn(const struct crc_model *m, uint64_t state, const uint8_t *buf,
			       uint64_t len);

/* Portable slice-by-8 engines (crc_base.c), also used by the kernels for short pieces. */
uint64_t crc_norm_portable(const struct crc_model *m, uint64_t state, const uint8_t *buf,
			   uint64_t len);
uint64_t crc_refl_portable(const struct crc_model *m, uint64_t state, const uint8_t *buf,
			   uint64_t len);

/* The variant tables, best first, base last. */
extern const struct stoa_variant crc16_t10dif_variants[];
extern const struct stoa_variant crc16_t10dif_copy_variants[];
extern const struct stoa_variant crc32_ieee_variants[];
extern const struct stoa_variant crc32_gzip_refl_variants[];
extern const struct stoa_variant crc32_iscsi_variants[];
extern const struct stoa_variant crc64_ecma_refl_variants[];
extern const struct stoa_variant crc64_ecma_norm_variants[];
extern const struct stoa_variant crc64_iso_refl_variants[];
extern const struct stoa_variant crc64_iso_norm_variants[];
extern const struct stoa_variant crc64_jones_refl_variants[];
extern const struct stoa_variant crc64_jones_norm_variants[];
extern const struct stoa_variant crc64_rocksoft_refl_variants[];
extern const struct stoa_variant crc64_rocksoft_norm_variants[];
/* Internal: inflate's copying CRC-32 (copy_checks.h), not a function of the API. */
extern const struct stoa_variant inf_crc32_gzip_copy_variants[];

extern const struct stoa_module stoa_module_crc;

/* How the copy form moves its bytes (memmove semantics). A variant file may #undef it and name
 * its own before expanding CRC_PUBLIC_FORMS. */
#define CRC_COPY memmove

/*
 * CRC_PUBLIC_FORMS(sfx, norm, refl): the API's functions for one variant, named
 * <api name>_<sfx>, built on the engines norm and refl. This (with CRC_ISCSI_FORM below) is the
 * one place that states ISA-L's conventions: crc16_t10dif and crc32_iscsi use the initial value
 * as the state and return it as is; crc32_ieee, crc32_gzip_refl and every crc64 invert on the way
 * in and out.
 */
/* Attributes of the reflected public forms: a variant file may define it (before including this
 * header) for what suits its refl engine's code but not its norm one's. */
#ifndef CRC_REFL_ATTR
#define CRC_REFL_ATTR
#endif
#define CRC_PUBLIC_FORMS(sfx, norm, refl)                                                         \
	uint16_t crc16_t10dif_##sfx(uint16_t init, const unsigned char *buf, uint64_t len)       \
	{                                                                                          \
		return (uint16_t)(norm(&crc_model_t10dif, (uint64_t)init << 48, buf, len) >> 48);  \
	}                                                                                          \
	CRC_T10DIF_COPY_FORM(sfx)                                                                  \
	uint32_t crc32_ieee_##sfx(uint32_t init, const unsigned char *buf, uint64_t len)         \
	{                                                                                          \
		uint64_t s = (uint64_t)(uint32_t)~init << 32;                                      \
		return ~(uint32_t)(norm(&crc_model_ieee, s, buf, len) >> 32);                      \
	}                                                                                          \
	CRC_REFL_ATTR uint32_t crc32_gzip_refl_##sfx(uint32_t init, const unsigned char *buf,    \
						     uint64_t len)                                 \
	{                                                                                          \
		return ~(uint32_t)refl(&crc_model_gzip, (uint32_t)~init, buf, len);                \
	}                                                                                          \
	CRC64_PUBLIC_FORM(sfx, ecma, norm, refl)                                                   \
	CRC64_PUBLIC_FORM(sfx, iso, norm, refl)                                                    \
	CRC64_PUBLIC_FORM(sfx, jones, norm, refl)                                                  \
	CRC64_PUBLIC_FORM(sfx, rocksoft, norm, refl)

/* crc16_t10dif_copy on the variant's crc16_t10dif. A variant file with a copy of its own may
 * #undef it and define it empty before expanding CRC_PUBLIC_FORMS. */
#define CRC_T10DIF_COPY_FORM(sfx)                                                                  \
	uint16_t crc16_t10dif_copy_##sfx(uint16_t init, uint8_t *dst, uint8_t *src, uint64_t len) \
	{                                                                                          \
		/* The CRC first, from src: intact even when the buffers overlap, and not just       \
		 * written, so no load waits on a store. */                                        \
		uint16_t crc = crc16_t10dif_##sfx(init, src, len);                                \
		if (len)                                                                           \
			CRC_COPY(dst, src, len);                                                   \
		return crc;                                                                        \
	}

#define CRC64_PUBLIC_FORM(sfx, poly, norm, refl)                                                  \
	CRC_REFL_ATTR uint64_t crc64_##poly##_refl_##sfx(uint64_t init, const unsigned char *buf, \
							 uint64_t len)                             \
	{                                                                                          \
		return ~refl(&crc_model_##poly##_refl, ~init, buf, len);                           \
	}                                                                                          \
	uint64_t crc64_##poly##_norm_##sfx(uint64_t init, const unsigned char *buf, uint64_t len)  \
	{                                                                                          \
		return ~norm(&crc_model_##poly##_norm, ~init, buf, len);                           \
	}

/* crc32_iscsi on the engine refl, for the variants whose table entry it is (the vpclmul entry
 * is crc32_iscsi_hybrid instead). */
#define CRC_ISCSI_FORM(sfx, refl)                                                                 \
	unsigned int crc32_iscsi_##sfx(unsigned char *buf, int len, unsigned int init)           \
	{                                                                                          \
		if (len <= 0)                                                                      \
			return init;                                                               \
		return (uint32_t)refl(&crc_model_iscsi, (uint32_t)init, buf, (uint64_t)len);      \
	}

/* Declarations of the per-variant public forms (defined with CRC_PUBLIC_FORMS). */
#define CRC_DECLARE_FORMS(sfx)                                                                    \
	uint16_t crc16_t10dif_##sfx(uint16_t init, const unsigned char *buf, uint64_t len);      \
	uint16_t crc16_t10dif_copy_##sfx(uint16_t init, uint8_t *dst, uint8_t *src, uint64_t len); \
	uint32_t crc32_ieee_##sfx(uint32_t init, const unsigned char *buf, uint64_t len);        \
	uint32_t crc32_gzip_refl_##sfx(uint32_t init, const unsigned char *buf, uint64_t len);   \
	uint64_t crc64_ecma_refl_##sfx(uint64_t init, const unsigned char *buf, uint64_t len);   \
	uint64_t crc64_ecma_norm_##sfx(uint64_t init, const unsigned char *buf, uint64_t len);   \
	uint64_t crc64_iso_refl_##sfx(uint64_t init, const unsigned char *buf, uint64_t len);    \
	uint64_t crc64_iso_norm_##sfx(uint64_t init, const unsigned char *buf, uint64_t len);    \
	uint64_t crc64_jones_refl_##sfx(uint64_t init, const unsigned char *buf, uint64_t len);  \
	uint64_t crc64_jones_norm_##sfx(uint64_t init, const unsigned char *buf, uint64_t len);  \
	uint64_t crc64_rocksoft_refl_##sfx(uint64_t init, const unsigned char *buf, uint64_t len); \
	uint64_t crc64_rocksoft_norm_##sfx(uint64_t init, const unsigned char *buf, uint64_t len);

CRC_DECLARE_FORMS(portable)
unsigned int crc32_iscsi_portable(unsigned char *buf, int len, unsigned int init);
/* inf_crc32_gzip_copy's base entry: the copy and the best crc32_gzip_refl the process runs. */
uint32_t inf_crc32_gzip_copy_portable(uint32_t init, uint8_t *dst, const uint8_t *src,
				      uint64_t len);

#pragma GCC visibility pop

#endif
