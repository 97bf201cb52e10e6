/* CRC module tests.
 *
 * Evidence, for all thirteen functions: catalogue check values; an independent bit-at-a-time
 * reference written here; every variant the CPU can run (and the exported public, _base and _by8
 * symbols) against the table's base entry over all short lengths, the lengths around each kernel's
 * block sizes, random lengths and every alignment, in buffers that end (or start) at an
 * inaccessible page; chaining; bad input; zlib's crc32; Debian's libisal in a separate process
 * (tests/crc_oracle.c); and the drop-in ABI through the compat libisal.so.2.
 *
 * Everything random comes from test_rand(), so STOA_SEED=N repeats a run exactly. */
#include "common/cpu.h"
#include "crc_check.h"

static void test_inventory(void **state)
{
	(void)state;
	uint64_t det = stoa_cpu_features(), en = stoa_cpu_features_enabled();
	const char *isa = getenv("STOA_ISA");
	print_message("features detected 0x%" PRIx64 ", enabled 0x%" PRIx64 " (STOA_ISA=%s)\n", det,
		      en, isa && *isa ? isa : "(unset)");
	assert_int_equal(en & ~det, 0);
	for (size_t i = 0; i < N_FNS; i++) {
		const struct crc_fn *f = &crc_fns[i];
		const struct stoa_func *sf = table_of(f);
		const struct stoa_variant *first = NULL;
		print_message("  %-20s", f->name);
		for (size_t v = 0; v < sf->count; v++) {
			const struct stoa_variant *var = &sf->variants[v];
			int ok = stoa_variant_usable(var);
			if (ok && !first)
				first = var;
			print_message(" %s%s", var->name, ok ? "" : "(SKIPPED: needs");
			if (!ok) {
				for (int b = 0; b < 64; b++)
					if ((var->need & ~en) & (1ull << b))
						print_message(" %s",
							      stoa_cpu_feature_name(1ull << b));
				print_message(")");
			}
		}
		const char *chosen = stoa_function_variant(f->name);
		print_message("; dispatch picks %s\n", chosen ? chosen : "(null)");
		assert_non_null(chosen);
		assert_non_null(first);
		assert_string_equal(chosen, first->name);
	}
	/* The API's thirteen and inflate's copying CRC-32 (test_gzip_copy). */
	assert_int_equal(stoa_module_crc.count, N_FNS + 1);
}

struct kat {
	const char *fn;
	uint64_t init, xorout, want;
	const char *source;
};

/* Check values for "123456789". Catalogue names where the function with this init/xorout is a
 * catalogued model; the three marked "libisal 2.30" were measured with Debian's libisal2. */
static const struct kat kats[] = {
	{ "crc16_t10dif", 0, 0, 0xD0DB, "CRC-16/T10-DIF" },
	{ "crc16_t10dif_copy", 0, 0, 0xD0DB, "CRC-16/T10-DIF" },
	{ "crc32_ieee", 0, 0, 0xFC891918, "CRC-32/BZIP2" },
	{ "crc32_gzip_refl", 0, 0, 0xCBF43926, "CRC-32/ISO-HDLC" },
	{ "crc32_iscsi", 0xFFFFFFFF, 0xFFFFFFFF, 0xE3069283, "CRC-32/ISCSI" },
	{ "crc64_ecma_refl", 0, 0, 0x995DC9BBDF1939FAull, "CRC-64/XZ" },
	{ "crc64_ecma_norm", 0, 0, 0x62EC59E3F1A4F00Aull, "CRC-64/WE" },
	{ "crc64_ecma_norm", ~0ull, ~0ull, 0x6C40DF5F0B497347ull, "CRC-64/ECMA-182" },
	{ "crc64_iso_refl", 0, 0, 0xB90956C775A41001ull, "CRC-64/GO-ISO" },
	{ "crc64_iso_norm", 0, 0, 0x1B00415A776C026Full, "libisal 2.30" },
	{ "crc64_jones_refl", 0, 0, 0x3558E8E979F60D7Eull, "libisal 2.30" },
	{ "crc64_jones_refl", ~0ull, ~0ull, 0xE9C6D914C4B8D9CAull, "CRC-64/REDIS" },
	{ "crc64_jones_norm", 0, 0, 0xDCF90FB7D3A994F3ull, "libisal 2.30" },
	{ "crc64_rocksoft_refl", 0, 0, 0xAE8B14860A799888ull, "CRC-64/NVME" },
};

