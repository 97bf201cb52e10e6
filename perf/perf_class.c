/* CPU classes (--class NAME): one run of a driver measures what each library runs on one class
 * of x86-64 CPU, on this machine, as far as this machine can run that class's code.
 *
 * stoa: the class's STOA_ISA cap, so the public functions dispatch as they would on such a CPU.
 * OpenSSL, stoa's peer in the same process: OPENSSL_ia32cap, with the features outside the class
 * cleared; OpenSSL reads it while libcrypto loads, so the driver sets it and runs itself again.
 * ISA-L and isa-l_crypto: their public functions jump through one pointer per function, which
 * their own dispatcher fills on the first call from cpuid. The drivers link copies of the static
 * libraries in which those pointers (<name>_dispatched) and their initialisers
 * (<name>_dispatch_init) are global symbols (perf.mk: objcopy --globalize-symbol), and set each
 * pointer to the entry point that dispatcher picks on a CPU of the class. The tables below are
 * ISA-L's dispatch rules written out per class, one row per pointer; the class this CPU belongs
 * to is checked against ISA-L's own dispatcher before anything runs (perf_class_apply).
 *
 * A class needs its features on this CPU: the drivers refuse the ones it lacks (exit 3). */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf.h"

/* cpuid bits: leaf 1 ECX, leaf 7 EBX and ECX. */
#define C1_SSSE3     (1u << 9)
#define C1_FMA       (1u << 12)
#define C1_SSE41     (1u << 19)
#define C1_SSE42     (1u << 20)
#define C1_MOVBE     (1u << 22)
#define C1_POPCNT    (1u << 23)
#define C1_AES       (1u << 25)
#define C1_AVX       (1u << 28)
#define C1_F16C      (1u << 29)
#define C1_PCLMUL    (1u << 1)
#define B7_BMI1      (1u << 3)
#define B7_AVX2      (1u << 5)
#define B7_BMI2      (1u << 8)
#define B7_AVX512F   (1u << 16)
#define B7_AVX512DQ  (1u << 17)
#define B7_AVX512CD  (1u << 28)
#define B7_AVX512BW  (1u << 30)
#define B7_AVX512VL  (1u << 31)
#define B7_SHA       (1u << 29)
#define C7_VBMI2     (1u << 6)
#define C7_GFNI      (1u << 8)
#define C7_VAES      (1u << 9)
#define C7_VPCLMUL   (1u << 10)
#define C7_VNNI      (1u << 11)
#define C7_BITALG    (1u << 12)
#define C7_VPOPCNTDQ (1u << 14)

#define V2_C1 (C1_SSSE3 | C1_SSE41 | C1_SSE42 | C1_POPCNT | C1_PCLMUL | C1_AES)
#define V3_C1 (V2_C1 | C1_AVX | C1_FMA | C1_MOVBE | C1_F16C)
#define V3_B7 (B7_BMI1 | B7_AVX2 | B7_BMI2)
#define V4_B7 (V3_B7 | B7_AVX512F | B7_AVX512DQ | B7_AVX512CD | B7_AVX512BW | B7_AVX512VL)
/* The three that arrived together on Intel's cores (Ice Lake, Alder Lake, Sierra Forest). */
#define GVV_C7 (C7_GFNI | C7_VAES | C7_VPCLMUL)
/* The rest of ISA-L's "AVX-512 gen 2" test, which its newest kernels need. */
#define G2_C7 (GVV_C7 | C7_VBMI2 | C7_VNNI | C7_BITALG | C7_VPOPCNTDQ)

/* Indexes of the classes in the ISA-L rows below. */
enum { CL_V2, CL_V3, CL_V3G, CL_V4, CL_V4G, CL_COUNT };

struct perf_class {
	const char *name;
	const char *stoa_isa;
	uint32_t c1, b7, c7; /* features the class has (and needs) */
	const char *about;
};

/* The STOA_ISA values name the classes exactly: features beyond the class are off even where
 * this CPU has them. */
