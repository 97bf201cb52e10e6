/* stoa: deflate compression and inflate decompression with ISA-L's igzip API.
 *
 * Source compatible with ISA-L's igzip_lib.h and binary compatible with libisal.so.2: the structs
 * below have ISA-L's sizes, and every field a caller reads or writes sits at ISA-L's offset
 * (tests/test_igzip_abi.c compares them against the system's ISA-L header). Space that only the
 * library touches is laid out by stoa and may change.
 *
 * Streams are raw deflate (RFC 1951), optionally wrapped as gzip (RFC 1952) or zlib (RFC 1950).
 */
#ifndef STOA_ISAL_IGZIP_LIB_H
#define STOA_ISAL_IGZIP_LIB_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Format constants ------------------------------------------------------------------- */

#define IGZIP_K 1024
#define ISAL_DEF_MAX_HDR_SIZE 328 /* longest dynamic block header, in bytes */
#define ISAL_DEF_MAX_CODE_LEN 15
#define ISAL_DEF_HIST_SIZE (32 * IGZIP_K)
#define ISAL_DEF_MAX_HIST_BITS 15
#define ISAL_DEF_MAX_MATCH 258
#define ISAL_DEF_MIN_MATCH 3
#define ISAL_DEF_LIT_SYMBOLS 257 /* 256 literals and end-of-block */
#define ISAL_DEF_LEN_SYMBOLS 29
#define ISAL_DEF_DIST_SYMBOLS 30
#define ISAL_DEF_LIT_LEN_SYMBOLS (ISAL_DEF_LIT_SYMBOLS + ISAL_DEF_LEN_SYMBOLS)
#define ISAL_LOOK_AHEAD ((ISAL_DEF_MAX_MATCH + 31) & ~31) /* longest match, 32-byte rounded */

/* The compressor's window (a power of two, at most 32 KiB). */
#ifndef IGZIP_HIST_SIZE
#define IGZIP_HIST_SIZE ISAL_DEF_HIST_SIZE
#endif
#if IGZIP_HIST_SIZE > ISAL_DEF_HIST_SIZE
#undef IGZIP_HIST_SIZE
#define IGZIP_HIST_SIZE ISAL_DEF_HIST_SIZE
#endif

#define ISAL_LIMIT_HASH_UPDATE
#define IGZIP_HASH8K_HASH_SIZE (8 * IGZIP_K)
#define IGZIP_HASH_HIST_SIZE IGZIP_HIST_SIZE
#define IGZIP_HASH_MAP_HASH_SIZE IGZIP_HIST_SIZE
#define IGZIP_LVL0_HASH_SIZE (8 * IGZIP_K)
#define IGZIP_LVL1_HASH_SIZE IGZIP_HASH8K_HASH_SIZE
#define IGZIP_LVL2_HASH_SIZE IGZIP_HASH_HIST_SIZE
#define IGZIP_LVL3_HASH_SIZE IGZIP_HASH_MAP_HASH_SIZE

/* Layout of struct isal_hufftables (ISA-L's default build). */
enum { IGZIP_DIST_TABLE_SIZE = 2 };
enum { IGZIP_DECODE_OFFSET = 0 };
enum { IGZIP_LEN_TABLE_SIZE = 256 };
enum { IGZIP_LIT_TABLE_SIZE = ISAL_DEF_LIT_SYMBOLS };

/* isal_deflate_set_hufftables() types. */
#define IGZIP_HUFFTABLE_CUSTOM 0
#define IGZIP_HUFFTABLE_DEFAULT 1
#define IGZIP_HUFFTABLE_STATIC 2

/* isal_zstream.flush */
#define NO_FLUSH 0
#define SYNC_FLUSH 1
#define FULL_FLUSH 2
#define FINISH_FLUSH 0 /* old name of NO_FLUSH */

/* isal_zstream.gzip_flag */
#define IGZIP_DEFLATE 0
#define IGZIP_GZIP 1
#define IGZIP_GZIP_NO_HDR 2
#define IGZIP_ZLIB 3
#define IGZIP_ZLIB_NO_HDR 4

