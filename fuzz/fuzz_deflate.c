/* libFuzzer target: deflate round trips.
 *
 * Input: 8 parameter bytes, then the data.
 *   0  level (mod STOA_DEF_MAX_LEVEL + 1: a level the library adds is covered at once)
 *   1  wrapper (low 3 bits, mod 5); 0x08 stateless; 0x10 a dictionary; 0x20 set_dict through
 *      isal_deflate_process_dict + isal_deflate_reset_dict
 *   2  hist_bits (mod 16)
 *   3  input bytes per call: 1 + (byte^2 mod 70000) (stateless: per FULL_FLUSH call)
 *   4  output room per call: 1 + (byte^2 mod 70000)
 *   5  seeds the flush mode of each streaming call (NO_FLUSH, SYNC_FLUSH, FULL_FLUSH)
 *   6  level_buf size (one of the header's sizes)
 *   7  dictionary length: the first (byte * 131) mod (len + 1) bytes of the data
 * Every call's input and output is in a buffer of exactly its size, so AddressSanitizer sees any
 * access past either end. The stream is decoded by isal_inflate (hist_bits and dictionary as
 * set, input and output in pieces) and by zlib (raw, gzip or zlib with the matching windowBits;
 * the _NO_HDR wrappers' bodies as raw deflate), and both must give the data back. A streaming
 * case is also run as one stateless call: only stateless compression reads the caller's buffer
 * in place (a stream copies it into its state), so only there does an over-read reach
 * AddressSanitizer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "fuzz/fuzz_check.h"
#include "isa-l/igzip_lib.h"
#include "stoa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct buf *b, const uint8_t *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = 2 * (b->n + n) + 256;
		b->p = realloc(b->p, b->cap);
		CHECK(b->p);
	}
	if (n)
		memcpy(b->p + b->n, p, n);
	b->n += n;
}

static uint32_t next_rand(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

static const uint32_t lvl_sizes[10] = {
	ISAL_DEF_LVL1_MIN,     ISAL_DEF_LVL2_MIN,         ISAL_DEF_LVL3_MIN,
	ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL3_DEFAULT,     ISAL_DEF_LVL3_SMALL,
	ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_EXTRA_LARGE, ISAL_DEF_LVL4_MIN,
	ISAL_DEF_LVL9_DEFAULT,
};

/* Deflate in[0 .. n) as the parameters say; 0 when the library refuses the set-up. */
static int round_deflate(const uint8_t *prm, const uint8_t *in, size_t n, const uint8_t *dict,
                         uint32_t dlen, struct buf *out)
{
	struct isal_zstream *s = fuzz_alloc(sizeof(*s));
	struct isal_dict *d = fuzz_alloc(sizeof(*d));
	const uint32_t lsize = lvl_sizes[prm[6] % 10];
	uint8_t *lb = fuzz_alloc(lsize);
	isal_deflate_init(s);
	s->level = prm[0] % (STOA_DEF_MAX_LEVEL + 1);
	s->level_buf = lb;
	s->level_buf_size = lsize;
	s->gzip_flag = (uint16_t)((prm[1] & 7) % 5);
	s->hist_bits = prm[2] % 16;
	const int stateless = prm[1] & 0x08;
	const size_t in_step = 1 + (size_t)prm[3] * prm[3] % 70000;
	const size_t out_step = 1 + (size_t)prm[4] * prm[4] % 70000;
	uint32_t rs = prm[5];
	int ok = 1;
	if (dict) {
		uint8_t *dc = fuzz_copy(dict, dlen);
		int r;
		if (prm[1] & 0x20) {
			r = isal_deflate_process_dict(s, d, dc, dlen);
			if (r == COMP_OK)
				r = isal_deflate_reset_dict(s, d);
		} else {
			r = isal_deflate_set_dict(s, dc, dlen);
		}
		free(dc);
		/* (An empty dictionary is refused by process_dict, NULL by set_dict.) */
		if (r != COMP_OK) {
			CHECK(dlen == 0);
			ok = 0;
		}
	}
	size_t pos = 0;
	while (ok) {
		const size_t k = n - pos < in_step ? n - pos : in_step;
		const int last = pos + k == n;
		uint8_t *chunk = fuzz_copy(in + pos, k);
		s->next_in = chunk;
		s->avail_in = (uint32_t)k;
		s->end_of_stream = (uint16_t)last;
		if (stateless) {
			s->flush = last && pos == 0 ? NO_FLUSH : FULL_FLUSH;
			const size_t room = k + k / 8 + 64;
			uint8_t *o = fuzz_alloc(room);
			s->next_out = o;
			s->avail_out = (uint32_t)room;
			const int r = isal_deflate_stateless(s);
			if (r == ISAL_INVALID_LEVEL || r == ISAL_INVALID_LEVEL_BUF)
				ok = 0;
			else
				CHECK(r == COMP_OK && s->avail_in == 0);
			put(out, o, room - s->avail_out);
			free(o);
		} else {
			s->flush = (int)(next_rand(&rs) % 3);
			for (unsigned calls = 0;; calls++) {
				CHECK(calls < 8 * (n + 64));
				uint8_t *o = fuzz_alloc(out_step);
				s->next_out = o;
				s->avail_out = (uint32_t)out_step;
				const int r = isal_deflate(s);
				put(out, o, out_step - s->avail_out);
				free(o);
				if (r == ISAL_INVALID_LEVEL || r == ISAL_INVALID_LEVEL_BUF) {
					ok = 0;
					break;
				}
				CHECK(r == COMP_OK);
				if (last ? s->internal_state.state == ZSTATE_END
				         : (s->avail_in == 0 && s->avail_out > 0))
					break;
			}
		}
		pos += k - s->avail_in;
		free(chunk);
		if (last)
			break;
	}
	free(lb);
	free(d);
	free(s);
	return ok;
}

