/* stoa's libz.so.1 against the system's zlib (in its own process, tests/zlib_peer.c) on scripts
 * of zlib calls (tests/zlib_script.h):
 *  - every stream stoa writes (levels 0-9 and -1, five strategies, raw, zlib and gzip wrappers,
 *    windows 9-15, memLevels 1-9, dictionaries, every flush mode with input and output in pieces
 *    down to one byte, deflateParams, deflatePrime and deflateCopy mid-stream) inflates with
 *    zlib to the data, and with stoa;
 *  - every stream zlib writes for the same scripts inflates with stoa to the data, in pieces,
 *    with every flush mode, and stoa ends with the counters, check value and unused input that
 *    zlib ends with;
 *  - with Z_BLOCK and Z_TREES, stoa stops where zlib stops (total_in, total_out, data_type);
 *  - damaged streams: stoa fails where zlib fails, with zlib's result code, and with zlib's
 *    message for the faults of the wrappers.
 * STOA_ZLIB_SCRIPTS sets the number of random scripts (default 300). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"
#include "zlib_testutil.h"

/* A random script: header bytes, operations, then a payload of one of the data kinds. */
static size_t make_script(uint8_t *buf, size_t cap, size_t payload)
{
	const unsigned nops = (unsigned)test_rand_below(12);
	size_t n = 0;
	buf[n++] = (uint8_t)test_rand();
	buf[n++] = (uint8_t)test_rand();
	buf[n++] = (uint8_t)test_rand();
	/* Strategies: the default one half the time. */
	buf[n++] = (uint8_t)(test_rand_below(2) ? 0 : test_rand());
	buf[n++] = (uint8_t)(test_rand_below(4) ? 0 : test_rand());
	buf[n++] = (uint8_t)nops;
	for (unsigned i = 0; i < nops; i++) {
		buf[n++] = (uint8_t)test_rand();
		buf[n++] = (uint8_t)test_rand();
		buf[n++] = (uint8_t)test_rand();
	}
	if (payload > cap - n)
		payload = cap - n;
	uint8_t *data = zt_data((int)test_rand_below(ZT_KINDS), payload);
	memcpy(buf + n, data, payload);
	free(data);
	return n + payload;
}

/* windowBits an inflater may use for a stream written with wbits: the same, or for zlib 0 (the
 * header's), for zlib and gzip automatic detection. */
static int inflate_bits(int wbits)
{
	if (wbits < 0)
		return wbits;
	const int bits = wbits > 16 ? wbits - 16 : wbits;
	switch (test_rand_below(3)) {
	case 0:
		return wbits;
	case 1:
		return bits + 32;
	default:
		return wbits < 16 ? 0 : wbits;
	}
}

static const int flushes[] = { Z_NO_FLUSH, Z_SYNC_FLUSH, Z_FINISH, Z_BLOCK, Z_TREES };

static void random_opts(struct zs_inflate_opts *o, int wbits, const struct zs_buf *dict)
{
	memset(o, 0, sizeof(*o));
	o->window_bits = inflate_bits(wbits);
	o->flush = flushes[test_rand_below(5)];
	o->in_piece = test_rand_below(3) ? (unsigned)(1 + test_rand_below(700)) : 0;
	o->out_piece = test_rand_below(3) ? (unsigned)(1 + test_rand_below(5000)) : 0;
	o->dict = dict->p;
	o->dict_len = dict->len;
}

/* The stops of Z_BLOCK or Z_TREES runs (rows of rc, total_in, total_out, data_type) agree. */
static void expect_same_stops(const char *what, const struct zs_inflate_result *r,
                              const struct zs_inflate_result *z, const uint8_t *stream, size_t n)
{
	if (r->calls.len == z->calls.len &&
	    (!r->calls.len || !memcmp(r->calls.p, z->calls.p, r->calls.len)))
		return;
	const int64_t *a = (const int64_t *)(const void *)r->calls.p;
	const int64_t *b = (const int64_t *)(const void *)z->calls.p;
	const size_t na = r->calls.len / 32, nb = z->calls.len / 32;
	for (size_t i = 0; i < na || i < nb; i++) {
		if (i < na)
			print_message("stoa %zu: rc %lld in %lld out %lld type %lld\n", i,
			              (long long)a[4 * i], (long long)a[4 * i + 1],
			              (long long)a[4 * i + 2], (long long)a[4 * i + 3]);
		if (i < nb)
			print_message("zlib %zu: rc %lld in %lld out %lld type %lld\n", i,
			              (long long)b[4 * i], (long long)b[4 * i + 1],
			              (long long)b[4 * i + 2], (long long)b[4 * i + 3]);
	}
	FILE *f = fopen("zlib_stream_failed.bin", "wb");
	if (f) {
		fwrite(stream, 1, n, f);
		fclose(f);
	}
	TEST_FAIL("%s: stoa stops elsewhere than zlib (zlib_stream_failed.bin)\n", what);
}

