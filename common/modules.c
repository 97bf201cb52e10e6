/* The modules compiled into the library, for reports, tests and benchmarks. Adding a module
 * adds one line here. */
#include "dispatch.h"

extern const struct stoa_module stoa_module_crc;
extern const struct stoa_module stoa_module_raid;
extern const struct stoa_module stoa_module_erasure_code;
extern const struct stoa_module stoa_module_hash;
extern const struct stoa_module stoa_module_aes;
extern const struct stoa_module stoa_module_inflate;
extern const struct stoa_module stoa_module_deflate;

const struct stoa_module *const stoa_modules[] = {
	&stoa_module_crc,
	&stoa_module_raid,
	&stoa_module_erasure_code,
	&stoa_module_hash,
	&stoa_module_aes,
	&stoa_module_inflate,
	&stoa_module_deflate,
	NULL,
};
