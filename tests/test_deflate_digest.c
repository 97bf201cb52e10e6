/* The compressor's exact bytes: every level 0-9 through the public API in seven ways (stateless
 * gzip, streaming raw in pieces, zlib with SYNC_FLUSH and hist_bits 12, a dictionary with
 * FULL_FLUSH, stateless with the smallest level_buf, custom Huffman codes, small stateless
 * inputs of 1 byte to 9000), on a fixed generated
 * input, must give the FNV-1a fingerprints recorded below from x86-64.
 *
 * The other deflate suites check that streams decode and what the API promises; they cannot see
 * a compressor that codes the same data differently. This one can: on s390x (big-endian), the
 * 32-bit targets, aarch64, and under any STOA_ISA class the bytes must be x86-64's, which catches
 * host-order loads in the match finders, a variant that parses differently from the portable
 * code, and a size-dependent choice. Each stream is also inflated by zlib back to its input.
 *
 * An intended change of the compressor's output changes the table: STOA_DIGEST_PRINT=1
 * build/tests/test_deflate_digest prints the new table (on x86-64) to paste below, and the commit
 * says why the bytes changed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "isa-l/igzip_lib.h"
#include "stoa.h"
#include "testutil.h"

#define N_LEVELS (STOA_DEF_MAX_LEVEL + 1)
enum {
	W_STATELESS_GZIP,
	W_STREAM_RAW,
	W_ZLIB_SYNC,
	W_DICT_FULL,
	W_SMALL_LBUF,
	W_CUSTOM,
	W_SMALL_INPUTS,
	N_WAYS
};
static const char *const way_name[N_WAYS] = { "stateless-gzip", "stream-raw",   "zlib-sync-hb12",
	                                      "dict-full",      "small-lbuf",   "custom-codes",
	                                      "small-inputs" };

/* Recorded on x86-64 (STOA_DIGEST_PRINT=1), one row per level, one column per way. */
static const uint64_t expected[N_LEVELS][N_WAYS] = {
	{ 0x39754b12d80f0653ull, 0xd8252512809b907eull, 0x435d54ef47099bf4ull,
	  0x23a207cc7a2f2c46ull, 0xb12587b695959e0bull, 0x914b6585bb919411ull,
	  0x50765b621a5ed7b0ull },
	{ 0x1fd39f866e490325ull, 0xeedc1ea7bf360864ull, 0x7a0059c26722bb8bull,
	  0x83fafcba3ffcea52ull, 0xe0362033881ce2a9ull, 0x4cb1b3c3e9bab870ull,
	  0x7d0bb6b11a7e769dull },
	{ 0x1131da19c49bc58dull, 0x77ec96d17b6a6411ull, 0x9f2fe1aa32a1607dull,
	  0x9c92561dcfbd5de1ull, 0xd0233e03b0bf5a58ull, 0x10081f86b3351efbull,
	  0x49450d6f747ca55cull },
	{ 0x2d2f7b8b25a49049ull, 0x4aa761cb5ca44436ull, 0xc0fc975fd7e9fb22ull,
	  0x7c8f420904d622d8ull, 0x14244bcf11e1745dull, 0xa503d205c2357e1cull,
	  0xca3a0f3cbdf53bb6ull },
	{ 0x4a4afb2f94ca95bdull, 0x237428d4cc52de75ull, 0xe6983722010979d6ull,
	  0xd80054e58b93a81full, 0x832d9b62a28311adull, 0x2d106de26e1757cfull,
	  0x6df9b04f74a80319ull },
	{ 0x5289e33d143df924ull, 0xb99666291c442a7full, 0xe855271b717c0909ull,
	  0xe90d3ebb5760c71bull, 0xb0d8e08344a7bc79ull, 0x32f91267e2ff0832ull,
	  0xb4f020be0c1c5261ull },
	{ 0x98188c4d303f0103ull, 0x49421561e809fe80ull, 0x4d32917ba435891bull,
	  0xe8f7ee8962f4c647ull, 0xe70bd726a570b61cull, 0x4a698e2fd012e209ull,
	  0x5473c4593e6dea4bull },
	{ 0x9eed138fe8184eddull, 0xe5004761136d6336ull, 0x75969fd804c24ee8ull,
	  0x729bdb9126f2a22full, 0x4962abb60073f8aaull, 0xcf3fb55daf7f42e8ull,
	  0xd58908c6f7fea71eull },
	{ 0x2918b2572a663471ull, 0xf431a01a7a09c3e1ull, 0xae7af3d56321a9e6ull,
	  0x5599be7a2938c2a3ull, 0x56ab01ba18f5183full, 0xbe1402a60e810862ull,
	  0xdb4f3d6382529210ull },
	{ 0x8f0924866e7de542ull, 0x5ec78eeea89b5655ull, 0xa29544d808807e93ull,
	  0xb9d6742b7e081cb9ull, 0x5b4578dd077c2e9aull, 0xb8b86484bd9d4143ull,
	  0x7f1c2f1409cdf686ull },
	{ 0xc13324a471f76eefull, 0x50b573fbdda4efceull, 0x3a336a73433dbc3aull,
	  0x852d4d11324a71deull, 0xf828644f03866d87ull, 0xa6e33bf21135c0abull,
	  0x10f42b12b52089bdull },
	{ 0x760bba0cfabc884bull, 0x57d3070d83dca666ull, 0x19a23e27567966d9ull,
	  0xd355d597b41ac735ull, 0xa298687170722bf0ull, 0xad103751e13ee116ull,
	  0x68da0f32b20d01f2ull },
	{ 0x760bba0cfabc884bull, 0x57d3070d83dca666ull, 0x19a23e27567966d9ull,
	  0xd355d597b41ac735ull, 0xa298687170722bf0ull, 0xad103751e13ee116ull,
	  0x68da0f32b20d01f2ull },
};

