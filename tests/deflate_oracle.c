/* A deterministic sweep over the deflate API, for differential testing between processes.
 *
 * One source, two builds (tests/tests.mk):
 *   deflate_oracle_system  -DORACLE_SYSTEM with the system's <isa-l/igzip_lib.h>, linked -lisal
 *   deflate_oracle_stoa    with stoa's headers, linked with libstoa.a
 * tests/test_deflate_api.c runs both with the same arguments and compares the text, and runs the
 * system build again on stoa's compat libisal.so.2 (the drop-in check: a program compiled
 * against ISA-L's structs, calling stoa's deflate).
 *
 * usage: deflate_oracle SEED COUNT
 * Two compressors do not produce the same bytes, so what is compared is what the API promises:
 * the return code, how much input was taken, and that zlib (loaded with dlopen, so that the
 * oracle builds link nothing but the library under test) inflates the output back to the input
 * through the wrapper asked for. For each of COUNT cases (data of one kind, a level 0-3, a
 * gzip_flag, a hist_bits), one line each for:
 *   stateless      into room for the whole stream: rc, total_in, whether zlib decodes it;
 *   overflow       stateless into half the room that stream took: rc (STATELESS_OVERFLOW);
 *   streaming      isal_deflate over input and output pieces drawn from the seed, each input
 *                  piece with its own flush mode: rc, total_in, how many SYNC/FULL flush points
 *                  were checked (at each, what was written so far must inflate to exactly the
 *                  input given so far) and whether the whole stream decodes.
 * Then lines that must match byte for byte: isal_adler32 over sample lengths and start values,
 * and the gzip and zlib header writers with random fields (the whole header's fingerprint, and
 * what a too-small buffer returns).
 *
 * Left out, and why (stoa follows the RFCs where ISA-L 2.30 does not; test_deflate_headers.c
 * holds stoa to those rules):
 *  - a zlib header with a preset dictionary: ISA-L 2.30 writes DICTID little-endian;
 *  - a gzip extra field over 65535 bytes: ISA-L 2.30 writes its length modulo 2^16;
 *  - the compressed size: each library has its own parser and codes.
 * Lines starting with '#' say which library the process runs on; they are not results. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_zlib.h"
#include <isa-l/igzip_lib.h>

static const char *const wrap_name[] = { "raw", "gzip", "gzip_nohdr", "zlib", "zlib_nohdr" };
static const char *const flush_name[] = { "no", "sync", "full" };

/* Whether zlib inflates stream[0, n) to exactly want[0, want_len) for gzip_flag wrap. A whole
 * stream must end exactly at n; a partial one (the output at a flush point) must give exactly the
 * input so far. The _NO_HDR streams are checked behind a minimal header of their kind. */
