/* Inflate's counters beyond 32 bits (a stream over 4 GiB, avail_in and avail_out near 2^32),
 * and Debian's libisal on the same decodes in a separate process (tests/inflate_oracle.c). */
#include "inflate_check.h"

/* One stream of more than 4 GiB: a self-contained full-flushed block sequence for 1 MiB of data,
 * fed 4200 times, then an empty final block and a gzip trailer (ISIZE modulo 2^32), decoded under
 * ISAL_GZIP_NO_HDR_VER through a 1 MiB output buffer. Checks every output byte, the running
 * CRC and the trailer check, and that no distance is refused after 2^32 bytes. */
static void test_over_4gib(void **state)
{
	(void)state;
	double t0 = now_seconds();
	const size_t unit = 1 << 20, reps = 4200;
	uint8_t *data = malloc(unit), *out = malloc(unit);
	assert_true(data && out);
	/* Long matches (a varied 8 KiB period) decode fast; the blocks are still dynamic. */
	test_fill_text(data, 8192);
	for (size_t i = 8192; i < unit; i++)
		data[i] = data[i - 8192] ^ (i % 997 == 0);
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	assert_int_equal(deflateInit2(&zs, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
	size_t cap = deflateBound(&zs, unit) + 64;
	uint8_t *blk = malloc(cap);
	assert_non_null(blk);
	zs.next_in = data;
	zs.avail_in = (uInt)unit;
	zs.next_out = blk;
	zs.avail_out = (uInt)cap;
	assert_int_equal(deflate(&zs, Z_FULL_FLUSH), Z_OK);
	assert_int_equal(zs.avail_in, 0);
	size_t blk_len = zs.total_out;
	deflateEnd(&zs);

	uLong unit_crc = crc32(0, data, (uInt)unit), crc = 0;
	uint64_t total = (uint64_t)unit * reps;
	for (size_t i = 0; i < reps; i++)
		crc = crc32_combine(crc, unit_crc, (z_off_t)unit);
	uint8_t tail[10] = { 0x03, 0x00 };
	put_le32(tail + 2, (uint32_t)crc);
	put_le32(tail + 6, (uint32_t)total);

	struct inflate_state *st = new_state();
	isal_inflate_init(st);
	st->crc_flag = ISAL_GZIP_NO_HDR_VER;
	uint64_t produced = 0;
	size_t fed = 0;
	int rc = 0;
	for (size_t calls = 0;; calls++) {
		assert_true(calls < 4 * reps + 100);
		if (st->avail_in == 0 && fed <= reps) {
			st->next_in = fed < reps ? blk : tail;
			st->avail_in = (uint32_t)(fed < reps ? blk_len : sizeof(tail));
			fed++;
		}
		st->next_out = out;
		st->avail_out = (uint32_t)unit;
		rc = isal_inflate(st);
		size_t n = (size_t)(st->next_out - out), at = (size_t)(produced % unit);
		size_t first = n < unit - at ? n : unit - at;
		if (memcmp(out, data + at, first) != 0 || memcmp(out + first, data, n - first) != 0)
			TEST_FAIL("wrong output at byte %" PRIu64 "\n", produced);
		produced += n;
		if (rc != ISAL_DECOMP_OK || st->block_state == ISAL_BLOCK_FINISH)
			break;
		if (fed > reps && st->avail_in == 0 && n == 0)
			break;
	}
	if (rc != ISAL_DECOMP_OK || st->block_state != ISAL_BLOCK_FINISH || produced != total ||
	    st->crc != (uint32_t)crc || st->total_out != (uint32_t)total)
		TEST_FAIL("4.1 GiB stream: rc %d, block_state %d, %" PRIu64 " of %" PRIu64
			  " bytes, crc 0x%08x (want 0x%08x), total_out %u\n",
			  rc, st->block_state, produced, total, st->crc, (uint32_t)crc, st->total_out);
	print_message("%" PRIu64 " bytes (> 4 GiB) from one stream of %zu x %zu-byte blocks: data, "
		      "crc 0x%08x, total_out (mod 2^32) and the gzip trailer verified (%.1f s)\n",
		      produced, reps, blk_len, (uint32_t)crc, now_seconds() - t0);
	free(st);
	free(blk);
	free(data);
	free(out);
}

/* avail_in and avail_out of 2^32 - 1 over sparse mappings of that size: the decoder stops at the
 * end of the stream and leaves the rest alone. Consuming 4 GiB of real input in one stream is not
 * attempted (test_over_4gib covers the 32-bit counters on the output side). */
static void test_huge_avail(void **state)
{
	(void)state;
	size_t span = (size_t)UINT32_MAX + 1;
	uint8_t *in = mmap(NULL, span, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint8_t *out = mmap(NULL, span, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (in == MAP_FAILED || out == MAP_FAILED) {
		print_message("SKIPPED: cannot map 2 x 4 GiB of address space (%s)\n",
			      strerror(errno));
		if (in != MAP_FAILED)
			munmap(in, span);
		if (out != MAP_FAILED)
			munmap(out, span);
		skip();
	}
	uint8_t data[5000];
	test_fill_text(data, sizeof(data));
	for (int w = 0; w < 3; w++) {
		struct zbuf b = z_compress(data, sizeof(data), (enum wrapper)w, 6, 15,
					   Z_DEFAULT_STRATEGY);
		memcpy(in, b.p, b.len);
		for (int mode = 0; mode < 2; mode++) {
			struct inflate_state *st = new_state();
			isal_inflate_init(st);
			st->crc_flag = (uint32_t)wrapper_flag[w];
			st->next_in = in;
			st->avail_in = UINT32_MAX;
			st->next_out = out;
			st->avail_out = UINT32_MAX;
			int rc = mode ? isal_inflate(st) : isal_inflate_stateless(st);
			int in_ok = st->next_in == in + b.len;
			if (rc != ISAL_DECOMP_OK || st->next_out != out + sizeof(data) ||
			    memcmp(out, data, sizeof(data)) != 0 || !in_ok ||
			    st->avail_in != UINT32_MAX - (size_t)(st->next_in - in) ||
			    st->avail_out != UINT32_MAX - sizeof(data) ||
			    (mode && st->block_state != ISAL_BLOCK_FINISH))
				TEST_FAIL("%s %s with avail_in = avail_out = 2^32 - 1: rc %d, %td bytes "
					  "out, avail_in %u (want %u)\n",
					  wrapper_name[w], mode ? "isal_inflate" : "stateless", rc,
					  st->next_out - out, st->avail_in,
					  (uint32_t)(UINT32_MAX - b.len));
			free(st);
		}
		free(b.p);
	}
	munmap(in, span);
	munmap(out, span);
	print_message("raw / zlib / gzip streams with avail_in = avail_out = 2^32 - 1 (sparse 4 GiB "
		      "mappings), stateless and isal_inflate: exact output, exact input consumed\n");
}

#define ORACLE_COUNT 40

static void check_oracle_coverage(const struct oracle_output *o)
{
	const char *pos = o->text, *l;
	size_t len, lines = 0, ok = 0, errors = 0;
	while ((l = oracle_next_line(&pos, &len, NULL))) {
		lines++;
		const char *rc = strstr(l, " rc=");
		if (!rc || rc > l + len)
			TEST_FAIL("malformed oracle line: %.*s\n", (int)len, l);
		if (strncmp(rc, " rc=0 ", 6) == 0)
			ok++;
		else if (rc[4] == '-')
			errors++;
	}
	print_message("oracle sweep: %zu decodes, %zu succeeded, %zu errors\n", lines, ok, errors);
	/* A sweep's error share is 15-24% at full size and can fall to 9% in the sanitizer
	 * build's smaller samples (seed 56600875277469: 26 of 274): what is asserted is that the
	 * corrupt streams do reach the error paths. */
	assert_true(ok > lines / 3);
	assert_true(errors > lines / 20);
}

static void test_isal_oracle(void **state)
{
	(void)state;
	struct oracle_output sys, ours;
	oracle_run("inflate", ORACLE_SYSTEM, test_seed(), ORACLE_COUNT, &sys);
	oracle_run("inflate", ORACLE_STOA, test_seed(), ORACLE_COUNT, &ours);
	check_oracle_coverage(&sys);
	size_t n = oracle_compare("libisal", &sys, "stoa", &ours, NULL, NULL);
	print_message("Debian libisal vs stoa: %zu decodes (return codes, output hashes, crc, "
		      "total_out, block_state) identical\n",
		      n);
	assert_true(n > 100);
	oracle_free(&sys);
	oracle_free(&ours);
}

static void test_compat_abi(void **state)
{
	(void)state;
	size_t n = oracle_check_compat("inflate", test_seed(), ORACLE_COUNT / 4);
	assert_true(n > 25);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_over_4gib),
		cmocka_unit_test(test_huge_avail),
		cmocka_unit_test(test_isal_oracle),
		cmocka_unit_test(test_compat_abi),
	};
	return TEST_MAIN("inflate_api", tests, inflate_suite_setup, NULL);
}
