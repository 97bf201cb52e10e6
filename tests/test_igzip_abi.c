/* igzip_lib.h ABI tests: stoa's header against ISA-L's.
 *
 * tests/igzip_abi_oracle.c prints the size and alignment of every public struct of igzip_lib.h,
 * the offset and size of every member a caller may touch, and the value of every constant; it is
 * built once against the system's ISA-L 2.30 header and once against stoa's. The two listings
 * must be identical line for line (in a cross run the ISA-L build is compiled for the target
 * too, and runs on stoa's compat library: only its header matters). The sizes ISA-L 2.30 has are
 * also checked in this process against stoa's header, so a listing that lost a struct still
 * fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "isa-l/igzip_lib.h"
#include "oracle.h"
#include "testutil.h"

/* ISA-L 2.30's sizes as its header lays the structs out (gcc): on LP64 targets (x86-64, aarch64,
 * s390x) and on ILP32 ones (i686, armhf: the same numbers, for the pointers make the
 * difference). */
static void test_known_sizes(void **state)
{
	(void)state;
	const int lp64 = sizeof(void *) == 8;
	assert_int_equal(sizeof(struct inflate_state), lp64 ? 87368 : 87360);
	assert_int_equal(sizeof(struct isal_zstream), lp64 ? 82384 : 82352);
	assert_int_equal(sizeof(struct isal_zstate), lp64 ? 82320 : 82304);
	assert_int_equal(sizeof(struct isal_gzip_header), lp64 ? 72 : 52);
	assert_int_equal(sizeof(struct isal_zlib_header), 16);
	assert_int_equal(sizeof(struct BitBuf2), lp64 ? 40 : 24);
	assert_int_equal(offsetof(struct inflate_state, block_state), lp64 ? 21160 : 21152);
	assert_int_equal(offsetof(struct inflate_state, tmp_out_buffer), lp64 ? 21544 : 21536);
	print_message("inflate_state %zu, isal_zstream %zu, isal_zstate %zu bytes, as in ISA-L 2.30 "
		      "(%s)\n",
		      sizeof(struct inflate_state), sizeof(struct isal_zstream),
		      sizeof(struct isal_zstate), lp64 ? "LP64" : "ILP32");
}

/* Every struct the listing must cover, and the least number of members listed for each. */
static const struct {
	const char *name;
	int min_fields;
} listed[] = {
	{ "struct isal_huff_histogram", 3 }, { "struct isal_mod_hist", 2 },
	{ "struct BitBuf2", 5 },             { "struct isal_zlib_header", 4 },
	{ "struct isal_gzip_header", 13 },   { "struct isal_zstate", 21 },
	{ "struct isal_hufftables", 9 },     { "struct isal_zstream", 21 },
	{ "struct isal_dict", 6 },           { "struct inflate_state", 19 },
};

static void check_coverage(const struct oracle_output *o)
{
	int fields[sizeof(listed) / sizeof(listed[0])] = { 0 };
	int sizes[sizeof(listed) / sizeof(listed[0])] = { 0 };
	size_t consts = 0, len;
	const char *pos = o->text, *l;
	while ((l = oracle_next_line(&pos, &len, NULL))) {
		if (strncmp(l, "const ", 6) == 0) {
			consts++;
			continue;
		}
		for (size_t i = 0; i < sizeof(listed) / sizeof(listed[0]); i++) {
			size_t n = strlen(listed[i].name);
			if (strncmp(l, "size ", 5) == 0 && strncmp(l + 5, listed[i].name, n) == 0 &&
			    l[5 + n] == ' ')
				sizes[i]++;
			if (strncmp(l, "field ", 6) == 0 && strncmp(l + 6, listed[i].name, n) == 0 &&
			    l[6 + n] == '.')
				fields[i]++;
		}
	}
	for (size_t i = 0; i < sizeof(listed) / sizeof(listed[0]); i++) {
		if (sizes[i] != 1 || fields[i] < listed[i].min_fields)
			TEST_FAIL("%s: %d size lines, %d fields listed (want 1, >= %d)\n",
				  listed[i].name, sizes[i], fields[i], listed[i].min_fields);
	}
	print_message("listing covers %zu structs and %zu constants\n",
		      sizeof(listed) / sizeof(listed[0]), consts);
	assert_true(consts >= 130);
}

static void test_layout_matches_isal(void **state)
{
	(void)state;
	struct oracle_output sys, ours;
	oracle_run("igzip_abi", ORACLE_HEADERS, 0, 0, &sys);
	oracle_run("igzip_abi", ORACLE_STOA, 0, 0, &ours);
	check_coverage(&sys);
	size_t n = oracle_compare("ISA-L igzip_lib.h", &sys, "stoa igzip_lib.h", &ours, NULL, NULL);
	print_message("ISA-L 2.30 header vs stoa header: %zu sizes, offsets and constants, "
		      "identical\n",
		      n);
	assert_true(n > 250);
	oracle_free(&sys);
	oracle_free(&ours);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_sizes),
		cmocka_unit_test(test_layout_matches_isal),
	};
	return cmocka_run_group_tests_name("igzip_abi", tests, NULL, NULL);
}
