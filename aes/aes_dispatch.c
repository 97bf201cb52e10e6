/* AES variant tables, best first, the exported entry points that dispatch through them, and the
 * checked isal_* forms. */
#include "aes_internal.h"
#include "isa-l_crypto/aes_keyexp.h"
#include "isa-l_crypto/aes_xts.h"
#include "isa-l_crypto/isal_crypto_api.h"

#ifdef STOA_ARCH
#include STOA_ARCH_HEADER(aes, aes)
#else
#define AES_ARCH_XTS_ENTRIES(impl)
#define AES_ARCH_KEYEXP_ENTRIES(bits)
#endif

/* Each table: this architecture's engines, best first, then the portable one. */
#define AES_TABLE(api, impl)                                                                       \
	const struct stoa_variant api##_variants[] = {                                             \
		AES_ARCH_XTS_ENTRIES(impl) STOA_BASE(impl##_portable),                             \
	};
#define KEYEXP_TABLE(bits)                                                                         \
	const struct stoa_variant aes_keyexp_##bits##_variants[] = {                               \
		AES_ARCH_KEYEXP_ENTRIES(bits) STOA_BASE(aes_keyexp_##bits##_portable),             \
	};

AES_TABLE(XTS_AES_128_enc, xts_aes_128_enc)
AES_TABLE(XTS_AES_128_enc_expanded_key, xts_aes_128_enc_expanded_key)
AES_TABLE(XTS_AES_128_dec, xts_aes_128_dec)
AES_TABLE(XTS_AES_128_dec_expanded_key, xts_aes_128_dec_expanded_key)
AES_TABLE(XTS_AES_256_enc, xts_aes_256_enc)
AES_TABLE(XTS_AES_256_enc_expanded_key, xts_aes_256_enc_expanded_key)
AES_TABLE(XTS_AES_256_dec, xts_aes_256_dec)
AES_TABLE(XTS_AES_256_dec_expanded_key, xts_aes_256_dec_expanded_key)
KEYEXP_TABLE(128)
KEYEXP_TABLE(192)
KEYEXP_TABLE(256)

#define XTS_DISPATCH(name)                                                                         \
	STOA_DISPATCH(void, name,                                                                  \
		      (uint8_t * k2, uint8_t * k1, uint8_t * TW_initial, uint64_t N,               \
		       const uint8_t *pt, uint8_t *ct),                                            \
		      (k2, k1, TW_initial, N, pt, ct))

XTS_DISPATCH(XTS_AES_128_enc)
XTS_DISPATCH(XTS_AES_128_enc_expanded_key)
XTS_DISPATCH(XTS_AES_128_dec)
XTS_DISPATCH(XTS_AES_128_dec_expanded_key)
XTS_DISPATCH(XTS_AES_256_enc)
XTS_DISPATCH(XTS_AES_256_enc_expanded_key)
XTS_DISPATCH(XTS_AES_256_dec)
XTS_DISPATCH(XTS_AES_256_dec_expanded_key)

#define KEYEXP_DISPATCH(name)                                                                      \
	STOA_DISPATCH(void, name,                                                                  \
		      (const uint8_t *key, uint8_t *exp_key_enc, uint8_t *exp_key_dec),            \
		      (key, exp_key_enc, exp_key_dec))

KEYEXP_DISPATCH(aes_keyexp_128)
KEYEXP_DISPATCH(aes_keyexp_192)
KEYEXP_DISPATCH(aes_keyexp_256)

/* isa-l_crypto's checks, in its order; nothing is read or written when one fails. The checked
 * forms call the unchecked name's dispatch pointer directly: an exported symbol called from
 * inside the library may be interposed, so a call to it would go through the PLT. */