/* The input: pseudo-text from a small vocabulary, random bytes, runs, records that differ in a
 * few bytes, and the text again farther than 32 KiB back, from a fixed generator (not the test
 * seed: the bytes must be the same in every run). */
#define INPUT_LEN (200u * 1024)

static uint64_t gen_state = 0x243f6a8885a308d3ull;
static uint64_t gen_next(void)
{
	uint64_t z = (gen_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void make_input(uint8_t *p, size_t n)
{
	static const char *const words[] = { "the ",     "of ",    "storage ", "erasure ",
		                             "code ",    "block ", "and ",     "parity ",
		                             "stream ",  "data ",  "window ",  "match ",
		                             "literal ", "\n",     "deflate ", "a ",
		                             "byte ",    "order ", "big ",     "endian " };
	size_t i = 0;
	while (i < n) {
		const uint64_t r = gen_next();
		const size_t part = 4096 + (size_t)(r % 8192);
		const size_t end = i + part < n ? i + part : n;
		switch ((r >> 20) % 5) {
		case 0:
		case 1: /* text */
			while (i < end) {
				const char *w =
				    words[gen_next() % (sizeof(words) / sizeof(words[0]))];
				while (*w && i < end)
					p[i++] = (uint8_t)*w++;
			}
			break;
		case 2: /* random */
			while (i < end)
				p[i++] = (uint8_t)gen_next();
			break;
		case 3: /* runs */
			while (i < end) {
				const uint64_t x = gen_next();
				size_t len = 1 + (size_t)(x % 300);
				while (len-- && i < end)
					p[i++] = (uint8_t)(x >> 32);
			}
			break;
		default: /* 16-byte records, each its predecessor with one byte changed */
			for (size_t k = 0; i < end; i++, k++)
				p[i] = k < 16 ? (uint8_t)gen_next() : p[i - 16];
			if (end - i < 16)
				break;
			p[end - 1 - gen_next() % 16] ^= 0x5a;
			break;
		}
	}
	/* The first 40 KiB again at the end: matches at every distance up to the window's. */
	if (n > 120 * 1024)
		memcpy(p + n - 40 * 1024, p, 40 * 1024);
}

static uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static uint32_t lbuf_size(int level, int smallest)
{
	static const uint32_t def[N_LEVELS] = {
		ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT,
		ISAL_DEF_LVL3_DEFAULT, ISAL_DEF_LVL4_DEFAULT, ISAL_DEF_LVL5_DEFAULT,
		ISAL_DEF_LVL6_DEFAULT, ISAL_DEF_LVL7_DEFAULT, ISAL_DEF_LVL8_DEFAULT,
		ISAL_DEF_LVL9_DEFAULT, ISAL_DEF_LVL10_DEFAULT, ISAL_DEF_LVL11_DEFAULT,
		ISAL_DEF_LVL12_DEFAULT,
	};
	static const uint32_t min[N_LEVELS] = {
		ISAL_DEF_LVL0_MIN, ISAL_DEF_LVL1_MIN, ISAL_DEF_LVL2_MIN, ISAL_DEF_LVL3_MIN,
		ISAL_DEF_LVL4_MIN, ISAL_DEF_LVL5_MIN, ISAL_DEF_LVL6_MIN, ISAL_DEF_LVL7_MIN,
		ISAL_DEF_LVL8_MIN, ISAL_DEF_LVL9_MIN, ISAL_DEF_LVL10_MIN, ISAL_DEF_LVL11_MIN,
		ISAL_DEF_LVL12_MIN,
	};
	return smallest ? min[level] : def[level];
}

/* Inflates the stream with zlib (window_bits as inflateInit2 takes them, dict for a raw stream
 * that was given one) and fails the test unless it restores in. */
static void zlib_check(const char *what, const uint8_t *c, size_t clen, int window_bits,
                       const uint8_t *dict, uint32_t dict_len, const uint8_t *in, size_t n)
{
	uint8_t *out = xmalloc(n + 1);
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, window_bits), Z_OK);
	if (dict)
		assert_int_equal(inflateSetDictionary(&z, dict, dict_len), Z_OK);
	z.next_in = (Bytef *)(uintptr_t)c;
	z.avail_in = (uInt)clen;
	z.next_out = out;
	z.avail_out = (uInt)(n + 1);
	const int rc = inflate(&z, Z_FINISH);
	if (rc != Z_STREAM_END || z.total_out != n || memcmp(out, in, n) != 0)
		fail_msg("%s: zlib does not restore the input (rc %d, %lu bytes)", what, rc,
		         (unsigned long)z.total_out);
	inflateEnd(&z);
	free(out);
}