/* Compression results. */
#define COMP_OK 0
#define STATELESS_OVERFLOW -1
#define ISAL_INVALID_STATE -3
#define ISAL_INVALID_LEVEL -4
#define ISAL_INVALID_LEVEL_BUF -5
#define INVALID_FLUSH -7
#define INVALID_PARAM -8
#define ISAL_INVALID_OPERATION -9

/* isal_zstream.internal_state.state. The TMP_ forms are the same steps while output goes through
 * the stream's own small buffer; a state of ZSTATE_NEW_HDR or ZSTATE_TMP_NEW_HDR means a new
 * stream (or block, after a full flush) starts with the next call. */
enum isal_zstate_state {
	ZSTATE_NEW_HDR,
	ZSTATE_HDR,
	ZSTATE_CREATE_HDR,
	ZSTATE_BODY,
	ZSTATE_FLUSH_READ_BUFFER,
	ZSTATE_FLUSH_ICF_BUFFER,
	ZSTATE_TYPE0_HDR,
	ZSTATE_TYPE0_BODY,
	ZSTATE_SYNC_FLUSH,
	ZSTATE_FLUSH_WRITE_BUFFER,
	ZSTATE_TRL,
	ZSTATE_END,
	ZSTATE_TMP_NEW_HDR,
	ZSTATE_TMP_HDR,
	ZSTATE_TMP_CREATE_HDR,
	ZSTATE_TMP_BODY,
	ZSTATE_TMP_FLUSH_READ_BUFFER,
	ZSTATE_TMP_FLUSH_ICF_BUFFER,
	ZSTATE_TMP_TYPE0_HDR,
	ZSTATE_TMP_TYPE0_BODY,
	ZSTATE_TMP_SYNC_FLUSH,
	ZSTATE_TMP_FLUSH_WRITE_BUFFER,
	ZSTATE_TMP_TRL,
	ZSTATE_TMP_END
};
#define ZSTATE_TMP_OFFSET ZSTATE_TMP_HDR - ZSTATE_HDR

/* inflate_state.block_state */
enum isal_block_state {
	ISAL_BLOCK_NEW_HDR,    /* at the start of a block */
	ISAL_BLOCK_HDR,        /* inside a block header */
	ISAL_BLOCK_TYPE0,      /* inside a stored block */
	ISAL_BLOCK_CODED,      /* inside a Huffman-coded block */
	ISAL_BLOCK_INPUT_DONE, /* the final block is decoded; output may still be pending */
	ISAL_BLOCK_FINISH,     /* everything decoded, checked and written out */
	ISAL_GZIP_EXTRA_LEN,   /* the remaining values: inside a gzip or zlib wrapper */
	ISAL_GZIP_EXTRA,
	ISAL_GZIP_NAME,
	ISAL_GZIP_COMMENT,
	ISAL_GZIP_HCRC,
	ISAL_ZLIB_DICT,
	ISAL_CHECKSUM_CHECK,
};

/* inflate_state.crc_flag: the wrapper to expect. The _NO_HDR forms have no header; without _VER
 * they have no trailer either (the checksum is computed, not checked), with _VER the trailer is
 * read and checked. */
#define ISAL_DEFLATE 0
#define ISAL_GZIP 1
#define ISAL_GZIP_NO_HDR 2
#define ISAL_ZLIB 3
#define ISAL_ZLIB_NO_HDR 4
#define ISAL_ZLIB_NO_HDR_VER 5
#define ISAL_GZIP_NO_HDR_VER 6

/* Decompression results: >= 0 is not an error. */
#define ISAL_DECOMP_OK 0
#define ISAL_END_INPUT 1
#define ISAL_OUT_OVERFLOW 2
#define ISAL_NAME_OVERFLOW 3
#define ISAL_COMMENT_OVERFLOW 4
#define ISAL_EXTRA_OVERFLOW 5
#define ISAL_NEED_DICT 6
#define ISAL_INVALID_BLOCK -1
#define ISAL_INVALID_SYMBOL -2
#define ISAL_INVALID_LOOKBACK -3
#define ISAL_INVALID_WRAPPER -4
#define ISAL_UNSUPPORTED_METHOD -5
#define ISAL_INCORRECT_CHECKSUM -6

