/* Hash module tests: SHA-1, SHA-256, SHA-512 and MD5.
 *
 * Evidence: the FIPS 180 / RFC 1321 example messages (empty, "abc", the 448- and 896-bit
 * messages, a million 'a') through the one-call functions and through every manager
 * configuration; OpenSSL's EVP_Digest as the oracle for random messages of 0..10 KiB, cut into
 * random FIRST/UPDATE.../LAST pieces and interleaved over 48 contexts in flight, for every pair of
 * lane engine and single-stream engine the CPU can run (so every engine meets both the oracle and
 * the portable code's answers); each single-stream and lane engine called directly against the
 * portable engine on data that ends at a guard page; isa-l_crypto's known edge (a 64-byte FIRST
 * then an empty LAST) and the other block-boundary splits; misuse (UPDATE before FIRST, a
 * context still in the manager, bad flags, NULL arguments) gets the documented error and leaves
 * every other context's digest intact.
 *
 * Everything random comes from test_rand(), so STOA_SEED=N repeats a run exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "hash/hash_internal.h"
#include "isa-l_crypto.h"
#include "stoa.h"
#include "testutil.h"

/* One algorithm behind a uniform face: contexts and managers as opaque memory. */
struct algo {
	const char *name;
	size_t dlen, bs;
	const EVP_MD *(*md)(void);
	void (*oneshot)(const void *buf, size_t len, unsigned char *digest);
	const struct stoa_variant *singles, *lanes;
	size_t nsingles, nlanes;
	size_t ctx_size, mgr_size;
	void (*setup)(void *mgr, unsigned lanes, unsigned single);
	int (*init)(void *mgr);
	int (*submit)(void *mgr, void *ctx, void **out, const void *buf, uint32_t len, int flags);
	void *(*submit_old)(void *mgr, void *ctx, const void *buf, uint32_t len, int flags);
	int (*flush)(void *mgr, void **out);
	void (*ctx_init)(void *ctx);
	int (*status)(const void *ctx);
	int (*error)(const void *ctx);
	void (*digest)(const void *ctx, unsigned char *out);
	/* Direct engine checks (engine index), against the portable engine. */
	void (*check_single)(unsigned idx);
	void (*check_lanes)(unsigned idx);
};

