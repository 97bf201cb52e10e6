/* The benchmark registry: what a case is, and what the driver offers the cases.
 *
 * The same sources build three drivers: against stoa (PERF_LIB_STOA), and against another ISA-L
 * (PERF_LIB_ISAL: Debian's libisal, or an upstream build) whose public API is ours. A case names
 * an API function; the driver times that public function in every build and, in the stoa build,
 * also every variant in stoa's table for the same name that the CPU can run. Peers (zlib ...)
 * are extra implementations a case carries in the stoa build only, so each is measured once.
 *
 * A module adds its cases in perf/perf_<module>.c as a const struct perf_module and lists it
 * once in perf/perf_registry.c. */
#ifndef STOA_PERF_H
#define STOA_PERF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if !defined(PERF_LIB_STOA) && !defined(PERF_LIB_ISAL)
#error "build perf/ with -DPERF_LIB_STOA or -DPERF_LIB_ISAL (see perf/perf.mk)"
#endif

/* The library a build measures, as the report's "library" column shows it. */
#ifndef PERF_LIBRARY
#define PERF_LIBRARY "stoa"
#endif

/* Any function; a case's run function casts it back to the type it knows. */
typedef void (*perf_fn)(void);
#define PERF_FN(f) ((perf_fn)(f))

/* One instance of a case's working memory, as handed to its run function. */
struct perf_call {
	perf_fn fn;   /* the implementation being timed */
	uint8_t *mem; /* footprint(size) bytes, 64-byte aligned, filled with test data */
	size_t size;  /* the case's size parameter (bytes per buffer) */
	void *state;  /* what the case's prepare() returned for this size, or NULL */
	int check;    /* the driver's result-check call (calls == 1): see perf_run_fn */
};

/* Calls c->fn `calls` times on c->mem and returns every result folded together (so no call can
 * be dropped as unused). On the check call (c->check set, calls == 1) it returns what the call
 * produced, a sample of its output where there is one: the driver compares that value across
 * implementations and libraries. Timed calls read no output back (a --cold walk times one call
 * per buffer, and reading back lines just written to memory would add their misses to it). */
typedef uint64_t perf_run_fn(const struct perf_call *c, uint64_t calls);

/* A competitor timed inside the same case: another library's function for the same job. */
struct perf_peer {
	const char *library; /* "zlib" */
	const char *variant; /* what it is called there: "crc32" */
	perf_fn fn;
	perf_run_fn *run; /* NULL: the case's run function fits the peer's signature */
};

struct perf_case {
	const char *module;   /* "crc" */
	const char *function; /* the API name; the stoa build times every variant of this name */
	const char *params;   /* fixed parameters other than the size ("k=10 p=4"), or "" */
	const char *bytes;    /* how one call's bytes are counted, e.g. "len" */
	perf_fn api;          /* the public function in this build */
	perf_run_fn *run;
	/* Bytes counted for one call at this size; NULL counts the size itself. */
	uint64_t (*bytes_per_call)(size_t size);
	/* Working memory of one instance (inputs and outputs together); NULL means size. */
	size_t (*footprint)(size_t size);
	/* Optional per-size setup shared by every thread and instance (coefficient tables ...). */
	void *(*prepare)(size_t size);
	void (*release)(void *state);
	/* Sizes to run when --sizes is not given, 0-terminated; NULL: the driver's list
	 * (64 B, 512 B, 4 KiB, 64 KiB, 1 MiB). */
	const size_t *sizes;
	/* Sizes of a --quick run (make perf_report without FULL=1), 0-terminated; an empty list
	 * leaves the case out of it. NULL: the same sizes as a full run. */
	const size_t *quick_sizes;
	/* What the table's portable ("base") entry runs when that is not the portable code (a
	 * manager's init whose base entry sets up no lanes and hashes every job on the best
	 * single-stream engine); NULL: "base". */
	const char *base_variant;
	/* The stoa table whose variants the case times, when it is not the one of `function`
	 * (the name says what a call does, the table is the public function's). */
	const char *table;
	const struct perf_peer *peers;
	size_t npeers;
	/* Each library's result is its own (a compressor's output length): a paired run checks
	 * that every result is valid (not PERF_BAD_RESULT), not that they agree. */
	int own_output;
};