/* ---- Compression levels and their buffers ----------------------------------------------- */

#define ISAL_DEF_MIN_LEVEL 0
#define ISAL_DEF_MAX_LEVEL 3

/* Levels 1-3 need a caller-supplied isal_zstream.level_buf: a fixed part plus room for
 * intermediate tokens. The _MIN.._EXTRA_LARGE sizes trade memory for speed and ratio. */
#define ISAL_DEF_LVL0_REQ 0
#define ISAL_DEF_LVL1_REQ (4 * IGZIP_K + 2 * IGZIP_LVL1_HASH_SIZE)
#define ISAL_DEF_LVL1_TOKEN_SIZE 4
#define ISAL_DEF_LVL2_REQ (4 * IGZIP_K + 2 * IGZIP_LVL2_HASH_SIZE)
#define ISAL_DEF_LVL2_TOKEN_SIZE 4
#define ISAL_DEF_LVL3_REQ 4 * IGZIP_K + 4 * 4 * IGZIP_K + 2 * IGZIP_LVL3_HASH_SIZE
#define ISAL_DEF_LVL3_TOKEN_SIZE 4

#define ISAL_DEF_LVL0_MIN ISAL_DEF_LVL0_REQ
#define ISAL_DEF_LVL0_SMALL ISAL_DEF_LVL0_REQ
#define ISAL_DEF_LVL0_MEDIUM ISAL_DEF_LVL0_REQ
#define ISAL_DEF_LVL0_LARGE ISAL_DEF_LVL0_REQ
#define ISAL_DEF_LVL0_EXTRA_LARGE ISAL_DEF_LVL0_REQ
#define ISAL_DEF_LVL0_DEFAULT ISAL_DEF_LVL0_REQ

#define STOA_DEF_LVL_SIZE(n, k) (ISAL_DEF_LVL##n##_REQ + ISAL_DEF_LVL##n##_TOKEN_SIZE * (k)*IGZIP_K)
#define ISAL_DEF_LVL1_MIN STOA_DEF_LVL_SIZE(1, 1)
#define ISAL_DEF_LVL1_SMALL STOA_DEF_LVL_SIZE(1, 16)
#define ISAL_DEF_LVL1_MEDIUM STOA_DEF_LVL_SIZE(1, 32)
#define ISAL_DEF_LVL1_LARGE STOA_DEF_LVL_SIZE(1, 64)
#define ISAL_DEF_LVL1_EXTRA_LARGE STOA_DEF_LVL_SIZE(1, 128)
#define ISAL_DEF_LVL1_DEFAULT ISAL_DEF_LVL1_LARGE
#define ISAL_DEF_LVL2_MIN STOA_DEF_LVL_SIZE(2, 1)
#define ISAL_DEF_LVL2_SMALL STOA_DEF_LVL_SIZE(2, 16)
#define ISAL_DEF_LVL2_MEDIUM STOA_DEF_LVL_SIZE(2, 32)
#define ISAL_DEF_LVL2_LARGE STOA_DEF_LVL_SIZE(2, 64)
#define ISAL_DEF_LVL2_EXTRA_LARGE STOA_DEF_LVL_SIZE(2, 128)
#define ISAL_DEF_LVL2_DEFAULT ISAL_DEF_LVL2_LARGE
#define ISAL_DEF_LVL3_MIN STOA_DEF_LVL_SIZE(3, 1)
#define ISAL_DEF_LVL3_SMALL STOA_DEF_LVL_SIZE(3, 16)
#define ISAL_DEF_LVL3_MEDIUM STOA_DEF_LVL_SIZE(3, 32)
#define ISAL_DEF_LVL3_LARGE STOA_DEF_LVL_SIZE(3, 64)
#define ISAL_DEF_LVL3_EXTRA_LARGE STOA_DEF_LVL_SIZE(3, 128)
#define ISAL_DEF_LVL3_DEFAULT ISAL_DEF_LVL3_LARGE

