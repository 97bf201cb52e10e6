/* One byte value over a whole one-shot input (zeroed blocks, sparse regions, fill patterns),
 * coded as one block without the match finder or the code builder, which cost a 4 KiB block of
 * zeros 2-3 us at levels 1-3 for a dozen bytes of output.
 *
 * The block is the first byte as a literal, then matches of 258 bytes at distance 1, then the
 * rest (0-257 bytes) as literals or as one shorter match. Its code is either the fixed one or a
 * dynamic one over the three or four symbols used (the byte, end of block, length 258 and the
 * rest's length), with both one-bit distance codes, so that a 258-byte match costs 2 bits and the
 * header about 14 bytes. Of the four (fixed or dynamic, rest as literals or as a match) the
 * smallest is written; ties go to the first tried. */
#include "deflate_engine.h"

#pragma GCC visibility push(hidden)

/* The word the test below reads: with GCC or clang a 16-byte vector, which the compiler maps to
 * the target's baseline SIMD or splits into scalars (as ec_base.c's swar_word_t), else 8 bytes. */
#if defined(__GNUC__) && !(defined(__i386__) && !defined(__SSE2__))
typedef uint64_t rep_word __attribute__((vector_size(16)));
#else
typedef uint64_t rep_word;
#endif

/* Whether all n bytes at p equal p[0]. Other data mostly differs in its first 8 bytes, which
 * are tested alone; then 256 bytes a test (64 KiB of zeros, x86-64: 0.2 instructions a byte
 * against 0.8 with 8-byte words). */
int defl_repeated(const uint8_t *p, uint32_t n)
{
	const uint64_t w = 0x0101010101010101ull * p[0];
	uint32_t i = 0;
	if (n >= 8 && defl_load64(p) != w)
		return 0;
	rep_word wv;
	memset(&wv, p[0], sizeof(wv));
	for (; i + 256 <= n; i += 256) {
		rep_word d = wv ^ wv, x[4];
		for (uint32_t j = 0; j < 256; j += 4 * sizeof(d)) {
			memcpy(x, p + i + j, sizeof(x));
			d |= (x[0] ^ wv) | (x[1] ^ wv) | (x[2] ^ wv) | (x[3] ^ wv);
		}
		uint64_t any = 0;
		for (uint32_t k = 0; k < sizeof(d) / 8; k++) {
			uint64_t lane;
			memcpy(&lane, (const uint8_t *)&d + 8 * k, 8);
			any |= lane;
		}
		if (any)
			return 0;
	}
	for (; i < n; i++)
		if (p[i] != p[0])
			return 0;
	return 1;
}

/* A small code: up to REP_SYMS symbols with their lengths and (bit-reversed) codes. */
#define REP_SYMS 6
struct rep_code {
	uint32_t k;
	uint16_t sym[REP_SYMS];
	uint32_t freq[REP_SYMS];
	uint8_t len[REP_SYMS];
	uint16_t code[REP_SYMS];
};

/* The n <= 16 low bits of c in the opposite order. */
static uint32_t rep_reverse(uint32_t c, uint32_t n)
{
	c = (c & 0x5555u) << 1 | (c >> 1 & 0x5555u);
	c = (c & 0x3333u) << 2 | (c >> 2 & 0x3333u);
	c = (c & 0x0f0fu) << 4 | (c >> 4 & 0x0f0fu);
	c = (c & 0x00ffu) << 8 | (c >> 8 & 0x00ffu);
	return c >> (16 - n);
}

/* Add freq to symbol sym (entered on first use). */
static void rep_count(struct rep_code *c, uint32_t sym, uint32_t freq)
{
	for (uint32_t i = 0; i < c->k; i++)
		if (c->sym[i] == sym) {
			c->freq[i] += freq;
			return;
		}
	c->sym[c->k] = (uint16_t)sym;
	c->freq[c->k++] = freq;
}

/* Huffman lengths for the k <= REP_SYMS symbols (at most k - 1 <= 5 bits; two symbols at
 * least, else a second, unused one gets the other one-bit code). */
