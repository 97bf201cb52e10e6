/* AES module tests: XTS-AES-128/256 and key expansion.
 *
 * Evidence: IEEE 1619-2007 known answers and FIPS-197 key expansion and block answers; OpenSSL
 * (EVP_aes_{128,256}_xts, AES_set_{en,de}crypt_key) as an independent oracle for every length
 * 16..4096 with random keys and tweaks, in place and out of place, for every callable form (each
 * usable table entry, raw-key and expanded-key, the exported XTS_AES_* names and the checked
 * isal_* ones), in buffers that end at an inaccessible page; every variant against the portable
 * one at random lengths up to 1 MiB, every alignment, buffers that start after an inaccessible
 * page; decryption undoing encryption; the checked forms' error codes; lengths under one block
 * touching nothing; and the stack below a call holding no round key or tweak afterwards (not
 * under AddressSanitizer, which rearranges stack frames).
 *
 * Everything random comes from test_rand(), so STOA_SEED=N repeats a run exactly. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The older names are marked deprecated; the tests call them on purpose. */
#define ISAL_UNIT_TEST
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/aes.h>
#include <openssl/evp.h>

#include "aes/aes_internal.h"
#include "isa-l_crypto.h"
#include "stoa.h"
#include "testutil.h"

#define SCHED 240 /* bytes of the largest schedule, 15 round keys */

/* ---- helpers ---- */

