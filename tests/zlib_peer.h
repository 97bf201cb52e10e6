/* The reference zlib in a process of its own: tests/zlib_peer.c, linked to the system's
 * libz.so.1, runs the scripts of tests/zlib_script.h for a test or fuzz target that runs on
 * stoa's (whose names clash with it). Requests and answers go over two pipes:
 *   request   u32 op, u32 length, then that many bytes:
 *               ZS_OP_DEFLATE   the script
 *               ZS_OP_INFLATE   i32 window_bits, i32 flush, u32 in_piece, u32 out_piece,
 *                               u32 dict_len, the dictionary, then the stream
 *               ZS_OP_VERSION   nothing: the answer's data is zlibVersion() and the library's path
 *   answer    the result's fields in order, each buffer as u32 length and bytes.
 * Header-only. */
#ifndef STOA_ZLIB_PEER_H
#define STOA_ZLIB_PEER_H

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "zlib_script.h"

enum { ZS_OP_DEFLATE = 1, ZS_OP_INFLATE = 2, ZS_OP_VERSION = 3 };

/* ---- the wire ------------------------------------------------------------------------------- */

static inline int zs_write_all(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;
	while (n) {
		const ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

static inline int zs_read_all(int fd, void *p, size_t n)
{
	uint8_t *b = p;
	while (n) {
		const ssize_t r = read(fd, b, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		b += r;
		n -= (size_t)r;
	}
	return 0;
}

static inline void zs_put_u32(struct zs_buf *b, uint32_t v)
{
	zs_put(b, &v, 4);
}

static inline void zs_put_blob(struct zs_buf *b, const struct zs_buf *x)
{
	zs_put_u32(b, (uint32_t)x->len);
	zs_put(b, x->p, x->len);
}

/* Reading a message back: a cursor that fails softly (zeros) past the end. */
struct zs_cursor {
	const uint8_t *p;
	size_t n, at;
	int bad;
};

static inline void zs_get(struct zs_cursor *c, void *out, size_t n)
{
	if (c->at + n > c->n) {
		c->bad = 1;
		memset(out, 0, n);
		return;
	}
	memcpy(out, c->p + c->at, n);
	c->at += n;
}

static inline uint32_t zs_get_u32(struct zs_cursor *c)
{
	uint32_t v;
	zs_get(c, &v, 4);
	return v;
}

static inline void zs_get_blob(struct zs_cursor *c, struct zs_buf *b)
{
	const uint32_t n = zs_get_u32(c);
	if (c->at + n > c->n) {
		c->bad = 1;
		return;
	}
	zs_put(b, c->p + c->at, n);
	c->at += n;
}

static inline void zs_encode_deflate(struct zs_buf *b, const struct zs_deflate_result *r)
{
	zs_put(b, &r->init_rc, 4);
	zs_put(b, &r->window_bits, 4);
	zs_put(b, &r->failed, 4);
	zs_put(b, r->why, sizeof(r->why));
	zs_put_blob(b, &r->stream);
	zs_put_blob(b, &r->data);
	zs_put_blob(b, &r->dict);
}

static inline int zs_decode_deflate(const struct zs_buf *b, struct zs_deflate_result *r)
{
	memset(r, 0, sizeof(*r));
	struct zs_cursor c = { b->p, b->len, 0, 0 };
	zs_get(&c, &r->init_rc, 4);
	zs_get(&c, &r->window_bits, 4);
	zs_get(&c, &r->failed, 4);
	zs_get(&c, r->why, sizeof(r->why));
	r->why[sizeof(r->why) - 1] = 0;
	zs_get_blob(&c, &r->stream);
	zs_get_blob(&c, &r->data);
	zs_get_blob(&c, &r->dict);
	return c.bad ? -1 : 0;
}

static inline void zs_encode_inflate(struct zs_buf *b, const struct zs_inflate_result *r)
{
	zs_put(b, &r->rc, 4);
	zs_put(b, r->msg, sizeof(r->msg));
	zs_put_u64(b, r->total_in);
	zs_put_u64(b, r->total_out);
	zs_put_u64(b, r->adler);
	zs_put_u64(b, r->avail_in_left);
	zs_put_blob(b, &r->out);
	zs_put_blob(b, &r->calls);
}

static inline int zs_decode_inflate(const struct zs_buf *b, struct zs_inflate_result *r)
{
	memset(r, 0, sizeof(*r));
	struct zs_cursor c = { b->p, b->len, 0, 0 };
	zs_get(&c, &r->rc, 4);
	zs_get(&c, r->msg, sizeof(r->msg));
	r->msg[sizeof(r->msg) - 1] = 0;
	zs_get(&c, &r->total_in, 8);
	zs_get(&c, &r->total_out, 8);
	zs_get(&c, &r->adler, 8);
	zs_get(&c, &r->avail_in_left, 8);
	zs_get_blob(&c, &r->out);
	zs_get_blob(&c, &r->calls);
	return c.bad ? -1 : 0;
}

static inline void zs_encode_inflate_request(struct zs_buf *b, const struct zs_inflate_opts *o,
                                             const uint8_t *stream, size_t n)
{
	zs_put(b, &o->window_bits, 4);
	zs_put(b, &o->flush, 4);
	zs_put_u32(b, o->in_piece);
	zs_put_u32(b, o->out_piece);
	zs_put_u32(b, (uint32_t)o->dict_len);
	zs_put(b, o->dict, o->dict_len);
	zs_put(b, stream, n);
}

/* The options and the stream of an inflate request (pointers into b). */
static inline int zs_decode_inflate_request(const struct zs_buf *b, struct zs_inflate_opts *o,
                                            const uint8_t **stream, size_t *n)
{
	memset(o, 0, sizeof(*o));
	struct zs_cursor c = { b->p, b->len, 0, 0 };
	zs_get(&c, &o->window_bits, 4);
	zs_get(&c, &o->flush, 4);
	o->in_piece = zs_get_u32(&c);
	o->out_piece = zs_get_u32(&c);
	o->dict_len = zs_get_u32(&c);
	if (c.bad || c.at + o->dict_len > c.n)
		return -1;
	o->dict = c.p + c.at;
	c.at += o->dict_len;
	*stream = c.p + c.at;
	*n = c.n - c.at;
	return 0;
}

/* ---- the client side ------------------------------------------------------------------------ */

struct zs_peer {
	pid_t pid;
	int to, from; /* request and answer pipes */
};

/* Start the reference process: path, with LD_LIBRARY_PATH and LD_PRELOAD removed so it runs on
 * the system's zlib. 0 or -1. */
static inline int zs_peer_start(struct zs_peer *p, const char *path)
{
	int req[2], ans[2];
	if (pipe(req) || pipe(ans))
		return -1;
	signal(SIGPIPE, SIG_IGN);
	p->pid = fork();
	if (p->pid < 0)
		return -1;
	if (p->pid == 0) {
		dup2(req[0], 0);
		dup2(ans[1], 1);
		close(req[0]);
		close(req[1]);
		close(ans[0]);
		close(ans[1]);
		unsetenv("LD_LIBRARY_PATH");
		unsetenv("LD_PRELOAD");
		/* A cross run's programs start through its emulator (STOA_TEST_WRAPPER, one word). */
		const char *wrap = getenv("STOA_TEST_WRAPPER");
		if (wrap && *wrap)
			execlp(wrap, wrap, path, (char *)NULL);
		else
			execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(req[0]);
	close(ans[1]);
	p->to = req[1];
	p->from = ans[0];
	return 0;
}

static inline void zs_peer_stop(struct zs_peer *p)
{
	close(p->to);
	close(p->from);
	int status;
	waitpid(p->pid, &status, 0);
}

/* One request and its answer (into ans). 0 or -1. */
static inline int zs_peer_call(struct zs_peer *p, uint32_t op, const void *data, size_t n,
                               struct zs_buf *ans)
{
	const uint32_t hdr[2] = { op, (uint32_t)n };
	if (zs_write_all(p->to, hdr, sizeof(hdr)) || zs_write_all(p->to, data, n))
		return -1;
	uint32_t len;
	if (zs_read_all(p->from, &len, 4))
		return -1;
	ans->len = 0;
	zs_reserve(ans, len);
	if (zs_read_all(p->from, ans->p, len))
		return -1;
	ans->len = len;
	return 0;
}

static inline int zs_peer_deflate(struct zs_peer *p, const uint8_t *script, size_t n,
                                  struct zs_deflate_result *res)
{
	struct zs_buf ans = { 0 };
	const int rc = zs_peer_call(p, ZS_OP_DEFLATE, script, n, &ans);
	const int dec = rc ? -1 : zs_decode_deflate(&ans, res);
	zs_free(&ans);
	return dec;
}

static inline int zs_peer_inflate(struct zs_peer *p, const struct zs_inflate_opts *o,
                                  const uint8_t *stream, size_t n, struct zs_inflate_result *res)
{
	struct zs_buf req = { 0 }, ans = { 0 };
	zs_encode_inflate_request(&req, o, stream, n);
	const int rc = zs_peer_call(p, ZS_OP_INFLATE, req.p, req.len, &ans);
	const int dec = rc ? -1 : zs_decode_inflate(&ans, res);
	zs_free(&req);
	zs_free(&ans);
	return dec;
}

#endif