static void rep_huffman(struct rep_code *c, uint32_t spare)
{
	if (c->k == 1)
		rep_count(c, c->sym[0] == spare ? spare + 1 : spare, 0);
	uint64_t w[2 * REP_SYMS];
	uint32_t up[2 * REP_SYMS];
	uint32_t nodes = c->k;
	int live[2 * REP_SYMS] = { 0 };
	for (uint32_t i = 0; i < c->k; i++) {
		w[i] = c->freq[i];
		live[i] = 1;
	}
	for (uint32_t left = c->k; left > 1; left--) {
		uint32_t a = 2 * REP_SYMS, b = 2 * REP_SYMS;
		for (uint32_t i = 0; i < nodes; i++) {
			if (!live[i])
				continue;
			if (a == 2 * REP_SYMS || w[i] < w[a]) {
				b = a;
				a = i;
			} else if (b == 2 * REP_SYMS || w[i] < w[b]) {
				b = i;
			}
		}
		live[a] = live[b] = 0;
		w[nodes] = w[a] + w[b];
		up[a] = up[b] = nodes;
		live[nodes++] = 1;
	}
	const uint32_t root = nodes - 1;
	for (uint32_t i = 0; i < c->k; i++) {
		uint32_t d = 0;
		for (uint32_t j = i; j != root; j = up[j])
			d++;
		c->len[i] = (uint8_t)d;
	}
}

/* The same for the literal/length code's 2-4 symbols, in closed form: two take a bit each,
 * three 1, 2, 2 bits, four 1, 2, 3, 3 by falling count when the most frequent is at least the
 * two rarest together (where Huffman's last merge joins the other two), else 2 bits each. */
static void rep_huffman_ll(struct rep_code *c)
{
	uint32_t o[4] = { 0, 1, 2, 3 }; /* indices by falling count */
	for (uint32_t i = 1; i < c->k; i++)
		for (uint32_t j = i; j > 0 && c->freq[o[j - 1]] < c->freq[o[j]]; j--) {
			const uint32_t t = o[j];
			o[j] = o[j - 1];
			o[j - 1] = t;
		}
	static const uint8_t shape[5][4] = { { 0 }, { 0 }, { 1, 1 }, { 1, 2, 2 }, { 1, 2, 3, 3 } };
	const int flat = c->k == 4 && c->freq[o[0]] < c->freq[o[2]] + c->freq[o[3]];
	for (uint32_t i = 0; i < c->k; i++)
		c->len[o[i]] = flat ? 2 : shape[c->k][i];
}

/* Canonical codes (bit-reversed) in the order (length, symbol); sorts the symbols so. */
static void rep_canonical(struct rep_code *c)
{
	for (uint32_t i = 1; i < c->k; i++)
		for (uint32_t j = i; j > 0 && (c->len[j - 1] > c->len[j] ||
		                               (c->len[j - 1] == c->len[j] && c->sym[j - 1] > c->sym[j]));
		     j--) {
			const uint16_t s = c->sym[j];
			c->sym[j] = c->sym[j - 1];
			c->sym[j - 1] = s;
			const uint32_t f = c->freq[j];
			c->freq[j] = c->freq[j - 1];
			c->freq[j - 1] = f;
			const uint8_t l = c->len[j];
			c->len[j] = c->len[j - 1];
			c->len[j - 1] = l;
		}
	uint32_t code = 0;
	for (uint32_t i = 0; i < c->k; i++) {
		if (i)
			code = (code + 1) << (c->len[i] - c->len[i - 1]);
		c->code[i] = (uint16_t)rep_reverse(code, c->len[i]);
	}
}

static uint32_t rep_find(const struct rep_code *c, uint32_t sym)
{
	uint32_t i = 0;
	while (c->sym[i] != sym)
		i++;
	return i;
}

/* One code-length code symbol of the header and its extra bits. */
struct rep_rle {
	uint8_t sym, nextra;
	uint8_t extra;
};

/* A block for n >= 1 bytes of value v: what to write and its size. */
struct rep_plan {
	uint64_t bits;
	uint32_t m, r; /* matches of 258, then r bytes */
	int dyn, rmatch;
	/* codes (bit-reversed) and lengths: the byte, end of block, 258, the rest's length code;
	 * a distance-1 code */
	uint32_t c_lit, l_lit, c_eob, l_eob, c_258, l_258, c_rest, l_rest, c_d, l_d;
	uint32_t rest_extra, rest_nextra;
	/* dynamic: HLIT, the code-length code and the run-length coded lengths */
	uint32_t hlit, hclen, nrle;
	uint8_t pre_len[19];
	uint16_t pre_code[19];
	struct rep_rle rle[40];
};

/* Zero lengths run: symbol 18 for 11-138, 17 for 3-10, else single zeros. */
static void rep_zeros(struct rep_plan *p, uint32_t g)
{
	while (g >= 11) {
		const uint32_t k = g < 138 ? g : 138;
		p->rle[p->nrle++] = (struct rep_rle){ 18, 7, (uint8_t)(k - 11) };
		g -= k;
	}
	if (g >= 3) {
		p->rle[p->nrle++] = (struct rep_rle){ 17, 3, (uint8_t)(g - 3) };
		g = 0;
	}
	while (g--)
		p->rle[p->nrle++] = (struct rep_rle){ 0, 0, 0 };
}

