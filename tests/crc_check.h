/* What the CRC suite (tests/test_crc.c) shares with crc_check.c. */
#ifndef STOA_TESTS_CRC_CHECK_H
#define STOA_TESTS_CRC_CHECK_H

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "crc/crc_internal.h"
#include "crc_calls.h"
#include "isa-l/crc.h"
#include "isa-l/crc64.h"
#include "stoa.h"
#include "oracle.h"
#include "testutil.h"

/* The five calling shapes of the API. */
enum kind { K_T10DIF, K_T10DIF_COPY, K_CRC32, K_ISCSI, K_CRC64 };

struct crc_fn {
	const char *name;
	const struct stoa_variant *table;
	enum kind kind;
	int width;
	uint64_t poly; /* normal (MSB-first) form, as the CRC catalogue writes it */
	int refl;
	int inverts; /* ISA-L inverts init on the way in and the result on the way out */
	crc_call_fn *pub, *base, *by8;
};

/* Polynomials from the CRC catalogue (reveng.sourceforge.io/crc-catalogue) and ISA-L's
 * crc64.h; the conventions are ISA-L's: t10dif and iscsi use init as the raw state. */
#define CRC64_FN(poly_name, form, poly, refl)                                                      \
	{                                                                                          \
		"crc64_" #poly_name "_" #form, crc64_##poly_name##_##form##_variants, K_CRC64, 64, \
			poly, refl, 1, cc_crc64_##poly_name##_##form,                               \
			cc_crc64_##poly_name##_##form##_base, cc_crc64_##poly_name##_##form##_by8    \
	}

#define N_FNS STOA_COUNT(crc_fns)

#define MAX_ENTRIES 16

struct entry {
	char label[32];
	stoa_fnptr variant;  /* a table entry, called with the internal prototype */
	crc_call_fn *exported; /* or an exported symbol */
};

struct prepared {
	const struct crc_fn *f;
	stoa_fnptr base; /* the table's base entry: the reference every other form must equal */
	struct entry e[MAX_ENTRIES];
	size_t n, skipped;
};

#define AREA (65536 + 1024)

struct area {
	uint8_t *src, *dst;
	int where;
};

extern const struct crc_fn crc_fns[13];
uint64_t width_mask(int width);
const struct crc_fn *fn_named(const char *name);
uint64_t ref_crc(const struct crc_fn *f, uint64_t init, const uint8_t *p, uint64_t len);
void arm_fault_report(void);
void note_call(const char *fn, const char *label, uint64_t len, uint64_t init,
		      const char *where);
uint64_t call_variant(enum kind k, stoa_fnptr fn, uint64_t init, const uint8_t *buf,
			     uint64_t len, uint8_t *dst);
uint64_t call_entry(const struct prepared *p, const struct entry *e, uint64_t init,
			   const uint8_t *buf, uint64_t len, uint8_t *dst);
const struct stoa_func *table_of(const struct crc_fn *f);
extern struct prepared prep[N_FNS];
void prepare_all(void);
void say_entries(const char *what);
void area_open(struct area *a, int where);
void area_close(struct area *a);
uint8_t *place(uint8_t *base, int where, uint64_t len, size_t slack);
uint64_t random_init(int width);
uint64_t random_len(void);
void count_reset(void);
void count_say(const char *what);
void check_forms(const struct prepared *p, const uint8_t *src, uint8_t *dst, uint64_t len,
			uint64_t init, const char *where);
void check_placed(const struct prepared *p, struct area *a, uint64_t len, size_t slack,
			 const char *where);

#endif
