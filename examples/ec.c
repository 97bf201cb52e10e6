/* Erasure coding an object into 6 data and 3 parity fragments, losing three of them (two data,
 * one parity) and rebuilding them, with stoa's one-call helpers over ISA-L's codes. */
#include <stdio.h>
#include <stdlib.h>
#include <stoa.h>
#include <string.h>

enum { K = 6, P = 3 };

int main(void)
{
	const size_t size = 100000;
	unsigned char *object = malloc(size);
	for (size_t i = 0; object && i < size; i++)
		object[i] = (unsigned char)(i * 7 + i / 251);
	const size_t frag = stoa_ec_fragment_len(size, K);
	unsigned char *pad = malloc(stoa_ec_pad_len(size, K) + 1), *data[K], *parity[P];
	unsigned char *store[K + P], *frags[K + P];
	for (int i = 0; i < K + P; i++)
		store[i] = malloc(frag);
	for (int i = 0; i < P; i++)
		parity[i] = store[K + i];
	if (!object || !pad ||
	    stoa_ec_encode(K, P, STOA_EC_CAUCHY, object, size, data, pad, parity)) {
		printf("encode failed\n");
		return 1;
	}
	/* What a storage system keeps: k + p separate fragments. */
	for (int i = 0; i < K; i++)
		memcpy(store[i], data[i], frag);
	const int lost[] = { 1, 4, K + 2 };
	for (int i = 0; i < K + P; i++)
		frags[i] = store[i];
	for (int i = 0; i < 3; i++)
		memset(store[lost[i]], 0, frag);
	if (stoa_ec_recover(K, P, STOA_EC_CAUCHY, frag, frags, lost, 3)) {
		printf("recover failed\n");
		return 1;
	}
	for (int i = 0; i < K; i++)
		if (memcmp(store[i], data[i], frag)) {
			printf("fragment %d differs\n", i);
			return 1;
		}
	printf("%zu bytes in %d+%d fragments of %zu bytes; fragments 1, 4 and parity 2 rebuilt\n",
	       size, K, P, frag);
	for (int i = 0; i < K + P; i++)
		free(store[i]);
	free(pad);
	free(object);
	return 0;
}
