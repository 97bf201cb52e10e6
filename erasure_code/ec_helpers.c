/* stoa's erasure-code helpers (stoa.h): decode tables for a loss pattern, and the one-call encode
 * and recover built on them with a small cache of tables. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ec_internal.h"
#include "isa-l/erasure_code.h"
#include "stoa.h"

/* A set of fragment indices. */
struct frag_set {
	uint64_t w[4];
};

static void set_add(struct frag_set *s, int i)
{
	s->w[i >> 6] |= 1ull << (i & 63);
}

static int set_has(const struct frag_set *s, int i)
{
	return (int)(s->w[i >> 6] >> (i & 63)) & 1;
}

static int code_ok(int k, int p)
{
	return k >= 1 && p >= 1 && k <= STOA_EC_MAX_FRAGMENTS - p;
}

/* lost[] as a set; EINVAL for an index out of range or repeated. */
static int lost_set(int n, const int *lost, int nlost, struct frag_set *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < nlost; i++) {
		if (lost[i] < 0 || lost[i] >= n || set_has(s, lost[i]))
			return STOA_EC_EINVAL;
		set_add(s, lost[i]);
	}
	return 0;
}

/* Picks k fragments outside `missing` whose rows are independent, by index order: each candidate
 * row is reduced against the rows taken so far (kept in echelon form, pivot scaled to 1) and
 * taken when something is left. Over a field this greedy choice finds k rows whenever any k
 * intact rows are independent. basis is k x k scratch. */
static int choose_survivors(int k, int n, const unsigned char *matrix,
                            const struct frag_set *missing, int *survivors, unsigned char *basis,
                            int *pivot)
{
	int taken = 0;
	for (int f = 0; f < n && taken < k; f++) {
		if (set_has(missing, f))
			continue;
		unsigned char *v = basis + (size_t)taken * (size_t)k;
		memcpy(v, matrix + (size_t)f * (size_t)k, (size_t)k);
		for (int b = 0; b < taken; b++) {
			unsigned char c = v[pivot[b]];
			if (c == 0)
				continue;
			const unsigned char *u = basis + (size_t)b * (size_t)k;
			for (int j = 0; j < k; j++)
				v[j] ^= gf_mul_fast(c, u[j]);
		}
		int piv = 0;
		while (piv < k && v[piv] == 0)
			piv++;
		if (piv == k)
			continue;
		unsigned char inv = gf_inv(v[piv]);
		for (int j = 0; j < k; j++)
			v[j] = gf_mul_fast(v[j], inv);
		pivot[taken] = piv;
		survivors[taken++] = f;
	}
	return taken == k ? 0 : STOA_EC_ESINGULAR;
}

/* The core of stoa_ec_decode_tables: `missing` (a superset of lost) are the fragments that may
 * not be read. */
static int decode_core(int k, int p, const unsigned char *matrix, const int *lost, int nlost,
                       const struct frag_set *missing, int *survivors, unsigned char *tables)
{
	int n = k + p, nmissing = 0;
	for (int f = 0; f < n; f++)
		nmissing += set_has(missing, f);
	if (nlost > p || n - nmissing < k)
		return STOA_EC_ETOOMANY;

	size_t kk = (size_t)k * (size_t)k;
	unsigned char *work = malloc(3 * kk + (size_t)nlost * (size_t)k);
	int *pivot = malloc((size_t)k * sizeof(int));
	int *chosen = malloc((size_t)k * sizeof(int));
	int err = STOA_EC_ENOMEM;
	if (work == NULL || pivot == NULL || chosen == NULL)
		goto out;
	unsigned char *sub = work, *inv = work + kk, *rows = work + 2 * kk;
	unsigned char *dec = work + 3 * kk;

	err = choose_survivors(k, n, matrix, missing, chosen, rows, pivot);
	if (err)
		goto out;
	for (int i = 0; i < k; i++)
		memcpy(sub + (size_t)i * (size_t)k, matrix + (size_t)chosen[i] * (size_t)k,
		       (size_t)k);
	if (gf_invert_matrix(sub, inv, k) != 0) {
		err = STOA_EC_ESINGULAR; /* not reached: the rows were chosen independent */
		goto out;
	}
	/* Fragment f = row f . data = row f . inv . survivors. */
	for (int e = 0; e < nlost; e++) {
		const unsigned char *row = matrix + (size_t)lost[e] * (size_t)k;
		unsigned char *d = dec + (size_t)e * (size_t)k;
		memset(d, 0, (size_t)k);
		for (int i = 0; i < k; i++) {
			if (row[i] == 0)
				continue;
			const unsigned char *ir = inv + (size_t)i * (size_t)k;
			for (int j = 0; j < k; j++)
				d[j] ^= gf_mul_fast(row[i], ir[j]);
		}
	}
	ec_init_tables(k, nlost, dec, tables);
	memcpy(survivors, chosen, (size_t)k * sizeof(int));
	err = 0;
out:
	free(work);
	free(pivot);
	free(chosen);
	return err;
}

