/* A qemu-user TCG plugin that counts the guest instructions a program executes, for
 * scripts/arm_proxy.sh: one inline add of a block's instruction count per executed translation
 * block, the total printed at exit as "insns N" on the plugin output (qemu -d plugin -D file).
 * With the argument "blocks=N" (qemu -plugin insn_count.so,blocks=5) it also counts the
 * executions of every block and prints the N blocks that executed the most instructions, as
 * "block VADDR INSNS EXECUTIONS": the script reads a kernel's hot loop from the first one. Built
 * on the host as a shared object and loaded with qemu-aarch64 -plugin.
 *
 * Debian ships no qemu-plugin.h (qemu-system-common and qemu-user carry only the binaries), so
 * the few declarations used here are written out below from the documented plugin API of
 * qemu 7.2 (API version 1); a qemu-plugin.h on the include path is used instead when there is
 * one (-DHAVE_QEMU_PLUGIN_H). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_QEMU_PLUGIN_H
#include <qemu-plugin.h>
#else
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
void qemu_plugin_outs(const char *string);
#define QEMU_PLUGIN_VERSION 1
#endif

__attribute__((visibility("default"))) int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* The user-mode guest programs measured are single-threaded: one counter. */
static uint64_t insns;

/* With blocks=N: one record per translation (a block translated again gets a second record; the
 * report adds them up by address). Records are never freed: the plugin lives as long as qemu. */
struct block {
	uint64_t vaddr, n, execs;
	struct block *next;
};
static struct block *blocks;
static long top;

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	size_t n = qemu_plugin_tb_n_insns(tb);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insns, n);
	if (top <= 0)
		return;
	struct block *b = calloc(1, sizeof *b);
	if (!b)
		return;
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->n = n;
	b->next = blocks;
	blocks = b;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->execs, 1);
}

static int by_weight(const void *pa, const void *pb)
{
	const struct block *a = *(struct block *const *)pa, *b = *(struct block *const *)pb;
	uint64_t wa = a->n * a->execs, wb = b->n * b->execs;
	return wa < wb ? 1 : wa > wb ? -1 : 0;
}

static void report_blocks(void)
{
	size_t count = 0;
	for (struct block *b = blocks; b; b = b->next)
		count++;
	struct block **all = malloc(count * sizeof *all);
	if (!all)
		return;
	count = 0;
	/* Merge the retranslations of one address (same address and length) into the first. */
	for (struct block *b = blocks; b; b = b->next) {
		size_t i;
		for (i = 0; i < count; i++)
			if (all[i]->vaddr == b->vaddr && all[i]->n == b->n)
				break;
		if (i < count && all[i] != b)
			all[i]->execs += b->execs;
		else
			all[count++] = b;
	}
	qsort(all, count, sizeof *all, by_weight);
	for (size_t i = 0; i < count && i < (size_t)top; i++) {
		char line[128];
		snprintf(line, sizeof line, "block 0x%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
			 all[i]->vaddr, all[i]->n, all[i]->execs);
		qemu_plugin_outs(line);
	}
	free(all);
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
	(void)id;
	(void)userdata;
	char line[64];
	snprintf(line, sizeof line, "insns %" PRIu64 "\n", insns);
	qemu_plugin_outs(line);
	if (top > 0)
		report_blocks();
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
							      const qemu_info_t *info, int argc,
							      char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++)
		if (!strncmp(argv[i], "blocks=", 7))
			top = atol(argv[i] + 7);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
