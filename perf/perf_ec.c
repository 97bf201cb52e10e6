/* Erasure-code benchmark cases: a Ceph-style sweep of ec_encode_data, encoding and decoding, and
 * the other data functions of erasure_code.h and gf_vect_mul.h.
 *
 * Bytes are counted as ISA-L's erasure_code perf programs count them: encode (k + p) x len,
 * decode (k + lost) x len, an update of every source (k + p) x len, gf_vect_dot_prod
 * (k + 1) x len, gf_vect_mad and gf_vect_mul 2 x len. The size is the fragment length.
 *
 * The codes are (k, p) = (2,1) (3,2) (4,2) (6,3) (8,3) (10,4) (12,4) (16,4) with
 * gf_gen_cauchy1_matrix, named "k+p" in the rows; a decode of `lost` erasures (1 .. p, as
 * Ceph's benchmark sweeps them) loses data fragments 0 .. lost-1 and reads the next k. Cases use
 * only the public API (ec_init_tables builds each library's own tables; PERF_LIB_CALL, so that a
 * paired run builds each library's with its own), so the ISA-L builds run them unchanged. By
 * default 10+4, 4+2 and 2+1 run at 4 KiB, 64 KiB and 1 MiB (10+4 also at ISA-L's 9 KiB point)
 * and the other codes at 64 KiB; the whole sweep is
 *   stoa_perf --filter ec_encode_data --sizes 4K,16K,64K,256K,1M
 * Each instance lays its k + p buffers one per page run, each a fixed stagger further into its
 * page than the one before: the page split evenly among them, in whole cache lines. At one offset
 * the streams then sit in different cache sets, and no two lie within a few lines of each other
 * modulo 4 KiB, where a load can be taken for one that depends on a store in flight to the
 * other stream (4 KiB aliasing), which made the 10+4 update at 4 KiB swing by 2.4x from run to
 * run in both libraries with a stagger of one line. Both libraries' drivers are built from this
 * file, so their buffers lie alike. */
#include <stdlib.h>
#include <string.h>

#include "erasure_code.h"
#include "gf_vect_mul.h"
#include "perf.h"

#define MAX_K 16
#define MAX_P 4
#define PAGE  4096
#define LINE  64

typedef void encode_fn(int len, int k, int rows, unsigned char *gftbls, unsigned char **data,
                       unsigned char **coding);
typedef void update_fn(int len, int k, int rows, int vec_i, unsigned char *g_tbls,
                       unsigned char *data, unsigned char **coding);
typedef void dot_fn(int len, int vlen, unsigned char *gftbls, unsigned char **src,
                    unsigned char *dest);
typedef void mad_fn(int len, int vec, int vec_i, unsigned char *gftbls, unsigned char *src,
                    unsigned char *dest);
typedef int mul_fn(int len, unsigned char *gftbl, void *src, void *dest);

/* What a case's calls read and write: which buffers of the instance, and the tables. */
struct ec_state {
	int k, rows, nbuf;
	int in[MAX_K], out[MAX_P];
	unsigned char tables[32 * MAX_K * MAX_P];
};

/* From one buffer to the next of nbuf (k + p <= 20: at least three lines apart). */
static size_t stride_of(size_t size, int nbuf)
{
	size_t stagger = PAGE / (size_t)nbuf / LINE * LINE;
	return (size + PAGE - 1) / PAGE * PAGE + (stagger ? stagger : LINE);
}

static size_t footprint_n(int nbuf, size_t size)
{
	return PAGE + (size_t)nbuf * stride_of(size, nbuf);
}

static unsigned char *buffer(const struct perf_call *c, int i)
{
	const struct ec_state *s = c->state;
	uint8_t *p = c->mem + (PAGE - (uintptr_t)c->mem % PAGE) % PAGE;
	return p + (size_t)i * stride_of(c->size, s->nbuf);
}

/* Words from the start, the middle and the end of an output, folded: the value the driver
 * compares across implementations and libraries. */
static uint64_t sample(const unsigned char *buf, size_t len)
{
	size_t at[4] = { 0, len / 3 & ~(size_t)7, 2 * len / 3 & ~(size_t)7, len - 8 };
	uint64_t f = 0, w;
	for (int i = 0; i < 4; i++) {
		memcpy(&w, buf + at[i], 8);
		f = (f << 13 | f >> 51) ^ w;
	}
	return f;
}

