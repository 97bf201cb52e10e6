/* ISA-L's and isa-l_crypto's per-instruction-set entry points (the *_isal_names.c files).
 *
 * - Every public function name of ISA-L 2.30 (Debian's libisal.so.2) and of ISA-L 2.32's
 *   libisal.so.2 (the igzip internals and data tables aside) is exported by stoa's compat
 *   libisal.so.2, and isa-l_crypto's per-instruction-set manager names by libisal_crypto.so.2.
 * - Each registered name (common/isal_names.h) is limited to the instruction set ISA-L's
 *   dispatcher requires before choosing it, as this file states it from ISA-L's suffixes, and
 *   the code it runs needs nothing outside that set.
 * - Each gives the dispatched function's results on random inputs, the GFNI-named ones with
 *   tables in either of ISA-L's layouts.
 * - The same checks run again in child processes under every STOA_ISA class; a name that ran an
 *   instruction outside what the class allows would be caught by the cap only through results,
 *   but one that ran an instruction this CPU lacks (GFNI, VAES, VPCLMULQDQ, SHA-NI here) dies
 *   with SIGILL, which fails the test. */
#define _GNU_SOURCE
#define ISAL_DEPRECATED_INTERNAL /* the per-instruction-set names are what is tested */
#define ISAL_UNIT_TEST
#include <dlfcn.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

/* The names, their sets and the classes are x86-64's: ISA-L's per-instruction-set names of other
 * architectures (its aarch64 *_neon, *_sve names) are not exported by stoa yet, and the program
 * says so there. */
#if defined(__x86_64__)
#include "common/isal_names.h"
#include "common/x86/tokens.h"
#include "isa-l.h"
#include "isa-l_crypto.h"
#include "stoa.h"
#include "testutil.h"

/* One name of each *_isal_names.c file, so that the static link brings them all in. */
unsigned int crc32_iscsi_01(unsigned char *buffer, int len, unsigned int init_crc);
uint32_t adler32_sse(uint32_t init, const unsigned char *buf, uint64_t len);
void sha1_ctx_mgr_init_avx2(ISAL_SHA1_HASH_CTX_MGR *mgr);
void ec_init_tables_gfni(int k, int rows, unsigned char *a, unsigned char *gftbls);
void gf_vect_mul_init_gfni(unsigned char c, unsigned char *tbl);
int mem_zero_detect_avx2(void *mem, size_t len);
static void *const pulled[] = { (void *)crc32_iscsi_01, (void *)adler32_sse,
	                        (void *)sha1_ctx_mgr_init_avx2, (void *)ec_init_tables_gfni,
	                        (void *)mem_zero_detect_avx2 };

