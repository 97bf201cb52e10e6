/* Erasure-code module tests.
 *
 * Evidence: the field checked exhaustively against a carry-less multiply written here (all 65536
 * products, all inverses); tables, generator matrices and inversion against their definitions;
 * every variant the CPU can run, of every data function, equal to the base entry over a sampled
 * grid of k 1..32, p 1..16 and lengths 1..10000 at random alignments, every length 1..10000 on
 * one shape, and the base entry itself against a byte-at-a-time reference; buffers that end (or
 * start) at an inaccessible page; ec_encode_data_update applied source by source equal to a full
 * encode; every loss pattern up to p for k + p <= 12 and random ones up to k + p = 255 rebuilt by
 * the decode helper; the one-call encode and recover, their cache and its thread safety; bad
 * arguments; Debian's libisal in a separate process (tests/ec_oracle.c) and the drop-in ABI.
 *
 * Everything random comes from test_rand(), so STOA_SEED=N repeats a run exactly. */
#ifndef STOA_TESTS_EC_CHECK_H
#define STOA_TESTS_EC_CHECK_H

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "erasure_code/ec_internal.h"
#include "isa-l/erasure_code.h"
#include "isa-l/gf_vect_mul.h"
#include "stoa.h"
#include "oracle.h"
#include "testutil.h"

#define MAX_K    32
#define MAX_P    16
#define MAX_FRAG 255

struct entries {
	const struct stoa_variant *v[8];
	int n; /* usable ones, base last */
};

#define ENC(e) ((ec_encode_fn *)(e)->fn)
#define UPD(e) ((ec_update_fn *)(e)->fn)
#define DOT(e) ((ec_dot_fn *)(e)->fn)
#define MAD(e) ((ec_mad_fn *)(e)->fn)
#define MUL(e) ((ec_mul_fn *)(e)->fn)

struct stripe {
	int k, p;
	size_t len;
	uint8_t *arena;
	uint8_t *src[MAX_FRAG], *out[MAX_FRAG], *want[MAX_FRAG];
	uint8_t a[MAX_K * MAX_P];
	uint8_t *tbls;
};

uint8_t ref_mul(uint8_t a, uint8_t b);
extern uint8_t ref_table[256][256];
void ref_encode(size_t len, int k, int rows, const uint8_t *a, uint8_t *const *src,
                       uint8_t **dst);
int ref_rank(uint8_t *m, int n, int k);
extern struct entries enc, upd, dot, mad, mul;
void stripe_open(struct stripe *s, int k, int p, size_t len);
void stripe_close(struct stripe *s);
void expect_rows(const char *what, const char *variant, const struct stripe *s,
                        uint8_t *const *got, uint8_t *const *want, int rows);
extern unsigned long calls;
void check_stripe(struct stripe *s);
int ec_suite_setup(void **state);

#endif
