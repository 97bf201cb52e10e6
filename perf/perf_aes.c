/* AES-XTS benchmark cases: XTS_AES_{128,256}_{enc,dec} and the 128-bit expanded-key forms, at a
 * 512-byte and a 4 KiB sector and 64 KiB and 1 MiB buffers, with OpenSSL's EVP XTS beside them.
 *
 * Bytes are counted as isa-l_crypto's xts perf programs count them: the data unit's length.
 * Every call encrypts (or decrypts) the same data unit with the same keys and tweak, from the
 * first half of the instance into the second, so calls are independent like separate sectors.
 * The forms that take raw keys expand them on every call, as a caller of that API pays; OpenSSL
 * keeps its key schedule in a context made once per thread and only sets the tweak per call,
 * which is its fastest use (and the one dm-crypt-style callers make).
 *
 * The ISA-L builds of the driver have no crypto API, so there this file has no cases; built
 * with -DPERF_LIB_ISAL_CRYPTO against isa-l_crypto's headers and library, it measures that
 * library with the same cases (see perf/README.md). */
#include "perf.h"

#if defined(PERF_LIB_STOA) || defined(PERF_LIB_ISAL_CRYPTO)

#include <string.h>

/* The older entry points are marked deprecated; they are the ones both libraries dispatch. */
#define ISAL_UNIT_TEST
#include "isa-l_crypto/aes_keyexp.h"
#include "isa-l_crypto/aes_xts.h"

#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_OPENSSL)
#include <openssl/evp.h>
#endif

typedef void xts_call(uint8_t *k2, uint8_t *k1, uint8_t *tw, uint64_t len, const uint8_t *in,
                      uint8_t *out);

/* Arbitrary distinct keys (XTS wants k1 != k2) and a sector number as the tweak. */
static uint8_t key_data[32] = { 0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae,
	                        0xf0, 0x85, 0x7d, 0x77, 0x81, 0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61,
	                        0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4 };
static uint8_t key_tweak[32] = { 0x27, 0x18, 0x28, 0x18, 0x28, 0x45, 0x90, 0x45, 0x23, 0x53, 0x60,
	                         0x28, 0x74, 0x71, 0x35, 0x26, 0x31, 0x41, 0x59, 0x26, 0x53, 0x58,
	                         0x97, 0x93, 0x23, 0x84, 0x62, 0x64, 0x33, 0x83, 0x27, 0x95 };
static uint8_t sector[16] = { 0x39, 0x30, 0x05 };

static const size_t xts_sizes[] = { 512, 4096, 65536, 1048576, 0 };

static size_t xts_footprint(size_t size)
{
	return 2 * size;
}

/* What a call wrote, for the cross-implementation check: words from the start, middle and end
 * of the output (all of it would add a read of the output to every call of a --cold walk). */
static uint64_t sample(const uint8_t *p, size_t len)
{
	size_t at[3] = { 0, len / 2 & ~(size_t)7, len - 8 };
	uint64_t f = 0, w;
	for (int i = 0; i < 3; i++) {
		memcpy(&w, p + at[i], 8);
		f = (f << 21 | f >> 43) ^ w;
	}
	return f;
}

static uint64_t run_xts(const struct perf_call *c, uint64_t calls)
{
	xts_call *f = (xts_call *)c->fn;
	uint8_t *in = c->mem, *out = c->mem + c->size;
	for (uint64_t i = 0; i < calls; i++)
		f(key_tweak, key_data, sector, c->size, in, out);
	return sample(out, c->size);
}

/* The expanded-key forms: schedules made once per size with the measured library's own key
 * expansion, k2's encryption schedule and k1's in the direction of the case. */
struct schedules {
	uint8_t k2_enc[16 * 15], k1_enc[16 * 15], k1_dec[16 * 15], unused[16 * 15];
};

static void *prepare_128(size_t size)
{
	static struct schedules s;
	(void)size;
	isal_aes_keyexp_128(key_tweak, s.k2_enc, s.unused);
	isal_aes_keyexp_128(key_data, s.k1_enc, s.k1_dec);
	return &s;
}

static uint64_t run_xts_exp_enc(const struct perf_call *c, uint64_t calls)
{
	xts_call *f = (xts_call *)c->fn;
	struct schedules *s = c->state;
	uint8_t *in = c->mem, *out = c->mem + c->size;
	for (uint64_t i = 0; i < calls; i++)
		f(s->k2_enc, s->k1_enc, sector, c->size, in, out);
	return sample(out, c->size);
}