STOA_API int stoa_ec_decode_tables(int k, int p, const unsigned char *matrix, const int *lost,
                                   int nlost, int *survivors, unsigned char *tables)
{
	struct frag_set missing;
	if (!code_ok(k, p) || matrix == NULL || lost == NULL || survivors == NULL ||
	    tables == NULL || nlost < 1)
		return STOA_EC_EINVAL;
	if (nlost > p)
		return STOA_EC_ETOOMANY;
	if (lost_set(k + p, lost, nlost, &missing))
		return STOA_EC_EINVAL;
	return decode_core(k, p, matrix, lost, nlost, &missing, survivors, tables);
}

STOA_API const char *stoa_ec_strerror(int err)
{
	switch (err) {
	case STOA_EC_OK:
		return "success";
	case STOA_EC_EINVAL:
		return "invalid argument";
	case STOA_EC_ETOOMANY:
		return "more fragments missing than the code can rebuild";
	case STOA_EC_ESINGULAR:
		return "the surviving fragments do not determine the data (singular matrix)";
	case STOA_EC_ENOMEM:
		return "out of memory";
	default:
		return "unknown stoa_ec error";
	}
}

/* ---- the cache ---- */

#define CACHE_ENTRIES   64
#define CACHE_BYTES     (8u << 20)
#define CACHE_ENTRY_MAX (CACHE_BYTES / 4)

/* Tables for one (matrix, k, p, pattern): the encode tables when the pattern is empty, else the
 * decode tables of the lost fragments in ascending order, reading `survivors`. Immutable once
 * built; `refs` counts the calls using it, plus one while it is in the list. */
struct cache_entry {
	struct cache_entry *prev, *next;
	int refs;
	int matrix, k, p, nlost;
	struct frag_set lost, missing;
	size_t bytes;
	int *survivors;
	unsigned char *tables;
};

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cache_entry *cache_head, *cache_tail; /* most recently used first */
static size_t cache_count, cache_bytes;

static void entry_free(struct cache_entry *e)
{
	free(e->survivors);
	free(e->tables);
	free(e);
}

/* Called with the lock held. */
static void cache_unlink(struct cache_entry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		cache_head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		cache_tail = e->prev;
	e->prev = e->next = NULL;
	cache_count--;
	cache_bytes -= e->bytes;
	if (--e->refs == 0)
		entry_free(e);
}

static void cache_push_front(struct cache_entry *e)
{
	e->prev = NULL;
	e->next = cache_head;
	if (cache_head)
		cache_head->prev = e;
	cache_head = e;
	if (!cache_tail)
		cache_tail = e;
}

static int entry_matches(const struct cache_entry *e, int matrix, int k, int p,
                         const struct frag_set *lost, const struct frag_set *missing)
{
	return e->matrix == matrix && e->k == k && e->p == p &&
	       memcmp(&e->lost, lost, sizeof(*lost)) == 0 &&
	       memcmp(&e->missing, missing, sizeof(*missing)) == 0;
}

static void entry_release(struct cache_entry *e)
{
	pthread_mutex_lock(&cache_lock);
	int last = --e->refs == 0;
	pthread_mutex_unlock(&cache_lock);
	if (last)
		entry_free(e);
}

static struct cache_entry *cache_find(int matrix, int k, int p, const struct frag_set *lost,
                                      const struct frag_set *missing)
{
	pthread_mutex_lock(&cache_lock);
	struct cache_entry *e = cache_head;
	while (e && !entry_matches(e, matrix, k, p, lost, missing))
		e = e->next;
	if (e) {
		if (e != cache_head) {
			/* Move to the front without touching the counts. */
			e->prev->next = e->next;
			if (e->next)
				e->next->prev = e->prev;
			else
				cache_tail = e->prev;
			cache_push_front(e);
		}
		e->refs++;
	}
	pthread_mutex_unlock(&cache_lock);
	return e;
}

