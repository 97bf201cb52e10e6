/* zlib's gz* file functions on stoa's libz.so.1: files written with every writing call (mode
 * strings with levels and strategies, gzbuffer sizes, seeks forward, gzsetparams and gzflush
 * midway, appends) read back by stoa and by the system's zlib; files read in every way (gzread
 * in pieces large and small, gzgets, gzgetc and gzungetc, seeks back and forth, gztell, gzeof,
 * gzoffset, gzrewind, gzdirect) for gzip files from zlib, concatenated members, trailing garbage,
 * plain files; damaged and cut files with gzerror's results.
 * (Run on the system's zlib, STOA_ZLIB_TEST_SYSTEM=1, test_write_read can fail: zlib 1.2.13
 * writes uninitialized bytes for a seek made before the first write with gzputc or gzsetparams;
 * stoa writes the zeros.) */
#define _LARGEFILE64_SOURCE 1
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"
#include "zlib_testutil.h"

static char dir[64];

static void make_dir(void)
{
	if (dir[0])
		return;
	snprintf(dir, sizeof(dir), "/tmp/stoa_zlib_gz.XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static void path_of(char *out, size_t size, const char *name)
{
	make_dir();
	snprintf(out, size, "%s/%s", dir, name);
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

static uint8_t *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*n = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *p = malloc(*n + 1);
	assert_non_null(p);
	assert_int_equal(fread(p, 1, *n, f), *n);
	fclose(f);
	return p;
}

/* The system's zlib inflates a gzip file (all its members) to want. */
static void zlib_reads(const char *path, const uint8_t *want, size_t want_len)
{
	size_t n;
	uint8_t *file = read_file(path, &n);
	struct zs_buf all = { 0 };
	size_t at = 0;
	while (at < n) {
		struct zs_inflate_opts o = { 31, Z_NO_FLUSH, 0, 0, NULL, 0 };
		struct zs_inflate_result r;
		assert_int_equal(zs_peer_inflate(zt_peer(), &o, file + at, n - at, &r), 0);
		if (r.rc != Z_STREAM_END)
			TEST_FAIL("zlib reading %s: %d (%s)\n", path, r.rc, r.msg);
		zs_put(&all, r.out.p, r.out.len);
		at = n - r.avail_in_left;
		zs_inflate_free(&r);
	}
	zt_expect_same("the file through zlib", all.p, all.len, want, want_len);
	zs_free(&all);
	free(file);
}

/* stoa's gzread reads the file to want, in random pieces. */
static void stoa_reads(const char *path, const uint8_t *want, size_t want_len)
{
	gzFile f = gzopen(path, "rb");
	assert_non_null(f);
	if (test_rand_below(2))
		assert_int_equal(gzbuffer(f, (unsigned)(64 + test_rand_below(100000))), 0);
	uint8_t *got = malloc(want_len + 100);
	assert_non_null(got);
	size_t have = 0;
	for (;;) {
		const unsigned piece = test_rand_below(4) ? (unsigned)(1 + test_rand_below(3000))
		                                          : (unsigned)(1 + test_rand_below(200000));
		const unsigned room = (unsigned)(want_len + 100 - have) < piece
		                          ? (unsigned)(want_len + 100 - have)
		                          : piece;
		const int r = gzread(f, got + have, room);
		assert_true(r >= 0);
		if (r == 0)
			break;
		have += (size_t)r;
	}
	assert_true(gzeof(f));
	zt_expect_same("the file through gzread", got, have, want, want_len);
	assert_int_equal(gzclose(f), Z_OK);
	free(got);
}

static void test_write_read(void **unused)
{
	(void)unused;
	static const char *const modes[] = { "wb",  "wb9", "wb1",  "wb0", "wbh",
		                             "wbR", "wbF", "wb6f", "wT",  "wb4e" };
	char path[128];
	int files = 0;
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		for (int round = 0; round < 3; round++) {
			path_of(path, sizeof(path), "w.gz");
			gzFile f = gzopen(path, modes[m]);
			assert_non_null(f);
			assert_int_equal(gzseek(f, -1, SEEK_CUR), -1); /* writing: no way back */
			/* gzprintf writes at most one byte less than the buffer (zlib's rule). */
			size_t buf_size = 8192;
			if (test_rand_below(2)) {
				buf_size = 8 + test_rand_below(70000);
				assert_int_equal(gzbuffer(f, (unsigned)buf_size), 0);
			}
			struct zs_buf want = { 0 };
			const size_t total = test_rand_below(300000);
			uint8_t *data = zt_data((int)test_rand_below(ZT_KINDS), total);
			size_t at = 0;
			while (at < total) {
				size_t n = 1 + test_rand_below(test_rand_below(4) ? 2000 : 100000);
				if (n > total - at)
					n = total - at;
				switch (test_rand_below(8)) {
				case 0:
					assert_int_equal(gzwrite(f, data + at, (unsigned)n),
					                 (int)n);
					break;
				case 1:
					assert_int_equal(gzfwrite(data + at, 1, n, f), n);
					break;
				case 2:
					assert_int_equal(gzputc(f, data[at]), data[at]);
					n = 1;
					break;
				case 3: {
					char line[64];
					snprintf(line, sizeof(line), "line %zu of %d\n", at, round);
					n = strlen(line);
					if (n >= buf_size) {
						/* Too long for the buffer: nothing written. */
						assert_int_equal(
						    gzprintf(f, "line %zu of %d\n", at, round), 0);
						continue;
					}
					assert_int_equal(gzprintf(f, "line %zu of %d\n", at, round),
					                 (int)n);
					zs_put(&want, line, n);
					at += 0;
					continue;
				}
				case 4: {
					const char *s = "a string for gzputs\n";
					assert_int_equal(gzputs(f, s), (int)strlen(s));
					zs_put(&want, s, strlen(s));
					continue;
				}
				case 5: {
					/* A seek forward writes zeros. */
					const z_off_t skip = (z_off_t)test_rand_below(5000);
					const z_off_t to = gztell(f) + skip;
					assert_int_equal(gzseek(f, skip, SEEK_CUR), to);
					const uint8_t zero[5000] = { 0 };
					zs_put(&want, zero, (size_t)skip);
					continue;
				}
				case 6:
					if (modes[m][1] != 'T')
						assert_int_equal(
						    gzsetparams(f, (int)test_rand_below(10),
						                (int)test_rand_below(5)),
						    Z_OK);
					continue;
				default:
					assert_int_equal(gzflush(f, test_rand_below(2)
					                                ? Z_SYNC_FLUSH
					                                : Z_FULL_FLUSH),
					                 Z_OK);
					continue;
				}
				zs_put(&want, data + at, n);
				at += n;
			}
			assert_int_equal(gztell(f), (z_off_t)want.len);
			assert_int_equal(gzclose(f), Z_OK);
			stoa_reads(path, want.p, want.len);
			if (modes[m][1] != 'T')
				zlib_reads(path, want.p, want.len);
			files++;
			free(data);
			zs_free(&want);
		}
	}
	/* Appending adds a member; the file reads as the concatenation. */
	path_of(path, sizeof(path), "a.gz");
	gzFile f = gzopen(path, "wb");
	assert_int_equal(gzputs(f, "first\n"), 6);
	assert_int_equal(gzclose(f), Z_OK);
	f = gzopen(path, "ab");
	assert_int_equal(gzputs(f, "second\n"), 7);
	assert_int_equal(gzclose(f), Z_OK);
	stoa_reads(path, (const uint8_t *)"first\nsecond\n", 13);
	zlib_reads(path, (const uint8_t *)"first\nsecond\n", 13);
	assert_null(gzopen(path, "wx")); /* exists */
	assert_null(gzopen(path, "r+"));
	assert_null(gzopen(path, "rT"));
	print_message("%d files written in every way, read back by stoa and zlib; append\n", files);
}

static void test_reading(void **unused)
{
	(void)unused;
	char path[128];
	const size_t n = 200000;
	uint8_t *data = zt_data(0, n);
	/* A gzip file from zlib, two members, then trailing garbage. */
	static uint8_t script[1 << 18];
	size_t k = 0;
	script[k++] = 7;
	script[k++] = 2 + 3 * 7; /* gzip, 15 bits */
	script[k++] = 7;
	script[k++] = 0;
	script[k++] = 0;
	script[k++] = 0;
	memcpy(script + k, data, n / 2);
	struct zs_deflate_result m1, m2;
	assert_int_equal(zs_peer_deflate(zt_peer(), script, k + n / 2, &m1), 0);
	memcpy(script + k, data + n / 2, n - n / 2);
	assert_int_equal(zs_peer_deflate(zt_peer(), script, k + n - n / 2, &m2), 0);
	struct zs_buf file = { 0 };
	zs_put(&file, m1.stream.p, m1.stream.len);
	zs_put(&file, m2.stream.p, m2.stream.len);
	zs_put(&file, "garbage!", 8);
	path_of(path, sizeof(path), "r.gz");
	write_file(path, file.p, file.len);
	stoa_reads(path, data, n);
	for (int round = 0; round < 30; round++) {
		gzFile f = gzopen(path, "rb");
		assert_non_null(f);
		assert_int_equal(gzdirect(f), 0);
		z_off_t pos = 0;
		for (int op = 0; op < 40; op++) {
			switch (test_rand_below(6)) {
			case 0: { /* seek anywhere, back or forth */
				const z_off_t to = (z_off_t)test_rand_below(n);
				const z_off_t r = test_rand_below(2)
				                      ? gzseek(f, to, SEEK_SET)
				                      : gzseek(f, to - pos, SEEK_CUR);
				assert_int_equal(r, to);
				pos = to;
				break;
			}
			case 1: {
				uint8_t buf[3000];
				const unsigned want = (unsigned)(1 + test_rand_below(sizeof(buf)));
				const int got = gzread(f, buf, want);
				const size_t exp = n - (size_t)pos < want ? n - (size_t)pos : want;
				assert_int_equal(got, (int)exp);
				zt_expect_same("gzread after seeks", buf, (size_t)got, data + pos,
				               exp);
				pos += got;
				break;
			}
			case 2: {
				char line[200];
				if ((size_t)pos >= n) {
					assert_null(gzgets(f, line, sizeof(line)));
					break;
				}
				assert_non_null(gzgets(f, line, sizeof(line)));
				const size_t len = strlen(line);
				zt_expect_same("gzgets", (uint8_t *)line, len, data + pos, len);
				assert_true(line[len - 1] == '\n' || len == sizeof(line) - 1 ||
				            (size_t)pos + len == n);
				pos += (z_off_t)len;
				break;
			}
			case 3: {
				const int c = gzgetc(f);
				if ((size_t)pos >= n) {
					assert_int_equal(c, -1);
					break;
				}
				assert_int_equal(c, data[pos]);
				assert_int_equal(gzungetc(c, f), c);
				assert_int_equal(gzgetc(f), c);
				pos++;
				break;
			}
			case 4:
				assert_int_equal(gzrewind(f), 0);
				pos = 0;
				break;
			default:
				assert_int_equal(gztell(f), pos);
				assert_true(gzoffset(f) >= 0);
				break;
			}
		}
		assert_int_equal(gzclose(f), Z_OK);
	}
	/* A plain file reads as it is, with seeks. */
	path_of(path, sizeof(path), "plain.txt");
	write_file(path, data, n);
	gzFile f = gzopen(path, "r");
	assert_non_null(f);
	assert_int_equal(gzdirect(f), 1);
	uint8_t buf[5000];
	assert_int_equal(gzseek(f, 123456, SEEK_SET), 123456);
	assert_int_equal(gzread(f, buf, sizeof(buf)), (int)sizeof(buf));
	zt_expect_same("plain file", buf, sizeof(buf), data + 123456, sizeof(buf));
	assert_int_equal(gzclose(f), Z_OK);
	/* Through a descriptor. */
	path_of(path, sizeof(path), "r.gz");
	const int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	f = gzdopen(fd, "rb");
	assert_non_null(f);
	assert_int_equal(gzread(f, buf, 100), 100);
	zt_expect_same("gzdopen", buf, 100, data, 100);
	assert_int_equal(gzclose(f), Z_OK);
	/* Cut short: the data there is, then a buffer error at the end. */
	path_of(path, sizeof(path), "cut.gz");
	write_file(path, m1.stream.p, m1.stream.len - 20);
	f = gzopen(path, "rb");
	static uint8_t all[300000];
	const int got = gzread(f, all, sizeof(all));
	assert_true(got > 0 && (size_t)got < n / 2);
	zt_expect_same("cut file", all, (size_t)got, data, (size_t)got);
	int err;
	char want_msg[200];
	snprintf(want_msg, sizeof(want_msg), "%s: unexpected end of file", path);
	assert_string_equal(gzerror(f, &err), want_msg);
	assert_int_equal(err, Z_BUF_ERROR);
	assert_int_equal(gzclose(f), Z_BUF_ERROR);
	zs_deflate_free(&m1);
	zs_deflate_free(&m2);
	zs_free(&file);
	free(data);
	print_message("gzread, gzgets, gzgetc/gzungetc, seeks, rewinds on a two-member file with "
	              "garbage after it; plain files; gzdopen; a cut file\n");
}

static void test_errors(void **unused)
{
	(void)unused;
	char path[128];
	path_of(path, sizeof(path), "bad.gz");
	uint8_t *data = zt_data(0, 50000);
	gzFile f = gzopen(path, "wb");
	assert_int_equal(gzwrite(f, data, 50000), 50000);
	assert_int_equal(gzclose(f), Z_OK);
	size_t n;
	uint8_t *file = read_file(path, &n);
	file[n / 2] ^= 0x55;
	write_file(path, file, n);
	f = gzopen(path, "rb");
	static uint8_t buf[60000];
	int err = Z_OK;
	for (int i = 0; i < 100 && gzread(f, buf, 1000) > 0; i++)
		;
	const char *msg = gzerror(f, &err);
	assert_int_equal(err, Z_DATA_ERROR);
	assert_non_null(strstr(msg, path));
	assert_int_equal(gzread(f, buf, 10), -1);
	gzclearerr(f);
	gzerror(f, &err);
	assert_int_equal(err, Z_OK);
	assert_int_equal(gzclose(f), Z_OK);
	/* Writing calls on a reading file and the reverse. */
	path_of(path, sizeof(path), "plain.txt");
	f = gzopen(path, "rb");
	assert_int_equal(gzwrite(f, data, 10), 0);
	assert_int_equal(gzputc(f, 'x'), -1);
	assert_int_equal(gzflush(f, Z_SYNC_FLUSH), Z_STREAM_ERROR);
	assert_int_equal(gzclose_w(f), Z_STREAM_ERROR);
	assert_int_equal(gzclose_r(f), Z_OK);
	path_of(path, sizeof(path), "w2.gz");
	f = gzopen(path, "wb");
	assert_int_equal(gzread(f, buf, 10), -1);
	assert_int_equal(gzgetc(f), -1);
	assert_int_equal(gzbuffer(f, 4096), 0);
	assert_int_equal(gzputc(f, 'y'), 'y');
	assert_int_equal(gzbuffer(f, 4096), -1); /* too late */
	assert_int_equal(gzflush(f, 7), Z_STREAM_ERROR);
	assert_int_equal(gzclose(f), Z_OK);
	assert_null(gzopen("/nonexistent/dir/file.gz", "rb"));
	assert_null(gzdopen(-1, "rb"));
	free(file);
	free(data);
	print_message("damaged file: Z_DATA_ERROR with the path in gzerror; calls in the wrong "
	              "mode refused\n");
}

static int cleanup(void **state)
{
	(void)state;
	if (dir[0]) {
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	zt_start(argc, argv);
	test_seed();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_read),
		cmocka_unit_test(test_reading),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests_name("zlib_gz", tests, NULL, cleanup);
}