static const char *const isal_public[] = {
	"adler32_avx2_4",
	"adler32_base",
	"adler32_sse",
	"crc16_t10dif",
	"crc16_t10dif_01",
	"crc16_t10dif_02",
	"crc16_t10dif_avx2",
	"crc16_t10dif_base",
	"crc16_t10dif_by16_10",
	"crc16_t10dif_by4",
	"crc16_t10dif_copy",
	"crc16_t10dif_copy_base",
	"crc16_t10dif_copy_by4",
	"crc16_t10dif_copy_by4_02",
	"crc32_gzip_refl",
	"crc32_gzip_refl_avx2",
	"crc32_gzip_refl_base",
	"crc32_gzip_refl_by16_10",
	"crc32_gzip_refl_by8",
	"crc32_gzip_refl_by8_02",
	"crc32_ieee",
	"crc32_ieee_01",
	"crc32_ieee_02",
	"crc32_ieee_avx2",
	"crc32_ieee_base",
	"crc32_ieee_by16_10",
	"crc32_ieee_by4",
	"crc32_iscsi",
	"crc32_iscsi_00",
	"crc32_iscsi_01",
	"crc32_iscsi_avx2",
	"crc32_iscsi_base",
	"crc32_iscsi_by16_10",
	"crc32_iscsi_by8_02",
	"crc64_ecma_norm",
	"crc64_ecma_norm_avx2",
	"crc64_ecma_norm_base",
	"crc64_ecma_norm_by16_10",
	"crc64_ecma_norm_by8",
	"crc64_ecma_refl",
	"crc64_ecma_refl_avx2",
	"crc64_ecma_refl_base",
	"crc64_ecma_refl_by16_10",
	"crc64_ecma_refl_by8",
	"crc64_iso_norm",
	"crc64_iso_norm_avx2",
	"crc64_iso_norm_base",
	"crc64_iso_norm_by16_10",
	"crc64_iso_norm_by8",
	"crc64_iso_refl",
	"crc64_iso_refl_avx2",
	"crc64_iso_refl_base",
	"crc64_iso_refl_by16_10",
	"crc64_iso_refl_by8",
	"crc64_jones_norm",
	"crc64_jones_norm_avx2",
	"crc64_jones_norm_base",
	"crc64_jones_norm_by16_10",
	"crc64_jones_norm_by8",
	"crc64_jones_refl",
	"crc64_jones_refl_avx2",
	"crc64_jones_refl_base",
	"crc64_jones_refl_by16_10",
	"crc64_jones_refl_by8",
	"crc64_rocksoft_norm",
	"crc64_rocksoft_norm_avx2",
	"crc64_rocksoft_norm_base",
	"crc64_rocksoft_norm_by16_10",
	"crc64_rocksoft_norm_by8",
	"crc64_rocksoft_refl",
	"crc64_rocksoft_refl_avx2",
	"crc64_rocksoft_refl_base",
	"crc64_rocksoft_refl_by16_10",
	"crc64_rocksoft_refl_by8",
	"ec_encode_data",
	"ec_encode_data_avx",
	"ec_encode_data_avx2",
	"ec_encode_data_avx2_gfni",
	"ec_encode_data_avx512",
	"ec_encode_data_avx512_gfni",
	"ec_encode_data_base",
	"ec_encode_data_sse",
	"ec_encode_data_update",
	"ec_encode_data_update_avx",
	"ec_encode_data_update_avx2",
	"ec_encode_data_update_avx2_gfni",
	"ec_encode_data_update_avx512",
	"ec_encode_data_update_avx512_gfni",
	"ec_encode_data_update_base",
	"ec_encode_data_update_sse",
	"ec_init_tables",
	"ec_init_tables_base",
	"ec_init_tables_gfni",
	"gf_2vect_dot_prod_avx",
	"gf_2vect_dot_prod_avx2",
	"gf_2vect_dot_prod_avx2_gfni",
	"gf_2vect_dot_prod_avx512",
	"gf_2vect_dot_prod_avx512_gfni",
	"gf_2vect_dot_prod_sse",
	"gf_2vect_mad_avx",
	"gf_2vect_mad_avx2",
	"gf_2vect_mad_avx2_gfni",
	"gf_2vect_mad_avx512",
	"gf_2vect_mad_avx512_gfni",
	"gf_2vect_mad_sse",
	"gf_3vect_dot_prod_avx",
	"gf_3vect_dot_prod_avx2",
	"gf_3vect_dot_prod_avx2_gfni",
	"gf_3vect_dot_prod_avx512",
	"gf_3vect_dot_prod_avx512_gfni",
	"gf_3vect_dot_prod_sse",
	"gf_3vect_mad_avx",
	"gf_3vect_mad_avx2",
	"gf_3vect_mad_avx2_gfni",
	"gf_3vect_mad_avx512",
	"gf_3vect_mad_avx512_gfni",
	"gf_3vect_mad_sse",
	"gf_4vect_dot_prod_avx",
	"gf_4vect_dot_prod_avx2",
	"gf_4vect_dot_prod_avx512",
	"gf_4vect_dot_prod_avx512_gfni",
	"gf_4vect_dot_prod_sse",
	"gf_4vect_mad_avx",
	"gf_4vect_mad_avx2",
	"gf_4vect_mad_avx2_gfni",
	"gf_4vect_mad_avx512",
	"gf_4vect_mad_avx512_gfni",
	"gf_4vect_mad_sse",
	"gf_5vect_dot_prod_avx",
	"gf_5vect_dot_prod_avx2",
	"gf_5vect_dot_prod_avx512",
	"gf_5vect_dot_prod_avx512_gfni",
	"gf_5vect_dot_prod_sse",
	"gf_5vect_mad_avx",
	"gf_5vect_mad_avx2",
	"gf_5vect_mad_avx2_gfni",
	"gf_5vect_mad_avx512",
	"gf_5vect_mad_avx512_gfni",
	"gf_5vect_mad_sse",
	"gf_6vect_dot_prod_avx",
	"gf_6vect_dot_prod_avx2",
	"gf_6vect_dot_prod_avx512",
	"gf_6vect_dot_prod_avx512_gfni",
	"gf_6vect_dot_prod_sse",
	"gf_6vect_mad_avx",
	"gf_6vect_mad_avx2",
	"gf_6vect_mad_avx512",
	"gf_6vect_mad_avx512_gfni",
	"gf_6vect_mad_sse",
	"gf_gen_cauchy1_matrix",
	"gf_gen_rs_matrix",
	"gf_inv",
	"gf_invert_matrix",
	"gf_mul",
	"gf_vect_dot_prod",
	"gf_vect_dot_prod_avx",
	"gf_vect_dot_prod_avx2",
	"gf_vect_dot_prod_avx2_gfni",
	"gf_vect_dot_prod_avx512",
	"gf_vect_dot_prod_avx512_gfni",
	"gf_vect_dot_prod_base",
	"gf_vect_dot_prod_sse",
	"gf_vect_mad",
	"gf_vect_mad_avx",
	"gf_vect_mad_avx2",
	"gf_vect_mad_avx2_gfni",
	"gf_vect_mad_avx512",
	"gf_vect_mad_avx512_gfni",
	"gf_vect_mad_base",
	"gf_vect_mad_sse",
	"gf_vect_mul",
	"gf_vect_mul_avx",
	"gf_vect_mul_avx2_gfni",
	"gf_vect_mul_base",
	"gf_vect_mul_init",
	"gf_vect_mul_init_base",
	"gf_vect_mul_init_gfni",
	"gf_vect_mul_sse",
	"isal_adler32",
	"isal_adler32_bam1",
	"isal_create_hufftables",
	"isal_create_hufftables_subset",
	"isal_deflate",
	"isal_deflate_init",
	"isal_deflate_process_dict",
	"isal_deflate_reset",
	"isal_deflate_reset_dict",
	"isal_deflate_set_dict",
	"isal_deflate_set_hufftables",
	"isal_deflate_stateless",
	"isal_deflate_stateless_init",
	"isal_get_version",
	"isal_get_version_str",
	"isal_gzip_header_init",
	"isal_inflate",
	"isal_inflate_init",
	"isal_inflate_reset",
	"isal_inflate_set_dict",
	"isal_inflate_stateless",
	"isal_read_gzip_header",
	"isal_read_zlib_header",
	"isal_update_histogram",
	"isal_update_histogram_01",
	"isal_update_histogram_04",
	"isal_update_histogram_base",
	"isal_write_gzip_header",
	"isal_write_zlib_header",
	"isal_zero_detect",
	"isal_zlib_header_init",
	"mem_zero_detect_avx",
	"mem_zero_detect_avx2",
	"mem_zero_detect_avx512",
	"mem_zero_detect_base",
	"mem_zero_detect_sse",
	"pq_check",
	"pq_check_base",
	"pq_check_sse",
	"pq_gen",
	"pq_gen_avx",
	"pq_gen_avx2",
	"pq_gen_avx2_gfni",
	"pq_gen_avx512",
	"pq_gen_avx512_gfni",
	"pq_gen_base",
	"pq_gen_sse",
	"xor_check",
	"xor_check_base",
	"xor_check_sse",
	"xor_gen",
	"xor_gen_avx",
	"xor_gen_avx512",
	"xor_gen_base",
	"xor_gen_sse",
};

