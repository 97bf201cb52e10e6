/* Generates build/gen/crc_tables.c: for each CRC model of the API, the slice-by-8 tables and the
 * carry-less-multiply folding and Barrett constants (see struct crc_model in crc_internal.h).
 * Run at build time on the build host; nothing here is typed in by hand but the polynomials.
 *
 * Polynomials are handled in "engine form": degree 64, x^64 implicit, so a w-bit polynomial P is
 * stored as P << (64 - w). Folding math follows the carry-less multiplication method of Gopal et
 * al., "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction" (Intel, 2009). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

struct model {
	const char *name;
	int width;
	uint64_t poly; /* MSB-first, without the x^width term */
	int reflected;
};

static const struct model models[] = {
	{ "t10dif", 16, 0x8BB7, 0 },
	/* Not an API function: t10dif's polynomial reflected, for crc16_t10dif's combination
	 * (crc_combine.c). */
	{ "t10dif_refl", 16, 0x8BB7, 1 },
	{ "ieee", 32, 0x04C11DB7, 0 },
	{ "gzip", 32, 0x04C11DB7, 1 },
	{ "iscsi", 32, 0x1EDC6F41, 1 },
	{ "ecma_refl", 64, 0x42F0E1EBA9EA3693ull, 1 },
	{ "ecma_norm", 64, 0x42F0E1EBA9EA3693ull, 0 },
	{ "iso_refl", 64, 0x000000000000001Bull, 1 },
	{ "iso_norm", 64, 0x000000000000001Bull, 0 },
	{ "jones_refl", 64, 0xAD93D23594C935A9ull, 1 },
	{ "jones_norm", 64, 0xAD93D23594C935A9ull, 0 },
	{ "rocksoft_refl", 64, 0xAD93D23594C93659ull, 1 },
	{ "rocksoft_norm", 64, 0xAD93D23594C93659ull, 0 },
};

static uint64_t rev64(uint64_t v)
{
	uint64_t r = 0;
	for (int i = 0; i < 64; i++)
		r |= ((v >> i) & 1) << (63 - i);
	return r;
}

/* x^n mod P, P = x^64 + p. */
static uint64_t xpow_mod(unsigned n, uint64_t p)
{
	uint64_t r = 1;
	for (unsigned i = 0; i < n; i++)
		r = (r << 1) ^ ((r >> 63) ? p : 0);
	return r;
}

/* floor(x^n / P) for n <= 128, P = x^64 + p, by long division one dividend bit at a time. */
static u128 xpow_div(unsigned n, uint64_t p)
{
	u128 full = ((u128)1 << 64) | p, rem = 0, q = 0;
	for (int i = (int)n; i >= 0; i--) {
		rem = (rem << 1) | (u128)(i == (int)n);
		q <<= 1;
		if ((rem >> 64) & 1) {
			rem ^= full;
			q |= 1;
		}
	}
	return q;
}

/* Reflected fold pair moving a 128-bit chunk forward by d bits (see struct crc_model): the low
 * half, the first 64 message bits, takes rev(x^(d+63) mod P), the high half rev(x^(d-1) mod P). */
static void refl_fold_pair(unsigned d, uint64_t p, uint64_t pair[2])
{
	pair[0] = rev64(xpow_mod(d + 63, p));
	pair[1] = rev64(xpow_mod(d - 1, p));
}

/* a * b mod P for a w-bit P (MSB first, without x^w), both operands w-bit values in the reflected
 * order: bit w-1 holds x^0. */
static uint64_t refl_mul_mod(uint64_t a, uint64_t b, const struct model *m)
{
	const int w = m->width;
	uint64_t rpoly = rev64(m->poly) >> (64 - w), r = 0;
	for (int i = w - 1; i >= 0; i--) {
		if ((a >> i) & 1)
			r ^= b;
		b = (b >> 1) ^ ((b & 1) ? rpoly : 0);
	}
	return r;
}

static void print_u64s(FILE *f, const uint64_t *v, int n, const char *indent)
{
	for (int i = 0; i < n; i++)
		fprintf(f, "%s0x%016" PRIx64 "ull,%s", i % 4 ? "" : indent, v[i],
			i % 4 == 3 || i == n - 1 ? "\n" : " ");
}