static const struct perf_class classes[CL_COUNT] = {
	[CL_V2] = { "x86-64-v2", "x86-64-v2", V2_C1, 0, 0,
	            "SSE4.2, POPCNT, PCLMULQDQ, AES-NI (Westmere to Ivy Bridge; x86-64-v2 plus "
	            "PCLMULQDQ and AES-NI)" },
	[CL_V3] = { "x86-64-v3", "x86-64-v3", V3_C1, V3_B7, 0,
	            "AVX2, BMI1/2, FMA, MOVBE (Haswell to Comet Lake, Zen 1-2)" },
	[CL_V3G] = { "x86-64-v3+gfni", "x86-64-v3,+gfni,+vaes,+vpclmul", V3_C1, V3_B7, GVV_C7,
	             "x86-64-v3 with GFNI, VAES and VPCLMULQDQ (Alder Lake, Sierra Forest)" },
	[CL_V4] = { "x86-64-v4", "x86-64-v4", V3_C1, V4_B7, 0,
	            "AVX-512 F/DQ/CD/BW/VL (Skylake-SP, Cascade Lake)" },
	[CL_V4G] = { "x86-64-v4+gfni",
	             "x86-64-v4,+gfni,+vaes,+vpclmul,+avx512vbmi2,+avx512vnni,+avx512bitalg,"
	             "+avx512vpopcntdq,+shani",
	             V3_C1, V4_B7 | B7_SHA, G2_C7,
	             "x86-64-v4 with GFNI, VAES, VPCLMULQDQ, VBMI2, VNNI, BITALG, VPOPCNTDQ and "
	             "SHA-NI (Ice Lake server and later, Zen 4-5): both libraries at their best" },
};

static const struct perf_class *active;

static void cpu_words(uint32_t *c1, uint32_t *b7, uint32_t *c7)
{
	uint32_t a, b, c, d;
	*c1 = *b7 = *c7 = 0;
	if (__get_cpuid_max(0, 0) < 1)
		return;
	__cpuid(1, a, b, c, d);
	*c1 = c;
	if (__get_cpuid_max(0, 0) >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		*b7 = b;
		*c7 = c;
	}
	/* AVX and AVX-512 count only when the OS saves their registers. */
	uint32_t lo = 0, hi = 0;
	if (*c1 & (1u << 27))
		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	if ((lo & 0x6) != 0x6) {
		*c1 &= ~(C1_AVX | C1_FMA | C1_F16C);
		*b7 &= ~V4_B7 | B7_BMI1 | B7_BMI2;
		*c7 &= ~G2_C7;
	} else if ((lo & 0xe0) != 0xe0) {
		*b7 &= ~(V4_B7 & ~V3_B7);
	}
}

static const struct perf_class *class_named(const char *name)
{
	for (int i = 0; i < CL_COUNT; i++)
		if (strcmp(classes[i].name, name) == 0)
			return &classes[i];
	return NULL;
}

/* The class this CPU is: the largest it has every feature of. */
static int own_class(void)
{
	uint32_t c1, b7, c7;
	cpu_words(&c1, &b7, &c7);
	int best = -1;
	for (int i = 0; i < CL_COUNT; i++) {
		const struct perf_class *k = &classes[i];
		if ((c1 & k->c1) == k->c1 && (b7 & k->b7) == k->b7 && (c7 & k->c7) == k->c7 &&
		    (best < 0 || __builtin_popcount(k->b7) + __builtin_popcount(k->c7) >=
		                     __builtin_popcount(classes[best].b7) +
		                         __builtin_popcount(classes[best].c7)))
			best = i;
	}
	return best;
}

void perf_class_list(FILE *f)
{
	uint32_t c1, b7, c7;
	cpu_words(&c1, &b7, &c7);
	int own = own_class();
	for (int i = 0; i < CL_COUNT; i++) {
		const struct perf_class *k = &classes[i];
		int runs = (c1 & k->c1) == k->c1 && (b7 & k->b7) == k->b7 && (c7 & k->c7) == k->c7;
		fprintf(f, "%-16s %s; %s\n", k->name,
		        i == own ? "this CPU's class"
		        : runs   ? "runs here"
		                 : "not on this CPU",
		        k->about);
	}
}

const char *perf_class_name(void)
{
	return active ? active->name : NULL;
}

const char *perf_class_stoa_isa(void)
{
	return active ? active->stoa_isa : NULL;
}

const char *perf_class_about(void)
{
	return active ? active->about : NULL;
}