static const char *const crypto_isa_names[] = {
	"md5_ctx_mgr_flush_avx",        "md5_ctx_mgr_flush_avx2",
	"md5_ctx_mgr_flush_avx512",     "md5_ctx_mgr_flush_sse",
	"md5_ctx_mgr_init_avx",         "md5_ctx_mgr_init_avx2",
	"md5_ctx_mgr_init_avx512",      "md5_ctx_mgr_init_sse",
	"md5_ctx_mgr_submit_avx",       "md5_ctx_mgr_submit_avx2",
	"md5_ctx_mgr_submit_avx512",    "md5_ctx_mgr_submit_sse",
	"sha1_ctx_mgr_flush_avx",       "sha1_ctx_mgr_flush_avx2",
	"sha1_ctx_mgr_flush_avx512",    "sha1_ctx_mgr_flush_avx512_ni",
	"sha1_ctx_mgr_flush_sse",       "sha1_ctx_mgr_flush_sse_ni",
	"sha1_ctx_mgr_init_avx",        "sha1_ctx_mgr_init_avx2",
	"sha1_ctx_mgr_init_avx512",     "sha1_ctx_mgr_init_avx512_ni",
	"sha1_ctx_mgr_init_sse",        "sha1_ctx_mgr_init_sse_ni",
	"sha1_ctx_mgr_submit_avx",      "sha1_ctx_mgr_submit_avx2",
	"sha1_ctx_mgr_submit_avx512",   "sha1_ctx_mgr_submit_avx512_ni",
	"sha1_ctx_mgr_submit_sse",      "sha1_ctx_mgr_submit_sse_ni",
	"sha256_ctx_mgr_flush_avx",     "sha256_ctx_mgr_flush_avx2",
	"sha256_ctx_mgr_flush_avx512",  "sha256_ctx_mgr_flush_avx512_ni",
	"sha256_ctx_mgr_flush_sse",     "sha256_ctx_mgr_flush_sse_ni",
	"sha256_ctx_mgr_init_avx",      "sha256_ctx_mgr_init_avx2",
	"sha256_ctx_mgr_init_avx512",   "sha256_ctx_mgr_init_avx512_ni",
	"sha256_ctx_mgr_init_sse",      "sha256_ctx_mgr_init_sse_ni",
	"sha256_ctx_mgr_submit_avx",    "sha256_ctx_mgr_submit_avx2",
	"sha256_ctx_mgr_submit_avx512", "sha256_ctx_mgr_submit_avx512_ni",
	"sha256_ctx_mgr_submit_sse",    "sha256_ctx_mgr_submit_sse_ni",
	"sha512_ctx_mgr_flush_avx",     "sha512_ctx_mgr_flush_avx2",
	"sha512_ctx_mgr_flush_avx512",  "sha512_ctx_mgr_flush_sb_sse4",
	"sha512_ctx_mgr_flush_sse",     "sha512_ctx_mgr_init_avx",
	"sha512_ctx_mgr_init_avx2",     "sha512_ctx_mgr_init_avx512",
	"sha512_ctx_mgr_init_sb_sse4",  "sha512_ctx_mgr_init_sse",
	"sha512_ctx_mgr_submit_avx",    "sha512_ctx_mgr_submit_avx2",
	"sha512_ctx_mgr_submit_avx512", "sha512_ctx_mgr_submit_sb_sse4",
	"sha512_ctx_mgr_submit_sse",
};

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* The instruction set ISA-L's dispatchers require before choosing a name, from its suffix. */
static uint64_t expected_set(const struct stoa_isal_name *e)
{
	const char *n = e->name;
	const int crc = strncmp(n, "crc", 3) == 0;
	const uint64_t g2 = STOA_CPU_PCLMUL | STOA_CPU_GFNI | STOA_CPU_VAES | STOA_CPU_VPCLMUL;
	if (strncmp(n, "isal_update_histogram", 21) == 0)
		return 0; /* one portable routine */
	if (crc) {
		if (ends_with(n, "_00"))
			return STOA_NEED_sse42;
		if (ends_with(n, "_by16_10"))
			return STOA_NEED_avx512 | g2;
		if (ends_with(n, "_avx2"))
			return STOA_NEED_avx2 | g2;
		if (ends_with(n, "_02"))
			return STOA_NEED_pclmul | STOA_CPU_AVX;
		if (ends_with(n, "_01") || ends_with(n, "_by4") || ends_with(n, "_by8"))
			return STOA_NEED_pclmul;
	}
	if (ends_with(n, "_avx512_gfni"))
		return STOA_NEED_avx512_gfni;
	if (ends_with(n, "_avx2_gfni"))
		return STOA_NEED_avx2_gfni;
	if (ends_with(n, "_avx512_ni"))
		return STOA_NEED_avx512 | STOA_CPU_SHANI;
	if (ends_with(n, "_sse_ni"))
		return STOA_NEED_sse42 | STOA_CPU_SHANI;
	if (ends_with(n, "_avx512"))
		return STOA_NEED_avx512;
	if (ends_with(n, "_avx2") || ends_with(n, "_avx2_4"))
		return STOA_NEED_avx2;
	if (ends_with(n, "_avx"))
		return STOA_NEED_sse42 | STOA_CPU_AVX;
	if (ends_with(n, "_sse") || ends_with(n, "_sb_sse4"))
		return STOA_NEED_sse42;
	return ~0ull; /* unknown suffix: fails below */
}