/* Inserts a new entry (refs 1, the caller's) unless an equal one arrived meanwhile, in which
 * case that one is returned and e freed. */
static struct cache_entry *cache_insert(struct cache_entry *e)
{
	if (e->bytes > CACHE_ENTRY_MAX)
		return e;
	pthread_mutex_lock(&cache_lock);
	for (struct cache_entry *o = cache_head; o; o = o->next) {
		if (entry_matches(o, e->matrix, e->k, e->p, &e->lost, &e->missing)) {
			o->refs++;
			pthread_mutex_unlock(&cache_lock);
			entry_free(e);
			return o;
		}
	}
	while (cache_tail && (cache_count >= CACHE_ENTRIES || cache_bytes + e->bytes > CACHE_BYTES))
		cache_unlink(cache_tail);
	e->refs++; /* the list's reference */
	cache_push_front(e);
	cache_count++;
	cache_bytes += e->bytes;
	pthread_mutex_unlock(&cache_lock);
	return e;
}

STOA_API void stoa_ec_cache_clear(void)
{
	pthread_mutex_lock(&cache_lock);
	while (cache_tail)
		cache_unlink(cache_tail);
	pthread_mutex_unlock(&cache_lock);
}

size_t ec_cache_entries(void)
{
	pthread_mutex_lock(&cache_lock);
	size_t n = cache_count;
	pthread_mutex_unlock(&cache_lock);
	return n;
}

static int matrix_make(int matrix, int k, int p, unsigned char **out)
{
	unsigned char *a = malloc((size_t)(k + p) * (size_t)k);
	if (a == NULL)
		return STOA_EC_ENOMEM;
	if (matrix == STOA_EC_VANDERMONDE)
		gf_gen_rs_matrix(a, k + p, k);
	else
		gf_gen_cauchy1_matrix(a, k + p, k);
	*out = a;
	return 0;
}

/* The entry for a pattern, from the cache or built now. lost is ascending. */
static int cache_get(int matrix, int k, int p, const int *lost, int nlost,
                     const struct frag_set *lost_s, const struct frag_set *missing,
                     struct cache_entry **out)
{
	struct cache_entry *e = cache_find(matrix, k, p, lost_s, missing);
	if (e) {
		*out = e;
		return 0;
	}
	int rows = nlost ? nlost : p;
	e = calloc(1, sizeof(*e));
	unsigned char *a = NULL;
	int err = STOA_EC_ENOMEM;
	if (e == NULL)
		return err;
	e->refs = 1;
	e->matrix = matrix;
	e->k = k;
	e->p = p;
	e->nlost = nlost;
	e->lost = *lost_s;
	e->missing = *missing;
	e->bytes = (size_t)EC_TBL * (size_t)k * (size_t)rows;
	e->tables = malloc(e->bytes);
	e->survivors = malloc((size_t)k * sizeof(int));
	if (e->tables == NULL || e->survivors == NULL)
		goto fail;
	err = matrix_make(matrix, k, p, &a);
	if (err)
		goto fail;
	if (nlost == 0) {
		ec_init_tables(k, p, a + (size_t)k * (size_t)k, e->tables);
		for (int i = 0; i < k; i++)
			e->survivors[i] = i;
	} else {
		err = decode_core(k, p, a, lost, nlost, missing, e->survivors, e->tables);
		if (err)
			goto fail;
	}
	free(a);
	*out = cache_insert(e);
	return 0;
fail:
	free(a);
	entry_free(e);
	return err;
}

/* ec_encode_data over lengths beyond int, a gigabyte at a time. */
static void encode_long(size_t len, int k, int rows, unsigned char *tables, unsigned char **in,
                        unsigned char **out)
{
	const size_t step = (size_t)1 << 30;
	unsigned char *ip[STOA_EC_MAX_FRAGMENTS], *op[STOA_EC_MAX_FRAGMENTS];
	for (size_t at = 0; at < len; at += step) {
		size_t n = len - at < step ? len - at : step;
		for (int j = 0; j < k; j++)
			ip[j] = in[j] + at;
		for (int r = 0; r < rows; r++)
			op[r] = out[r] + at;
		ec_encode_data((int)n, k, rows, tables, ip, op);
	}
}

