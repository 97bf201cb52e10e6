/* isal_self_tests: known answers for every algorithm of the isa-l_crypto API, through the public
 * functions, so that each runs on the variant this process dispatches to.
 *
 * Sources: FIPS 180-4's examples (the one-block, two-block and one-million-"a" messages) for the
 * SHA family, RFC 1321's test suite for MD5, FIPS-197 appendix A for the key expansions, and
 * IEEE 1619-2007 appendix B (vectors 2, 10 and 15: a whole block, XTS-AES-256, and ciphertext
 * stealing) for XTS. Each hash runs its messages several times at once, so that the lane engines
 * as well as the single-stream one are covered, and the million "a"s arrive in 1000-byte pieces.
 * Checked against OpenSSL when the values were written. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ISAL_UNIT_TEST /* the older names are called too; no deprecation warnings for them */
#include "isa-l_crypto/aes_keyexp.h"
#include "isa-l_crypto/aes_xts.h"
#include "isa-l_crypto/isal_crypto_api.h"
#include "isa-l_crypto/md5_mb.h"
#include "isa-l_crypto/multi_buffer.h"
#include "isa-l_crypto/sha1_mb.h"
#include "isa-l_crypto/sha256_mb.h"
#include "isa-l_crypto/sha512_mb.h"
#include "stoa_export.h"

/* hex (two digits a byte) into out[n]; the inputs are the constants below. */
static void unhex(const char *hex, uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t b = 0;
		for (int j = 0; j < 2; j++) {
			char c = hex[2 * i + (size_t)j];
			b = (uint8_t)(b << 4 | (c <= '9' ? c - '0' : c - 'a' + 10));
		}
		out[i] = b;
	}
}

/* A context's digest words as the bytes of the standard digest: big-endian words for the SHA
 * family, little-endian for MD5. */
static void digest_bytes(const void *words, size_t nwords, size_t wsize, int big_endian,
                         uint8_t *out)
{
	const uint8_t *w = words;
	for (size_t i = 0; i < nwords; i++) {
		/* A word in host order, read at its own width: 4 bytes copied into a uint64_t
		 * would be its high half on a big-endian host. */
		uint64_t v;
		if (wsize == 4) {
			uint32_t v32;
			memcpy(&v32, w + i * wsize, 4);
			v = v32;
		} else {
			memcpy(&v, w + i * wsize, 8);
		}
		for (size_t j = 0; j < wsize; j++) {
			size_t shift = 8 * (big_endian ? wsize - 1 - j : j);
			out[i * wsize + j] = (uint8_t)(v >> shift);
		}
	}
}

