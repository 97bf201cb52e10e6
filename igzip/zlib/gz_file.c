/* zlib's gz* file functions: reading and writing gzip files through the layer's inflate and
 * deflate, with zlib's documented behaviour: a file that is not gzip reads as it is,
 * concatenated members read as one stream, trailing garbage after a member is ignored, seeks
 * forward on writing write zeros, seeks backward on reading start over and skip; errors are kept
 * per file for gzerror. Files and their buffers come from malloc, as zlib's do.
 *
 * A file's state starts with the struct gzFile_s that zlib.h's gzgetc() macro reads: have bytes
 * of output ready at next, and pos, the uncompressed offset of next. */
#define _GNU_SOURCE /* strdup, O_CLOEXEC */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zlib_abi.h"

#define GZ_BUF_DEFAULT 8192u

enum gz_mode { GZ_NONE, GZ_READ, GZ_WRITE };
enum gz_how { HOW_LOOK, HOW_COPY, HOW_GZIP }; /* reading: what the next bytes are */

struct gz_state {
	struct gzFile_s x; /* must come first (gzgetc) */
	enum gz_mode mode;
	int fd;
	char *path;
	unsigned size;      /* buffer size in use, 0 before the first read or write */
	unsigned want;      /* size asked for with gzbuffer */
	unsigned char *in;  /* reading: compressed bytes; writing: data to compress (2 * size) */
	unsigned char *out; /* reading: data decompressed (2 * size); writing: compressed bytes */
	int direct;         /* reading: the file is not gzip; writing: 'T', no compression */
	enum gz_how how;
	z_off64_t start; /* reading: where the file's data starts */
	int eof;         /* reading: the file has no more bytes */
	int past;        /* reading: a read asked for more than there was */
	int level, strategy;
	int reset; /* writing: the stream ended (gzflush Z_FINISH); a new member follows */
	int seek;  /* a seek waits for the next read or write: skip bytes */
	z_off64_t skip;
	int err;
	char *msg;
	z_stream strm;
};

static struct gz_state *gz_of(gzFile file, enum gz_mode mode)
{
	struct gz_state *s = (struct gz_state *)(void *)file;
	if (!s || (mode != GZ_NONE && s->mode != mode) ||
	    (mode == GZ_NONE && s->mode != GZ_READ && s->mode != GZ_WRITE))
		return NULL;
	return s;
}

/* Record an error (Z_OK clears it) with its message, "path: msg". After a fatal error the
 * gzgetc() macro must not find bytes any more. */
static void gz_error(struct gz_state *s, int err, const char *msg)
{
	free(s->msg);
	s->msg = NULL;
	if (err != Z_OK && err != Z_BUF_ERROR)
		s->x.have = 0;
	s->err = err;
	if (!msg || err == Z_MEM_ERROR)
		return;
	const size_t n = strlen(s->path) + strlen(msg) + 3;
	s->msg = malloc(n);
	if (!s->msg) {
		s->err = Z_MEM_ERROR;
		return;
	}
	snprintf(s->msg, n, "%s: %s", s->path, msg);
}

static void gz_reset(struct gz_state *s)
{
	s->x.have = 0;
	if (s->mode == GZ_READ) {
		s->eof = 0;
		s->past = 0;
		s->how = HOW_LOOK;
	} else {
		s->reset = 0;
	}
	s->seek = 0;
	gz_error(s, Z_OK, NULL);
	s->x.pos = 0;
	s->strm.avail_in = 0;
}

/* ---- open and close ------------------------------------------------------------------------- */