static void rep_plan(struct rep_plan *p, uint32_t v, uint32_t n, int dyn, int rmatch)
{
	p->nrle = 0;
	memset(p->pre_len, 0, sizeof(p->pre_len));
	p->c_258 = p->l_258 = p->c_rest = p->l_rest = p->rest_extra = p->rest_nextra = 0;
	p->dyn = dyn;
	p->rmatch = rmatch;
	p->m = (n - 1) / 258;
	p->r = (n - 1) % 258;
	const uint32_t li = rmatch ? deflate_len_index(p->r) : 0;
	const uint32_t rest_sym = 257 + li;
	if (rmatch) {
		p->rest_nextra = deflate_len_extra[li];
		p->rest_extra = p->r - deflate_len_base[li];
	}
	const uint32_t nlit = 1 + (rmatch ? 0 : p->r);
	if (!dyn) {
		/* The fixed codes as the block writer keeps them (a length's entry holds its code
		 * and extra bits together). */
		const struct isal_hufftables *t = defl_static_tables();
		p->c_lit = t->lit_table[v], p->l_lit = t->lit_table_sizes[v];
		p->c_eob = t->lit_table[DEFL_EOB], p->l_eob = t->lit_table_sizes[DEFL_EOB];
		p->c_258 = t->len_table[258 - 3] >> 5, p->l_258 = t->len_table[258 - 3] & 31;
		if (rmatch) {
			const uint32_t e = t->len_table[p->r - 3];
			p->c_rest = e >> 5, p->l_rest = e & 31;
			p->rest_extra = p->rest_nextra = 0;
		}
		p->c_d = t->dcodes[0], p->l_d = t->dcodes_sizes[0];
		p->bits = 3;
	} else {
		struct rep_code ll = { 0 };
		rep_count(&ll, v, nlit);
		rep_count(&ll, 256, 1);
		if (p->m)
			rep_count(&ll, 285, p->m);
		if (rmatch)
			rep_count(&ll, rest_sym, 1);
		rep_huffman_ll(&ll);
		rep_canonical(&ll);
		const uint32_t i_lit = rep_find(&ll, v), i_eob = rep_find(&ll, 256);
		p->c_lit = ll.code[i_lit], p->l_lit = ll.len[i_lit];
		p->c_eob = ll.code[i_eob], p->l_eob = ll.len[i_eob];
		if (p->m) {
			const uint32_t i = rep_find(&ll, 285);
			p->c_258 = ll.code[i], p->l_258 = ll.len[i];
		}
		if (rmatch) {
			const uint32_t i = rep_find(&ll, rest_sym);
			p->c_rest = ll.code[i], p->l_rest = ll.len[i];
		}
		p->c_d = 0; /* distance codes 0 and 1, one bit each: 0 is "0" */
		p->l_d = 1;
		/* The lengths in symbol order, zero runs between them, then the two distance
		 * lengths. */
		uint32_t at = 0;
		for (;;) {
			uint32_t i = REP_SYMS;
			for (uint32_t j = 0; j < ll.k; j++)
				if (ll.sym[j] >= at && (i == REP_SYMS || ll.sym[j] < ll.sym[i]))
					i = j;
			if (i == REP_SYMS)
				break;
			rep_zeros(p, ll.sym[i] - at);
			p->rle[p->nrle++] = (struct rep_rle){ ll.len[i], 0, 0 };
			at = ll.sym[i] + 1u;
		}
		p->hlit = at;
		p->rle[p->nrle++] = (struct rep_rle){ 1, 0, 0 };
		p->rle[p->nrle++] = (struct rep_rle){ 1, 0, 0 };
		struct rep_code pre = { 0 };
		for (uint32_t i = 0; i < p->nrle; i++)
			rep_count(&pre, p->rle[i].sym, 1);
		rep_huffman(&pre, 0);
		rep_canonical(&pre);
		for (uint32_t i = 0; i < pre.k; i++) {
			p->pre_len[pre.sym[i]] = pre.len[i];
			p->pre_code[pre.sym[i]] = pre.code[i];
		}
		p->hclen = 4;
		for (uint32_t i = 0; i < 19; i++)
			if (p->pre_len[deflate_precode_order[i]])
				p->hclen = i + 1 > p->hclen ? i + 1 : p->hclen;
		p->bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)p->hclen;
		for (uint32_t i = 0; i < p->nrle; i++)
			p->bits += p->pre_len[p->rle[i].sym] + p->rle[i].nextra;
	}
	p->bits += (uint64_t)nlit * p->l_lit + p->l_eob + (uint64_t)p->m * (p->l_258 + p->l_d);
	if (rmatch)
		p->bits += p->l_rest + p->rest_nextra + p->l_d;
}