/* Encode tables (lost = 0) or the tables that rebuild data fragments 0 .. lost-1 from fragments
 * lost .. lost+k-1, all through the public API. */
static void *prepare_code(int k, int p, int lost)
{
	/* At a page start: where the tables lie modulo 4 KiB against the buffers decides whether a
	 * kernel's table loads alias its stores (4 KiB aliasing), so every implementation's tables
	 * get the same offset. From calloc, the three states of a paired run landed wherever the
	 * heap had room, and the same stoa gf_vect_mad at 4 KiB ran 1.5x faster with one copy's
	 * tables than with the other's. */
	size_t bytes = (sizeof(struct ec_state) + PAGE - 1) / PAGE * PAGE;
	struct ec_state *s = aligned_alloc(PAGE, bytes);
	unsigned char a[(MAX_K + MAX_P) * MAX_K], sub[MAX_K * MAX_K], inv[MAX_K * MAX_K];
	if (s == NULL)
		return NULL;
	memset(s, 0, sizeof(*s));
	gf_gen_cauchy1_matrix(a, k + p, k);
	s->k = k;
	s->nbuf = k + p;
	if (lost == 0) {
		s->rows = p;
		for (int j = 0; j < k; j++)
			s->in[j] = j;
		for (int r = 0; r < p; r++)
			s->out[r] = k + r;
		PERF_LIB_CALL(ec_init_tables)(k, p, a + k * k, s->tables);
		return s;
	}
	s->rows = lost;
	for (int j = 0; j < k; j++) {
		s->in[j] = lost + j;
		memcpy(sub + j * k, a + (lost + j) * k, (size_t)k);
	}
	if (gf_invert_matrix(sub, inv, k) != 0) {
		free(s);
		return NULL;
	}
	/* Data fragment i is row i of the inverse applied to the survivors. */
	for (int r = 0; r < lost; r++)
		s->out[r] = r;
	PERF_LIB_CALL(ec_init_tables)(k, lost, inv, s->tables);
	return s;
}

static void release_code(void *state)
{
	free(state);
}

static uint64_t run_encode(const struct perf_call *c, uint64_t calls)
{
	encode_fn *f = (encode_fn *)c->fn;
	const struct ec_state *s = c->state;
	unsigned char *in[MAX_K], *out[MAX_P];
	for (int j = 0; j < s->k; j++)
		in[j] = buffer(c, s->in[j]);
	for (int r = 0; r < s->rows; r++)
		out[r] = buffer(c, s->out[r]);
	for (uint64_t i = 0; i < calls; i++)
		f((int)c->size, s->k, s->rows, (unsigned char *)s->tables, in, out);
	uint64_t acc = 0;
	if (c->check)
		for (int r = 0; r < s->rows; r++)
			acc = (acc << 7 | acc >> 57) ^ sample(out[r], c->size);
	return acc;
}

/* Every source in turn into the parity, as a stripe is updated when its data arrives. */
static uint64_t run_update(const struct perf_call *c, uint64_t calls)
{
	update_fn *f = (update_fn *)c->fn;
	const struct ec_state *s = c->state;
	unsigned char *in[MAX_K], *out[MAX_P];
	for (int j = 0; j < s->k; j++)
		in[j] = buffer(c, s->in[j]);
	for (int r = 0; r < s->rows; r++)
		out[r] = buffer(c, s->out[r]);
	for (uint64_t i = 0; i < calls; i++)
		for (int j = 0; j < s->k; j++)
			f((int)c->size, s->k, s->rows, j, (unsigned char *)s->tables, in[j], out);
	uint64_t acc = 0;
	if (c->check)
		for (int r = 0; r < s->rows; r++)
			acc = (acc << 7 | acc >> 57) ^ sample(out[r], c->size);
	return acc;
}

/* The first parity row of the code alone. */
static uint64_t run_dot(const struct perf_call *c, uint64_t calls)
{
	dot_fn *f = (dot_fn *)c->fn;
	const struct ec_state *s = c->state;
	unsigned char *in[MAX_K], *out = buffer(c, s->out[0]);
	for (int j = 0; j < s->k; j++)
		in[j] = buffer(c, s->in[j]);
	for (uint64_t i = 0; i < calls; i++)
		f((int)c->size, s->k, (unsigned char *)s->tables, in, out);
	return c->check ? sample(out, c->size) : 0;
}