static void test_known_answers(void **state)
{
	(void)state;
	arm_fault_report();
	static const char check[] = "123456789";
	uint8_t *src = guard_alloc(9, GUARD_BACK), *dst = guard_alloc(9, GUARD_BACK);
	size_t checks = 0;
	int covered[N_FNS] = { 0 };
	memcpy(src, check, 9);
	for (size_t k = 0; k < STOA_COUNT(kats); k++) {
		const struct kat *t = &kats[k];
		const struct crc_fn *f = fn_named(t->fn);
		assert_non_null(f);
		const struct prepared *p = &prep[f - crc_fns];
		uint64_t mask = width_mask(f->width);
		covered[f - crc_fns] = 1;
		uint64_t r = (ref_crc(f, t->init, src, 9) ^ t->xorout) & mask;
		if (r != t->want)
			TEST_FAIL("the bitwise reference gives 0x%" PRIx64
				  " for %s (%s), want 0x%" PRIx64 "\n",
				  r, t->fn, t->source, t->want);
		for (size_t i = 0; i < p->n; i++) {
			memset(dst, 0, 9);
			uint64_t got =
				(call_entry(p, &p->e[i], t->init, src, 9, dst) ^ t->xorout) & mask;
			checks++;
			if (got != t->want)
				TEST_FAIL("%s[%s] init 0x%" PRIx64 " (%s): 0x%" PRIx64
					  ", want 0x%" PRIx64 "\n",
					  t->fn, p->e[i].label, t->init, t->source, got, t->want);
			if (f->kind == K_T10DIF_COPY)
				assert_memory_equal(dst, check, 9);
		}
		print_message("  %-20s init 0x%" PRIx64 " -> 0x%0*" PRIX64 " (%s): %zu forms\n",
			      t->fn, t->init, f->width / 4, t->want, t->source, p->n);
	}
	for (size_t i = 0; i < N_FNS; i++) {
		/* crc64_rocksoft_norm has no catalogue entry; the bitwise test covers it. */
		if (!covered[i] && strcmp(crc_fns[i].name, "crc64_rocksoft_norm") != 0)
			TEST_FAIL("no check value for %s\n", crc_fns[i].name);
	}
	guard_free(src, 9, GUARD_BACK);
	guard_free(dst, 9, GUARD_BACK);
	print_message(
		"known answers: %zu checks, all equal (bitwise reference agrees on all %zu)\n",
		checks, STOA_COUNT(kats));
}

static void test_bitwise_reference(void **state)
{
	(void)state;
	arm_fault_report();
	struct area a;
	area_open(&a, GUARD_BACK);
	say_entries("bitwise reference");
	size_t cases = 0, checks = 0;
	for (size_t i = 0; i < N_FNS; i++) {
		const struct prepared *p = &prep[i];
		uint64_t mask = width_mask(p->f->width);
		for (int c = 0; c < 120; c++) {
			uint64_t len = c < 80 ? test_rand_below(300) : test_rand_below(4097);
			if (c == 119)
				len = 65536 - test_rand_below(64);
			uint8_t *src = place(a.src, a.where, len, 0);
			uint8_t *dst = place(a.dst, a.where, len, 0);
			uint64_t init = random_init(p->f->width);
			test_fill_random(src, len);
			uint64_t want = ref_crc(p->f, init, src, len);
			cases++;
			for (size_t e = 0; e < p->n; e++) {
				uint64_t got = call_entry(p, &p->e[e], init, src, len, dst) & mask;
				checks++;
				if (got != want)
					TEST_FAIL("%s[%s] len=%" PRIu64 " init=0x%" PRIx64
						  ": 0x%" PRIx64 ", bitwise reference 0x%" PRIx64
						  "\n",
						  p->f->name, p->e[e].label, len, init, got, want);
			}
		}
	}
	area_close(&a);
	print_message("bitwise reference: %zu cases, %zu checks, all equal\n", cases, checks);
}

static void test_all_short_lengths(void **state)
{
	(void)state;
	arm_fault_report();
	struct area a;
	area_open(&a, GUARD_BACK);
	say_entries("lengths 0..600 ending at a guard page");
	count_reset();
	for (size_t i = 0; i < N_FNS; i++)
		for (uint64_t len = 0; len <= 600; len++)
			check_placed(&prep[i], &a, len, 0, "ending at the guard page");
	area_close(&a);
	count_say("lengths 0..600");
}

/* crc32_iscsi's hybrid kernel has code built for each count of 64-byte blocks below
 * CRC32C_SHORT_MAX (its split of streams and chunks changes with the count): every length up
 * to just past it, ending at the back guard page and starting at the front one. */
static void test_iscsi_short_kernels(void **state)
{
	(void)state;
	arm_fault_report();
#ifdef CRC32C_SHORT_MAX
	const uint64_t max = CRC32C_SHORT_MAX + 96;
#else
	const uint64_t max = 1632;
#endif
	const struct prepared *p = &prep[fn_named("crc32_iscsi") - crc_fns];
	static const int ends[] = { GUARD_BACK, GUARD_FRONT };
	count_reset();
	for (size_t e = 0; e < STOA_COUNT(ends); e++) {
		struct area a;
		area_open(&a, ends[e]);
		for (uint64_t len = 0; len <= max; len++)
			check_placed(p, &a, len, 0,
				     ends[e] == GUARD_BACK ? "ending at the guard page"
							   : "starting at the guard page");
		area_close(&a);
	}
	print_message("crc32_iscsi lengths 0..%" PRIu64 " at both guard pages (%zu forms)\n", max,
		      p->n);
	count_say("crc32_iscsi short kernels");
}