/* rep_plan.rle holds a header: at most 4 lengths, each after a run of at most 255 zeros (3
 * symbols at most: 18 18, or 18 and two single zeros), and the two distance lengths. */
_Static_assert(4 + 4 * 3 + 2 <= sizeof(((struct rep_plan *)0)->rle) / sizeof(struct rep_rle),
               "rep_plan.rle holds a header");

/* Write block q; 0 when the room lacks. */
static int rep_write(struct BitBuf2 *b, const struct rep_plan *q, int final)
{
	if (bw_room(b) < (b->m_bit_count + q->bits + 7) / 8 + 8)
		return 0;
	bw_put(b, (uint32_t)final | (q->dyn ? 2u : 1u) << 1, 3);
	if (q->dyn) {
		bw_put(b, (q->hlit - 257) | (2 - 1) << 5 | (q->hclen - 4) << 10, 14);
		/* the code-length code's lengths, 16 a write */
		for (uint32_t i = 0; i < q->hclen; i += 16) {
			const uint32_t end = q->hclen < i + 16 ? q->hclen : i + 16;
			uint64_t lens = 0;
			for (uint32_t j = i; j < end; j++)
				lens |= (uint64_t)q->pre_len[deflate_precode_order[j]] << (3 * (j - i));
			bw_put(b, lens, 3 * (end - i));
		}
		for (uint32_t i = 0; i < q->nrle; i++) {
			const struct rep_rle *e = &q->rle[i];
			bw_put(b, q->pre_code[e->sym] | (uint32_t)e->extra << q->pre_len[e->sym],
			       q->pre_len[e->sym] + e->nextra);
		}
	}
	bw_put(b, q->c_lit, q->l_lit);
	/* The matches of 258, as many a write as fit in 48 bits (ub: 2 to 13). */
	const uint32_t ub = q->l_258 + q->l_d, per = 48 / ub;
	const uint64_t unit = q->c_258 | (uint64_t)q->c_d << q->l_258;
	uint64_t chunk = 0;
	for (uint32_t i = 0; i < per; i++)
		chunk |= unit << (i * ub);
	uint32_t left = q->m;
	for (; left >= per; left -= per)
		bw_put(b, chunk, per * ub);
	for (; left; left--)
		bw_put(b, unit, ub);
	if (q->rmatch)
		bw_put(b,
		       q->c_rest | (uint64_t)q->rest_extra << q->l_rest |
		           (uint64_t)q->c_d << (q->l_rest + q->rest_nextra),
		       q->l_rest + q->rest_nextra + q->l_d);
	else
		for (uint32_t i = 0; i < q->r; i++)
			bw_put(b, q->c_lit, q->l_lit);
	bw_put(b, q->c_eob, q->l_eob);
	return 1;
}

int defl_repeat_block(struct BitBuf2 *b, uint32_t v, uint32_t n, int final)
{
	/* The last block planned in this thread: storage calls repeat one block size, and the
	 * plan depends on v and n alone (4 KiB of zeros: 7400 instructions a call planned, 3000
	 * from here). */
	static _Thread_local struct {
		uint32_t v, n;
		struct rep_plan plan;
	} last;
	if (last.n == n && last.v == v)
		return rep_write(b, &last.plan, final);
	struct rep_plan plan[4];
	const struct rep_plan *q = plan;
	/* The fixed code's two, then the dynamic ones unless the smaller fixed one is no larger
	 * than a dynamic block can be: 3 + 14 header bits, 14 code-length code lengths (the
	 * header sends lengths of 1-3 bits, which come 14th or later in its order), two zero runs
	 * (the 255 literals other than v) of 8 bits each, four lengths of a bit, and a bit for the
	 * literal, each match and the end of block. */
	const uint32_t m = (n - 1) / 258, r = (n - 1) % 258;
	const uint64_t dyn_min = 3 + 14 + 3 * 14 + 2 * 8 + 4 + 2 + (uint64_t)m + (r >= 3 ? 1 : r);
	for (int i = 0; i < 4; i++) {
		const int dyn = i >> 1, rmatch = i & 1;
		if ((rmatch && r < 3) || (dyn && q->bits <= dyn_min))
			continue;
		rep_plan(&plan[i], v, n, dyn, rmatch);
		if (i == 0 || plan[i].bits < q->bits)
			q = &plan[i];
	}
	last.v = v;
	last.n = n;
	last.plan = *q;
	return rep_write(b, q, final);
}

#pragma GCC visibility pop
