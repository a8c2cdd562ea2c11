/* A stand-in for CANN's acl/acl.h: only the declarations the ascend-device
 * launch program uses, so tests can compile it (-fsyntax-only) on a machine
 * without CANN. Written for npukb's tests; the names and signatures follow
 * the ACL runtime API described in ASCENDC.md §2. */
#ifndef NPUKB_FAKE_ACL_H
#define NPUKB_FAKE_ACL_H

#include <stddef.h>
#include <stdint.h>

/* Kernel-side qualifiers the real compiler driver knows. */
#define __global__
#define __aicore__

typedef int aclError;
#define ACL_SUCCESS 0

typedef void *aclrtStream;
typedef void *aclrtEvent;

typedef enum aclrtMemcpyKind {
	ACL_MEMCPY_HOST_TO_HOST,
	ACL_MEMCPY_HOST_TO_DEVICE,
	ACL_MEMCPY_DEVICE_TO_HOST,
	ACL_MEMCPY_DEVICE_TO_DEVICE
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
	ACL_MEM_MALLOC_HUGE_FIRST,
	ACL_MEM_MALLOC_HUGE_ONLY,
	ACL_MEM_MALLOC_NORMAL_ONLY
} aclrtMemMallocPolicy;

#ifdef __cplusplus
extern "C" {
#endif

aclError aclInit(const char *configPath);
aclError aclFinalize(void);
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtCreateStream(aclrtStream *stream);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void *devPtr);
aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
		     aclrtMemcpyKind kind);
aclError aclrtCreateEvent(aclrtEvent *event);
aclError aclrtDestroyEvent(aclrtEvent event);
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);

#ifdef __cplusplus
}
#endif
#endif