/* A run's result when an output failed its check. */
#define PERF_BAD_RESULT 0xbad0bad0bad0bad0ull

/* A module's cases. */
struct perf_module {
	const char *name;
	const struct perf_case *cases;
	size_t count;
};

/* Every module in this build, null-terminated (perf/perf_registry.c). */
extern const struct perf_module *const perf_modules[];

#define PERF_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* CPU classes (perf/perf_class.c, --class). */

/* Makes this process run what each library runs on a CPU of the class `name`: 0, or 2 for an
 * unknown name or a failed setup, 3 when this CPU lacks the class's features (said on stderr).
 * The stoa build may run itself again (argv) to hand OpenSSL its cap. */
int perf_class_apply(const char *name, char **argv);
/* The class applied, or NULL; a sentence describing it; its STOA_ISA value. */
const char *perf_class_name(void);
const char *perf_class_stoa_isa(void);
const char *perf_class_about(void);
/* Prints every class and whether this CPU runs it. */
void perf_class_list(FILE *f);
/* Whether a peer library's rows stand for the applied class (some peers cannot be capped). */
int perf_class_peer_ok(const char *library);

/* Paired mode (perf/perf_pair.c, --pair): an ISA-L driver times stoa's shared library, loaded
 * into namespaces of its own, against its own library in one process. A case's run function
 * calls only c->fn; library calls a case makes elsewhere (its prepare building tables) go
 * through PERF_LIB_CALL, which names the function in the library whose state is being prepared:
 * the linked one outside paired mode. */
perf_fn perf_lib_fn(const char *name, perf_fn linked);
#define PERF_LIB_CALL(f) ((__typeof__(&(f)))perf_lib_fn(#f, PERF_FN(f)))

/* Copies of stoa a paired run loads: the one measured and the control (stoa against itself). */
#define PERF_PAIR_COPIES 2
/* Loads LIB PERF_PAIR_COPIES times with STOA_ISA set to stoa_isa (when not NULL): 0 or -1. */
int perf_pair_open(const char *lib, const char *stoa_isa);
/* A copy's function of that name, or NULL. */
perf_fn perf_pair_fn(int copy, const char *name);
/* Where PERF_LIB_CALL goes from now on: a copy, or -1 for the linked library. */
void perf_pair_use(int copy);
/* What a copy runs for a dispatched function (stoa_function_variant), or NULL. */
const char *perf_pair_variant(int copy, const char *function);
/* A copy's stoa_cpu_report. */
size_t perf_pair_report(int copy, char *buf, size_t cap);
/* Whether a module's cases call library code only through c->fn and PERF_LIB_CALL. */
int perf_pair_module_ok(const char *module);
/* Sorts v and writes its quartiles (q[1] the median). */
void perf_pair_quartiles(double *v, size_t n, double q[3]);

/* Clocks (perf/perf_clock.c). */

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t perf_now_ns(void);

/* Chooses the cycle source once: a hardware cycle counter (perf_event_open) when the kernel
 * offers one, else the TSC calibrated against CLOCK_MONOTONIC, else none. Returns a sentence
 * naming the source for the report. */
const char *perf_cycles_init(void);

/* Per-thread cycle counter: open in the thread that reads it (hardware counters count the
 * opening thread only). */
struct perf_cycles {
	int fd; /* perf_event fd, or -1 when the TSC (or nothing) is used */
};
/* Returns 0, or -1 when this thread gets no cycle readings (the rows then show none). */
int perf_cycles_open(struct perf_cycles *pc);
void perf_cycles_close(struct perf_cycles *pc);
/* A reading in cycles; only differences mean anything. */
uint64_t perf_cycles_read(const struct perf_cycles *pc);
/* True when cycle readings are available at all. */
int perf_cycles_valid(void);

#endif