/* The crc32_iscsi hybrid kernel's geometry, from the constants crc_internal.h shares with it:
 * past the len % 64 head and four first chunks (256 bytes), steps of 256 vector bytes plus every
 * scalar stream's words, taken in blocks of CRC32C_MAX_STEPS, then halves of it, down to one; so
 * a length's split changes at 256 + step * s, and the blocks' mix at the powers of two in s. */
#ifdef CRC32C_STREAMS
#define ISCSI_FIRST 256
#define ISCSI_STEP (256 + CRC32C_STREAMS * 8 * CRC32C_STREAM_WORDS)
#endif

/* A quick run (STOA_TEST_QUICK, sanitizers: a whole suite under qemu) takes, around centres past
 * 1 KiB, only the offsets at the 8- and 16-byte tails' edges (0, 1, 7-9, 15-17); every block
 * multiple up to 1 KiB keeps the whole range. */
static size_t add_around(uint64_t *out, size_t n, size_t max, uint64_t centre)
{
	const int sparse = centre > 1024 && test_quick();
	for (int d = -17; d <= 17; d++) {
		const int a = d < 0 ? -d : d;
		if (sparse && (a + 1) % 8 > 2)
			continue;
		if ((int64_t)centre + d >= 0 && centre + d <= 65536 + 17 && n < max)
			out[n++] = (uint64_t)((int64_t)centre + d);
	}
	return n;
}

/* Each kernel's block sizes and their multiples, and ±1..17 around each (below zero skipped). */
static size_t block_edge_lengths(uint64_t *out, size_t max)
{
	static const uint64_t blocks[] = { 16, 64, 128, 256, 512 };
	size_t n = 0;
	for (size_t b = 0; b < STOA_COUNT(blocks); b++)
		for (uint64_t m = 1; m <= 8; m++)
			n = add_around(out, n, max, blocks[b] * m);
	for (uint64_t big = 1024; big <= 65536; big *= 2)
		n = add_around(out, n, max, big);
#ifdef ISCSI_STEP
	static const uint64_t splits[] = { 47, 48, 49, 63, 64, 65, 95, 96, 97, 127, 128, 129, 160 };
	for (uint64_t st = 1; st <= CRC32C_MAX_STEPS + 8; st++)
		n = add_around(out, n, max, ISCSI_FIRST + ISCSI_STEP * st);
	for (size_t i = 0; i < STOA_COUNT(splits); i++)
		n = add_around(out, n, max, ISCSI_FIRST + ISCSI_STEP * splits[i]);
#endif
	return n;
}

static void test_block_edges(void **state)
{
	(void)state;
	arm_fault_report();
	static uint64_t lens[4096];
	size_t nl = block_edge_lengths(lens, STOA_COUNT(lens));
	assert_true(nl > (test_quick() ? 1000u : 1500u) && nl < STOA_COUNT(lens));
	struct area a;
	area_open(&a, GUARD_BACK);
	say_entries("block-size edges ending at a guard page");
	count_reset();
	for (size_t i = 0; i < N_FNS; i++)
		for (size_t l = 0; l < nl; l++)
			check_placed(&prep[i], &a, lens[l], 0, "ending at the guard page");
	area_close(&a);
	print_message("block edges: %zu lengths, each centre -17..+17: k*{16,64,128,256,512} for "
		      "k<=8, powers of two 1..64 KiB%s",
		      nl, test_quick() ? " (quick: past 1 KiB 0, 1, 7-9, 15-17 away)" : "");
#ifdef ISCSI_STEP
	print_message(", the crc32_iscsi hybrid's split points %d + %d s (s <= %d and around its "
		      "block mixes up to s = 160)",
		      ISCSI_FIRST, ISCSI_STEP, CRC32C_MAX_STEPS + 8);
#endif
	print_message("\n");
	count_say("block edges");
}

static void test_random_lengths(void **state)
{
	(void)state;
	arm_fault_report();
	struct area a;
	area_open(&a, GUARD_BACK);
	say_entries("random lengths 0..64 KiB ending at a guard page");
	count_reset();
	for (size_t i = 0; i < N_FNS; i++)
		for (int c = 0; c < (test_quick() ? 50 : 150); c++)
			check_placed(&prep[i], &a, random_len(), 0, "ending at the guard page");
	area_close(&a);
	count_say("random lengths");
}

/* With the data ending exactly at a page boundary its start alignment is fixed by its length,
 * so this pass moves the end up to 63 bytes short of the guard page to reach every start
 * alignment with random lengths. The exact-end overread check is the other passes' job. */
static void test_every_alignment(void **state)
{
	(void)state;
	arm_fault_report();
	struct area a;
	area_open(&a, GUARD_BACK);
	say_entries("every start alignment 0..63, random lengths");
	count_reset();
	for (size_t i = 0; i < N_FNS; i++) {
		for (unsigned al = 0; al < 64; al++) {
			for (int c = 0; c < 6; c++) {
				uint64_t len = c < 3   ? test_rand_below(601)
					       : c < 5 ? test_rand_below(4097)
						       : test_rand_below(65537);
				/* AREA is a multiple of 64, so the start's alignment is
				 * -(len + slack) mod 64. */
				size_t slack = (size_t)((64 - (len + al) % 64) % 64);
				uint8_t *s = place(a.src, a.where, len, slack);
				assert_int_equal((uintptr_t)s % 64, al);
				check_placed(&prep[i], &a, len, slack, "at a chosen alignment");
			}
		}
	}
	area_close(&a);
	count_say("alignments");
}

