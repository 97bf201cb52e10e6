/* Scripts of zlib API calls, run the same way on any zlib: stoa's libz.so.1 (the zlib tests,
 * which run on it), Debian's (tests/zlib_peer.c, the reference, in its own process since the
 * two libraries' names clash) and stoa's layer linked in statically (fuzz/fuzz_zlib.c).
 * Header-only; everything is written against zlib.h.
 *
 * A deflate script is a byte string, so any bytes (a fuzzer's) make one and both sides parse
 * it alike:
 *   byte 0        level (-1..9)             byte 1   wrapper (raw, zlib, gzip) and windowBits
 *   byte 2        memLevel (1-9)            byte 3   strategy (0-4)
 *   byte 4        dictionary length (0-255 bytes, taken from the front of the payload)
 *   byte 5        n, the number of operations, 3 bytes each after it:
 *     op % 8 = 0-3  feed (arg1 + 256 arg2 & 0x3ff) bytes with flush (op / 8) % 6, output room
 *                   in pieces of (arg1 * 7 % 97 + 1) bytes when op >= 128
 *              4    deflateParams(arg1 % 11 - 1, arg2 % 5), repeated with room until it takes
 *              5    end the block (Z_BLOCK), then empty fixed blocks up to a byte boundary
 *                   (deflatePending, deflatePrime 10 bits; a sync flush for an odd bit
 *                   count), as pigz does; raw streams only, not after a copy
 *              6    continue on a deflateCopy of the stream
 *              7    feed (arg1 & 63) bytes with Z_SYNC_FLUSH and 7 bytes of output room
 *   then the payload: the data fed, in order; at the end what is left of it, with Z_FINISH.
 * The result is the compressed stream, the data fed and the dictionary: any zlib must inflate
 * the stream to the data.
 *
 * An inflate run feeds a stream in pieces and records what a program can see: the result, zlib's
 * message, the counters, the check value, the data. With Z_BLOCK or Z_TREES and whole buffers,
 * the calls themselves are recorded too (where each stop left total_in, total_out and
 * data_type): on the same stream every zlib must stop at the same places. */
#ifndef STOA_ZLIB_SCRIPT_H
#define STOA_ZLIB_SCRIPT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* A growing byte buffer. */
struct zs_buf {
	uint8_t *p;
	size_t len, cap;
};

/* Room for n more bytes. */
static inline void zs_reserve(struct zs_buf *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			abort();
		b->cap = cap;
	}
}

