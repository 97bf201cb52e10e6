/* zlib 1.2.13's application binary interface, as stoa's libz.so.1 implements it (internal
 * header of the zlib-compatible layer).
 *
 * Programs are compiled against zlib's own zlib.h and run on this library unchanged, so what
 * they see of it is fixed: the layout of z_stream, gz_header and the head of a gzFile (64-bit
 * Linux: uInt 32 bits, uLong and z_off_t 64; 32-bit Linux: uLong and z_off_t 32, z_off64_t 64),
 * the constants, and the functions with their symbol versions (libz.map). Those facts come from zlib's documentation and header; the text here is
 * stoa's. tests/test_zlib_abi.c compares the layout with the system's zlib.h.
 */
#ifndef STOA_ZLIB_ABI_H
#define STOA_ZLIB_ABI_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#pragma GCC visibility push(hidden)

/* An exported zlib function (the library is built with hidden visibility). */
#define ZAPI __attribute__((visibility("default")))

#define ZLIB_VERSION_STRING "1.2.13"

typedef unsigned char Bytef;
typedef unsigned int uInt;
typedef unsigned long uLong;
typedef void *voidpf;
typedef uint32_t z_crc_t;
typedef long z_off_t;
typedef off_t z_off64_t;
_Static_assert(sizeof(z_off64_t) == 8, "64-bit file offsets");

typedef voidpf (*alloc_func)(voidpf opaque, uInt items, uInt size);
typedef void (*free_func)(voidpf opaque, voidpf address);

/* The stream every deflate and inflate call takes. */
typedef struct z_stream_s {
	const Bytef *next_in;
	uInt avail_in;
	uLong total_in;
	Bytef *next_out;
	uInt avail_out;
	uLong total_out;
	const char *msg;
	struct internal_state *state;
	alloc_func zalloc;
	free_func zfree;
	voidpf opaque;
	int data_type;
	uLong adler;
	uLong reserved;
} z_stream;
typedef z_stream *z_streamp;

/* A gzip header's fields, for deflateSetHeader and inflateGetHeader. */
typedef struct gz_header_s {
	int text;
	uLong time;
	int xflags;
	int os;
	Bytef *extra;
	uInt extra_len;
	uInt extra_max;
	Bytef *name;
	uInt name_max;
	Bytef *comment;
	uInt comm_max;
	int hcrc;
	int done;
} gz_header;
typedef gz_header *gz_headerp;

/* What zlib.h's gzgetc() macro reads of an open gzip file: bytes ready at next, have of them,
 * and the uncompressed position. A file's state starts with it. */
struct gzFile_s {
	unsigned have;
	unsigned char *next;
	z_off64_t pos;
};
typedef struct gzFile_s *gzFile;

typedef unsigned (*in_func)(void *desc, const unsigned char **buf);
typedef int (*out_func)(void *desc, unsigned char *buf, unsigned len);

enum {
	Z_NO_FLUSH = 0,
	Z_PARTIAL_FLUSH = 1,
	Z_SYNC_FLUSH = 2,
	Z_FULL_FLUSH = 3,
	Z_FINISH = 4,
	Z_BLOCK = 5,
	Z_TREES = 6,
};

enum {
	Z_OK = 0,
	Z_STREAM_END = 1,
	Z_NEED_DICT = 2,
	Z_ERRNO = -1,
	Z_STREAM_ERROR = -2,
	Z_DATA_ERROR = -3,
	Z_MEM_ERROR = -4,
	Z_BUF_ERROR = -5,
	Z_VERSION_ERROR = -6,
};

enum {
	Z_DEFAULT_COMPRESSION = -1,
	Z_DEFAULT_STRATEGY = 0,
	Z_FILTERED = 1,
	Z_HUFFMAN_ONLY = 2,
	Z_RLE = 3,
	Z_FIXED = 4,
};

enum { Z_BINARY = 0, Z_TEXT = 1, Z_UNKNOWN = 2 };
#define Z_DEFLATED 8

#pragma GCC visibility pop

/* ---- The exported functions (their symbol versions: libz.map) ---------------------------------
 */

ZAPI const char *zlibVersion(void);
ZAPI uLong zlibCompileFlags(void);
ZAPI const char *zError(int err);

