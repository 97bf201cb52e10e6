/* Compressing a file to gzip in one call and inflating it back, with ISA-L's igzip API.
 *   deflate [FILE]   (default: the program's own executable) */
#include <isa-l.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : argv[0];
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 1 << 16, len = 0;
	unsigned char *in = malloc(cap);
	for (size_t n; in && (n = fread(in + len, 1, cap - len, f)) > 0;) {
		len += n;
		if (len == cap)
			in = realloc(in, cap *= 2);
	}
	fclose(f);
	/* Room for incompressible input: stored blocks and the gzip header and trailer. */
	const size_t out_cap = len + len / 16 + 1024;
	unsigned char *gz = malloc(out_cap), *back = malloc(len + 1);
	unsigned char *level_buf = malloc(ISAL_DEF_LVL1_DEFAULT);
	if (!in || !gz || !back || !level_buf)
		return 1;

	struct isal_zstream zs;
	isal_deflate_stateless_init(&zs);
	zs.level = 1;
	zs.level_buf = level_buf;
	zs.level_buf_size = ISAL_DEF_LVL1_DEFAULT;
	zs.gzip_flag = IGZIP_GZIP;
	zs.next_in = in;
	zs.avail_in = (uint32_t)len;
	zs.end_of_stream = 1;
	zs.next_out = gz;
	zs.avail_out = (uint32_t)out_cap;
	if (isal_deflate_stateless(&zs) != COMP_OK) {
		printf("deflate failed\n");
		return 1;
	}
	const size_t gz_len = zs.total_out;

	struct inflate_state st;
	isal_inflate_init(&st);
	st.crc_flag = ISAL_GZIP;
	st.next_in = gz;
	st.avail_in = (uint32_t)gz_len;
	st.next_out = back;
	st.avail_out = (uint32_t)len + 1;
	if (isal_inflate_stateless(&st) != ISAL_DECOMP_OK || st.total_out != len ||
	    memcmp(back, in, len)) {
		printf("inflate did not give the file back\n");
		return 1;
	}
	printf("%s: %zu bytes -> %zu bytes of gzip (%.1f%%), inflated back intact\n", path, len,
	       gz_len, len ? 100.0 * (double)gz_len / (double)len : 0.0);
	free(in);
	free(gz);
	free(back);
	free(level_buf);
	return 0;
}