static void expect_inflates(const char *who, const struct zs_inflate_result *r,
                            const struct zs_deflate_result *d)
{
	if (r->rc != Z_STREAM_END)
		TEST_FAIL("%s: inflate ended with %d (%s)\n", who, r->rc, r->msg);
	zt_expect_same(who, r->out.p, r->out.len, d->data.p, d->data.len);
}

static void test_scripts(void **unused)
{
	(void)unused;
	struct zs_peer *peer = zt_peer();
	const char *env = getenv("STOA_ZLIB_SCRIPTS");
	const int count = env ? atoi(env) : 300;
	static uint8_t script[1 << 18];
	size_t bytes = 0;
	for (int i = 0; i < count; i++) {
		const size_t payload =
		    test_rand_below(4) ? test_rand_below(3000) : test_rand_below(200000);
		const size_t n = make_script(script, sizeof(script), payload);
		struct zs_deflate_result mine, ref;
		zs_run_deflate(script, n, &mine);
		if (zs_peer_deflate(peer, script, n, &ref)) {
			FILE *f = fopen("zlib_script_failed.bin", "wb");
			if (f) {
				fwrite(script, 1, n, f);
				fclose(f);
			}
			TEST_FAIL(
			    "the reference zlib failed on script %d (zlib_script_failed.bin)\n", i);
		}
		if (mine.init_rc != ref.init_rc)
			TEST_FAIL("script %d: deflateInit2 %d, zlib %d\n", i, mine.init_rc,
			          ref.init_rc);
		if (ref.failed || mine.failed) {
			FILE *f = fopen("zlib_script_failed.bin", "wb");
			if (f) {
				fwrite(script, 1, n, f);
				fclose(f);
			}
		}
		if (ref.failed)
			TEST_FAIL("script %d: the reference failed: %s (zlib_script_failed.bin)\n",
			          i, ref.why);
		if (mine.failed)
			TEST_FAIL("script %d: %s (zlib: fine)\n", i, mine.why);
		if (mine.init_rc != Z_OK) {
			zs_deflate_free(&mine);
			zs_deflate_free(&ref);
			continue;
		}
		zt_expect_same("data fed", mine.data.p, mine.data.len, ref.data.p, ref.data.len);
		bytes += mine.data.len;

		struct zs_inflate_opts o;
		struct zs_inflate_result r;
		/* stoa's stream, inflated by zlib and by stoa. */
		random_opts(&o, mine.window_bits, &mine.dict);
		if (zs_peer_inflate(peer, &o, mine.stream.p, mine.stream.len, &r))
			TEST_FAIL("the reference zlib failed inflating\n");
		expect_inflates("stoa's stream, zlib's inflate", &r, &mine);
		zs_inflate_free(&r);
		random_opts(&o, mine.window_bits, &mine.dict);
		zs_run_inflate(mine.stream.p, mine.stream.len, &o, &r);
		expect_inflates("stoa's stream, stoa's inflate", &r, &mine);
		zs_inflate_free(&r);

		/* zlib's stream, inflated by stoa, which ends as zlib ends. */
		random_opts(&o, ref.window_bits, &ref.dict);
		struct zs_inflate_result z;
		zs_run_inflate(ref.stream.p, ref.stream.len, &o, &r);
		if (zs_peer_inflate(peer, &o, ref.stream.p, ref.stream.len, &z))
			TEST_FAIL("the reference zlib failed inflating\n");
		expect_inflates("zlib's stream, stoa's inflate", &r, &ref);
		if (r.total_in != z.total_in || r.total_out != z.total_out || r.adler != z.adler ||
		    r.avail_in_left != z.avail_in_left)
			TEST_FAIL(
			    "script %d: stoa ends at in %llu out %llu adler %08llx left %llu, "
			    "zlib at %llu %llu %08llx %llu\n",
			    i, (unsigned long long)r.total_in, (unsigned long long)r.total_out,
			    (unsigned long long)r.adler, (unsigned long long)r.avail_in_left,
			    (unsigned long long)z.total_in, (unsigned long long)z.total_out,
			    (unsigned long long)z.adler, (unsigned long long)z.avail_in_left);
		expect_same_stops("Z_BLOCK/Z_TREES", &r, &z, ref.stream.p, ref.stream.len);
		zs_inflate_free(&r);
		zs_inflate_free(&z);
		zs_deflate_free(&mine);
		zs_deflate_free(&ref);
	}
	print_message("%d scripts, %zu bytes of data, each way\n", count, bytes);
}

