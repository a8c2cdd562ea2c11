/* A stand-in for CANN's acl/acl_rt.h for npukb's tests: the runtime calls
 * the generated programs make (devices, streams, memory, events), as
 * declared in the external ACL headers of mindspore-ai/graphengine
 * (910/inc/external/acl/acl_rt.h). Written for npukb, a subset. */
#ifndef NPUKB_ASCEND_FAKE_ACL_RT_H
#define NPUKB_ASCEND_FAKE_ACL_RT_H

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

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

typedef enum aclrtDeviceStatus {
	ACL_RT_DEVICE_STATUS_NORMAL = 0,
	ACL_RT_DEVICE_STATUS_ABNORMAL,
	ACL_RT_DEVICE_STATUS_END = 0xFFFF
} aclrtDeviceStatus;

ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtQueryDeviceStatus(int32_t deviceId,
						    aclrtDeviceStatus *deviceStatus);
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size,
					 aclrtMemMallocPolicy policy);
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src,
					 size_t count, aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event);
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent,
						   aclrtEvent endEvent);

#ifdef __cplusplus
}
#endif
#endif
