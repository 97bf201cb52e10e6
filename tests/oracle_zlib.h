/* zlib for the igzip oracle programs (tests/inflate_oracle.c, tests/deflate_oracle.c), loaded with
 * dlopen so that each oracle build links nothing but the library under test; and the sample
 * data generator both sweeps draw their inputs from. Header-only, like oracle_prog.h. */
#ifndef STOA_ORACLE_ZLIB_H
#define STOA_ORACLE_ZLIB_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <zlib.h>

#include "oracle_prog.h"

static struct {
	__typeof__(deflateInit2_) *init2;
	__typeof__(deflate) *deflate;
	__typeof__(deflateEnd) *end;
	__typeof__(deflateBound) *bound;
	__typeof__(inflateInit2_) *iinit2;
	__typeof__(inflate) *inflate;
	__typeof__(inflateEnd) *iend;
} z;

static inline void oracle_zlib_open(const char *prog)
{
	void *lib = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "%s: dlopen(libz.so.1): %s\n", prog, dlerror());
		exit(2);
	}
	*(void **)&z.init2 = dlsym(lib, "deflateInit2_");
	*(void **)&z.deflate = dlsym(lib, "deflate");
	*(void **)&z.end = dlsym(lib, "deflateEnd");
	*(void **)&z.bound = dlsym(lib, "deflateBound");
	*(void **)&z.iinit2 = dlsym(lib, "inflateInit2_");
	*(void **)&z.inflate = dlsym(lib, "inflate");
	*(void **)&z.iend = dlsym(lib, "inflateEnd");
	if (!z.init2 || !z.deflate || !z.end || !z.bound || !z.iinit2 || !z.inflate || !z.iend) {
		fprintf(stderr, "%s: libz.so.1 lacks the deflate and inflate symbols\n", prog);
		exit(2);
	}
}

/* n bytes of one kind drawn from s: words, random bytes, long runs, or a mix of stretches. */
static inline void oracle_gen_data(uint64_t *s, uint8_t *p, size_t n)
{
	static const char *words[] = { "alpha ", "beta ", "gamma ", "delta ", "\n", "epsilon ",
				       "zeta ",  "eta ",  "theta ", "iota ",  "kappa " };
	int kind = (int)(oracle_next(s) % 4);
	size_t i = 0;
	while (i < n) {
		int k = kind == 3 ? (int)(oracle_next(s) % 3) : kind;
		size_t run = kind == 3 ? 1 + oracle_next(s) % 3000 : n;
		for (size_t j = 0; j < run && i < n; j++) {
			if (k == 0) {
				const char *w = words[oracle_next(s) % 11];
				for (; *w && i < n; w++, j++)
					p[i++] = (uint8_t)*w;
			} else if (k == 1) {
				p[i++] = (uint8_t)oracle_next(s);
			} else {
				p[i] = (uint8_t)('a' + (i / 500) % 3);
				i++;
			}
		}
	}
}

#endif
