/* Paired mode (--pair LIB): the libraries meet in one process instead of one after the other.
 *
 * Run one after the other, two drivers meet different moments of a shared machine: on the 2-vCPU
 * VM the best-of-N ratio of one 1 MiB EC cell went from 0.63 to 2.54 between rounds, and two
 * identical stoa builds from 0.65 to 1.29. Here an ISA-L driver (built against ISA-L or
 * isa-l_crypto, its class set through their dispatch pointers as for --class) loads stoa's
 * shared library twice with dlmopen, each copy into a namespace of its own: stoa exports ISA-L's
 * names, which a plain dlopen would bind to the ISA-L linked into the driver, and a namespace
 * has its own copy of stoa's dispatch state. STOA_ISA is set to the class's cap before loading,
 * so both copies resolve their functions for the class. The second copy is the control: stoa
 * timed against itself, the noise floor of the method on the same cell.
 *
 * A case's run function calls c->fn only, so the same cell code runs any library's function;
 * what a case prepares with library calls (EC tables) goes through PERF_LIB_CALL, which
 * perf_lib_fn below points at the library being prepared or run (a hash manager's submit and
 * flush, beside its init in c->fn; igzip's stream inits). The modules whose cases follow that
 * rule are listed in perf_pair_module_ok. A compressor's output is its own: those cases
 * (own_output) check that each library's output inflates back, not that the outputs agree. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf.h"

static void *copies[PERF_PAIR_COPIES];
/* The copy PERF_LIB_CALL goes to, or -1: the library linked into the driver. */
static int current = -1;

/* Looked-up names, by the call site's string: a hash case resolves its submit and flush once per
 * batch, and a dlsym each time would cost stoa's side alone. Only a paired run (one thread)
 * gets here. */
static struct seen_fn {
	const char *name;
	int copy;
	perf_fn fn;
} seen[64];
static size_t nseen;

perf_fn perf_lib_fn(const char *name, perf_fn linked)
{
	if (current < 0)
		return linked;
	for (size_t i = 0; i < nseen; i++)
		if (seen[i].name == name && seen[i].copy == current)
			return seen[i].fn;
	perf_fn f = perf_pair_fn(current, name);
	if (!f) {
		fprintf(stderr, "stoa_perf: --pair: the library has no %s\n", name);
		exit(2);
	}
	if (nseen < PERF_COUNT(seen))
		seen[nseen++] = (struct seen_fn){ name, current, f };
	return f;
}

void perf_pair_use(int copy)
{
	current = copy;
}

perf_fn perf_pair_fn(int copy, const char *name)
{
	/* The object-to-function cast dlsym's interface needs (POSIX guarantees it works). */
	void *p = copies[copy] ? dlsym(copies[copy], name) : NULL;
	perf_fn f;
	memcpy(&f, &p, sizeof(f));
	return p ? f : NULL;
}

int perf_pair_open(const char *lib, const char *stoa_isa)
{
#if defined(PERF_LIB_STOA)
	(void)lib;
	(void)stoa_isa;
	fprintf(stderr, "stoa_perf: --pair: only the ISA-L and isa-l_crypto builds take it\n");
	return -1;
#else
	/* Each namespace gets its own libc, whose environment is copied from ours when it loads:
	 * the cap must be in place before dlmopen, and stoa reads it on its first dispatch. */
	if (stoa_isa)
		setenv("STOA_ISA", stoa_isa, 1);
	for (int i = 0; i < PERF_PAIR_COPIES; i++) {
		copies[i] = dlmopen(LM_ID_NEWLM, lib, RTLD_NOW | RTLD_LOCAL);
		if (!copies[i]) {
			fprintf(stderr, "stoa_perf: --pair: %s\n", dlerror());
			return -1;
		}
		if (!dlsym(copies[i], "stoa_version")) {
			fprintf(stderr, "stoa_perf: --pair: %s is not stoa (no stoa_version)\n",
			        lib);
			return -1;
		}
	}
	return 0;
#endif
}

const char *perf_pair_variant(int copy, const char *function)
{
	const char *(*fv)(const char *) = NULL;
	perf_fn f = perf_pair_fn(copy, "stoa_function_variant");
	if (!f)
		return NULL;
	memcpy(&fv, &f, sizeof(fv));
	return fv(function);
}

size_t perf_pair_report(int copy, char *buf, size_t cap)
{
	size_t (*rep)(char *, size_t) = NULL;
	perf_fn f = perf_pair_fn(copy, "stoa_cpu_report");
	if (!f) {
		snprintf(buf, cap, "?");
		return 0;
	}
	memcpy(&rep, &f, sizeof(rep));
	return rep(buf, cap);
}

int perf_pair_module_ok(const char *module)
{
	static const char *const ok[] = { "crc", "raid", "erasure_code", "aes", "hash", "igzip" };
	for (size_t i = 0; i < PERF_COUNT(ok); i++)
		if (strcmp(module, ok[i]) == 0)
			return 1;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Quartiles by linear interpolation between order statistics; sorts v. */
void perf_pair_quartiles(double *v, size_t n, double q[3])
{
	qsort(v, n, sizeof(v[0]), cmp_double);
	for (int k = 0; k < 3; k++) {
		double at = (double)(n - 1) * (k + 1) / 4.0;
		size_t i = (size_t)at;
		double frac = at - (double)i;
		q[k] = i + 1 < n ? v[i] + (v[i + 1] - v[i]) * frac : v[i];
	}
}
