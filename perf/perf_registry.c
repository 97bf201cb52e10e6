/* The modules whose cases this build runs. A module with cases adds its line here. An
 * isa-l_crypto build of the driver (PERF_LIB_ISAL_CRYPTO, see perf.mk) runs only the crypto
 * modules; the ISA-L builds compile those to empty modules. */
#include "perf.h"

#ifndef PERF_LIB_ISAL_CRYPTO
extern const struct perf_module perf_module_crc;
extern const struct perf_module perf_module_raid;
extern const struct perf_module perf_module_ec;
extern const struct perf_module perf_module_igzip;
extern const struct perf_module perf_module_zlib;
#endif
extern const struct perf_module perf_module_hash;
extern const struct perf_module perf_module_aes;

const struct perf_module *const perf_modules[] = {
#ifndef PERF_LIB_ISAL_CRYPTO
	&perf_module_crc,
	&perf_module_raid,
	&perf_module_ec,
	&perf_module_igzip,
	&perf_module_zlib,
#endif
	&perf_module_hash,
	&perf_module_aes,
	NULL,
};
