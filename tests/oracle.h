/* The separate-process differential: a module's tests/<name>_oracle.c is built twice, against
 * Debian's libisal (<name>_oracle_system) and against stoa (<name>_oracle_stoa); each prints
 * "# key: value" header lines (libisal: the library it loaded, stoa_version: "none" or stoa's)
 * and then one result line per call of a deterministic sweep. These helpers run the builds and
 * compare what they print. */
#ifndef STOA_TEST_ORACLE_H
#define STOA_TEST_ORACLE_H

#include <stddef.h>

struct oracle_output {
	char *text;
	size_t len;
};

enum oracle_run {
	ORACLE_SYSTEM,  /* the libisal build on the system's libisal.so.2 (LD_LIBRARY_PATH unset) */
	ORACLE_STOA,    /* the stoa build */
	ORACLE_COMPAT,  /* the libisal build on stoa's compat libisal.so.2 (the drop-in ABI) */
	ORACLE_HEADERS, /* the libisal build of this target: SYSTEM, or COMPAT in a cross run, for
			 * results that depend on ISA-L's headers only (struct layouts) */
};

/* Runs <name>_oracle_<build> (beside the test program) with seed and count and captures its
 * output. Fails the test when it cannot run, exits non-zero, or (SYSTEM, COMPAT) did not load the
 * library it was meant to.
 *
 * In a cross run (scripts/cross.sh) the build's programs run through STOA_TEST_WRAPPER, and
 * STOA_ORACLE_HOST names the directory of the host's own oracles: SYSTEM then runs the host's
 * libisal build, so the target's results are compared with x86-64 ISA-L's for the same seed
 * (the target's ISA-L, where Debian has one, differs from x86-64's on rejected arguments and has
 * bugs of its own). */
void oracle_run(const char *name, enum oracle_run how, unsigned long long seed, int count,
                struct oracle_output *o);

/* The next result line at or after *pos (its length in *len), skipping header lines, empty
 * lines and, when skip_prefix is not NULL, lines starting with it; NULL at the end. */
const char *oracle_next_line(const char **pos, size_t *len, const char *skip_prefix);

/* Fails the test at the first result line that differs; returns how many lines were compared.
 * Lines of b starting with skip_in_b (functions a lacks) are left out and counted in *skipped_b
 * (which may be NULL when skip_in_b is). */
size_t oracle_compare(const char *name_a, const struct oracle_output *a, const char *name_b,
                      const struct oracle_output *b, const char *skip_in_b, size_t *skipped_b);

void oracle_free(struct oracle_output *o);

/* The drop-in check: the libisal-built oracle, run on Debian's libisal and then on stoa's compat
 * libisal.so.2, prints the same results. Returns how many result lines were compared. */
size_t oracle_check_compat(const char *name, unsigned long long seed, int count);

#endif