/* isal_dict.params / internal history kinds. */
#define IGZIP_NO_HIST 0
#define IGZIP_HIST 1
#define IGZIP_DICT_HIST 2
#define IGZIP_DICT_HASH_SET 3

/* ---- Compression structures ------------------------------------------------------------- */

/* Symbol counts gathered by isal_update_histogram() for isal_create_hufftables(). */
struct isal_huff_histogram {
	uint64_t lit_len_histogram[ISAL_DEF_LIT_LEN_SYMBOLS];
	uint64_t dist_histogram[ISAL_DEF_DIST_SYMBOLS];
	uint16_t hash_table[IGZIP_LVL0_HASH_SIZE]; /* scratch */
};

struct isal_mod_hist {
	uint32_t d_hist[30];
	uint32_t ll_hist[513];
};

/* The compressor's bit writer. */
struct BitBuf2 {
	uint64_t m_bits;
	uint32_t m_bit_count;
	uint8_t *m_out_buf;
	uint8_t *m_out_end;
	uint8_t *m_out_start;
};

/* A zlib header: written by isal_write_zlib_header(), filled by isal_read_zlib_header(). */
struct isal_zlib_header {
	uint32_t info;      /* window size as log2 minus 8 */
	uint32_t level;     /* FLEVEL, 0..3 */
	uint32_t dict_id;   /* Adler-32 of the preset dictionary */
	uint32_t dict_flag; /* a preset dictionary is needed */
};

/* A gzip member header. For reading, point extra/name/comment at buffers and give their sizes;
 * a field that does not fit returns the matching _OVERFLOW code. */
struct isal_gzip_header {
	uint32_t text;       /* FTEXT */
	uint32_t time;       /* MTIME, seconds since 1970 */
	uint32_t xflags;     /* XFL */
	uint32_t os;         /* OS */
	uint8_t *extra;      /* FEXTRA contents, or NULL */
	uint32_t extra_buf_len;
	uint32_t extra_len;  /* length of the FEXTRA field */
	char *name;          /* FNAME, zero-terminated, or NULL */
	uint32_t name_buf_len;
	char *comment;       /* FCOMMENT, zero-terminated, or NULL */
	uint32_t comment_buf_len;
	uint32_t hcrc;       /* FHCRC: header CRC present (writing) / its value (reading) */
	uint32_t flags;      /* used by the library while reading */
};

/* Compressor state inside isal_zstream. Callers read only `state` and `crc`. */
struct isal_zstate {
	uint32_t total_in_start;
	uint32_t block_next;
	uint32_t block_end;
	uint32_t dist_mask;
	uint32_t hash_mask;
	enum isal_zstate_state state;
	struct BitBuf2 bitbuf;
	uint32_t crc; /* running CRC-32 (gzip) or Adler-32 (zlib) of the input */
	uint8_t has_wrap_hdr;
	uint8_t has_eob_hdr;
	uint8_t has_eob;
	uint8_t has_hist;
	uint16_t has_level_buf_init;
	uint32_t count;
	uint8_t tmp_out_buff[16];
	uint32_t tmp_out_start;
	uint32_t tmp_out_end;
	uint32_t b_bytes_valid;
	uint32_t b_bytes_processed;
	uint8_t buffer[2 * IGZIP_HIST_SIZE + ISAL_LOOK_AHEAD];
	uint16_t head[IGZIP_LVL0_HASH_SIZE];
};

/* Huffman codes for the compressor: a prebuilt dynamic block header and the codes it describes.
 * Length and distance entries hold the code (with extra bits) above bit 5 and its bit count in
 * bits 0-4. */
struct isal_hufftables {
	uint8_t deflate_hdr[ISAL_DEF_MAX_HDR_SIZE];
	uint32_t deflate_hdr_count;      /* whole bytes of deflate_hdr */
	uint32_t deflate_hdr_extra_bits; /* bits in its last, partial byte */
	uint32_t dist_table[IGZIP_DIST_TABLE_SIZE];
	uint32_t len_table[IGZIP_LEN_TABLE_SIZE];
	uint16_t lit_table[IGZIP_LIT_TABLE_SIZE];
	uint8_t lit_table_sizes[IGZIP_LIT_TABLE_SIZE];
	uint16_t dcodes[30 - IGZIP_DECODE_OFFSET];
	uint8_t dcodes_sizes[30 - IGZIP_DECODE_OFFSET];
};