static uint64_t run_mad(const struct perf_call *c, uint64_t calls)
{
	mad_fn *f = (mad_fn *)c->fn;
	const struct ec_state *s = c->state;
	unsigned char *in = buffer(c, s->in[3]), *out = buffer(c, s->out[0]);
	for (uint64_t i = 0; i < calls; i++)
		f((int)c->size, s->k, 3, (unsigned char *)s->tables, in, out);
	return c->check ? sample(out, c->size) : 0;
}

static uint64_t run_mul(const struct perf_call *c, uint64_t calls)
{
	mul_fn *f = (mul_fn *)c->fn;
	const struct ec_state *s = c->state;
	unsigned char *in = buffer(c, 0), *out = buffer(c, 1);
	uint64_t acc = 0;
	for (uint64_t i = 0; i < calls; i++)
		acc += (uint64_t)f((int)c->size, (unsigned char *)s->tables, in, out);
	return c->check ? acc ^ sample(out, c->size) : acc;
}

static const size_t headline_sizes[] = { 4096, 65536, 1048576, 0 };
static const size_t isal_point_sizes[] = { 4096, 9344, 65536, 1048576, 0 };
static const size_t sweep_sizes[] = { 65536, 0 };
static const size_t aux_sizes[] = { 4096, 1048576, 0 };

/* Per code: the set-up, the byte counts and the footprint of encoding. */
#define EC_CODE(K, P)                                                                              \
	static void *prep_enc_##K##_##P(size_t size)                                               \
	{                                                                                          \
		(void)size;                                                                        \
		return prepare_code(K, P, 0);                                                      \
	}                                                                                          \
	static uint64_t bytes_##K##_##P(size_t size)                                               \
	{                                                                                          \
		return (uint64_t)(K + P) * size;                                                   \
	}                                                                                          \
	static size_t foot_##K##_##P(size_t size)                                                  \
	{                                                                                          \
		return footprint_n(K + P, size);                                                   \
	}

/* Decoding L lost data fragments of the code K+P (the erasures of Ceph's decode sweep). */
#define EC_LOSS(K, P, L)                                                                           \
	static void *prep_dec_##K##_##P##_##L(size_t size)                                         \
	{                                                                                          \
		(void)size;                                                                        \
		return prepare_code(K, P, L);                                                      \
	}                                                                                          \
	static uint64_t bytes_dec_##K##_##L(size_t size)                                           \
	{                                                                                          \
		return (uint64_t)(K + L) * size;                                                   \
	}

EC_CODE(2, 1)
EC_CODE(3, 2)
EC_CODE(4, 2)
EC_CODE(6, 3)
EC_CODE(8, 3)
EC_CODE(10, 4)
EC_CODE(12, 4)
EC_CODE(16, 4)
EC_LOSS(2, 1, 1)
EC_LOSS(3, 2, 1)
EC_LOSS(3, 2, 2)
EC_LOSS(4, 2, 1)
EC_LOSS(4, 2, 2)
EC_LOSS(6, 3, 1)
EC_LOSS(6, 3, 2)
EC_LOSS(6, 3, 3)
EC_LOSS(8, 3, 1)
EC_LOSS(8, 3, 2)
EC_LOSS(8, 3, 3)
EC_LOSS(10, 4, 1)
EC_LOSS(10, 4, 2)
EC_LOSS(10, 4, 3)
EC_LOSS(10, 4, 4)
EC_LOSS(12, 4, 1)
EC_LOSS(12, 4, 2)
EC_LOSS(12, 4, 3)
EC_LOSS(12, 4, 4)
EC_LOSS(16, 4, 1)
EC_LOSS(16, 4, 2)
EC_LOSS(16, 4, 3)
EC_LOSS(16, 4, 4)

#define ENCODE_CASE(K, P, SIZES)                                                                   \
	{                                                                                          \
		.module = "erasure_code", .function = "ec_encode_data",                            \
		.params = #K "+" #P " encode", .bytes = "(k+p) x len",                             \
		.api = PERF_FN(ec_encode_data), .run = run_encode,                                 \
		.bytes_per_call = bytes_##K##_##P, .footprint = foot_##K##_##P,                    \
		.prepare = prep_enc_##K##_##P, .release = release_code, .sizes = SIZES             \
	}

#define DECODE_CASE(K, P, L, SIZES)                                                                \
	{                                                                                          \
		.module = "erasure_code", .function = "ec_encode_data",                            \
		.params = #K "+" #P " decode lost=" #L, .bytes = "(k+lost) x len",                 \
		.api = PERF_FN(ec_encode_data), .run = run_encode,                                 \
		.bytes_per_call = bytes_dec_##K##_##L, .footprint = foot_##K##_##P,                \
		.prepare = prep_dec_##K##_##P##_##L, .release = release_code, .sizes = SIZES       \
	}