#if defined(PERF_LIB_STOA)
/* OPENSSL_ia32cap for a class: "~" clears bits of OpenSSL's two capability words, the first
 * cpuid leaf 1 (EDX, then ECX in the high half), the second leaf 7 (EBX, then ECX). */
static void openssl_cap(const struct perf_class *k, char *buf, size_t cap)
{
	uint64_t w0 = (uint64_t)((C1_AVX | C1_FMA | C1_F16C | C1_MOVBE) & ~k->c1) << 32;
	uint64_t w1 = ~((uint64_t)k->c7 << 32 | k->b7);
	snprintf(buf, cap, "~0x%llx:~0x%llx", (unsigned long long)w0, (unsigned long long)w1);
}

int perf_class_peer_ok(const char *library)
{
	/* libdeflate picks its decoder from cpuid and has no cap: its x86 decoder needs BMI2 and
	 * has no other variant, so the code it runs here is a class's only where BMI2 belongs. */
	if (active && strcmp(library, "libdeflate") == 0)
		return (active->b7 & B7_BMI2) != 0;
	return 1;
}

static int class_setup(const struct perf_class *k, char **argv)
{
	char ossl[96];
	openssl_cap(k, ossl, sizeof(ossl));
	const char *have = getenv("OPENSSL_ia32cap");
	setenv("STOA_ISA", k->stoa_isa, 1);
	if (!have || strcmp(have, ossl) != 0) {
		setenv("OPENSSL_ia32cap", ossl, 1);
		execv("/proc/self/exe", argv);
		perror("stoa_perf: execv /proc/self/exe");
		return -1;
	}
	return 0;
}

#elif defined(PERF_ISAL_UPSTREAM) || defined(PERF_LIB_ISAL_CRYPTO)

int perf_class_peer_ok(const char *library)
{
	(void)library;
	return 1;
}

/*
 * One row per dispatch pointer: the pointer, its initialiser, and the entry point for each class
 * (CL_* order). The row macros take the arguments of ISA-L's dispatch macros (multibinary.asm)
 * in their order and apply each macro's rule:
 *   CLMUL  (mbin_dispatch_init_clmul: base, 01, 02, avx2, 10): the AVX2 entry only with GFNI,
 *          VAES and VPCLMULQDQ, the AVX-512 one only with its whole gen 2 set; else 01 / 02.
 *   INIT5  (base, sse, avx, avx2); INIT6 adds avx512; INIT7 adds avx512 gen 2 (needs the
 *          whole G2_C7 set); INIT8 (base, sse, avx, avx2, avx512, avx2 gen 2, avx512 gen 2),
 *          the avx2 gen 2 entry with GFNI, VAES and VPCLMULQDQ but no AVX-512.
 *   SHANI  (mbin_dispatch_base_to_avx512_shani: base, sse, avx, avx2, avx512, sse_ni,
 *          avx512_ni): SHA-NI matters only without AVX or with AVX-512; of the classes only
 *          the full one has it.
 *   SSE41  the hand-written dispatchers of xor_check and pq_check: SSE4.1 or base.
 */
#define CLMUL(R, n, base, a01, a02, avx2, a10)        R(n, a01, a02, avx2, a02, a10)
#define INIT5(R, n, base, sse, avx, avx2)             R(n, sse, avx2, avx2, avx2, avx2)
#define INIT6(R, n, base, sse, avx, avx2, avx512)     R(n, sse, avx2, avx2, avx512, avx512)
#define INIT7(R, n, base, sse, avx, avx2, avx512, g2) R(n, sse, avx2, avx2, avx512, g2)
#define INIT8(R, n, base, sse, avx, avx2, avx512, avx2g2, avx512g2)                                \
	R(n, sse, avx2, avx2g2, avx512, avx512g2)
#define SHANI(R, n, base, sse, avx, avx2, avx512, sse_ni, avx512_ni)                               \
	R(n, sse, avx2, avx2, avx512, avx512_ni)
#define SSE41(R, n, base, sse) R(n, sse, sse, sse, sse, sse)

