/* CPU features, the STOA_ISA cap and what each architecture supplies for them (internal header).
 *
 * The shared code (cpu.c) knows no architecture: it takes the probe, the feature names and the
 * STOA_ISA words from the target's folder, common/<arch>/cpu_<arch>.c, through struct stoa_arch.
 * A target without such a folder has no features: every function runs its portable code. */
#ifndef STOA_CPU_H
#define STOA_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "stoa.h"

#pragma GCC visibility push(hidden)

/* One feature bit: its name in reports and stoa_cpu_feature_name ("pclmulqdq") and, where it
 * differs, the short name STOA_ISA also accepts for it ("pclmul", the STOA_CPU_ suffix). */
struct stoa_feature {
	uint64_t bit;
	const char *name;
	const char *alias; /* NULL: the name only */
};

/* A STOA_ISA word: the features it allows. Classes name the CPUs of real machines and are
 * listed from the smallest up, each containing the one before; other words are older levels
 * kept for existing scripts. */
struct stoa_isa_word {
	const char *name;
	uint64_t mask;
	int is_class;
};

struct stoa_arch {
	const char *name; /* "x86-64", "aarch64", "portable" */
	/* The features the hardware and OS offer, probed once; NULL: none. */
	uint64_t (*probe)(void);
	const struct stoa_feature *features;
	size_t nfeatures;
	const struct stoa_isa_word *words; /* besides "base" and "native", which every target has */
	size_t nwords;
};

/* The target's, defined in common/<arch>/cpu_<arch>.c (or cpu.c, for a target with none). */
extern const struct stoa_arch stoa_arch;

/* Parse a STOA_ISA value into the mask of features it allows: a word (base, native or one of
 * the architecture's), then any number of ",+feature" or ",-feature" items that add or remove
 * one feature, such as "x86-64-v3,+gfni,+vaes" or "native,-gfni". Returns 0 on success, -1 for
 * anything else (then *mask is left untouched). */
int stoa_isa_parse(const char *value, uint64_t *mask);

/* Writes into buf (at most size bytes, NUL-terminated, like snprintf) a STOA_ISA value that
 * allows exactly the features of `enabled` among those detected: the largest class they cover,
 * then "+feature" for each one beyond it ("x86-64-v4,+adx"); "base" when none is enabled.
 * Returns the length the whole value needs. */
size_t stoa_isa_describe(uint64_t enabled, char *buf, size_t size);

/* The features the hardware and OS offer (no STOA_ISA cap), probed once. */
uint64_t stoa_cpu_probe(void);

/* x86-64 only (common/x86/cpu_x86.c): 1 on AMD Zen 3, for tuning choices. */
int stoa_x86_zen3(void);
/* x86-64 only: 1 on AMD Zen 5 and later, for tuning choices. */
int stoa_x86_zen5(void);
/* x86-64 only: 1 where the crc32 instruction runs slower than 128-bit PCLMULQDQ folds (AMD
 * family 17h and Hygon 18h: Zen 1, Zen+ and Zen 2), for tuning choices. STOA_X86_CRC32_SLOW=0 or
 * 1 overrides it. */
int stoa_x86_crc32_slow(void);
/* x86-64 only: 1 where vector shifts have a single pipe and the multiplier another (the same AMD
 * family 17h and Hygon 18h), so that in shift-bound code a rotate's left shift is better done as
 * a multiply; for tuning choices. STOA_X86_VSHIFT_SLOW=0 or 1 overrides it. */
int stoa_x86_vshift_slow(void);
/* x86-64 only: the level-1 data cache's ways (cpuid; 8 when it does not say), for tuning
 * choices. STOA_X86_L1D_WAYS=n (1-64) overrides it. */
int stoa_x86_l1d_ways(void);

/* Whether a call's data comes from DRAM, for kernels that read it differently then (x86:
 * common/x86/cold.h): STOA_COLD_UNSET until a first call reads the time-stamp counter and picks
 * STOA_COLD_PROBE (time each call's first bytes) or STOA_COLD_NEVER (the counter is too slow to
 * read). Tests set STOA_COLD_ALWAYS to run the cold paths on data in cache. */
enum { STOA_COLD_UNSET, STOA_COLD_PROBE, STOA_COLD_NEVER, STOA_COLD_ALWAYS };
extern _Atomic int stoa_cold_mode;

#pragma GCC visibility pop

#endif
