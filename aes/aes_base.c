/* Portable AES and XTS-AES, constant-time, for any architecture.
 *
 * No table is indexed by secret data and no branch depends on it: the S-box is the Boyar-Peralta
 * circuit of XORs and ANDs evaluated on bit planes ("bitsliced"), so the running time and the
 * memory addresses touched depend only on the length. Keys, tweaks and data only ever flow
 * through logic instructions, shifts by constant amounts and loads/stores at public addresses.
 *
 * Bitsliced state: four blocks at once in eight 64-bit words, q[i] holding bit i of all 64
 * bytes. Byte r of column c of block b (FIPS-197 s[r][c], input byte 4c + r) sits at bit
 * 16r + 4c + b: each state row is a 16-bit field, each column a nibble of it, each block one bit
 * of the nibble. ShiftRows is then a nibble rotation inside each field and MixColumns a rotation
 * of whole fields, so both are a few shifts and masks per plane. */
#include <string.h>

#include "aes_internal.h"

void aes_wipe(void *p, size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
	memset(p, 0, n);
	/* The compiler has to assume the asm reads the buffer, so the stores above stay. */
	__asm__ __volatile__("" : : "r"(p) : "memory");
#else
	volatile uint8_t *v = p;
	while (n--)
		*v++ = 0;
#endif
}

/* Not inlined, so its buffer is a frame of its own below the caller's. */
AES_NOINLINE void aes_burn_stack(size_t n)
{
	uint8_t stack[AES_BURN_MAX];
	/* The end of the array is the part nearest the caller's frame. */
	aes_wipe(stack + sizeof(stack) - n, n);
}