static inline void zs_put(struct zs_buf *b, const void *p, size_t n)
{
	zs_reserve(b, n);
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

static inline void zs_put_u64(struct zs_buf *b, uint64_t v)
{
	zs_put(b, &v, sizeof(v));
}

static inline void zs_free(struct zs_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* ---- deflate scripts --------------------------------------------------------------------------
 */

struct zs_deflate_result {
	int init_rc;          /* deflateInit2's result (the rest is empty when not Z_OK) */
	int window_bits;      /* as given to deflateInit2 (the inflater's choice follows from it) */
	int failed;           /* a call returned what zlib's contract rules out */
	char why[128];        /* which one */
	struct zs_buf stream; /* compressed */
	struct zs_buf data;   /* what was fed */
	struct zs_buf dict;
};

struct zs_reader {
	const uint8_t *p;
	size_t n, at;
};

static inline uint8_t zs_byte(struct zs_reader *r)
{
	return r->at < r->n ? r->p[r->at++] : 0;
}

static inline void zs_fail(struct zs_deflate_result *res, const char *what, int rc)
{
	if (!res->failed)
		snprintf(res->why, sizeof(res->why), "%s returned %d", what, rc);
	res->failed = 1;
}

/* One deflate call with output room in pieces of `piece` bytes (0: all it needs), appending to
 * the stream; returns deflate's last result. Loops while deflate fills the room given. */
static inline int zs_deflate_call(z_stream *z, int flush, unsigned piece,
                                  struct zs_deflate_result *res)
{
	uint8_t out[65536];
	int rc;
	for (int guard = 0;; guard++) {
		const unsigned room = piece ? piece : sizeof(out);
		z->next_out = out;
		z->avail_out = room;
		rc = deflate(z, flush);
		zs_put(&res->stream, out, room - z->avail_out);
		if (rc == Z_STREAM_END || rc < 0 || z->avail_out != 0)
			break;
		if (guard > (1 << 24)) {
			zs_fail(res, "deflate (no end)", rc);
			break;
		}
	}
	return rc;
}

static inline void zs_run_deflate(const uint8_t *script, size_t n, struct zs_deflate_result *res)
{
	memset(res, 0, sizeof(*res));
	struct zs_reader r = { script, n, 0 };
	const int level = zs_byte(&r) % 11 - 1;
	const uint8_t w = zs_byte(&r);
	const int form = w % 3, bits = 8 + (w / 3) % 8;
	int wbits = form == 0 ? -bits : form == 1 ? bits : bits + 16;
	if (bits == 8 && form != 1)
		wbits = form == 0 ? -9 : 9 + 16; /* zlib refuses 8 there */
	const int mem_level = zs_byte(&r) % 9 + 1;
	const int strategy = zs_byte(&r) % 5;
	size_t dict_len = zs_byte(&r);
	const unsigned nops = zs_byte(&r);
	const size_t ops_at = r.at;
	const size_t payload_at = ops_at + 3 * (size_t)nops < n ? ops_at + 3 * (size_t)nops : n;
	struct zs_reader pay = { script, n, payload_at };
	/* (zlib writes a 512-byte window for 8: an inflater asks for 9.) */
	res->window_bits = wbits == 8 ? 9 : wbits;

	/* Two streams: deflateCopy makes the other one current (a z_stream may not be moved). */
	z_stream zs[2];
	memset(zs, 0, sizeof(zs));
	int cur = 0, copied = 0;
	z_stream *z = &zs[cur];
	res->init_rc = deflateInit2(z, level, Z_DEFLATED, wbits, mem_level, strategy);
	if (res->init_rc != Z_OK)
		return;
	if (form == 2)
		dict_len = 0; /* gzip has no dictionaries */
	if (dict_len > pay.n - pay.at)
		dict_len = pay.n - pay.at;
	if (dict_len) {
		zs_put(&res->dict, pay.p + pay.at, dict_len);
		pay.at += dict_len;
		const int rc = deflateSetDictionary(z, res->dict.p, (uInt)dict_len);
		if (rc != Z_OK)
			zs_fail(res, "deflateSetDictionary", rc);
	}
	for (unsigned i = 0; i < nops && !res->failed && ops_at + 3 * i < n; i++) {
		const uint8_t op = script[ops_at + 3 * i];
		const uint8_t a1 = ops_at + 3 * i + 1 < n ? script[ops_at + 3 * i + 1] : 0;
		const uint8_t a2 = ops_at + 3 * i + 2 < n ? script[ops_at + 3 * i + 2] : 0;
		switch (op % 8) {
		case 0:
		case 1:
		case 2:
		case 3: {
			size_t len = a1 + 256 * (size_t)(a2 & 3);
			if (len > pay.n - pay.at)
				len = pay.n - pay.at;
			int flush = (op / 8) % 6;
			if (flush == Z_FINISH)
				flush = Z_FULL_FLUSH;
			z->next_in = (Bytef *)(uintptr_t)(pay.p + pay.at);
			z->avail_in = (uInt)len;
			zs_put(&res->data, pay.p + pay.at, len);
			pay.at += len;
			/* (zlib's contract: flushes that write a marker get more than 6 bytes of
			 * room, or a full buffer brings another marker.) */
			unsigned piece = op >= 128 ? a1 * 7u % 97 + 1 : 0;
			if (piece && piece < 7 && flush >= Z_PARTIAL_FLUSH && flush <= Z_FULL_FLUSH)
				piece = 7;
			const int rc = zs_deflate_call(z, flush, piece, res);
			if (rc != Z_OK && rc != Z_BUF_ERROR)
				zs_fail(res, "deflate", rc);
			if (z->avail_in)
				zs_fail(res, "deflate (input left)", (int)z->avail_in);
			break;
		}
		case 4: {
			int rc;
			for (int k = 0;; k++) {
				uint8_t out[512];
				z->next_out = out;
				z->avail_out = k == 0 ? 1 : sizeof(out);
				rc = deflateParams(z, a1 % 11 - 1, a2 % 5);
				zs_put(&res->stream, out,
				       (k == 0 ? 1 : sizeof(out)) - z->avail_out);
				if (rc != Z_BUF_ERROR || k > 100000)
					break;
			}
			if (rc != Z_OK)
				zs_fail(res, "deflateParams", rc);
			break;
		}
		case 5: {
			/* (Debian's zlib 1.2.13 writes past its pending buffer in deflatePrime on a
			 * stream made by deflateCopy: a copy takes no primes.) */
			if (form != 0 || copied)
				break;
			zs_deflate_call(z, Z_BLOCK, 0, res);
			int pending_bits = 0;
			unsigned pending;
			deflatePending(z, &pending, &pending_bits);
			if (pending_bits & 1) {
				/* 10-bit blocks cannot even out an odd count: a sync flush does. */
				zs_deflate_call(z, Z_SYNC_FLUSH, 0, res);
				break;
			}
			while (pending_bits & 7) {
				const int rc = deflatePrime(z, 10, 2);
				if (rc != Z_OK) {
					zs_fail(res, "deflatePrime", rc);
					break;
				}
				deflatePending(z, &pending, &pending_bits);
			}
			zs_deflate_call(z, Z_BLOCK, 0, res);
			break;
		}
		case 6: {
			z_stream *next = &zs[cur ^ 1];
			memset(next, 0, sizeof(*next));
			const int rc = deflateCopy(next, z);
			if (rc != Z_OK) {
				zs_fail(res, "deflateCopy", rc);
				break;
			}
			deflateEnd(z);
			cur ^= 1;
			z = next;
			copied = 1;
			break;
		}
		case 7: {
			size_t len = a1 & 63;
			if (len > pay.n - pay.at)
				len = pay.n - pay.at;
			z->next_in = (Bytef *)(uintptr_t)(pay.p + pay.at);
			z->avail_in = (uInt)len;
			zs_put(&res->data, pay.p + pay.at, len);
			pay.at += len;
			zs_deflate_call(z, Z_SYNC_FLUSH, 7, res);
			break;
		}
		}
	}
	z->next_in = (Bytef *)(uintptr_t)(pay.p + pay.at);
	z->avail_in = (uInt)(pay.n - pay.at);
	zs_put(&res->data, pay.p + pay.at, pay.n - pay.at);
	const int rc = zs_deflate_call(z, Z_FINISH, 0, res);
	if (rc != Z_STREAM_END)
		zs_fail(res, "deflate(Z_FINISH)", rc);
	const int end = deflateEnd(z);
	if (end != Z_OK)
		zs_fail(res, "deflateEnd", end);
}

static inline void zs_deflate_free(struct zs_deflate_result *res)
{
	zs_free(&res->stream);
	zs_free(&res->data);
	zs_free(&res->dict);
}

/* ---- inflate runs -----------------------------------------------------------------------------
 */

struct zs_inflate_opts {
	int window_bits;
	int flush;         /* the flush every call passes (Z_NO_FLUSH, Z_SYNC_FLUSH, Z_BLOCK ...) */
	unsigned in_piece; /* input per call, 0: all of it */
	unsigned out_piece;  /* output room per call, 0: 1 MiB */
	const uint8_t *dict; /* for Z_NEED_DICT, or set first on a raw stream */
	size_t dict_len;
};

struct zs_inflate_result {
	int rc;        /* the last call's result */
	char msg[128]; /* its message ("" when none) */
	uint64_t total_in, total_out, adler, avail_in_left;
	struct zs_buf out;
	struct zs_buf calls; /* per call (whole buffers, Z_BLOCK/Z_TREES): rc, totals, data_type */
};

static inline void zs_run_inflate(const uint8_t *in, size_t n, const struct zs_inflate_opts *o,
                                  struct zs_inflate_result *res)
{
	memset(res, 0, sizeof(*res));
	z_stream z;
	memset(&z, 0, sizeof(z));
	res->rc = inflateInit2(&z, o->window_bits);
	if (res->rc != Z_OK)
		return;
	if (o->window_bits < 0 && o->dict_len)
		inflateSetDictionary(&z, o->dict, (uInt)o->dict_len);
	const unsigned out_cap = o->out_piece ? o->out_piece : 1u << 20;
	uint8_t *out = malloc(out_cap);
	if (!out)
		abort();
	const int record =
	    (o->flush == Z_BLOCK || o->flush == Z_TREES) && !o->in_piece && !o->out_piece;
	size_t at = 0;
	unsigned stuck = 0;
	uLong last_in = 0;
	for (;;) {
		if (!z.avail_in) {
			size_t piece = o->in_piece ? o->in_piece : n - at;
			if (piece > n - at)
				piece = n - at;
			z.next_in = (Bytef *)(uintptr_t)(in + at);
			z.avail_in = (uInt)piece;
			at += piece;
		}
		z.next_out = out;
		z.avail_out = out_cap;
		int rc = inflate(&z, o->flush);
		zs_put(&res->out, out, out_cap - z.avail_out);
		if (record) {
			const int64_t row[4] = { rc, (int64_t)z.total_in, (int64_t)z.total_out,
				                 z.data_type };
			zs_put(&res->calls, row, sizeof(row));
		}
		if (rc == Z_NEED_DICT && o->dict_len) {
			rc = inflateSetDictionary(&z, o->dict, (uInt)o->dict_len);
			if (rc == Z_OK)
				continue;
		}
		res->rc = rc;
		if (rc != Z_OK && rc != Z_BUF_ERROR)
			break;
		/* Calls that neither take nor give anything: the stream is cut short (or the
		 * library is stuck, which the caller's comparison then shows). */
		const int progress = z.avail_out != out_cap || z.total_in != last_in;
		last_in = z.total_in;
		stuck = progress ? 0 : stuck + 1;
		if (stuck > 3)
			break;
	}
	snprintf(res->msg, sizeof(res->msg), "%s", z.msg ? z.msg : "");
	res->total_in = z.total_in;
	res->total_out = z.total_out;
	res->adler = z.adler;
	res->avail_in_left = z.avail_in + (n - at);
	inflateEnd(&z);
	free(out);
}

static inline void zs_inflate_free(struct zs_inflate_result *res)
{
	zs_free(&res->out);
	zs_free(&res->calls);
}

#endif
