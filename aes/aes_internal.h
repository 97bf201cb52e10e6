/* AES module internals: schedule sizes, the portable pieces the engines and tests share, and
 * the variant tables that tests and the benchmark walk.
 *
 * Schedules are always isa-l_crypto's byte layout (aes_keyexp.h): Nr + 1 round keys of 16 bytes,
 * encryption order for exp_key_enc, equivalent-inverse-cipher order for exp_key_dec. Every engine
 * works from those bytes, so the *_expanded_key forms and the forms that expand a raw key share
 * one kernel per engine. */
#ifndef STOA_AES_INTERNAL_H
#define STOA_AES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"

#pragma GCC visibility push(hidden)

#define AES_BLOCK 16
#define AES128_ROUNDS 10
#define AES192_ROUNDS 12
#define AES256_ROUNDS 14
#define AES_MAX_ROUNDS 14
/* Bytes of one schedule for Nr rounds. */
#define AES_SCHED_BYTES(rounds) (AES_BLOCK * ((rounds) + 1))

/* The two public shapes every variant has. */
typedef void aes_xts_fn(uint8_t *k2, uint8_t *k1, uint8_t *tw, uint64_t len, const uint8_t *in,
			uint8_t *out);
typedef void aes_keyexp_fn(const uint8_t *key, uint8_t *exp_key_enc, uint8_t *exp_key_dec);

/* Clears n bytes at p with a store the compiler has to keep (a plain memset of a dead buffer
 * may be dropped). Every function that derives round keys or tweaks clears its copies with it. */
void aes_wipe(void *p, size_t n);

/* Overwrites n <= AES_BURN_MAX bytes of stack just below the caller's frame. Called right after a
 * function that may have spilled key or tweak material (to the compiler's own stack slots, which
 * no wipe of a named buffer reaches), from the same caller, its frame lands where that
 * function's was. */
#if defined(__SANITIZE_ADDRESS__)
#define AES_BURN_SCALE 4 /* AddressSanitizer pads every stack object: frames grow severalfold */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AES_BURN_SCALE 4
#endif
#endif
#ifndef AES_BURN_SCALE
#define AES_BURN_SCALE 1
#endif
#define AES_BURN_MAX (4096 * AES_BURN_SCALE)
void aes_burn_stack(size_t n);

#if defined(__GNUC__) || defined(__clang__)
#define AES_NOINLINE __attribute__((noinline))
#else
#define AES_NOINLINE
#endif

/* Bytes between the caller's stack pointer and a callee's, plus 128 below the callee (x86-64's
 * red zone; aarch64 has none) and room for the burn's own frame layout. */
static inline size_t aes_burn_depth(uintptr_t caller_sp, uintptr_t callee_sp)
{
	size_t n = (size_t)(caller_sp - callee_sp) + 128 + 64;
	return n < AES_BURN_MAX ? n : AES_BURN_MAX;
}

/*
 * The eight exported-shape forms of one engine, xts_aes_<bits>_<enc|dec>[_expanded_key]_<sfx>,
 * over the engine file's work functions (enc_128, dec_expanded_256, ...), each of which stores
 * its stack pointer (aes_stack_pointer, from the architecture's engine header) in *sp. Each
 * form runs its work in a frame of its own, which records how deep its stack went, and then
 * overwrites that stack: no wipe of a named buffer reaches the compiler's spill slots (clang's
 * work frames reach 1.5 KiB, and an ASan build spills too). Below one block isa-l_crypto's
 * functions return at once; so do these.
 */
#define XTS_BURNING_FORM(name, work)                                                               \
	void name(uint8_t *k2, uint8_t *k1, uint8_t *tw, uint64_t len, const uint8_t *in,          \
		  uint8_t *out)                                                                    \
	{                                                                                          \
		if (len < AES_BLOCK)                                                               \
			return;                                                                    \
		uintptr_t sp;                                                                      \
		work(k2, k1, tw, len, in, out, &sp);                                               \
		aes_burn_stack(aes_burn_depth(aes_stack_pointer(), sp));                           \
	}

