/* The two coefficient-table layouts of ISA-L, both accepted by every data function.
 *
 * ISA-L 2.31 added a second layout for its GFNI kernels (ec_init_tables_gfni,
 * gf_vect_mul_init_gfni): 32 bytes per coefficient as well, holding c's 8x8 bit matrix in the
 * form GF2P8AFFINEQB takes, four times. On a CPU with GFNI, ISA-L's ec_init_tables writes that
 * layout and its ec_encode_data reads it; elsewhere both use the portable one. So tables are
 * not portable between ISA-L's code paths, and a program may hold either kind. stoa's kernels
 * read the portable layout only; these wrappers give them tables of the other kind translated,
 * so no table an ISA-L function can produce is read wrongly.
 *
 * The layouts cannot be confused: a portable table of c != 0 starts with c * 0 = 0 and has
 * c * 8 != 0 at byte 8, so its first two quadwords differ, while a matrix table repeats one
 * quadword four times. For c = 0 both are 32 zero bytes. The first non-zero table of a call
 * decides (one table builder writes all of them); a zero table means the same in both. */
#include <string.h>

#include "ec_internal.h"
#include "isa-l/gf_vect_mul.h"

/* Translated tables are built in pieces of this many bytes on the stack; a call with more
 * coefficients runs over its output rows in groups. A row of the largest k fits. */
#define EC_XLATE_BYTES 8192

/* GF2P8AFFINEQB sets bit i of a product from byte 7 - i of the matrix, whose bit j is bit i of
 * c * 2^j: row i of the bit matrix whose column j is c * 2^j. */
void ec_matrix_of(uint8_t c, uint8_t m[8])
{
	memset(m, 0, 8);
	uint8_t col = c;
	for (int j = 0; j < 8; j++) {
		for (int i = 0; i < 8; i++)
			m[7 - i] |= (uint8_t)(((col >> i) & 1) << j);
		col = (uint8_t)((col << 1) ^ ((col & 0x80) ? 0x1d : 0));
	}
}

/* c from either layout: column 0 of the matrix (c * 1), or byte 1 of the portable table. */
static uint8_t coef_of(const uint8_t *t)
{
	if (!ec_is_matrix_table(t))
		return t[1];
	uint8_t c = 0;
	for (int i = 0; i < 8; i++)
		c |= (uint8_t)((t[7 - i] & 1) << i);
	return c;
}

static void to_portable(const uint8_t *t, uint8_t *out)
{
	gf_vect_mul_init(coef_of(t), out);
}

/* The translations (ec_internal.h runs the checks inline and calls these only for tables in the
 * matrix layout, which is rare): their stack buffers, up to 8 KiB and 64-byte aligned, stay out
 * of the common path. */
void ec_encode_translated(ec_encode_fn *f, int len, int k, int rows, const uint8_t *tbls,
                          unsigned char **data, unsigned char **coding)
{
	_Alignas(64) uint8_t buf[EC_XLATE_BYTES];
	const int per = EC_XLATE_BYTES / (k * EC_TBL);
	for (int r = 0; r < rows; r += per) {
		const int n = rows - r < per ? rows - r : per;
		for (int i = 0; i < n * k; i++)
			to_portable(tbls + ((size_t)r * (size_t)k + (size_t)i) * EC_TBL,
			            buf + i * EC_TBL);
		f(len, k, n, buf, data, coding + r);
	}
}

/* tbls: the first row's table of the source; the update functions read coefficient (r, vec_i)
 * of each row, so only those are translated, into a table of one source. */
void ec_update_translated(ec_update_fn *f, int len, int k, int rows, const uint8_t *tbls,
                          unsigned char *data, unsigned char **coding)
{
	const size_t stride = (size_t)k * EC_TBL;
	_Alignas(64) uint8_t buf[EC_MAX_ROWS * EC_TBL];
	for (int r = 0; r < rows; r++)
		to_portable(tbls + (size_t)r * stride, buf + r * EC_TBL);
	f(len, 1, rows, 0, buf, data, coding);
}

void ec_dot_translated(ec_dot_fn *f, int len, int vlen, const uint8_t *tbls, unsigned char **src,
                       unsigned char *dest)
{
	_Alignas(64) uint8_t buf[EC_MAX_SOURCES * EC_TBL];
	for (int j = 0; j < vlen; j++)
		to_portable(tbls + (size_t)j * EC_TBL, buf + j * EC_TBL);
	f(len, vlen, buf, src, dest);
}

void ec_mad_translated(ec_mad_fn *f, int len, const uint8_t *tbl, unsigned char *src,
                       unsigned char *dest)
{
	_Alignas(64) uint8_t buf[EC_TBL];
	to_portable(tbl, buf);
	f(len, 1, 0, buf, src, dest);
}

int ec_mul_translated(ec_mul_fn *f, int len, const uint8_t *tbl, void *src, void *dest)
{
	_Alignas(64) uint8_t buf[EC_TBL];
	to_portable(tbl, buf);
	return f(len, buf, src, dest);
}
