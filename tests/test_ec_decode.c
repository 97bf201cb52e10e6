/* Erasure-code decoding: every loss pattern (and random ones up to k + p = 255) rebuilt by the
 * decode helper, a Vandermonde matrix that is not MDS, the one-call encode and recover, their
 * errors, and their cache under threads. */
#include "ec_check.h"

/* Encode a random stripe with matrix a, lose `lost`, rebuild through the helper's tables with
 * the given encode variant, compare. Returns the helper's status. */
static int decode_round(int k, int p, const uint8_t *a, const int *lost, int nlost, size_t len,
                        ec_encode_fn *encode, uint8_t **frag, uint8_t **keep, uint8_t *tables)
{
	int surv[MAX_FRAG];
	int ret = stoa_ec_decode_tables(k, p, a, lost, nlost, surv, tables);
	if (ret != 0)
		return ret;
	for (int i = 1; i < k; i++)
		assert_true(surv[i] > surv[i - 1]);
	uint8_t *in[MAX_FRAG], *out[MAX_FRAG];
	for (int i = 0; i < k; i++) {
		for (int e = 0; e < nlost; e++)
			assert_true(surv[i] != lost[e]);
		in[i] = frag[surv[i]];
	}
	for (int e = 0; e < nlost; e++) {
		memset(frag[lost[e]], 0xdd, len);
		out[e] = frag[lost[e]];
	}
	encode((int)len, k, nlost, tables, in, out);
	for (int e = 0; e < nlost; e++)
		if (memcmp(frag[lost[e]], keep[lost[e]], len) != 0)
			TEST_FAIL("k=%d p=%d: fragment %d not rebuilt\n", k, p, lost[e]);
	return 0;
}

struct code {
	int k, p;
	size_t len;
	uint8_t a[MAX_FRAG * MAX_FRAG];
	uint8_t *frag[MAX_FRAG], *keep[MAX_FRAG];
	uint8_t *tables;
};

static void code_open(struct code *c, int k, int p, size_t len, int rs)
{
	c->k = k, c->p = p, c->len = len;
	if (rs)
		gf_gen_rs_matrix(c->a, k + p, k);
	else
		gf_gen_cauchy1_matrix(c->a, k + p, k);
	for (int f = 0; f < k + p; f++) {
		c->frag[f] = malloc(len);
		c->keep[f] = malloc(len);
		assert_true(c->frag[f] && c->keep[f]);
		if (f < k)
			test_fill_random(c->frag[f], len);
	}
	uint8_t *tb = malloc((size_t)32 * k * p);
	c->tables = malloc((size_t)32 * k * p);
	assert_true(tb && c->tables);
	ec_init_tables(k, p, c->a + k * k, tb);
	ec_encode_data((int)len, k, p, tb, c->frag, c->frag + k);
	free(tb);
	for (int f = 0; f < k + p; f++)
		memcpy(c->keep[f], c->frag[f], len);
}

static void code_close(struct code *c)
{
	for (int f = 0; f < c->k + c->p; f++) {
		free(c->frag[f]);
		free(c->keep[f]);
	}
	free(c->tables);
}

/* True when the rows of the fragments not in `lost` have rank < k (checked independently). */
static int survivors_singular(const struct code *c, const int *lost, int nlost)
{
	static uint8_t m[MAX_FRAG * MAX_FRAG];
	int n = 0;
	for (int f = 0; f < c->k + c->p; f++) {
		int gone = 0;
		for (int e = 0; e < nlost; e++)
			gone |= lost[e] == f;
		if (!gone)
			memcpy(m + (n++) * c->k, c->a + f * c->k, (size_t)c->k);
	}
	return ref_rank(m, n, c->k) < c->k;
}