STOA_API size_t stoa_ec_fragment_len(size_t size, int k)
{
	if (size == 0 || k < 1)
		return 0;
	return size / (size_t)k + (size % (size_t)k != 0);
}

/* Whether the object ends inside a fragment, and whether some fragments start past its end. */
static void pad_shape(size_t size, int k, size_t len, int *partial, int *empty)
{
	*partial = size % len != 0;
	size_t reached = size / len + (size_t)*partial; /* fragments holding object bytes */
	*empty = reached < (size_t)k;
}

STOA_API size_t stoa_ec_pad_len(size_t size, int k)
{
	size_t len = stoa_ec_fragment_len(size, k);
	if (len == 0)
		return 0;
	int partial, empty;
	pad_shape(size, k, len, &partial, &empty);
	return len * (size_t)(partial + empty);
}

static int matrix_ok(int matrix)
{
	return matrix == STOA_EC_CAUCHY || matrix == STOA_EC_VANDERMONDE;
}

STOA_API int stoa_ec_encode(int k, int p, int matrix, const void *object, size_t size,
                            unsigned char **data, unsigned char *pad, unsigned char **parity)
{
	if (!code_ok(k, p) || !matrix_ok(matrix) || object == NULL || size == 0 || data == NULL ||
	    parity == NULL)
		return STOA_EC_EINVAL;
	for (int r = 0; r < p; r++)
		if (parity[r] == NULL)
			return STOA_EC_EINVAL;
	size_t len = stoa_ec_fragment_len(size, k);
	int partial, empty;
	pad_shape(size, k, len, &partial, &empty);
	if ((partial || empty) && pad == NULL)
		return STOA_EC_EINVAL;

	struct frag_set none = { { 0 } };
	struct cache_entry *e;
	int err = cache_get(matrix, k, p, NULL, 0, &none, &none, &e);
	if (err)
		return err;

	/* The object is only read; the API's data pointers are not const. */
	unsigned char *obj = (unsigned char *)(uintptr_t)object;
	unsigned char *zeros = pad + (partial ? len : 0);
	unsigned char *frag[STOA_EC_MAX_FRAGMENTS];
	for (int i = 0; i < k; i++) {
		size_t start = (size_t)i * len;
		if (start + len <= size) {
			frag[i] = obj + start;
		} else if (start < size) {
			memcpy(pad, obj + start, size - start);
			memset(pad + (size - start), 0, len - (size - start));
			frag[i] = pad;
		} else {
			frag[i] = zeros;
		}
	}
	if (empty)
		memset(zeros, 0, len);
	encode_long(len, k, p, e->tables, frag, parity);
	entry_release(e);
	memcpy(data, frag, (size_t)k * sizeof(*data));
	return 0;
}

STOA_API int stoa_ec_recover(int k, int p, int matrix, size_t frag_len, unsigned char **fragments,
                             const int *lost, int nlost)
{
	if (!code_ok(k, p) || !matrix_ok(matrix) || fragments == NULL || nlost < 0 ||
	    (nlost > 0 && lost == NULL))
		return STOA_EC_EINVAL;
	if (nlost > p)
		return STOA_EC_ETOOMANY;
	int n = k + p;
	struct frag_set lost_s, missing;
	if (lost_set(n, lost, nlost, &lost_s))
		return STOA_EC_EINVAL;
	for (int i = 0; i < nlost; i++)
		if (fragments[lost[i]] == NULL)
			return STOA_EC_EINVAL;
	if (nlost == 0 || frag_len == 0)
		return 0;
	/* Ascending order, so that a pattern has one cache entry whatever order it is named in. */
	int sorted[STOA_EC_MAX_FRAGMENTS], m = 0;
	missing = lost_s;
	for (int f = 0; f < n; f++) {
		if (set_has(&lost_s, f))
			sorted[m++] = f;
		else if (fragments[f] == NULL)
			set_add(&missing, f);
	}
	struct cache_entry *e;
	int err = cache_get(matrix, k, p, sorted, nlost, &lost_s, &missing, &e);
	if (err)
		return err;
	unsigned char *in[STOA_EC_MAX_FRAGMENTS], *out[STOA_EC_MAX_FRAGMENTS];
	for (int i = 0; i < k; i++)
		in[i] = fragments[e->survivors[i]];
	for (int i = 0; i < nlost; i++)
		out[i] = fragments[sorted[i]];
	encode_long(frag_len, k, nlost, e->tables, in, out);
	entry_release(e);
	return 0;
}