static uint64_t fnv1a_len(uint64_t h, uint64_t len)
{
	uint8_t len_bytes[8];
	for (int i = 0; i < 8; i++)
		len_bytes[i] = (uint8_t)(len >> (8 * i));
	return fnv1a(h, len_bytes, 8);
}

/* Small one-shot inputs, where the compressor sizes its tables and buffers to the input: raw
 * streams of pieces of in 4099 bytes apart, of sizes around the thresholds; one fingerprint of
 * them all. */
static uint64_t compress_small_inputs(int level, const uint8_t *in, size_t n)
{
	static const uint32_t sizes[] = { 1, 100, 200, 777, 1024, 1025, 2048, 2049, 4000, 9000 };
	enum { OUT_ROOM = 2 * 9000 + 1024 }; /* (more than any of them can need) */
	uint8_t *out = xmalloc(OUT_ROOM);
	const uint32_t lsize = level ? lbuf_size(level, 0) : 0;
	uint8_t *lbuf = level ? xmalloc(lsize) : NULL;
	uint64_t h = 0xcbf29ce484222325ull;
	size_t pos = 0;
	for (size_t k = 0; k < 3 * sizeof(sizes) / sizeof(sizes[0]); k++) {
		const uint32_t len = sizes[k % (sizeof(sizes) / sizeof(sizes[0]))];
		assert_true(pos + len <= n);
		struct isal_zstream s;
		isal_deflate_stateless_init(&s);
		s.level = (uint32_t)level;
		s.level_buf = lbuf;
		s.level_buf_size = lsize;
		s.next_in = (uint8_t *)(uintptr_t)(in + pos);
		s.avail_in = len;
		s.end_of_stream = 1;
		s.next_out = out;
		s.avail_out = OUT_ROOM;
		assert_int_equal(isal_deflate_stateless(&s), COMP_OK);
		char what[96];
		snprintf(what, sizeof(what), "level %d small input of %u bytes", level, len);
		zlib_check(what, out, s.total_out, -15, NULL, 0, in + pos, len);
		h = fnv1a(fnv1a_len(h, s.total_out), out, s.total_out);
		pos += len + 4099;
	}
	free(lbuf);
	free(out);
	return h;
}

