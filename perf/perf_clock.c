/* Wall clock and cycle counts for the benchmark driver. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "perf.h"

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/syscall.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_TSC 1
/* The compilers' builtin, so no intrinsics header outside the architecture folders. */
#define read_tsc() __builtin_ia32_rdtsc()
#else
#define HAVE_TSC 0
#endif

enum source { SRC_NONE, SRC_PERF_EVENT, SRC_TSC };

/* Written once by perf_cycles_init before any worker thread starts. */
static enum source cycle_source = SRC_NONE;
static char source_text[256];

uint64_t perf_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__linux__)
/* User-mode core cycles of the calling thread: what a kernel counts with exclude_kernel, which
 * perf_event_paranoid <= 2 still allows to unprivileged users. */
static int open_cycle_counter(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}
#else
static int open_cycle_counter(void)
{
	errno = ENOSYS;
	return -1;
}
#endif

/* Some hypervisors hand out an event fd that never counts; treat that as no counter. */
static int counter_counts(int fd)
{
	uint64_t a = 0, b = 0, spin = 0;
	if (read(fd, &a, sizeof(a)) != (ssize_t)sizeof(a))
		return 0;
	for (uint64_t t0 = perf_now_ns(); perf_now_ns() - t0 < 1000000u;)
		spin++;
	if (read(fd, &b, sizeof(b)) != (ssize_t)sizeof(b))
		return 0;
	return b > a && spin;
}

#if HAVE_TSC
static double calibrate_tsc(void)
{
	/* 40 ms against the monotonic clock gives the rate to well under 0.1%; take the larger of
	 * two tries so a preemption in the middle of one only lowers that try. */
	double best = 0;
	for (int k = 0; k < 2; k++) {
		uint64_t t0 = perf_now_ns(), c0 = read_tsc(), t1, c1;
		do {
			t1 = perf_now_ns();
			c1 = read_tsc();
		} while (t1 - t0 < 20000000u);
		double hz = (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
		if (hz > best)
			best = hz;
	}
	return best;
}
#endif

const char *perf_cycles_init(void)
{
	int fd = open_cycle_counter();
	int err = errno;
	if (fd >= 0) {
		int ok = counter_counts(fd);
		close(fd);
		if (ok) {
			cycle_source = SRC_PERF_EVENT;
			snprintf(source_text, sizeof(source_text),
				 "hardware core cycles (perf_event_open, user mode)");
			return source_text;
		}
		err = 0;
	}
	char why[96];
	snprintf(why, sizeof(why), "perf_event_open: %s",
		 err ? strerror(err) : "counter does not count");
#if HAVE_TSC
	cycle_source = SRC_TSC;
	snprintf(source_text, sizeof(source_text),
		 "TSC reference cycles at %.1f MHz, calibrated against CLOCK_MONOTONIC "
		 "(no hardware cycle counter: %s)",
		 calibrate_tsc() / 1e6, why);
#else
	cycle_source = SRC_NONE;
	snprintf(source_text, sizeof(source_text), "none (no hardware cycle counter: %s; no TSC)",
		 why);
#endif
	return source_text;
}

int perf_cycles_valid(void)
{
	return cycle_source != SRC_NONE;
}

int perf_cycles_open(struct perf_cycles *pc)
{
	pc->fd = -1;
	if (cycle_source == SRC_PERF_EVENT) {
		pc->fd = open_cycle_counter();
		return pc->fd >= 0 ? 0 : -1;
	}
	return cycle_source == SRC_TSC ? 0 : -1;
}

void perf_cycles_close(struct perf_cycles *pc)
{
	if (pc->fd >= 0)
		close(pc->fd);
	pc->fd = -1;
}

uint64_t perf_cycles_read(const struct perf_cycles *pc)
{
	if (pc->fd >= 0) {
		uint64_t v = 0;
		if (read(pc->fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
			return v;
		return 0;
	}
#if HAVE_TSC
	if (cycle_source == SRC_TSC)
		return read_tsc();
#endif
	return 0;
}
