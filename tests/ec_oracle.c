/* A deterministic sweep over the erasure-code API, for differential testing between processes.
 *
 * One source, two builds (tests/tests.mk):
 *   ec_oracle_system  -DORACLE_SYSTEM with the system's <isa-l.h>, linked with -lisal
 *   ec_oracle_stoa    with stoa's headers, linked with libstoa.a
 * tests/test_ec.c runs both with the same arguments and compares the text, and runs the system
 * build again on stoa's compat libisal.so.2 (the drop-in check).
 *
 * usage: ec_oracle SEED COUNT
 * Prints one line per result: the field (every product, every inverse, every gf_vect_mul_init
 * table), the generator matrices for every shape up to 32 fragments and some up to 255, matrix
 * inversions (some singular), coefficient tables, and COUNT calls of each data function (the
 * dispatched ones and the _base ones) on random shapes, lengths and alignments. Long results are
 * printed as a 64-bit FNV-1a hash of their bytes. Lines starting with '#' describe the process.
 *
 * Inputs stay where ISA-L 2.30 defines its results: gf_vect_mul gets multiples of 32 and
 * aligned buffers, and
 * gf_vect_dot_prod and gf_vect_mad at least 64 bytes (ISA-L's vector versions return without
 * writing below their minimum; stoa computes every length, which tests/test_ec.c checks). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l.h>
#include "oracle_prog.h"

#define MAX_K   32
#define MAX_P   16
#define MAX_LEN 20000

static uint64_t below(uint64_t *s, uint64_t n)
{
	return oracle_next(s) % n;
}

#define FNV0 ORACLE_FNV_START

static void fill(uint64_t *s, unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)oracle_next(s);
}

static void field(void)
{
	for (int a = 0; a < 256; a++) {
		unsigned char row[256];
		for (int b = 0; b < 256; b++)
			row[b] = gf_mul((unsigned char)a, (unsigned char)b);
		printf("gf_mul a=%d h=%016" PRIx64 "\n", a, oracle_fnv(FNV0, row, 256));
	}
	unsigned char inv[256], tbl[32];
	for (int a = 0; a < 256; a++)
		inv[a] = gf_inv((unsigned char)a);
	printf("gf_inv h=%016" PRIx64 "\n", oracle_fnv(FNV0, inv, 256));
	for (int c = 0; c < 256; c++) {
		gf_vect_mul_init((unsigned char)c, tbl);
		printf("gf_vect_mul_init c=%d h=%016" PRIx64 "\n", c, oracle_fnv(FNV0, tbl, 32));
	}
}

static void matrices(uint64_t *s)
{
	static unsigned char a[255 * 255];
	for (int m = 1; m <= 32; m++) {
		for (int k = 1; k <= m; k++) {
			memset(a, 0xa5, sizeof(a));
			gf_gen_rs_matrix(a, m, k);
			printf("gf_gen_rs_matrix m=%d k=%d h=%016" PRIx64 "\n", m, k,
			       oracle_fnv(FNV0, a, (size_t)m * k));
			memset(a, 0xa5, sizeof(a));
			gf_gen_cauchy1_matrix(a, m, k);
			printf("gf_gen_cauchy1_matrix m=%d k=%d h=%016" PRIx64 "\n", m, k,
			       oracle_fnv(FNV0, a, (size_t)m * k));
		}
	}
	for (int i = 0; i < 40; i++) {
		int m = 33 + (int)below(s, 223), k = 1 + (int)below(s, (uint64_t)m);
		gf_gen_rs_matrix(a, m, k);
		printf("gf_gen_rs_matrix m=%d k=%d h=%016" PRIx64 "\n", m, k,
		       oracle_fnv(FNV0, a, (size_t)m * k));
		gf_gen_cauchy1_matrix(a, m, k);
		printf("gf_gen_cauchy1_matrix m=%d k=%d h=%016" PRIx64 "\n", m, k,
		       oracle_fnv(FNV0, a, (size_t)m * k));
	}
}

/* Random matrices, a quarter of them made singular (a repeated or zero row), plus decode-style
 * submatrices of the Cauchy and Vandermonde codes. */