static void test_decode_every_pattern(void **state)
{
	(void)state;
	long patterns = 0, rs_patterns = 0, rs_singular = 0;
	for (int rs = 0; rs <= 1; rs++) {
		for (int n = 2; n <= 12; n++) {
			for (int p = 1; p < n; p++) {
				int k = n - p;
				struct code *c = malloc(sizeof(*c));
				code_open(c, k, p, 1 + test_rand_below(80), rs);
				for (unsigned m = 1; m < (1u << n); m++) {
					int nlost = __builtin_popcount(m);
					if (nlost > p)
						continue;
					int lost[16], e = 0;
					for (int f = 0; f < n; f++)
						if (m >> f & 1)
							lost[e++] = f;
					/* Name them in a shuffled order: outputs follow it. */
					for (int i = nlost - 1; i > 0; i--) {
						int j = (int)test_rand_below((uint64_t)i + 1);
						int t = lost[i];
						lost[i] = lost[j];
						lost[j] = t;
					}
					ec_encode_fn *f = ENC(enc.v[patterns % enc.n]);
					int ret = decode_round(k, p, c->a, lost, nlost, c->len, f,
					                       c->frag, c->keep, c->tables);
					if (rs) {
						rs_patterns++;
						if (ret == STOA_EC_ESINGULAR) {
							assert_true(
							    survivors_singular(c, lost, nlost));
							rs_singular++;
						} else {
							assert_int_equal(ret, 0);
						}
					} else {
						assert_int_equal(ret, 0);
					}
					patterns++;
				}
				code_close(c);
				free(c);
			}
		}
	}
	assert_true(rs_singular > 0);
	print_message(
	    "every loss pattern of 1..p fragments for every k + p <= 12: %ld patterns "
	    "rebuilt (Cauchy: all; gf_gen_rs_matrix: %ld of %ld refused as singular, each "
	    "confirmed by an independent rank)\n",
	    patterns - rs_singular, rs_singular, rs_patterns);
}

static void test_decode_random_patterns(void **state)
{
	(void)state;
	int shapes[][2] = { { 10, 4 },  { 16, 4 },   { 20, 12 },   { 32, 16 }, { 12, 12 },
		            { 64, 32 }, { 200, 55 }, { 127, 128 }, { 1, 254 }, { 250, 5 } };
	long n = 0;
	for (size_t s = 0; s < STOA_COUNT(shapes); s++) {
		int k = shapes[s][0], p = shapes[s][1];
		struct code *c = malloc(sizeof(*c));
		code_open(c, k, p, 1 + test_rand_below(k > 100 ? 90 : 400), 0);
		int rounds = k + p > 100 ? 3 : 40;
		for (int t = 0; t < rounds; t++) {
			int nlost = 1 + (int)test_rand_below((uint64_t)p), lost[MAX_FRAG],
			    used[256] = { 0 };
			for (int e = 0; e < nlost;) {
				int f = (int)test_rand_below((uint64_t)(k + p));
				if (!used[f]) {
					used[f] = 1;
					lost[e++] = f;
				}
			}
			ec_encode_fn *f = ENC(enc.v[n % enc.n]);
			assert_int_equal(decode_round(k, p, c->a, lost, nlost, c->len, f, c->frag,
			                              c->keep, c->tables),
			                 0);
			n++;
		}
		code_close(c);
		free(c);
	}
	print_message("%ld random loss patterns (data and parity) rebuilt for %zu Cauchy codes up "
	              "to k + p = 255\n",
	              n, STOA_COUNT(shapes));
}

static void test_decode_helper(void **state)
{
	(void)state;
	struct code *c = malloc(sizeof(*c));
	code_open(c, 6, 5, 333, 0);
	int surv[MAX_FRAG];
	/* Only parity lost: the survivors are the data, the tables re-encode. */
	int parity[] = { 9, 6 };
	assert_int_equal(decode_round(6, 5, c->a, parity, 2, c->len, ec_encode_data, c->frag,
	                              c->keep, c->tables),
	                 0);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, parity, 2, surv, c->tables), 0);
	for (int i = 0; i < 6; i++)
		assert_int_equal(surv[i], i);
	/* Data lost: the first intact fragments, in order. */
	int data[] = { 4, 0, 7 };
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, data, 3, surv, c->tables), 0);
	int want[] = { 1, 2, 3, 5, 6, 8 };
	for (int i = 0; i < 6; i++)
		assert_int_equal(surv[i], want[i]);

	/* Errors, with the outputs untouched. */
	int six[] = { 0, 1, 2, 3, 4, 5 }, dup[] = { 1, 1 }, range[] = { 11 }, neg[] = { -1 };
	memset(surv, 0x55, sizeof(surv));
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, six, 6, surv, c->tables),
	                 STOA_EC_ETOOMANY);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, dup, 2, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, range, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, neg, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, six, 0, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(0, 5, c->a, six, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 0, c->a, six, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(200, 56, c->a, six, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, NULL, six, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, NULL, 1, surv, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, six, 1, NULL, c->tables),
	                 STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, six, 1, surv, NULL), STOA_EC_EINVAL);
	for (int i = 0; i < 6; i++)
		assert_int_equal(surv[i], 0x55555555);
	code_close(c);
	free(c);
	for (int e = STOA_EC_ENOMEM; e <= 0; e++)
		assert_true(strlen(stoa_ec_strerror(e)) > 5);
	print_message("decode helper: parity-only and data losses pick the first intact "
	              "fragments; too many, repeated, out-of-range and NULL arguments refused\n");
}

