/* The version functions of ISA-L (isal_api.h) and isa-l_crypto (isal_crypto_api.h): the API
 * release each header names, as this library was built with it. */
#include "isa-l/isal_api.h"
#include "isa-l_crypto/isal_crypto_api.h"
#include "stoa_export.h"

STOA_API const char *isal_get_version_str(void)
{
	return ISAL_VERSION_STR;
}

STOA_API unsigned isal_get_version(void)
{
	return ISAL_VERSION;
}

STOA_API const char *isal_crypto_get_version_str(void)
{
	return ISAL_CRYPTO_VERSION_STR;
}

STOA_API unsigned isal_crypto_get_version(void)
{
	return ISAL_CRYPTO_VERSION;
}