static void emit(FILE *f, const struct model *m)
{
	uint64_t p = m->poly << (64 - m->width); /* engine form */
	uint64_t fold[16][2], fold64, barrett[2];
	static uint64_t slice[8][256];

	for (int i = 0; i < 16; i++) {
		unsigned d = 128 * (unsigned)(i + 1);
		if (m->reflected) {
			refl_fold_pair(d, p, fold[i]);
		} else {
			fold[i][0] = xpow_mod(d, p);
			fold[i][1] = xpow_mod(d + 64, p);
		}
	}
	if (m->reflected) {
		fold64 = rev64(xpow_mod(127, p));
		barrett[0] = rev64((uint64_t)xpow_div(127, p));
		barrett[1] = rev64((1ull << 63) | (p >> 1)); /* floor(P / x) */
	} else {
		fold64 = xpow_mod(128, p);
		barrett[0] = (uint64_t)xpow_div(128, p); /* the x^64 term drops off */
		barrett[1] = p;
	}

	/* slice[0][b]: the engine state after feeding byte b to a zero state. */
	uint64_t rp = rev64(p);
	for (int b = 0; b < 256; b++) {
		uint64_t c;
		if (m->reflected) {
			c = (uint64_t)b;
			for (int k = 0; k < 8; k++)
				c = (c >> 1) ^ ((c & 1) ? rp : 0);
		} else {
			c = (uint64_t)b << 56;
			for (int k = 0; k < 8; k++)
				c = (c << 1) ^ ((c >> 63) ? p : 0);
		}
		slice[0][b] = c;
	}
	for (int t = 1; t < 8; t++) {
		for (int b = 0; b < 256; b++) {
			uint64_t c = slice[t - 1][b];
			slice[t][b] = m->reflected ? (c >> 8) ^ slice[0][c & 0xff]
						   : (c << 8) ^ slice[0][c >> 56];
		}
	}

	fprintf(f, "\n/* %s: %d-bit, polynomial 0x%" PRIx64 ", %s */\n", m->name, m->width, m->poly,
		m->reflected ? "reflected" : "MSB first");
	fprintf(f, "const struct crc_model crc_model_%s = {\n", m->name);
	fprintf(f, "\t.fold = {\n");
	for (int i = 0; i < 16; i++)
		fprintf(f, "\t\t{ 0x%016" PRIx64 "ull, 0x%016" PRIx64 "ull },\n", fold[i][0],
			fold[i][1]);
	fprintf(f, "\t},\n\t.fold_lanes = {\n");
	for (int i = 6; i >= 0; i--)
		fprintf(f, "\t\t{ 0x%016" PRIx64 "ull, 0x%016" PRIx64 "ull },\n", fold[i][0],
			fold[i][1]);
	fprintf(f, "\t\t{ 0, 0 },\n\t},\n\t.fold_lanes64 = {\n");
	for (int i = 7; i >= 0; i--) {
		unsigned d = 128 * (unsigned)i + 64;
		uint64_t a = m->reflected ? rev64(xpow_mod(d + 63, p)) : xpow_mod(d, p);
		uint64_t b = m->reflected ? rev64(xpow_mod(d - 1, p)) : xpow_mod(d + 64, p);
		fprintf(f, "\t\t{ 0x%016" PRIx64 "ull, 0x%016" PRIx64 "ull },\n", a, b);
	}
	fprintf(f, "\t},\n");
	fprintf(f, "\t.fold64 = 0x%016" PRIx64 "ull,\n", fold64);
	fprintf(f, "\t.barrett = { 0x%016" PRIx64 "ull, 0x%016" PRIx64 "ull },\n", barrett[0],
		barrett[1]);
	fprintf(f, "\t.barrett_q = 0x%016" PRIx64 "ull,\n", (p & 1) ? ~(uint64_t)0 : 0);
	fprintf(f, "\t.slice = {\n");
	for (int t = 0; t < 8; t++) {
		fprintf(f, "\t\t{\n");
		print_u64s(f, slice[t], 256, "\t\t\t");
		fprintf(f, "\t\t},\n");
	}
	fprintf(f, "\t},\n");
	if (m->reflected) {
		uint64_t x8n[64], e = 1ull << (m->width - 9); /* x^8 */
		for (int k = 0; k < 64; k++) {
			x8n[k] = e;
			e = refl_mul_mod(e, e, m);
		}
		fprintf(f, "\t.x8n = {\n");
		print_u64s(f, x8n, 64, "\t\t");
		fprintf(f, "\t},\n");
	}
	fprintf(f, "};\n");
}