static void test_front_guard(void **state)
{
	(void)state;
	arm_fault_report();
	struct area a;
	area_open(&a, GUARD_FRONT);
	say_entries("buffers starting right after a guard page");
	count_reset();
	for (size_t i = 0; i < N_FNS; i++) {
		for (uint64_t len = 0; len <= 600; len++)
			check_placed(&prep[i], &a, len, 0, "starting after the guard page");
		for (int c = 0; c < 40; c++)
			check_placed(&prep[i], &a, random_len(), 0,
				     "starting after the guard page");
	}
	area_close(&a);
	count_say("front guard");
}

/* Past the 64 KiB of the other passes: long main loops and a length that is no block multiple. */
static void test_long_buffers(void **state)
{
	(void)state;
	arm_fault_report();
	const uint64_t lens[] = { (1u << 20) + 13, (3u << 20) + 255 };
	say_entries("long buffers");
	count_reset();
	/* (A quick run: the first only.) */
	const size_t nlens = test_quick() ? 1 : STOA_COUNT(lens);
	for (size_t l = 0; l < nlens; l++) {
		uint8_t *src = guard_alloc(lens[l], GUARD_BACK);
		uint8_t *dst = guard_alloc(lens[l], GUARD_BACK);
		test_fill_random(src, lens[l]);
		for (size_t i = 0; i < N_FNS; i++)
			check_forms(&prep[i], src, dst, lens[l], random_init(prep[i].f->width),
				    "ending at the guard page");
		guard_free(src, lens[l], GUARD_BACK);
		guard_free(dst, lens[l], GUARD_BACK);
	}
	count_say(nlens == 1 ? "long buffers (1 MiB + 13; quick)"
		              : "long buffers (1 MiB + 13, 3 MiB + 255)");
}

/* crc32_iscsi's path for data from DRAM (the folds alone after a timed first span, from 32 KiB
 * on), forced on buffers in cache: every form of every CRC against the reference at lengths
 * around the threshold and past it, at both guard pages. */
static void test_cold_path(void **state)
{
	(void)state;
	arm_fault_report();
	const uint64_t lens[] = { 32767, 32768, 32769, 33791, 33792 + 7, 65536 + 17, 40000 + 5 };
	static const int ends[] = { GUARD_BACK, GUARD_FRONT };
	count_reset();
	atomic_store(&stoa_cold_mode, STOA_COLD_ALWAYS);
	for (size_t e = 0; e < STOA_COUNT(ends); e++) {
		struct area a;
		area_open(&a, ends[e]);
		for (size_t l = 0; l < STOA_COUNT(lens); l++)
			for (size_t i = 0; i < N_FNS; i++)
				check_placed(&prep[i], &a, lens[l], 0,
				             ends[e] == GUARD_BACK
				                 ? "cold path, ending at the guard page"
				                 : "cold path, starting at the guard page");
		area_close(&a);
	}
	const uint64_t big = (1u << 20) + 13;
	uint8_t *src = guard_alloc(big, GUARD_BACK), *dst = guard_alloc(big, GUARD_BACK);
	test_fill_random(src, big);
	for (size_t i = 0; i < N_FNS; i++)
		check_forms(&prep[i], src, dst, big, random_init(prep[i].f->width),
		            "cold path, ending at the guard page");
	guard_free(src, big, GUARD_BACK);
	guard_free(dst, big, GUARD_BACK);
	atomic_store(&stoa_cold_mode, STOA_COLD_UNSET);
	count_say("the path for data from DRAM, forced (32 KiB - 1 .. 1 MiB + 13)");
}