ZAPI int deflateInit_(z_streamp strm, int level, const char *version, int stream_size);
ZAPI int deflateInit2_(z_streamp strm, int level, int method, int window_bits, int mem_level,
                       int strategy, const char *version, int stream_size);
ZAPI int deflate(z_streamp strm, int flush);
ZAPI int deflateEnd(z_streamp strm);
ZAPI int deflateReset(z_streamp strm);
ZAPI int deflateResetKeep(z_streamp strm);
ZAPI int deflateParams(z_streamp strm, int level, int strategy);
ZAPI int deflateTune(z_streamp strm, int good_length, int max_lazy, int nice_length, int max_chain);
ZAPI int deflateSetHeader(z_streamp strm, gz_headerp head);
ZAPI int deflateSetDictionary(z_streamp strm, const Bytef *dictionary, uInt dict_length);
ZAPI int deflateGetDictionary(z_streamp strm, Bytef *dictionary, uInt *dict_length);
ZAPI uLong deflateBound(z_streamp strm, uLong source_len);
ZAPI int deflatePending(z_streamp strm, unsigned *pending, int *bits);
ZAPI int deflatePrime(z_streamp strm, int bits, int value);
ZAPI int deflateCopy(z_streamp dest, z_streamp source);

ZAPI int inflateInit_(z_streamp strm, const char *version, int stream_size);
ZAPI int inflateInit2_(z_streamp strm, int window_bits, const char *version, int stream_size);
ZAPI int inflate(z_streamp strm, int flush);
ZAPI int inflateEnd(z_streamp strm);
ZAPI int inflateReset(z_streamp strm);
ZAPI int inflateResetKeep(z_streamp strm);
ZAPI int inflateReset2(z_streamp strm, int window_bits);
ZAPI int inflateSetDictionary(z_streamp strm, const Bytef *dictionary, uInt dict_length);
ZAPI int inflateGetDictionary(z_streamp strm, Bytef *dictionary, uInt *dict_length);
ZAPI int inflateGetHeader(z_streamp strm, gz_headerp head);
ZAPI int inflateSync(z_streamp strm);
ZAPI int inflateSyncPoint(z_streamp strm);
ZAPI int inflatePrime(z_streamp strm, int bits, int value);
ZAPI long inflateMark(z_streamp strm);
ZAPI int inflateCopy(z_streamp dest, z_streamp source);
ZAPI int inflateValidate(z_streamp strm, int check);
ZAPI int inflateUndermine(z_streamp strm, int subvert);
ZAPI unsigned long inflateCodesUsed(z_streamp strm);
ZAPI int inflateBackInit_(z_streamp strm, int window_bits, unsigned char *window,
                          const char *version, int stream_size);
ZAPI int inflateBack(z_streamp strm, in_func in, void *in_desc, out_func out, void *out_desc);
ZAPI int inflateBackEnd(z_streamp strm);

ZAPI uLong compressBound(uLong source_len);
ZAPI int compress(Bytef *dest, uLong *dest_len, const Bytef *source, uLong source_len);
ZAPI int compress2(Bytef *dest, uLong *dest_len, const Bytef *source, uLong source_len, int level);
ZAPI int uncompress(Bytef *dest, uLong *dest_len, const Bytef *source, uLong source_len);
ZAPI int uncompress2(Bytef *dest, uLong *dest_len, const Bytef *source, uLong *source_len);

ZAPI uLong adler32(uLong adler, const Bytef *buf, uInt len);
ZAPI uLong adler32_z(uLong adler, const Bytef *buf, size_t len);
ZAPI uLong adler32_combine(uLong adler1, uLong adler2, z_off_t len2);
ZAPI uLong adler32_combine64(uLong adler1, uLong adler2, z_off64_t len2);
ZAPI uLong crc32(uLong crc, const Bytef *buf, uInt len);
ZAPI uLong crc32_z(uLong crc, const Bytef *buf, size_t len);
ZAPI uLong crc32_combine(uLong crc1, uLong crc2, z_off_t len2);
ZAPI uLong crc32_combine64(uLong crc1, uLong crc2, z_off64_t len2);
ZAPI uLong crc32_combine_gen(z_off_t len2);
ZAPI uLong crc32_combine_gen64(z_off64_t len2);
ZAPI uLong crc32_combine_op(uLong crc1, uLong crc2, uLong op);
ZAPI const z_crc_t *get_crc_table(void);