static uint64_t run_xts_exp_dec(const struct perf_call *c, uint64_t calls)
{
	xts_call *f = (xts_call *)c->fn;
	struct schedules *s = c->state;
	uint8_t *in = c->mem, *out = c->mem + c->size;
	for (uint64_t i = 0; i < calls; i++)
		f(s->k2_enc, s->k1_dec, sector, c->size, in, out);
	return sample(out, c->size);
}

#if defined(PERF_LIB_STOA) && defined(PERF_HAVE_OPENSSL)
/* One context per thread and cipher, keyed once: OpenSSL's XTS key is k1 then k2. */
enum { OSSL_128_ENC, OSSL_128_DEC, OSSL_256_ENC, OSSL_256_DEC, OSSL_N };
static _Thread_local EVP_CIPHER_CTX *ossl_ctx[OSSL_N];

static EVP_CIPHER_CTX *ossl_context(int which)
{
	if (!ossl_ctx[which]) {
		int bytes = which < OSSL_256_ENC ? 16 : 32, enc = which % 2 == 0;
		uint8_t key[64];
		memcpy(key, key_data, bytes);
		memcpy(key + bytes, key_tweak, bytes);
		const EVP_CIPHER *cipher = bytes == 16 ? EVP_aes_128_xts() : EVP_aes_256_xts();
		ossl_ctx[which] = EVP_CIPHER_CTX_new();
		if (!ossl_ctx[which] ||
		    !EVP_CipherInit_ex(ossl_ctx[which], cipher, NULL, key, NULL, enc))
			return NULL;
	}
	return ossl_ctx[which];
}

static uint64_t run_ossl(const struct perf_call *c, uint64_t calls, int which)
{
	EVP_CIPHER_CTX *ctx = ossl_context(which);
	uint8_t *in = c->mem, *out = c->mem + c->size;
	int n;
	if (!ctx)
		return 0;
	for (uint64_t i = 0; i < calls; i++) {
		EVP_CipherInit_ex(ctx, NULL, NULL, NULL, sector, -1);
		EVP_CipherUpdate(ctx, out, &n, in, (int)c->size);
	}
	return sample(out, c->size);
}

#define OSSL_RUN(name, which)                                                                      \
	static uint64_t name(const struct perf_call *c, uint64_t calls)                            \
	{                                                                                          \
		return run_ossl(c, calls, which);                                                  \
	}
OSSL_RUN(run_ossl_128_enc, OSSL_128_ENC)
OSSL_RUN(run_ossl_128_dec, OSSL_128_DEC)
OSSL_RUN(run_ossl_256_enc, OSSL_256_ENC)
OSSL_RUN(run_ossl_256_dec, OSSL_256_DEC)

/* The peer's fn is never called through: its run function is the whole implementation. */
#define OSSL_PEER(name, cipher, runner)                                                            \
	static const struct perf_peer name[] = {                                                   \
		{ "openssl", cipher, PERF_FN(EVP_CipherUpdate), runner },                          \
	};
OSSL_PEER(peer_128_enc, "EVP_aes_128_xts", run_ossl_128_enc)
OSSL_PEER(peer_128_dec, "EVP_aes_128_xts", run_ossl_128_dec)
OSSL_PEER(peer_256_enc, "EVP_aes_256_xts", run_ossl_256_enc)
OSSL_PEER(peer_256_dec, "EVP_aes_256_xts", run_ossl_256_dec)
#define PEERS(p) .peers = (p), .npeers = 1
#else
#define PEERS(p) .peers = NULL, .npeers = 0
#endif

#define XTS_CASE(fname, runner, ...)                                                               \
	{                                                                                          \
		.module = "aes", .function = #fname, .params = "", .bytes = "len",                 \
		.api = PERF_FN(fname), .run = (runner), .footprint = xts_footprint,                \
		.sizes = xts_sizes, __VA_ARGS__                                                    \
	}

/* OpenSSL runs beside the raw-key forms only: it would measure the same thing again beside the
 * expanded-key ones. */
static const struct perf_case aes_cases[] = {
	XTS_CASE(XTS_AES_128_enc, run_xts, PEERS(peer_128_enc)),
	XTS_CASE(XTS_AES_128_dec, run_xts, PEERS(peer_128_dec)),
	XTS_CASE(XTS_AES_256_enc, run_xts, PEERS(peer_256_enc)),
	XTS_CASE(XTS_AES_256_dec, run_xts, PEERS(peer_256_dec)),
	XTS_CASE(XTS_AES_128_enc_expanded_key, run_xts_exp_enc, .prepare = prepare_128),
	XTS_CASE(XTS_AES_128_dec_expanded_key, run_xts_exp_dec, .prepare = prepare_128),
};

const struct perf_module perf_module_aes = { "aes", aes_cases, PERF_COUNT(aes_cases) };

#else

const struct perf_module perf_module_aes = { "aes", NULL, 0 };

#endif