/* With ISA-L's conventions a result is the state to continue from, for every function. */
static void test_chaining(void **state)
{
	(void)state;
	arm_fault_report();
	struct area a;
	area_open(&a, GUARD_BACK);
	say_entries("chaining crc(a||b) == crc(crc(a), b)");
	size_t checks = 0;
	for (size_t i = 0; i < N_FNS; i++) {
		const struct prepared *p = &prep[i];
		uint64_t mask = width_mask(p->f->width);
		for (int c = 0; c < 40; c++) {
			uint64_t len = c < 30 ? test_rand_below(4097) : test_rand_below(65537);
			uint8_t *src = place(a.src, a.where, len, 0);
			uint8_t *dst = place(a.dst, a.where, len, 0);
			uint64_t init = random_init(p->f->width);
			uint64_t cut1 = test_rand_below(len + 1);
			uint64_t cut2 = cut1 + test_rand_below(len - cut1 + 1);
			test_fill_random(src, len);
			for (size_t e = 0; e < p->n; e++) {
				uint64_t whole =
					call_entry(p, &p->e[e], init, src, len, dst) & mask;
				uint64_t r = call_entry(p, &p->e[e], init, src, cut1, dst);
				r = call_entry(p, &p->e[e], r, src + cut1, cut2 - cut1, dst + cut1);
				r = call_entry(p, &p->e[e], r, src + cut2, len - cut2, dst + cut2);
				checks++;
				if ((r & mask) != whole)
					TEST_FAIL("%s[%s] len=%" PRIu64 " cut at %" PRIu64
						  ",%" PRIu64 ": chained 0x%" PRIx64
						  ", whole 0x%" PRIx64 "\n",
						  p->f->name, p->e[e].label, len, cut1, cut2,
						  r & mask, whole);
				if (p->f->kind == K_T10DIF_COPY && len)
					assert_memory_equal(dst, src, len);
			}
		}
	}
	area_close(&a);
	print_message("chaining: %zu three-piece splits, all equal to the one-shot result\n",
		      checks);
}

/* crc16_t10dif_copy with both buffers at guard pages: an overread of src or an overwrite of dst
 * faults, the copy is exact and the result is crc16_t10dif's. */
static void test_t10dif_copy(void **state)
{
	(void)state;
	arm_fault_report();
	const struct prepared *p = &prep[fn_named("crc16_t10dif_copy") - crc_fns];
	const struct prepared *plain = &prep[fn_named("crc16_t10dif") - crc_fns];
	size_t checks = 0;
	for (int where = GUARD_BACK; where <= GUARD_FRONT; where++) {
		struct area a;
		area_open(&a, where);
		for (int c = 0; c < 400; c++) {
			uint64_t len = c <= 300 ? (uint64_t)c : random_len();
			uint8_t *src = place(a.src, where, len, 0);
			uint8_t *dst = place(a.dst, where, len, 0);
			uint16_t init = (uint16_t)random_init(16);
			test_fill_random(src, len);
			uint64_t want = call_variant(K_T10DIF, plain->base, init, src, len, NULL);
			for (size_t e = 0; e < p->n; e++) {
				memset(dst, 0xA5, len);
				uint64_t got = call_entry(p, &p->e[e], init, src, len, dst);
				checks++;
				if (got != want)
					TEST_FAIL("crc16_t10dif_copy[%s] len=%" PRIu64
						  ": 0x%04" PRIx64
						  ", crc16_t10dif gives 0x%04" PRIx64 "\n",
						  p->e[e].label, len, got, want);
				if (len && memcmp(dst, src, len) != 0)
					TEST_FAIL("crc16_t10dif_copy[%s] len=%" PRIu64
						  ": dst differs from src\n",
						  p->e[e].label, len);
			}
		}
		area_close(&a);
	}
	print_message("crc16_t10dif_copy: %zu calls with src and dst at guard pages (end, then "
		      "start): copies exact, results equal crc16_t10dif\n",
		      checks);
}

/* crc16_t10dif_copy on overlapping buffers behaves as memmove followed by a CRC of the original
 * source bytes, in both directions and at every short length (where copies are done in vector
 * registers) and a few long ones. */
static void test_t10dif_copy_overlap(void **state)
{
	(void)state;
	const struct prepared *p = &prep[fn_named("crc16_t10dif_copy") - crc_fns];
	const struct prepared *plain = &prep[fn_named("crc16_t10dif") - crc_fns];
	enum { SPAN = 4096 };
	static uint8_t area[2 * SPAN], want_area[2 * SPAN], orig[SPAN];
	size_t checks = 0;
	for (int c = 0; c < 700; c++) {
		uint64_t len = c < 600 ? (uint64_t)(c % 300) : 300 + test_rand_below(SPAN - 300);
		size_t shift = 1 + (size_t)test_rand_below(len + 8);
		int forward = c % 2; /* dst after src, or before it */
		size_t so = forward ? 0 : shift, dofs = forward ? shift : 0;
		uint16_t init = (uint16_t)random_init(16);
		for (size_t e = 0; e < p->n; e++) {
			test_fill_random(area, sizeof area);
			memcpy(want_area, area, sizeof area);
			memcpy(orig, area + so, len);
			memmove(want_area + dofs, want_area + so, len);
			uint64_t want = call_variant(K_T10DIF, plain->base, init, orig, len, NULL);
			uint64_t got = call_entry(p, &p->e[e], init, area + so, len, area + dofs);
			checks++;
			if (got != want)
				TEST_FAIL("crc16_t10dif_copy[%s] overlap len=%" PRIu64 " shift=%zu: 0x%04" PRIx64
					  ", want 0x%04" PRIx64 "\n",
					  p->e[e].label, len, shift, got, want);
			if (memcmp(area, want_area, sizeof area) != 0)
				TEST_FAIL("crc16_t10dif_copy[%s] overlap len=%" PRIu64
					  " shift=%zu: memory differs from memmove's\n",
					  p->e[e].label, len, shift);
		}
	}
	print_message("crc16_t10dif_copy: %zu overlapping calls (dst before and after src), memory "
		      "equal to memmove's, results the CRC of the original source\n",
		      checks);
}