/* gf_gen_rs_matrix is not MDS: with k = 6, p = 5, losing fragments 0, 2, 5, 7 and 8 leaves
 * rows that are linearly dependent. The Cauchy matrix rebuilds the same pattern. */
static void test_vandermonde_not_mds(void **state)
{
	(void)state;
	int lost[] = { 0, 2, 5, 7, 8 };
	struct code *c = malloc(sizeof(*c));
	code_open(c, 6, 5, 100, 1);
	assert_true(survivors_singular(c, lost, 5));
	int surv[16];
	assert_int_equal(stoa_ec_decode_tables(6, 5, c->a, lost, 5, surv, c->tables),
	                 STOA_EC_ESINGULAR);
	/* Four of them lost is fine: another intact fragment completes the set. */
	assert_int_equal(
	    decode_round(6, 5, c->a, lost, 4, c->len, ec_encode_data, c->frag, c->keep, c->tables),
	    0);
	code_close(c);
	code_open(c, 6, 5, 100, 0);
	assert_false(survivors_singular(c, lost, 5));
	assert_int_equal(
	    decode_round(6, 5, c->a, lost, 5, c->len, ec_encode_data, c->frag, c->keep, c->tables),
	    0);
	code_close(c);
	free(c);
	/* The one-call recovery says so too. */
	enum { LEN = 64 };
	uint8_t obj[6 * LEN], par[5][LEN], *data[6], *parity[5], *frag[11];
	test_fill_random(obj, sizeof(obj));
	for (int r = 0; r < 5; r++)
		parity[r] = par[r];
	assert_int_equal(
	    stoa_ec_encode(6, 5, STOA_EC_VANDERMONDE, obj, sizeof(obj), data, NULL, parity), 0);
	uint8_t lostbuf[5][LEN];
	for (int f = 0; f < 11; f++)
		frag[f] = f < 6 ? data[f] : parity[f - 6];
	for (int e = 0; e < 5; e++)
		frag[lost[e]] = lostbuf[e];
	assert_int_equal(stoa_ec_recover(6, 5, STOA_EC_VANDERMONDE, LEN, frag, lost, 5),
	                 STOA_EC_ESINGULAR);
	print_message(
	    "gf_gen_rs_matrix k=6 p=5: losing {0,2,5,7,8} is singular (independent rank), "
	    "refused with STOA_EC_ESINGULAR; the Cauchy matrix rebuilds it\n");
}