static int z_decodes(const uint8_t *stream, size_t n, int wrap, const uint8_t *want,
		     size_t want_len, int partial)
{
	static const uint8_t gz_hdr[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	static const uint8_t zl_hdr[2] = { 0x78, 0x01 };
	const uint8_t *pre = wrap == IGZIP_GZIP_NO_HDR ? gz_hdr : wrap == IGZIP_ZLIB_NO_HDR ? zl_hdr : NULL;
	size_t pre_len = wrap == IGZIP_GZIP_NO_HDR ? sizeof(gz_hdr) : pre ? sizeof(zl_hdr) : 0;
	int wbits = wrap == IGZIP_DEFLATE ? -15 : wrap <= IGZIP_GZIP_NO_HDR ? 31 : 15;

	uint8_t *in = oracle_alloc(pre_len + n);
	if (pre_len)
		memcpy(in, pre, pre_len);
	memcpy(in + pre_len, stream, n);
	size_t cap = want_len + 64;
	uint8_t *out = oracle_alloc(cap);
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	if (z.iinit2(&zs, wbits, ZLIB_VERSION, (int)sizeof(z_stream)) != Z_OK)
		exit(2);
	zs.next_in = in;
	zs.avail_in = (uInt)(pre_len + n);
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	int rc = z.inflate(&zs, partial ? Z_SYNC_FLUSH : Z_FINISH);
	int ok = partial ? (rc == Z_OK || rc == Z_BUF_ERROR) : rc == Z_STREAM_END;
	ok = ok && zs.avail_in == 0 && zs.total_out == want_len &&
	     memcmp(out, want, want_len) == 0;
	z.iend(&zs);
	free(out);
	free(in);
	return ok;
}

struct params {
	int level, wrap, hist_bits;
	uint8_t *level_buf;
	uint32_t level_buf_size;
};

static void setup(struct isal_zstream *zs, const struct params *p)
{
	zs->level = (uint32_t)p->level;
	zs->level_buf = p->level_buf;
	zs->level_buf_size = p->level_buf_size;
	zs->gzip_flag = (uint16_t)p->wrap;
	zs->hist_bits = (uint16_t)p->hist_bits;
}

static size_t stateless(const struct params *p, const uint8_t *data, size_t len, uint8_t *out,
			size_t room, int flush, int *rc_out)
{
	struct isal_zstream *zs = oracle_alloc(sizeof(*zs));
	isal_deflate_stateless_init(zs);
	setup(zs, p);
	zs->flush = (uint16_t)flush;
	zs->end_of_stream = 1;
	zs->next_in = (uint8_t *)(uintptr_t)data;
	zs->avail_in = (uint32_t)len;
	zs->next_out = out;
	zs->avail_out = (uint32_t)room;
	*rc_out = isal_deflate_stateless(zs);
	size_t total = zs->total_in;
	size_t wrote = (size_t)(zs->next_out - out);
	printf(" rc=%d", *rc_out);
	if (*rc_out == COMP_OK)
		printf(" in=%zu dec=%s", total,
		       z_decodes(out, wrote, p->wrap, data, len, 0) ? "ok" : "BAD");
	printf("\n");
	free(zs);
	return wrote;
}

static void streaming(const struct params *p, const uint8_t *data, size_t len, uint64_t *s)
{
	static const size_t steps[] = { 1, 13, 700, 4096, 65536, 1u << 30 };
	size_t in_step = steps[oracle_next(s) % 6], out_step = steps[oracle_next(s) % 6];
	if (len > 20000 && in_step < 700)
		in_step = 700;
	/* Room for the data coded with level 0's fixed codes at worst (random bytes grow by about a
	 * third when the output comes in pieces too small to try a stored block first), and a block
	 * header and flush marker per piece. */
	size_t pieces = len / in_step + 1;
	size_t cap = len + len / 2 + 4096 + pieces * 400;
	/* ISA-L 2.30, given output in pieces smaller than a block header across a sync or full
	 * flush, can write block headers without end (seen: 9 KiB out for 700 bytes in, 13-byte
	 * pieces); 700 bytes is the smallest piece used here. stoa's own tests cover output one
	 * byte at a time. */
	if (out_step < 700)
		out_step = 700;
	uint8_t *out = oracle_alloc(cap);
	struct isal_zstream *zs = oracle_alloc(sizeof(*zs));
	isal_deflate_init(zs);
	setup(zs, p);
	size_t given = 0, produced = 0, calls = 0;
	unsigned flush_points = 0, bad_points = 0;
	int rc = COMP_OK, drained = 1, pending_check = 0;
	zs->avail_in = 0;
	for (;;) {
		if (zs->avail_in == 0 && drained && (given < len || !zs->end_of_stream)) {
			size_t piece = len - given < in_step ? len - given : in_step;
			zs->next_in = (uint8_t *)(uintptr_t)(data + given);
			zs->avail_in = (uint32_t)piece;
			given += piece;
			zs->end_of_stream = given == len;
			zs->flush = (uint16_t)(oracle_next(s) % 3);
			pending_check = zs->flush != NO_FLUSH && !zs->end_of_stream;
		}
		size_t room = cap - produced < out_step ? cap - produced : out_step;
		zs->next_out = out + produced;
		zs->avail_out = (uint32_t)room;
		rc = isal_deflate(zs);
		produced += (size_t)(zs->next_out - (out + produced));
		drained = zs->avail_out > 0;
		if (rc != COMP_OK || zs->internal_state.state == ZSTATE_END)
			break;
		if (pending_check && zs->avail_in == 0 && drained) {
			flush_points++;
			bad_points += !z_decodes(out, produced, p->wrap, data, given, 1);
			pending_check = 0;
		}
		if (produced == cap || ++calls > 4 * (len + cap) + 100) {
			rc = 12345; /* no progress or no end: a result, so the comparison fails */
			break;
		}
	}
	printf(" rc=%d", rc);
	if (rc == COMP_OK)
		printf(" in=%u end=%d flush_points=%u bad_points=%u dec=%s", zs->total_in,
		       zs->internal_state.state == ZSTATE_END, flush_points, bad_points,
		       z_decodes(out, produced, p->wrap, data, len, 0) ? "ok" : "BAD");
	printf("\n");
	free(zs);
	free(out);
}

static const uint32_t level_buf_default[4] = { 0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT,
					       ISAL_DEF_LVL3_DEFAULT };

static void one_case(int c, uint64_t *s)
{
	size_t len = (size_t)(oracle_next(s) % (oracle_next(s) % 2 ? 3000 : 200000));
	if (oracle_next(s) % 8 == 0)
		len = 0;
	uint8_t *data = oracle_alloc(len);
	oracle_gen_data(s, data, len);
	struct params p;
	p.level = (int)(oracle_next(s) % 4);
	p.wrap = (int)(oracle_next(s) % 5);
	p.hist_bits = oracle_next(s) % 3 == 0 ? 8 + (int)(oracle_next(s) % 8) : 0;
	p.level_buf_size = level_buf_default[p.level];
	p.level_buf = p.level_buf_size ? oracle_alloc(p.level_buf_size) : NULL;
	size_t cap = len + len / 8 + 4096;
	uint8_t *out = oracle_alloc(cap);
	const char *what = wrap_name[p.wrap];

	int flush = oracle_next(s) % 2 ? FULL_FLUSH : NO_FLUSH, rc;
	printf("case=%d %s len=%zu level=%d hist_bits=%d stateless flush=%s", c, what, len, p.level,
	       p.hist_bits, flush_name[flush]);
	size_t need = stateless(&p, data, len, out, cap, flush, &rc);
	if (rc == COMP_OK) {
		printf("case=%d %s overflow (half the room)", c, what);
		stateless(&p, data, len, out, need / 2, flush, &rc);
	}
	printf("case=%d %s len=%zu level=%d hist_bits=%d streaming", c, what, len, p.level,
	       p.hist_bits);
	streaming(&p, data, len, s);

	free(out);
	free(p.level_buf);
	free(data);
}

static void adler_lines(uint64_t *s)
{
	static const size_t lens[] = { 0, 1, 15, 16, 31, 32, 63, 64, 100, 5551, 5552, 5553, 65536, 1000003 };
	uint8_t *buf = oracle_alloc(1000003);
	for (size_t i = 0; i < 1000003; i++)
		buf[i] = (uint8_t)(oracle_next(s) % 4 == 0 ? 0xff : oracle_next(s));
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		uint32_t init = i % 3 == 0 ? 1 : (uint32_t)oracle_next(s) % 65521 |
							   ((uint32_t)oracle_next(s) % 65521) << 16;
		size_t off = (size_t)(oracle_next(s) % 64);
		size_t n = lens[i] + off > 1000003 ? lens[i] - off : lens[i];
		printf("adler32 init=%08x len=%zu off=%zu value=%08x\n", init, n, off,
		       isal_adler32(init, buf + off, (uint64_t)n));
	}
	free(buf);
}

