/* Shared by the oracle programs (tests/<name>_oracle.c), each built once against the system's
 * ISA-L (-DORACLE_SYSTEM, -lisal) and once against stoa (libstoa.a): a random source that is the
 * same in every build, fingerprints, the header lines saying which library the process runs on
 * (tests/oracle.h reads them), and allocation. Header-only: the programs link nothing of the
 * test suite. */
#ifndef STOA_ORACLE_PROG_H
#define STOA_ORACLE_PROG_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ORACLE_SYSTEM
#include "stoa.h"
#endif

/* splitmix64: the same sequence on every build, independent of the library under test. */
static inline uint64_t oracle_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* n bytes from s, each 64-bit draw stored little-endian: the same bytes on every host, so that a
 * big-endian target's results compare with x86-64's. */
static inline void oracle_fill(uint64_t *s, uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i += 8) {
		const uint64_t v = oracle_next(s);
		for (size_t k = 0; k < 8 && i + k < n; k++)
			p[i + k] = (uint8_t)(v >> (8 * k));
	}
}

/* FNV-1a over n bytes from h: a name's own stream of numbers, or a result's fingerprint. */
#define ORACLE_FNV_START 0xcbf29ce484222325ull
static inline uint64_t oracle_fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static inline uint64_t oracle_name_hash(const char *name)
{
	return oracle_fnv(ORACLE_FNV_START, name, strlen(name));
}

/* The "# key: value" lines tests/oracle.c checks: which libisal is mapped, and whether it is
 * stoa's (stoa_version found at run time) or the system's. */
static inline void oracle_describe(void)
{
#ifdef ORACLE_SYSTEM
	char line[4096], lib[4096] = "(none mapped)";
	FILE *maps = fopen("/proc/self/maps", "r");
	while (maps && fgets(line, sizeof(line), maps)) {
		char *path = strchr(line, '/');
		if (path && strstr(path, "libisal.so")) {
			path[strcspn(path, "\n")] = '\0';
			snprintf(lib, sizeof(lib), "%s", path);
			break;
		}
	}
	if (maps)
		fclose(maps);
	void *self = dlopen(NULL, RTLD_NOW);
	const char *(*version)(void) =
	    self ? (const char *(*)(void))dlsym(self, "stoa_version") : NULL;
	printf("# build: ISA-L headers, dynamically linked with -lisal\n");
	printf("# libisal: %s\n", lib);
	printf("# stoa_version: %s\n", version ? version() : "none");
#else
	printf("# build: stoa headers, libstoa.a\n");
	printf("# libisal: none (stoa linked statically)\n");
	printf("# stoa_version: %s\n", stoa_version());
#endif
}

/* Exactly size bytes, 64-byte aligned (as ISA-L's vector code wants), so a sanitizer build flags
 * a read one past the end. Exits on failure. */
static inline void *oracle_alloc(size_t size)
{
	void *p = NULL;
	if (posix_memalign(&p, 64, size ? size : 1) != 0) {
		fprintf(stderr, "oracle: out of memory\n");
		exit(2);
	}
	return p;
}

/* The command line every oracle takes, "SEED COUNT"; exits with a usage message otherwise.
 * Prints the library header lines. */
static inline void oracle_start(int argc, char **argv, uint64_t *seed, unsigned long *count)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s SEED COUNT\n", argv[0]);
		exit(2);
	}
	*seed = strtoull(argv[1], NULL, 0);
	*count = strtoul(argv[2], NULL, 0);
	oracle_describe();
}

#endif