/* Zero-length calls with NULL or with a pointer to an inaccessible page read nothing and return
 * init; crc32_iscsi treats a negative length the same way. */
static void test_bad_input(void **state)
{
	(void)state;
	arm_fault_report();
	uint8_t *noaccess = guard_alloc(0, GUARD_BACK); /* points at the PROT_NONE page */
	size_t checks = 0;
	for (size_t i = 0; i < N_FNS; i++) {
		const struct prepared *p = &prep[i];
		uint64_t mask = width_mask(p->f->width);
		uint64_t inits[] = { 0, mask, test_rand() & mask, 0x5a5a5a5a5a5a5a5aull & mask };
		for (size_t k = 0; k < STOA_COUNT(inits); k++) {
			for (size_t e = 0; e < p->n; e++) {
				uint64_t a =
					call_entry(p, &p->e[e], inits[k], NULL, 0, NULL) & mask;
				uint64_t b =
					call_entry(p, &p->e[e], inits[k], noaccess, 0, noaccess) &
					mask;
				checks += 2;
				if (a != inits[k] || b != inits[k])
					TEST_FAIL("%s[%s] len 0, init 0x%" PRIx64 ": 0x%" PRIx64
						  " (NULL), 0x%" PRIx64 " (no-access page)\n",
						  p->f->name, p->e[e].label, inits[k], a, b);
			}
		}
	}
	print_message("len 0: %zu calls (NULL and no-access pointers), each returned init\n",
		      checks);

	const struct stoa_variant *vs[8];
	const size_t nv = test_variants(test_func("crc32_iscsi"), vs, 5, NULL);
	typedef unsigned int iscsi_fn(unsigned char *, int, unsigned int);
	const int negative[] = { -1, -2, -9, -16, -64, -4096, INT_MIN };
	size_t neg = 0;
	for (size_t k = 0; k < STOA_COUNT(negative); k++) {
		unsigned int init = (unsigned int)test_rand();
		unsigned char *ptrs[] = { NULL, noaccess };
		for (size_t q = 0; q < 2; q++) {
			unsigned int got[8];
			size_t ng = 0;
			note_call("crc32_iscsi", "every form", (uint64_t)(int64_t)negative[k], init,
				  q ? "negative len, no-access page" : "negative len, NULL");
			for (size_t v = 0; v < nv; v++)
				got[ng++] = ((iscsi_fn *)vs[v]->fn)(ptrs[q], negative[k], init);
			got[ng++] = crc32_iscsi(ptrs[q], negative[k], init);
			got[ng++] = crc32_iscsi_base(ptrs[q], negative[k], init);
			for (size_t g = 0; g < ng; g++, neg++)
				if (got[g] != init)
					TEST_FAIL("crc32_iscsi form %zu, len %d, %s: 0x%08x, want "
						  "init 0x%08x\n",
						  g, negative[k], q ? "no-access page" : "NULL",
						  got[g], init);
		}
	}
	guard_free(noaccess, 0, GUARD_BACK);
	print_message("crc32_iscsi negative lengths: %zu calls (NULL and no-access pointers), each "
		      "returned init without reading\n",
		      neg);
}

/* zlib's crc32() is the same CRC as crc32_gzip_refl with the same chaining convention. */
static void test_zlib(void **state)
{
	(void)state;
	arm_fault_report();
	const struct prepared *p = &prep[fn_named("crc32_gzip_refl") - crc_fns];
	struct area a;
	area_open(&a, GUARD_BACK);
	size_t checks = 0;
	for (int c = 0; c < 300; c++) {
		uint64_t len = c < 100 ? (uint64_t)c * 7 % 601 : random_len();
		uint8_t *src = place(a.src, a.where, len, 0);
		uint32_t init = (uint32_t)random_init(32);
		test_fill_random(src, len);
		uint32_t want = (uint32_t)crc32(init, src, (uInt)len);
		/* zlib again, in random pieces: its own chaining, the other side's reference */
		uint32_t pieces = init;
		for (uint64_t off = 0; off < len;) {
			uint64_t n = 1 + test_rand_below(len - off);
			pieces = (uint32_t)crc32(pieces, src + off, (uInt)n);
			off += n;
		}
		assert_int_equal(pieces, want);
		for (size_t e = 0; e < p->n; e++) {
			uint32_t got = (uint32_t)call_entry(p, &p->e[e], init, src, len, NULL);
			uint64_t cut = test_rand_below(len + 1);
			uint32_t chained = (uint32_t)call_entry(p, &p->e[e], init, src, cut, NULL);
			chained = (uint32_t)call_entry(p, &p->e[e], chained, src + cut, len - cut,
						       NULL);
			checks++;
			if (got != want || chained != want)
				TEST_FAIL("crc32_gzip_refl[%s] len=%" PRIu64 " init=0x%08x: 0x%08x"
					  " (chained at %" PRIu64 ": 0x%08x), zlib 0x%08x\n",
					  p->e[e].label, len, init, got, cut, chained, want);
		}
	}
	area_close(&a);
	print_message("zlib crc32: %zu comparisons (one-shot and chained), all equal; zlib %s\n",
		      checks, zlibVersion());
}