static void inversions(uint64_t *s, unsigned long count)
{
	static unsigned char in[MAX_K * MAX_K], out[MAX_K * MAX_K];
	for (unsigned long c = 0; c < count; c++) {
		int n = 1 + (int)below(s, MAX_K);
		fill(s, in, (size_t)n * n);
		int kind = (int)below(s, 4);
		if (kind == 0 && n > 1) {
			int r1 = (int)below(s, (uint64_t)n), r2 = (r1 + 1) % n;
			memcpy(in + r2 * n, in + r1 * n, (size_t)n);
		} else if (kind == 1) {
			memset(in + below(s, (uint64_t)n) * n, 0, (size_t)n);
		}
		uint64_t h_in = oracle_fnv(FNV0, in, (size_t)n * n);
		int ret = gf_invert_matrix(in, out, n);
		printf("gf_invert_matrix n=%d in=%016" PRIx64 " ret=%d", n, h_in, ret);
		if (ret == 0)
			printf(" out=%016" PRIx64 " after=%016" PRIx64,
			       oracle_fnv(FNV0, out, (size_t)n * n), oracle_fnv(FNV0, in, (size_t)n * n));
		printf("\n");
	}
	static unsigned char a[(MAX_K + MAX_P) * MAX_K];
	for (unsigned long c = 0; c < count; c++) {
		int k = 1 + (int)below(s, MAX_K), p = 1 + (int)below(s, MAX_P);
		int rs = (int)below(s, 2);
		if (rs)
			gf_gen_rs_matrix(a, k + p, k);
		else
			gf_gen_cauchy1_matrix(a, k + p, k);
		/* k rows out of k + p, in increasing order. */
		int taken = 0;
		for (int r = 0; r < k + p && taken < k; r++) {
			if ((int)below(s, (uint64_t)(k + p - r)) < k - taken)
				memcpy(in + (taken++) * k, a + r * k, (size_t)k);
		}
		int ret = gf_invert_matrix(in, out, k);
		printf("gf_invert_matrix %s k=%d p=%d ret=%d", rs ? "rs" : "cauchy", k, p, ret);
		if (ret == 0)
			printf(" out=%016" PRIx64, oracle_fnv(FNV0, out, (size_t)k * k));
		printf("\n");
	}
}

/* One random call shape: k sources and p outputs of len bytes at an offset from 64-byte
 * alignment, filled from the stream. */
struct shape {
	int k, p, len;
	unsigned align;
	unsigned char a[MAX_K * MAX_P], tbls[32 * MAX_K * MAX_P];
	unsigned char *sbuf[MAX_K], *dbuf[MAX_P], *src[MAX_K], *dst[MAX_P];
};

static void shape_make(uint64_t *s, struct shape *sh, int min_len, int len_mult, int max_p)
{
	sh->k = 1 + (int)below(s, MAX_K);
	sh->p = 1 + (int)below(s, (uint64_t)max_p);
	int len;
	switch (below(s, 3)) {
	case 0:
		len = 1 + (int)below(s, 200);
		break;
	case 1:
		len = 1 + (int)below(s, 2048);
		break;
	default:
		len = 1 + (int)below(s, MAX_LEN);
		break;
	}
	if (len < min_len)
		len = min_len + (int)below(s, 64);
	len = (len + len_mult - 1) / len_mult * len_mult;
	sh->len = len;
	/* ISA-L's gf_vect_mul needs 32-byte aligned buffers (and faults otherwise). */
	sh->align = len_mult == 32 ? 0 : (unsigned)below(s, 64);
	fill(s, sh->a, (size_t)sh->k * sh->p);
	for (int i = 0; i < sh->k * sh->p; i++)
		if (below(s, 16) == 0)
			sh->a[i] =
			    (unsigned char)below(s, 3); /* 0, 1 and 2 are special to kernels */
	ec_init_tables(sh->k, sh->p, sh->a, sh->tbls);
	for (int j = 0; j < sh->k; j++) {
		sh->sbuf[j] = oracle_alloc(sh->align + (size_t)len);
		sh->src[j] = sh->sbuf[j] + sh->align;
		fill(s, sh->src[j], (size_t)len);
	}
	for (int r = 0; r < sh->p; r++) {
		sh->dbuf[r] = oracle_alloc(sh->align + (size_t)len);
		sh->dst[r] = sh->dbuf[r] + sh->align;
		fill(s, sh->dst[r], (size_t)len);
	}
}