static size_t registry_count(void)
{
	return (size_t)(__stop_stoa_isal_names - __start_stoa_isal_names);
}

static void test_sets(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(pulled) / sizeof(pulled[0]); i++)
		assert_non_null(pulled[i]);
	size_t n = registry_count(), within = 0;
	assert_true(n >= 200);
	for (size_t i = 0; i < n; i++) {
		const struct stoa_isal_name *e = __start_stoa_isal_names[i];
		if (e->set != expected_set(e))
			TEST_FAIL("%s: set %llx, ISA-L's is %llx\n", e->name,
			          (unsigned long long)e->set, (unsigned long long)expected_set(e));
		if (!e->func)
			continue;
		const struct stoa_func *f = stoa_find_func(e->func);
		if (!f)
			TEST_FAIL("%s: no dispatched function %s\n", e->name, e->func);
		const struct stoa_variant *v = stoa_select_within(f->variants, f->count, e->set);
		if ((v->need & ~e->set) || !stoa_variant_usable(v))
			TEST_FAIL("%s runs %s, which needs %llx outside its set\n", e->name,
			          v->name, (unsigned long long)(v->need & ~e->set));
		within++;
	}
	print_message("%zu per-instruction-set names registered; each has ISA-L's set, and the %zu "
	              "backed by a table run a variant inside it\n",
	              n, within);
}

static void *open_compat(const char *lib)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = 0;
	*strrchr(exe, '/') = 0;
	snprintf(path, sizeof(path), "%s/../compat/%s", exe, lib);
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		TEST_FAIL("dlopen %s: %s\n", path, dlerror());
	return h;
}

static void test_exports(void **state)
{
	(void)state;
	void *h = open_compat("libisal.so.2");
	for (size_t i = 0; i < sizeof(isal_public) / sizeof(isal_public[0]); i++)
		if (!dlsym(h, isal_public[i]))
			TEST_FAIL("libisal.so.2 does not export %s\n", isal_public[i]);
	for (size_t i = 0; i < registry_count(); i++)
		if (!dlsym(h, __start_stoa_isal_names[i]->name))
			TEST_FAIL("libisal.so.2 does not export %s\n",
			          __start_stoa_isal_names[i]->name);
	dlclose(h);
	h = open_compat("libisal_crypto.so.2");
	for (size_t i = 0; i < sizeof(crypto_isa_names) / sizeof(crypto_isa_names[0]); i++)
		if (!dlsym(h, crypto_isa_names[i]))
			TEST_FAIL("libisal_crypto.so.2 does not export %s\n", crypto_isa_names[i]);
	dlclose(h);
	print_message("libisal.so.2 exports all %zu public names of ISA-L 2.30 and 2.32; "
	              "libisal_crypto.so.2 the %zu per-instruction-set names of isa-l_crypto\n",
	              sizeof(isal_public) / sizeof(isal_public[0]),
	              sizeof(crypto_isa_names) / sizeof(crypto_isa_names[0]));
}

/* ISA-L's GFNI tables: a few known bytes (read from ISA-L 2.32's gf_vect_mul_init_gfni), and for
 * every c the meaning GF2P8AFFINEQB gives the matrix, evaluated bit by bit: bit i of the product
 * is the parity of matrix byte 7 - i AND x. */