/* inf_crc32_gzip_copy (inflate's stored blocks in gzip streams, copy_checks.h): every variant
 * this CPU can run returns the value of crc32_gzip_refl's base entry and of zlib's crc32, and
 * copies exactly, with the source and the destination each ending at an inaccessible page (then
 * starting right after one), a byte either side of the destination unchanged: lengths 0..1100,
 * around the engines' block sizes and their multiples up to 1 MiB, random lengths to 1 MiB, and
 * every pair of source and destination alignments 0..63. */
typedef uint32_t gzip_copy_fn(uint32_t, uint8_t *, const uint8_t *, uint64_t);

#define GZ_AREA ((1u << 20) + 128)

struct gz_copy {
	const struct stoa_variant *v[MAX_ENTRIES];
	size_t n;
	stoa_fnptr crc; /* crc32_gzip_refl's base entry */
	uint8_t *src, *dst;
	int where;
	size_t checks;
};

/* len bytes slack bytes away from the guard page of an area of GZ_AREA bytes. */
static uint8_t *gz_place(uint8_t *base, int where, uint64_t len, size_t slack)
{
	assert_true(len + slack <= GZ_AREA);
	return where == GUARD_BACK ? base + GZ_AREA - len - slack : base + slack;
}

static void gz_check(struct gz_copy *g, uint64_t len, size_t src_slack, size_t dst_slack)
{
	uint8_t *src = gz_place(g->src, g->where, len, src_slack);
	uint8_t *dst = gz_place(g->dst, g->where, len, dst_slack);
	const uint32_t init = (uint32_t)random_init(32);
	test_fill_random(src, len);
	const uint32_t want = (uint32_t)call_variant(K_CRC32, g->crc, init, src, len, NULL);
	if ((uint32_t)crc32(init, src, (uInt)len) != want)
		TEST_FAIL("crc32_gzip_refl base len=%" PRIu64 ": 0x%08x, zlib 0x%08x\n", len, want,
			  (uint32_t)crc32(init, src, (uInt)len));
	const uint8_t fill = len ? (uint8_t)~src[0] : 0x5a;
	const int before = dst > g->dst, after = dst + len < g->dst + GZ_AREA;
	for (size_t i = 0; i < g->n; i++) {
		memset(dst - before, fill, len + (size_t)before + (size_t)after);
		note_call("inf_crc32_gzip_copy", g->v[i]->name, len, init,
			  g->where == GUARD_BACK ? "ending at the guard page"
						 : "starting at the guard page");
		const uint32_t got = ((gzip_copy_fn *)g->v[i]->fn)(init, dst, src, len);
		g->checks++;
		const int same = len == 0 || memcmp(dst, src, len) == 0;
		const int kept = (!before || dst[-1] == fill) && (!after || dst[len] == fill);
		if (got != want || !same || !kept)
			TEST_FAIL("inf_crc32_gzip_copy[%s] len=%" PRIu64 " init=0x%08x src+%zu dst+%zu"
				  ": 0x%08x, crc32_gzip_refl 0x%08x; bytes %s, neighbours %s\n",
				  g->v[i]->name, len, init, src_slack, dst_slack, got, want,
				  same ? "equal" : "differ", kept ? "kept" : "written");
	}
}

static void test_gzip_copy(void **state)
{
	(void)state;
	arm_fault_report();
	struct gz_copy g = { .checks = 0 };
	g.n = test_variants(test_func("inf_crc32_gzip_copy"), g.v, MAX_ENTRIES, NULL);
	assert_true(g.n >= 1);
	assert_string_equal(g.v[g.n - 1]->name, "base");
	g.crc = prep[fn_named("crc32_gzip_refl") - crc_fns].base;
	static uint64_t lens[4096];
	size_t nl = block_edge_lengths(lens, STOA_COUNT(lens));
	static const int around[] = { -65, -64, -63, -17, -16, -15, -1, 0, 1, 15, 16, 17, 63, 64, 65 };
	for (uint64_t big = 3u << 15; big <= 1u << 20; big += big / 2)
		for (size_t d = 0; d < STOA_COUNT(around) && nl < STOA_COUNT(lens); d++)
			if ((int64_t)big + around[d] <= (int64_t)GZ_AREA)
				lens[nl++] = (uint64_t)((int64_t)big + around[d]);
	for (g.where = GUARD_BACK; g.where <= GUARD_FRONT; g.where++) {
		g.src = guard_alloc(GZ_AREA, g.where);
		g.dst = guard_alloc(GZ_AREA, g.where);
		for (uint64_t len = 0; len <= 1100; len++)
			gz_check(&g, len, 0, 0);
		for (size_t l = 0; l < nl; l++)
			gz_check(&g, lens[l], 0, 0);
		for (int c = 0; c < (test_quick() ? 20 : 100); c++)
			gz_check(&g, test_rand_below((1u << 20) + 1), test_rand_below(64),
				 test_rand_below(64));
		/* Every pair of alignments, the lengths short and medium where the tails live. */
		for (size_t a = 0; a < 64; a++)
			for (size_t b = 0; b < 64; b += test_quick() ? 7 : 1)
				gz_check(&g, test_rand_below(test_rand_below(4) ? 1100 : 66000), a, b);
		guard_free(g.src, GZ_AREA, g.where);
		guard_free(g.dst, GZ_AREA, g.where);
	}
	print_message("inf_crc32_gzip_copy: %zu calls of %zu variants (lengths 0..1100, %zu block "
		      "edges to 1 MiB, random lengths to 1 MiB, every pair of alignments; source and "
		      "destination at guard pages): values equal to crc32_gzip_refl and zlib, copies "
		      "exact\n",
		      g.checks, g.n, nl);
}

