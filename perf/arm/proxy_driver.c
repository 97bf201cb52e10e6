/* The calls that scripts/arm_proxy.sh counts under qemu: one case, a number of repetitions.
 *
 *   proxy_driver CASE REPS [CORPUS_DIR]     proxy_driver list
 *
 * Built from the same source against stoa (its ISA-L and isa-l_crypto API headers) and against
 * an upstream ISA-L / isa-l_crypto build. Setup (buffers, deterministic data, tables, the corpus)
 * is the same at every REPS, so the difference between two runs' instruction counts is the work
 * of the extra repetitions alone; the script divides it by the bytes of one repetition, printed
 * after the checksum. "list" names the cases. Prints a checksum of the outputs so that nothing is elided. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l.h>
#include <isa-l_crypto.h>

static uint64_t rng = 0x9e3779b97f4a7c15u;

static void fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		p[i] = (uint8_t)rng;
	}
}

static uint8_t *alloc(size_t n)
{
	uint8_t *p = NULL;
	if (posix_memalign((void **)&p, 64, n ? n : 1)) {
		perror("posix_memalign");
		exit(1);
	}
	fill(p, n);
	return p;
}

static uint64_t sum;
/* The bytes one repetition processes (the source data for EC and RAID, the uncompressed corpus for
 * deflate and inflate), printed after the checksum. */
static size_t per_rep;

static void mix(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i += 61)
		sum = sum * 31 + p[i];
}

/* ---- erasure codes and RAID ---- */

static void run_ec(int k, int p, int len, long reps)
{
	uint8_t *a = malloc((size_t)(k + p) * k), *tbls = malloc((size_t)k * p * 32);
	uint8_t *data[32], *code[32];
	gf_gen_cauchy1_matrix(a, k + p, k);
	ec_init_tables(k, p, a + k * k, tbls);
	for (int i = 0; i < k; i++)
		data[i] = alloc((size_t)len);
	for (int i = 0; i < p; i++)
		code[i] = alloc((size_t)len);
	per_rep = (size_t)k * (size_t)len;
	for (long r = 0; r < reps; r++)
		ec_encode_data(len, k, p, tbls, data, code);
	for (int i = 0; i < p; i++)
		mix(code[i], (size_t)len);
}

static void run_raid(int vects, int len, long reps, int pq)
{
	void *v[20];
	for (int i = 0; i < vects; i++)
		v[i] = alloc((size_t)len);
	per_rep = (size_t)(vects - (pq ? 2 : 1)) * (size_t)len;
	for (long r = 0; r < reps; r++)
		pq ? pq_gen(vects, len, v) : xor_gen(vects, len, v);
	mix(v[vects - 1], (size_t)len);
}

/* ---- CRC ---- */

#define CRC_FUNCS(M)                                                                               \
	M(crc32_ieee) M(crc32_gzip_refl) M(crc64_ecma_refl) M(crc64_ecma_norm) M(crc64_iso_refl)  \
	M(crc64_iso_norm) M(crc64_jones_refl) M(crc64_jones_norm) M(crc64_rocksoft_refl)           \
	M(crc64_rocksoft_norm)

/* The CRC cases by number, so that the name is compared once and not in the measured calls (the
 * strcmp chain's own blocks differed between the two drivers' layouts). */
#define CRC_ENUM(f) CRC_ID_##f,
enum { CRC_ID_crc16_t10dif, CRC_ID_crc16_t10dif_copy, CRC_ID_crc32_iscsi, CRC_FUNCS(CRC_ENUM) CRC_IDS };
#undef CRC_ENUM
#define CRC_NAME(f) #f,
static const char *const crc_names[CRC_IDS] = { "crc16_t10dif", "crc16_t10dif_copy", "crc32_iscsi",
						CRC_FUNCS(CRC_NAME) };
#undef CRC_NAME

static int run_crc(const char *name, size_t len, long reps)
{
	int id = 0;
	while (id < CRC_IDS && strcmp(name, crc_names[id]))
		id++;
	if (id == CRC_IDS)
		return 0;
	uint8_t *buf = alloc(len), *dst = alloc(len);
	uint64_t c = 0;
	per_rep = len;
	for (long r = 0; r < reps; r++) {
		switch (id) {
		case CRC_ID_crc16_t10dif:
			c += crc16_t10dif((uint16_t)c, buf, len);
			break;
		case CRC_ID_crc16_t10dif_copy:
			c += crc16_t10dif_copy((uint16_t)c, dst, buf, len);
			break;
		case CRC_ID_crc32_iscsi:
			c += crc32_iscsi(buf, (int)len, (unsigned)c);
			break;
#define CRC_CALL(f)                                                                                \
	case CRC_ID_##f:                                                                           \
		c += f(c, buf, len);                                                               \
		break;
			CRC_FUNCS(CRC_CALL)
#undef CRC_CALL
		}
	}
	sum += c;
	mix(dst, len);
	return 1;
}