static uint32_t load32le(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store32le(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint64_t load64le(const uint8_t *p)
{
	return (uint64_t)load32le(p) | (uint64_t)load32le(p + 4) << 32;
}

static void store64le(uint8_t *p, uint64_t v)
{
	store32le(p, (uint32_t)v);
	store32le(p + 4, (uint32_t)(v >> 32));
}

/* ---- packing: 64 bytes <-> eight bit planes ---- */

/* Exchanges the bits of b selected by mask with the bits of a selected by mask << n. */
static void swapmove(uint64_t *a, uint64_t *b, uint64_t mask, unsigned n)
{
	uint64_t t = ((*a >> n) ^ *b) & mask;
	*b ^= t;
	*a ^= t << n;
}

/* In each byte lane, transposes the 8x8 bit matrix whose rows are the eight words: afterwards
 * bit j of lane l of w[k] is what bit k of lane l of w[j] was. Its own inverse. */
static void transpose_lanes(uint64_t w[8])
{
	for (int i = 0; i < 8; i += 2)
		swapmove(&w[i], &w[i + 1], 0x5555555555555555ull, 1);
	for (int i = 0; i < 8; i += 4) {
		swapmove(&w[i], &w[i + 2], 0x3333333333333333ull, 2);
		swapmove(&w[i + 1], &w[i + 3], 0x3333333333333333ull, 2);
	}
	for (int i = 0; i < 4; i++)
		swapmove(&w[i], &w[i + 4], 0x0F0F0F0F0F0F0F0Full, 4);
}

/* Byte k of x to byte 2k of the result, and back. */
static uint64_t spread_bytes(uint32_t x)
{
	uint64_t v = x;
	v = (v | v << 16) & 0x0000FFFF0000FFFFull;
	return (v | v << 8) & 0x00FF00FF00FF00FFull;
}

static uint32_t gather_bytes(uint64_t v)
{
	v &= 0x00FF00FF00FF00FFull;
	v = (v | v >> 8) & 0x0000FFFF0000FFFFull;
	return (uint32_t)(v | v >> 16);
}

/* Word 4p + b before the transposition interleaves columns p and p + 2 of block b, row by row.
 * Its lane 2r + h is then byte r of column 2h + p, and the transposition puts that byte's bits
 * at 8 (2r + h) + 4p + b = 16r + 4c + b, the layout described at the top. */
static void bs_load(uint64_t q[8], const uint8_t *blocks)
{
	for (int b = 0; b < 4; b++) {
		const uint8_t *p = blocks + AES_BLOCK * b;
		q[b] = spread_bytes(load32le(p)) | spread_bytes(load32le(p + 8)) << 8;
		q[4 + b] = spread_bytes(load32le(p + 4)) | spread_bytes(load32le(p + 12)) << 8;
	}
	transpose_lanes(q);
}

static void bs_store(uint8_t *blocks, uint64_t q[8])
{
	transpose_lanes(q);
	for (int b = 0; b < 4; b++) {
		uint8_t *p = blocks + AES_BLOCK * b;
		store32le(p, gather_bytes(q[b]));
		store32le(p + 8, gather_bytes(q[b] >> 8));
		store32le(p + 4, gather_bytes(q[4 + b]));
		store32le(p + 12, gather_bytes(q[4 + b] >> 8));
	}
}

/* ---- the round functions on bit planes ---- */

/* The AES S-box on every byte at once: the 113-gate circuit of J. Boyar and R. Peralta, "A new
 * combinational logic minimization technique with applications to cryptology" (SEA 2010), a
 * linear layer into the tower field, a 32-AND inversion, and a linear layer back that includes
 * the affine map. The circuit numbers input bits from the most significant: U0 is bit 7. */
static void sub_bytes(uint64_t q[8])
{
	const uint64_t u0 = q[7], u1 = q[6], u2 = q[5], u3 = q[4];
	const uint64_t u4 = q[3], u5 = q[2], u6 = q[1], u7 = q[0];

	const uint64_t t1 = u0 ^ u3, t2 = u0 ^ u5, t3 = u0 ^ u6, t4 = u3 ^ u5, t5 = u4 ^ u6;
	const uint64_t t6 = t1 ^ t5, t7 = u1 ^ u2, t8 = u7 ^ t6, t9 = u7 ^ t7, t10 = t6 ^ t7;
	const uint64_t t11 = u1 ^ u5, t12 = u2 ^ u5, t13 = t3 ^ t4, t14 = t6 ^ t11, t15 = t5 ^ t11;
	const uint64_t t16 = t5 ^ t12, t17 = t9 ^ t16, t18 = u3 ^ u7, t19 = t7 ^ t18;
	const uint64_t t20 = t1 ^ t19, t21 = u6 ^ u7, t22 = t7 ^ t21, t23 = t2 ^ t22;
	const uint64_t t24 = t2 ^ t10, t25 = t20 ^ t17, t26 = t3 ^ t16, t27 = t1 ^ t12;

	const uint64_t m1 = t13 & t6, m2 = t23 & t8, m3 = t14 ^ m1, m4 = t19 & u7, m5 = m4 ^ m1;
	const uint64_t m6 = t3 & t16, m7 = t22 & t9, m8 = t26 ^ m6, m9 = t20 & t17, m10 = m9 ^ m6;
	const uint64_t m11 = t1 & t15, m12 = t4 & t27, m13 = m12 ^ m11, m14 = t2 & t10;
	const uint64_t m15 = m14 ^ m11, m16 = m3 ^ m2, m17 = m5 ^ t24, m18 = m8 ^ m7;
	const uint64_t m19 = m10 ^ m15, m20 = m16 ^ m13, m21 = m17 ^ m15, m22 = m18 ^ m13;
	const uint64_t m23 = m19 ^ t25, m24 = m22 ^ m23, m25 = m22 & m20, m26 = m21 ^ m25;
	const uint64_t m27 = m20 ^ m21, m28 = m23 ^ m25, m29 = m28 & m27, m30 = m26 & m24;
	const uint64_t m31 = m20 & m23, m32 = m27 & m31, m33 = m27 ^ m25, m34 = m21 & m22;
	const uint64_t m35 = m24 & m34, m36 = m24 ^ m25, m37 = m21 ^ m29, m38 = m32 ^ m33;
	const uint64_t m39 = m23 ^ m30, m40 = m35 ^ m36, m41 = m38 ^ m40, m42 = m37 ^ m39;
	const uint64_t m43 = m37 ^ m38, m44 = m39 ^ m40, m45 = m42 ^ m41;
	const uint64_t m46 = m44 & t6, m47 = m40 & t8, m48 = m39 & u7, m49 = m43 & t16;
	const uint64_t m50 = m38 & t9, m51 = m37 & t17, m52 = m42 & t15, m53 = m45 & t27;
	const uint64_t m54 = m41 & t10, m55 = m44 & t13, m56 = m40 & t23, m57 = m39 & t19;
	const uint64_t m58 = m43 & t3, m59 = m38 & t22, m60 = m37 & t20, m61 = m42 & t1;
	const uint64_t m62 = m45 & t4, m63 = m41 & t2;

	const uint64_t l0 = m61 ^ m62, l1 = m50 ^ m56, l2 = m46 ^ m48, l3 = m47 ^ m55;
	const uint64_t l4 = m54 ^ m58, l5 = m49 ^ m61, l6 = m62 ^ l5, l7 = m46 ^ l3;
	const uint64_t l8 = m51 ^ m59, l9 = m52 ^ m53, l10 = m53 ^ l4, l11 = m60 ^ l2;
	const uint64_t l12 = m48 ^ m51, l13 = m50 ^ l0, l14 = m52 ^ m61, l15 = m55 ^ l1;
	const uint64_t l16 = m56 ^ l0, l17 = m57 ^ l1, l18 = m58 ^ l8, l19 = m63 ^ l4;
	const uint64_t l20 = l0 ^ l1, l21 = l1 ^ l7, l22 = l3 ^ l12, l23 = l18 ^ l2;
	const uint64_t l24 = l15 ^ l9, l25 = l6 ^ l10, l26 = l7 ^ l9, l27 = l8 ^ l10;
	const uint64_t l28 = l11 ^ l14, l29 = l11 ^ l17;

	q[7] = l6 ^ l24;
	q[6] = ~(l16 ^ l26);
	q[5] = ~(l19 ^ l28);
	q[4] = l6 ^ l21;
	q[3] = l20 ^ l22;
	q[2] = l25 ^ l29;
	q[1] = ~(l13 ^ l27);
	q[0] = ~(l6 ^ l23);
}

/* The inverse of the S-box's affine map, y -> L^-1 (y ^ 0x63): bit i of the result is
 * y[i+2] ^ y[i+5] ^ y[i+7] (indices mod 8), then 0x05 is added. */
static void inv_affine(uint64_t q[8])
{
	uint64_t r[8];
	for (int i = 0; i < 8; i++)
		r[i] = q[(i + 2) & 7] ^ q[(i + 5) & 7] ^ q[(i + 7) & 7];
	r[0] = ~r[0];
	r[2] = ~r[2];
	memcpy(q, r, sizeof(r));
}

/* S(x) = A(inv(x)) with A affine, so inv(A^-1(y)), the inverse S-box, equals A^-1(S(A^-1(y))):
 * the forward circuit between two inverse affine maps. */
static void inv_sub_bytes(uint64_t q[8])
{
	inv_affine(q);
	sub_bytes(q);
	inv_affine(q);
}

/* Row r's field rotated right by 4r bits: new column c is old column c + r. */
static uint64_t shift_rows_plane(uint64_t x)
{
	return (x & 0x000000000000FFFFull) | ((x >> 4) & 0x000000000FFF0000ull) |
	       ((x << 12) & 0x00000000F0000000ull) | ((x >> 8) & 0x000000FF00000000ull) |
	       ((x << 8) & 0x0000FF0000000000ull) | ((x >> 12) & 0x000F000000000000ull) |
	       ((x << 4) & 0xFFF0000000000000ull);
}

static uint64_t inv_shift_rows_plane(uint64_t x)
{
	return (x & 0x000000000000FFFFull) | ((x << 4) & 0x00000000FFF00000ull) |
	       ((x >> 12) & 0x00000000000F0000ull) | ((x >> 8) & 0x000000FF00000000ull) |
	       ((x << 8) & 0x0000FF0000000000ull) | ((x >> 4) & 0x0FFF000000000000ull) |
	       ((x << 12) & 0xF000000000000000ull);
}

static void shift_rows(uint64_t q[8])
{
	for (int i = 0; i < 8; i++)
		q[i] = shift_rows_plane(q[i]);
}

static void inv_shift_rows(uint64_t q[8])
{
	for (int i = 0; i < 8; i++)
		q[i] = inv_shift_rows_plane(q[i]);
}

/* Field r of the result is field r + k of x: row r sees row r + k of the same column. */
static uint64_t rows_up(uint64_t x, unsigned k)
{
	return x >> (16 * k) | x << (64 - 16 * k);
}

/* Multiplication by x in GF(2^8) mod x^8 + x^4 + x^3 + x + 1, plane-wise: the top bit
 * re-enters at bits 0, 1, 3 and 4. */
static void xtime(uint64_t d[8], const uint64_t s[8])
{
	const uint64_t top = s[7];
	d[7] = s[6];
	d[6] = s[5];
	d[5] = s[4];
	d[4] = s[3] ^ top;
	d[3] = s[2] ^ top;
	d[2] = s[1];
	d[1] = s[0] ^ top;
	d[0] = top;
}

/* out_r = 2 a_r + 3 a_(r+1) + a_(r+2) + a_(r+3) = 2 (a_r + a_(r+1)) + a_(r+1) + (a_(r+2) +
 * a_(r+3)), with t_r = a_r + a_(r+1) used twice. */
static void mix_columns(uint64_t q[8])
{
	uint64_t t[8], t2[8];
	for (int i = 0; i < 8; i++)
		t[i] = q[i] ^ rows_up(q[i], 1);
	xtime(t2, t);
	for (int i = 0; i < 8; i++)
		q[i] = t2[i] ^ rows_up(q[i], 1) ^ rows_up(t[i], 2);
}

/* InvMixColumns is MixColumns after the circulant (5, 0, 4, 0): a_r += 4 (a_r + a_(r+2)). */
static void inv_mix_columns(uint64_t q[8])
{
	uint64_t u[8], u2[8], u4[8];
	for (int i = 0; i < 8; i++)
		u[i] = q[i] ^ rows_up(q[i], 2);
	xtime(u2, u);
	xtime(u4, u2);
	for (int i = 0; i < 8; i++)
		q[i] ^= u4[i];
	mix_columns(q);
}

static void add_round_key(uint64_t q[8], const uint64_t k[8])
{
	for (int i = 0; i < 8; i++)
		q[i] ^= k[i];
}

/* A byte schedule as bit planes, each round key repeated in all four block positions. */
struct bs_schedule {
	uint64_t rk[AES_MAX_ROUNDS + 1][8];
	int rounds;
};

static void bs_schedule_load(struct bs_schedule *s, const uint8_t *sched, int rounds)
{
	uint8_t four[4 * AES_BLOCK];
	s->rounds = rounds;
	for (int r = 0; r <= rounds; r++) {
		for (int b = 0; b < 4; b++)
			memcpy(four + AES_BLOCK * b, sched + AES_BLOCK * r, AES_BLOCK);
		bs_load(s->rk[r], four);
	}
	aes_wipe(four, sizeof(four));
}

static void bs_encrypt(uint64_t q[8], const struct bs_schedule *s)
{
	add_round_key(q, s->rk[0]);
	for (int r = 1; r < s->rounds; r++) {
		sub_bytes(q);
		shift_rows(q);
		mix_columns(q);
		add_round_key(q, s->rk[r]);
	}
	sub_bytes(q);
	shift_rows(q);
	add_round_key(q, s->rk[s->rounds]);
}

/* The equivalent inverse cipher (FIPS-197 5.3.5), so it takes isa-l_crypto's decryption
 * schedule as it is. */
static void bs_decrypt(uint64_t q[8], const struct bs_schedule *s)
{
	add_round_key(q, s->rk[0]);
	for (int r = 1; r < s->rounds; r++) {
		inv_sub_bytes(q);
		inv_shift_rows(q);
		inv_mix_columns(q);
		add_round_key(q, s->rk[r]);
	}
	inv_sub_bytes(q);
	inv_shift_rows(q);
	add_round_key(q, s->rk[s->rounds]);
}

/* Up to four blocks through the cipher in place; the unused lanes carry zeros. */
static void bs_crypt(const struct bs_schedule *s, int decrypt, uint8_t *blocks, size_t n)
{
	uint8_t lanes[4 * AES_BLOCK] = { 0 };
	uint64_t q[8];
	memcpy(lanes, blocks, n * AES_BLOCK);
	bs_load(q, lanes);
	if (decrypt)
		bs_decrypt(q, s);
	else
		bs_encrypt(q, s);
	bs_store(lanes, q);
	memcpy(blocks, lanes, n * AES_BLOCK);
	aes_wipe(lanes, sizeof(lanes));
	aes_wipe(q, sizeof(q));
}

static void blocks_portable(const uint8_t *sched, int rounds, int decrypt, const uint8_t *in,
			    uint8_t *out, size_t blocks)
{
	struct bs_schedule s;
	uint8_t buf[4 * AES_BLOCK];
	bs_schedule_load(&s, sched, rounds);
	while (blocks) {
		size_t n = blocks < 4 ? blocks : 4;
		memcpy(buf, in, n * AES_BLOCK);
		bs_crypt(&s, decrypt, buf, n);
		memcpy(out, buf, n * AES_BLOCK);
		in += n * AES_BLOCK;
		out += n * AES_BLOCK;
		blocks -= n;
	}
	aes_wipe(&s, sizeof(s));
	aes_wipe(buf, sizeof(buf));
}

void aes_encrypt_blocks_portable(const uint8_t *exp_key_enc, int rounds, const uint8_t *in,
				 uint8_t *out, size_t blocks)
{
	blocks_portable(exp_key_enc, rounds, 0, in, out, blocks);
}

void aes_decrypt_blocks_portable(const uint8_t *exp_key_dec, int rounds, const uint8_t *in,
				 uint8_t *out, size_t blocks)
{
	blocks_portable(exp_key_dec, rounds, 1, in, out, blocks);
}

/* ---- key expansion ---- */

/* SubWord through the bitsliced circuit: the four bytes become four bits of each plane. */
static uint32_t sub_word(uint32_t w)
{
	uint64_t q[8];
	for (int i = 0; i < 8; i++) {
		q[i] = 0;
		for (int j = 0; j < 4; j++)
			q[i] |= (uint64_t)((w >> (8 * j + i)) & 1) << j;
	}
	sub_bytes(q);
	uint32_t r = 0;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 4; j++)
			r |= (uint32_t)((q[i] >> j) & 1) << (8 * j + i);
	aes_wipe(q, sizeof(q));
	return r;
}

static uint8_t gf_double(uint8_t x)
{
	return (uint8_t)((x << 1) ^ (0x1b & -(x >> 7)));
}

/* InvMixColumns of one 16-byte round key: each column times the circulant (14, 11, 13, 9). */
static void inv_mix_key(uint8_t *dst, const uint8_t *src)
{
	for (int c = 0; c < 4; c++) {
		const uint8_t *a = src + 4 * c;
		for (int r = 0; r < 4; r++) {
			const uint8_t a0 = a[r], a1 = a[(r + 1) & 3];
			const uint8_t a2 = a[(r + 2) & 3], a3 = a[(r + 3) & 3];
			uint8_t m0 = gf_double(gf_double(a0 ^ a2)) ^ a0;
			uint8_t m1 = gf_double(gf_double(a1 ^ a3)) ^ a1;
			uint8_t m2 = gf_double(gf_double(a2 ^ a0)) ^ a2;
			uint8_t m3 = gf_double(gf_double(a3 ^ a1)) ^ a3;
			/* MixColumns row r of (m0 m1 m2 m3). */
			dst[4 * c + r] = gf_double(m0 ^ m1) ^ m1 ^ m2 ^ m3;
		}
	}
}

void aes_expand_key_portable(const uint8_t *key, int nk, uint8_t *exp_key_enc,
			     uint8_t *exp_key_dec)
{
	uint32_t w[4 * (AES_MAX_ROUNDS + 1)] = { 0 };
	uint8_t enc[AES_SCHED_BYTES(AES_MAX_ROUNDS)];
	const int rounds = nk + 6, words = 4 * (rounds + 1);
	uint32_t rcon = 1;

	for (int i = 0; i < nk; i++)
		w[i] = load32le(key + 4 * i);
	/* Little-endian words: RotWord is a rotation right by one byte, Rcon goes in the low byte.
	 * Which words take SubWord depends on the position only, not on the key. */
	for (int i = nk; i < words; i++) {
		uint32_t t = w[i - 1];
		if (i % nk == 0) {
			t = sub_word(t >> 8 | t << 24) ^ rcon;
			rcon = gf_double((uint8_t)rcon);
		} else if (nk > 6 && i % nk == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	for (int i = 0; i < words; i++)
		store32le(enc + 4 * i, w[i]);

	if (exp_key_enc)
		memcpy(exp_key_enc, enc, AES_SCHED_BYTES(rounds));
	if (exp_key_dec) {
		memcpy(exp_key_dec, enc + AES_BLOCK * rounds, AES_BLOCK);
		for (int r = 1; r < rounds; r++)
			inv_mix_key(exp_key_dec + AES_BLOCK * r, enc + AES_BLOCK * (rounds - r));
		memcpy(exp_key_dec + AES_BLOCK * rounds, enc, AES_BLOCK);
	}
	aes_wipe(w, sizeof(w));
	aes_wipe(enc, sizeof(enc));
}

/* The bitsliced code has far more live values than registers: its spills hold key and data
 * bits, so every public form overwrites the stack its work used. */
#define AES_BURN_PORTABLE AES_BURN_MAX

void aes_keyexp_128_portable(const uint8_t *key, uint8_t *exp_key_enc, uint8_t *exp_key_dec)
{
	aes_expand_key_portable(key, 4, exp_key_enc, exp_key_dec);
	aes_burn_stack(AES_BURN_PORTABLE);
}

void aes_keyexp_192_portable(const uint8_t *key, uint8_t *exp_key_enc, uint8_t *exp_key_dec)
{
	aes_expand_key_portable(key, 6, exp_key_enc, exp_key_dec);
	aes_burn_stack(AES_BURN_PORTABLE);
}

void aes_keyexp_256_portable(const uint8_t *key, uint8_t *exp_key_enc, uint8_t *exp_key_dec)
{
	aes_expand_key_portable(key, 8, exp_key_enc, exp_key_dec);
	aes_burn_stack(AES_BURN_PORTABLE);
}

/* ---- XTS ---- */

/* A tweak as two little-endian halves; doubling is multiplication by x modulo
 * x^128 + x^7 + x^2 + x + 1 (IEEE 1619 5.2), with the carry folded in by a mask, not a branch. */
struct tweak {
	uint64_t lo, hi;
};

static void tweak_double(struct tweak *t)
{
	uint64_t carry = t->hi >> 63;
	t->hi = t->hi << 1 | t->lo >> 63;
	t->lo = t->lo << 1 ^ (0x87 & (0 - carry));
}

static void xor_tweak(uint8_t *dst, const uint8_t *src, const struct tweak *t)
{
	store64le(dst, load64le(src) ^ t->lo);
	store64le(dst + 8, load64le(src + 8) ^ t->hi);
}

/* Everything a call derives from its keys, in one place so one wipe clears it. */
struct xts_work {
	struct bs_schedule data; /* k1's schedule as planes */
	struct tweak t, tw[4];
	uint8_t buf[4 * AES_BLOCK];
	uint8_t pp[AES_BLOCK], cc[AES_BLOCK];
};

/* One block: dst = AES(src ^ t) ^ t. dst may equal src. */
static void xts_one(struct xts_work *w, int decrypt, const uint8_t *src, uint8_t *dst,
		    const struct tweak *t)
{
	xor_tweak(w->buf, src, t);
	bs_crypt(&w->data, decrypt, w->buf, 1);
	xor_tweak(dst, w->buf, t);
}

/* XTS over len >= 16 bytes with byte schedules: k2_enc encrypts the tweak, k1_sched is k1's
 * encryption or decryption schedule. */
static AES_NOINLINE void xts_portable(const uint8_t *k2_enc, const uint8_t *k1_sched, int rounds,
				      int decrypt, const uint8_t *tweak, uint64_t len,
				      const uint8_t *in, uint8_t *out)
{
	struct xts_work w;
	uint64_t blocks = len / AES_BLOCK;
	const unsigned tail = (unsigned)(len % AES_BLOCK);
	/* With a partial block the last whole block takes part in ciphertext stealing. */
	uint64_t bulk = tail ? blocks - 1 : blocks;

	/* T = E_k2(tweak), through the same circuit with k2's planes in place of k1's. */
	bs_schedule_load(&w.data, k2_enc, rounds);
	memcpy(w.buf, tweak, AES_BLOCK);
	bs_crypt(&w.data, 0, w.buf, 1);
	w.t.lo = load64le(w.buf);
	w.t.hi = load64le(w.buf + 8);
	bs_schedule_load(&w.data, k1_sched, rounds);

	while (bulk) {
		size_t n = bulk < 4 ? (size_t)bulk : 4;
		for (size_t j = 0; j < n; j++) {
			w.tw[j] = w.t;
			xor_tweak(w.buf + AES_BLOCK * j, in + AES_BLOCK * j, &w.t);
			tweak_double(&w.t);
		}
		bs_crypt(&w.data, decrypt, w.buf, n);
		for (size_t j = 0; j < n; j++)
			xor_tweak(out + AES_BLOCK * j, w.buf + AES_BLOCK * j, &w.tw[j]);
		in += AES_BLOCK * n;
		out += AES_BLOCK * n;
		bulk -= n;
	}

	if (tail) {
		/* in and out now point at the last whole block, followed by tail bytes. Everything
		 * is read before anything is written, so in == out works. Encryption: CC from the
		 * last whole block under T(m-1); its first tail bytes are the output's last partial
		 * block, and its rest, behind the input's partial block, makes the block that goes
		 * out under T(m). Decryption swaps the two tweaks. */
		struct tweak t_next = w.t;
		tweak_double(&t_next);
		xts_one(&w, decrypt, in, w.cc, decrypt ? &t_next : &w.t);
		memcpy(w.pp, w.cc, AES_BLOCK);
		memcpy(w.pp, in + AES_BLOCK, tail);
		memcpy(out + AES_BLOCK, w.cc, tail);
		xts_one(&w, decrypt, w.pp, out, decrypt ? &w.t : &t_next);
		aes_wipe(&t_next, sizeof(t_next));
	}
	aes_wipe(&w, sizeof(w));
}

/* XTS from raw keys: both expanded into local schedules (k1's for the direction), wiped after. */
static void xts_portable_raw(const uint8_t *k2, const uint8_t *k1, int nk, int rounds, int decrypt,
			     const uint8_t *tw, uint64_t len, const uint8_t *in, uint8_t *out)
{
	uint8_t s2[AES_SCHED_BYTES(AES_MAX_ROUNDS)], s1[AES_SCHED_BYTES(AES_MAX_ROUNDS)];
	aes_expand_key_portable(k2, nk, s2, NULL);
	aes_expand_key_portable(k1, nk, decrypt ? NULL : s1, decrypt ? s1 : NULL);
	xts_portable(s2, s1, rounds, decrypt, tw, len, in, out);
	aes_wipe(s2, sizeof(s2));
	aes_wipe(s1, sizeof(s1));
}

/* The public forms: the expanded-key ones take schedules, the others expand into a local
 * schedule first. Both return at once below one block, as isa-l_crypto's do. */
#define XTS_PORTABLE_FORM(name, call)                                                              \
	void name(uint8_t *k2, uint8_t *k1, uint8_t *tw, uint64_t len, const uint8_t *in,          \
		  uint8_t *out)                                                                    \
	{                                                                                          \
		if (len < AES_BLOCK)                                                               \
			return;                                                                    \
		call;                                                                              \
		aes_burn_stack(AES_BURN_PORTABLE);                                                 \
	}
#define XTS_PORTABLE_FORMS(bits, nk, rounds)                                                       \
	XTS_PORTABLE_FORM(xts_aes_##bits##_enc_expanded_key_portable,                              \
			  xts_portable(k2, k1, rounds, 0, tw, len, in, out))                       \
	XTS_PORTABLE_FORM(xts_aes_##bits##_dec_expanded_key_portable,                              \
			  xts_portable(k2, k1, rounds, 1, tw, len, in, out))                       \
	XTS_PORTABLE_FORM(xts_aes_##bits##_enc_portable,                                           \
			  xts_portable_raw(k2, k1, nk, rounds, 0, tw, len, in, out))               \
	XTS_PORTABLE_FORM(xts_aes_##bits##_dec_portable,                                           \
			  xts_portable_raw(k2, k1, nk, rounds, 1, tw, len, in, out))

XTS_PORTABLE_FORMS(128, 4, AES128_ROUNDS)
XTS_PORTABLE_FORMS(256, 8, AES256_ROUNDS)