static void shape_free(struct shape *sh)
{
	for (int j = 0; j < sh->k; j++)
		free(sh->sbuf[j]);
	for (int r = 0; r < sh->p; r++)
		free(sh->dbuf[r]);
}

static void shape_print(const char *fn, const struct shape *sh)
{
	uint64_t h = FNV0;
	for (int r = 0; r < sh->p; r++)
		h = oracle_fnv(h, sh->dst[r], (size_t)sh->len);
	printf("%s k=%d p=%d len=%d align=%u tables=%016" PRIx64 " out=%016" PRIx64 "\n", fn, sh->k,
	       sh->p, sh->len, sh->align, oracle_fnv(FNV0, sh->tbls, (size_t)32 * sh->k * sh->p), h);
}

static void data_functions(uint64_t seed, unsigned long count)
{
	static struct shape sh;
	for (int base = 0; base < 2; base++) {
		const char *name = base ? "ec_encode_data_base" : "ec_encode_data";
		uint64_t s = seed ^ oracle_name_hash(name);
		for (unsigned long c = 0; c < count; c++) {
			shape_make(&s, &sh, 1, 1, MAX_P);
			if (base)
				ec_encode_data_base(sh.len, sh.k, sh.p, sh.tbls, sh.src, sh.dst);
			else
				ec_encode_data(sh.len, sh.k, sh.p, sh.tbls, sh.src, sh.dst);
			shape_print(name, &sh);
			shape_free(&sh);
		}
		name = base ? "ec_encode_data_update_base" : "ec_encode_data_update";
		s = seed ^ oracle_name_hash(name);
		for (unsigned long c = 0; c < count; c++) {
			shape_make(&s, &sh, 1, 1, MAX_P);
			/* Over the random contents of the outputs, every source once. */
			for (int j = 0; j < sh.k; j++) {
				if (base)
					ec_encode_data_update_base(sh.len, sh.k, sh.p, j, sh.tbls,
					                           sh.src[j], sh.dst);
				else
					ec_encode_data_update(sh.len, sh.k, sh.p, j, sh.tbls,
					                      sh.src[j], sh.dst);
			}
			shape_print(name, &sh);
			shape_free(&sh);
		}
		name = base ? "gf_vect_dot_prod_base" : "gf_vect_dot_prod";
		s = seed ^ oracle_name_hash(name);
		for (unsigned long c = 0; c < count; c++) {
			shape_make(&s, &sh, 64, 1, 1);
			if (base)
				gf_vect_dot_prod_base(sh.len, sh.k, sh.tbls, sh.src, sh.dst[0]);
			else
				gf_vect_dot_prod(sh.len, sh.k, sh.tbls, sh.src, sh.dst[0]);
			shape_print(name, &sh);
			shape_free(&sh);
		}
		name = base ? "gf_vect_mad_base" : "gf_vect_mad";
		s = seed ^ oracle_name_hash(name);
		for (unsigned long c = 0; c < count; c++) {
			shape_make(&s, &sh, 64, 1, 1);
			int vi = (int)below(&s, (uint64_t)sh.k);
			if (base)
				gf_vect_mad_base(sh.len, sh.k, vi, sh.tbls, sh.src[vi], sh.dst[0]);
			else
				gf_vect_mad(sh.len, sh.k, vi, sh.tbls, sh.src[vi], sh.dst[0]);
			shape_print(name, &sh);
			shape_free(&sh);
		}
		name = base ? "gf_vect_mul_base" : "gf_vect_mul";
		s = seed ^ oracle_name_hash(name);
		for (unsigned long c = 0; c < count; c++) {
			shape_make(&s, &sh, 32, 32, 1);
			if (base)
				gf_vect_mul_base(sh.len, sh.tbls, sh.src[0], sh.dst[0]);
			else
				printf("gf_vect_mul ret=%d\n",
				       gf_vect_mul(sh.len, sh.tbls, sh.src[0], sh.dst[0]));
			shape_print(name, &sh);
			shape_free(&sh);
		}
	}
}

int main(int argc, char **argv)
{
	uint64_t seed;
	unsigned long count;
	oracle_start(argc, argv, &seed, &count);
	printf("# seed: %" PRIu64 ", %lu calls per data function\n", seed, count);
	uint64_t s = seed;
	field();
	matrices(&s);
	inversions(&s, count);
	data_functions(seed, count);
	return fflush(stdout) == 0 ? 0 : 1;
}