/* One stream of the way at the level; returns its fingerprint (length mixed in). */
static uint64_t compress_way(int way, int level, const uint8_t *in, size_t n)
{
	if (way == W_SMALL_INPUTS)
		return compress_small_inputs(level, in, n);
	const size_t cap = n + n / 2 + 65536;
	uint8_t *out = xmalloc(cap);
	uint8_t *lbuf = level ? xmalloc(lbuf_size(level, way == W_SMALL_LBUF)) : NULL;
	struct isal_zstream s;
	struct isal_hufftables *codes = NULL;
	const int stateless = way == W_STATELESS_GZIP || way == W_SMALL_LBUF;
	if (stateless)
		isal_deflate_stateless_init(&s);
	else
		isal_deflate_init(&s);
	s.level = (uint32_t)level;
	s.level_buf = lbuf;
	s.level_buf_size = lbuf ? lbuf_size(level, way == W_SMALL_LBUF) : 0;
	const uint8_t *dict = NULL;
	const uint32_t dict_len = 8192;
	int window_bits = -15;
	size_t piece = n, out_piece = cap;
	switch (way) {
	case W_STATELESS_GZIP:
		s.gzip_flag = IGZIP_GZIP;
		window_bits = 31;
		break;
	case W_STREAM_RAW:
		piece = 10007;
		out_piece = 3001;
		break;
	case W_ZLIB_SYNC:
		s.gzip_flag = IGZIP_ZLIB;
		s.flush = SYNC_FLUSH;
		s.hist_bits = 12;
		window_bits = 15;
		piece = 20011;
		break;
	case W_DICT_FULL:
		s.flush = FULL_FLUSH;
		piece = 30011;
		/* A dictionary the input shares words with (its text parts), taken from its middle.
		 */
		dict = in + n / 2;
		assert_int_equal(isal_deflate_set_dict(&s, (uint8_t *)(uintptr_t)dict, dict_len),
		                 COMP_OK);
		break;
	case W_CUSTOM: {
		struct isal_huff_histogram hist;
		memset(&hist, 0, sizeof(hist));
		isal_update_histogram((uint8_t *)(uintptr_t)in, (int)(n / 4), &hist);
		codes = xmalloc(sizeof(*codes));
		assert_int_equal(isal_create_hufftables(codes, &hist), 0);
		assert_int_equal(isal_deflate_set_hufftables(&s, codes, IGZIP_HUFFTABLE_CUSTOM),
		                 COMP_OK);
		piece = 65536;
		break;
	}
	default:
		break;
	}

	size_t in_pos = 0, out_len = 0;
	if (stateless) {
		s.next_in = (uint8_t *)(uintptr_t)in;
		s.avail_in = (uint32_t)n;
		s.end_of_stream = 1;
		s.next_out = out;
		s.avail_out = (uint32_t)cap;
		assert_int_equal(isal_deflate_stateless(&s), COMP_OK);
		out_len = cap - s.avail_out;
	} else {
		/* New input once the last piece is taken, new output room once it is full, until
		 * the stream has ended: the same calls on every host. */
		for (int calls = 0; s.internal_state.state != ZSTATE_END; calls++) {
			assert_true(calls < 100000);
			if (s.avail_in == 0 && in_pos < n) {
				const size_t k = n - in_pos < piece ? n - in_pos : piece;
				s.next_in = (uint8_t *)(uintptr_t)(in + in_pos);
				s.avail_in = (uint32_t)k;
				in_pos += k;
				s.end_of_stream = in_pos == n;
			}
			if (s.avail_out == 0) {
				const size_t room =
				    cap - out_len < out_piece ? cap - out_len : out_piece;
				assert_true(room > 0);
				s.next_out = out + out_len;
				s.avail_out = (uint32_t)room;
			}
			const uint32_t before = s.avail_out;
			assert_int_equal(isal_deflate(&s), COMP_OK);
			out_len += before - s.avail_out;
		}
	}
	char what[96];
	snprintf(what, sizeof(what), "level %d %s", level, way_name[way]);
	zlib_check(what, out, out_len, window_bits, dict, dict_len, in, n);
	const uint64_t h = fnv1a(fnv1a_len(0xcbf29ce484222325ull, out_len), out, out_len);
	free(codes);
	free(lbuf);
	free(out);
	return h;
}

static void test_digests(void **state)
{
	(void)state;
	uint8_t *in = xmalloc(INPUT_LEN);
	make_input(in, INPUT_LEN);
	const int print = getenv("STOA_DIGEST_PRINT") && *getenv("STOA_DIGEST_PRINT");
	int bad = 0;
	for (int level = 0; level < N_LEVELS; level++) {
		if (print)
			printf("\t{");
		for (int way = 0; way < N_WAYS; way++) {
			const uint64_t h = compress_way(way, level, in, INPUT_LEN);
			if (print)
				printf("%s0x%016llxull", way ? ", " : " ", (unsigned long long)h);
			if (h != expected[level][way]) {
				print_error("level %d %s: fingerprint %016llx, x86-64's %016llx\n",
				            level, way_name[way], (unsigned long long)h,
				            (unsigned long long)expected[level][way]);
				bad++;
			}
		}
		if (print)
			printf(" },\n");
	}
	free(in);
	if (bad)
		fail_msg("%d of %d streams differ from x86-64's bytes", bad, N_LEVELS * N_WAYS);
	print_message("%d streams (levels 0-%d x %d ways), each x86-64's bytes and restored by "
	              "zlib\n",
	              N_LEVELS * N_WAYS, N_LEVELS - 1, N_WAYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digests),
	};
	return TEST_MAIN("deflate_digest", tests, NULL, NULL);
}