static size_t unhex(uint8_t *out, const char *hex)
{
	size_t n = strlen(hex) / 2;
	for (size_t i = 0; i < n; i++) {
		unsigned v;
		sscanf(hex + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
	return n;
}

static void dump(const char *what, const uint8_t *p, size_t n)
{
	print_error("  %s:", what);
	for (size_t i = 0; i < n && i < 64; i++)
		print_error("%s%02x", i % 16 ? "" : " ", p[i]);
	print_error("%s\n", n > 64 ? " ..." : "");
}

/* The first differing byte, or -1. */
static long first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return (long)i;
	return -1;
}

/* OpenSSL's XTS: its key is the data key k1 followed by the tweak key k2. */
static void ossl_xts(int bits, int enc, const uint8_t *k1, const uint8_t *k2, const uint8_t *tw,
		     const uint8_t *in, uint8_t *out, size_t len)
{
	uint8_t key[64];
	int kb = bits / 8, n = 0;
	memcpy(key, k1, kb);
	memcpy(key + kb, k2, kb);
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	assert_non_null(c);
	assert_int_equal(EVP_CipherInit_ex(c, bits == 128 ? EVP_aes_128_xts() : EVP_aes_256_xts(),
					   NULL, key, tw, enc),
			 1);
	assert_int_equal(EVP_CipherUpdate(c, out, &n, in, (int)len), 1);
	assert_int_equal(n, (int)len);
	EVP_CIPHER_CTX_free(c);
}

/* ---- every callable form of one XTS function ---- */

typedef int checked_fn(const uint8_t *k2, const uint8_t *k1, const uint8_t *tw, const uint64_t len,
		       const void *in, void *out);

struct form {
	char label[40];
	int bits, dec, expanded, checked;
	stoa_fnptr fn;
};

#define MAX_FORMS 16

struct form_set {
	struct form f[MAX_FORMS];
	size_t n, skipped;
};

/* Keys in both shapes: raw, and the schedules the expanded-key forms take. */
struct keys {
	uint8_t k1[32], k2[32];
	uint8_t k1_enc[SCHED], k1_dec[SCHED], k2_enc[SCHED];
};

static void keys_random(struct keys *k, int bits)
{
	test_fill_random(k->k1, sizeof(k->k1));
	test_fill_random(k->k2, sizeof(k->k2));
	aes_expand_key_portable(k->k1, bits / 32, k->k1_enc, k->k1_dec);
	aes_expand_key_portable(k->k2, bits / 32, k->k2_enc, NULL);
}

static void add_form(struct form_set *s, const char *label, int bits, int dec, int expanded,
		     int checked, stoa_fnptr fn)
{
	assert_true(s->n < MAX_FORMS);
	struct form *f = &s->f[s->n++];
	snprintf(f->label, sizeof(f->label), "%s", label);
	f->bits = bits;
	f->dec = dec;
	f->expanded = expanded;
	f->checked = checked;
	f->fn = fn;
}

#define FN(f) ((stoa_fnptr)(f))

/* The usable entries of both tables, then the exported names. */
static void forms_of(struct form_set *s, int bits, int dec)
{
	static const struct {
		const char *raw, *exp;
		stoa_fnptr pub, pub_exp, isal, isal_exp;
	} api[2][2] = {
		{ { "XTS_AES_128_enc", "XTS_AES_128_enc_expanded_key", FN(XTS_AES_128_enc),
		    FN(XTS_AES_128_enc_expanded_key), FN(isal_aes_xts_enc_128),
		    FN(isal_aes_xts_enc_128_expanded_key) },
		  { "XTS_AES_128_dec", "XTS_AES_128_dec_expanded_key", FN(XTS_AES_128_dec),
		    FN(XTS_AES_128_dec_expanded_key), FN(isal_aes_xts_dec_128),
		    FN(isal_aes_xts_dec_128_expanded_key) } },
		{ { "XTS_AES_256_enc", "XTS_AES_256_enc_expanded_key", FN(XTS_AES_256_enc),
		    FN(XTS_AES_256_enc_expanded_key), FN(isal_aes_xts_enc_256),
		    FN(isal_aes_xts_enc_256_expanded_key) },
		  { "XTS_AES_256_dec", "XTS_AES_256_dec_expanded_key", FN(XTS_AES_256_dec),
		    FN(XTS_AES_256_dec_expanded_key), FN(isal_aes_xts_dec_256),
		    FN(isal_aes_xts_dec_256_expanded_key) } },
	};
	const int b = bits == 256;
	char label[40];
	memset(s, 0, sizeof(*s));
	for (int exp = 0; exp < 2; exp++) {
		const struct stoa_variant *vs[MAX_FORMS];
		size_t skipped;
		size_t nv = test_variants(test_func(exp ? api[b][dec].exp : api[b][dec].raw), vs,
					  MAX_FORMS, &skipped);
		s->skipped += skipped;
		for (size_t i = 0; i < nv; i++) {
			snprintf(label, sizeof(label), "%s%s", vs[i]->name, exp ? "/expanded" : "");
			add_form(s, label, bits, dec, exp, 0, vs[i]->fn);
		}
	}
	add_form(s, "XTS_AES_*", bits, dec, 0, 0, api[b][dec].pub);
	add_form(s, "XTS_AES_*_expanded_key", bits, dec, 1, 0, api[b][dec].pub_exp);
	add_form(s, "isal_aes_xts_*", bits, dec, 0, 1, api[b][dec].isal);
	add_form(s, "isal_aes_xts_*_expanded_key", bits, dec, 1, 1, api[b][dec].isal_exp);
}

static const uint8_t *key2_of(const struct form *f, const struct keys *k);
static const uint8_t *key1_of(const struct form *f, const struct keys *k);

static void call_form(const struct form *f, const struct keys *k, const uint8_t *tw, uint64_t len,
		      const uint8_t *in, uint8_t *out)
{
	const uint8_t *k2 = key2_of(f, k), *k1 = key1_of(f, k);
	if (f->checked) {
		int rc = ((checked_fn *)f->fn)(k2, k1, tw, len, in, out);
		if (rc != ISAL_CRYPTO_ERR_NONE)
			TEST_FAIL("%s (XTS-AES-%d %s) len %" PRIu64 " returned %d\n", f->label,
				  f->bits, f->dec ? "dec" : "enc", len, rc);
	} else {
		((aes_xts_fn *)f->fn)((uint8_t *)k2, (uint8_t *)k1, (uint8_t *)tw, len, in, out);
	}
}

/* All eight (bits, direction, form) sets, made once. */
static struct form_set sets[2][2];

static void prepare_sets(void)
{
	for (int b = 0; b < 2; b++)
		for (int d = 0; d < 2; d++)
			forms_of(&sets[b][d], b ? 256 : 128, d);
}

static size_t forms_total(void)
{
	size_t n = 0;
	for (int b = 0; b < 2; b++)
		for (int d = 0; d < 2; d++)
			n += sets[b][d].n;
	return n;
}

/* out = f(in) out of place, then the same in place, both compared with want. */
static unsigned long long n_calls, n_bytes;

static void check_form(const struct form *f, const struct keys *k, const uint8_t *tw,
		       const uint8_t *in, uint8_t *out, uint8_t *inplace, const uint8_t *want,
		       size_t len, const char *what)
{
	memset(out, 0xa5, len);
	call_form(f, k, tw, len, in, out);
	long d = first_diff(out, want, len);
	if (d < 0) {
		memcpy(inplace, in, len);
		call_form(f, k, tw, len, inplace, inplace);
		d = first_diff(inplace, want, len);
		if (d >= 0)
			out = inplace;
	}
	n_calls += 2;
	n_bytes += 2 * len;
	if (d >= 0) {
		print_error("%s: XTS-AES-%d %s [%s] len %zu: first difference at byte %ld (%s)\n",
			    what, f->bits, f->dec ? "dec" : "enc", f->label, len, d,
			    out == inplace ? "in place" : "out of place");
		dump("got ", out + (d & ~15L), len - (d & ~15L));
		dump("want", want + (d & ~15L), len - (d & ~15L));
		fail();
	}
}

static void say_forms(const char *what)
{
	size_t skipped = 0;
	for (int b = 0; b < 2; b++)
		for (int d = 0; d < 2; d++)
			skipped += sets[b][d].skipped;
	print_message("%s: %llu calls, %.1f MiB, %zu forms, all equal", what, n_calls,
		      (double)n_bytes / (1 << 20), forms_total());
	if (skipped)
		print_message(" (%zu variants SKIPPED: not usable on this CPU / STOA_ISA)",
			      skipped);
	print_message("\n");
	n_calls = n_bytes = 0;
}

/* ---- tests ---- */

static void test_inventory(void **state)
{
	(void)state;
	const char *isa = getenv("STOA_ISA");
	print_message("features enabled 0x%" PRIx64 " (STOA_ISA=%s)\n", stoa_cpu_features_enabled(),
		      isa && *isa ? isa : "(unset)");
	assert_int_equal(stoa_module_aes.count, 11);
	for (size_t i = 0; i < stoa_module_aes.count; i++) {
		const struct stoa_func *f = &stoa_module_aes.funcs[i];
		const struct stoa_variant *first = NULL;
		print_message("  %-30s", f->name);
		for (size_t v = 0; v < f->count; v++) {
			int ok = stoa_variant_usable(&f->variants[v]);
			if (ok && !first)
				first = &f->variants[v];
			print_message(" %s%s", f->variants[v].name, ok ? "" : "(SKIPPED)");
		}
		const char *chosen = stoa_function_variant(f->name);
		print_message("; dispatch picks %s\n", chosen ? chosen : "(null)");
		assert_non_null(chosen);
		assert_non_null(first);
		assert_string_equal(chosen, first->name);
	}
}

/* isa-l_crypto's values, so programs that compare raw numbers see the same answers. */
static void test_api_constants(void **state)
{
	(void)state;
	assert_int_equal(ISAL_CRYPTO_ERR_NONE, 0);
	assert_int_equal(ISAL_CRYPTO_ERR_NULL_SRC, 2000);
	assert_int_equal(ISAL_CRYPTO_ERR_NULL_DST, 2001);
	assert_int_equal(ISAL_CRYPTO_ERR_NULL_KEY, 2004);
	assert_int_equal(ISAL_CRYPTO_ERR_NULL_EXP_KEY, 2005);
	assert_int_equal(ISAL_CRYPTO_ERR_CIPH_LEN, 2009);
	assert_int_equal(ISAL_CRYPTO_ERR_XTS_NULL_TWEAK, 2014);
	assert_int_equal(ISAL_CRYPTO_ERR_XTS_SAME_KEYS, 2015);
	assert_int_equal(ISAL_CRYPTO_ERR_FIPS_DISABLED, 2023);
	assert_int_equal(ISAL_AES_XTS_MIN_LEN, 16);
	assert_int_equal(ISAL_AES_XTS_MAX_LEN, 1 << 24);
	assert_int_equal(AES_XTS_MAX_LEN, ISAL_AES_XTS_MAX_LEN);
	print_message("error codes and length limits match isa-l_crypto 2.26's\n");
}

/* FIPS-197 appendix A (key expansion, the last round key) and C (one block each way). */
static void test_fips197(void **state)
{
	(void)state;
	static const struct {
		int nk;
		const char *key, *last_round_key, *ct;
	} v[] = {
		{ 4, "2b7e151628aed2a6abf7158809cf4f3c", "d014f9a8c9ee2589e13f0cc8b6630ca6", NULL },
		{ 6, "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
		  "e98ba06f448c773c8ecc720401002202", NULL },
		{ 8, "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
		  "fe4890d1e6188d0b046df344706c631e", NULL },
		{ 4, "000102030405060708090a0b0c0d0e0f", NULL, "69c4e0d86a7b0430d8cdb78070b4c55a" },
		{ 6, "000102030405060708090a0b0c0d0e0f1011121314151617", NULL,
		  "dda97ca4864cdfe06eaf70a0ec0d7191" },
		{ 8, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", NULL,
		  "8ea2b7ca516745bfeafc49904b496089" },
	};
	size_t checks = 0;
	for (size_t i = 0; i < STOA_COUNT(v); i++) {
		uint8_t key[32], enc[SCHED], dec[SCHED], want[16], pt[16], ct[16], back[16];
		const int rounds = v[i].nk + 6;
		unhex(key, v[i].key);
		aes_expand_key_portable(key, v[i].nk, enc, dec);
		if (v[i].last_round_key) {
			unhex(want, v[i].last_round_key);
			assert_memory_equal(enc + 16 * rounds, want, 16);
			assert_memory_equal(dec, want, 16);
		}
		if (v[i].ct) {
			unhex(pt, "00112233445566778899aabbccddeeff");
			unhex(want, v[i].ct);
			aes_encrypt_blocks_portable(enc, rounds, pt, ct, 1);
			assert_memory_equal(ct, want, 16);
			aes_decrypt_blocks_portable(dec, rounds, ct, back, 1);
			assert_memory_equal(back, pt, 16);
		}
		checks++;
	}
	print_message("FIPS-197 A.1-A.3 key expansions and C.1-C.3 blocks: %zu checks\n", checks);
}

/* Every key expansion form against OpenSSL's AES_set_encrypt_key and AES_set_decrypt_key, whose
 * decryption schedule is the equivalent inverse cipher's too; the checked forms' NULL codes. */
static void test_key_expansion(void **state)
{
	(void)state;
	typedef void keyexp(const uint8_t *, uint8_t *, uint8_t *);
	typedef int keyexp_checked(const uint8_t *, uint8_t *, uint8_t *);
	static const struct {
		int bits;
		const char *name;
		keyexp *pub;
		keyexp_checked *isal;
	} kx[] = {
		{ 128, "aes_keyexp_128", aes_keyexp_128, isal_aes_keyexp_128 },
		{ 192, "aes_keyexp_192", aes_keyexp_192, isal_aes_keyexp_192 },
		{ 256, "aes_keyexp_256", aes_keyexp_256, isal_aes_keyexp_256 },
	};
	size_t checks = 0;
	for (size_t i = 0; i < STOA_COUNT(kx); i++) {
		const struct stoa_variant *vs[8];
		const size_t nv = test_variants(test_func(kx[i].name), vs, 8, NULL);
		const int rounds = kx[i].bits / 32 + 6, bytes = 16 * (rounds + 1);
		for (int trial = 0; trial < 200; trial++) {
			uint8_t key[32], want_enc[SCHED], want_dec[SCHED], enc[SCHED], dec[SCHED];
			AES_KEY ek, dk;
			test_fill_random(key, sizeof(key));
			assert_int_equal(AES_set_encrypt_key(key, kx[i].bits, &ek), 0);
			assert_int_equal(AES_set_decrypt_key(key, kx[i].bits, &dk), 0);
			/* OpenSSL's C code keeps each 4-byte column as a big-endian word, its x86
			 * assembly as the bytes themselves: whichever makes round 0 the key. */
			memcpy(want_enc, ek.rd_key, bytes);
			memcpy(want_dec, dk.rd_key, bytes);
			if (memcmp(want_enc, key, 16) != 0)
				for (int w = 0; w < 4 * (rounds + 1); w++)
					for (int b = 0; b < 4; b++) {
						want_enc[4 * w + b] =
							(uint8_t)(ek.rd_key[w] >> (24 - 8 * b));
						want_dec[4 * w + b] =
							(uint8_t)(dk.rd_key[w] >> (24 - 8 * b));
					}
			assert_memory_equal(want_enc, key, 16);
			for (size_t v = 0; v <= nv + 1; v++) {
				memset(enc, 0, sizeof(enc));
				memset(dec, 0, sizeof(dec));
				if (v < nv) {
					((keyexp *)vs[v]->fn)(key, enc, dec);
				} else if (v == nv) {
					kx[i].pub(key, enc, dec);
				} else {
					assert_int_equal(kx[i].isal(key, enc, dec), 0);
				}
				if (memcmp(enc, want_enc, bytes) || memcmp(dec, want_dec, bytes))
					TEST_FAIL("%s form %zu differs from OpenSSL's schedules\n",
						  kx[i].name, v);
				checks++;
			}
		}
		uint8_t key[32] = { 0 }, enc[SCHED], dec[SCHED];
		assert_int_equal(kx[i].isal(NULL, enc, dec), ISAL_CRYPTO_ERR_NULL_KEY);
		assert_int_equal(kx[i].isal(key, NULL, dec), ISAL_CRYPTO_ERR_NULL_EXP_KEY);
		assert_int_equal(kx[i].isal(key, enc, NULL), ISAL_CRYPTO_ERR_NULL_EXP_KEY);
	}
	print_message("key expansion: %zu schedules (every variant, exported and checked names) "
		      "equal OpenSSL's, both directions; NULL arguments give the error codes\n",
		      checks);
}

/* IEEE 1619-2007 annex B: XTS-AES-128 vectors 1-5 and 15-18 (17-20 bytes, ciphertext
 * stealing), XTS-AES-256 vectors 10-14. The tweak is the data unit number, least significant
 * byte first. Vectors 4 and 10-14 encrypt bytes 0..255 twice; vector 5 encrypts vector 4's
 * ciphertext. Transcribed from Botan's src/tests/data/modes/xts.vec. */
#define PT_PATTERN NULL
#define PT_CT4 ""
static const struct {
	int n, bits;
	const char *k1, *k2, *tweak, *pt, *ct;
} ieee[] = {
	{ 1, 128,
		"00000000000000000000000000000000",
		"00000000000000000000000000000000",
		"00000000000000000000000000000000",
		"0000000000000000000000000000000000000000000000000000000000000000",
		"917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e" },
	{ 2, 128,
		"11111111111111111111111111111111",
		"22222222222222222222222222222222",
		"33333333330000000000000000000000",
		"4444444444444444444444444444444444444444444444444444444444444444",
		"c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0" },
	{ 3, 128,
		"fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0",
		"22222222222222222222222222222222",
		"33333333330000000000000000000000",
		"4444444444444444444444444444444444444444444444444444444444444444",
		"af85336b597afc1a900b2eb21ec949d292df4c047e0b21532186a5971a227a89" },
	{ 4, 128,
		"27182818284590452353602874713526",
		"31415926535897932384626433832795",
		"00000000000000000000000000000000",
		PT_PATTERN,
		"27a7479befa1d476489f308cd4cfa6e2a96e4bbe3208ff25287dd3819616e89c"
		"c78cf7f5e543445f8333d8fa7f56000005279fa5d8b5e4ad40e736ddb4d35412"
		"328063fd2aab53e5ea1e0a9f332500a5df9487d07a5c92cc512c8866c7e860ce"
		"93fdf166a24912b422976146ae20ce846bb7dc9ba94a767aaef20c0d61ad0265"
		"5ea92dc4c4e41a8952c651d33174be51a10c421110e6d81588ede82103a252d8"
		"a750e8768defffed9122810aaeb99f9172af82b604dc4b8e51bcb08235a6f434"
		"1332e4ca60482a4ba1a03b3e65008fc5da76b70bf1690db4eae29c5f1badd03c"
		"5ccf2a55d705ddcd86d449511ceb7ec30bf12b1fa35b913f9f747a8afd1b130e"
		"94bff94effd01a91735ca1726acd0b197c4e5b03393697e126826fb6bbde8ecc"
		"1e08298516e2c9ed03ff3c1b7860f6de76d4cecd94c8119855ef5297ca67e9f3"
		"e7ff72b1e99785ca0a7e7720c5b36dc6d72cac9574c8cbbc2f801e23e56fd344"
		"b07f22154beba0f08ce8891e643ed995c94d9a69c9f1b5f499027a78572aeebd"
		"74d20cc39881c213ee770b1010e4bea718846977ae119f7a023ab58cca0ad752"
		"afe656bb3c17256a9f6e9bf19fdd5a38fc82bbe872c5539edb609ef4f79c203e"
		"bb140f2e583cb2ad15b4aa5b655016a8449277dbd477ef2c8d6c017db738b18d"
		"eb4a427d1923ce3ff262735779a418f20a282df920147beabe421ee5319d0568" },
	{ 5, 128,
		"27182818284590452353602874713526",
		"31415926535897932384626433832795",
		"01000000000000000000000000000000",
		PT_CT4,
		"264d3ca8512194fec312c8c9891f279fefdd608d0c027b60483a3fa811d65ee5"
		"9d52d9e40ec5672d81532b38b6b089ce951f0f9c35590b8b978d175213f329bb"
		"1c2fd30f2f7f30492a61a532a79f51d36f5e31a7c9a12c286082ff7d2394d18f"
		"783e1a8e72c722caaaa52d8f065657d2631fd25bfd8e5baad6e527d763517501"
		"c68c5edc3cdd55435c532d7125c8614deed9adaa3acade5888b87bef641c4c99"
		"4c8091b5bcd387f3963fb5bc37aa922fbfe3df4e5b915e6eb514717bdd2a7407"
		"9a5073f5c4bfd46adf7d282e7a393a52579d11a028da4d9cd9c77124f9648ee3"
		"83b1ac763930e7162a8d37f350b2f74b8472cf09902063c6b32e8c2d9290cefb"
		"d7346d1c779a0df50edcde4531da07b099c638e83a755944df2aef1aa31752fd"
		"323dcb710fb4bfbb9d22b925bc3577e1b8949e729a90bbafeacf7f7879e7b114"
		"7e28ba0bae940db795a61b15ecf4df8db07b824bb062802cc98a9545bb2aaeed"
		"77cb3fc6db15dcd7d80d7d5bc406c4970a3478ada8899b329198eb61c193fb62"
		"75aa8ca340344a75a862aebe92eee1ce032fd950b47d7704a3876923b4ad6284"
		"4bf4a09c4dbe8b4397184b7471360c9564880aedddb9baa4af2e75394b08cd32"
		"ff479c57a07d3eab5d54de5f9738b8d27f27a9f0ab11799d7b7ffefb2704c95c"
		"6ad12c39f1e867a4b7b1d7818a4b753dfd2a89ccb45e001a03a867b187f225dd" },
	{ 10, 256,
		"2718281828459045235360287471352662497757247093699959574966967627",
		"3141592653589793238462643383279502884197169399375105820974944592",
		"ff000000000000000000000000000000",
		PT_PATTERN,
		"1c3b3a102f770386e4836c99e370cf9bea00803f5e482357a4ae12d414a3e63b"
		"5d31e276f8fe4a8d66b317f9ac683f44680a86ac35adfc3345befecb4bb188fd"
		"5776926c49a3095eb108fd1098baec70aaa66999a72a82f27d848b21d4a741b0"
		"c5cd4d5fff9dac89aeba122961d03a757123e9870f8acf1000020887891429ca"
		"2a3e7a7d7df7b10355165c8b9a6d0a7de8b062c4500dc4cd120c0f7418dae3d0"
		"b5781c34803fa75421c790dfe1de1834f280d7667b327f6c8cd7557e12ac3a0f"
		"93ec05c52e0493ef31a12d3d9260f79a289d6a379bc70c50841473d1a8cc81ec"
		"583e9645e07b8d9670655ba5bbcfecc6dc3966380ad8fecb17b6ba02469a020a"
		"84e18e8f84252070c13e9f1f289be54fbc481457778f616015e1327a02b140f1"
		"505eb309326d68378f8374595c849d84f4c333ec4423885143cb47bd71c5edae"
		"9be69a2ffeceb1bec9de244fbe15992b11b77c040f12bd8f6a975a44a0f90c29"
		"a9abc3d4d893927284c58754cce294529f8614dcd2aba991925fedc4ae74ffac"
		"6e333b93eb4aff0479da9a410e4450e0dd7ae4c6e2910900575da401fc07059f"
		"645e8b7e9bfdef33943054ff84011493c27b3429eaedb4ed5376441a77ed4385"
		"1ad77f16f541dfd269d50d6a5f14fb0aab1cbb4c1550be97f7ab4066193c4caa"
		"773dad38014bd2092fa755c824bb5e54c4f36ffda9fcea70b9c6e693e148c151" },
	{ 11, 256,
		"2718281828459045235360287471352662497757247093699959574966967627",
		"3141592653589793238462643383279502884197169399375105820974944592",
		"ffff0000000000000000000000000000",
		PT_PATTERN,
		"77a31251618a15e6b92d1d66dffe7b50b50bad552305ba0217a610688eff7e11"
		"e1d0225438e093242d6db274fde801d4cae06f2092c728b2478559df58e837c2"
		"469ee4a4fa794e4bbc7f39bc026e3cb72c33b0888f25b4acf56a2a9804f1ce6d"
		"3d6e1dc6ca181d4b546179d55544aa7760c40d06741539c7e3cd9d2f6650b201"
		"3fd0eeb8c2b8e3d8d240ccae2d4c98320a7442e1c8d75a42d6e6cfa4c2eca179"
		"8d158c7aecdf82490f24bb9b38e108bcda12c3faf9a21141c3613b58367f922a"
		"aa26cd22f23d708dae699ad7cb40a8ad0b6e2784973dcb605684c08b8d6998c6"
		"9aac049921871ebb65301a4619ca80ecb485a31d744223ce8ddc2394828d6a80"
		"470c092f5ba413c3378fa6054255c6f9df4495862bbb3287681f931b687c888a"
		"bf844dfc8fc28331e579928cd12bd2390ae123cf03818d14dedde5c0c24c8ab0"
		"18bfca75ca096f2d531f3d1619e785f1ada437cab92e980558b3dce1474afb75"
		"bfedbf8ff54cb2618e0244c9ac0d3c66fb51598cd2db11f9be39791abe447c63"
		"094f7c453b7ff87cb5bb36b7c79efb0872d17058b83b15ab0866ad8a58656c5a"
		"7e20dbdf308b2461d97c0ec0024a2715055249cf3b478ddd4740de654f75ca68"
		"6e0d7345c69ed50cdc2a8b332b1f8824108ac937eb050585608ee734097fc090"
		"54fbff89eeaeea791f4a7ab1f9868294a4f9e27b42af8100cb9d59cef9645803" },
	{ 12, 256,
		"2718281828459045235360287471352662497757247093699959574966967627",
		"3141592653589793238462643383279502884197169399375105820974944592",
		"ffffff00000000000000000000000000",
		PT_PATTERN,
		"e387aaa58ba483afa7e8eb469778317ecf4cf573aa9d4eac23f2cdf914e4e200"
		"a8b490e42ee646802dc6ee2b471b278195d60918ececb44bf79966f83faba049"
		"9298ebc699c0c8634715a320bb4f075d622e74c8c932004f25b41e361025b5a8"
		"7815391f6108fc4afa6a05d9303c6ba68a128a55705d415985832fdeaae6c8e1"
		"9110e84d1b1f199a2692119edc96132658f09da7c623efcec712537a3d94c0bf"
		"5d7e352ec94ae5797fdb377dc1551150721adf15bd26a8efc2fcaad56881fa9e"
		"62462c28f30ae1ceaca93c345cf243b73f542e2074a705bd2643bb9f7cc79bb6"
		"e7091ea6e232df0f9ad0d6cf502327876d82207abf2115cdacf6d5a48f6c1879"
		"a65b115f0f8b3cb3c59d15dd8c769bc014795a1837f3901b5845eb491adfefe0"
		"97b1fa30a12fc1f65ba22905031539971a10f2f36c321bb51331cdefb39e3964"
		"c7ef079994f5b69b2edd83a71ef549971ee93f44eac3938fcdd61d01fa71799d"
		"a3a8091c4c48aa9ed263ff0749df95d44fef6a0bb578ec69456aa5408ae32c7a"
		"f08ad7ba8921287e3bbee31b767be06a0e705c864a769137df28292283ea81a2"
		"480241b44d9921cdbec1bc28dc1fda114bd8e5217ac9d8ebafa720e9da4f9ace"
		"231cc949e5b96fe76ffc21063fddc83a6b8679c00d35e09576a875305bed5f36"
		"ed242c8900dd1fa965bc950dfce09b132263a1eef52dd6888c309f5a7d712826" },
	{ 13, 256,
		"2718281828459045235360287471352662497757247093699959574966967627",
		"3141592653589793238462643383279502884197169399375105820974944592",
		"ffffffff000000000000000000000000",
		PT_PATTERN,
		"bf53d2dade78e822a4d949a9bc6766b01b06a8ef70d26748c6a7fc36d80ae4c5"
		"520f7c4ab0ac8544424fa405162fef5a6b7f229498063618d39f0003cb5fb8d1"
		"c86b643497da1ff945c8d3bedeca4f479702a7a735f043ddb1d6aaade3c4a0ac"
		"7ca7f3fa5279bef56f82cd7a2f38672e824814e10700300a055e1630b8f1cb0e"
		"919f5e942010a416e2bf48cb46993d3cb6a51c19bacf864785a00bc2ecff15d3"
		"50875b246ed53e68be6f55bd7e05cfc2b2ed6432198a6444b6d8c247fab941f5"
		"69768b5c429366f1d3f00f0345b96123d56204c01c63b22ce78baf116e525ed9"
		"0fdea39fa469494d3866c31e05f295ff21fea8d4e6e13d67e47ce722e9698a1c"
		"1048d68ebcde76b86fcf976eab8aa9790268b7068e017a8b9b749409514f1053"
		"027fd16c3786ea1bac5f15cb79711ee2abe82f5cf8b13ae73030ef5b9e4457e7"
		"5d1304f988d62dd6fc4b94ed38ba831da4b7634971b6cd8ec325d9c61c00f1df"
		"73627ed3745a5e8489f3a95c69639c32cd6e1d537a85f75cc844726e8a72fc00"
		"77ad22000f1d5078f6b866318c668f1ad03d5a5fced5219f2eabbd0aa5c0f460"
		"d183f04404a0d6f469558e81fab24a167905ab4c7878502ad3e38fdbe62a4155"
		"6cec37325759533ce8f25f367c87bb5578d667ae93f9e2fd99bcbc5f2fbba88c"
		"f6516139420fcff3b7361d86322c4bd84c82f335abb152c4a93411373aaa8220" },
	{ 14, 256,
		"2718281828459045235360287471352662497757247093699959574966967627",
		"3141592653589793238462643383279502884197169399375105820974944592",
		"ffffffffff0000000000000000000000",
		PT_PATTERN,
		"64497e5a831e4a932c09be3e5393376daa599548b816031d224bbf50a818ed23"
		"50eae7e96087c8a0db51ad290bd00c1ac1620857635bf246c176ab463be30b80"
		"8da548081ac847b158e1264be25bb0910bbc92647108089415d45fab1b3d2604"
		"e8a8eff1ae4020cfa39936b66827b23f371b92200be90251e6d73c5f86de5fd4"
		"a950781933d79a28272b782a2ec313efdfcc0628f43d744c2dc2ff3dcb66999b"
		"50c7ca895b0c64791eeaa5f29499fb1c026f84ce5b5c72ba1083cddb5ce45434"
		"631665c333b60b11593fb253c5179a2c8db813782a004856a1653011e93fb6d8"
		"76c18366dd8683f53412c0c180f9c848592d593f8609ca736317d356e13e2bff"
		"3a9f59cd9aeb19cd482593d8c46128bb32423b37a9adfb482b99453fbe25a41b"
		"f6feb4aa0bef5ed24bf73c762978025482c13115e4015aac992e5613a3b5c2f6"
		"85b84795cb6e9b2656d8c88157e52c42f978d8634c43d06fea928f2822e465aa"
		"6576e9bf419384506cc3ce3c54ac1a6f67dc66f3b30191e698380bc999b05abc"
		"e19dc0c6dcc2dd001ec535ba18deb2df1a101023108318c75dc98611a09dc48a"
		"0acdec676fabdf222f07e026f059b672b56e5cbc8e1d21bbd867dd9272120546"
		"81d70ea737134cdfce93b6f82ae22423274e58a0821cc5502e2d0ab4585e94de"
		"6975be5e0b4efce51cd3e70c25a1fbbbd609d273ad5b0d59631c531f6a0a57b9" },
	{ 15, 128,
		"fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0",
		"bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
		"9a785634120000000000000000000000",
		"000102030405060708090a0b0c0d0e0f10",
		"6c1625db4671522d3d7599601de7ca09ed" },
	{ 16, 128,
		"fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0",
		"bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
		"9a785634120000000000000000000000",
		"000102030405060708090a0b0c0d0e0f1011",
		"d069444b7a7e0cab09e24447d24deb1fedbf" },
	{ 17, 128,
		"fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0",
		"bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
		"9a785634120000000000000000000000",
		"000102030405060708090a0b0c0d0e0f101112",
		"e5df1351c0544ba1350b3363cd8ef4beedbf9d" },
	{ 18, 128,
		"fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0",
		"bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
		"9a785634120000000000000000000000",
		"000102030405060708090a0b0c0d0e0f10111213",
		"9d84c813f719aa2c7be3f66171c7c5c2edbf9dac" },
};

static void test_ieee1619(void **state)
{
	(void)state;
	static uint8_t ct4[512];
	size_t count = 0;
	for (size_t i = 0; i < STOA_COUNT(ieee); i++) {
		struct keys k;
		uint8_t tw[16], pt[512], ct[512], out[512], inplace[512];
		const int bits = ieee[i].bits;
		unhex(k.k1, ieee[i].k1);
		unhex(k.k2, ieee[i].k2);
		unhex(tw, ieee[i].tweak);
		aes_expand_key_portable(k.k1, bits / 32, k.k1_enc, k.k1_dec);
		aes_expand_key_portable(k.k2, bits / 32, k.k2_enc, NULL);
		size_t len = unhex(ct, ieee[i].ct);
		if (ieee[i].pt == PT_PATTERN) {
			for (size_t j = 0; j < len; j++)
				pt[j] = (uint8_t)j;
		} else if (ieee[i].pt[0] == '\0') {
			memcpy(pt, ct4, len);
		} else {
			assert_int_equal(unhex(pt, ieee[i].pt), len);
		}
		if (ieee[i].n == 4)
			memcpy(ct4, ct, len);
		const struct form_set *enc = &sets[bits == 256][0], *dec = &sets[bits == 256][1];
		for (size_t f = 0; f < enc->n; f++)
			check_form(&enc->f[f], &k, tw, pt, out, inplace, ct, len, "IEEE 1619");
		for (size_t f = 0; f < dec->n; f++)
			check_form(&dec->f[f], &k, tw, ct, out, inplace, pt, len, "IEEE 1619");
		count++;
	}
	print_message("IEEE 1619-2007 vectors 1-5, 10-18 (%zu): ", count);
	say_forms("encrypted and decrypted");
}

/* Every length from 16 to 4096, random keys and tweaks, against OpenSSL, in buffers that end at
 * an inaccessible page. */
#define OSSL_MAX 4096
static void test_openssl_every_length(void **state)
{
	(void)state;
	uint8_t *pt = guard_alloc(OSSL_MAX, GUARD_BACK), *ct = guard_alloc(OSSL_MAX, GUARD_BACK);
	uint8_t *out = guard_alloc(OSSL_MAX, GUARD_BACK), *io = guard_alloc(OSSL_MAX, GUARD_BACK);
	/* Quick mode (an emulator): every length to 512, then every 29th, which still meets every
	 * remainder modulo 16. */
	const size_t step = test_quick() ? 29 : 1;
	for (int b = 0; b < 2; b++) {
		const int bits = b ? 256 : 128;
		for (size_t len = 16; len <= OSSL_MAX; len += len < 512 ? 1 : step) {
			struct keys k;
			uint8_t tw[16];
			const size_t at = OSSL_MAX - len;
			keys_random(&k, bits);
			test_fill_random(tw, sizeof(tw));
			test_fill_random(pt + at, len);
			ossl_xts(bits, 1, k.k1, k.k2, tw, pt + at, ct + at, len);
			for (size_t f = 0; f < sets[b][0].n; f++)
				check_form(&sets[b][0].f[f], &k, tw, pt + at, out + at, io + at,
					   ct + at, len, "OpenSSL");
			for (size_t f = 0; f < sets[b][1].n; f++)
				check_form(&sets[b][1].f[f], &k, tw, ct + at, out + at, io + at,
					   pt + at, len, "OpenSSL");
		}
	}
	guard_free(pt, OSSL_MAX, GUARD_BACK);
	guard_free(ct, OSSL_MAX, GUARD_BACK);
	guard_free(out, OSSL_MAX, GUARD_BACK);
	guard_free(io, OSSL_MAX, GUARD_BACK);
	say_forms(step == 1 ? "OpenSSL EVP_aes_{128,256}_xts, every length 16..4096, in and out of place"
	                    : "OpenSSL EVP_aes_{128,256}_xts, every length 16..512 and every 29th to "
	                      "4096 (quick), in and out of place");
}

/* Lengths for the comparisons with the portable engine: short ones, the edges of the vector
 * engines' passes (8 and 16 blocks) and long ones. */
static size_t random_len(size_t max)
{
	switch (test_rand_below(4)) {
	case 0:
		return 16 + test_rand_below(256);
	case 1: {
		size_t blocks = 8 * (1 + test_rand_below(16)) + test_rand_below(3) - 1;
		return 16 * blocks + test_rand_below(3) * test_rand_below(16);
	}
	case 2:
		return 16 + test_rand_below(8192);
	default:
		return 16 + test_rand_below(max - 15);
	}
}

#define AREA ((1 << 20) + 64)

/* Every variant against the table's base entry: random lengths up to 1 MiB, every alignment,
 * data starting right after an inaccessible page or ending right before one. */
static void test_variants_vs_base(void **state)
{
	(void)state;
	size_t cases = 0;
	for (int where = 0; where < 2; where++) {
		uint8_t *src = guard_alloc(AREA, where), *ref = guard_alloc(AREA, where);
		uint8_t *out = guard_alloc(AREA, where), *io = guard_alloc(AREA, where);
		for (int iter = 0; iter < 96; iter++) {
			const int b = iter & 1, dec = (iter >> 1) & 1, bits = b ? 256 : 128;
			const size_t len = random_len(iter < 8 ? AREA - 64 : 70000);
			const size_t slack = test_rand_below(64);
			const size_t at = where == GUARD_BACK ? AREA - len - slack : slack;
			struct keys k;
			uint8_t tw[16];
			keys_random(&k, bits);
			test_fill_random(tw, sizeof(tw));
			test_fill_random(src + at, len);
			const struct form_set *s = &sets[b][dec];
			/* The base entry of the raw-key table is the reference. */
			const struct form *base = NULL;
			for (size_t f = 0; f < s->n; f++)
				if (!strcmp(s->f[f].label, "base"))
					base = &s->f[f];
			assert_non_null(base);
			call_form(base, &k, tw, len, src + at, ref + at);
			const char *what = where == GUARD_BACK ? "vs base, end at guard page"
							       : "vs base, start after guard page";
			for (size_t f = 0; f < s->n; f++)
				check_form(&s->f[f], &k, tw, src + at, out + at, io + at, ref + at,
					   len, what);
			cases++;
		}
		guard_free(src, AREA, where);
		guard_free(ref, AREA, where);
		guard_free(out, AREA, where);
		guard_free(io, AREA, where);
	}
	print_message("%zu random cases up to 1 MiB, alignments 0..63: ", cases);
	say_forms("every form equals base");
}

/* Every decryption form undoes every encryption form's output, for one key size and length. */
static size_t round_trips(int b, size_t len, uint8_t *pt, uint8_t *ct, uint8_t *back)
{
	const struct form_set *enc = &sets[b][0], *dec = &sets[b][1];
	struct keys k;
	uint8_t tw[16];
	size_t trips = 0;
	keys_random(&k, b ? 256 : 128);
	test_fill_random(tw, sizeof(tw));
	test_fill_random(pt, len);
	for (size_t e = 0; e < enc->n; e++) {
		call_form(&enc->f[e], &k, tw, len, pt, ct);
		for (size_t d = 0; d < dec->n; d++, trips++) {
			memset(back, 0, len);
			call_form(&dec->f[d], &k, tw, len, ct, back);
			if (memcmp(back, pt, len))
				TEST_FAIL("XTS-AES-%d len %zu: %s then %s is no round trip\n",
					  b ? 256 : 128, len, enc->f[e].label, dec->f[d].label);
		}
	}
	return trips;
}

/* At the lengths around the stealing and pass boundaries. */
static void test_round_trip(void **state)
{
	(void)state;
	static const size_t lens[] = { 16,  17,  31,  32,  33,  47,   63,   64,   65,   127,
				       128, 129, 255, 256, 257, 271, 4095, 4096, 4097, 65551 };
	uint8_t *pt = malloc(65551), *ct = malloc(65551), *back = malloc(65551);
	size_t trips = 0;
	for (int b = 0; b < 2; b++)
		for (size_t l = 0; l < STOA_COUNT(lens); l++)
			trips += round_trips(b, lens[l], pt, ct, back);
	free(pt);
	free(ct);
	free(back);
	print_message("%zu encrypt/decrypt pairs of forms give back the plaintext\n", trips);
}

/* The keys a form takes (schedules for the expanded-key ones). */
static const uint8_t *key2_of(const struct form *f, const struct keys *k)
{
	return f->expanded ? k->k2_enc : k->k2;
}

static const uint8_t *key1_of(const struct form *f, const struct keys *k)
{
	return f->expanded ? (f->dec ? k->k1_dec : k->k1_enc) : k->k1;
}

/* One form at lengths 0..15: an unchecked one returns without reading or writing (the pointers
 * lead into an inaccessible page); a checked one returns ISAL_CRYPTO_ERR_CIPH_LEN, as it does
 * above ISAL_AES_XTS_MAX_LEN, writing nothing. */
static size_t check_bad_lengths(const struct form *f, const struct keys *k, uint8_t *noaccess)
{
	uint8_t buf[32], copy[32], tw[16] = { 0 };
	const uint64_t too_long = (uint64_t)ISAL_AES_XTS_MAX_LEN + 1;
	checked_fn *fn = (checked_fn *)f->fn;
	for (uint64_t len = 0; len < 16; len++) {
		if (!f->checked) {
			call_form(f, k, tw, len, noaccess, noaccess);
			continue;
		}
		test_fill_random(buf, sizeof(buf));
		memcpy(copy, buf, sizeof(buf));
		assert_int_equal(fn(key2_of(f, k), key1_of(f, k), tw, len, buf, buf),
				 ISAL_CRYPTO_ERR_CIPH_LEN);
		assert_int_equal(fn(key2_of(f, k), key1_of(f, k), tw, too_long + len, noaccess,
				    noaccess),
				 ISAL_CRYPTO_ERR_CIPH_LEN);
		assert_memory_equal(buf, copy, sizeof(buf));
	}
	return 16;
}

static void test_short_and_long_lengths(void **state)
{
	(void)state;
	uint8_t *noaccess = guard_alloc(0, GUARD_BACK);
	size_t checks = 0;
	for (int b = 0; b < 2; b++) {
		struct keys k;
		keys_random(&k, b ? 256 : 128);
		for (int d = 0; d < 2; d++)
			for (size_t f = 0; f < sets[b][d].n; f++)
				checks += check_bad_lengths(&sets[b][d].f[f], &k, noaccess);
	}
	guard_free(noaccess, 0, GUARD_BACK);
	print_message("lengths 0..15 (and above the maximum for the checked forms): %zu calls, "
		      "nothing read or written\n",
		      checks);
}

/* One checked form: each NULL argument gives its code, in isa-l_crypto's order of precedence,
 * whatever the other arguments, and nothing is written. */
static size_t check_null_arguments(const struct form *f, const struct keys *k)
{
	uint8_t buf[64], copy[64], tw[16] = { 1 };
	checked_fn *fn = (checked_fn *)f->fn;
	const uint8_t *k2 = key2_of(f, k), *k1 = key1_of(f, k);
	const int null_key = f->expanded ? ISAL_CRYPTO_ERR_NULL_EXP_KEY : ISAL_CRYPTO_ERR_NULL_KEY;
	test_fill_random(buf, sizeof(buf));
	memcpy(copy, buf, sizeof(buf));
	assert_int_equal(fn(NULL, k1, tw, 64, buf, buf), null_key);
	assert_int_equal(fn(k2, NULL, tw, 64, buf, buf), null_key);
	assert_int_equal(fn(NULL, NULL, NULL, 0, NULL, NULL), null_key);
	assert_int_equal(fn(k2, k1, NULL, 64, buf, buf), ISAL_CRYPTO_ERR_XTS_NULL_TWEAK);
	assert_int_equal(fn(k2, k1, NULL, 0, NULL, NULL), ISAL_CRYPTO_ERR_XTS_NULL_TWEAK);
	assert_int_equal(fn(k2, k1, tw, 64, NULL, buf), ISAL_CRYPTO_ERR_NULL_SRC);
	assert_int_equal(fn(k2, k1, tw, 0, NULL, NULL), ISAL_CRYPTO_ERR_NULL_SRC);
	assert_int_equal(fn(k2, k1, tw, 64, buf, NULL), ISAL_CRYPTO_ERR_NULL_DST);
	assert_int_equal(fn(k2, k1, tw, 0, buf, NULL), ISAL_CRYPTO_ERR_NULL_DST);
	assert_memory_equal(buf, copy, sizeof(buf));
	return 9;
}

/* The checked forms' NULL arguments; ISAL_AES_XTS_MAX_LEN itself is accepted. */
static void test_checked_errors(void **state)
{
	(void)state;
	uint8_t tw[16] = { 1 };
	struct keys k;
	size_t checks = 0;
	for (int b = 0; b < 2; b++) {
		keys_random(&k, b ? 256 : 128);
		for (int d = 0; d < 2; d++)
			for (size_t f = 0; f < sets[b][d].n; f++)
				if (sets[b][d].f[f].checked)
					checks += check_null_arguments(&sets[b][d].f[f], &k);
	}
	/* The largest length accepted, once per direction through the dispatched function. */
	uint8_t *big = malloc(ISAL_AES_XTS_MAX_LEN);
	assert_non_null(big);
	memset(big, 0x3c, ISAL_AES_XTS_MAX_LEN);
	assert_int_equal(isal_aes_xts_enc_256(k.k2, k.k1, tw, ISAL_AES_XTS_MAX_LEN, big, big), 0);
	assert_int_equal(isal_aes_xts_dec_256(k.k2, k.k1, tw, ISAL_AES_XTS_MAX_LEN, big, big), 0);
	for (size_t i = 0; i < ISAL_AES_XTS_MAX_LEN; i++)
		if (big[i] != 0x3c)
			TEST_FAIL("16 MiB round trip differs at byte %zu\n", i);
	free(big);
	print_message("checked forms: %zu NULL-argument calls gave isa-l_crypto's codes, wrote "
		      "nothing; ISAL_AES_XTS_MAX_LEN accepted\n",
		      checks);
}

/* After a call, the stack below the caller holds none of the round keys it derived nor the
 * tweaks. A call leaves its frame below the caller's stack pointer; a function called next from
 * the same place gets the same memory as its frame, and looks through it. */
#define SCAN_BYTES 16384
/* Tweaks looked for: every block's of the longest length scanned, and the two passes of eight
 * an engine may have stepped ahead. */
#define SCAN_TWEAKS 160

struct secrets {
	uint8_t v[3 * SCAN_TWEAKS + 2 * 15][16];
	size_t n;
};

static __attribute__((noinline)) long scan_stack(const struct secrets *s, size_t *which)
{
	uint8_t area[SCAN_BYTES];
	/* The contents are whatever the last call left; the asm keeps the compiler from assuming
	 * anything about them. */
	__asm__ __volatile__("" : : "r"(area) : "memory");
	for (size_t off = 0; off + 16 <= sizeof(area); off++)
		for (size_t i = 0; i < s->n; i++)
			if (area[off] == s->v[i][0] && !memcmp(area + off, s->v[i], 16)) {
				*which = i;
				return (long)off;
			}
	return -1;
}

static __attribute__((noinline)) void call_then_scan(const struct form *f, const struct keys *k,
						     const uint8_t *tw, const uint8_t *in,
						     uint8_t *out, size_t len,
						     const struct secrets *s)
{
	size_t which = 0;
	call_form(f, k, tw, len, in, out);
	long at = scan_stack(s, &which);
	if (at >= 0)
		TEST_FAIL("XTS-AES-%d %s [%s] len %zu left secret %zu (%s) on the stack, %ld bytes "
			  "into the area below its caller\n",
			  f->bits, f->dec ? "dec" : "enc", f->label, len, which,
			  which < 3 * SCAN_TWEAKS ? "tweak material" : "a round key", at);
}

static void test_stack_wiped(void **state)
{
	(void)state;
	size_t calls = 0;
#if UNDER_SANITIZER
	/* AddressSanitizer pads and moves stack objects, so frames no longer sit where the scan
	 * looks for them; the check belongs to the uninstrumented builds. */
	print_message("SKIPPED under AddressSanitizer: its stack layout is not the one checked\n");
	skip();
#endif
	for (int b = 0; b < 2; b++) {
		const int bits = b ? 256 : 128, rounds = bits / 32 + 6;
		struct keys k;
		struct secrets s;
		/* 512 and 2048 bytes: below and above the length where an engine changes how it
		 * steps its tweaks (the AES-NI one at 1 KiB). */
		static const size_t lens[] = { 512, 519, 2048, 2055 };
		uint8_t tw[16], in[2048 + 7], out[2048 + 7], t[16];
		keys_random(&k, bits);
		test_fill_random(tw, sizeof(tw));
		test_fill_random(in, sizeof(in));
		/* The encrypted tweak and its next SCAN_TWEAKS - 1 multiples by x, each also added to the first
		 * and to the last round key of either direction (engines fold them together), then
		 * every round key except round 0 (the raw keys, which the caller holds anyway). */
		aes_encrypt_blocks_portable(k.k2_enc, rounds, tw, t, 1);
		s.n = 0;
		for (int i = 0; i < SCAN_TWEAKS; i++) {
			memcpy(s.v[s.n++], t, 16);
			for (int j = 0; j < 16; j++) {
				/* Round 0 of one direction is round Nr of the other. */
				s.v[s.n][j] = t[j] ^ k.k1_enc[j];
				s.v[s.n + 1][j] = t[j] ^ k.k1_enc[16 * rounds + j];
			}
			s.n += 2;
			uint8_t carry = t[15] >> 7;
			for (int j = 15; j > 0; j--)
				t[j] = (uint8_t)(t[j] << 1 | t[j - 1] >> 7);
			t[0] = (uint8_t)(t[0] << 1 ^ (0x87 & -carry));
		}
		for (int r = 1; r <= rounds; r++) {
			memcpy(s.v[s.n++], k.k1_enc + 16 * r, 16);
			memcpy(s.v[s.n++], k.k2_enc + 16 * r, 16);
		}
		for (int d = 0; d < 2; d++)
			for (size_t f = 0; f < sets[b][d].n; f++)
				for (size_t l = 0; l < STOA_COUNT(lens); l++) {
					call_then_scan(&sets[b][d].f[f], &k, tw, in, out, lens[l], &s);
					calls++;
				}
	}
	print_message("stack below the caller after %zu calls (lengths 512, 519, 2048 and 2055, "
		      "every form): none of the first %d tweaks (alone or added to a first or last "
		      "round key) and no round key of either key\n",
		      calls, SCAN_TWEAKS);
}

int main(void)
{
	test_seed();
	prepare_sets();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inventory),
		cmocka_unit_test(test_api_constants),
		cmocka_unit_test(test_fips197),
		cmocka_unit_test(test_key_expansion),
		cmocka_unit_test(test_ieee1619),
		cmocka_unit_test(test_openssl_every_length),
		cmocka_unit_test(test_variants_vs_base),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_short_and_long_lengths),
		cmocka_unit_test(test_checked_errors),
		cmocka_unit_test(test_stack_wiped),
	};
	return TEST_MAIN("aes", tests, NULL, NULL);
}
