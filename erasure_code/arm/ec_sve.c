/* The erasure-code kernels on SVE (ec_sve_tpl.h). */
#define EC_SFX sve
#include "ec_sve_tpl.h"