static void test_one_call(void **state)
{
	(void)state;
	stoa_ec_cache_clear();
	size_t sizes[] = { 1, 5, 9, 10, 11, 100, 4096, 4097, 65536, 100003 };
	int codes[][2] = { { 2, 1 }, { 4, 2 }, { 10, 4 }, { 6, 3 }, { 1, 3 }, { 17, 5 } };
	int rounds = 0;
	for (size_t si = 0; si < STOA_COUNT(sizes); si++) {
		for (size_t ci = 0; ci < STOA_COUNT(codes); ci++) {
			int k = codes[ci][0], p = codes[ci][1];
			size_t size = sizes[si];
			size_t flen = stoa_ec_fragment_len(size, k);
			assert_int_equal(flen, (size + (size_t)k - 1) / (size_t)k);
			size_t padlen = stoa_ec_pad_len(size, k);
			uint8_t *obj = malloc(size), *pad = padlen ? malloc(padlen) : NULL;
			uint8_t *data[32], *parity[8], *frag[40], *spare[40];
			test_fill_random(obj, size);
			if (pad)
				memset(pad, 0xee, padlen);
			for (int r = 0; r < p; r++)
				parity[r] = malloc(flen);
			int matrix = (si + ci) % 3 == 0 ? STOA_EC_VANDERMONDE : STOA_EC_CAUCHY;
			if (p >= 5)
				matrix = STOA_EC_CAUCHY;
			assert_int_equal(stoa_ec_encode(k, p, matrix, obj, size, data, pad, parity),
			                 0);
			/* No copies of whole fragments; the last partial one zero-padded. */
			int padded = 0;
			for (int i = 0; i < k; i++) {
				size_t start = (size_t)i * flen;
				if (start + flen <= size) {
					assert_ptr_equal(data[i], obj + start);
				} else {
					assert_true(data[i] >= pad &&
					            data[i] + flen <= pad + padlen);
					size_t have = start < size ? size - start : 0;
					if (have)
						assert_memory_equal(data[i], obj + start, have);
					for (size_t b = have; b < flen; b++)
						assert_int_equal(data[i][b], 0);
					padded++;
				}
			}
			assert_true(padlen <= 2 * flen && (padlen == 0) == (padded == 0));
			/* The parity is that of the plain API with the same matrix. */
			uint8_t a[MAX_FRAG * 32], *tb = malloc((size_t)32 * k * p), *chk[8];
			if (matrix == STOA_EC_VANDERMONDE)
				gf_gen_rs_matrix(a, k + p, k);
			else
				gf_gen_cauchy1_matrix(a, k + p, k);
			ec_init_tables(k, p, a + k * k, tb);
			for (int r = 0; r < p; r++)
				chk[r] = malloc(flen);
			ec_encode_data((int)flen, k, p, tb, data, chk);
			for (int r = 0; r < p; r++)
				assert_memory_equal(chk[r], parity[r], flen);
			/* Lose up to p fragments, some of the others given as NULL when spare. */
			for (int t = 0; t < 4; t++) {
				int nlost = t == 0 ? p : 1 + (int)test_rand_below((uint64_t)p);
				int lost[40], used[40] = { 0 };
				for (int e = 0; e < nlost;) {
					int f = (int)test_rand_below((uint64_t)(k + p));
					if (!used[f]) {
						used[f] = 1;
						lost[e++] = f;
					}
				}
				for (int f = 0; f < k + p; f++) {
					frag[f] = f < k ? data[f] : parity[f - k];
					spare[f] = NULL;
					if (used[f]) {
						spare[f] = malloc(flen);
						memset(spare[f], 0xdd, flen);
						frag[f] = spare[f];
					}
				}
				int extra = p - nlost;
				for (int f = 0; f < k + p && extra > 0; f++)
					if (!used[f] && test_rand_below(3) == 0) {
						frag[f] = NULL;
						extra--;
					}
				/* Every code here is MDS: Vandermonde only with p <= 4, k <= 21. */
				assert_int_equal(
				    stoa_ec_recover(k, p, matrix, flen, frag, lost, nlost), 0);
				for (int e = 0; e < nlost; e++) {
					int f = lost[e];
					const uint8_t *orig = f < k ? data[f] : parity[f - k];
					assert_memory_equal(frag[f], orig, flen);
				}
				for (int f = 0; f < k + p; f++)
					free(spare[f]);
				rounds++;
			}
			for (int r = 0; r < p; r++) {
				free(parity[r]);
				free(chk[r]);
			}
			free(tb);
			free(obj);
			free(pad);
		}
	}
	size_t cached = ec_cache_entries();
	assert_true(cached > 0 && cached <= 64);
	stoa_ec_cache_clear();
	assert_int_equal(ec_cache_entries(), 0);
	print_message("one-call encode of %zu object sizes x %zu codes (fragments point into the "
	              "object, the tail padded), %d recoveries with data and parity lost and spare "
	              "fragments absent; cache held %zu entries, cleared\n",
	              STOA_COUNT(sizes), STOA_COUNT(codes), rounds, cached);
}

static void test_one_call_errors(void **state)
{
	(void)state;
	uint8_t obj[100], pad[64], par[2][50], *data[4], *parity[2] = { par[0], par[1] };
	uint8_t *frag[6];
	memset(obj, 1, sizeof(obj));
	assert_int_equal(stoa_ec_encode(0, 2, 0, obj, 100, data, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(2, 0, 0, obj, 100, data, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(250, 6, 0, obj, 100, data, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(2, 2, 7, obj, 100, data, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(2, 2, 0, NULL, 100, data, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(2, 2, 0, obj, 0, data, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(2, 2, 0, obj, 100, NULL, pad, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_encode(2, 2, 0, obj, 100, data, pad, NULL), STOA_EC_EINVAL);
	/* 99 bytes in 2 fragments: the second is partial, so the pad is required. */
	assert_int_equal(stoa_ec_pad_len(99, 2), 50);
	assert_int_equal(stoa_ec_encode(2, 2, 0, obj, 99, data, NULL, parity), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_pad_len(100, 2), 0);
	assert_int_equal(stoa_ec_encode(2, 2, 0, obj, 100, data, NULL, parity), 0);
	/* 5 bytes in 4 fragments of 2: one partial and one empty. */
	assert_int_equal(stoa_ec_fragment_len(5, 4), 2);
	assert_int_equal(stoa_ec_pad_len(5, 4), 4);
	assert_int_equal(stoa_ec_fragment_len(0, 4), 0);
	assert_int_equal(stoa_ec_pad_len(7, 0), 0);

	for (int f = 0; f < 4; f++)
		frag[f] = f < 2 ? data[f] : parity[f - 2];
	int two[] = { 0, 3 }, three[] = { 0, 1, 2 }, dup[] = { 1, 1 }, bad[] = { 4 };
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, three, 3), STOA_EC_ETOOMANY);
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, dup, 2), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, bad, 1), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, NULL, two, 2), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, NULL, 2), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, two, -1), STOA_EC_EINVAL);
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, two, 0), 0);
	/* A lost fragment needs a buffer; too few intact ones given is "too many missing". */
	uint8_t *keep = frag[0];
	frag[0] = NULL;
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, two, 2), STOA_EC_EINVAL);
	frag[0] = keep;
	frag[1] = NULL;
	frag[2] = NULL;
	assert_int_equal(stoa_ec_recover(2, 2, 0, 50, frag, two, 2), STOA_EC_ETOOMANY);
	print_message("one-call helpers: bad k, p, matrix, sizes, NULLs, missing pad, repeated or "
	              "out-of-range indices and too many losses refused with their codes\n");
}