/* zlib streams of many blocks: every stop of Z_BLOCK and Z_TREES where zlib's are. */
static void test_block_stops(void **unused)
{
	(void)unused;
	struct zs_peer *peer = zt_peer();
	static uint8_t script[1 << 17];
	size_t stops = 0;
	for (int i = 0; i < 60; i++) {
		/* Level, a wrapper, and flushes of each kind that end blocks. */
		size_t n = 0;
		script[n++] = (uint8_t)(1 + test_rand_below(10));
		script[n++] = (uint8_t)test_rand();
		script[n++] = 7;
		script[n++] = (uint8_t)(test_rand_below(3) ? 0 : test_rand_below(5));
		script[n++] = 0;
		const unsigned nops = 20;
		script[n++] = (uint8_t)nops;
		for (unsigned k = 0; k < nops; k++) {
			static const uint8_t ops[] = { 1 * 8, 2 * 8, 3 * 8, 5 * 8, 0 };
			script[n++] = ops[test_rand_below(5)];
			script[n++] = (uint8_t)test_rand();
			script[n++] = (uint8_t)test_rand_below(4);
		}
		uint8_t *data = zt_data((int)test_rand_below(ZT_KINDS), 60000);
		memcpy(script + n, data, 60000);
		free(data);
		n += 60000;
		struct zs_deflate_result ref;
		if (zs_peer_deflate(peer, script, n, &ref) || ref.init_rc != Z_OK || ref.failed)
			TEST_FAIL("the reference could not write the stream\n");
		for (int trees = 0; trees < 2; trees++) {
			const struct zs_inflate_opts o = {
				ref.window_bits, trees ? Z_TREES : Z_BLOCK, 0, 0, NULL, 0
			};
			struct zs_inflate_result r, z;
			zs_run_inflate(ref.stream.p, ref.stream.len, &o, &r);
			if (zs_peer_inflate(peer, &o, ref.stream.p, ref.stream.len, &z))
				TEST_FAIL("the reference zlib failed inflating\n");
			expect_inflates(trees ? "Z_TREES" : "Z_BLOCK", &r, &ref);
			expect_same_stops(trees ? "Z_TREES" : "Z_BLOCK", &r, &z, ref.stream.p,
			                  ref.stream.len);
			stops += r.calls.len / 32;
			zs_inflate_free(&r);
			zs_inflate_free(&z);
		}
		zs_deflate_free(&ref);
	}
	print_message("%zu stops, each where zlib's was\n", stops);
}

/* Damaged streams: the result of stoa's inflate is zlib's. */
struct damage {
	const char *what;
	int window_bits;
	const uint8_t *bytes;
	size_t len;
	int same_msg; /* the wrappers' faults: zlib's own words */
};

static void compare_damage(struct zs_peer *peer, const struct damage *d, int flush)
{
	struct zs_inflate_opts o = { d->window_bits, flush, 0, 0, NULL, 0 };
	struct zs_inflate_result r, z;
	zs_run_inflate(d->bytes, d->len, &o, &r);
	if (zs_peer_inflate(peer, &o, d->bytes, d->len, &z))
		TEST_FAIL("the reference zlib failed inflating\n");
	if (r.rc != z.rc)
		TEST_FAIL("%s: stoa %d (%s), zlib %d (%s)\n", d->what, r.rc, r.msg, z.rc, z.msg);
	if (d->same_msg && strcmp(r.msg, z.msg) != 0)
		TEST_FAIL("%s: stoa says '%s', zlib '%s'\n", d->what, r.msg, z.msg);
	if (z.rc == Z_STREAM_END)
		zt_expect_same(d->what, r.out.p, r.out.len, z.out.p, z.out.len);
	zs_inflate_free(&r);
	zs_inflate_free(&z);
}

static void test_damaged(void **unused)
{
	(void)unused;
	struct zs_peer *peer = zt_peer();
	/* "hello hello hello" at zlib -6, with a zlib and a gzip wrapper. */
	uint8_t text[64];
	memcpy(text, "hello hello hello hello, said the stream", 40);
	uint8_t zl[128], gz[128];
	uLong zl_len = sizeof(zl);
	assert_int_equal(compress2(zl, &zl_len, text, 40, 6), Z_OK);
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 31, 8, 0), Z_OK);
	z.next_in = text;
	z.avail_in = 40;
	z.next_out = gz;
	z.avail_out = sizeof(gz);
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	const size_t gz_len = z.total_out;
	deflateEnd(&z);

	uint8_t b[32][128];
	size_t k = 0;
	struct damage list[32];