/* A compression stream. Set the public fields, call isal_deflate_init() (or _stateless_init()),
 * then isal_deflate() until the input is consumed and, with end_of_stream set, the state reaches
 * ZSTATE_END. */
struct isal_zstream {
	uint8_t *next_in;
	uint32_t avail_in;
	uint32_t total_in;
	uint8_t *next_out;
	uint32_t avail_out;
	uint32_t total_out;
	struct isal_hufftables *hufftables; /* Huffman codes, or NULL for the defaults */
	uint32_t level;                     /* 0..3 */
	uint32_t level_buf_size;
	uint8_t *level_buf;                 /* caller's scratch for levels 1-3 */
	uint16_t end_of_stream;             /* this call's input ends the stream */
	uint16_t flush;                     /* NO_FLUSH, SYNC_FLUSH or FULL_FLUSH */
	uint16_t gzip_flag;                 /* IGZIP_DEFLATE, IGZIP_GZIP, ... */
	uint16_t hist_bits;                 /* log2 of the window, 8..15; 0 for 15 */
	struct isal_zstate internal_state;
};

/* A preprocessed dictionary for isal_deflate_reset_dict(). */
struct isal_dict {
	uint32_t params;
	uint32_t level;
	uint32_t hist_size;
	uint32_t hash_size;
	uint8_t history[ISAL_DEF_HIST_SIZE];
	uint16_t hashtable[IGZIP_LVL3_HASH_SIZE];
};

/* ---- Decompression structures ----------------------------------------------------------- */

#define ISAL_DECODE_LONG_BITS 12
#define ISAL_DECODE_SHORT_BITS 10

/* A decompression stream. Callers set next_in/avail_in, next_out/avail_out, crc_flag and
 * hist_bits, and read back the counters, block_state, bfinal, crc, dict_length and the
 * tmp_out_* counters (output still held in the stream is tmp_out_valid - tmp_out_processed
 * bytes). Everything else belongs to the library. */
struct inflate_state {
	uint8_t *next_out;
	uint32_t avail_out;
	uint32_t total_out;
	uint8_t *next_in;
	uint64_t read_in;       /* bits read from next_in but not yet decoded, LSB first */
	uint32_t avail_in;
	int32_t read_in_length; /* number of valid bits in read_in */
	/* The decoder's Huffman tables (stoa's own layout; ISA-L's lit_huff_code and
	 * dist_huff_code occupy the same bytes). */
	union {
		uint64_t align;
		uint8_t bytes[21120];
	} stoa_tables;
	enum isal_block_state block_state;
	uint32_t dict_length;
	uint32_t bfinal;   /* the block being decoded is the last one */
	uint32_t crc_flag; /* ISAL_DEFLATE, ISAL_GZIP, ... */
	uint32_t crc;      /* CRC-32 or Adler-32 of the output so far, per crc_flag */
	uint32_t hist_bits;
	union {
		int32_t type0_block_len;
		int32_t count;
		uint32_t dict_id;
	};
	int32_t write_overflow_lits;
	int32_t write_overflow_len;
	int32_t copy_overflow_length;
	int32_t copy_overflow_distance;
	int16_t wrapper_flag;
	int16_t tmp_in_size;
	int32_t tmp_out_valid;
	int32_t tmp_out_processed;
	uint8_t tmp_in_buffer[ISAL_DEF_MAX_HDR_SIZE];
	uint8_t tmp_out_buffer[2 * ISAL_DEF_HIST_SIZE + ISAL_LOOK_AHEAD];
};

/* ---- Compression functions -------------------------------------------------------------- */

/* Add the symbols a level-0-style match search of in_stream would emit to histogram. */
void isal_update_histogram(uint8_t *in_stream, int length, struct isal_huff_histogram *histogram);

/* Build Huffman codes (and their block header) for histogram. _subset codes only symbols with
 * non-zero counts, so the tables may not cover other data. Return 0, or non-zero on failure. */