#define ALG(alg, ALGU, WORD, NW, BS, MD, PUT, STRIDE, DLEN, IDX)                                   \
	static void alg##_setup_(void *m, unsigned l, unsigned s)                                  \
	{                                                                                          \
		alg##_mgr_setup(m, l, s);                                                          \
	}                                                                                          \
	static int alg##_init_(void *m)                                                            \
	{                                                                                          \
		return isal_##alg##_ctx_mgr_init(m);                                               \
	}                                                                                          \
	static int alg##_submit_(void *m, void *c, void **out, const void *b, uint32_t n, int f)   \
	{                                                                                          \
		ISAL_##ALGU##_HASH_CTX *o = (void *)1;                                             \
		int r = isal_##alg##_ctx_mgr_submit(m, c, out ? &o : NULL, b, n,                   \
		                                    (ISAL_HASH_CTX_FLAG)f);                        \
		if (out)                                                                           \
			*out = o;                                                                  \
		return r;                                                                          \
	}                                                                                          \
	static void *alg##_submit_old_(void *m, void *c, const void *b, uint32_t n, int f)         \
	{                                                                                          \
		return alg##_ctx_mgr_submit(m, c, b, n, (ISAL_HASH_CTX_FLAG)f);                    \
	}                                                                                          \
	static int alg##_flush_(void *m, void **out)                                               \
	{                                                                                          \
		ISAL_##ALGU##_HASH_CTX *o = (void *)1;                                             \
		int r = isal_##alg##_ctx_mgr_flush(m, out ? &o : NULL);                            \
		if (out)                                                                           \
			*out = o;                                                                  \
		return r;                                                                          \
	}                                                                                          \
	static void alg##_ctx_init_(void *c)                                                       \
	{                                                                                          \
		ISAL_##ALGU##_HASH_CTX *x = c;                                                     \
		isal_hash_ctx_init(x);                                                             \
	}                                                                                          \
	static int alg##_status_(const void *c)                                                    \
	{                                                                                          \
		return (int)((const ISAL_##ALGU##_HASH_CTX *)c)->status;                           \
	}                                                                                          \
	static int alg##_error_(const void *c)                                                     \
	{                                                                                          \
		return (int)((const ISAL_##ALGU##_HASH_CTX *)c)->error;                            \
	}                                                                                          \
	static void alg##_digest_(const void *c, unsigned char *out)                               \
	{                                                                                          \
		const ISAL_##ALGU##_HASH_CTX *x = c;                                               \
		for (int w = 0; w < NW; w++)                                                       \
			PUT(out + w * sizeof(WORD), x->job.result_digest[w]);                      \
	}                                                                                          \
	static void alg##_check_single_(unsigned idx)                                              \
	{                                                                                          \
		const struct alg##_single *se = &alg##_singles[idx];                               \
		for (int rep = 0; rep < 200; rep++) {                                              \
			size_t nb = test_rand_below(9), len = nb * BS;                             \
			uint8_t *a = guard_alloc(len, GUARD_BACK),                                 \
			        *b = guard_alloc(len, GUARD_BACK);                                 \
			test_fill_random(a, len);                                                  \
			test_fill_random(b, len);                                                  \
			WORD s[NW], t[NW], u[NW], v[NW];                                           \
			for (int w = 0; w < NW; w++)                                               \
				s[w] = t[w] = u[w] = v[w] = (WORD)test_rand();                     \
			se->x1(s, a, nb);                                                          \
			alg##_x1_portable(t, a, nb);                                               \
			if (memcmp(s, t, sizeof(s)))                                               \
				TEST_FAIL(#alg " single %u x1: %zu blocks differ\n", idx, nb);     \
			if (se->x2) {                                                              \
				memcpy(s, u, sizeof(s));                                           \
				se->x2(s, u, a, b, nb);                                            \
				alg##_x1_portable(v, b, nb);                                       \
				if (memcmp(s, t, sizeof(s)) || memcmp(u, v, sizeof(u)))            \
					TEST_FAIL(#alg " single %u x2: %zu blocks differ\n", idx,  \
					          nb);                                             \
			}                                                                          \
			guard_free(a, len, GUARD_BACK);                                            \
			guard_free(b, len, GUARD_BACK);                                            \
		}                                                                                  \
	}                                                                                          \
	static void alg##_check_lanes_(unsigned idx)                                               \
	{                                                                                          \
		const struct alg##_lanes *le = &alg##_lane_engines[idx];                           \
		/* The engine on all its lanes, then its half form (if any) on half of them. */    \
		for (int form = 0; form < 2; form++) {                                             \
			alg##_lanes_fn *fn = form ? le->half : le->fn;                             \
			unsigned width = form ? le->width / 2 : le->width;                         \
			for (int rep = 0; fn && rep < 40; rep++) {                                 \
				size_t nb = 1 + test_rand_below(6), len = nb * BS;                 \
				uint8_t *bufs[STRIDE];                                             \
				WORD dig[NW][STRIDE], ref[STRIDE][NW];                             \
				for (unsigned l = 0; l < width; l++) {                             \
					bufs[l] = guard_alloc(len, GUARD_BACK);                    \
					test_fill_random(bufs[l], len);                            \
					for (int w = 0; w < NW; w++)                               \
						dig[w][l] = ref[l][w] = (WORD)test_rand();         \
					alg##_x1_portable(ref[l], bufs[l], nb);                    \
				}                                                                  \
				fn(dig, bufs, nb);                                                 \
				for (unsigned l = 0; l < width; l++) {                             \
					for (int w = 0; w < NW; w++)                               \
						if (dig[w][l] != ref[l][w])                        \
							TEST_FAIL(#alg " lanes %u%s: lane %u of "  \
							               "%u, %zu blocks differ\n",  \
							          idx, form ? " (half)" : "", l,   \
							          width, nb);                      \
					guard_free(bufs[l], len, GUARD_BACK);                      \
				}                                                                  \
			}                                                                          \
		}                                                                                  \
	}                                                                                          \
	static const struct algo alg##_alg = {                                                     \
		#alg,                                                                              \
		DLEN,                                                                              \
		BS,                                                                                \
		MD,                                                                                \
		stoa_##alg,                                                                        \
		stoa_##alg##_variants,                                                             \
		alg##_ctx_mgr_init_variants,                                                       \
		0,                                                                                 \
		0,                                                                                 \
		sizeof(ISAL_##ALGU##_HASH_CTX),                                                    \
		sizeof(ISAL_##ALGU##_HASH_CTX_MGR),                                                \
		alg##_setup_,                                                                      \
		alg##_init_,                                                                       \
		alg##_submit_,                                                                     \
		alg##_submit_old_,                                                                 \
		alg##_flush_,                                                                      \
		alg##_ctx_init_,                                                                   \
		alg##_status_,                                                                     \
		alg##_error_,                                                                      \
		alg##_digest_,                                                                     \
		alg##_check_single_,                                                               \
		alg##_check_lanes_,                                                                \
	};

static void put32be(unsigned char *p, uint32_t v)
{
	hash_put_be32(p, v);
}
static void put64be(unsigned char *p, uint64_t v)
{
	hash_put_be64(p, v);
}
static void put32le(unsigned char *p, uint32_t v)
{
	hash_put_le32(p, v);
}

ALG(sha1, SHA1, uint32_t, 5, 64, EVP_sha1, put32be, 16, 20, 0)
ALG(sha256, SHA256, uint32_t, 8, 64, EVP_sha256, put32be, 16, 32, 1)
ALG(sha512, SHA512, uint64_t, 8, 128, EVP_sha512, put64be, 8, 64, 2)
ALG(md5, MD5, uint32_t, 4, 64, EVP_md5, put32le, 32, 16, 3)

static const struct algo *const algs[] = { &sha1_alg, &sha256_alg, &sha512_alg, &md5_alg };

static size_t nsingles(int a)
{
	return hash_single_count[a];
}
static size_t nlanes(int a)
{
	return hash_lanes_count[a];
}

static void *xalloc(size_t n)
{
	void *p = NULL;
	if (posix_memalign(&p, 64, n))
		abort();
	memset(p, 0xa5, n);
	return p;
}

static void oracle(const struct algo *A, const void *buf, size_t len, unsigned char *out)
{
	unsigned int n = 0;
	if (!EVP_Digest(buf, len, out, &n, A->md(), NULL) || n != A->dlen)
		TEST_FAIL("%s: EVP_Digest failed\n", A->name);
}

/* Hashes one whole message through a manager with the given piece boundaries. */
static void mgr_hash(const struct algo *A, void *mgr, const uint8_t *msg, size_t len,
                     const size_t *cuts, size_t ncuts, unsigned char *out)
{
	void *ctx = xalloc(A->ctx_size), *got;
	A->ctx_init(ctx);
	size_t at = 0;
	for (size_t i = 0; i <= ncuts; i++) {
		size_t end = i < ncuts ? cuts[i] : len;
		int flags = (i == 0 ? ISAL_HASH_FIRST : 0) | (i == ncuts ? ISAL_HASH_LAST : 0);
		assert_int_equal(A->submit(mgr, ctx, &got, msg + at, (uint32_t)(end - at), flags),
		                 0);
		while (A->status(ctx) & ISAL_HASH_CTX_STS_PROCESSING) {
			assert_int_equal(A->flush(mgr, &got), 0);
			assert_non_null(got);
		}
		at = end;
	}
	assert_int_equal(A->status(ctx), ISAL_HASH_CTX_STS_COMPLETE);
	A->digest(ctx, out);
	free(ctx);
}

static void test_known_answers(void **state)
{
	(void)state;
	static const char m448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	static const char m896[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
	                           "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	/* FIPS 180-2 appendices and RFC 1321 appendix A.5. */
	static const struct {
		int alg, msg;
		const char *hex;
	} kat[] = {
		{ 0, 0, "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
		{ 0, 1, "a9993e364706816aba3e25717850c26c9cd0d89d" },
		{ 0, 2, "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
		{ 0, 4, "34aa973cd4c4daa4f61eeb2bdbad27316534016f" },
		{ 1, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ 1, 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ 1, 2, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ 1, 4, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
		{ 2, 0,
		  "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
		  "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e" },
		{ 2, 1,
		  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
		  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
		{ 2, 3,
		  "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
		  "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909" },
		{ 2, 4,
		  "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
		  "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b" },
		{ 3, 0, "d41d8cd98f00b204e9800998ecf8427e" },
		{ 3, 1, "900150983cd24fb0d6963f7d28e17f72" },
		{ 3, 2, "8215ef0796a20bcaaae116d3876c664a" },
		{ 3, 4, "7707d6ae4e027c70eea2a935c2296f21" },
	};
	size_t mlen = 1000000;
	uint8_t *ma = malloc(mlen);
	memset(ma, 'a', mlen);
	size_t checks = 0;
	for (size_t i = 0; i < sizeof(kat) / sizeof(kat[0]); i++) {
		const struct algo *A = algs[kat[i].alg];
		const uint8_t *msg = kat[i].msg == 0   ? (const uint8_t *)""
		                     : kat[i].msg == 1 ? (const uint8_t *)"abc"
		                     : kat[i].msg == 2 ? (const uint8_t *)m448
		                     : kat[i].msg == 3 ? (const uint8_t *)m896
		                                       : ma;
		size_t len = kat[i].msg == 0   ? 0
		             : kat[i].msg == 1 ? 3
		             : kat[i].msg == 2 ? strlen(m448)
		             : kat[i].msg == 3 ? strlen(m896)
		                               : mlen;
		unsigned char want[64], got[64];
		for (size_t j = 0; j < A->dlen; j++)
			sscanf(kat[i].hex + 2 * j, "%2hhx", &want[j]);
		A->oneshot(msg, len, got);
		if (memcmp(got, want, A->dlen))
			TEST_FAIL("%s one-call: message %d wrong\n", A->name, kat[i].msg);
		checks++;
		int a = kat[i].alg;
		for (unsigned l = 0; l < nlanes(a); l++) {
			if (!stoa_variant_usable(&A->lanes[l]))
				continue;
			for (unsigned s = 0; s < nsingles(a); s++) {
				if (!stoa_variant_usable(&A->singles[s]))
					continue;
				void *mgr = xalloc(A->mgr_size);
				A->setup(mgr, l, s);
				size_t cut = len / 3;
				mgr_hash(A, mgr, msg, len, NULL, 0, got);
				if (memcmp(got, want, A->dlen))
					TEST_FAIL("%s manager %s/%s: message %d wrong\n", A->name,
					          A->lanes[l].name, A->singles[s].name, kat[i].msg);
				mgr_hash(A, mgr, msg, len, &cut, 1, got);
				if (memcmp(got, want, A->dlen))
					TEST_FAIL(
					    "%s manager %s/%s: message %d in two pieces wrong\n",
					    A->name, A->lanes[l].name, A->singles[s].name,
					    kat[i].msg);
				free(mgr);
				checks += 2;
			}
		}
	}
	free(ma);
	print_message("known answers: %zu digests (FIPS 180 / RFC 1321 messages, one-call and "
	              "every engine pair, whole and in two pieces)\n",
	              checks);
}

/* Many contexts in flight: random messages in random pieces, submitted in random order. */
static size_t random_round(const struct algo *A, void *mgr, size_t nctx)
{
	struct job {
		uint8_t *msg;
		size_t len, at;
		int done;
		void *ctx;
	} *jobs = calloc(nctx, sizeof(*jobs));
	for (size_t i = 0; i < nctx; i++) {
		jobs[i].len =
		    test_rand_below(4) == 0 ? test_rand_below(300) : test_rand_below(10241);
		jobs[i].msg = malloc(jobs[i].len + 1);
		test_fill_random(jobs[i].msg, jobs[i].len);
		jobs[i].ctx = xalloc(A->ctx_size);
		A->ctx_init(jobs[i].ctx);
	}
	size_t left = nctx, pieces = 0;
	while (left) {
		struct job *j = &jobs[test_rand_below(nctx)];
		if (j->done || (A->status(j->ctx) & ISAL_HASH_CTX_STS_PROCESSING)) {
			void *got;
			if (test_rand_below(3) == 0) {
				assert_int_equal(A->flush(mgr, &got), 0);
			}
			continue;
		}
		int first = j->at == 0 && A->status(j->ctx) == ISAL_HASH_CTX_STS_COMPLETE;
		size_t rest = j->len - j->at;
		size_t piece = test_rand_below(3) == 0 ? rest : test_rand_below(rest + 1);
		if (test_rand_below(8) == 0)
			piece = rest < 64 ? rest : (test_rand_below(rest / 64 + 1)) * 64;
		int last = piece == rest && test_rand_below(4) != 0;
		int flags = (first ? ISAL_HASH_FIRST : 0) | (last ? ISAL_HASH_LAST : 0);
		void *got = NULL;
		if (test_rand_below(2))
			assert_int_equal(
			    A->submit(mgr, j->ctx, &got, j->msg + j->at, (uint32_t)piece, flags),
			    0);
		else
			got = A->submit_old(mgr, j->ctx, j->msg + j->at, (uint32_t)piece, flags);
		if (got && A->error(got))
			TEST_FAIL("%s: context returned with error %d\n", A->name, A->error(got));
		pieces++;
		j->at += piece;
		if (last) {
			j->done = 1;
			left--;
		}
	}
	void *got;
	do
		assert_int_equal(A->flush(mgr, &got), 0);
	while (got);
	for (size_t i = 0; i < nctx; i++) {
		unsigned char want[64], have[64];
		if (A->status(jobs[i].ctx) != ISAL_HASH_CTX_STS_COMPLETE)
			TEST_FAIL("%s: context %zu not complete after flush (status %d)\n", A->name,
			          i, A->status(jobs[i].ctx));
		oracle(A, jobs[i].msg, jobs[i].len, want);
		A->digest(jobs[i].ctx, have);
		if (memcmp(want, have, A->dlen))
			TEST_FAIL("%s: context %zu (%zu bytes) differs from OpenSSL\n", A->name, i,
			          jobs[i].len);
		free(jobs[i].msg);
		free(jobs[i].ctx);
	}
	free(jobs);
	return pieces;
}

static void test_random_vs_openssl(void **state)
{
	(void)state;
	test_seed();
	for (int a = 0; a < 4; a++) {
		const struct algo *A = algs[a];
		size_t pieces = 0, configs = 0;
		for (unsigned l = 0; l < nlanes(a); l++) {
			if (!stoa_variant_usable(&A->lanes[l]))
				continue;
			for (unsigned s = 0; s < nsingles(a); s++) {
				if (!stoa_variant_usable(&A->singles[s]))
					continue;
				void *mgr = xalloc(A->mgr_size);
				A->setup(mgr, l, s);
				for (int round = 0; round < 3; round++)
					pieces += random_round(A, mgr, 40 + test_rand_below(24));
				free(mgr);
				configs++;
			}
		}
		/* And the public init, whatever it picks. */
		void *mgr = xalloc(A->mgr_size);
		assert_int_equal(A->init(mgr), 0);
		pieces += random_round(A, mgr, 48);
		free(mgr);
		/* One-call against the oracle on random lengths. */
		for (int i = 0; i < 300; i++) {
			size_t len =
			    test_rand_below(4) ? test_rand_below(600) : test_rand_below(20000);
			uint8_t *b = guard_alloc(len, GUARD_BACK);
			unsigned char want[64], have[64];
			test_fill_random(b, len);
			oracle(A, b, len, want);
			A->oneshot(b, len, have);
			if (memcmp(want, have, A->dlen))
				TEST_FAIL("%s one-call: %zu bytes differ from OpenSSL\n", A->name,
				          len);
			guard_free(b, len, GUARD_BACK);
		}
		print_message("%s: %zu engine pairs + public init, %zu pieces in flight with 40-63 "
		              "contexts, 300 one-call lengths: all equal to OpenSSL\n",
		              A->name, configs, pieces);
	}
}

static void test_engines_vs_base(void **state)
{
	(void)state;
	for (int a = 0; a < 4; a++) {
		const struct algo *A = algs[a];
		size_t n = 0;
		for (unsigned s = 0; s < nsingles(a); s++)
			if (stoa_variant_usable(&A->singles[s])) {
				A->check_single(s);
				n++;
			}
		for (unsigned l = 0; l < nlanes(a); l++)
			if (stoa_variant_usable(&A->lanes[l])) {
				A->check_lanes(l);
				n++;
			}
		print_message("%s: %zu engines (and half-width forms) equal to the portable engine "
		              "on random blocks at a guard page\n",
		              A->name, n);
	}
}

/* Splits at and around block boundaries, including isa-l_crypto's known failure: a FIRST of
 * exactly one block followed by an empty LAST. */
static void test_boundaries(void **state)
{
	(void)state;
	size_t checks = 0;
	for (int a = 0; a < 4; a++) {
		const struct algo *A = algs[a];
		size_t bs = A->bs;
		uint8_t msg[1024];
		test_fill_random(msg, sizeof(msg));
		for (unsigned l = 0; l < nlanes(a); l++) {
			if (!stoa_variant_usable(&A->lanes[l]))
				continue;
			/* The best single-stream engine this CPU runs (SHA-NI is not everywhere). */
			unsigned s = 0;
			while (!stoa_variant_usable(&A->singles[s]))
				s++;
			void *mgr = xalloc(A->mgr_size);
			A->setup(mgr, l, s);
			for (size_t len = 0; len <= 3 * bs; len++) {
				size_t cuts[2][2] = { { bs < len ? bs : len, len },
					              { len / 2, len / 2 } };
				unsigned char want[64], have[64];
				oracle(A, msg, len, want);
				for (int c = 0; c < 2; c++) {
					mgr_hash(A, mgr, msg, len, cuts[c], 2, have);
					if (memcmp(want, have, A->dlen))
						TEST_FAIL("%s %s: %zu bytes cut at %zu,%zu wrong\n",
						          A->name, A->lanes[l].name, len,
						          cuts[c][0], cuts[c][1]);
					checks++;
				}
			}
			/* The exact known failure, through the older API too. */
			void *ctx = xalloc(A->ctx_size), *got;
			unsigned char want[64], have[64];
			A->ctx_init(ctx);
			A->submit_old(mgr, ctx, msg, (uint32_t)bs, ISAL_HASH_FIRST);
			while (A->status(ctx) & ISAL_HASH_CTX_STS_PROCESSING)
				A->flush(mgr, &got);
			A->submit_old(mgr, ctx, msg + bs, 0, ISAL_HASH_LAST);
			while (A->status(ctx) & ISAL_HASH_CTX_STS_PROCESSING)
				A->flush(mgr, &got);
			oracle(A, msg, bs, want);
			A->digest(ctx, have);
			if (A->status(ctx) != ISAL_HASH_CTX_STS_COMPLETE ||
			    memcmp(want, have, A->dlen))
				TEST_FAIL("%s %s: one-block FIRST then empty LAST wrong\n", A->name,
				          A->lanes[l].name);
			checks++;
			free(ctx);
			free(mgr);
		}
	}
	print_message("boundaries: %zu split messages of 0..3 blocks (cut at one block, at the "
	              "middle, empty pieces; one-block FIRST + empty LAST) equal to OpenSSL\n",
	              checks);
}

static void test_misuse(void **state)
{
	(void)state;
	for (int a = 0; a < 4; a++) {
		const struct algo *A = algs[a];
		void *mgr = xalloc(A->mgr_size), *bystander = xalloc(A->ctx_size);
		void *ctx = xalloc(A->ctx_size), *got;
		uint8_t msg[3000];
		unsigned char want[64], have[64];
		test_fill_random(msg, sizeof(msg));
		assert_int_equal(A->init(mgr), 0);
		A->ctx_init(bystander);
		A->ctx_init(ctx);
		/* A bystander in the manager, partway through, must come out intact. */
		assert_int_equal(A->submit(mgr, bystander, &got, msg, 1000, ISAL_HASH_FIRST), 0);

		/* NULL arguments. */
		assert_int_equal(A->init(NULL), ISAL_CRYPTO_ERR_NULL_MGR);
		assert_int_equal(A->submit(NULL, ctx, &got, msg, 10, ISAL_HASH_ENTIRE),
		                 ISAL_CRYPTO_ERR_NULL_MGR);
		assert_int_equal(A->submit(mgr, NULL, &got, msg, 10, ISAL_HASH_ENTIRE),
		                 ISAL_CRYPTO_ERR_NULL_CTX);
		assert_int_equal(A->submit(mgr, ctx, NULL, msg, 10, ISAL_HASH_ENTIRE),
		                 ISAL_CRYPTO_ERR_NULL_CTX);
		assert_int_equal(A->submit(mgr, ctx, &got, NULL, 10, ISAL_HASH_ENTIRE),
		                 ISAL_CRYPTO_ERR_NULL_SRC);
		assert_int_equal(A->submit(mgr, ctx, &got, NULL, 0, ISAL_HASH_UPDATE),
		                 ISAL_CRYPTO_ERR_NULL_SRC);
		assert_int_equal(A->flush(NULL, &got), ISAL_CRYPTO_ERR_NULL_MGR);
		assert_int_equal(A->flush(mgr, NULL), ISAL_CRYPTO_ERR_NULL_CTX);
		/* UPDATE or LAST before FIRST. */
		assert_int_equal(A->submit(mgr, ctx, &got, msg, 10, ISAL_HASH_UPDATE),
		                 ISAL_CRYPTO_ERR_ALREADY_COMPLETED);
		assert_ptr_equal(got, ctx);
		assert_int_equal(A->error(ctx), ISAL_HASH_CTX_ERROR_ALREADY_COMPLETED);
		assert_int_equal(A->submit(mgr, ctx, &got, msg, 10, ISAL_HASH_LAST),
		                 ISAL_CRYPTO_ERR_ALREADY_COMPLETED);
		/* Bad flags. */
		assert_int_equal(A->submit(mgr, ctx, &got, msg, 10, 4),
		                 ISAL_CRYPTO_ERR_INVALID_FLAGS);
		assert_int_equal(A->error(ctx), ISAL_HASH_CTX_ERROR_INVALID_FLAGS);
		/* A context still in the manager. */
		assert_int_equal(A->submit(mgr, ctx, &got, msg, 2000, ISAL_HASH_FIRST), 0);
		if (A->status(ctx) & ISAL_HASH_CTX_STS_PROCESSING) {
			assert_int_equal(A->submit(mgr, ctx, &got, msg, 10, ISAL_HASH_UPDATE),
			                 ISAL_CRYPTO_ERR_ALREADY_PROCESSING);
			assert_ptr_equal(got, ctx);
			void *old = A->submit_old(mgr, ctx, msg, 10, ISAL_HASH_FIRST);
			assert_ptr_equal(old, ctx);
			assert_int_equal(A->error(ctx), ISAL_HASH_CTX_ERROR_ALREADY_PROCESSING);
		}
		/* Both finish correctly despite everything above. */
		while (A->status(ctx) & ISAL_HASH_CTX_STS_PROCESSING)
			assert_int_equal(A->flush(mgr, &got), 0);
		assert_int_equal(A->submit(mgr, ctx, &got, msg + 2000, 1000, ISAL_HASH_LAST), 0);
		while (A->status(bystander) & ISAL_HASH_CTX_STS_PROCESSING)
			assert_int_equal(A->flush(mgr, &got), 0);
		assert_int_equal(A->submit(mgr, bystander, &got, msg + 1000, 2000, ISAL_HASH_LAST),
		                 0);
		do
			assert_int_equal(A->flush(mgr, &got), 0);
		while (got);
		oracle(A, msg, 3000, want);
		A->digest(ctx, have);
		assert_memory_equal(want, have, A->dlen);
		A->digest(bystander, have);
		assert_memory_equal(want, have, A->dlen);
		/* LAST again after completion is refused; FIRST restarts. */
		assert_int_equal(A->submit(mgr, ctx, &got, msg, 10, ISAL_HASH_LAST),
		                 ISAL_CRYPTO_ERR_ALREADY_COMPLETED);
		A->digest(ctx, have);
		assert_memory_equal(want, have, A->dlen);
		free(mgr);
		free(ctx);
		free(bystander);
		print_message(
		    "%s misuse: NULLs, UPDATE/LAST before FIRST, bad flags, resubmit while "
		    "processing: documented errors, both contexts' digests intact\n",
		    A->name);
	}
}

/* The layout facts callers rely on. The manager sizes are those of isa-l_crypto's headers (git
 * ad5aab1) compiled for each data model: LP64 (x86-64, aarch64, s390x), ILP32 with 4-byte
 * aligned 64-bit integers (i686) and with 8-byte aligned ones (armhf). */
static void test_layout(void **state)
{
	(void)state;
	static const size_t sizes[3][4] = {
		{ 656, 848, 720, 1192 }, /* LP64 */
		{ 528, 720, 652, 932 },  /* i686 */
		{ 528, 720, 656, 936 },  /* armhf */
	};
	const int model = sizeof(void *) == 8 ? 0 : _Alignof(uint64_t) == 4 ? 1 : 2;
	assert_int_equal(offsetof(ISAL_SHA1_HASH_CTX, job), 0);
	assert_int_equal(offsetof(ISAL_SHA1_JOB, result_digest) % 64, 0);
	assert_int_equal(sizeof(ISAL_SHA1_HASH_CTX_MGR), sizes[model][0]);
	assert_int_equal(sizeof(ISAL_SHA256_HASH_CTX_MGR), sizes[model][1]);
	assert_int_equal(sizeof(ISAL_SHA512_HASH_CTX_MGR), sizes[model][2]);
	assert_int_equal(sizeof(ISAL_MD5_HASH_CTX_MGR), sizes[model][3]);
	print_message("layout: job first in the context, digest 64-byte aligned, manager sizes as "
	              "isa-l_crypto's (%s)\n",
	              model == 0 ? "LP64" : "ILP32");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),          cmocka_unit_test(test_known_answers),
		cmocka_unit_test(test_engines_vs_base), cmocka_unit_test(test_random_vs_openssl),
		cmocka_unit_test(test_boundaries),      cmocka_unit_test(test_misuse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
