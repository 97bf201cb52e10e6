/* A deterministic sweep over the RAID and zero-detect API, for differential testing between
 * processes.
 *
 * One source, two builds (tests/tests.mk):
 *   raid_oracle_system  -DORACLE_SYSTEM with the system's <isa-l.h>, linked with -lisal
 *   raid_oracle_stoa    with stoa's headers, linked with libstoa.a
 * The libraries export the same symbols, so each gets its own process; tests/test_raid.c runs
 * both with the same arguments and compares the text, and runs the system build again on stoa's
 * compat libisal.so.2 (the drop-in check).
 *
 * usage: raid_oracle SEED COUNT
 * Prints COUNT lines per function, one per call:
 *   <function> vects=<v> len=<n> ret=<r> p=<hash> q=<hash>     (generators)
 *   <function> vects=<v> len=<n> ok=<r> bad=<buffer>@<offset>:<r>  (checks)
 *   isal_zero_detect len=<n> align=<a> nonzero=<offset or -> ret=<r>
 * then a fixed list of rejected arguments. Only calls that ISA-L 2.30 defines are made: aligned
 * buffers, pq_gen and pq_check with len a multiple of 32, pq_gen_base with len a multiple of 8
 * (it leaves other tails unwritten), and bad arguments that ISA-L checks rather than crashes on.
 * Lines starting with '#' say which library the process runs on; they are not results. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_prog.h"
#include <isa-l.h>

typedef int raid_call(int vects, int len, void **array);

enum shape { GEN_XOR, GEN_PQ, CHECK_XOR, CHECK_PQ };

struct oracle_fn {
	const char *name;
	raid_call *call;
	enum shape shape;
	int min_vects; /* the smallest vects swept */
	int len_unit;  /* len is a multiple of this */
};

static const struct oracle_fn fns[] = {
	{ "xor_gen", xor_gen, GEN_XOR, 3, 1 },
	{ "xor_gen_base", xor_gen_base, GEN_XOR, 2, 1 },
	{ "xor_check", xor_check, CHECK_XOR, 2, 1 },
	{ "xor_check_base", xor_check_base, CHECK_XOR, 2, 1 },
	{ "pq_gen", pq_gen, GEN_PQ, 4, 32 },
	{ "pq_gen_base", pq_gen_base, GEN_PQ, 3, 8 },
	{ "pq_check", pq_check, CHECK_PQ, 4, 32 },
	{ "pq_check_base", pq_check_base, CHECK_PQ, 3, 1 },
};

static int draw_len(uint64_t *s, int unit)
{
	int len;
	switch (oracle_next(s) % 4) {
	case 0:
		len = (int)(oracle_next(s) % 129);
		break;
	case 1:
		len = (int)(oracle_next(s) % 2049);
		break;
	default:
		len = (int)(oracle_next(s) % 20001);
		break;
	}
	return len / unit * unit;
}

/* Makes the stripe consistent with parity computed here, byte by byte, so a check sees the same
 * stripe whichever library runs it. */
static void make_consistent(enum shape shape, int vects, int len, void **array)
{
	int nsrc = vects - (shape == CHECK_XOR ? 1 : 2);
	for (int i = 0; i < len; i++) {
		uint8_t p = 0, q = 0;
		for (int j = nsrc - 1; j >= 0; j--) {
			uint8_t d = ((const uint8_t *)array[j])[i];
			p ^= d;
			q = (uint8_t)((q << 1) ^ (q & 0x80 ? 0x1d : 0)) ^ d;
		}
		((uint8_t *)array[nsrc])[i] = p;
		if (shape == CHECK_PQ)
			((uint8_t *)array[nsrc + 1])[i] = q;
	}
}