#define XTS_ENGINE_FORMS(sfx)                                                                      \
	XTS_BURNING_FORM(xts_aes_128_enc_expanded_key_##sfx, enc_expanded_128)                     \
	XTS_BURNING_FORM(xts_aes_128_dec_expanded_key_##sfx, dec_expanded_128)                     \
	XTS_BURNING_FORM(xts_aes_128_enc_##sfx, enc_128)                                           \
	XTS_BURNING_FORM(xts_aes_128_dec_##sfx, dec_128)                                           \
	XTS_BURNING_FORM(xts_aes_256_enc_expanded_key_##sfx, enc_expanded_256)                     \
	XTS_BURNING_FORM(xts_aes_256_dec_expanded_key_##sfx, dec_expanded_256)                     \
	XTS_BURNING_FORM(xts_aes_256_enc_##sfx, enc_256)                                           \
	XTS_BURNING_FORM(xts_aes_256_dec_##sfx, dec_256)

/* Byte shuffles for the XTS tail (PSHUFB, TBL: an index with its top bit set gives zero), a
 * window of 16 taken at a public offset: from index 16 + k, bytes move down by k (zeros come in
 * at the top); from 16 - k, up by k (zeros at the bottom). */
static const uint8_t xts_shift_window[48] __attribute__((aligned(16))) = {
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	0x80, 0,    1,    2,    3,    4,    5,    6,    7,    8,    9,    10,   11,   12,   13,
	14,   15,   0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	0x80, 0x80, 0x80,
};

/* Portable, constant-time key expansion (aes_base.c): nk is the key length in 32-bit words
 * (4, 6 or 8). Either output may be NULL when only the other schedule is wanted. */
void aes_expand_key_portable(const uint8_t *key, int nk, uint8_t *exp_key_enc,
			     uint8_t *exp_key_dec);

/* Portable AES on whole blocks with a byte schedule (aes_base.c): encryption takes the
 * encryption schedule, decryption the equivalent-inverse-cipher one. For tests. */
void aes_encrypt_blocks_portable(const uint8_t *exp_key_enc, int rounds, const uint8_t *in,
				 uint8_t *out, size_t blocks);
void aes_decrypt_blocks_portable(const uint8_t *exp_key_dec, int rounds, const uint8_t *in,
				 uint8_t *out, size_t blocks);

/* The variant functions, one set per engine, each with the public prototype. */
#define AES_DECLARE_VARIANTS(sfx)                                                                  \
	aes_xts_fn xts_aes_128_enc_##sfx, xts_aes_128_enc_expanded_key_##sfx;                      \
	aes_xts_fn xts_aes_128_dec_##sfx, xts_aes_128_dec_expanded_key_##sfx;                      \
	aes_xts_fn xts_aes_256_enc_##sfx, xts_aes_256_enc_expanded_key_##sfx;                      \
	aes_xts_fn xts_aes_256_dec_##sfx, xts_aes_256_dec_expanded_key_##sfx;

AES_DECLARE_VARIANTS(portable)
aes_keyexp_fn aes_keyexp_128_portable, aes_keyexp_192_portable, aes_keyexp_256_portable;

/* The variant tables, best first, base last. */
extern const struct stoa_variant XTS_AES_128_enc_variants[];
extern const struct stoa_variant XTS_AES_128_enc_expanded_key_variants[];
extern const struct stoa_variant XTS_AES_128_dec_variants[];
extern const struct stoa_variant XTS_AES_128_dec_expanded_key_variants[];
extern const struct stoa_variant XTS_AES_256_enc_variants[];
extern const struct stoa_variant XTS_AES_256_enc_expanded_key_variants[];
extern const struct stoa_variant XTS_AES_256_dec_variants[];
extern const struct stoa_variant XTS_AES_256_dec_expanded_key_variants[];
extern const struct stoa_variant aes_keyexp_128_variants[];
extern const struct stoa_variant aes_keyexp_192_variants[];
extern const struct stoa_variant aes_keyexp_256_variants[];

extern const struct stoa_module stoa_module_aes;

#pragma GCC visibility pop

#endif
