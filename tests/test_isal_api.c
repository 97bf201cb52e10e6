/* The library-level API of ISA-L and isa-l_crypto, and the isa-l_crypto drop-in library.
 *
 * - isal_get_version(_str) and isal_crypto_get_version(_str) report the header's numbers.
 * - isal_self_tests passes on the variants this process dispatches to (make test also runs the
 *   suite with STOA_ISA=base, which covers the portable ones).
 * - Details of ISA-L's contract its own tests rely on: isal_deflate_stateless with NO_FLUSH sets
 *   end_of_stream (it always writes the final block); gf_vect_mul_init_base is gf_vect_mul_init.
 * - build/compat/libisal_crypto.so.2 exports every public name of isa-l_crypto's headers for the
 *   algorithms stoa has, in both API generations, and none of ISA-L's; its self tests pass when
 *   called through it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "isa-l.h"
#include "isa-l_crypto.h"
#include "stoa.h"
#include "testutil.h"

static void test_versions(void **state)
{
	(void)state;
	char want[32];
	assert_int_equal(isal_get_version(), ISAL_VERSION);
	assert_true(isal_get_version() >= ISAL_MAKE_VERSION(2, 31, 0));
	snprintf(want, sizeof(want), "%d.%d.%d", ISAL_MAJOR_VERSION, ISAL_MINOR_VERSION,
	         ISAL_PATCH_VERSION);
	assert_string_equal(isal_get_version_str(), want);
	assert_string_equal(ISAL_VERSION_STR, want);
	assert_int_equal(isal_crypto_get_version(), ISAL_CRYPTO_VERSION);
	snprintf(want, sizeof(want), "%d.%d.%d", ISAL_CRYPTO_MAJOR_VERSION,
	         ISAL_CRYPTO_MINOR_VERSION, ISAL_CRYPTO_PATCH_VERSION);
	assert_string_equal(isal_crypto_get_version_str(), want);
	assert_string_equal(ISAL_CRYPTO_VERSION_STR, want);
	print_message("ISA-L API %s, isa-l_crypto API %s\n", isal_get_version_str(),
	              isal_crypto_get_version_str());
}

static void test_self_tests(void **state)
{
	(void)state;
	assert_int_equal(isal_self_tests(), 0);
	print_message("isal_self_tests passed on sha1 %s, sha256 %s, sha512 %s, md5 %s managers "
	              "and XTS %s\n",
	              stoa_function_variant("sha1_ctx_mgr_init"),
	              stoa_function_variant("sha256_ctx_mgr_init"),
	              stoa_function_variant("sha512_ctx_mgr_init"),
	              stoa_function_variant("md5_ctx_mgr_init"),
	              stoa_function_variant("XTS_AES_128_enc"));
}

static void test_stateless_sets_end_of_stream(void **state)
{
	(void)state;
	static uint8_t in[1000], out[2000], level_buf[ISAL_DEF_LVL1_DEFAULT];
	test_fill_random(in, sizeof(in));
	for (int flush = NO_FLUSH; flush <= FULL_FLUSH; flush++) {
		for (uint32_t level = 0; level <= 1; level++) {
			struct isal_zstream s;
			isal_deflate_stateless_init(&s);
			s.level = level;
			s.level_buf = level_buf;
			s.level_buf_size = sizeof(level_buf);
			s.flush = (uint16_t)flush;
			s.end_of_stream = 0;
			s.next_in = in;
			s.avail_in = sizeof(in);
			s.next_out = out;
			s.avail_out = sizeof(out);
			int rc = isal_deflate_stateless(&s);
			if (flush == SYNC_FLUSH) {
				assert_int_equal(rc, INVALID_FLUSH);
				assert_int_equal(s.end_of_stream, 0);
				continue;
			}
			assert_int_equal(rc, COMP_OK);
			/* NO_FLUSH: the final block was written and end_of_stream says so;
			 * FULL_FLUSH leaves the stream open and the field as it was. */
			assert_int_equal(s.end_of_stream, flush == NO_FLUSH);
			assert_int_equal(s.avail_in, 0);
		}
	}
	print_message(
	    "isal_deflate_stateless: NO_FLUSH sets end_of_stream, FULL_FLUSH leaves it\n");
}

static void test_gf_vect_mul_init_base(void **state)
{
	(void)state;
	for (int c = 0; c < 256; c++) {
		unsigned char a[32], b[32];
		memset(b, 0x55, sizeof(b));
		gf_vect_mul_init((unsigned char)c, a);
		gf_vect_mul_init_base((unsigned char)c, b);
		assert_memory_equal(a, b, sizeof(a));
		assert_int_equal(a[1], c);
	}
}

