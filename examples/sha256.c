/* Hashing many messages at once with isa-l_crypto's SHA-256 manager: submit each message whole,
 * take the finished contexts as they come back, flush the rest. Each digest is checked against
 * stoa's one-call SHA-256. */
#include <isa-l_crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <stoa.h>
#include <string.h>

enum { MESSAGES = 20 };

static int check(const ISAL_SHA256_HASH_CTX *ctx, const unsigned char *msg, size_t len)
{
	unsigned char want[32];
	stoa_sha256(msg, len, want);
	for (int w = 0; w < 8; w++) /* the manager's words are big-endian values */
		for (int b = 0; b < 4; b++)
			if ((unsigned char)(ctx->job.result_digest[w] >> (24 - 8 * b)) !=
			    want[4 * w + b])
				return 1;
	return 0;
}

int main(void)
{
	/* aligned_alloc takes a size that is a multiple of the alignment (C11). */
	ISAL_SHA256_HASH_CTX_MGR *mgr = aligned_alloc(64, (sizeof(*mgr) + 63) & ~(size_t)63);
	ISAL_SHA256_HASH_CTX ctx[MESSAGES], *done = NULL;
	unsigned char *msg[MESSAGES];
	size_t len[MESSAGES];
	int bad = 0, finished = 0;
	if (!mgr || isal_sha256_ctx_mgr_init(mgr))
		return 1;
	for (int i = 0; i < MESSAGES; i++) {
		len[i] = (size_t)i * 1000 + 3;
		msg[i] = malloc(len[i]);
		if (!msg[i])
			return 1;
		memset(msg[i], 'a' + i, len[i]);
		isal_hash_ctx_init(&ctx[i]);
		ctx[i].user_data = (void *)(size_t)i;
		if (isal_sha256_ctx_mgr_submit(mgr, &ctx[i], &done, msg[i], (uint32_t)len[i],
		                               ISAL_HASH_ENTIRE))
			return 1;
		if (done) {
			size_t j = (size_t)done->user_data;
			bad |= check(done, msg[j], len[j]);
			finished++;
		}
	}
	for (;;) {
		if (isal_sha256_ctx_mgr_flush(mgr, &done))
			return 1;
		if (!done)
			break;
		size_t j = (size_t)done->user_data;
		bad |= check(done, msg[j], len[j]);
		finished++;
	}
	printf("%d messages hashed, %s\n", finished,
	       bad || finished != MESSAGES ? "WRONG digests" : "every digest right");
	for (int i = 0; i < MESSAGES; i++)
		free(msg[i]);
	free(mgr);
	return bad || finished != MESSAGES;
}
