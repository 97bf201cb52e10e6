/* The five API functions of an aarch64 erasure-code kernel file, stoa_<name>_<sfx>, on the file's
 * ec_run_<sfx>(len, k, rows, tbls, rstride, jstride, src, dst, accumulate): the argument checks
 * and the table strides of each call form in one place. */
#ifndef STOA_EC_ARM_ENTRIES_H
#define STOA_EC_ARM_ENTRIES_H

/* sfx expanded first, so that a macro naming the token works. */
#define EC_ARM_ENTRIES(sfx) EC_ARM_ENTRIES_(sfx)
#define EC_ARM_ENTRIES_(sfx)                                                                       \
	void stoa_ec_encode_data_##sfx(int len, int k, int rows, unsigned char *gftbls,            \
				       unsigned char **data, unsigned char **coding)               \
	{                                                                                          \
		if (!ec_encode_args_ok(len, k, rows, gftbls, data, coding))                        \
			return;                                                                    \
		ec_run_##sfx((size_t)len, (size_t)k, (size_t)rows, gftbls, (size_t)k * EC_TBL,     \
			     EC_TBL, (const uint8_t *const *)data, coding, 0);                     \
	}                                                                                          \
	void stoa_ec_encode_data_update_##sfx(int len, int k, int rows, int vec_i,                 \
					      unsigned char *g_tbls, unsigned char *data,          \
					      unsigned char **coding)                              \
	{                                                                                          \
		if (!ec_update_args_ok(len, k, rows, vec_i, g_tbls, data, coding))                 \
			return;                                                                    \
		const uint8_t *src[1] = { data };                                                  \
		ec_run_##sfx((size_t)len, 1, (size_t)rows, g_tbls + (size_t)vec_i * EC_TBL,        \
			     (size_t)k * EC_TBL, EC_TBL, src, coding, 1);                          \
	}                                                                                          \
	void stoa_gf_vect_dot_prod_##sfx(int len, int vlen, unsigned char *gftbls,                 \
					 unsigned char **src, unsigned char *dest)                 \
	{                                                                                          \
		if (!ec_encode_args_ok(len, vlen, 1, gftbls, src, &dest))                          \
			return;                                                                    \
		ec_run_##sfx((size_t)len, (size_t)vlen, 1, gftbls, 0, EC_TBL,                      \
			     (const uint8_t *const *)src, &dest, 0);                               \
	}                                                                                          \
	void stoa_gf_vect_mad_##sfx(int len, int vec, int vec_i, unsigned char *gftbls,            \
				    unsigned char *src, unsigned char *dest)                       \
	{                                                                                          \
		if (!ec_update_args_ok(len, vec, 1, vec_i, gftbls, src, &dest))                    \
			return;                                                                    \
		const uint8_t *s[1] = { src };                                                     \
		ec_run_##sfx((size_t)len, 1, 1, gftbls + (size_t)vec_i * EC_TBL, 0, EC_TBL, s,     \
			     &dest, 1);                                                            \
	}                                                                                          \
	int stoa_gf_vect_mul_##sfx(int len, unsigned char *gftbl, void *src, void *dest)           \
	{                                                                                          \
		int go = ec_mul_args(len, gftbl, src, dest);                                       \
		if (go <= 0)                                                                       \
			return go;                                                                 \
		const uint8_t *s[1] = { src };                                                     \
		uint8_t *d[1] = { dest };                                                          \
		ec_run_##sfx((size_t)len, 1, 1, gftbl, 0, EC_TBL, s, d, 0);                        \
		return 0;                                                                          \
	}

#endif