static gzFile gz_open(const char *path, int fd, const char *mode)
{
	if (!path)
		return NULL;
	struct gz_state *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->want = GZ_BUF_DEFAULT;
	s->level = Z_DEFAULT_COMPRESSION;
	s->strategy = Z_DEFAULT_STRATEGY;
	s->fd = -1;
	int append = 0, exclusive = 0, cloexec = 0;
	for (const char *m = mode; *m; m++) {
		if (*m >= '0' && *m <= '9') {
			s->level = *m - '0';
			continue;
		}
		switch (*m) {
		case 'r':
			s->mode = GZ_READ;
			break;
		case 'w':
			s->mode = GZ_WRITE;
			append = 0;
			break;
		case 'a':
			s->mode = GZ_WRITE;
			append = 1;
			break;
		case '+': /* reading and writing at once is not offered */
			free(s);
			return NULL;
		case 'e':
			cloexec = 1;
			break;
		case 'x':
			exclusive = 1;
			break;
		case 'f':
			s->strategy = Z_FILTERED;
			break;
		case 'h':
			s->strategy = Z_HUFFMAN_ONLY;
			break;
		case 'R':
			s->strategy = Z_RLE;
			break;
		case 'F':
			s->strategy = Z_FIXED;
			break;
		case 'T':
			s->direct = 1;
			break;
		default: /* 'b' and anything else: ignored */
			break;
		}
	}
	if (s->mode == GZ_NONE || (s->mode == GZ_READ && s->direct)) {
		free(s);
		return NULL;
	}
	if (s->mode == GZ_READ)
		s->direct = 1; /* until a gzip header shows up (an empty file reads as empty) */
	s->path = strdup(path);
	if (!s->path) {
		free(s);
		return NULL;
	}
	int flags = s->mode == GZ_READ ? O_RDONLY
	                               : O_WRONLY | O_CREAT | (exclusive ? O_EXCL : 0) |
	                                     (append ? O_APPEND : O_TRUNC);
	if (cloexec)
		flags |= O_CLOEXEC;
	s->fd = fd >= 0 ? fd : open(path, flags, 0666);
	if (s->fd < 0) {
		free(s->path);
		free(s);
		return NULL;
	}
	if (append)
		lseek(s->fd, 0, SEEK_END);
	if (s->mode == GZ_READ) {
		s->start = lseek(s->fd, 0, SEEK_CUR);
		if (s->start < 0)
			s->start = 0;
	}
	gz_reset(s);
	return (gzFile)(void *)s;
}

ZAPI gzFile gzopen(const char *path, const char *mode)
{
	return gz_open(path, -1, mode);
}

ZAPI gzFile gzopen64(const char *path, const char *mode)
{
	return gz_open(path, -1, mode);
}

ZAPI gzFile gzdopen(int fd, const char *mode)
{
	if (fd < 0)
		return NULL;
	char name[32];
	snprintf(name, sizeof(name), "<fd:%d>", fd);
	return gz_open(name, fd, mode);
}

ZAPI int gzbuffer(gzFile file, unsigned size)
{
	struct gz_state *s = gz_of(file, GZ_NONE);
	if (!s || s->size)
		return -1;
	if ((size << 1) < size)
		return -1; /* the buffers are twice the size */
	s->want = size < 8 ? 8 : size;
	return 0;
}

static void gz_free(struct gz_state *s)
{
	free(s->in);
	free(s->out);
	free(s->msg);
	free(s->path);
	free(s);
}

ZAPI int gzclose_r(gzFile file)
{
	struct gz_state *s = gz_of(file, GZ_READ);
	if (!s)
		return Z_STREAM_ERROR;
	if (s->size)
		zlib_inflate_end(&s->strm);
	const int err = s->err == Z_BUF_ERROR ? Z_BUF_ERROR : Z_OK;
	const int closed = close(s->fd);
	gz_free(s);
	return closed ? Z_ERRNO : err;
}

/* ---- reading -------------------------------------------------------------------------------- */

