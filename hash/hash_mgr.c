/* The context managers and one-call hashes of the four algorithms (hash_mgr_tpl.h). */
#include "hash_internal.h"

#define HM_ALG      sha1
#define HM_ID       0
#define HM_CTX      ISAL_SHA1_HASH_CTX
#define HM_MGR      ISAL_SHA1_HASH_CTX_MGR
#define HM_WORD     uint32_t
#define HM_NW       5
#define HM_BS       64
#define HM_LENBYTES 8
#define HM_BIGEND   1
#define HM_CFG(m)   ((m)->mgr.unused_lanes)
#include "hash_mgr_tpl.h"

#define HM_ALG      sha256
#define HM_ID       1
#define HM_CTX      ISAL_SHA256_HASH_CTX
#define HM_MGR      ISAL_SHA256_HASH_CTX_MGR
#define HM_WORD     uint32_t
#define HM_NW       8
#define HM_BS       64
#define HM_LENBYTES 8
#define HM_BIGEND   1
#define HM_CFG(m)   ((m)->mgr.unused_lanes)
#include "hash_mgr_tpl.h"

#define HM_ALG      sha512
#define HM_ID       2
#define HM_CTX      ISAL_SHA512_HASH_CTX
#define HM_MGR      ISAL_SHA512_HASH_CTX_MGR
#define HM_WORD     uint64_t
#define HM_NW       8
#define HM_BS       128
#define HM_LENBYTES 16
#define HM_BIGEND   1
#define HM_CFG(m)   ((m)->mgr.unused_lanes)
#include "hash_mgr_tpl.h"

#define HM_ALG      md5
#define HM_ID       3
#define HM_CTX      ISAL_MD5_HASH_CTX
#define HM_MGR      ISAL_MD5_HASH_CTX_MGR
#define HM_WORD     uint32_t
#define HM_NW       4
#define HM_BS       64
#define HM_LENBYTES 8
#define HM_BIGEND   0
#define HM_CFG(m)   ((m)->mgr.unused_lanes[0])
#include "hash_mgr_tpl.h"
