/* The reference side of the zlib differential tests and fuzz target: runs the requests of
 * tests/zlib_peer.h on the zlib it is linked to (the system's), until its input closes. It
 * refuses to serve when the library it runs on is stoa's (an LD_LIBRARY_PATH left over), which
 * would make every comparison pass. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>

#include "zlib_peer.h"

/* The file the process's zlib was loaded from. */
static const char *zlib_path(void)
{
	Dl_info info;
	if (dladdr((void *)(uintptr_t)&deflate, &info) && info.dli_fname)
		return info.dli_fname;
	return "?";
}

int main(void)
{
	if (strstr(zlib_path(), "/compat/libz")) {
		fprintf(stderr, "zlib_peer: runs on %s, not the system's zlib\n", zlib_path());
		return 2;
	}
	struct zs_buf req = { 0 }, ans = { 0 };
	int rc = 0; /* 0: the input ended; 1: a malformed request or a write failed */
	while (rc == 0) {
		uint32_t hdr[2];
		if (zs_read_all(0, hdr, sizeof(hdr)))
			break;
		req.len = 0;
		zs_reserve(&req, hdr[1]);
		if (zs_read_all(0, req.p, hdr[1])) {
			rc = 1;
			break;
		}
		req.len = hdr[1];
		ans.len = 0;
		if (hdr[0] == ZS_OP_DEFLATE) {
			struct zs_deflate_result r;
			zs_run_deflate(req.p, req.len, &r);
			zs_encode_deflate(&ans, &r);
			zs_deflate_free(&r);
		} else if (hdr[0] == ZS_OP_INFLATE) {
			struct zs_inflate_opts o;
			const uint8_t *stream;
			size_t n;
			if (zs_decode_inflate_request(&req, &o, &stream, &n)) {
				rc = 1;
				break;
			}
			struct zs_inflate_result r;
			zs_run_inflate(stream, n, &o, &r);
			zs_encode_inflate(&ans, &r);
			zs_inflate_free(&r);
		} else if (hdr[0] == ZS_OP_VERSION) {
			char text[512];
			snprintf(text, sizeof(text), "%s %s", zlibVersion(), zlib_path());
			zs_put(&ans, text, strlen(text) + 1);
		} else {
			rc = 1;
			break;
		}
		const uint32_t len = (uint32_t)ans.len;
		if (zs_write_all(1, &len, 4) || zs_write_all(1, ans.p, ans.len))
			rc = 1;
	}
	free(req.p);
	free(ans.p);
	return rc;
}