int isal_create_hufftables(struct isal_hufftables *hufftables,
			   struct isal_huff_histogram *histogram);
int isal_create_hufftables_subset(struct isal_hufftables *hufftables,
				  struct isal_huff_histogram *histogram);

/* Prepare a stream for isal_deflate(): level 0, default tables, no wrapper, 32 KiB window. */
void isal_deflate_init(struct isal_zstream *stream);

/* Start a new stream on the same settings (level, buffers, tables, wrapper, window). */
void isal_deflate_reset(struct isal_zstream *stream);

/* Default gzip header: no name, comment or extra field, OS unknown. */
void isal_gzip_header_init(struct isal_gzip_header *gz_hdr);

/* Default zlib header: every field 0 (a 256-byte window, FLEVEL 0, no dictionary). */
void isal_zlib_header_init(struct isal_zlib_header *z_hdr);

/* Write a header to stream->next_out. Return 0 when written, otherwise the number of output
 * bytes it needs (nothing is written). */
uint32_t isal_write_gzip_header(struct isal_zstream *stream, struct isal_gzip_header *gz_hdr);
uint32_t isal_write_zlib_header(struct isal_zstream *stream, struct isal_zlib_header *z_hdr);

/* Choose the Huffman codes of the next blocks: IGZIP_HUFFTABLE_DEFAULT, _STATIC (the fixed
 * deflate codes) or _CUSTOM (hufftables). Only before compression starts or after a full flush. */
int isal_deflate_set_hufftables(struct isal_zstream *stream, struct isal_hufftables *hufftables,
				int type);

/* Prepare a stream for isal_deflate_stateless(). */
void isal_deflate_stateless_init(struct isal_zstream *stream);

/* Use dict as history before the first input (after init or reset, before any data). */
int isal_deflate_set_dict(struct isal_zstream *stream, uint8_t *dict, uint32_t dict_len);

/* Preprocess a dictionary once for use by many streams, then attach it to a stream. */
int isal_deflate_process_dict(struct isal_zstream *stream, struct isal_dict *dict_str,
			      uint8_t *dict, uint32_t dict_len);
int isal_deflate_reset_dict(struct isal_zstream *stream, struct isal_dict *dict_str);

/* Compress as much as the buffers allow; see struct isal_zstream. Returns COMP_OK or an error. */
int isal_deflate(struct isal_zstream *stream);

/* Compress all of next_in into next_out in one call, as a complete stream when end_of_stream is
 * set. STATELESS_OVERFLOW when next_out is too small. */
int isal_deflate_stateless(struct isal_zstream *stream);

/* ---- Decompression functions ------------------------------------------------------------ */

/* Prepare a stream: raw deflate, 32 KiB window. */
void isal_inflate_init(struct inflate_state *state);

/* Start a new stream, keeping crc_flag and hist_bits. */
void isal_inflate_reset(struct inflate_state *state);

/* Set the history a stream refers to before its first byte (after init or reset). */
int isal_inflate_set_dict(struct inflate_state *state, uint8_t *dict, uint32_t dict_len);

/* Parse a gzip or zlib header from next_in, which may arrive in pieces (ISAL_END_INPUT asks for
 * more). */
int isal_read_gzip_header(struct inflate_state *state, struct isal_gzip_header *gz_hdr);
int isal_read_zlib_header(struct inflate_state *state, struct isal_zlib_header *zlib_hdr);

/* Decompress as much as the buffers allow. Any split of input and output is accepted. Returns
 * ISAL_DECOMP_OK (block_state reaches ISAL_BLOCK_FINISH at the end of the stream), or one of the
 * codes above. */
int isal_inflate(struct inflate_state *state);

/* Decompress a whole stream from next_in into next_out in one call. */
int isal_inflate_stateless(struct inflate_state *state);

/* ---- Checksums -------------------------------------------------------------------------- */

/* Adler-32 of buf continuing from init (1 for a new checksum). */
uint32_t isal_adler32(uint32_t init, const unsigned char *buf, uint64_t len);

#ifdef __cplusplus
}
#endif

#endif