/*
 * Constants of the CRC32C hybrid kernel, crc/x86/crc32_iscsi_vpclmul.c (struct
 * crc32c_hybrid_consts). Its shape, repeated from crc_internal.h, which the output checks:
 */
#define CRC32C_STREAMS 4
#define CRC32C_STREAM_WORDS 4
#define CRC32C_MAX_STEPS 32
#define CRC32C_MAX_CHUNKS 32
#define CRC32C_SHORT_MAX 1536

/* A stream's 32-bit state is the low word of a chunk starting where the stream ends. With streams
 * of len bytes each, stream j ends (streams - 1 - j) len bytes before the last one, which ends
 * `after` bytes before the chunk that receives the states, in lane j. Lane j's low word of out
 * is the low half of the fold pair over stream j's distance; its high word stays zero. */
static void stream_lanes(uint64_t out[8], uint64_t p, unsigned len, unsigned after)
{
	for (unsigned j = 0; j < CRC32C_STREAMS; j++) {
		uint64_t pair[2];
		refl_fold_pair(8 * ((CRC32C_STREAMS - 1 - j) * len + after + 16 * j), p, pair);
		out[2 * j] = pair[0];
	}
}

static void emit_rows(FILE *f, const char *field, const uint64_t (*rows)[8], unsigned count)
{
	fprintf(f, "\t.%s = {\n", field);
	for (unsigned r = 0; r < count; r++) {
		fprintf(f, "\t\t{\n");
		print_u64s(f, rows[r], 8, "\t\t\t");
		fprintf(f, "\t\t},\n");
	}
	fprintf(f, "\t},\n");
}

static void emit_crc32c_hybrid(FILE *f, const struct model *m)
{
	uint64_t p = m->poly << (64 - m->width); /* engine form */
	const unsigned step = 256, words = 8 * CRC32C_STREAM_WORDS;
	static uint64_t tail[CRC32C_MAX_CHUNKS][8], inject[CRC32C_MAX_STEPS + 1][8];
	static uint64_t gap[CRC32C_MAX_STEPS + 1][2];

	/* Lane i of the chunk t before the last moves 64 t + 16 (3 - i) bytes; the last stays. */
	for (unsigned t = 0; t < CRC32C_MAX_CHUNKS; t++)
		for (unsigned i = 0; i < 4; i++)
			if (t || i < 3)
				refl_fold_pair(8 * (64 * t + 16 * (3 - i)), p, &tail[t][2 * i]);
	/* In an n-step block the last stream ends 256 (n - 1) bytes before the first accumulator's
	 * place after the last step. */
	for (unsigned n = 1; n <= CRC32C_MAX_STEPS; n++)
		stream_lanes(inject[n], p, words * n, step * (n - 1));
	for (unsigned n = 1; n <= CRC32C_MAX_STEPS; n++)
		refl_fold_pair(8 * (step + CRC32C_STREAMS * words * n), p, gap[n]);

	fprintf(f, "\n/* CRC32C hybrid kernel: %d streams of %d words a step, blocks of up to %d "
		   "steps */\n",
		CRC32C_STREAMS, CRC32C_STREAM_WORDS, CRC32C_MAX_STEPS);
	fprintf(f, "_Static_assert(CRC32C_STREAMS == %d && CRC32C_STREAM_WORDS == %d &&\n"
		   "\t       CRC32C_MAX_STEPS == %d && CRC32C_MAX_CHUNKS == %d &&\n"
		   "\t       CRC32C_SHORT_MAX == %d,\n"
		   "\t       \"crc_gen.c and crc_internal.h disagree on the CRC32C shape\");\n",
		CRC32C_STREAMS, CRC32C_STREAM_WORDS, CRC32C_MAX_STEPS, CRC32C_MAX_CHUNKS,
		CRC32C_SHORT_MAX);
	fprintf(f, "const struct crc32c_hybrid_consts crc32c_hybrid = {\n");
	emit_rows(f, "tail", tail, CRC32C_MAX_CHUNKS);
	emit_rows(f, "inject", inject, CRC32C_MAX_STEPS + 1);
	fprintf(f, "\t.gap = {\n");
	for (unsigned n = 0; n <= CRC32C_MAX_STEPS; n++)
		fprintf(f, "\t\t{ 0x%016" PRIx64 "ull, 0x%016" PRIx64 "ull },\n", gap[n][0],
			gap[n][1]);
	fprintf(f, "\t},\n};\n");
}

