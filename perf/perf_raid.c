/* RAID benchmark cases: xor_gen and xor_check at 16+1, pq_gen and pq_check at 16+2,
 * isal_zero_detect, and a plain read of the same buffers as the reference they cannot beat.
 *
 * Bytes are counted as ISA-L's raid perf programs count them: len times every buffer, sources
 * and parity. Buffer layout matters on a shared L1 (sixteen streams at one page offset compete
 * for the same sets), so the generators run in two layouts:
 *   "16+1" / "16+2"              each buffer 64 bytes further into its page than the one before,
 *                                as buffers from malloc come (ISA-L's perf programs use that)
 *   "... page-aligned"           every buffer at the start of a page, as a block layer hands them
 * The checks, zero detect and the read reference run in the first layout.
 *
 * The checks need a consistent stripe and zero detect an all-zero buffer, or they stop at the
 * first byte: a call that fails makes its instance so (with the library's own _base generator)
 * and later calls then do the whole job. Only an instance's first call pays for that. */
#include <string.h>

#include "mem_routines.h"
#include "perf.h"
#include "raid.h"

#define SOURCES  16
#define MAX_BUFS (SOURCES + 2)
#define PAGE     4096
#define STAGGER  64

typedef int raid_call(int vects, int len, void **array);
typedef int zero_call(void *mem, size_t len);

static const size_t raid_sizes[] = { 4096, 8192, 65536, 1048576, 0 };

static size_t page_round(size_t n)
{
	return (n + PAGE - 1) / PAGE * PAGE;
}

/* One instance: room to put its first buffer at a page start, then every buffer a whole number
 * of pages plus the stagger after the one before. */
static size_t stripe_footprint(size_t size)
{
	return PAGE + MAX_BUFS * (page_round(size) + STAGGER);
}

static void stripe(const struct perf_call *c, int nbuf, int aligned, void **array)
{
	uint8_t *p = c->mem + (PAGE - (uintptr_t)c->mem % PAGE) % PAGE;
	size_t step = page_round(c->size) + (aligned ? 0 : STAGGER);
	for (int i = 0; i < nbuf; i++)
		array[i] = p + (size_t)i * step;
}

/* What the check call produced, for the cross-library comparison: words from the start, the
 * middle and the end of a parity buffer, folded. Timed calls read nothing back: in a --cold walk
 * the parity of a kernel that stores around the caches would come back from memory. */
static uint64_t sample(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t at[4] = { 0, len / 3 & ~(size_t)7, 2 * len / 3 & ~(size_t)7, len - 8 };
	uint64_t f = 0, w;
	for (int i = 0; i < 4; i++) {
		memcpy(&w, p + at[i], 8);
		f = (f << 13 | f >> 51) ^ w;
	}
	return f;
}

static uint64_t run_gen(const struct perf_call *c, uint64_t calls, int parity, int aligned)
{
	raid_call *f = (raid_call *)c->fn;
	void *array[MAX_BUFS];
	int nbuf = SOURCES + parity;
	stripe(c, nbuf, aligned, array);
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++)
		acc += (uint64_t)f(nbuf, (int)c->size, array);
	if (c->check) {
		acc ^= sample(array[SOURCES], c->size);
		if (parity == 2) {
			uint64_t q = sample(array[SOURCES + 1], c->size);
			acc ^= q << 1 | q >> 63;
		}
	}
	return acc;
}

static uint64_t run_xor_gen(const struct perf_call *c, uint64_t calls)
{
	return run_gen(c, calls, 1, 0);
}
static uint64_t run_xor_gen_aligned(const struct perf_call *c, uint64_t calls)
{
	return run_gen(c, calls, 1, 1);
}
static uint64_t run_pq_gen(const struct perf_call *c, uint64_t calls)
{
	return run_gen(c, calls, 2, 0);
}
static uint64_t run_pq_gen_aligned(const struct perf_call *c, uint64_t calls)
{
	return run_gen(c, calls, 2, 1);
}

static uint64_t run_check(const struct perf_call *c, uint64_t calls, int parity)
{
	raid_call *f = (raid_call *)c->fn;
	void *array[MAX_BUFS];
	int nbuf = SOURCES + parity;
	stripe(c, nbuf, 0, array);
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++) {
		int r = f(nbuf, (int)c->size, array);
		acc += (uint64_t)r;
		if (r != 0)
			(parity == 1 ? xor_gen_base : pq_gen_base)(nbuf, (int)c->size, array);
	}
	return acc;
}

static uint64_t run_xor_check(const struct perf_call *c, uint64_t calls)
{
	return run_check(c, calls, 1);
}
static uint64_t run_pq_check(const struct perf_call *c, uint64_t calls)
{
	return run_check(c, calls, 2);
}