/* isa-l_crypto 2.26's public functions for SHA-1/256/512, MD5, AES-XTS and key expansion. */
static const char *const crypto_names[] = {
	"isal_sha1_ctx_mgr_init",
	"isal_sha1_ctx_mgr_submit",
	"isal_sha1_ctx_mgr_flush",
	"isal_sha256_ctx_mgr_init",
	"isal_sha256_ctx_mgr_submit",
	"isal_sha256_ctx_mgr_flush",
	"isal_sha512_ctx_mgr_init",
	"isal_sha512_ctx_mgr_submit",
	"isal_sha512_ctx_mgr_flush",
	"isal_md5_ctx_mgr_init",
	"isal_md5_ctx_mgr_submit",
	"isal_md5_ctx_mgr_flush",
	"sha1_ctx_mgr_init",
	"sha1_ctx_mgr_submit",
	"sha1_ctx_mgr_flush",
	"sha256_ctx_mgr_init",
	"sha256_ctx_mgr_submit",
	"sha256_ctx_mgr_flush",
	"sha512_ctx_mgr_init",
	"sha512_ctx_mgr_submit",
	"sha512_ctx_mgr_flush",
	"md5_ctx_mgr_init",
	"md5_ctx_mgr_submit",
	"md5_ctx_mgr_flush",
	"isal_aes_xts_enc_128",
	"isal_aes_xts_enc_128_expanded_key",
	"isal_aes_xts_dec_128",
	"isal_aes_xts_dec_128_expanded_key",
	"isal_aes_xts_enc_256",
	"isal_aes_xts_enc_256_expanded_key",
	"isal_aes_xts_dec_256",
	"isal_aes_xts_dec_256_expanded_key",
	"XTS_AES_128_enc",
	"XTS_AES_128_enc_expanded_key",
	"XTS_AES_128_dec",
	"XTS_AES_128_dec_expanded_key",
	"XTS_AES_256_enc",
	"XTS_AES_256_enc_expanded_key",
	"XTS_AES_256_dec",
	"XTS_AES_256_dec_expanded_key",
	"isal_aes_keyexp_128",
	"isal_aes_keyexp_192",
	"isal_aes_keyexp_256",
	"aes_keyexp_128",
	"aes_keyexp_192",
	"aes_keyexp_256",
	"isal_self_tests",
	"isal_crypto_get_version",
	"isal_crypto_get_version_str",
};

/* Names of ISA-L's library, which the isa-l_crypto drop-in must not define. */
static const char *const isal_names[] = {
	"crc32_iscsi",  "ec_encode_data", "isal_deflate",
	"isal_inflate", "xor_gen",        "isal_get_version",
};

static void test_compat_crypto_exports(void **state)
{
	(void)state;
	char exe[PATH_MAX], lib[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = 0;
	*strrchr(exe, '/') = 0;
	snprintf(lib, sizeof(lib), "%s/../compat/libisal_crypto.so.2", exe);
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		TEST_FAIL("dlopen %s: %s\n", lib, dlerror());
	for (size_t i = 0; i < sizeof(crypto_names) / sizeof(crypto_names[0]); i++)
		if (!dlsym(h, crypto_names[i]))
			TEST_FAIL("%s does not export %s\n", lib, crypto_names[i]);
	for (size_t i = 0; i < sizeof(isal_names) / sizeof(isal_names[0]); i++)
		if (dlsym(h, isal_names[i]))
			TEST_FAIL("%s exports ISA-L's %s\n", lib, isal_names[i]);
	int (*self_tests)(void) = (int (*)(void))dlsym(h, "isal_self_tests");
	const char *(*ver)(void) = (const char *(*)(void))dlsym(h, "isal_crypto_get_version_str");
	assert_int_equal(self_tests(), 0);
	assert_string_equal(ver(), ISAL_CRYPTO_VERSION_STR);
	print_message("%s: %zu isa-l_crypto names exported, none of ISA-L's; isal_self_tests "
	              "passes through it\n",
	              lib, sizeof(crypto_names) / sizeof(crypto_names[0]));
	dlclose(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_self_tests),
		cmocka_unit_test(test_stateless_sets_end_of_stream),
		cmocka_unit_test(test_gf_vect_mul_init_base),
		cmocka_unit_test(test_compat_crypto_exports),
	};
	return cmocka_run_group_tests_name("isal_api", tests, NULL, NULL);
}