static void test_gfni_tables(void **state)
{
	(void)state;
	static const struct {
		uint8_t c;
		uint8_t m[8];
	} known[] = {
		{ 1, { 0x80, 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01 } },
		{ 2, { 0x40, 0x20, 0x10, 0x88, 0x84, 0x82, 0x01, 0x80 } },
		{ 29, { 0x38, 0x1c, 0x8e, 0x47, 0x1b, 0xb5, 0xe2, 0x71 } },
		{ 142, { 0x01, 0x80, 0x40, 0x20, 0x11, 0x09, 0x05, 0x02 } },
		{ 255, { 0x2f, 0x97, 0xcb, 0x65, 0x1d, 0x21, 0xbf, 0x5f } },
	};
	uint8_t t[32];
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		gf_vect_mul_init_gfni(known[i].c, t);
		for (int q = 0; q < 4; q++)
			assert_memory_equal(t + 8 * q, known[i].m, 8);
	}
	for (int c = 0; c < 256; c++) {
		gf_vect_mul_init_gfni((uint8_t)c, t);
		for (int x = 0; x < 256; x++) {
			uint8_t y = 0;
			for (int bit = 0; bit < 8; bit++)
				y |= (uint8_t)((__builtin_popcount(t[7 - bit] & x) & 1) << bit);
			if (y != gf_mul((uint8_t)c, (uint8_t)x))
				TEST_FAIL("gf_vect_mul_init_gfni(%d) maps %d to %d, not %d\n", c, x,
				          y, gf_mul((uint8_t)c, (uint8_t)x));
		}
	}
	print_message("gf_vect_mul_init_gfni: ISA-L's bytes, and c * x for every c and x\n");
}

/* ---- results against the dispatched functions ---- */

typedef void encode_fn(int, int, int, unsigned char *, unsigned char **, unsigned char **);
typedef void update_fn(int, int, int, int, unsigned char *, unsigned char *, unsigned char **);
typedef void dot_fn(int, int, unsigned char *, unsigned char **, unsigned char *);
typedef void dot_n_fn(int, int, unsigned char *, unsigned char **, unsigned char **);
typedef void mad_fn(int, int, int, unsigned char *, unsigned char *, unsigned char *);
typedef void mad_n_fn(int, int, int, unsigned char *, unsigned char *, unsigned char **);
typedef int mul_fn(int, unsigned char *, void *, void *);
typedef int raid_fn(int, int, void **);
typedef int zero_fn(void *, size_t);
typedef uint16_t t10_fn(uint16_t, const unsigned char *, uint64_t);
typedef uint16_t copy_fn(uint16_t, uint8_t *, uint8_t *, uint64_t);
typedef uint32_t crc32_fn(uint32_t, const unsigned char *, uint64_t);
typedef unsigned int iscsi_fn(unsigned char *, int, unsigned int);
typedef uint64_t crc64_fn(uint64_t, const unsigned char *, uint64_t);
typedef void hist_fn(uint8_t *, int, struct isal_huff_histogram *);

#define MAXK   12
#define MAXR   6
#define MAXLEN 3000

struct ec_case {
	int len, k, rows, vec_i;
	uint8_t coef[MAXK * MAXR];
	uint8_t tbls[32 * MAXK * MAXR], gfni[32 * MAXK * MAXR];
	uint8_t *src[MAXK], *want[MAXR], *got[MAXR];
};

static void ec_case_new(struct ec_case *c, int rows)
{
	c->len = 1 + (int)test_rand_below(MAXLEN);
	c->k = 1 + (int)test_rand_below(MAXK);
	c->rows = rows;
	c->vec_i = (int)test_rand_below((uint64_t)c->k);
	test_fill_random(c->coef, sizeof(c->coef));
	ec_init_tables(c->k, rows, c->coef, c->tbls);
	ec_init_tables_gfni(c->k, rows, c->coef, c->gfni);
	for (int j = 0; j < c->k; j++) {
		c->src[j] = malloc(MAXLEN);
		test_fill_random(c->src[j], MAXLEN);
	}
	for (int r = 0; r < MAXR; r++) {
		c->want[r] = malloc(MAXLEN);
		c->got[r] = malloc(MAXLEN);
		test_fill_random(c->want[r], MAXLEN);
		memcpy(c->got[r], c->want[r], MAXLEN);
	}
}

static void ec_case_check(struct ec_case *c, const char *name, int layout)
{
	for (int r = 0; r < c->rows; r++)
		if (memcmp(c->want[r], c->got[r], (size_t)c->len) != 0)
			TEST_FAIL(
			    "%s (%s tables) differs from the dispatched function: len %d k %d "
			    "rows %d, output %d\n",
			    name, layout ? "GFNI" : "portable", c->len, c->k, c->rows, r);
	for (int j = 0; j < c->k; j++)
		free(c->src[j]);
	for (int r = 0; r < MAXR; r++) {
		free(c->want[r]);
		free(c->got[r]);
	}
}