#if defined(PERF_ISAL_UPSTREAM)
/* ISA-L's crc, erasure_code, raid, mem and igzip multibinary files. */
#define CRC_CLMUL(R, n, a01, a02) CLMUL(R, n, n##_base, a01, a02, n##_avx2, n##_by16_10)
#define CRC64(R, n)               CRC_CLMUL(R, n, n##_by8, n##_by8)
#define ISAL_ROWS(R)                                                                               \
	CRC_CLMUL(R, crc32_iscsi, crc32_iscsi_01, crc32_iscsi_by8_02)                              \
	CRC_CLMUL(R, crc32_gzip_refl, crc32_gzip_refl_by8, crc32_gzip_refl_by8)                    \
	CLMUL(R, crc16_t10dif_copy, crc16_t10dif_copy_base, crc16_t10dif_copy_by4,                 \
	      crc16_t10dif_copy_by4_02, crc16_t10dif_copy_by4_02, crc16_t10dif_copy_by4_02)        \
	CRC_CLMUL(R, crc32_ieee, crc32_ieee_01, crc32_ieee_01)                                     \
	CRC_CLMUL(R, crc16_t10dif, crc16_t10dif_01, crc16_t10dif_01)                               \
	CRC64(R, crc64_ecma_refl)                                                                  \
	CRC64(R, crc64_ecma_norm)                                                                  \
	CRC64(R, crc64_iso_refl)                                                                   \
	CRC64(R, crc64_iso_norm)                                                                   \
	CRC64(R, crc64_jones_refl)                                                                 \
	CRC64(R, crc64_jones_norm)                                                                 \
	CRC64(R, crc64_rocksoft_refl)                                                              \
	CRC64(R, crc64_rocksoft_norm)                                                              \
	INIT8(R, gf_vect_mul, gf_vect_mul_base, gf_vect_mul_sse, gf_vect_mul_avx, gf_vect_mul_avx, \
	      gf_vect_mul_avx, gf_vect_mul_avx2_gfni, gf_vect_mul_avx2_gfni)                       \
	EC_INIT8(R, ec_encode_data)                                                                \
	EC_INIT8(R, ec_encode_data_update)                                                         \
	EC_INIT8(R, gf_vect_mad)                                                                   \
	EC_INIT8(R, gf_vect_dot_prod)                                                              \
	INIT8(R, ec_init_tables, ec_init_tables_base, ec_init_tables_base, ec_init_tables_base,    \
	      ec_init_tables_base, ec_init_tables_base, ec_init_tables_gfni, ec_init_tables_gfni)  \
	INIT8(R, gf_vect_mul_init, gf_vect_mul_init_base, gf_vect_mul_init_base,                   \
	      gf_vect_mul_init_base, gf_vect_mul_init_base, gf_vect_mul_init_base,                 \
	      gf_vect_mul_init_gfni, gf_vect_mul_init_gfni)                                        \
	INIT6(R, isal_zero_detect, mem_zero_detect_base, mem_zero_detect_sse, mem_zero_detect_avx, \
	      mem_zero_detect_avx2, mem_zero_detect_avx512)                                        \
	INIT6(R, xor_gen, xor_gen_base, xor_gen_sse, xor_gen_avx, xor_gen_avx, xor_gen_avx512)     \
	INIT8(R, pq_gen, pq_gen_base, pq_gen_sse, pq_gen_avx, pq_gen_avx2, pq_gen_avx512,          \
	      pq_gen_avx2_gfni, pq_gen_avx512_gfni)                                                \
	SSE41(R, xor_check, xor_check_base, xor_check_sse)                                         \
	SSE41(R, pq_check, pq_check_base, pq_check_sse)                                            \
	IGZIP_ROWS(R)