/*
 * Constants of the three-stream crc32-instruction kernels (struct crc32_stream_consts), for the
 * reflected 32-bit models with such an instruction. The stream sizes, repeated from
 * crc_internal.h, which the output checks:
 */
#define CRC32_STREAM_SIZES 3
static const unsigned stream_bytes[CRC32_STREAM_SIZES] = { 1024, 256, 64 };

/* x^n mod P as a 32-bit value in the reflected order (bit 31 holds x^0), P of width 32. */
static uint32_t refl32_xpow(unsigned n, const struct model *m)
{
	uint64_t p = m->poly << 32; /* engine form: x^(n+32) mod (P x^32) is (x^n mod P) x^32 */
	return (uint32_t)(rev64(xpow_mod(n + 32, p) >> 32) >> 32);
}

static void emit_crc32_streams(FILE *f, const struct model *m)
{
	fprintf(f, "\n/* %s: three-stream crc32 kernels, streams of %u, %u and %u bytes */\n",
		m->name, stream_bytes[0], stream_bytes[1], stream_bytes[2]);
	fprintf(f, "_Static_assert(CRC32_STREAM_SIZES == %d && CRC32_STREAM_BYTES(0) == %u &&\n"
		   "\t       CRC32_STREAM_BYTES(1) == %u && CRC32_STREAM_BYTES(2) == %u,\n"
		   "\t       \"crc_gen.c and crc_internal.h disagree on the stream sizes\");\n",
		CRC32_STREAM_SIZES, stream_bytes[0], stream_bytes[1], stream_bytes[2]);
	fprintf(f, "const struct crc32_stream_consts crc32_streams_%s = {\n\t.k = {\n", m->name);
	/* A state crossing d bytes is state * x^(8d); the carry-less product and the crc32 of it
	 * add x^33 between them. */
	for (int i = 0; i < CRC32_STREAM_SIZES; i++)
		fprintf(f, "\t\t{ 0x%08" PRIx32 ", 0x%08" PRIx32 " },\n",
			refl32_xpow(16 * stream_bytes[i] - 33, m),
			refl32_xpow(8 * stream_bytes[i] - 33, m));
	fprintf(f, "\t},\n};\n");
}

/*
 * Constants of the x86 CRC32C stream kernel (struct crc32c_x86_consts), its shape repeated from
 * crc_internal.h, which the output checks.
 */
#define CRC32C_X86_STREAMS 6
#define CRC32C_X86_MAX_WORDS 256

static void emit_crc32c_x86(FILE *f, const struct model *m)
{
	const unsigned count = CRC32C_X86_STREAMS * CRC32C_X86_MAX_WORDS + 1;
	fprintf(f, "\n/* %s: crc32 streams on x86, %d of up to %d words */\n", m->name,
		CRC32C_X86_STREAMS, CRC32C_X86_MAX_WORDS);
	fprintf(f, "_Static_assert(CRC32C_X86_STREAMS == %d && CRC32C_X86_MAX_WORDS == %d,\n"
		   "\t       \"crc_gen.c and crc_internal.h disagree on the x86 CRC32C streams\");\n",
		CRC32C_X86_STREAMS, CRC32C_X86_MAX_WORDS);
	/* Only the x86-64 kernel reads it: other targets leave its 6 KiB out. */
	fprintf(f, "#ifdef __x86_64__\n");
	fprintf(f, "const struct crc32c_x86_consts crc32c_x86 = {\n\t.pow = {\n\t\t0,");
	for (unsigned i = 1; i < count; i++)
		fprintf(f, "%s0x%08" PRIx32 ",", i % 6 == 0 ? "\n\t\t" : " ",
			refl32_xpow(64 * i - 33, m));
	fprintf(f, "\n\t},\n};\n#endif\n");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTPUT.c\n", argv[0]);
		return 2;
	}
	FILE *f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	fprintf(f, "/* Generated by crc/gen/crc_gen.c; do not edit. */\n#include \"crc_internal.h\"\n");
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		emit(f, &models[i]);
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (!strcmp(models[i].name, "iscsi"))
			emit_crc32c_hybrid(f, &models[i]);
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (!strcmp(models[i].name, "iscsi") || !strcmp(models[i].name, "gzip"))
			emit_crc32_streams(f, &models[i]);
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (!strcmp(models[i].name, "iscsi"))
			emit_crc32c_x86(f, &models[i]);
	if (fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
