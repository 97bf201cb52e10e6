#define _GNU_SOURCE /* dladdr */
#include "oracle.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "stoa.h"
#include "testutil.h"

/* The directory holding this test program; the oracle builds sit beside it and the compat
 * library in ../compat, so a test runs from any working directory. */
static void exe_dir(char *out, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", out, size - 1);
	assert_true(n > 0 && (size_t)n < size - 1);
	out[n] = '\0';
	char *slash = strrchr(out, '/');
	assert_non_null(slash);
	*slash = '\0';
}

static void run_command(const char *cmd, struct oracle_output *o)
{
	print_message("running: %s\n", cmd);
	fflush(stdout);
	FILE *f = popen(cmd, "r");
	if (!f)
		TEST_FAIL("popen(%s): %s\n", cmd, strerror(errno));
	size_t cap = 1 << 20;
	o->text = malloc(cap);
	o->len = 0;
	assert_non_null(o->text);
	for (;;) {
		if (o->len + 65536 + 1 > cap) {
			cap *= 2;
			o->text = realloc(o->text, cap);
			assert_non_null(o->text);
		}
		size_t n = fread(o->text + o->len, 1, 65536, f);
		if (n == 0)
			break;
		o->len += n;
	}
	o->text[o->len] = '\0';
	int status = pclose(f);
	if (status != 0)
		TEST_FAIL("'%s' failed (wait status 0x%x); is it built and is libisal installed?\n",
		          cmd, status);
}

/* The value of a "# key: value" line, copied into out ("" when absent). */
static void header_value(const struct oracle_output *o, const char *key, char *out, size_t size)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "# %s: ", key);
	out[0] = '\0';
	for (const char *l = o->text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, pat, strlen(pat)) == 0) {
			const char *v = l + strlen(pat);
			size_t n = strcspn(v, "\n");
			snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), v);
			return;
		}
	}
}

void oracle_run(const char *name, enum oracle_run how, unsigned long long seed, int count,
                struct oracle_output *o)
{
	char dir[PATH_MAX], compat[PATH_MAX + 16], cmd[3 * PATH_MAX];
	exe_dir(dir, sizeof(dir));
	snprintf(compat, sizeof(compat), "%s/../compat", dir);
	const char *host = getenv("STOA_ORACLE_HOST");
	if (how == ORACLE_HEADERS)
		how = host && *host ? ORACLE_COMPAT : ORACLE_SYSTEM;
	const char *wrap = test_wrapper();
	switch (how) {
	case ORACLE_SYSTEM:
		if (host && *host)
			snprintf(cmd, sizeof(cmd),
			         "env -u LD_LIBRARY_PATH '%s/%s_oracle_system' %llu %d", host, name,
			         seed, count);
		else
			snprintf(cmd, sizeof(cmd),
			         "env -u LD_LIBRARY_PATH %s'%s/%s_oracle_system' %llu %d", wrap, dir,
			         name, seed, count);
		break;
	case ORACLE_STOA:
		snprintf(cmd, sizeof(cmd), "%s'%s/%s_oracle_stoa' %llu %d", wrap, dir, name, seed,
		         count);
		break;
	case ORACLE_HEADERS:
	case ORACLE_COMPAT: {
		char real[PATH_MAX + 32];
		if (!realpath(compat, real) || access(strcat(real, "/libisal.so.2"), R_OK) != 0)
			TEST_FAIL("%s/libisal.so.2 is missing: run-tests should have built it\n",
			          compat);
		/* Only libisal is swapped: the zlib the oracles open by name stays the system's
		 * (this program's), which the compat directory's libz.so.1 would replace. (A
		 * sanitizer build's runtime then is not the first library: that is fine here.) */
		Dl_info zi;
		const char *zlib = dladdr((void *)(uintptr_t)&deflate, &zi) && zi.dli_fname
		                           ? zi.dli_fname
		                           : "";
		/* Under the emulator the preload is the target's, set in its environment only. */
		snprintf(cmd, sizeof(cmd),
		         "LD_LIBRARY_PATH='%s' %s='%s' "
		         "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0\" "
		         "%s'%s/%s_oracle_system' %llu %d",
		         compat, *wrap ? "QEMU_SET_ENV=LD_PRELOAD" : "LD_PRELOAD", zlib, wrap, dir,
		         name, seed, count);
		break;
	}
	}
	run_command(cmd, o);
	if (how == ORACLE_STOA)
		return;

	/* A build meant for one library must prove it ran on that one. */
	char lib[1024], ver[64];
	header_value(o, "libisal", lib, sizeof(lib));
	header_value(o, "stoa_version", ver, sizeof(ver));
	print_message("the libisal-built oracle loaded %s (stoa_version: %s)\n", lib, ver);
	if (how == ORACLE_SYSTEM && (strcmp(ver, "none") != 0 || !strstr(lib, "libisal.so")))
		TEST_FAIL("the system oracle did not run on the system's libisal\n");
	if (how == ORACLE_COMPAT &&
	    (strcmp(ver, STOA_VERSION_STRING) != 0 || !strstr(lib, "/compat/libisal.so.2")))
		TEST_FAIL("the oracle built against ISA-L did not load stoa's compat library\n");
}

const char *oracle_next_line(const char **pos, size_t *len, const char *skip_prefix)
{
	while (**pos) {
		const char *l = *pos;
		const char *nl = strchr(l, '\n');
		*len = nl ? (size_t)(nl - l) : strlen(l);
		*pos = nl ? nl + 1 : l + *len;
		if (*l == '#' || *len == 0)
			continue;
		if (skip_prefix && strncmp(l, skip_prefix, strlen(skip_prefix)) == 0)
			continue;
		return l;
	}
	return NULL;
}

size_t oracle_compare(const char *name_a, const struct oracle_output *a, const char *name_b,
                      const struct oracle_output *b, const char *skip_in_b, size_t *skipped_b)
{
	const char *pa = a->text, *pb = b->text;
	size_t la, lb, n = 0;
	for (;;) {
		const char *x = oracle_next_line(&pa, &la, NULL);
		const char *y = oracle_next_line(&pb, &lb, skip_in_b);
		if (!x && !y)
			break;
		if (!x || !y || la != lb || memcmp(x, y, la) != 0)
			TEST_FAIL("outputs differ at result line %zu:\n  %s: %.*s\n  %s: %.*s\n",
			          n + 1, name_a, x ? (int)la : 5, x ? x : "(end)", name_b,
			          y ? (int)lb : 5, y ? y : "(end)");
		n++;
	}
	if (skipped_b) {
		size_t l, all = 0;
		pb = b->text;
		while (oracle_next_line(&pb, &l, NULL))
			all++;
		*skipped_b = all - n;
	}
	return n;
}

void oracle_free(struct oracle_output *o)
{
	free(o->text);
	o->text = NULL;
	o->len = 0;
}

size_t oracle_check_compat(const char *name, unsigned long long seed, int count)
{
	struct oracle_output sys, dropin;
	oracle_run(name, ORACLE_SYSTEM, seed, count, &sys);
	oracle_run(name, ORACLE_COMPAT, seed, count, &dropin);
	size_t n = oracle_compare("libisal", &sys, "stoa compat", &dropin, NULL, NULL);
	print_message("drop-in ABI: a binary built for libisal.so.2 ran on stoa's compat library; "
	              "%zu result lines, identical to Debian's libisal\n",
	              n);
	oracle_free(&sys);
	oracle_free(&dropin);
	return n;
}
