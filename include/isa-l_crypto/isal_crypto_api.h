/* stoa: isa-l_crypto's version numbers and the error codes its checked (isal_*) functions
 * return. The numbering is isa-l_crypto's, so a program comparing against the raw values sees
 * the same answers: 0 for success, then 2000 upwards in the order below. */
#ifndef STOA_ISAL_CRYPTO_API_H
#define STOA_ISAL_CRYPTO_API_H

#ifdef __cplusplus
extern "C" {
#endif

/* The isa-l_crypto release whose API this follows. */
#define ISAL_CRYPTO_MAJOR_VERSION 2
#define ISAL_CRYPTO_MINOR_VERSION 26
#define ISAL_CRYPTO_PATCH_VERSION 0
#define ISAL_CRYPTO_MAKE_VERSION(maj, min, patch) ((maj) * 0x10000 + (min) * 0x100 + (patch))
#define ISAL_CRYPTO_VERSION                                                                        \
	ISAL_CRYPTO_MAKE_VERSION(ISAL_CRYPTO_MAJOR_VERSION, ISAL_CRYPTO_MINOR_VERSION,             \
				 ISAL_CRYPTO_PATCH_VERSION)
/* "2.26.0": the same numbers as a string literal. */
#define ISAL_CRYPTO_VERSION_STR_(maj, min, patch) #maj "." #min "." #patch
#define ISAL_CRYPTO_VERSION_STR_X(maj, min, patch) ISAL_CRYPTO_VERSION_STR_(maj, min, patch)
#define ISAL_CRYPTO_VERSION_STR                                                                    \
	ISAL_CRYPTO_VERSION_STR_X(ISAL_CRYPTO_MAJOR_VERSION, ISAL_CRYPTO_MINOR_VERSION,            \
				  ISAL_CRYPTO_PATCH_VERSION)

typedef enum {
	ISAL_CRYPTO_ERR_NONE = 0,
	ISAL_CRYPTO_ERR_NULL_SRC = 2000,    /* source (input) pointer is NULL */
	ISAL_CRYPTO_ERR_NULL_DST,           /* destination (output) pointer is NULL */
	ISAL_CRYPTO_ERR_NULL_CTX,           /* context pointer is NULL */
	ISAL_CRYPTO_ERR_NULL_MGR,           /* manager pointer is NULL */
	ISAL_CRYPTO_ERR_NULL_KEY,           /* key pointer is NULL */
	ISAL_CRYPTO_ERR_NULL_EXP_KEY,       /* expanded key (round key) pointer is NULL */
	ISAL_CRYPTO_ERR_NULL_IV,            /* IV pointer is NULL */
	ISAL_CRYPTO_ERR_NULL_AUTH,          /* authentication tag pointer is NULL */
	ISAL_CRYPTO_ERR_NULL_AAD,           /* additional authenticated data pointer is NULL */
	ISAL_CRYPTO_ERR_CIPH_LEN,           /* data length out of the supported range */
	ISAL_CRYPTO_ERR_AUTH_TAG_LEN,       /* authentication tag length not supported */
	ISAL_CRYPTO_ERR_INVALID_FLAGS,      /* context flags not valid */
	ISAL_CRYPTO_ERR_ALREADY_PROCESSING, /* the job is still being processed */
	ISAL_CRYPTO_ERR_ALREADY_COMPLETED,  /* the job has already completed */
	ISAL_CRYPTO_ERR_XTS_NULL_TWEAK,     /* AES-XTS initial tweak pointer is NULL */
	ISAL_CRYPTO_ERR_XTS_SAME_KEYS,      /* AES-XTS data and tweak keys are equal */
	ISAL_CRYPTO_ERR_SELF_TEST,          /* a self test failed */
	ISAL_CRYPTO_ERR_FIPS_INVALID_ALGO,  /* algorithm not approved in FIPS mode */
	ISAL_CRYPTO_ERR_WINDOW_SIZE,        /* rolling hash window size not valid */
	ISAL_CRYPTO_ERR_NULL_OFFSET,        /* rolling hash offset pointer is NULL */
	ISAL_CRYPTO_ERR_NULL_MATCH,         /* rolling hash match pointer is NULL */
	ISAL_CRYPTO_ERR_NULL_MASK,          /* rolling hash mask pointer is NULL */
	ISAL_CRYPTO_ERR_NULL_INIT_VAL,      /* rolling hash initial value pointer is NULL */
	ISAL_CRYPTO_ERR_FIPS_DISABLED,      /* FIPS mode is not enabled */
	ISAL_CRYPTO_ERR_MAX                 /* one past the last code */
} ISAL_CRYPTO_ERROR;

/* Known-answer tests of every algorithm the library provides (SHA-1, SHA-256, SHA-512 and MD5
 * through the multi-buffer managers, AES key expansion, AES-XTS-128 and -256 both ways, from
 * raw and from expanded keys), run on the code this CPU uses. Returns 0 when all pass,
 * ISAL_CRYPTO_ERR_SELF_TEST otherwise. Safe to call from any thread at any time; the functions
 * do not depend on it having run. */
int isal_self_tests(void);

/* The isa-l_crypto release whose API the library provides: ISAL_CRYPTO_VERSION_STR and
 * ISAL_CRYPTO_VERSION as they were when it was built. Compare the number with
 * ISAL_CRYPTO_MAKE_VERSION. */
const char *isal_crypto_get_version_str(void);
unsigned isal_crypto_get_version(void);

#ifdef __cplusplus
}
#endif

#endif
