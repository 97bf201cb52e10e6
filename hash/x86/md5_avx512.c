/* MD5 in ZMM registers: 32 messages at once (two sets of 16 dword lanes), and 16 (one set) for
 * a manager with few jobs. */
#include "hash_arch.h"

#define HV_BITS   512
#define MB_GROUPS 2
#define MB_NAME   md5_x32_avx512
#include "md5_mb_tpl.h"

#define HV_BITS   512
#define MB_GROUPS 1
#define MB_NAME   md5_x16_avx512
#include "md5_mb_tpl.h"
