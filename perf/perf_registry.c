/* The modules whose cases this build runs. A module with cases adds its line here. */
#include "perf.h"

extern const struct perf_module perf_module_crc;
extern const struct perf_module perf_module_raid;
extern const struct perf_module perf_module_ec;
extern const struct perf_module perf_module_hash;
extern const struct perf_module perf_module_aes;

const struct perf_module *const perf_modules[] = {
	&perf_module_crc,
	&perf_module_raid,
	&perf_module_ec,
	&perf_module_hash,
	&perf_module_aes,
	NULL,
};
