/* An independent reading and writing of RFC 1951 for the tests, written bit by bit from the
 * RFC: its tables, a bit reader and writer, canonical Huffman codes, and a decoder that also
 * reports what a stream is made of. Shared by the deflate, inflate and Huffman suites. */
#ifndef STOA_TESTS_DEFLATE_REF_H
#define STOA_TESTS_DEFLATE_REF_H

#include <stddef.h>
#include <stdint.h>

extern const uint16_t ref_len_base[29];
extern const uint8_t ref_len_extra[29];
extern const uint16_t ref_dist_base[30];
extern const uint8_t ref_dist_extra[30];
extern const uint8_t ref_clen_order[19];

struct ref_stats {
	size_t blocks[3]; /* stored, fixed, dynamic */
	unsigned max_dist;
	unsigned max_len;
	size_t n_len258;
	size_t n_dist32768;
	size_t in_used; /* bytes of input up to the end of the final block */
};

/* Reads bits least significant first (RFC 1951 3.1.1); err is set, and 0 returned, past the
 * end. */
struct ref_bitreader {
	const uint8_t *p;
	size_t len, pos;
	uint32_t bits;
	int nbits;
	int err;
};

/* A canonical code's decoding table, from its code lengths. */
struct ref_code {
	uint16_t count[16];   /* codes of each length */
	uint16_t symbol[288]; /* symbols ordered by code */
};

unsigned ref_getbits(struct ref_bitreader *b, int n);
/* How many bits b has taken so far. */
size_t ref_bits_read(const struct ref_bitreader *b);

/* Writes bits least significant first into buf (cap bytes; more fails the test); a Huffman code
 * goes most significant bit first (ref_putcode). ref_flush pads to a byte and returns the length.
 */
struct ref_bitwriter {
	uint8_t *buf;
	size_t cap, n;
	uint64_t acc;
	unsigned cnt;
};
void ref_putbits(struct ref_bitwriter *w, uint32_t v, unsigned n);
void ref_putcode(struct ref_bitwriter *w, uint32_t code, unsigned len);
size_t ref_flush(struct ref_bitwriter *w);
/* Symbol sym (0..287) of the fixed literal/length code (RFC 1951 3.2.6). */
void ref_putfixed(struct ref_bitwriter *w, unsigned sym);
/* The len low bits of code in the opposite order. */
uint32_t ref_reverse(uint32_t code, unsigned len);

/* The canonical codes (RFC 1951 3.2.2) of n symbols from their lengths, most significant bit
 * first as the RFC writes them; 0 for a symbol of length 0. */
void ref_canonical(const uint8_t *lens, int n, uint16_t *codes);
/* A decoding table from n code lengths. Returns -1 for an over-subscribed set; incomplete sets
 * are accepted (zlib is the strict judge of completeness). */
int ref_code_build(struct ref_code *h, const uint8_t *lens, int n);
/* The next symbol, or -1 when the bits match no code or the input ends. */
int ref_decode(struct ref_bitreader *b, const struct ref_code *h);

/* Decodes raw deflate from in into out[hist_len..], out[0..hist_len) being preset history (a
 * dictionary), and says what the stream is made of in *st. Returns the number of bytes produced,
 * or -1 with *why set. */
long ref_inflate(const uint8_t *in, size_t in_len, uint8_t *out, size_t hist_len, size_t out_cap,
                 struct ref_stats *st, const char **why);

#endif
