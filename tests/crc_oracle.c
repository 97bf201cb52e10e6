/* A deterministic sweep over the CRC API, for differential testing between processes.
 *
 * One source, two builds (tests/tests.mk):
 *   crc_oracle_system  -DORACLE_SYSTEM with the system's <isa-l.h>, linked with -lisal
 *   crc_oracle_stoa    with stoa's headers, linked with libstoa.a
 * The two libraries export the same symbols, so each gets its own process. tests/test_crc.c runs
 * both with the same arguments and compares the text, and runs the system build a second time
 * with LD_LIBRARY_PATH pointing at stoa's compat libisal.so.2 (the drop-in check).
 *
 * usage: crc_oracle SEED COUNT
 * Prints COUNT lines for every function (public, _base and _by8 symbols), one per call:
 *   <function> len=<n> align=<a> init=0x<hex> crc=0x<hex>[ copy=ok|copy=BAD]
 * Each function draws its inputs from its own stream (seeded by SEED and its name), so a build
 * with more functions (stoa's crc64_rocksoft_*, absent from ISA-L 2.30) prints the same lines for
 * the shared ones. Lines starting with '#' say which library the process runs on; they are not
 * results. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc_calls.h"
#include "oracle_prog.h"
#include <isa-l.h>

struct oracle_fn {
	const char *name;
	int width;
	int copies;
	crc_call_fn *call;
};

#define O64(fn)                                                                                    \
	{                                                                                          \
		.name = #fn, .width = 64, .copies = 0, .call = cc_##fn                              \
	}

static const struct oracle_fn fns[] = {
	{ "crc16_t10dif", 16, 0, cc_t10dif },
	{ "crc16_t10dif_base", 16, 0, cc_t10dif_base },
	{ "crc16_t10dif_copy", 16, 1, cc_t10dif_copy },
	{ "crc16_t10dif_copy_base", 16, 1, cc_t10dif_copy_base },
	{ "crc32_ieee", 32, 0, cc_ieee },
	{ "crc32_ieee_base", 32, 0, cc_ieee_base },
	{ "crc32_gzip_refl", 32, 0, cc_gzip },
	{ "crc32_gzip_refl_base", 32, 0, cc_gzip_base },
	{ "crc32_iscsi", 32, 0, cc_iscsi },
	{ "crc32_iscsi_base", 32, 0, cc_iscsi_base },
	O64(crc64_ecma_refl),
	O64(crc64_ecma_refl_base),
	O64(crc64_ecma_refl_by8),
	O64(crc64_ecma_norm),
	O64(crc64_ecma_norm_base),
	O64(crc64_ecma_norm_by8),
	O64(crc64_iso_refl),
	O64(crc64_iso_refl_base),
	O64(crc64_iso_refl_by8),
	O64(crc64_iso_norm),
	O64(crc64_iso_norm_base),
	O64(crc64_iso_norm_by8),
	O64(crc64_jones_refl),
	O64(crc64_jones_refl_base),
	O64(crc64_jones_refl_by8),
	O64(crc64_jones_norm),
	O64(crc64_jones_norm_base),
	O64(crc64_jones_norm_by8),
#ifndef ORACLE_SYSTEM
	O64(crc64_rocksoft_refl),
	O64(crc64_rocksoft_refl_base),
	O64(crc64_rocksoft_refl_by8),
	O64(crc64_rocksoft_norm),
	O64(crc64_rocksoft_norm_base),
	O64(crc64_rocksoft_norm_by8),
#endif
};

static void sweep(const struct oracle_fn *f, uint64_t seed, unsigned long count)
{
	uint64_t s = seed ^ oracle_name_hash(f->name);
	uint64_t mask = f->width == 64 ? ~0ull : (1ull << f->width) - 1;
	for (unsigned long c = 0; c < count; c++) {
		uint64_t len;
		switch (oracle_next(&s) % 4) {
		case 0:
			len = oracle_next(&s) % 65;
			break;
		case 1:
			len = oracle_next(&s) % 1025;
			break;
		default:
			len = oracle_next(&s) % 65537;
			break;
		}
		unsigned align = (unsigned)(oracle_next(&s) % 64);
		uint64_t init;
		switch (oracle_next(&s) % 8) {
		case 0:
			init = 0;
			break;
		case 1:
			init = mask;
			break;
		default:
			init = oracle_next(&s) & mask;
			break;
		}
		uint8_t *block = oracle_alloc(align + len), *buf = block + align;
		uint8_t *dst = oracle_alloc(len);
		oracle_fill(&s, buf, len);
		for (uint64_t i = 0; i < len; i++)
			dst[i] = (uint8_t)~buf[i];
		uint64_t crc = f->call(init, buf, len, dst) & mask;
		const char *copied = "";
		if (f->copies)
			copied = memcmp(dst, buf, len) == 0 ? " copy=ok" : " copy=BAD";
		printf("%s len=%" PRIu64 " align=%u init=0x%0*" PRIx64 " crc=0x%0*" PRIx64 "%s\n",
		       f->name, len, align, f->width / 4, init, f->width / 4, crc, copied);
		free(block);
		free(dst);
	}
}

int main(int argc, char **argv)
{
	uint64_t seed;
	unsigned long count;
	oracle_start(argc, argv, &seed, &count);
	printf("# seed: %" PRIu64 ", %lu calls per function, %zu functions\n", seed, count,
	       sizeof(fns) / sizeof(fns[0]));
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		sweep(&fns[i], seed, count);
	return fflush(stdout) == 0 ? 0 : 1;
}