struct worker_arg {
	int id;
	int failures;
	long rounds;
};

/* Threads share the cache with more loss patterns than it holds (evictions while entries are in
 * use), each checking every result. */
static void *recover_worker(void *p)
{
	struct worker_arg *w = p;
	enum { K = 8, P = 4, LEN = 1000 };
	uint64_t s = 0x1234567ull * (uint64_t)(w->id + 1);
	uint8_t obj[K * LEN], par[P][LEN], *data[K], *parity[P], *frag[K + P], buf[P][LEN];
	for (size_t i = 0; i < sizeof(obj); i++)
		obj[i] = (uint8_t)(i * 7 + (size_t)w->id);
	for (int r = 0; r < P; r++)
		parity[r] = par[r];
	if (stoa_ec_encode(K, P, STOA_EC_CAUCHY, obj, sizeof(obj), data, NULL, parity) != 0) {
		w->failures++;
		return NULL;
	}
	for (int t = 0; t < 400; t++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		int nlost = 1 + (int)((s >> 33) % P), lost[P], used[K + P] = { 0 };
		for (int e = 0; e < nlost;) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			int f = (int)((s >> 33) % (K + P));
			if (!used[f]) {
				used[f] = 1;
				lost[e++] = f;
			}
		}
		int e = 0;
		for (int f = 0; f < K + P; f++)
			frag[f] = used[f] ? buf[e++] : (f < K ? data[f] : parity[f - K]);
		if (stoa_ec_recover(K, P, STOA_EC_CAUCHY, LEN, frag, lost, nlost) != 0) {
			w->failures++;
			continue;
		}
		for (int i = 0; i < nlost; i++) {
			int f = lost[i];
			if (memcmp(frag[f], f < K ? data[f] : parity[f - K], LEN) != 0)
				w->failures++;
		}
		if (t % 97 == 0 && w->id == 0)
			stoa_ec_cache_clear();
		w->rounds++;
	}
	return NULL;
}

static void test_cache_threads(void **state)
{
	(void)state;
	enum { T = 4 };
	pthread_t tid[T];
	struct worker_arg w[T];
	for (int i = 0; i < T; i++) {
		w[i] = (struct worker_arg){ i, 0, 0 };
		assert_int_equal(pthread_create(&tid[i], NULL, recover_worker, &w[i]), 0);
	}
	long rounds = 0;
	for (int i = 0; i < T; i++) {
		pthread_join(tid[i], NULL);
		assert_int_equal(w[i].failures, 0);
		rounds += w[i].rounds;
	}
	size_t cached = ec_cache_entries();
	assert_true(cached <= 64);
	print_message("%d threads, %ld recoveries over 793 loss patterns of 8+4 through the shared "
	              "cache (at most 64 entries, cleared now and then): all correct; %zu cached\n",
	              T, rounds, cached);
	stoa_ec_cache_clear();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_every_pattern),
		cmocka_unit_test(test_decode_random_patterns),
		cmocka_unit_test(test_decode_helper),
		cmocka_unit_test(test_vandermonde_not_mds),
		cmocka_unit_test(test_one_call),
		cmocka_unit_test(test_one_call_errors),
		cmocka_unit_test(test_cache_threads),
	};
	return TEST_MAIN("erasure_code_decode", tests, ec_suite_setup, NULL);
}