static void check_ec(const struct stoa_isal_name *e)
{
	const char *f = e->func;
	for (int layout = 0; layout < 2; layout++) {
		struct ec_case c;
		int rows = e->outputs ? e->outputs : 1 + (int)test_rand_below(MAXR);
		if (strcmp(f, "gf_vect_dot_prod") == 0 || strcmp(f, "gf_vect_mad") == 0 ||
		    strcmp(f, "gf_vect_mul") == 0)
			rows = 1;
		ec_case_new(&c, rows);
		uint8_t *t = layout ? c.gfni : c.tbls;
		if (strcmp(f, "ec_encode_data") == 0) {
			ec_encode_data(c.len, c.k, rows, c.tbls, c.src, c.want);
			if (e->outputs)
				((dot_n_fn *)e->fn)(c.len, c.k, t, c.src, c.got);
			else
				((encode_fn *)e->fn)(c.len, c.k, rows, t, c.src, c.got);
		} else if (strcmp(f, "ec_encode_data_update") == 0) {
			ec_encode_data_update(c.len, c.k, rows, c.vec_i, c.tbls, c.src[c.vec_i],
			                      c.want);
			if (e->outputs)
				((mad_n_fn *)e->fn)(c.len, c.k, c.vec_i, t, c.src[c.vec_i], c.got);
			else
				((update_fn *)e->fn)(c.len, c.k, rows, c.vec_i, t, c.src[c.vec_i],
				                     c.got);
		} else if (strcmp(f, "gf_vect_dot_prod") == 0) {
			gf_vect_dot_prod(c.len, c.k, c.tbls, c.src, c.want[0]);
			((dot_fn *)e->fn)(c.len, c.k, t, c.src, c.got[0]);
		} else if (strcmp(f, "gf_vect_mad") == 0) {
			gf_vect_mad(c.len, c.k, c.vec_i, c.tbls, c.src[c.vec_i], c.want[0]);
			((mad_fn *)e->fn)(c.len, c.k, c.vec_i, t, c.src[c.vec_i], c.got[0]);
		} else {
			assert_int_equal(gf_vect_mul(c.len, c.tbls, c.src[0], c.want[0]),
			                 ((mul_fn *)e->fn)(c.len, t, c.src[0], c.got[0]));
		}
		ec_case_check(&c, e->name, layout);
	}
}

static void check_raid(const struct stoa_isal_name *e)
{
	enum { V = 8, L = 4096 };
	uint8_t *a[V], *b[V];
	const int vects = 4 + (int)test_rand_below(V - 3);
	const int len = 64 * (1 + (int)test_rand_below(L / 64));
	for (int i = 0; i < V; i++) {
		a[i] = malloc(L);
		b[i] = malloc(L);
		test_fill_random(a[i], L);
		memcpy(b[i], a[i], L);
	}
	if (strcmp(e->func, "isal_zero_detect") == 0) {
		memset(a[0], 0, L);
		if (test_rand_below(2))
			a[0][test_rand_below(L)] = 1;
		size_t n = test_rand_below(L + 1);
		assert_int_equal(isal_zero_detect(a[0], n) == 0, ((zero_fn *)e->fn)(a[0], n) == 0);
	} else {
		raid_fn *want = strcmp(e->func, "xor_gen") == 0     ? xor_gen
		                : strcmp(e->func, "xor_check") == 0 ? xor_check
		                : strcmp(e->func, "pq_gen") == 0    ? pq_gen
		                                                    : pq_check;
		if (strcmp(e->func, "xor_check") == 0 || strcmp(e->func, "pq_check") == 0) {
			(strcmp(e->func, "xor_check") == 0 ? xor_gen : pq_gen)(vects, len,
			                                                       (void **)a);
			memcpy(b[vects - 1], a[vects - 1], L);
			memcpy(b[vects - 2], a[vects - 2], L);
			if (test_rand_below(2))
				a[vects - 1][test_rand_below((uint64_t)len)] ^= 1;
			memcpy(b[vects - 1], a[vects - 1], L);
		}
		int rw = want(vects, len, (void **)a);
		int rg = ((raid_fn *)e->fn)(vects, len, (void **)b);
		assert_int_equal(rw, rg);
		for (int i = 0; i < vects; i++)
			if (memcmp(a[i], b[i], L) != 0)
				TEST_FAIL("%s: buffer %d differs (vects %d len %d)\n", e->name, i,
				          vects, len);
	}
	for (int i = 0; i < V; i++) {
		free(a[i]);
		free(b[i]);
	}
}