static void sweep(const struct oracle_fn *f, uint64_t seed, unsigned long count)
{
	uint64_t s = seed ^ oracle_fnv(ORACLE_FNV_START, f->name, strlen(f->name));
	for (unsigned long c = 0; c < count; c++) {
		int vects = f->min_vects + (int)(oracle_next(&s) % (uint64_t)(70 - f->min_vects));
		int len = draw_len(&s, f->len_unit);
		void **array = malloc((size_t)vects * sizeof(*array));
		if (!array)
			exit(2);
		for (int i = 0; i < vects; i++) {
			array[i] = oracle_alloc((size_t)len);
			oracle_fill(&s, array[i], (size_t)len);
		}
		printf("%s vects=%d len=%d", f->name, vects, len);
		if (f->shape == GEN_XOR || f->shape == GEN_PQ) {
			int ret = f->call(vects, len, array);
			int parity = f->shape == GEN_XOR ? 1 : 2;
			uint64_t p =
			    oracle_fnv(ORACLE_FNV_START, array[vects - parity], (size_t)len);
			uint64_t q = 0;
			if (parity == 2)
				q = oracle_fnv(ORACLE_FNV_START, array[vects - 1], (size_t)len);
			printf(" ret=%d p=%016" PRIx64 " q=%016" PRIx64 "\n", ret, p, q);
		} else {
			make_consistent(f->shape, vects, len, array);
			printf(" ok=%d", f->call(vects, len, array));
			if (len > 0) {
				int b = (int)(oracle_next(&s) % (uint64_t)vects);
				int at = (int)(oracle_next(&s) % (uint64_t)len);
				((uint8_t *)array[b])[at] ^= (uint8_t)(1 + oracle_next(&s) % 255);
				printf(" bad=%d@%d:%d", b, at, f->call(vects, len, array));
			}
			printf("\n");
		}
		for (int i = 0; i < vects; i++)
			free(array[i]);
		free(array);
	}
}

static void sweep_zero_detect(uint64_t seed, unsigned long count)
{
	uint64_t s = seed ^ oracle_fnv(ORACLE_FNV_START, "isal_zero_detect", 16);
	for (unsigned long c = 0; c < count; c++) {
		size_t len = c < 301 ? c : (size_t)draw_len(&s, 1);
		size_t align = oracle_next(&s) % 64;
		uint8_t *block = oracle_alloc(align + len), *mem = block + align;
		memset(mem, 0, len);
		long at = -1;
		if (len > 0 && oracle_next(&s) % 4 != 0) {
			at = (long)(oracle_next(&s) % len);
			mem[at] = (uint8_t)(1 + oracle_next(&s) % 255);
		}
		int ret = isal_zero_detect(mem, len);
		char where[32] = "-";
		if (at >= 0)
			snprintf(where, sizeof(where), "%ld", at);
		printf("isal_zero_detect len=%zu align=%zu nonzero=%s ret=%d\n", len, align, where,
		       ret);
		free(block);
	}
}

/* Arguments ISA-L rejects without touching memory. Not a negative multiple of 32: its pq_check
 * then reads far outside the buffers. */
static void sweep_rejected(void)
{
	static uint8_t bufs[8][64] __attribute__((aligned(64)));
	void *array[8];
	for (int i = 0; i < 8; i++)
		array[i] = bufs[i];
	for (int v = 0; v < 3; v++)
		printf("xor_gen vects=%d len=64 ret=%d\n", v, xor_gen(v, 64, array));
	for (int v = 0; v < 2; v++)
		printf("xor_check vects=%d len=64 ret=%d\n", v, xor_check(v, 64, array));
	for (int v = 0; v < 4; v++)
		printf("pq_gen vects=%d len=64 ret=%d\n", v, pq_gen(v, 64, array));
	for (int v = 0; v < 4; v++)
		printf("pq_check vects=%d len=64 ret=%d\n", v, pq_check(v, 64, array));
	printf("pq_gen vects=6 len=-1 ret=%d\n", pq_gen(6, -1, array));
	printf("pq_check vects=6 len=-1 ret=%d\n", pq_check(6, -1, array));
}

int main(int argc, char **argv)
{
	uint64_t seed;
	unsigned long count;
	oracle_start(argc, argv, &seed, &count);
	printf("# seed: %" PRIu64 ", %lu calls per function\n", seed, count);
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		sweep(&fns[i], seed, count);
	sweep_zero_detect(seed, count < 301 ? 301 : count);
	sweep_rejected();
	return fflush(stdout) == 0 ? 0 : 1;
}