#define XTS_CHECKED(name, unchecked, null_key)                                                     \
	STOA_API int name(const uint8_t *k2, const uint8_t *k1, const uint8_t *initial_tweak,      \
			  const uint64_t len_bytes, const void *in, void *out)                     \
	{                                                                                          \
		if (k2 == NULL || k1 == NULL)                                                      \
			return null_key;                                                           \
		if (initial_tweak == NULL)                                                         \
			return ISAL_CRYPTO_ERR_XTS_NULL_TWEAK;                                     \
		if (in == NULL)                                                                    \
			return ISAL_CRYPTO_ERR_NULL_SRC;                                           \
		if (out == NULL)                                                                   \
			return ISAL_CRYPTO_ERR_NULL_DST;                                           \
		if (len_bytes < ISAL_AES_XTS_MIN_LEN || len_bytes > ISAL_AES_XTS_MAX_LEN)          \
			return ISAL_CRYPTO_ERR_CIPH_LEN;                                           \
		STOA_IMPL(unchecked)((uint8_t *)k2, (uint8_t *)k1, (uint8_t *)initial_tweak,       \
				      len_bytes, in, out);                                         \
		return ISAL_CRYPTO_ERR_NONE;                                                       \
	}

XTS_CHECKED(isal_aes_xts_enc_128, XTS_AES_128_enc, ISAL_CRYPTO_ERR_NULL_KEY)
XTS_CHECKED(isal_aes_xts_enc_128_expanded_key, XTS_AES_128_enc_expanded_key,
	    ISAL_CRYPTO_ERR_NULL_EXP_KEY)
XTS_CHECKED(isal_aes_xts_dec_128, XTS_AES_128_dec, ISAL_CRYPTO_ERR_NULL_KEY)
XTS_CHECKED(isal_aes_xts_dec_128_expanded_key, XTS_AES_128_dec_expanded_key,
	    ISAL_CRYPTO_ERR_NULL_EXP_KEY)
XTS_CHECKED(isal_aes_xts_enc_256, XTS_AES_256_enc, ISAL_CRYPTO_ERR_NULL_KEY)
XTS_CHECKED(isal_aes_xts_enc_256_expanded_key, XTS_AES_256_enc_expanded_key,
	    ISAL_CRYPTO_ERR_NULL_EXP_KEY)
XTS_CHECKED(isal_aes_xts_dec_256, XTS_AES_256_dec, ISAL_CRYPTO_ERR_NULL_KEY)
XTS_CHECKED(isal_aes_xts_dec_256_expanded_key, XTS_AES_256_dec_expanded_key,
	    ISAL_CRYPTO_ERR_NULL_EXP_KEY)

#define KEYEXP_CHECKED(name, unchecked)                                                            \
	STOA_API int name(const uint8_t *key, uint8_t *exp_key_enc, uint8_t *exp_key_dec)          \
	{                                                                                          \
		if (key == NULL)                                                                   \
			return ISAL_CRYPTO_ERR_NULL_KEY;                                           \
		if (exp_key_enc == NULL || exp_key_dec == NULL)                                    \
			return ISAL_CRYPTO_ERR_NULL_EXP_KEY;                                       \
		STOA_IMPL(unchecked)(key, exp_key_enc, exp_key_dec);                               \
		return ISAL_CRYPTO_ERR_NONE;                                                       \
	}

KEYEXP_CHECKED(isal_aes_keyexp_128, aes_keyexp_128)
KEYEXP_CHECKED(isal_aes_keyexp_192, aes_keyexp_192)
KEYEXP_CHECKED(isal_aes_keyexp_256, aes_keyexp_256)

static const struct stoa_func aes_funcs[] = {
	STOA_FUNC(XTS_AES_128_enc),
	STOA_FUNC(XTS_AES_128_enc_expanded_key),
	STOA_FUNC(XTS_AES_128_dec),
	STOA_FUNC(XTS_AES_128_dec_expanded_key),
	STOA_FUNC(XTS_AES_256_enc),
	STOA_FUNC(XTS_AES_256_enc_expanded_key),
	STOA_FUNC(XTS_AES_256_dec),
	STOA_FUNC(XTS_AES_256_dec_expanded_key),
	STOA_FUNC(aes_keyexp_128),
	STOA_FUNC(aes_keyexp_192),
	STOA_FUNC(aes_keyexp_256),
};

const struct stoa_module stoa_module_aes = { "aes", aes_funcs, STOA_COUNT(aes_funcs) };