static uint64_t run_zero_detect(const struct perf_call *c, uint64_t calls)
{
	zero_call *f = (zero_call *)c->fn;
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++) {
		int r = f(c->mem, c->size);
		acc += (uint64_t)r;
		if (r != 0)
			memset(c->mem, 0, c->size);
	}
	return acc;
}

/* The reference: every buffer of a 16+1 stripe read once, in the order the kernels read them
 * (256 bytes of each buffer in turn), XORed into four accumulators and nothing stored. Written
 * with the compiler's generic vectors, built three times (the build's baseline, AVX2, AVX-512)
 * and the widest the CPU runs is used, so the reference is not held back by a narrow load. */
typedef uint64_t read_vec __attribute__((vector_size(64)));

#define STREAM_READ_BODY                                                                           \
	{                                                                                          \
		read_vec a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 }, x;                        \
		for (size_t off = 0; off + 256 <= (size_t)len; off += 256)                         \
			for (int b = 0; b < vects; b++) {                                          \
				const uint8_t *p = (const uint8_t *)array[b] + off;                \
				memcpy(&x, p, 64);                                                 \
				a0 ^= x;                                                           \
				memcpy(&x, p + 64, 64);                                            \
				a1 ^= x;                                                           \
				memcpy(&x, p + 128, 64);                                           \
				a2 ^= x;                                                           \
				memcpy(&x, p + 192, 64);                                           \
				a3 ^= x;                                                           \
			}                                                                          \
		a0 ^= a1 ^ a2 ^ a3;                                                                \
		uint64_t f = 0;                                                                    \
		for (int k = 0; k < 8; k++)                                                        \
			f ^= a0[k];                                                                \
		return (int)(f & 0x7fffffff);                                                      \
	}

static int stream_read_baseline(int vects, int len, void **array) STREAM_READ_BODY

#if defined(__x86_64__) && defined(__GNUC__)
    __attribute__((target("avx2"))) static int stream_read_avx2(int vects, int len,
                                                                void **array) STREAM_READ_BODY
    __attribute__((target("avx512f"))) static int stream_read_avx512(int vects, int len,
                                                                     void **array) STREAM_READ_BODY
#endif

    static int stream_read(int vects, int len, void **array)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (__builtin_cpu_supports("avx512f"))
		return stream_read_avx512(vects, len, array);
	if (__builtin_cpu_supports("avx2"))
		return stream_read_avx2(vects, len, array);
#endif
	return stream_read_baseline(vects, len, array);
}

static uint64_t run_stream_read(const struct perf_call *c, uint64_t calls)
{
	raid_call *f = (raid_call *)c->fn;
	void *array[MAX_BUFS];
	stripe(c, SOURCES + 1, 0, array);
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++)
		acc += (uint64_t)f(SOURCES + 1, (int)c->size, array);
	return acc;
}

static uint64_t bytes_xor(size_t size)
{
	return (uint64_t)(SOURCES + 1) * size;
}
static uint64_t bytes_pq(size_t size)
{
	return (uint64_t)(SOURCES + 2) * size;
}

#define ALL_BUFS "len x every buffer (sources and parity)"

#define RAID_CASE(fname, p, runner, nbytes)                                                        \
	{                                                                                          \
		.module = "raid", .function = #fname, .params = (p), .bytes = ALL_BUFS,            \
		.api = PERF_FN(fname), .run = (runner), .bytes_per_call = (nbytes),                \
		.footprint = stripe_footprint, .sizes = raid_sizes                                 \
	}

static const struct perf_case raid_cases[] = {
	RAID_CASE(xor_gen, "16+1", run_xor_gen, bytes_xor),
	RAID_CASE(xor_gen, "16+1 page-aligned", run_xor_gen_aligned, bytes_xor),
	RAID_CASE(pq_gen, "16+2", run_pq_gen, bytes_pq),
	RAID_CASE(pq_gen, "16+2 page-aligned", run_pq_gen_aligned, bytes_pq),
	RAID_CASE(xor_check, "16+1", run_xor_check, bytes_xor),
	RAID_CASE(pq_check, "16+2", run_pq_check, bytes_pq),
	{ .module = "raid",
	  .function = "isal_zero_detect",
	  .params = "",
	  .bytes = "len",
	  .api = PERF_FN(isal_zero_detect),
	  .run = run_zero_detect },
	{ .module = "raid",
	  .function = "stream_read",
	  .params = "16+1 read only",
	  .bytes = ALL_BUFS,
	  .api = PERF_FN(stream_read),
	  .run = run_stream_read,
	  .bytes_per_call = bytes_xor,
	  .footprint = stripe_footprint,
	  .sizes = raid_sizes },
};

const struct perf_module perf_module_raid = { "raid", raid_cases, PERF_COUNT(raid_cases) };
