/* The erasure-code kernels on SVE2: ec_sve_tpl.h with EOR3. */
#define EC_SFX sve2
#include "ec_sve_tpl.h"
