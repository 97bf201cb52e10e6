/* Telling data in DRAM from data in cache by the time its first bytes take to read (the mode in
 * common/cpu.h): a kernel reads a span with the counter taken before and after, and goes on by
 * the path for where the data lay. */
#ifndef STOA_X86_COLD_H
#define STOA_X86_COLD_H

#include <stdatomic.h>
#include <stdint.h>
#include <x86intrin.h>

#include "common/cpu.h"

#pragma GCC visibility push(hidden)
/* Under a hypervisor that traps RDTSC a read costs microseconds, and every call would look cold:
 * the first call measures the counter and probes only if reading it is cheap. */
int stoa_cold_mode_init(void);
#pragma GCC visibility pop

/* Starts a probe: the counter, or 0 to say warm or 1 cold without timing anything. */
static inline __attribute__((always_inline)) uint64_t stoa_cold_start(void)
{
	int mode = atomic_load_explicit(&stoa_cold_mode, memory_order_relaxed);
	if (__builtin_expect(mode == STOA_COLD_UNSET, 0))
		mode = stoa_cold_mode_init();
	if (mode == STOA_COLD_PROBE)
		return __rdtsc();
	return mode == STOA_COLD_ALWAYS;
}

/* Ends it after the probed span: whether it took more than `ticks` (the data came from DRAM).
 * The second read is not serialized; a CPU that took it early would make calls look warm, and a
 * wrong guess only ever costs speed. */
static inline __attribute__((always_inline)) int stoa_cold_end(uint64_t t0, uint64_t ticks)
{
	if (t0 <= 1)
		return (int)t0;
	return __rdtsc() - t0 > ticks;
}

/* A probe over one buffer's first STOA_COLD_SPAN bytes: above STOA_COLD_SPAN_TICKS they came from
 * DRAM. Zen 4, 2.6 GHz counter: 26-52 ticks from L1-L2, 1000-1400 from DRAM (p5, median); the
 * threshold leaves room for a KiB from L3 (16 lines at 50 ns, partly overlapped). */
#define STOA_COLD_SPAN       1024
#define STOA_COLD_SPAN_TICKS 512

/* The same for a span whose result nothing waits on before the check: LFENCE first, so that the
 * counter is read once the span's loads are done (a plain read ran ahead of them and read 1 KiB
 * from DRAM in 30 ns). LFENCE rather than RDTSCP, which a hypervisor may hide (and which then
 * faults); where LFENCE does not wait (AMD without its dispatch-serializing mode) calls only look
 * warm, which costs speed, never a result. */
static inline __attribute__((always_inline)) int stoa_cold_end_ordered(uint64_t t0, uint64_t ticks)
{
	if (t0 <= 1)
		return (int)t0;
	_mm_lfence();
	return __rdtsc() - t0 > ticks;
}

#endif