static const char msg_2block_sha[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const char msg_2block_sha512[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                                        "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

struct hash_kat {
	const char *msg;    /* NULL: one million "a" */
	const char *digest; /* hex */
};

#define COPIES 6 /* each short message this many times at once: 18 jobs, more than any lane count  \
	          */

/*
 * HASH_SELF_TEST(alg, CTX, MGR, NWORDS, WSIZE, BIG): the test of one algorithm's manager, as a
 * function alg##_self_test(kats) returning 1 when every digest matches.
 */
#define HASH_SELF_TEST(alg, CTX, MGR, NWORDS, WSIZE, BIG)                                          \
	static int alg##_wait(MGR *mgr, CTX *ctx)                                                  \
	{                                                                                          \
		CTX *out;                                                                          \
		while (isal_hash_ctx_processing(ctx))                                              \
			if (isal_##alg##_ctx_mgr_flush(mgr, &out) != 0)                            \
				return 0;                                                          \
		return 1;                                                                          \
	}                                                                                          \
	static int alg##_self_test(const struct hash_kat kats[4])                                  \
	{                                                                                          \
		_Alignas(64) MGR mgr;                                                              \
		_Alignas(64) CTX ctx[3 * COPIES + 1];                                              \
		uint8_t a1000[1000];                                                               \
		CTX *out;                                                                          \
		memset(a1000, 'a', sizeof(a1000));                                                 \
		if (isal_##alg##_ctx_mgr_init(&mgr) != 0)                                          \
			return 0;                                                                  \
		for (int i = 0; i < 3 * COPIES; i++) {                                             \
			const char *m = kats[i % 3].msg;                                           \
			isal_hash_ctx_init(&ctx[i]);                                               \
			if (isal_##alg##_ctx_mgr_submit(&mgr, &ctx[i], &out, m,                    \
			                                (uint32_t)strlen(m),                       \
			                                ISAL_HASH_ENTIRE) != 0)                    \
				return 0;                                                          \
		}                                                                                  \
		CTX *big = &ctx[3 * COPIES];                                                       \
		isal_hash_ctx_init(big);                                                           \
		for (int piece = 0; piece < 1000; piece++) {                                       \
			ISAL_HASH_CTX_FLAG f = piece == 0     ? ISAL_HASH_FIRST                    \
			                       : piece == 999 ? ISAL_HASH_LAST                     \
			                                      : ISAL_HASH_UPDATE;                  \
			if (isal_##alg##_ctx_mgr_submit(&mgr, big, &out, a1000, 1000, f) != 0 ||   \
			    !alg##_wait(&mgr, big))                                                \
				return 0;                                                          \
		}                                                                                  \
		do {                                                                               \
			if (isal_##alg##_ctx_mgr_flush(&mgr, &out) != 0)                           \
				return 0;                                                          \
		} while (out);                                                                     \
		int ok = 1;                                                                        \
		for (int i = 0; i <= 3 * COPIES; i++) {                                            \
			const struct hash_kat *k = i < 3 * COPIES ? &kats[i % 3] : &kats[3];       \
			uint8_t got[NWORDS * WSIZE], want[NWORDS * WSIZE];                         \
			unhex(k->digest, want, sizeof(want));                                      \
			digest_bytes(isal_hash_ctx_digest(&ctx[i]), NWORDS, WSIZE, BIG, got);      \
			ok &= isal_hash_ctx_complete(&ctx[i]) &&                                   \
			      isal_hash_ctx_error(&ctx[i]) == ISAL_HASH_CTX_ERROR_NONE;            \
			ok &= memcmp(got, want, sizeof(want)) == 0;                                \
		}                                                                                  \
		return ok;                                                                         \
	}

HASH_SELF_TEST(sha1, ISAL_SHA1_HASH_CTX, ISAL_SHA1_HASH_CTX_MGR, ISAL_SHA1_DIGEST_NWORDS, 4, 1)
HASH_SELF_TEST(sha256, ISAL_SHA256_HASH_CTX, ISAL_SHA256_HASH_CTX_MGR, ISAL_SHA256_DIGEST_NWORDS, 4,
               1)
HASH_SELF_TEST(sha512, ISAL_SHA512_HASH_CTX, ISAL_SHA512_HASH_CTX_MGR, ISAL_SHA512_DIGEST_NWORDS, 8,
               1)
HASH_SELF_TEST(md5, ISAL_MD5_HASH_CTX, ISAL_MD5_HASH_CTX_MGR, ISAL_MD5_DIGEST_NWORDS, 4, 0)

static const struct hash_kat sha1_kats[4] = {
	{ "", "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
	{ "abc", "a9993e364706816aba3e25717850c26c9cd0d89d" },
	{ msg_2block_sha, "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
	{ NULL, "34aa973cd4c4daa4f61eeb2bdbad27316534016f" },
};
static const struct hash_kat sha256_kats[4] = {
	{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ msg_2block_sha, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ NULL, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
};
static const struct hash_kat sha512_kats[4] = {
	{ "", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
	      "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e" },
	{ "abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	         "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
	{ msg_2block_sha512, "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
	                     "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909" },
	{ NULL, "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
	        "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b" },
};
static const struct hash_kat md5_kats[4] = {
	{ "", "d41d8cd98f00b204e9800998ecf8427e" },
	{ "abc", "900150983cd24fb0d6963f7d28e17f72" },
	{ "message digest", "f96b697d7cb7938d525a2f31aaf161d0" },
	{ NULL, "7707d6ae4e027c70eea2a935c2296f21" },
};

/* FIPS-197 appendix A: the last round key of each expansion (w[4 Nr] .. w[4 Nr + 3]); the
 * decryption schedule starts with that same key. */
static int keyexp_self_test(void)
{
	static const struct {
		const char *key, *last;
		int bits;
	} kats[] = {
		{ "2b7e151628aed2a6abf7158809cf4f3c", "d014f9a8c9ee2589e13f0cc8b6630ca6", 128 },
		{ "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
		  "e98ba06f448c773c8ecc720401002202", 192 },
		{ "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
		  "fe4890d1e6188d0b046df344706c631e", 256 },
	};
	int ok = 1;
	for (size_t i = 0; i < sizeof(kats) / sizeof(kats[0]); i++) {
		uint8_t key[32], last[16], enc[16 * 15], dec[16 * 15];
		const int nr = kats[i].bits / 32 + 6;
		unhex(kats[i].key, key, (size_t)kats[i].bits / 8);
		unhex(kats[i].last, last, 16);
		int rc = kats[i].bits == 128   ? isal_aes_keyexp_128(key, enc, dec)
		         : kats[i].bits == 192 ? isal_aes_keyexp_192(key, enc, dec)
		                               : isal_aes_keyexp_256(key, enc, dec);
		ok &= rc == 0 && memcmp(enc, key, 16) == 0 &&
		      memcmp(enc + 16 * nr, last, 16) == 0 && memcmp(dec, last, 16) == 0 &&
		      memcmp(dec + 16 * nr, key, 16) == 0;
	}
	return ok;
}

/* IEEE 1619-2007 appendix B. Key1 is the data key (k1), Key2 the tweak key (k2); the tweak is
 * the data unit number, least significant byte first. Vector 10 is cut to its first 32 bytes,
 * which do not depend on the rest of the data unit. */
static int xts_self_test(void)
{
	static const struct {
		const char *key1, *key2, *tweak, *pt, *ct;
		int bits;
	} kats[] = {
		{ "11111111111111111111111111111111", "22222222222222222222222222222222",
		  "33333333330000000000000000000000",
		  "4444444444444444444444444444444444444444444444444444444444444444",
		  "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0", 128 },
		{ "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0", "bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
		  "9a785634120000000000000000000000", "000102030405060708090a0b0c0d0e0f10",
		  "6c1625db4671522d3d7599601de7ca09ed", 128 },
		{ "2718281828459045235360287471352662497757247093699959574966967627",
		  "3141592653589793238462643383279502884197169399375105820974944592",
		  "ff000000000000000000000000000000",
		  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		  "1c3b3a102f770386e4836c99e370cf9bea00803f5e482357a4ae12d414a3e63b", 256 },
	};
	int ok = 1;
	for (size_t i = 0; i < sizeof(kats) / sizeof(kats[0]); i++) {
		uint8_t k1[32], k2[32], tw[16], pt[32], ct[32], out[32];
		uint8_t k1e[16 * 15], k1d[16 * 15], k2e[16 * 15], k2d[16 * 15];
		const size_t kl = (size_t)kats[i].bits / 8;
		const uint64_t n = strlen(kats[i].pt) / 2;
		unhex(kats[i].key1, k1, kl);
		unhex(kats[i].key2, k2, kl);
		unhex(kats[i].tweak, tw, 16);
		unhex(kats[i].pt, pt, n);
		unhex(kats[i].ct, ct, n);
		const int b256 = kats[i].bits == 256;
		if (b256) {
			ok &= isal_aes_keyexp_256(k1, k1e, k1d) == 0;
			ok &= isal_aes_keyexp_256(k2, k2e, k2d) == 0;
		} else {
			ok &= isal_aes_keyexp_128(k1, k1e, k1d) == 0;
			ok &= isal_aes_keyexp_128(k2, k2e, k2d) == 0;
		}
		for (int form = 0; form < 4; form++) {
			const int dec = form & 1, expanded = form & 2;
			const uint8_t *in = dec ? ct : pt, *want = dec ? pt : ct;
			const uint8_t *key1 = expanded ? (dec ? k1d : k1e) : k1;
			const uint8_t *key2 = expanded ? k2e : k2;
			int rc;
			memset(out, 0, sizeof(out));
			if (!expanded && !dec)
				rc = (b256 ? isal_aes_xts_enc_256
				           : isal_aes_xts_enc_128)(key2, key1, tw, n, in, out);
			else if (!expanded)
				rc = (b256 ? isal_aes_xts_dec_256
				           : isal_aes_xts_dec_128)(key2, key1, tw, n, in, out);
			else if (!dec)
				rc = (b256 ? isal_aes_xts_enc_256_expanded_key
				           : isal_aes_xts_enc_128_expanded_key)(key2, key1, tw, n,
				                                                in, out);
			else
				rc = (b256 ? isal_aes_xts_dec_256_expanded_key
				           : isal_aes_xts_dec_128_expanded_key)(key2, key1, tw, n,
				                                                in, out);
			ok &= rc == 0 && memcmp(out, want, n) == 0;
		}
	}
	return ok;
}

STOA_API int isal_self_tests(void)
{
	int ok = sha1_self_test(sha1_kats) & sha256_self_test(sha256_kats) &
	         sha512_self_test(sha512_kats) & md5_self_test(md5_kats) & keyexp_self_test() &
	         xts_self_test();
	return ok ? ISAL_CRYPTO_ERR_NONE : ISAL_CRYPTO_ERR_SELF_TEST;
}