#define DAMAGE(name, wb, src, len, same, edit)                                                     \
	do {                                                                                       \
		memcpy(b[k], src, len);                                                            \
		uint8_t *p = b[k];                                                                 \
		(void)p;                                                                           \
		edit;                                                                              \
		list[k] = (struct damage){ name, wb, b[k], len, same };                            \
		k++;                                                                               \
	} while (0)
	DAMAGE("intact zlib", 15, zl, zl_len, 1, );
	DAMAGE("intact gzip", 31, gz, gz_len, 1, );
	DAMAGE("header check", 15, zl, zl_len, 1, p[1] ^= 1);
	DAMAGE("method", 15, zl, zl_len, 1, p[0] = 0x77; p[1] = (uint8_t)(31 - 0x7700 % 31));
	DAMAGE("window too large for the decoder", 9, zl, zl_len, 1, );
	DAMAGE("zlib where gzip is wanted", 31, zl, zl_len, 1, );
	DAMAGE("gzip where zlib is wanted", 15, gz, gz_len, 1, );
	DAMAGE("gzip method", 31, gz, gz_len, 1, p[2] = 7);
	DAMAGE("gzip reserved flags", 47, gz, gz_len, 1, p[3] = 0x20);
	DAMAGE("adler-32", 15, zl, zl_len, 1, p[zl_len - 1] ^= 0x40);
	DAMAGE("crc-32", 31, gz, gz_len, 1, p[gz_len - 6] ^= 1);
	DAMAGE("isize", 31, gz, gz_len, 1, p[gz_len - 3] ^= 1);
	DAMAGE("block type 3", 15, zl, zl_len, 1, p[2] |= 6);
	DAMAGE("truncated zlib", 15, zl, zl_len - 3, 1, );
	DAMAGE("truncated gzip header", 31, gz, 7, 1, );
	DAMAGE("raw stored block", -15, "\x01\x05\x00\xfa\xffhello", 10, 1, );
	DAMAGE("raw stored block lengths", -15, "\x01\x05\x00\xfa\xffhello", 10, 1, p[3] = 0xfb);
	DAMAGE("raw block type 3", -15, "\x07\x00", 2, 1, );
	DAMAGE("zlib header needing a dictionary", 15, "\x78\xbb\x00\x00\x00\x01\x03\x00", 8, 1, );
	/* Dynamic headers: no code-length codes at all (zlib reads every length as a 0 of one
	 * bit, so it waits for input, then misses the end-of-block code), HLIT past 286, a
	 * repeat before any length. */
	static const uint8_t zeros[40];
	DAMAGE("raw header without code-length codes", -15, "\x1d\x00\x00\x00", 4, 1, );
	DAMAGE("raw header without code-length codes, more input", -15, zeros, 40, 1, p[0] = 0x1d);
	DAMAGE("raw header with too many symbols", -15, "\xf5\x00\x00\x00", 4, 1, );
	DAMAGE("raw header repeating before any length", -15, "\x05\x00\x12\x00\x00\x00", 6, 1, );
	for (size_t i = 0; i < k; i++)
		for (int f = 0; f < 5; f++)
			compare_damage(peer, &list[i], flushes[f]);
	/* Random damage to a longer stream: stoa fails where zlib fails. */
	uint8_t *data = zt_data(0, 20000);
	uint8_t big[24000];
	uLong big_len = sizeof(big);
	assert_int_equal(compress2(big, &big_len, data, 20000, 6), Z_OK);
	free(data);
	uint8_t *bad = malloc(big_len);
	assert_non_null(bad);
	for (int i = 0; i < 300; i++) {
		memcpy(bad, big, big_len);
		const int flips = 1 + (int)test_rand_below(3);
		for (int f = 0; f < flips; f++)
			bad[test_rand_below(big_len)] ^= (uint8_t)(1u << test_rand_below(8));
		const struct damage d = { "random damage", 15, bad, big_len, 0 };
		compare_damage(peer, &d, Z_NO_FLUSH);
	}
	free(bad);
	print_message(
	    "%zu damaged streams with 5 flush modes and 300 random ones: zlib's results\n", k);
}

int main(int argc, char **argv)
{
	zt_start(argc, argv);
	test_seed();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scripts),
		cmocka_unit_test(test_block_stops),
		cmocka_unit_test(test_damaged),
	};
	return cmocka_run_group_tests_name("zlib_stream", tests, NULL, NULL);
}