/* ---- hashes: n jobs of len bytes each, submitted whole, then flushed ---- */

#define HASH_RUN(h, H)                                                                             \
	static void run_##h(int jobs, uint32_t len, long reps)                                     \
	{                                                                                          \
		ISAL_##H##_HASH_CTX_MGR *mgr;                                                      \
		ISAL_##H##_HASH_CTX ctx[8], *out;                                                  \
		uint8_t *buf[8];                                                                   \
		if (posix_memalign((void **)&mgr, 64, sizeof *mgr))                                \
			exit(1);                                                                   \
		for (int i = 0; i < jobs; i++) {                                                   \
			buf[i] = alloc(len);                                                       \
			memset(&ctx[i], 0, sizeof ctx[i]);                                         \
		}                                                                                  \
		per_rep = (size_t)jobs * len;                                                      \
		isal_##h##_ctx_mgr_init(mgr);                                                      \
		for (long r = 0; r < reps; r++) {                                                  \
			for (int i = 0; i < jobs; i++)                                             \
				isal_##h##_ctx_mgr_submit(mgr, &ctx[i], &out, buf[i], len,         \
							  ISAL_HASH_ENTIRE);                       \
			do                                                                         \
				isal_##h##_ctx_mgr_flush(mgr, &out);                               \
			while (out);                                                               \
			for (int i = 0; i < jobs; i++)                                             \
				mix((const uint8_t *)ctx[i].job.result_digest,                     \
				    sizeof ctx[i].job.result_digest);                              \
		}                                                                                  \
	}
HASH_RUN(sha1, SHA1)
HASH_RUN(sha256, SHA256)
HASH_RUN(sha512, SHA512)
HASH_RUN(md5, MD5)

/* ---- AES-XTS ---- */

static void run_xts(int bits, int dec, uint64_t len, long reps)
{
	uint8_t *k1 = alloc(32), *k2 = alloc(32), *tw = alloc(16), *in = alloc(len), *out = alloc(len);
	per_rep = len;
	for (long r = 0; r < reps; r++) {
		if (bits == 128)
			(dec ? isal_aes_xts_dec_128 : isal_aes_xts_enc_128)(k2, k1, tw, len, in, out);
		else
			(dec ? isal_aes_xts_dec_256 : isal_aes_xts_enc_256)(k2, k1, tw, len, in, out);
	}
	mix(out, len);
}

/* ---- deflate levels 0-3 and inflate over the Calgary files, concatenated in name order ---- */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static uint8_t *calgary(const char *dir, size_t *n)
{
	char *names[64];
	int count = 0;
	DIR *d = opendir(dir);
	if (!d) {
		perror(dir);
		exit(1);
	}
	for (struct dirent *e; (e = readdir(d)) && count < 64;)
		if (e->d_name[0] != '.' && strcmp(e->d_name, "README.md"))
			names[count++] = strdup(e->d_name);
	closedir(d);
	qsort(names, (size_t)count, sizeof names[0], by_name);
	size_t cap = 1 << 22, used = 0;
	uint8_t *all = malloc(cap);
	for (int i = 0; i < count; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		FILE *f = fopen(path, "rb");
		if (!f) {
			perror(path);
			exit(1);
		}
		for (size_t got; (got = fread(all + used, 1, cap - used, f)) > 0;) {
			used += got;
			if (used == cap)
				all = realloc(all, cap *= 2);
		}
		fclose(f);
	}
	*n = used;
	return all;
}

/* Each level's default level buffer (level 0 takes none); the largest is allocated. */
static const uint32_t lvl_size[4] = { 0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT,
				      ISAL_DEF_LVL3_DEFAULT };

static size_t deflate_level(const uint8_t *in, size_t n, uint8_t *out, size_t cap, uint8_t *lvl,
			    int level)
{
	struct isal_zstream s;
	isal_deflate_init(&s);
	s.level = (uint32_t)level;
	s.level_buf = level ? lvl : NULL;
	s.level_buf_size = lvl_size[level];
	s.end_of_stream = 1;
	s.flush = NO_FLUSH;
	s.next_in = (uint8_t *)in;
	s.avail_in = (uint32_t)n;
	s.next_out = out;
	s.avail_out = (uint32_t)cap;
	if (isal_deflate(&s) != COMP_OK || s.internal_state.state != ZSTATE_END) {
		fprintf(stderr, "deflate failed\n");
		exit(1);
	}
	return s.total_out;
}

