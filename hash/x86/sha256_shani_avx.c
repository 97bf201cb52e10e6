/* SHA-256's SHA-NI engines for CPUs with AVX: the same code, entered with the upper vector state
 * cleared (hash/x86/sha_vzu.h). */
#define SHANI_AVX 1
#include "sha256_shani.c"