/* Read up to len bytes into buf, as many as the file gives; sets eof at its end. 0 or -1. */
static int gz_load(struct gz_state *s, unsigned char *buf, unsigned len, unsigned *got)
{
	*got = 0;
	ssize_t r = 0;
	while (*got < len) {
		size_t want = len - *got;
		if (want > (size_t)INT_MAX + 1 - 4096)
			want = (size_t)INT_MAX + 1 - 4096;
		r = read(s->fd, buf + *got, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		*got += (unsigned)r;
	}
	if (r < 0) {
		gz_error(s, Z_ERRNO, strerror(errno));
		return -1;
	}
	if (r == 0)
		s->eof = 1;
	return 0;
}

/* Top up the compressed input behind what is left of it. 0 or -1. */
static int gz_avail(struct gz_state *s)
{
	z_stream *strm = &s->strm;
	if (s->err != Z_OK && s->err != Z_BUF_ERROR)
		return -1;
	if (s->eof)
		return 0;
	if (strm->avail_in)
		memmove(s->in, strm->next_in, strm->avail_in);
	unsigned got;
	if (gz_load(s, s->in + strm->avail_in, s->size - strm->avail_in, &got) == -1)
		return -1;
	strm->avail_in += got;
	strm->next_in = s->in;
	return 0;
}

/* Decide what the next bytes are: a gzip member, or (before any member) plain data to copy;
 * after a member, anything that is not another one is ignored. 0 or -1. */
static int gz_look(struct gz_state *s)
{
	z_stream *strm = &s->strm;
	if (!s->size) {
		s->in = malloc(s->want);
		s->out = malloc((size_t)s->want << 1);
		if (!s->in || !s->out) {
			free(s->in);
			free(s->out);
			s->in = s->out = NULL;
			gz_error(s, Z_MEM_ERROR, "out of memory");
			return -1;
		}
		s->size = s->want;
		memset(strm, 0, sizeof(*strm));
		if (zlib_inflate_init2(strm, 15 + 16) != Z_OK) {
			free(s->in);
			free(s->out);
			s->in = s->out = NULL;
			s->size = 0;
			gz_error(s, Z_MEM_ERROR, "out of memory");
			return -1;
		}
	}
	if (strm->avail_in < 2) {
		if (gz_avail(s) == -1)
			return -1;
		if (!strm->avail_in)
			return 0;
	}
	/* (One byte alone is taken as data: a writer puts a gzip header out in one piece.) */
	if (strm->avail_in > 1 && strm->next_in[0] == 0x1f && strm->next_in[1] == 0x8b) {
		zlib_inflate_reset(strm);
		s->how = HOW_GZIP;
		s->direct = 0;
		return 0;
	}
	if (!s->direct) {
		strm->avail_in = 0;
		s->eof = 1;
		s->x.have = 0;
		return 0;
	}
	/* Plain data: what was read ahead is the first output. */
	s->x.next = s->out;
	memcpy(s->x.next, strm->next_in, strm->avail_in);
	s->x.have = strm->avail_in;
	strm->avail_in = 0;
	s->how = HOW_COPY;
	s->direct = 1;
	return 0;
}

/* Decompress into the output buffer until it has something or the member ends. 0 or -1. */
static int gz_decomp(struct gz_state *s)
{
	z_stream *strm = &s->strm;
	const unsigned had = strm->avail_out;
	int ret = Z_OK;
	do {
		if (!strm->avail_in && gz_avail(s) == -1)
			return -1;
		if (!strm->avail_in) {
			gz_error(s, Z_BUF_ERROR, "unexpected end of file");
			break;
		}
		ret = zlib_inflate(strm, Z_NO_FLUSH);
		if (ret == Z_STREAM_ERROR || ret == Z_NEED_DICT) {
			gz_error(s, Z_STREAM_ERROR, "internal error: inflate stream corrupt");
			return -1;
		}
		if (ret == Z_MEM_ERROR) {
			gz_error(s, Z_MEM_ERROR, "out of memory");
			return -1;
		}
		if (ret == Z_DATA_ERROR) {
			gz_error(s, Z_DATA_ERROR, strm->msg ? strm->msg : "compressed data error");
			return -1;
		}
	} while (strm->avail_out && ret != Z_STREAM_END);
	s->x.have = had - strm->avail_out;
	s->x.next = strm->next_out - s->x.have;
	if (ret == Z_STREAM_END)
		s->how = HOW_LOOK;
	return 0;
}

/* Make output available in the output buffer (none at the end of the file). 0 or -1. */
static int gz_fetch(struct gz_state *s)
{
	z_stream *strm = &s->strm;
	do {
		switch (s->how) {
		case HOW_LOOK:
			if (gz_look(s) == -1)
				return -1;
			if (s->how == HOW_LOOK)
				return 0;
			break;
		case HOW_COPY: {
			unsigned got;
			if (gz_load(s, s->out, s->size << 1, &got) == -1)
				return -1;
			s->x.have = got;
			s->x.next = s->out;
			return 0;
		}
		case HOW_GZIP:
			strm->avail_out = s->size << 1;
			strm->next_out = s->out;
			if (gz_decomp(s) == -1)
				return -1;
			break;
		}
	} while (!s->x.have && (!s->eof || strm->avail_in));
	return 0;
}

/* Skip len bytes of output. 0 or -1. */
static int gz_skip(struct gz_state *s, z_off64_t len)
{
	while (len) {
		if (s->x.have) {
			const unsigned n = (z_off64_t)s->x.have > len ? (unsigned)len : s->x.have;
			s->x.have -= n;
			s->x.next += n;
			s->x.pos += n;
			len -= n;
		} else if (s->eof && !s->strm.avail_in) {
			break;
		} else if (gz_fetch(s) == -1) {
			return -1;
		}
	}
	return 0;
}

static int gz_zero(struct gz_state *s, z_off64_t len);

/* Carry out a seek that waits for the next read or write: skip bytes when reading, write zeros
 * when writing. 0 or -1. */
static int gz_seek_now(struct gz_state *s)
{
	if (!s->seek)
		return 0;
	s->seek = 0;
	return s->mode == GZ_READ ? gz_skip(s, s->skip) : gz_zero(s, s->skip);
}

/* Read up to len bytes into buf; the count read (0 on an error or at the end). */
static size_t gz_read(struct gz_state *s, void *buf, size_t len)
{
	if (!len)
		return 0;
	if (gz_seek_now(s) == -1)
		return 0;
	size_t total = 0;
	unsigned char *dst = buf;
	while (len) {
		unsigned n = len > UINT_MAX ? UINT_MAX : (unsigned)len;
		if (s->x.have) {
			if (s->x.have < n)
				n = s->x.have;
			memcpy(dst, s->x.next, n);
			s->x.next += n;
			s->x.have -= n;
		} else if (s->eof && !s->strm.avail_in) {
			s->past = 1;
			break;
		} else if (s->how == HOW_LOOK || n < (s->size << 1)) {
			/* Small reads go through the buffer. */
			if (gz_fetch(s) == -1)
				return 0;
			continue;
		} else if (s->how == HOW_COPY) {
			if (gz_load(s, dst, n, &n) == -1)
				return 0;
		} else {
			s->strm.avail_out = n;
			s->strm.next_out = dst;
			if (gz_decomp(s) == -1)
				return 0;
			n = s->x.have;
			s->x.have = 0;
		}
		len -= n;
		dst += n;
		total += n;
		s->x.pos += n;
	}
	return total;
}

static struct gz_state *gz_reader(gzFile file)
{
	struct gz_state *s = gz_of(file, GZ_READ);
	if (!s || (s->err != Z_OK && s->err != Z_BUF_ERROR))
		return NULL;
	return s;
}

ZAPI int gzread(gzFile file, void *buf, unsigned len)
{
	struct gz_state *s = gz_reader(file);
	if (!s)
		return -1;
	if ((int)len < 0) {
		gz_error(s, Z_STREAM_ERROR, "request does not fit in an int");
		return -1;
	}
	const size_t n = gz_read(s, buf, len);
	if (!n && s->err != Z_OK && s->err != Z_BUF_ERROR)
		return -1;
	return (int)n;
}

/* The bytes of nitems items of size bytes for gzfread and gzfwrite; 0 (and an error) when that
 * does not fit in a size_t. */
static size_t gz_items(struct gz_state *s, size_t size, size_t nitems)
{
	const size_t len = nitems * size;
	if (size && len / size != nitems) {
		gz_error(s, Z_STREAM_ERROR, "request does not fit in a size_t");
		return 0;
	}
	return len;
}

ZAPI size_t gzfread(void *buf, size_t size, size_t nitems, gzFile file)
{
	struct gz_state *s = gz_reader(file);
	const size_t len = s ? gz_items(s, size, nitems) : 0;
	return len ? gz_read(s, buf, len) / size : 0;
}

ZAPI int gzgetc(gzFile file)
{
	struct gz_state *s = gz_reader(file);
	if (!s)
		return -1;
	if (s->x.have) {
		s->x.have--;
		s->x.pos++;
		return *s->x.next++;
	}
	unsigned char c;
	return gz_read(s, &c, 1) < 1 ? -1 : c;
}

ZAPI int gzgetc_(gzFile file)
{
	return gzgetc(file);
}

ZAPI int gzungetc(int c, gzFile file)
{
	struct gz_state *s = gz_reader(file);
	if (!s)
		return -1;
	if (s->size == 0)
		gz_look(s); /* the buffers, for a push back before any read */
	if (gz_seek_now(s) == -1)
		return -1;
	if (c < 0 || !s->size)
		return -1;
	const unsigned cap = s->size << 1;
	if (!s->x.have) {
		s->x.have = 1;
		s->x.next = s->out + cap - 1;
		s->x.next[0] = (unsigned char)c;
		s->x.pos--;
		s->past = 0;
		return c;
	}
	if (s->x.have == cap) {
		gz_error(s, Z_DATA_ERROR, "out of room to push characters");
		return -1;
	}
	if (s->x.next == s->out) {
		/* Move what is there to the end of the buffer to make room in front. */
		memmove(s->out + cap - s->x.have, s->x.next, s->x.have);
		s->x.next = s->out + cap - s->x.have;
	}
	s->x.have++;
	s->x.next--;
	s->x.next[0] = (unsigned char)c;
	s->x.pos--;
	s->past = 0;
	return c;
}

ZAPI char *gzgets(gzFile file, char *buf, int len)
{
	struct gz_state *s = gz_reader(file);
	if (!s || !buf || len < 1)
		return NULL;
	if (gz_seek_now(s) == -1)
		return NULL;
	unsigned left = (unsigned)len - 1;
	char *str = buf;
	while (left) {
		if (!s->x.have && gz_fetch(s) == -1)
			return NULL;
		if (!s->x.have) {
			s->past = 1;
			break;
		}
		unsigned n = s->x.have < left ? s->x.have : left;
		const unsigned char *eol = memchr(s->x.next, '\n', n);
		if (eol)
			n = (unsigned)(eol - s->x.next) + 1;
		memcpy(str, s->x.next, n);
		s->x.have -= n;
		s->x.next += n;
		s->x.pos += n;
		left -= n;
		str += n;
		if (eol)
			break;
	}
	if (str == buf)
		return NULL;
	*str = '\0';
	return buf;
}

ZAPI int gzdirect(gzFile file)
{
	struct gz_state *s = gz_of(file, GZ_NONE);
	if (!s)
		return 0;
	if (s->mode == GZ_READ && s->how == HOW_LOOK && !s->x.have)
		gz_look(s);
	return s->direct;
}

ZAPI int gzeof(gzFile file)
{
	struct gz_state *s = gz_of(file, GZ_NONE);
	return s && s->mode == GZ_READ ? s->past : 0;
}

/* ---- writing -------------------------------------------------------------------------------- */

static int gz_init(struct gz_state *s)
{
	s->in = malloc((size_t)s->want << 1); /* twice: gzprintf formats behind pending input */
	if (!s->in) {
		gz_error(s, Z_MEM_ERROR, "out of memory");
		return -1;
	}
	z_stream *strm = &s->strm;
	if (!s->direct) {
		s->out = malloc(s->want);
		memset(strm, 0, sizeof(*strm));
		if (!s->out || zlib_deflate_init2(strm, s->level, Z_DEFLATED, 15 + 16, 8,
		                                  s->strategy) != Z_OK) {
			free(s->out);
			free(s->in);
			s->in = s->out = NULL;
			gz_error(s, Z_MEM_ERROR, "out of memory");
			return -1;
		}
		strm->next_in = NULL;
	}
	s->size = s->want;
	if (!s->direct) {
		strm->avail_out = s->size;
		strm->next_out = s->out;
		s->x.next = s->out;
	}
	return 0;
}

static int gz_write_fd(struct gz_state *s, const unsigned char *p, size_t n)
{
	while (n) {
		const ssize_t w = write(s->fd, p, n > (size_t)INT_MAX ? (size_t)INT_MAX : n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			gz_error(s, Z_ERRNO, strerror(errno));
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Compress the pending input with flush, writing full output buffers to the file (and all of
 * it when flushing). 0 or -1. */
static int gz_comp(struct gz_state *s, int flush)
{
	z_stream *strm = &s->strm;
	if (!s->size && gz_init(s) == -1)
		return -1;
	if (s->direct) {
		if (gz_write_fd(s, strm->next_in, strm->avail_in) == -1)
			return -1;
		strm->avail_in = 0;
		return 0;
	}
	if (s->reset) {
		if (!strm->avail_in)
			return 0;
		zlib_deflate_reset(strm);
		s->reset = 0;
	}
	int ret = Z_OK;
	unsigned have;
	do {
		if (!strm->avail_out ||
		    (flush != Z_NO_FLUSH && (flush != Z_FINISH || ret == Z_STREAM_END))) {
			if (gz_write_fd(s, s->x.next, (size_t)(strm->next_out - s->x.next)) == -1)
				return -1;
			if (!strm->avail_out) {
				strm->avail_out = s->size;
				strm->next_out = s->out;
			}
			s->x.next = strm->next_out;
		}
		have = strm->avail_out;
		ret = zlib_deflate(strm, flush);
		if (ret == Z_STREAM_ERROR) {
			gz_error(s, Z_STREAM_ERROR, "internal error: deflate stream corrupt");
			return -1;
		}
		have -= strm->avail_out;
	} while (have);
	if (flush == Z_FINISH)
		s->reset = 1;
	return 0;
}

/* Write len zeros (a seek forward). 0 or -1. (The buffers must exist first: a seek may come
 * before any write.) */
static int gz_zero(struct gz_state *s, z_off64_t len)
{
	z_stream *strm = &s->strm;
	if (!s->size && gz_init(s) == -1)
		return -1;
	if (strm->avail_in && gz_comp(s, Z_NO_FLUSH) == -1)
		return -1;
	int first = 1;
	while (len) {
		const unsigned n = (z_off64_t)s->size > len ? (unsigned)len : s->size;
		if (first) {
			memset(s->in, 0, n);
			first = 0;
		}
		strm->avail_in = n;
		strm->next_in = s->in;
		s->x.pos += n;
		if (gz_comp(s, Z_NO_FLUSH) == -1)
			return -1;
		len -= n;
	}
	return 0;
}

/* Write len bytes from buf; the count written (0 on an error). */
static size_t gz_write(struct gz_state *s, const void *buf, size_t len)
{
	if (!len)
		return 0;
	if (!s->size && gz_init(s) == -1)
		return 0;
	if (gz_seek_now(s) == -1)
		return 0;
	z_stream *strm = &s->strm;
	const unsigned char *src = buf;
	size_t left = len;
	if (len < s->size) {
		/* Small writes gather in the input buffer. */
		while (left) {
			if (!strm->avail_in)
				strm->next_in = s->in;
			const unsigned have = (unsigned)(strm->next_in + strm->avail_in - s->in);
			unsigned n = s->size - have;
			if (n > left)
				n = (unsigned)left;
			memcpy(s->in + have, src, n);
			strm->avail_in += n;
			s->x.pos += n;
			src += n;
			left -= n;
			if (left && gz_comp(s, Z_NO_FLUSH) == -1)
				return 0;
		}
		return len;
	}
	/* Large ones are compressed straight from the caller's buffer. */
	if (strm->avail_in && gz_comp(s, Z_NO_FLUSH) == -1)
		return 0;
	while (left) {
		const unsigned n = left > UINT_MAX ? UINT_MAX : (unsigned)left;
		strm->next_in = src;
		strm->avail_in = n;
		s->x.pos += n;
		if (gz_comp(s, Z_NO_FLUSH) == -1)
			return 0;
		src += n;
		left -= n;
	}
	return len;
}

static struct gz_state *gz_writer(gzFile file)
{
	struct gz_state *s = gz_of(file, GZ_WRITE);
	if (!s || s->err != Z_OK)
		return NULL;
	return s;
}

ZAPI int gzwrite(gzFile file, const void *buf, unsigned len)
{
	struct gz_state *s = gz_writer(file);
	if (!s)
		return 0;
	if ((int)len < 0) {
		gz_error(s, Z_DATA_ERROR, "requested length does not fit in int");
		return 0;
	}
	return (int)gz_write(s, buf, len);
}

ZAPI size_t gzfwrite(const void *buf, size_t size, size_t nitems, gzFile file)
{
	struct gz_state *s = gz_writer(file);
	const size_t len = s ? gz_items(s, size, nitems) : 0;
	return len ? gz_write(s, buf, len) / size : 0;
}

ZAPI int gzputc(gzFile file, int c)
{
	struct gz_state *s = gz_writer(file);
	if (!s)
		return -1;
	if (gz_seek_now(s) == -1)
		return -1;
	z_stream *strm = &s->strm;
	if (s->size) {
		if (!strm->avail_in)
			strm->next_in = s->in;
		const unsigned have = (unsigned)(strm->next_in + strm->avail_in - s->in);
		if (have < s->size) {
			s->in[have] = (unsigned char)c;
			strm->avail_in++;
			s->x.pos++;
			return c & 0xff;
		}
	}
	const unsigned char b = (unsigned char)c;
	return gz_write(s, &b, 1) != 1 ? -1 : c & 0xff;
}

ZAPI int gzputs(gzFile file, const char *str)
{
	struct gz_state *s = gz_writer(file);
	if (!s)
		return -1;
	const size_t len = strlen(str);
	if ((int)len < 0 || len > INT_MAX) {
		gz_error(s, Z_STREAM_ERROR, "string length does not fit in int");
		return -1;
	}
	const size_t put = gz_write(s, str, len);
	return put < len ? -1 : (int)len;
}

ZAPI int gzvprintf(gzFile file, const char *format, va_list va)
{
	struct gz_state *s = gz_of(file, GZ_WRITE);
	if (!s)
		return Z_STREAM_ERROR;
	if (s->err != Z_OK)
		return s->err;
	if (!s->size && gz_init(s) == -1)
		return s->err;
	if (gz_seek_now(s) == -1)
		return s->err;
	/* Formatted behind the pending input: the input buffer is twice the size for this. */
	z_stream *strm = &s->strm;
	if (!strm->avail_in)
		strm->next_in = s->in;
	char *next = (char *)s->in + (strm->next_in - s->in) + strm->avail_in;
	next[s->size - 1] = 0;
	const int len = vsnprintf(next, s->size, format, va);
	if (len <= 0 || (unsigned)len >= s->size || next[s->size - 1] != 0)
		return 0;
	strm->avail_in += (unsigned)len;
	s->x.pos += len;
	if (strm->avail_in >= s->size) {
		const unsigned left = strm->avail_in - s->size;
		strm->avail_in = s->size;
		if (gz_comp(s, Z_NO_FLUSH) == -1)
			return s->err;
		memmove(s->in, s->in + s->size, left);
		strm->next_in = s->in;
		strm->avail_in = left;
	}
	return len;
}

ZAPI int gzprintf(gzFile file, const char *format, ...)
{
	va_list va;
	va_start(va, format);
	const int r = gzvprintf(file, format, va);
	va_end(va);
	return r;
}

ZAPI int gzflush(gzFile file, int flush)
{
	struct gz_state *s = gz_of(file, GZ_WRITE);
	if (!s || s->err != Z_OK)
		return Z_STREAM_ERROR;
	if (flush < 0 || flush > Z_FINISH)
		return Z_STREAM_ERROR;
	if (gz_seek_now(s) == -1)
		return s->err;
	gz_comp(s, flush);
	return s->err;
}

ZAPI int gzsetparams(gzFile file, int level, int strategy)
{
	struct gz_state *s = gz_of(file, GZ_WRITE);
	if (!s || s->err != Z_OK || s->direct)
		return Z_STREAM_ERROR;
	if (level == s->level && strategy == s->strategy)
		return Z_OK;
	if (gz_seek_now(s) == -1)
		return s->err;
	if (s->size) {
		if (s->strm.avail_in && gz_comp(s, Z_BLOCK) == -1)
			return s->err;
		zlib_deflate_params(&s->strm, level, strategy);
	}
	s->level = level;
	s->strategy = strategy;
	return Z_OK;
}

ZAPI int gzclose_w(gzFile file)
{
	struct gz_state *s = gz_of(file, GZ_WRITE);
	if (!s)
		return Z_STREAM_ERROR;
	int err = Z_OK;
	if (gz_seek_now(s) == -1)
		err = s->err;
	if (gz_comp(s, Z_FINISH) == -1)
		err = s->err;
	if (s->size && !s->direct)
		zlib_deflate_end(&s->strm);
	if (close(s->fd) == -1)
		err = Z_ERRNO;
	gz_free(s);
	return err;
}

ZAPI int gzclose(gzFile file)
{
	struct gz_state *s = gz_of(file, GZ_NONE);
	if (!s)
		return Z_STREAM_ERROR;
	return s->mode == GZ_READ ? gzclose_r(file) : gzclose_w(file);
}

/* ---- positions and errors ------------------------------------------------------------------- */

ZAPI int gzrewind(gzFile file)
{
	struct gz_state *s = gz_reader(file);
	if (!s)
		return -1;
	if (lseek(s->fd, s->start, SEEK_SET) == -1)
		return -1;
	gz_reset(s);
	return 0;
}

ZAPI z_off64_t gzseek64(gzFile file, z_off64_t offset, int whence)
{
	struct gz_state *s = gz_of(file, GZ_NONE);
	if (!s || (s->err != Z_OK && s->err != Z_BUF_ERROR))
		return -1;
	if (whence != SEEK_SET && whence != SEEK_CUR)
		return -1;
	/* As a move from the current position. */
	if (whence == SEEK_SET)
		offset -= s->x.pos;
	else if (s->seek)
		offset += s->skip;
	s->seek = 0;
	if (s->mode == GZ_READ && s->how == HOW_COPY && s->x.pos + offset >= 0) {
		/* Plain data: seek the file itself. */
		if (lseek(s->fd, offset - (z_off64_t)s->x.have, SEEK_CUR) == -1)
			return -1;
		s->x.have = 0;
		s->eof = 0;
		s->past = 0;
		gz_error(s, Z_OK, NULL);
		s->strm.avail_in = 0;
		s->x.pos += offset;
		return s->x.pos;
	}
	if (offset < 0) {
		if (s->mode != GZ_READ)
			return -1; /* written data cannot be taken back */
		offset += s->x.pos;
		if (offset < 0)
			return -1;
		if (gzrewind(file) == -1)
			return -1;
	}
	if (s->mode == GZ_READ) {
		const unsigned n = (z_off64_t)s->x.have > offset ? (unsigned)offset : s->x.have;
		s->x.have -= n;
		s->x.next += n;
		s->x.pos += n;
		offset -= n;
	}
	if (offset) {
		s->seek = 1;
		s->skip = offset;
	}
	return s->x.pos + offset;
}

ZAPI z_off_t gzseek(gzFile file, z_off_t offset, int whence)
{
	return gzseek64(file, offset, whence);
}

ZAPI z_off64_t gztell64(gzFile file)
{
	struct gz_state *s = gz_of(file, GZ_NONE);
	if (!s)
		return -1;
	return s->x.pos + (s->seek ? s->skip : 0);
}

ZAPI z_off_t gztell(gzFile file)
{
	return gztell64(file);
}

ZAPI z_off64_t gzoffset64(gzFile file)
{
	struct gz_state *s = gz_of(file, GZ_NONE);
	if (!s)
		return -1;
	z_off64_t off = lseek(s->fd, 0, SEEK_CUR);
	if (off == -1)
		return -1;
	if (s->mode == GZ_READ)
		off -= s->strm.avail_in; /* read ahead, not yet used */
	return off;
}

ZAPI z_off_t gzoffset(gzFile file)
{
	return gzoffset64(file);
}

ZAPI const char *gzerror(gzFile file, int *errnum)
{
	struct gz_state *s = gz_of(file, GZ_NONE);
	if (!s)
		return NULL;
	if (errnum)
		*errnum = s->err;
	if (s->err == Z_MEM_ERROR)
		return "out of memory";
	return s->msg ? s->msg : "";
}

ZAPI void gzclearerr(gzFile file)
{
	struct gz_state *s = gz_of(file, GZ_NONE);
	if (!s)
		return;
	if (s->mode == GZ_READ) {
		s->eof = 0;
		s->past = 0;
	}
	gz_error(s, Z_OK, NULL);
}
