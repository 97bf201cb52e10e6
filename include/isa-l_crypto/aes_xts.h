/* stoa: XTS-AES (IEEE 1619-2007, NIST SP 800-38E) with isa-l_crypto's names and conventions.
 *
 * Arguments, in this order for every function:
 *   k2          the tweak key (encrypts the initial tweak), 16 bytes for XTS-AES-128 and 32 for
 *               XTS-AES-256; in the *_expanded_key forms its encryption schedule (aes_keyexp.h:
 *               16 * 11 or 16 * 15 bytes), for decryption too
 *   k1          the data key, same sizes; in the *_expanded_key forms its encryption schedule
 *               for encryption and its decryption schedule (exp_key_dec) for decryption
 *   tweak       the 16-byte initial tweak: the data unit (sector) number as IEEE 1619 encodes
 *               it, least significant byte first, or any 16 bytes the caller chooses
 *   length      bytes in the data unit
 *   in, out     the data; out may equal in (in-place), otherwise the buffers must not overlap
 * Any length of at least 16 bytes works: a last partial block is handled by ciphertext
 * stealing, so the output is exactly as long as the input. No alignment is needed anywhere.
 *
 * The older XTS_AES_* functions do no checks and return nothing: a length under 16 reads and
 * writes nothing. The isal_aes_xts_* functions check first and return, writing nothing:
 *   ISAL_CRYPTO_ERR_NULL_KEY       k1 or k2 is NULL (ISAL_CRYPTO_ERR_NULL_EXP_KEY in the
 *                                  *_expanded_key forms)
 *   ISAL_CRYPTO_ERR_XTS_NULL_TWEAK the initial tweak is NULL
 *   ISAL_CRYPTO_ERR_NULL_SRC       in is NULL
 *   ISAL_CRYPTO_ERR_NULL_DST       out is NULL
 *   ISAL_CRYPTO_ERR_CIPH_LEN       length below ISAL_AES_XTS_MIN_LEN or above
 *                                  ISAL_AES_XTS_MAX_LEN
 * in that order of precedence, and 0 (ISAL_CRYPTO_ERR_NONE) on success.
 *
 * The running time depends on the length only, never on keys, tweak or data, and the round keys
 * and tweaks a call derives are cleared from its stack before it returns. */
#ifndef STOA_ISAL_CRYPTO_AES_XTS_H
#define STOA_ISAL_CRYPTO_AES_XTS_H

#include <stdint.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ISAL_AES_XTS_MIN_LEN 16
#define ISAL_AES_XTS_MAX_LEN (1 << 24)

#ifndef NO_COMPAT_ISAL_CRYPTO_API_2_24
/* The names isa-l_crypto 2.24 used for the same limits. */
#define AES_XTS_MIN_LEN ISAL_AES_XTS_MIN_LEN
#define AES_XTS_MAX_LEN ISAL_AES_XTS_MAX_LEN
#endif

ISAL_DEPRECATED("Please use isal_aes_xts_enc_128() instead")
void XTS_AES_128_enc(uint8_t *k2, uint8_t *k1, uint8_t *TW_initial, uint64_t N, const uint8_t *pt,
		     uint8_t *ct);
ISAL_DEPRECATED("Please use isal_aes_xts_enc_128_expanded_key() instead")
void XTS_AES_128_enc_expanded_key(uint8_t *k2, uint8_t *k1, uint8_t *TW_initial, uint64_t N,
				  const uint8_t *pt, uint8_t *ct);
ISAL_DEPRECATED("Please use isal_aes_xts_dec_128() instead")
void XTS_AES_128_dec(uint8_t *k2, uint8_t *k1, uint8_t *TW_initial, uint64_t N, const uint8_t *ct,
		     uint8_t *pt);
ISAL_DEPRECATED("Please use isal_aes_xts_dec_128_expanded_key() instead")
void XTS_AES_128_dec_expanded_key(uint8_t *k2, uint8_t *k1, uint8_t *TW_initial, uint64_t N,
				  const uint8_t *ct, uint8_t *pt);

ISAL_DEPRECATED("Please use isal_aes_xts_enc_256() instead")
void XTS_AES_256_enc(uint8_t *k2, uint8_t *k1, uint8_t *TW_initial, uint64_t N, const uint8_t *pt,
		     uint8_t *ct);
ISAL_DEPRECATED("Please use isal_aes_xts_enc_256_expanded_key() instead")
void XTS_AES_256_enc_expanded_key(uint8_t *k2, uint8_t *k1, uint8_t *TW_initial, uint64_t N,
				  const uint8_t *pt, uint8_t *ct);
ISAL_DEPRECATED("Please use isal_aes_xts_dec_256() instead")
void XTS_AES_256_dec(uint8_t *k2, uint8_t *k1, uint8_t *TW_initial, uint64_t N, const uint8_t *ct,
		     uint8_t *pt);
ISAL_DEPRECATED("Please use isal_aes_xts_dec_256_expanded_key() instead")
void XTS_AES_256_dec_expanded_key(uint8_t *k2, uint8_t *k1, uint8_t *TW_initial, uint64_t N,
				  const uint8_t *ct, uint8_t *pt);

int isal_aes_xts_enc_128(const uint8_t *k2, const uint8_t *k1, const uint8_t *initial_tweak,
			 const uint64_t len_bytes, const void *in, void *out);
int isal_aes_xts_enc_128_expanded_key(const uint8_t *k2, const uint8_t *k1,
				      const uint8_t *initial_tweak, const uint64_t len_bytes,
				      const void *in, void *out);
int isal_aes_xts_dec_128(const uint8_t *k2, const uint8_t *k1, const uint8_t *initial_tweak,
			 const uint64_t len_bytes, const void *in, void *out);
int isal_aes_xts_dec_128_expanded_key(const uint8_t *k2, const uint8_t *k1,
				      const uint8_t *initial_tweak, const uint64_t len_bytes,
				      const void *in, void *out);

int isal_aes_xts_enc_256(const uint8_t *k2, const uint8_t *k1, const uint8_t *initial_tweak,
			 const uint64_t len_bytes, const void *in, void *out);
int isal_aes_xts_enc_256_expanded_key(const uint8_t *k2, const uint8_t *k1,
				      const uint8_t *initial_tweak, const uint64_t len_bytes,
				      const void *in, void *out);
int isal_aes_xts_dec_256(const uint8_t *k2, const uint8_t *k1, const uint8_t *initial_tweak,
			 const uint64_t len_bytes, const void *in, void *out);
int isal_aes_xts_dec_256_expanded_key(const uint8_t *k2, const uint8_t *k1,
				      const uint8_t *initial_tweak, const uint64_t len_bytes,
				      const void *in, void *out);

#ifdef __cplusplus
}
#endif

#endif