/* The sweep must reach what the differential is for: odd lengths, long ones, every alignment,
 * and copies that copied. */
static void check_sweep_coverage(const struct oracle_output *o)
{
	const char *pos = o->text;
	size_t len_line, lines = 0, odd = 0, long_ones = 0;
	unsigned long long max_len = 0, aligns = 0;
	const char *l;
	while ((l = oracle_next_line(&pos, &len_line, NULL))) {
		const char *p = strstr(l, " len=");
		const char *a = strstr(l, " align=");
		if (!p || !a || p > l + len_line || a > l + len_line)
			TEST_FAIL("malformed oracle line: %.*s\n", (int)len_line, l);
		unsigned long long n = strtoull(p + 5, NULL, 10);
		unsigned al = (unsigned)strtoul(a + 7, NULL, 10);
		lines++;
		odd += n & 1;
		long_ones += n > 32768;
		max_len = n > max_len ? n : max_len;
		aligns |= 1ull << (al & 63);
		const char *bad = strstr(l, "copy=BAD");
		if (bad && bad < l + len_line)
			TEST_FAIL("crc16_t10dif_copy did not copy: %.*s\n", (int)len_line, l);
	}
	print_message("oracle sweep: %zu calls, %zu odd lengths, %zu over 32 KiB (longest %llu), "
		      "%d of 64 alignments\n",
		      lines, odd, long_ones, max_len, __builtin_popcountll(aligns));
	assert_true(odd > lines / 4);
	assert_true(long_ones > lines / 8);
	assert_true(max_len > 60000);
	assert_int_equal(aligns, ~0ull);
}

/* Calls per function in each oracle run, and the functions both builds share (ISA-L 2.30 has no
 * crc64_rocksoft_*): 11 public, 11 _base, 6 _by8. */
#define ORACLE_COUNT 120
#define ORACLE_SHARED_FNS 28

static void test_isal_oracle(void **state)
{
	(void)state;
	struct oracle_output sys, ours;
	oracle_run("crc", ORACLE_SYSTEM, test_seed(), ORACLE_COUNT, &sys);
	oracle_run("crc", ORACLE_STOA, test_seed(), ORACLE_COUNT, &ours);
	size_t skipped;
	size_t n = oracle_compare("libisal", &sys, "stoa", &ours, "crc64_rocksoft", &skipped);
	print_message("Debian libisal vs stoa: %zu calls compared, identical; %zu crc64_rocksoft_* "
		      "calls not compared (libisal 2.30 lacks them)\n",
		      n, skipped);
	assert_int_equal(n, (size_t)ORACLE_SHARED_FNS * ORACLE_COUNT);
	assert_int_equal(skipped, (size_t)6 * ORACLE_COUNT);
	check_sweep_coverage(&ours);
	oracle_free(&sys);
	oracle_free(&ours);
}

static void test_compat_abi(void **state)
{
	(void)state;
	size_t n = oracle_check_compat("crc", test_seed(), ORACLE_COUNT);
	assert_int_equal(n, (size_t)ORACLE_SHARED_FNS * ORACLE_COUNT);
}

static int setup(void **state)
{
	(void)state;
	test_seed();
	prepare_all();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inventory),
		cmocka_unit_test(test_known_answers),
		cmocka_unit_test(test_bitwise_reference),
		cmocka_unit_test(test_all_short_lengths),
		cmocka_unit_test(test_iscsi_short_kernels),
		cmocka_unit_test(test_block_edges),
		cmocka_unit_test(test_random_lengths),
		cmocka_unit_test(test_every_alignment),
		cmocka_unit_test(test_front_guard),
		cmocka_unit_test(test_long_buffers),
		cmocka_unit_test(test_cold_path),
		cmocka_unit_test(test_chaining),
		cmocka_unit_test(test_t10dif_copy),
		cmocka_unit_test(test_t10dif_copy_overlap),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_zlib),
		cmocka_unit_test(test_gzip_copy),
		cmocka_unit_test(test_isal_oracle),
		cmocka_unit_test(test_compat_abi),
	};
	return TEST_MAIN("crc", tests, setup, NULL);
}
