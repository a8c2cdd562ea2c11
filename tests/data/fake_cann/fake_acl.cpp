// A host-memory stand-in for the ACL runtime calls of the ascend-device
// launch program, so tests can run that program without an NPU: device
// memory is host memory, a stream runs launches at once, and every timed
// launch "takes" 0.5, 1.0, 1.5 ... ms in turn (so the stats are known).
#include "acl/acl.h"

#include <cstdlib>
#include <cstring>

namespace {
int initialised;
int device = -1;
float clock_ms;
float step_ms = 0.5f;
} // namespace

extern "C" {

aclError aclInit(const char *) { initialised++; return ACL_SUCCESS; }
aclError aclFinalize(void) { return initialised-- == 1 ? ACL_SUCCESS : 100000; }
aclError aclrtSetDevice(int32_t id) { if (!initialised) return 100001; device = id; return ACL_SUCCESS; }
aclError aclrtResetDevice(int32_t id) { return id == device ? ACL_SUCCESS : 107001; }
aclError aclrtCreateStream(aclrtStream *s) { *s = &device; return device >= 0 ? ACL_SUCCESS : 107002; }
aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }
aclError aclrtMalloc(void **p, size_t n, aclrtMemMallocPolicy)
{
	*p = std::calloc(1, n);
	return *p ? ACL_SUCCESS : 207001;
}
aclError aclrtFree(void *p) { std::free(p); return ACL_SUCCESS; }
aclError aclrtMemcpy(void *dst, size_t max, const void *src, size_t n, aclrtMemcpyKind)
{
	if (n > max)
		return 107000;
	std::memcpy(dst, src, n);
	return ACL_SUCCESS;
}
aclError aclrtCreateEvent(aclrtEvent *e) { *e = std::calloc(1, sizeof(float)); return ACL_SUCCESS; }
aclError aclrtDestroyEvent(aclrtEvent e) { std::free(e); return ACL_SUCCESS; }
aclError aclrtRecordEvent(aclrtEvent e, aclrtStream)
{
	*static_cast<float *>(e) = clock_ms;
	return ACL_SUCCESS;
}
aclError aclrtEventElapsedTime(float *ms, aclrtEvent a, aclrtEvent b)
{
	*ms = *static_cast<float *>(b) - *static_cast<float *>(a);
	return ACL_SUCCESS;
}

// Called by the test's kernel stand-in: one launch passes time.
void fake_acl_kernel_ran(void);
void fake_acl_kernel_ran(void)
{
	clock_ms += step_ms;
	step_ms += 0.5f;
}
}
