/* What the aarch64 crypto-extension engines share: the one- and two-stream loops around one
 * block function. Two streams alternate their blocks so that an in-order core (Cortex-A53) and
 * the SHA units of the wider ones overlap the two independent round chains.
 *
 * Parameters, defined before the inclusion:
 *   CE_ALG    the engine prefix (sha1, sha256, sha512)
 *   CE_TOKEN  the file's token (sha2, sha512)
 *   CE_WORD   the state word (uint32_t, uint64_t); CE_BLOCK the block size in bytes
 *   CE_STATE  the type of the registers the rounds keep, with the functions
 *     static inline void ce_load(CE_STATE *s, const CE_WORD st[]);
 *     static inline void ce_store(CE_WORD st[], const CE_STATE *s);
 *     static inline void ce_block(CE_STATE *s, const uint8_t *data);
 *   CE_NO_X2  (optional) no two-stream form
 * It defines <CE_ALG>_x1_<CE_TOKEN> and <CE_ALG>_x2_<CE_TOKEN>, and undefines its parameters. */
#define CE_PASTE_(a, b, c) a##_##b##_##c
#define CE_PASTE(a, b, c)  CE_PASTE_(a, b, c)
#define CE_X1              CE_PASTE(CE_ALG, x1, CE_TOKEN)
#define CE_X2              CE_PASTE(CE_ALG, x2, CE_TOKEN)

CE_PASTE(CE_ALG, x1, fn) CE_X1;

void CE_X1(CE_WORD st[], const uint8_t *data, uint64_t nblocks)
{
	CE_STATE s;
	ce_load(&s, st);
	for (; nblocks; nblocks--, data += CE_BLOCK)
		ce_block(&s, data);
	ce_store(st, &s);
}

#ifndef CE_NO_X2
CE_PASTE(CE_ALG, x2, fn) CE_X2;

void CE_X2(CE_WORD a[], CE_WORD b[], const uint8_t *da, const uint8_t *db, uint64_t nblocks)
{
	CE_STATE sa, sb;
	ce_load(&sa, a);
	ce_load(&sb, b);
	for (; nblocks; nblocks--, da += CE_BLOCK, db += CE_BLOCK) {
		ce_block(&sa, da);
		ce_block(&sb, db);
	}
	ce_store(a, &sa);
	ce_store(b, &sb);
}
#endif

#undef CE_PASTE_
#undef CE_PASTE
#undef CE_X1
#undef CE_X2
#undef CE_ALG
#undef CE_TOKEN
#undef CE_STATE
#undef CE_WORD
#undef CE_BLOCK
#undef CE_NO_X2