/* The header writers, with random fields; the header bytes must be identical. */
static void header_lines(uint64_t *s)
{
	uint8_t name[300], comment[300], extra[600], out[2048];
	for (int i = 0; i < 40; i++) {
		struct isal_gzip_header h;
		isal_gzip_header_init(&h);
		size_t nl = (size_t)(oracle_next(s) % 3 ? oracle_next(s) % 200 : 0);
		size_t cl = (size_t)(oracle_next(s) % 3 ? oracle_next(s) % 200 : 0);
		size_t el = (size_t)(oracle_next(s) % 3 ? oracle_next(s) % 500 : 0);
		for (size_t j = 0; j < nl; j++)
			name[j] = (uint8_t)('a' + oracle_next(s) % 26);
		name[nl] = 0;
		for (size_t j = 0; j < cl; j++)
			comment[j] = (uint8_t)(' ' + oracle_next(s) % 90);
		comment[cl] = 0;
		for (size_t j = 0; j < el; j++)
			extra[j] = (uint8_t)oracle_next(s);
		h.text = (uint32_t)(oracle_next(s) % 2);
		h.time = (uint32_t)oracle_next(s);
		h.xflags = (uint32_t)(oracle_next(s) % 5);
		h.os = (uint32_t)(oracle_next(s) % 14);
		h.hcrc = (uint32_t)(oracle_next(s) % 2);
		if (nl || oracle_next(s) % 2) {
			h.name = (char *)name;
			h.name_buf_len = (uint32_t)nl + 1;
		}
		if (cl || oracle_next(s) % 2) {
			h.comment = (char *)comment;
			h.comment_buf_len = (uint32_t)cl + 1;
		}
		if (el) {
			h.extra = extra;
			h.extra_buf_len = (uint32_t)el;
			h.extra_len = (uint32_t)el;
		}
		struct isal_zstream *zs = oracle_alloc(sizeof(*zs));
		isal_deflate_init(zs);
		zs->next_out = out;
		zs->avail_out = (uint32_t)(oracle_next(s) % 4 == 0 ? oracle_next(s) % 64 : sizeof(out));
		uint32_t room = zs->avail_out;
		uint32_t r = isal_write_gzip_header(zs, &h);
		size_t wrote = (size_t)(zs->next_out - out);
		printf("gzip_header name=%zu comment=%zu extra=%zu hcrc=%u room=%u ret=%u wrote=%zu "
		       "bytes=%016" PRIx64 " avail_out=%u\n",
		       nl, cl, el, h.hcrc, room, r, wrote, oracle_fnv(ORACLE_FNV_START, out, wrote),
		       zs->avail_out);
		free(zs);
	}
	for (int i = 0; i < 16; i++) {
		struct isal_zlib_header h;
		memset(&h, 0, sizeof(h));
		h.info = (uint32_t)(oracle_next(s) % 8);
		h.level = (uint32_t)(oracle_next(s) % 4);
		h.dict_flag = 0; /* DICTID's byte order differs from 2.30 (see the top) */
		struct isal_zstream *zs = oracle_alloc(sizeof(*zs));
		isal_deflate_init(zs);
		zs->next_out = out;
		zs->avail_out = (uint32_t)(oracle_next(s) % 2 ? oracle_next(s) % 4 : sizeof(out));
		uint32_t room = zs->avail_out;
		uint32_t r = isal_write_zlib_header(zs, &h);
		size_t wrote = (size_t)(zs->next_out - out);
		printf("zlib_header info=%u level=%u room=%u ret=%u wrote=%zu bytes=%016" PRIx64
		       " avail_out=%u\n",
		       h.info, h.level, room, r, wrote, oracle_fnv(ORACLE_FNV_START, out, wrote),
		       zs->avail_out);
		free(zs);
	}
}

int main(int argc, char **argv)
{
	uint64_t seed;
	unsigned long count;
	oracle_start(argc, argv, &seed, &count);
	oracle_zlib_open("deflate_oracle");
	printf("# seed: %" PRIu64 ", %lu cases\n", seed, count);
	uint64_t s = seed ^ oracle_name_hash("deflate");
	for (unsigned long c = 0; c < count; c++)
		one_case((int)c, &s);
	adler_lines(&s);
	header_lines(&s);
	return fflush(stdout) == 0 ? 0 : 1;
}