/* Deflate at level (inflate: of level 1's output). */
static void run_igzip(const char *dir, int inflate, int level, long reps)
{
	size_t n, cap;
	uint8_t *in = calgary(dir, &n);
	cap = n + n / 8 + 4096;
	uint8_t *out = malloc(cap), *back = malloc(n), *lvl = malloc(ISAL_DEF_LVL3_DEFAULT);
	size_t z = deflate_level(in, n, out, cap, lvl, level);
	per_rep = n;
	for (long r = 0; r < reps; r++) {
		if (!inflate) {
			z = deflate_level(in, n, out, cap, lvl, level);
			continue;
		}
		struct inflate_state st;
		isal_inflate_init(&st);
		st.next_in = out;
		st.avail_in = (uint32_t)z;
		st.next_out = back;
		st.avail_out = (uint32_t)n;
		if (isal_inflate(&st) != ISAL_DECOMP_OK || st.total_out != n ||
		    memcmp(back, in, n)) {
			fprintf(stderr, "inflate failed\n");
			exit(1);
		}
	}
	sum += z;
}

/* ---- the cases ---- */

static const char *const crcs[] = { "crc16_t10dif",	"crc16_t10dif_copy",	"crc32_ieee",
				    "crc32_gzip_refl",	"crc32_iscsi",		"crc64_ecma_refl",
				    "crc64_ecma_norm",	"crc64_iso_refl",	"crc64_iso_norm",
				    "crc64_jones_refl", "crc64_jones_norm",	"crc64_rocksoft_refl",
				    "crc64_rocksoft_norm" };
#define NCRC (sizeof crcs / sizeof crcs[0])

static void list(void)
{
	printf("ec_10+4_64K\nec_10+4_1M\nec_4+2_64K\nec_4+2_1M\n");
	printf("xor_gen_16+1_64K\npq_gen_16+2_64K\n");
	for (size_t i = 0; i < NCRC; i++)
		printf("%s_4K\n%s_64K\n", crcs[i], crcs[i]);
	static const char *const h[] = { "sha1", "sha256", "sha512", "md5" };
	for (int i = 0; i < 4; i++)
		printf("%s_1x64K\n%s_8x64K\n", h[i], h[i]);
	printf("xts128_enc_4K\nxts128_dec_4K\nxts256_enc_4K\nxts256_dec_4K\n");
	printf("deflate0_calgary\ndeflate1_calgary\ndeflate2_calgary\ndeflate3_calgary\n");
	printf("inflate_calgary\n");
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "list")) {
		list();
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: proxy_driver CASE REPS [CORPUS_DIR] | list\n");
		return 2;
	}
	const char *c = argv[1];
	long reps = atol(argv[2]);
	int jobs;
	char name[64];
	if (!strcmp(c, "ec_10+4_64K"))
		run_ec(10, 4, 1 << 16, reps);
	else if (!strcmp(c, "ec_10+4_1M"))
		run_ec(10, 4, 1 << 20, reps);
	else if (!strcmp(c, "ec_4+2_64K"))
		run_ec(4, 2, 1 << 16, reps);
	else if (!strcmp(c, "ec_4+2_1M"))
		run_ec(4, 2, 1 << 20, reps);
	else if (!strcmp(c, "xor_gen_16+1_64K"))
		run_raid(17, 1 << 16, reps, 0);
	else if (!strcmp(c, "pq_gen_16+2_64K"))
		run_raid(18, 1 << 16, reps, 1);
	else if (sscanf(c, "sha1_%dx64K", &jobs) == 1)
		run_sha1(jobs, 1 << 16, reps);
	else if (sscanf(c, "sha256_%dx64K", &jobs) == 1)
		run_sha256(jobs, 1 << 16, reps);
	else if (sscanf(c, "sha512_%dx64K", &jobs) == 1)
		run_sha512(jobs, 1 << 16, reps);
	else if (sscanf(c, "md5_%dx64K", &jobs) == 1)
		run_md5(jobs, 1 << 16, reps);
	else if (!strncmp(c, "xts", 3))
		run_xts(atoi(c + 3), strstr(c, "_dec") != NULL, 4096, reps);
	else if ((!strncmp(c, "deflate", 7) && c[7] >= '0' && c[7] <= '3' &&
		  !strcmp(c + 8, "_calgary")) ||
		 !strcmp(c, "inflate_calgary")) {
		if (argc < 4) {
			fprintf(stderr, "%s needs the corpus directory\n", c);
			return 2;
		}
		run_igzip(argv[3], c[0] == 'i', c[0] == 'i' ? 1 : c[7] - '0', reps);
	} else {
		size_t n = strlen(c);
		size_t len = n > 4 && !strcmp(c + n - 4, "_64K") ? 65536 : 4096;
		snprintf(name, sizeof name, "%.*s", (int)(n - (len == 65536 ? 4 : 3)), c);
		if (!run_crc(name, len, reps)) {
			fprintf(stderr, "unknown case %s\n", c);
			return 2;
		}
	}
	printf("%016llx bytes %zu\n", (unsigned long long)sum, per_rep);
	return 0;
}