static void check_crc(const struct stoa_isal_name *e)
{
	uint8_t buf[5000], d1[5000], d2[5000];
	test_fill_random(buf, sizeof(buf));
	const uint64_t len = test_rand_below(sizeof(buf) + 1);
	const uint64_t init = test_rand();
	const char *f = e->func;
	int same;
	if (strcmp(f, "crc16_t10dif") == 0)
		same = crc16_t10dif((uint16_t)init, buf, len) ==
		       ((t10_fn *)e->fn)((uint16_t)init, buf, len);
	else if (strcmp(f, "crc16_t10dif_copy") == 0)
		same = crc16_t10dif_copy((uint16_t)init, d1, buf, len) ==
		           ((copy_fn *)e->fn)((uint16_t)init, d2, buf, len) &&
		       memcmp(d1, d2, len) == 0;
	else if (strcmp(f, "crc32_ieee") == 0)
		same = crc32_ieee((uint32_t)init, buf, len) ==
		       ((crc32_fn *)e->fn)((uint32_t)init, buf, len);
	else if (strcmp(f, "crc32_gzip_refl") == 0)
		same = crc32_gzip_refl((uint32_t)init, buf, len) ==
		       ((crc32_fn *)e->fn)((uint32_t)init, buf, len);
	else if (strcmp(f, "crc32_iscsi") == 0)
		same = crc32_iscsi(buf, (int)len, (unsigned)init) ==
		       ((iscsi_fn *)e->fn)(buf, (int)len, (unsigned)init);
	else {
		/* the crc64 functions: the variant their dispatch picked */
		const struct stoa_func *sf = stoa_find_func(f);
		crc64_fn *ref = (crc64_fn *)stoa_select(sf->variants, sf->count)->fn;
		same = ref(init, buf, len) == ((crc64_fn *)e->fn)(init, buf, len);
	}
	if (!same)
		TEST_FAIL("%s differs from %s at len %llu\n", e->name, f, (unsigned long long)len);
}

static void check_igzip(const struct stoa_isal_name *e)
{
	uint8_t buf[3000];
	test_fill_random(buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i += 1 + test_rand_below(40))
		buf[i] = 'a';
	if (!e->func) {
		struct isal_huff_histogram h1, h2;
		memset(&h1, 0, sizeof(h1));
		memset(&h2, 0, sizeof(h2));
		isal_update_histogram(buf, sizeof(buf), &h1);
		((hist_fn *)e->fn)(buf, sizeof(buf), &h2);
		assert_memory_equal(h1.lit_len_histogram, h2.lit_len_histogram,
		                    sizeof(h1.lit_len_histogram));
		assert_memory_equal(h1.dist_histogram, h2.dist_histogram,
		                    sizeof(h1.dist_histogram));
		return;
	}
	const uint32_t init = (uint32_t)test_rand() % 65521u;
	const uint64_t len = test_rand_below(sizeof(buf) + 1);
	assert_int_equal(isal_adler32(init, buf, len), ((crc32_fn *)e->fn)(init, buf, len));
}

/* The hash names: a manager set up by the init name and driven by the submit and flush names
 * of the same set hashes as stoa's one-call function. */
