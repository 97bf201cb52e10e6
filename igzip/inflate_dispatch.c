/* The inflate half of the igzip module: its variant tables and module entry. */
#include "igzip_internal.h"

const struct stoa_module stoa_module_inflate = { "inflate", NULL, 0 };
