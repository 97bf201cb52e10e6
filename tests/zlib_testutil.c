#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include "zlib_testutil.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

static void exe_dir(char *out, size_t size)
{
	const ssize_t n = readlink("/proc/self/exe", out, size - 1);
	if (n <= 0 || (size_t)n >= size - 1) {
		fprintf(stderr, "zlib tests: cannot read /proc/self/exe\n");
		exit(1);
	}
	out[n] = '\0';
	char *slash = strrchr(out, '/');
	if (slash)
		*slash = '\0';
}

/* The path of the libz this process mapped ("" when none). */
static void mapped_libz(char *out, size_t size)
{
	char line[4096];
	out[0] = '\0';
	FILE *maps = fopen("/proc/self/maps", "r");
	while (maps && fgets(line, sizeof(line), maps)) {
		char *path = strchr(line, '/');
		if (path && strstr(path, "/libz.so")) {
			path[strcspn(path, "\n")] = '\0';
			snprintf(out, size, "%s", path);
			break;
		}
	}
	if (maps)
		fclose(maps);
}

void zt_start(int argc, char **argv)
{
	(void)argc;
	char dir[PATH_MAX], want[PATH_MAX + 32], real[PATH_MAX], lib[PATH_MAX];
	exe_dir(dir, sizeof(dir));
	snprintf(want, sizeof(want), "%s/../compat/libz.so.1", dir);
	if (!realpath(want, real)) {
		fprintf(stderr, "zlib tests: %s is missing (make lib)\n", want);
		exit(1);
	}
	mapped_libz(lib, sizeof(lib));
	if (getenv("STOA_ZLIB_TEST_SYSTEM")) {
		/* For checking the tests' own expectations: everything on the system's zlib. */
		printf("zlib under test: %s (STOA_ZLIB_TEST_SYSTEM: not stoa's)\n", lib);
		return;
	}
	if (strcmp(lib, real) != 0) {
		if (getenv("STOA_ZLIB_TEST_REEXEC")) {
			fprintf(stderr, "zlib tests: still on '%s', not %s\n", lib, real);
			exit(1);
		}
		char path[PATH_MAX + 64];
		const char *old = getenv("LD_LIBRARY_PATH");
		snprintf(path, sizeof(path), "%s/../compat%s%s", dir, old && *old ? ":" : "",
		         old && *old ? old : "");
		setenv("LD_LIBRARY_PATH", path, 1);
		setenv("STOA_ZLIB_TEST_REEXEC", "1", 1);
		/* Through the emulator of a cross run (STOA_TEST_WRAPPER), like the first start. */
		char self[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n > 0) {
			self[n] = '\0';
			test_exec(self, argv);
		}
		fprintf(stderr, "zlib tests: cannot re-execute\n");
		exit(1);
	}
	unsetenv("STOA_ZLIB_TEST_REEXEC");
	printf("zlib under test: %s (zlibVersion %s)\n", lib, zlibVersion());
}

static struct zs_peer peer;
static int peer_up;

static void peer_down(void)
{
	if (peer_up)
		zs_peer_stop(&peer);
	peer_up = 0;
}

struct zs_peer *zt_peer(void)
{
	if (peer_up)
		return &peer;
	char dir[PATH_MAX], path[PATH_MAX + 16];
	exe_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/zlib_peer", dir);
	if (zs_peer_start(&peer, path))
		TEST_FAIL("cannot start %s\n", path);
	peer_up = 1;
	atexit(peer_down);
	struct zs_buf ans = { 0 };
	if (zs_peer_call(&peer, ZS_OP_VERSION, NULL, 0, &ans) || !ans.len)
		TEST_FAIL("the reference zlib (%s) does not answer\n", path);
	print_message("reference zlib: %s\n", (const char *)ans.p);
	assert_null(strstr((const char *)ans.p, "/compat/libz"));
	zs_free(&ans);
	return &peer;
}

static uint8_t *corpus_file(size_t len)
{
	static const char *const names[] = { "calgary/book1", "calgary/pic",
		                             "canterbury/kennedy.xls", "calgary/obj2",
		                             "canterbury/alice29.txt" };
	const char *root = test_corpus_dir();
	/* Three draws of a name: a corpus may lack one of them. */
	for (int tries = 0; tries < 3; tries++) {
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", root,
		         names[test_rand_below(sizeof(names) / sizeof(names[0]))]);
		FILE *f = fopen(path, "rb");
		if (!f)
			continue;
		uint8_t *buf = malloc(len ? len : 1);
		assert_non_null(buf);
		size_t got = fread(buf, 1, len, f);
		fclose(f);
		if (!got) {
			free(buf);
			continue;
		}
		for (size_t i = got; i < len; i++)
			buf[i] = buf[i - got];
		return buf;
	}
	return NULL;
}

uint8_t *zt_data(int kind, size_t len)
{
	if (kind == 3) {
		uint8_t *c = corpus_file(len);
		if (c)
			return c;
		kind = 0;
	}
	uint8_t *p = malloc(len ? len : 1);
	assert_non_null(p);
	static const char *const words[] = { "deflate ", "the ",    "stream ", "of ",   "zlib ",
		                             "window ",  "block\n", "and ",    "data, " };
	size_t i = 0;
	switch (kind) {
	case 0:
		while (i < len) {
			const char *w = words[test_rand_below(9)];
			for (size_t k = 0; w[k] && i < len; k++)
				p[i++] = (uint8_t)w[k];
		}
		break;
	case 1:
		test_fill_random(p, len);
		break;
	case 2:
		while (i < len) {
			const uint8_t b = (uint8_t)test_rand();
			size_t run = 1 + test_rand_below(600);
			while (run-- && i < len)
				p[i++] = b;
		}
		break;
	case 4:
		memset(p, 0, len);
		for (size_t k = 0; k < len / 97; k++)
			p[test_rand_below(len)] = (uint8_t)test_rand();
		break;
	default: {
		const size_t period = 1 + test_rand_below(40);
		for (; i < len; i++)
			p[i] = (uint8_t)(i < period ? test_rand() : p[i - period]);
		break;
	}
	}
	return p;
}

void zt_expect_same(const char *what, const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	if (alen != blen)
		TEST_FAIL("%s: %zu bytes against %zu\n", what, alen, blen);
	for (size_t i = 0; i < alen; i++)
		if (a[i] != b[i])
			TEST_FAIL("%s: first difference at byte %zu of %zu\n", what, i, alen);
}