#define CHECK_HASH(alg, CTX, MGR, DIGEST_LEN, NWORDS, WORD)                                        \
	static void check_##alg(const char *isa)                                                   \
	{                                                                                          \
		char name[64];                                                                     \
		snprintf(name, sizeof(name), #alg "_ctx_mgr_init_%s", isa);                        \
		void (*init)(MGR *) = NULL;                                                        \
		CTX *(*submit)(MGR *, CTX *, const void *, uint32_t, ISAL_HASH_CTX_FLAG) = NULL;   \
		CTX *(*flush)(MGR *) = NULL;                                                       \
		for (size_t i = 0; i < registry_count(); i++) {                                    \
			const struct stoa_isal_name *e = __start_stoa_isal_names[i];               \
			char want[64];                                                             \
			snprintf(want, sizeof(want), #alg "_ctx_mgr_init_%s", isa);                \
			if (strcmp(e->name, want) == 0)                                            \
				init = (void (*)(MGR *))e->fn;                                     \
			snprintf(want, sizeof(want), #alg "_ctx_mgr_submit_%s", isa);              \
			if (strcmp(e->name, want) == 0)                                            \
				submit = (CTX * (*)(MGR *, CTX *, const void *, uint32_t,          \
				                    ISAL_HASH_CTX_FLAG)) e->fn;                    \
			snprintf(want, sizeof(want), #alg "_ctx_mgr_flush_%s", isa);               \
			if (strcmp(e->name, want) == 0)                                            \
				flush = (CTX * (*)(MGR *)) e->fn;                                  \
		}                                                                                  \
		assert_non_null(init);                                                             \
		assert_non_null(submit);                                                           \
		assert_non_null(flush);                                                            \
		enum { JOBS = 20, LEN = 700 };                                                     \
		MGR *mgr = aligned_alloc(64, (sizeof(MGR) + 63) & ~(size_t)63);                    \
		CTX *ctx = aligned_alloc(64, (sizeof(CTX) * JOBS + 63) & ~(size_t)63);             \
		uint8_t *data = malloc(JOBS * LEN);                                                \
		test_fill_random(data, JOBS *LEN);                                                 \
		init(mgr);                                                                         \
		for (int j = 0; j < JOBS; j++) {                                                   \
			isal_hash_ctx_init(&ctx[j]);                                               \
			submit(mgr, &ctx[j], data + j * LEN, (uint32_t)(j * 31 % LEN),             \
			       ISAL_HASH_ENTIRE);                                                  \
		}                                                                                  \
		while (flush(mgr))                                                                 \
			;                                                                          \
		for (int j = 0; j < JOBS; j++) {                                                   \
			unsigned char want[DIGEST_LEN], got[DIGEST_LEN];                           \
			stoa_##alg(data + j * LEN, (size_t)(j * 31 % LEN), want);                  \
			for (int w = 0; w < NWORDS; w++)                                           \
				WORD(got, w, ctx[j].job.result_digest[w]);                         \
			if (memcmp(want, got, DIGEST_LEN) != 0)                                    \
				TEST_FAIL("%s: job %d's digest differs\n", name, j);               \
		}                                                                                  \
		free(data);                                                                        \
		free(ctx);                                                                         \
		free(mgr);                                                                         \
	}

/* Digest word w of a job into the digest's bytes, in the algorithm's byte order. */
static void word_be32(unsigned char *p, int w, uint64_t v)
{
	put_be32(p + 4 * w, (uint32_t)v);
}
static void word_be64(unsigned char *p, int w, uint64_t v)
{
	put_be32(p + 8 * w, (uint32_t)(v >> 32));
	put_be32(p + 8 * w + 4, (uint32_t)v);
}
static void word_le32(unsigned char *p, int w, uint64_t v)
{
	put_le32(p + 4 * w, (uint32_t)v);
}

CHECK_HASH(sha1, ISAL_SHA1_HASH_CTX, ISAL_SHA1_HASH_CTX_MGR, 20, 5, word_be32)
CHECK_HASH(sha256, ISAL_SHA256_HASH_CTX, ISAL_SHA256_HASH_CTX_MGR, 32, 8, word_be32)
CHECK_HASH(sha512, ISAL_SHA512_HASH_CTX, ISAL_SHA512_HASH_CTX_MGR, 64, 8, word_be64)
CHECK_HASH(md5, ISAL_MD5_HASH_CTX, ISAL_MD5_HASH_CTX_MGR, 16, 4, word_le32)

static void check_hash(const struct stoa_isal_name *e)
{
	const char *isa = strstr(e->name, "_init_");
	if (!isa)
		return; /* submit and flush: driven together with their init */
	isa += 6;
	if (strncmp(e->name, "sha1_", 5) == 0)
		check_sha1(isa);
	else if (strncmp(e->name, "sha256_", 7) == 0)
		check_sha256(isa);
	else if (strncmp(e->name, "sha512_", 7) == 0)
		check_sha512(isa);
	else
		check_md5(isa);
}

static void test_results(void **state)
{
	(void)state;
	size_t checked = 0;
	for (size_t i = 0; i < registry_count(); i++) {
		const struct stoa_isal_name *e = __start_stoa_isal_names[i];
		const char *n = e->name;
		for (int rep = 0; rep < 3; rep++) {
			if (strstr(n, "_ctx_mgr_"))
				check_hash(e);
			else if (strncmp(n, "crc", 3) == 0)
				check_crc(e);
			else if (strncmp(n, "adler32", 7) == 0 || !e->func)
				check_igzip(e);
			else if (strncmp(n, "xor_", 4) == 0 || strncmp(n, "pq_", 3) == 0 ||
			         strncmp(n, "mem_zero", 8) == 0)
				check_raid(e);
			else
				check_ec(e);
		}
		checked++;
	}
	print_message("%zu names (STOA_ISA=%s) give the dispatched functions' results on random "
	              "inputs; the GFNI-named and all EC names with tables of both ISA-L layouts\n",
	              checked, getenv("STOA_ISA") ? getenv("STOA_ISA") : "unset");
}

/* The results again in a child process under each STOA_ISA class: a name that used an
 * instruction this CPU lacks would die there with SIGILL. */
static void test_under_caps(void **state)
{
	(void)state;
	static const char *const caps[] = { "base", "x86-64-v2", "x86-64-v3", "x86-64-v4",
		                            "native" };
	if (getenv("STOA_TEST_CHILD"))
		skip();
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		FILE *log = tmpfile();
		assert_non_null(log);
		fflush(NULL);
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			setenv("STOA_ISA", caps[i], 1);
			setenv("STOA_TEST_CHILD", "1", 1);
			dup2(fileno(log), 1);
			dup2(fileno(log), 2);
			execl("/proc/self/exe", "test_isal_names", (char *)NULL);
			_exit(127);
		}
		int st;
		assert_int_equal(waitpid(pid, &st, 0), pid);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			char line[512];
			rewind(log);
			while (fgets(line, sizeof(line), log))
				fputs(line, stderr);
		}
		fclose(log);
		if (WIFSIGNALED(st))
			TEST_FAIL("under STOA_ISA=%s the names died with signal %d\n", caps[i],
			          WTERMSIG(st));
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			TEST_FAIL("under STOA_ISA=%s the checks failed (exit %d)\n", caps[i],
			          WEXITSTATUS(st));
	}
	print_message("every name checked again under STOA_ISA=base, x86-64-v2, v3, v4 and "
	              "native: no signal, same results\n");
}

int main(void)
{
	test_seed();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sets),        cmocka_unit_test(test_exports),
		cmocka_unit_test(test_gfni_tables), cmocka_unit_test(test_results),
		cmocka_unit_test(test_under_caps),
	};
	return cmocka_run_group_tests_name("isal_names", tests, NULL, NULL);
}
#else
static void test_no_names(void **state)
{
	(void)state;
	print_message("this architecture has no per-instruction-set ISA-L names in stoa\n");
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_no_names) };
	return cmocka_run_group_tests_name("isal_names", tests, NULL, NULL);
}
#endif
