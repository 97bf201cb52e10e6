/* stoa: AES key expansion with isa-l_crypto's names and schedule layouts.
 *
 * Each function writes two schedules of 16-byte round keys, Nr + 1 of them (Nr = 10, 12, 14 for
 * 128-, 192- and 256-bit keys):
 *   exp_key_enc  the FIPS-197 round keys in the order encryption uses them: round 0 (the key's
 *                first 16 bytes) up to round Nr.
 *   exp_key_dec  the schedule of the equivalent inverse cipher (FIPS-197 5.3.5), in the order
 *                decryption uses them: round Nr, then InvMixColumns of rounds Nr-1 down to 1,
 *                then round 0. This is the form AES-NI's AESDEC takes, and the form the
 *                *_expanded_key decryption functions of aes_xts.h expect for k1.
 * The computation takes the same time for every key: no table is indexed by key bytes.
 *
 * The isal_* forms check their pointers first and return ISAL_CRYPTO_ERR_NULL_KEY or
 * ISAL_CRYPTO_ERR_NULL_EXP_KEY (isal_crypto_api.h) without writing anything; 0 on success.
 * The older names do no checks. */
#ifndef STOA_ISAL_CRYPTO_AES_KEYEXP_H
#define STOA_ISAL_CRYPTO_AES_KEYEXP_H

#include <stdint.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* key: 16 bytes; each schedule 16 * 11 bytes. */
ISAL_DEPRECATED("Please use isal_aes_keyexp_128() instead")
void aes_keyexp_128(const uint8_t *key, uint8_t *exp_key_enc, uint8_t *exp_key_dec);

/* key: 24 bytes; each schedule 16 * 13 bytes. */
ISAL_DEPRECATED("Please use isal_aes_keyexp_192() instead")
void aes_keyexp_192(const uint8_t *key, uint8_t *exp_key_enc, uint8_t *exp_key_dec);

/* key: 32 bytes; each schedule 16 * 15 bytes. */
ISAL_DEPRECATED("Please use isal_aes_keyexp_256() instead")
void aes_keyexp_256(const uint8_t *key, uint8_t *exp_key_enc, uint8_t *exp_key_dec);

int isal_aes_keyexp_128(const uint8_t *key, uint8_t *exp_key_enc, uint8_t *exp_key_dec);
int isal_aes_keyexp_192(const uint8_t *key, uint8_t *exp_key_enc, uint8_t *exp_key_dec);
int isal_aes_keyexp_256(const uint8_t *key, uint8_t *exp_key_enc, uint8_t *exp_key_dec);

#ifdef __cplusplus
}
#endif

#endif
