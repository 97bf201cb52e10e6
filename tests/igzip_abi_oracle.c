/* The layout of igzip_lib.h, printed for comparison between ISA-L's header and stoa's.
 *
 * One source, two builds (tests/tests.mk):
 *   igzip_abi_oracle_system  -DORACLE_SYSTEM with /usr/include/isa-l/igzip_lib.h, -lisal
 *   igzip_abi_oracle_stoa    with stoa's include/isa-l/igzip_lib.h, libstoa.a
 * tests/test_igzip_abi.c runs both and requires identical result lines: that is what makes a
 * binary compiled against ISA-L's header safe to run on stoa's compat libisal.so.2.
 *
 * usage: igzip_abi_oracle SEED COUNT   (both ignored: the output is a fixed listing)
 * Result lines:
 *   size <struct> <bytes> align <bytes>
 *   field <struct>.<member> offset <bytes> size <bytes>
 *   const <NAME> <value>
 * Every public struct is listed with every member, except struct inflate_state, whose decoder
 * tables (lit_huff_code, dist_huff_code in ISA-L; stoa_tables in stoa) and the bookkeeping
 * between them and tmp_in_size belong to the library: only the fields a caller reads or writes
 * are listed there. The ISAL_L_* / ISAL_S_* / ISAL_HUFF_CODE_* sizing macros of ISA-L's decoder
 * tables are not part of stoa's header for the same reason and are not listed. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "oracle_prog.h"
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>

#define SIZE(T) printf("size %s %zu align %zu\n", #T, sizeof(T), _Alignof(T))
#define FIELD(T, m)                                                                                \
	printf("field %s.%s offset %zu size %zu\n", #T, #m, offsetof(T, m), sizeof(((T *)0)->m))
#define CONST(name) printf("const %s %lld\n", #name, (long long)(name))

static void print_structs(void)
{
	SIZE(struct isal_huff_histogram);
	FIELD(struct isal_huff_histogram, lit_len_histogram);
	FIELD(struct isal_huff_histogram, dist_histogram);
	FIELD(struct isal_huff_histogram, hash_table);

	SIZE(struct isal_mod_hist);
	FIELD(struct isal_mod_hist, d_hist);
	FIELD(struct isal_mod_hist, ll_hist);

	SIZE(struct BitBuf2);
	FIELD(struct BitBuf2, m_bits);
	FIELD(struct BitBuf2, m_bit_count);
	FIELD(struct BitBuf2, m_out_buf);
	FIELD(struct BitBuf2, m_out_end);
	FIELD(struct BitBuf2, m_out_start);

	SIZE(struct isal_zlib_header);
	FIELD(struct isal_zlib_header, info);
	FIELD(struct isal_zlib_header, level);
	FIELD(struct isal_zlib_header, dict_id);
	FIELD(struct isal_zlib_header, dict_flag);

	SIZE(struct isal_gzip_header);
	FIELD(struct isal_gzip_header, text);
	FIELD(struct isal_gzip_header, time);
	FIELD(struct isal_gzip_header, xflags);
	FIELD(struct isal_gzip_header, os);
	FIELD(struct isal_gzip_header, extra);
	FIELD(struct isal_gzip_header, extra_buf_len);
	FIELD(struct isal_gzip_header, extra_len);
	FIELD(struct isal_gzip_header, name);
	FIELD(struct isal_gzip_header, name_buf_len);
	FIELD(struct isal_gzip_header, comment);
	FIELD(struct isal_gzip_header, comment_buf_len);
	FIELD(struct isal_gzip_header, hcrc);
	FIELD(struct isal_gzip_header, flags);

	SIZE(struct isal_zstate);
	FIELD(struct isal_zstate, total_in_start);
	FIELD(struct isal_zstate, block_next);
	FIELD(struct isal_zstate, block_end);
	FIELD(struct isal_zstate, dist_mask);
	FIELD(struct isal_zstate, hash_mask);
	FIELD(struct isal_zstate, state);
	FIELD(struct isal_zstate, bitbuf);
	FIELD(struct isal_zstate, crc);
	FIELD(struct isal_zstate, has_wrap_hdr);
	FIELD(struct isal_zstate, has_eob_hdr);
	FIELD(struct isal_zstate, has_eob);
	FIELD(struct isal_zstate, has_hist);
	FIELD(struct isal_zstate, has_level_buf_init);
	FIELD(struct isal_zstate, count);
	FIELD(struct isal_zstate, tmp_out_buff);
	FIELD(struct isal_zstate, tmp_out_start);
	FIELD(struct isal_zstate, tmp_out_end);
	FIELD(struct isal_zstate, b_bytes_valid);
	FIELD(struct isal_zstate, b_bytes_processed);
	FIELD(struct isal_zstate, buffer);
	FIELD(struct isal_zstate, head);

	SIZE(struct isal_hufftables);
	FIELD(struct isal_hufftables, deflate_hdr);
	FIELD(struct isal_hufftables, deflate_hdr_count);
	FIELD(struct isal_hufftables, deflate_hdr_extra_bits);
	FIELD(struct isal_hufftables, dist_table);
	FIELD(struct isal_hufftables, len_table);
	FIELD(struct isal_hufftables, lit_table);
	FIELD(struct isal_hufftables, lit_table_sizes);
	FIELD(struct isal_hufftables, dcodes);
	FIELD(struct isal_hufftables, dcodes_sizes);

	SIZE(struct isal_zstream);
	FIELD(struct isal_zstream, next_in);
	FIELD(struct isal_zstream, avail_in);
	FIELD(struct isal_zstream, total_in);
	FIELD(struct isal_zstream, next_out);
	FIELD(struct isal_zstream, avail_out);
	FIELD(struct isal_zstream, total_out);
	FIELD(struct isal_zstream, hufftables);
	FIELD(struct isal_zstream, level);
	FIELD(struct isal_zstream, level_buf_size);
	FIELD(struct isal_zstream, level_buf);
	FIELD(struct isal_zstream, end_of_stream);
	FIELD(struct isal_zstream, flush);
	FIELD(struct isal_zstream, gzip_flag);
	FIELD(struct isal_zstream, hist_bits);
	FIELD(struct isal_zstream, internal_state);
	FIELD(struct isal_zstream, internal_state.state);
	FIELD(struct isal_zstream, internal_state.crc);
	FIELD(struct isal_zstream, internal_state.bitbuf.m_out_buf);
	FIELD(struct isal_zstream, internal_state.has_level_buf_init);
	FIELD(struct isal_zstream, internal_state.buffer);
	FIELD(struct isal_zstream, internal_state.head);

	SIZE(struct isal_dict);
	FIELD(struct isal_dict, params);
	FIELD(struct isal_dict, level);
	FIELD(struct isal_dict, hist_size);
	FIELD(struct isal_dict, hash_size);
	FIELD(struct isal_dict, history);
	FIELD(struct isal_dict, hashtable);

	SIZE(struct inflate_state);
	FIELD(struct inflate_state, next_out);
	FIELD(struct inflate_state, avail_out);
	FIELD(struct inflate_state, total_out);
	FIELD(struct inflate_state, next_in);
	FIELD(struct inflate_state, read_in);
	FIELD(struct inflate_state, avail_in);
	FIELD(struct inflate_state, read_in_length);
	FIELD(struct inflate_state, block_state);
	FIELD(struct inflate_state, dict_length);
	FIELD(struct inflate_state, bfinal);
	FIELD(struct inflate_state, crc_flag);
	FIELD(struct inflate_state, crc);
	FIELD(struct inflate_state, hist_bits);
	FIELD(struct inflate_state, type0_block_len);
	FIELD(struct inflate_state, tmp_in_size);
	FIELD(struct inflate_state, tmp_out_valid);
	FIELD(struct inflate_state, tmp_out_processed);
	FIELD(struct inflate_state, tmp_in_buffer);
	FIELD(struct inflate_state, tmp_out_buffer);

	SIZE(enum isal_zstate_state);
	SIZE(enum isal_block_state);
}

static void print_constants(void)
{
	CONST(IGZIP_K);
	CONST(ISAL_DEF_MAX_HDR_SIZE);
	CONST(ISAL_DEF_MAX_CODE_LEN);
	CONST(ISAL_DEF_HIST_SIZE);
	CONST(ISAL_DEF_MAX_HIST_BITS);
	CONST(ISAL_DEF_MAX_MATCH);
	CONST(ISAL_DEF_MIN_MATCH);
	CONST(ISAL_DEF_LIT_SYMBOLS);
	CONST(ISAL_DEF_LEN_SYMBOLS);
	CONST(ISAL_DEF_DIST_SYMBOLS);
	CONST(ISAL_DEF_LIT_LEN_SYMBOLS);
	CONST(ISAL_LOOK_AHEAD);
	CONST(IGZIP_HIST_SIZE);
#ifdef ISAL_LIMIT_HASH_UPDATE
	printf("const ISAL_LIMIT_HASH_UPDATE defined\n");
#else
	printf("const ISAL_LIMIT_HASH_UPDATE undefined\n");
#endif
	CONST(IGZIP_HASH8K_HASH_SIZE);
	CONST(IGZIP_HASH_HIST_SIZE);
	CONST(IGZIP_HASH_MAP_HASH_SIZE);
	CONST(IGZIP_LVL0_HASH_SIZE);
	CONST(IGZIP_LVL1_HASH_SIZE);
	CONST(IGZIP_LVL2_HASH_SIZE);
	CONST(IGZIP_LVL3_HASH_SIZE);
	CONST(IGZIP_DIST_TABLE_SIZE);
	CONST(IGZIP_DECODE_OFFSET);
	CONST(IGZIP_LEN_TABLE_SIZE);
	CONST(IGZIP_LIT_TABLE_SIZE);
	CONST(IGZIP_HUFFTABLE_CUSTOM);
	CONST(IGZIP_HUFFTABLE_DEFAULT);
	CONST(IGZIP_HUFFTABLE_STATIC);
	CONST(NO_FLUSH);
	CONST(SYNC_FLUSH);
	CONST(FULL_FLUSH);
	CONST(FINISH_FLUSH);
	CONST(IGZIP_DEFLATE);
	CONST(IGZIP_GZIP);
	CONST(IGZIP_GZIP_NO_HDR);
	CONST(IGZIP_ZLIB);
	CONST(IGZIP_ZLIB_NO_HDR);
	CONST(COMP_OK);
	CONST(INVALID_FLUSH);
	CONST(INVALID_PARAM);
	CONST(STATELESS_OVERFLOW);
	CONST(ISAL_INVALID_OPERATION);
	CONST(ISAL_INVALID_STATE);
	CONST(ISAL_INVALID_LEVEL);
	CONST(ISAL_INVALID_LEVEL_BUF);
	CONST(ZSTATE_NEW_HDR);
	CONST(ZSTATE_HDR);
	CONST(ZSTATE_CREATE_HDR);
	CONST(ZSTATE_BODY);
	CONST(ZSTATE_FLUSH_READ_BUFFER);
	CONST(ZSTATE_FLUSH_ICF_BUFFER);
	CONST(ZSTATE_TYPE0_HDR);
	CONST(ZSTATE_TYPE0_BODY);
	CONST(ZSTATE_SYNC_FLUSH);
	CONST(ZSTATE_FLUSH_WRITE_BUFFER);
	CONST(ZSTATE_TRL);
	CONST(ZSTATE_END);
	CONST(ZSTATE_TMP_NEW_HDR);
	CONST(ZSTATE_TMP_HDR);
	CONST(ZSTATE_TMP_CREATE_HDR);
	CONST(ZSTATE_TMP_BODY);
	CONST(ZSTATE_TMP_FLUSH_READ_BUFFER);
	CONST(ZSTATE_TMP_FLUSH_ICF_BUFFER);
	CONST(ZSTATE_TMP_TYPE0_HDR);
	CONST(ZSTATE_TMP_TYPE0_BODY);
	CONST(ZSTATE_TMP_SYNC_FLUSH);
	CONST(ZSTATE_TMP_FLUSH_WRITE_BUFFER);
	CONST(ZSTATE_TMP_TRL);
	CONST(ZSTATE_TMP_END);
	CONST(ZSTATE_TMP_OFFSET);
	/* Unparenthesised in ISA-L's header: the expansion must behave the same inside an
	 * expression too. */
	printf("const 2*ZSTATE_TMP_OFFSET %lld\n", (long long)(2 * ZSTATE_TMP_OFFSET));
	CONST(ISAL_DECODE_LONG_BITS);
	CONST(ISAL_DECODE_SHORT_BITS);
	CONST(ISAL_BLOCK_NEW_HDR);
	CONST(ISAL_BLOCK_HDR);
	CONST(ISAL_BLOCK_TYPE0);
	CONST(ISAL_BLOCK_CODED);
	CONST(ISAL_BLOCK_INPUT_DONE);
	CONST(ISAL_BLOCK_FINISH);
	CONST(ISAL_GZIP_EXTRA_LEN);
	CONST(ISAL_GZIP_EXTRA);
	CONST(ISAL_GZIP_NAME);
	CONST(ISAL_GZIP_COMMENT);
	CONST(ISAL_GZIP_HCRC);
	CONST(ISAL_ZLIB_DICT);
	CONST(ISAL_CHECKSUM_CHECK);
	CONST(ISAL_DEFLATE);
	CONST(ISAL_GZIP);
	CONST(ISAL_GZIP_NO_HDR);
	CONST(ISAL_ZLIB);
	CONST(ISAL_ZLIB_NO_HDR);
	CONST(ISAL_ZLIB_NO_HDR_VER);
	CONST(ISAL_GZIP_NO_HDR_VER);
	CONST(ISAL_DECOMP_OK);
	CONST(ISAL_END_INPUT);
	CONST(ISAL_OUT_OVERFLOW);
	CONST(ISAL_NAME_OVERFLOW);
	CONST(ISAL_COMMENT_OVERFLOW);
	CONST(ISAL_EXTRA_OVERFLOW);
	CONST(ISAL_NEED_DICT);
	CONST(ISAL_INVALID_BLOCK);
	CONST(ISAL_INVALID_SYMBOL);
	CONST(ISAL_INVALID_LOOKBACK);
	CONST(ISAL_INVALID_WRAPPER);
	CONST(ISAL_UNSUPPORTED_METHOD);
	CONST(ISAL_INCORRECT_CHECKSUM);
	CONST(ISAL_DEF_MIN_LEVEL);
	CONST(ISAL_DEF_MAX_LEVEL);
	CONST(ISAL_DEF_LVL0_REQ);
	CONST(ISAL_DEF_LVL1_REQ);
	CONST(ISAL_DEF_LVL1_TOKEN_SIZE);
	CONST(ISAL_DEF_LVL2_REQ);
	CONST(ISAL_DEF_LVL2_TOKEN_SIZE);
	CONST(ISAL_DEF_LVL3_REQ);
	printf("const 2*ISAL_DEF_LVL3_REQ %lld\n", (long long)(2 * ISAL_DEF_LVL3_REQ));
	CONST(ISAL_DEF_LVL3_TOKEN_SIZE);
	CONST(ISAL_DEF_LVL0_MIN);
	CONST(ISAL_DEF_LVL0_SMALL);
	CONST(ISAL_DEF_LVL0_MEDIUM);
	CONST(ISAL_DEF_LVL0_LARGE);
	CONST(ISAL_DEF_LVL0_EXTRA_LARGE);
	CONST(ISAL_DEF_LVL0_DEFAULT);
	CONST(ISAL_DEF_LVL1_MIN);
	CONST(ISAL_DEF_LVL1_SMALL);
	CONST(ISAL_DEF_LVL1_MEDIUM);
	CONST(ISAL_DEF_LVL1_LARGE);
	CONST(ISAL_DEF_LVL1_EXTRA_LARGE);
	CONST(ISAL_DEF_LVL1_DEFAULT);
	CONST(ISAL_DEF_LVL2_MIN);
	CONST(ISAL_DEF_LVL2_SMALL);
	CONST(ISAL_DEF_LVL2_MEDIUM);
	CONST(ISAL_DEF_LVL2_LARGE);
	CONST(ISAL_DEF_LVL2_EXTRA_LARGE);
	CONST(ISAL_DEF_LVL2_DEFAULT);
	CONST(ISAL_DEF_LVL3_MIN);
	CONST(ISAL_DEF_LVL3_SMALL);
	CONST(ISAL_DEF_LVL3_MEDIUM);
	CONST(ISAL_DEF_LVL3_LARGE);
	CONST(ISAL_DEF_LVL3_EXTRA_LARGE);
	CONST(ISAL_DEF_LVL3_DEFAULT);
	CONST(IGZIP_NO_HIST);
	CONST(IGZIP_HIST);
	CONST(IGZIP_DICT_HIST);
	CONST(IGZIP_DICT_HASH_SET);
}

int main(int argc, char **argv)
{
	uint64_t seed;
	unsigned long count;
	oracle_start(argc, argv, &seed, &count);
	/* A call into the library, so the system build maps libisal.so.2 (tests/oracle.c checks
	 * which library each run loaded) even when the linker drops unused dependencies. */
	printf("# crc32_gzip_refl(\"\"): 0x%08x\n", (unsigned)crc32_gzip_refl(0, NULL, 0));
	print_structs();
	print_constants();
	return fflush(stdout) == 0 ? 0 : 1;
}
