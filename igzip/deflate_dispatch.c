/* The deflate half of the igzip module: its variant tables and module entry. */
#include "igzip_internal.h"

const struct stoa_module stoa_module_deflate = { "deflate", NULL, 0 };