ZAPI gzFile gzopen(const char *path, const char *mode);
ZAPI gzFile gzopen64(const char *path, const char *mode);
ZAPI gzFile gzdopen(int fd, const char *mode);
ZAPI int gzbuffer(gzFile file, unsigned size);
ZAPI int gzsetparams(gzFile file, int level, int strategy);
ZAPI int gzread(gzFile file, void *buf, unsigned len);
ZAPI size_t gzfread(void *buf, size_t size, size_t nitems, gzFile file);
ZAPI int gzwrite(gzFile file, const void *buf, unsigned len);
ZAPI size_t gzfwrite(const void *buf, size_t size, size_t nitems, gzFile file);
ZAPI int gzprintf(gzFile file, const char *format, ...);
ZAPI int gzvprintf(gzFile file, const char *format, va_list va);
ZAPI int gzputs(gzFile file, const char *s);
ZAPI char *gzgets(gzFile file, char *buf, int len);
ZAPI int gzputc(gzFile file, int c);
ZAPI int gzgetc(gzFile file);
ZAPI int gzgetc_(gzFile file);
ZAPI int gzungetc(int c, gzFile file);
ZAPI int gzflush(gzFile file, int flush);
ZAPI z_off_t gzseek(gzFile file, z_off_t offset, int whence);
ZAPI z_off64_t gzseek64(gzFile file, z_off64_t offset, int whence);
ZAPI int gzrewind(gzFile file);
ZAPI z_off_t gztell(gzFile file);
ZAPI z_off64_t gztell64(gzFile file);
ZAPI z_off_t gzoffset(gzFile file);
ZAPI z_off64_t gzoffset64(gzFile file);
ZAPI int gzeof(gzFile file);
ZAPI int gzdirect(gzFile file);
ZAPI int gzclose(gzFile file);
ZAPI int gzclose_r(gzFile file);
ZAPI int gzclose_w(gzFile file);
ZAPI const char *gzerror(gzFile file, int *errnum);
ZAPI void gzclearerr(gzFile file);

#pragma GCC visibility push(hidden)

/* ---- Shared by the layer's files (zlib_util.c) ----------------------------------------------- */

/* The head of every stream state z_stream.state points to: the stream it belongs to (a z_stream
 * moved by memcpy instead of deflateCopy/inflateCopy is refused, as zlib refuses it) and which
 * kind of state it is. */
struct internal_state {
	z_streamp strm;
	uint32_t kind;
};
enum {
	ZSTATE_KIND_DEFLATE = 0x64656631,
	ZSTATE_KIND_INFLATE = 0x696e6631,
	ZSTATE_KIND_INFBACK = 0x69626b31
};

/* zError's text for a return code. */
const char *zlib_err_msg(int err);

/* The memory functions a stream names, or the defaults when it names none. */
void zlib_default_alloc(z_streamp strm);
void *zlib_alloc(z_streamp strm, size_t size);
void zlib_free(z_streamp strm, void *p);

/* The version check of every *Init_ function: 0 when the caller's zlib.h is compatible. */
int zlib_version_mismatch(const char *version, int stream_size);

/* CRC-32 and Adler-32 on stoa's kernels, for any length. */
uint32_t zlib_crc32(uint32_t crc, const uint8_t *p, size_t n);
uint32_t zlib_adler32(uint32_t adler, const uint8_t *p, size_t n);

/* The exported functions other files of the layer call, under internal names so the calls stay
 * inside the library (a program's own definitions of these names do not divert them). */
int zlib_deflate_init2(z_streamp strm, int level, int method, int window_bits, int mem_level,
                       int strategy);
int zlib_deflate(z_streamp strm, int flush);
int zlib_deflate_end(z_streamp strm);
int zlib_deflate_reset(z_streamp strm);
int zlib_deflate_params(z_streamp strm, int level, int strategy);
uLong zlib_deflate_bound(z_streamp strm, uLong source_len);
int zlib_inflate_init2(z_streamp strm, int window_bits);
int zlib_inflate(z_streamp strm, int flush);
int zlib_inflate_end(z_streamp strm);
int zlib_inflate_reset(z_streamp strm);

#pragma GCC visibility pop

#endif