#define EC_INIT8(R, n)                                                                             \
	INIT8(R, n, n##_base, n##_sse, n##_avx, n##_avx2, n##_avx512, n##_avx2_gfni,               \
	      n##_avx512_gfni)
#define IGZIP_ROWS(R)                                                                              \
	INIT5(R, decode_huffman_code_block_stateless, decode_huffman_code_block_stateless_base,    \
	      decode_huffman_code_block_stateless_01, decode_huffman_code_block_stateless_01,      \
	      decode_huffman_code_block_stateless_04)                                              \
	INIT5(R, isal_deflate_body, isal_deflate_body_base, isal_deflate_body_01,                  \
	      isal_deflate_body_02, isal_deflate_body_04)                                          \
	INIT5(R, isal_deflate_finish, isal_deflate_finish_base, isal_deflate_finish_01,            \
	      isal_deflate_finish_01, isal_deflate_finish_01)                                      \
	ICF_BODY(R, isal_deflate_icf_body_lvl1)                                                    \
	ICF_BODY(R, isal_deflate_icf_body_lvl2)                                                    \
	INIT5(R, isal_deflate_icf_body_lvl3, icf_body_hash1_fillgreedy_lazy,                       \
	      icf_body_hash1_fillgreedy_lazy, icf_body_hash1_fillgreedy_lazy,                      \
	      icf_body_lazyhash1_fillgreedy_greedy)                                                \
	ICF_FINISH(R, isal_deflate_icf_finish_lvl1)                                                \
	ICF_FINISH(R, isal_deflate_icf_finish_lvl2)                                                \
	INIT5(R, isal_deflate_icf_finish_lvl3, isal_deflate_icf_finish_hash_map_base,              \
	      isal_deflate_icf_finish_hash_map_base, isal_deflate_icf_finish_hash_map_base,        \
	      isal_deflate_icf_finish_hash_map_base)                                               \
	INIT5(R, isal_update_histogram, isal_update_histogram_base, isal_update_histogram_01,      \
	      isal_update_histogram_01, isal_update_histogram_04)                                  \
	INIT6(R, encode_deflate_icf, encode_deflate_icf_base, encode_deflate_icf_base,             \
	      encode_deflate_icf_base, encode_deflate_icf_04, encode_deflate_icf_06)               \
	INIT6(R, set_long_icf_fg, set_long_icf_fg_base, set_long_icf_fg_base,                      \
	      set_long_icf_fg_base, set_long_icf_fg_04, set_long_icf_fg_06)                        \
	INIT6(R, gen_icf_map_lh1, gen_icf_map_h1_base, gen_icf_map_h1_base, gen_icf_map_h1_base,   \
	      gen_icf_map_lh1_04, gen_icf_map_lh1_06)                                              \
	INIT5(R, isal_adler32, adler32_base, adler32_sse, adler32_sse, adler32_avx2_4)             \
	DEFLATE_HASH(R, isal_deflate_hash_lvl0)                                                    \
	DEFLATE_HASH(R, isal_deflate_hash_lvl1)                                                    \
	DEFLATE_HASH(R, isal_deflate_hash_lvl2)                                                    \
	INIT5(R, isal_deflate_hash_lvl3, isal_deflate_hash_base, isal_deflate_hash_base,           \
	      isal_deflate_hash_base, isal_deflate_hash_mad_base)
#define ICF_BODY(R, n)                                                                             \
	INIT5(R, n, isal_deflate_icf_body_hash_hist_base, isal_deflate_icf_body_hash_hist_01,      \
	      isal_deflate_icf_body_hash_hist_02, isal_deflate_icf_body_hash_hist_04)
#define ICF_FINISH(R, n)                                                                           \
	INIT5(R, n, isal_deflate_icf_finish_hash_hist_base, isal_deflate_icf_finish_hash_hist_01,  \
	      isal_deflate_icf_finish_hash_hist_01, isal_deflate_icf_finish_hash_hist_01)
#define DEFLATE_HASH(R, n)                                                                         \
	INIT5(R, n, isal_deflate_hash_base, isal_deflate_hash_crc_01, isal_deflate_hash_crc_01,    \
	      isal_deflate_hash_crc_01)

#else
/* isa-l_crypto's md5_mb, sha*_mb and aes multibinary files. */
#define MGR(R, alg, what)    MGR3(R, _##alg##_ctx_mgr_##what)
#define MGR3(R, n)           INIT6(R, n, n##_base, n##_sse, n##_avx, n##_avx2, n##_avx512)
#define MGR_NI(R, alg, what) MGR_NI3(R, _##alg##_ctx_mgr_##what)
#define MGR_NI3(R, n)                                                                              \
	SHANI(R, n, n##_base, n##_sse, n##_avx, n##_avx2, n##_avx512, n##_sse_ni, n##_avx512_ni)
#define MGR_ALL(R, alg, M) M(R, alg, init) M(R, alg, submit) M(R, alg, flush)
#define XTS(R, n)          INIT7(R, n, n##_sse, n##_sse, n##_avx, n##_avx, n##_avx, n##_vaes)
#define ISAL_ROWS(R)                                                                               \
	MGR_ALL(R, md5, MGR)                                                                       \
	MGR_ALL(R, sha1, MGR_NI)                                                                   \
	MGR_ALL(R, sha256, MGR_NI)                                                                 \
	MGR_ALL(R, sha512, MGR)                                                                    \
	XTS(R, _XTS_AES_128_enc)                                                                   \
	XTS(R, _XTS_AES_128_enc_expanded_key)                                                      \
	XTS(R, _XTS_AES_128_dec)                                                                   \
	XTS(R, _XTS_AES_128_dec_expanded_key)                                                      \
	XTS(R, _XTS_AES_256_enc)                                                                   \
	XTS(R, _XTS_AES_256_enc_expanded_key)                                                      \
	XTS(R, _XTS_AES_256_dec)                                                                   \
	XTS(R, _XTS_AES_256_dec_expanded_key)
#endif

/* The symbols are only addresses here: declared as functions of no particular type, in a file
 * that includes none of the libraries' headers. */
typedef void isal_entry(void);
#define DECLARE_ROW(n, v2, v3, v3g, v4, v4g)                                                       \
	extern isal_entry *n##_dispatched;                                                         \
	isal_entry n##_dispatch_init, v2, v3, v3g, v4, v4g;
ISAL_ROWS(DECLARE_ROW)

struct isal_row {
	const char *name;
	isal_entry **ptr;
	isal_entry *init;
	isal_entry *entry[CL_COUNT];
};

#define TABLE_ROW(n, v2, v3, v3g, v4, v4g)                                                         \
	{ #n, &n##_dispatched, n##_dispatch_init, { v2, v3, v3g, v4, v4g } },
static const struct isal_row isal_rows[] = { ISAL_ROWS(TABLE_ROW) };

/* ISA-L's dispatcher, run for every row, must pick this class's entry on this CPU: that checks
 * the transcription of its rules for the class this CPU belongs to. Its initialisers keep every
 * register but the pointer they write, as a call from C needs. */
static int check_own_class(void)
{
	int own = own_class(), bad = 0;
	if (own < 0)
		return 0;
	for (size_t i = 0; i < PERF_COUNT(isal_rows); i++) {
		const struct isal_row *r = &isal_rows[i];
		r->init();
		if (*r->ptr != r->entry[own]) {
			fprintf(stderr,
			        "stoa_perf: %s: ISA-L's dispatcher picks another entry than the %s "
			        "column of perf_class.c's table\n",
			        r->name, classes[own].name);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

static int class_setup(const struct perf_class *k, char **argv)
{
	(void)argv;
	if (check_own_class() != 0)
		return -1;
	for (size_t i = 0; i < PERF_COUNT(isal_rows); i++)
		*isal_rows[i].ptr = isal_rows[i].entry[k - classes];
	return 0;
}

#else

int perf_class_peer_ok(const char *library)
{
	(void)library;
	return 1;
}

static int class_setup(const struct perf_class *k, char **argv)
{
	(void)argv;
	fprintf(stderr,
	        "stoa_perf: this build cannot select %s: only the stoa build and the "
	        "upstream ISA-L and isa-l_crypto builds take --class\n",
	        k->name);
	return -1;
}
#endif

int perf_class_apply(const char *name, char **argv)
{
	const struct perf_class *k = class_named(name);
	if (!k) {
		fprintf(stderr, "stoa_perf: unknown class '%s'; the classes:\n", name);
		perf_class_list(stderr);
		return 2;
	}
	uint32_t c1, b7, c7;
	cpu_words(&c1, &b7, &c7);
	if ((c1 & k->c1) != k->c1 || (b7 & k->b7) != k->b7 || (c7 & k->c7) != k->c7) {
		fprintf(stderr,
		        "stoa_perf: class %s cannot run on this CPU (it lacks some of: %s)\n",
		        k->name, k->about);
		return 3;
	}
	if (class_setup(k, argv) != 0)
		return 2;
	active = k;
	return 0;
}