static uint64_t bytes_dot(size_t size)
{
	return 11 * (uint64_t)size;
}

static uint64_t bytes_two(size_t size)
{
	return 2 * (uint64_t)size;
}

static const struct perf_case ec_cases[] = {
	ENCODE_CASE(10, 4, isal_point_sizes),
	DECODE_CASE(10, 4, 4, isal_point_sizes),
	ENCODE_CASE(4, 2, headline_sizes),
	DECODE_CASE(4, 2, 2, headline_sizes),
	ENCODE_CASE(2, 1, headline_sizes),
	DECODE_CASE(2, 1, 1, headline_sizes),
	ENCODE_CASE(3, 2, sweep_sizes),
	DECODE_CASE(3, 2, 2, sweep_sizes),
	ENCODE_CASE(6, 3, sweep_sizes),
	DECODE_CASE(6, 3, 3, sweep_sizes),
	ENCODE_CASE(8, 3, sweep_sizes),
	DECODE_CASE(8, 3, 3, sweep_sizes),
	ENCODE_CASE(12, 4, sweep_sizes),
	DECODE_CASE(12, 4, 4, sweep_sizes),
	ENCODE_CASE(16, 4, sweep_sizes),
	DECODE_CASE(16, 4, 4, sweep_sizes),
	/* The rest of the decode sweep: fewer erasures than the code can repair. */
	DECODE_CASE(3, 2, 1, sweep_sizes),
	DECODE_CASE(4, 2, 1, sweep_sizes),
	DECODE_CASE(6, 3, 1, sweep_sizes),
	DECODE_CASE(6, 3, 2, sweep_sizes),
	DECODE_CASE(8, 3, 1, sweep_sizes),
	DECODE_CASE(8, 3, 2, sweep_sizes),
	DECODE_CASE(10, 4, 1, sweep_sizes),
	DECODE_CASE(10, 4, 2, sweep_sizes),
	DECODE_CASE(10, 4, 3, sweep_sizes),
	DECODE_CASE(12, 4, 1, sweep_sizes),
	DECODE_CASE(12, 4, 2, sweep_sizes),
	DECODE_CASE(12, 4, 3, sweep_sizes),
	DECODE_CASE(16, 4, 1, sweep_sizes),
	DECODE_CASE(16, 4, 2, sweep_sizes),
	DECODE_CASE(16, 4, 3, sweep_sizes),
	{ .module = "erasure_code",
	  .function = "ec_encode_data_update",
	  .params = "10+4 every source",
	  .bytes = "(k+p) x len",
	  .api = PERF_FN(ec_encode_data_update),
	  .run = run_update,
	  .bytes_per_call = bytes_10_4,
	  .footprint = foot_10_4,
	  .prepare = prep_enc_10_4,
	  .release = release_code,
	  .sizes = aux_sizes },
	{ .module = "erasure_code",
	  .function = "gf_vect_dot_prod",
	  .params = "k=10",
	  .bytes = "(k+1) x len",
	  .api = PERF_FN(gf_vect_dot_prod),
	  .run = run_dot,
	  .bytes_per_call = bytes_dot,
	  .footprint = foot_10_4,
	  .prepare = prep_enc_10_4,
	  .release = release_code,
	  .sizes = aux_sizes },
	{ .module = "erasure_code",
	  .function = "gf_vect_mad",
	  .params = "",
	  .bytes = "2 x len",
	  .api = PERF_FN(gf_vect_mad),
	  .run = run_mad,
	  .bytes_per_call = bytes_two,
	  .footprint = foot_10_4,
	  .prepare = prep_enc_10_4,
	  .release = release_code,
	  .sizes = aux_sizes },
	{ .module = "erasure_code",
	  .function = "gf_vect_mul",
	  .params = "",
	  .bytes = "2 x len",
	  .api = PERF_FN(gf_vect_mul),
	  .run = run_mul,
	  .bytes_per_call = bytes_two,
	  .footprint = foot_10_4,
	  .prepare = prep_enc_10_4,
	  .release = release_code,
	  .sizes = aux_sizes },
};

const struct perf_module perf_module_ec = { "erasure_code", ec_cases, PERF_COUNT(ec_cases) };
