/* igzip: a gzip-compatible command-line compressor built on the ISA-L deflate API.
 *
 * The program only uses the public API: ISA-L's (<isa-l/igzip_lib.h>, <isa-l/crc.h>) and, to join
 * the CRC-32s of blocks compressed in parallel, stoa's CRC combination (<stoa.h>). The gzip
 * wrapper (RFC 1952) is written and parsed here; the library sees raw deflate when compressing
 * and a headerless member with a checked trailer (ISAL_GZIP_NO_HDR_VER) when decompressing.
 *
 * Files are never written in place: output goes to a temporary file in the destination directory,
 * which is renamed over the final name only once everything succeeded; SIGINT, SIGTERM and SIGHUP
 * remove it. With -T N (N > 1) the input is cut into blocks compressed on N threads, each block
 * primed with the 32 KiB of input before it and ended with a sync flush, so the blocks concatenate
 * into one deflate stream; the CRC-32 of each block is computed by its worker and combined in
 * order by the writer.
 *
 * A regular input file is mapped rather than read: read(2) copies every byte once more (a fifth
 * of level 0's time), and with -T N the
 * workers then take their blocks and the 32 KiB before them straight from the mapping, so the
 * main thread only writes. A mapped file is cut into the same blocks with one thread, coded one
 * after another, so its output does not depend on N. Should the file shrink while it is mapped,
 * the SIGBUS that follows removes the temporary output and exits with an error. Pipes,
 * terminals and empty files are read, and with one thread go through one stream. */
#ifndef STOA_PROGRAMS_IGZIP_H
#define STOA_PROGRAMS_IGZIP_H

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <stoa.h>

#ifndef IGZIP_VERSION
#define IGZIP_VERSION "unknown"
#endif

/* RFC 1952 section 2.3: member header fields. */
#define GZ_ID1         0x1f
#define GZ_ID2         0x8b
#define GZ_CM_DEFLATE  8
#define GZ_FHCRC       0x02
#define GZ_FEXTRA      0x04
#define GZ_FNAME       0x08
#define GZ_FCOMMENT    0x10
#define GZ_FRESERVED   0xe0
#define GZ_XFL_FASTEST 4
#define GZ_XFL_BEST 2
#define GZ_OS_UNIX     3
#define GZ_FIXED_HDR   10
#define GZ_TRAILER     8

#define IO_CHUNK (1u << 20) /* read and write size of the streaming paths */

#define MT_MAX_THREADS  256
#define STORED_NAME_MAX 4096 /* longest FNAME kept when decompressing */

enum mode { MODE_COMPRESS, MODE_DECOMPRESS, MODE_TEST, MODE_LIST };

struct options {
	enum mode mode;
	int to_stdout;
	int force;
	int remove_input; /* --rm; the default is to keep the input, like ISA-L's igzip */
	int verbose;
	int quiet;
	int save_name; /* -N / -n; -1 until decided by the mode */
	int level;
	int threads;
	int recursive; /* -r: descend into directories */
	const char *out_name;
	const char *suffix;
};

struct progress {
	int enabled;
	const char *label;
	uint64_t total; /* input size, 0 when unknown */
	double start, last;
};

struct in_file {
	int fd;
	int is_stdin;
	const char *path;  /* NULL for standard input */
	const char *label; /* for messages */
	struct stat st;
	const uint8_t *map; /* a regular file's bytes from its offset on, or NULL: read(2) it */
	size_t map_len;     /* how many */
	size_t map_pos;     /* how many were handed out (in_next) */
	void *map_addr;     /* the mapping itself, from the page the offset is in */
	size_t map_size;
};

struct out_file {
	int fd;      /* -1 when output is discarded (-t) */
	int is_temp; /* fd is tmp, to be renamed to target */
	int is_node; /* fd is an existing device or FIFO, written in place and only closed */
	const char *label;
	uint64_t bytes;
	char final[PATH_MAX];  /* the name asked for */
	char target[PATH_MAX]; /* what tmp replaces: final, or the file a symbolic link names */
	char tmp[PATH_MAX];
};

struct compress_result {
	uint32_t crc;
	uint64_t in_bytes;
};

struct reader {
	int fd;
	const char *label;
	uint8_t *buf;
	size_t cap, pos, len;
	int eof;
	int failed;        /* a read error was reported */
	int mapped;        /* buf is the whole mapped input (read-only) */
	uint64_t consumed; /* bytes before buf[0] */
};

struct gz_member {
	uint32_t mtime;
	int has_name;
	char name[STORED_NAME_MAX];
};

enum hdr_status { HDR_OK, HDR_TRUNCATED, HDR_BAD };

struct list_totals {
	uint64_t compressed, uncompressed;
	unsigned files;
};

/* Defined in igzip.c. */
extern struct options opt;
extern int in_walk;          /* the current file was found by -r, not named on the command line */
extern mode_t new_file_mode; /* 0666 less the umask, for outputs that have no input file */
__attribute__((format(printf, 2, 3))) void error_msg(const char *file, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void warn_msg(const char *file, const char *fmt, ...);
const char *base_name(const char *path);
int strip_suffix(const char *path, char *out, size_t cap);
int open_input(const char *path, struct in_file *in);
void close_input(struct in_file *in);
int writes_to_stdout(const struct in_file *in);
void remove_input(const struct in_file *in);
int copy_name(char *dst, size_t cap, const char *name);
double ratio_percent(uint64_t small, uint64_t big);

/* igzip_io.c */
void clear_progress(void);
void progress_start(struct progress *p, const char *label, uint64_t total);
void progress_update(struct progress *p, uint64_t done);
void install_signal_handlers(void);
void block_signals(sigset_t *old);
void restore_signals(const sigset_t *old);
ssize_t read_full(int fd, void *buf, size_t n);
void in_map(struct in_file *in);
void in_unmap(struct in_file *in);
ssize_t in_next(struct in_file *in, uint8_t *buf, size_t cap, const uint8_t **piece);
void out_init_discard(struct out_file *o);
void out_init_stdout(struct out_file *o);
int out_open(struct out_file *o, const char *final_path, const struct in_file *in);
int out_write(struct out_file *o, const void *buf, size_t n);
void out_abort(struct out_file *o);
int out_commit(struct out_file *o, const struct in_file *in, uint32_t header_mtime);
int reader_open(struct reader *r, struct in_file *in);
void reader_close(struct reader *r);
ssize_t reader_fill(struct reader *r);
int reader_byte(struct reader *r);
size_t reader_peek(struct reader *r, size_t n);

/* igzip_compress.c */
int compress_stream(struct in_file *in, struct out_file *out, struct compress_result *res);

/* igzip_decompress.c */
void decompress_file(const char *path);
void list_file(const char *path, struct list_totals *tot);

#endif