static void check_stoa(const uint8_t *prm, const struct buf *c, const uint8_t *want, size_t n,
                       const uint8_t *dict, uint32_t dlen)
{
	static const uint32_t flags[5] = { ISAL_DEFLATE, ISAL_GZIP, ISAL_GZIP_NO_HDR_VER, ISAL_ZLIB,
		                           ISAL_ZLIB_NO_HDR_VER };
	struct inflate_state *st = fuzz_alloc(sizeof(*st));
	isal_inflate_init(st);
	st->crc_flag = flags[(prm[1] & 7) % 5];
	st->hist_bits = prm[2] % 16;
	if (dict)
		CHECK(isal_inflate_set_dict(st, (uint8_t *)(uintptr_t)dict, dlen) == COMP_OK);
	const size_t in_step = 1 + (size_t)prm[4] * prm[3] % 5000;
	const size_t out_step = 1 + (size_t)prm[3] * prm[4] % 5000;
	size_t pos = 0, got = 0;
	uint8_t *chunk = NULL;
	for (unsigned calls = 0; st->block_state != ISAL_BLOCK_FINISH; calls++) {
		CHECK(calls < 4 * (c->n + n) + 64);
		if (!st->avail_in) {
			const size_t k = c->n - pos < in_step ? c->n - pos : in_step;
			free(chunk);
			chunk = fuzz_copy(c->p + pos, k);
			st->next_in = chunk;
			st->avail_in = (uint32_t)k;
			pos += k;
		}
		uint8_t *o = fuzz_alloc(out_step);
		st->next_out = o;
		st->avail_out = (uint32_t)out_step;
		CHECK(isal_inflate(st) == ISAL_DECOMP_OK);
		const size_t k = out_step - st->avail_out;
		CHECK(got + k <= n && memcmp(o, want + got, k) == 0);
		got += k;
		free(o);
	}
	CHECK(got == n);
	free(chunk);
	free(st);
}

static void check_zlib(const uint8_t *prm, const struct buf *c, const uint8_t *want, size_t n,
                       const uint8_t *dict, uint32_t dlen)
{
	const uint32_t wrapper = (prm[1] & 7) % 5, hb = prm[2] % 16;
	if (dict && wrapper != 0 && wrapper != 2 && wrapper != 4)
		return; /* (zlib takes a dictionary without FDICT only for raw deflate) */
	const int win = hb == 0 || hb >= 15 ? 15 : hb < 9 ? 9 : (int)hb;
	const int wbits = wrapper == 1 ? 16 + win : wrapper == 3 ? 15 : -win;
	uint8_t *plain = fuzz_alloc(n + 1);
	z_stream z;
	memset(&z, 0, sizeof(z));
	CHECK(inflateInit2(&z, wbits) == Z_OK);
	if (dict && dlen)
		CHECK(inflateSetDictionary(&z, dict, dlen) == Z_OK);
	z.next_in = c->p;
	z.avail_in = (uInt)c->n;
	z.next_out = plain;
	z.avail_out = (uInt)n + 1;
	CHECK(inflate(&z, Z_FINISH) == Z_STREAM_END);
	CHECK(z.total_out == n && (n == 0 || memcmp(plain, want, n) == 0));
	inflateEnd(&z);
	free(plain);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 8 || size > 65536 + 8)
		return 0;
	const uint8_t *prm = data;
	const uint8_t *in = data + 8;
	const size_t n = size - 8;
	const uint32_t dlen = (prm[1] & 0x10) ? (uint32_t)((prm[7] * 131u) % (n + 1)) : 0;
	const uint8_t *dict = (prm[1] & 0x10) ? in : NULL;
	uint8_t one_shot[8];
	memcpy(one_shot, prm, 8);
	one_shot[1] |= 0x08;
	one_shot[3] = 0xff; /* (65026 bytes a call) */
	for (int pass = 0; pass < ((prm[1] & 0x08) ? 1 : 2); pass++) {
		const uint8_t *const p = pass ? one_shot : prm;
		struct buf c = { 0 };
		if (round_deflate(p, in, n, dict, dlen, &c)) {
			check_stoa(p, &c, in, n, dict, dlen);
			check_zlib(p, &c, in, n, dict, dlen);
		}
		free(c.p);
	}
	return 0;
}
