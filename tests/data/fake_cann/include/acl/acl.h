/* A stand-in for CANN's acl/acl.h (with the parts of acl_base.h and
 * acl_rt.h it includes) for npukb's tests on machines without CANN.
 *
 * Honest by rule: it declares only what the real headers declare, with the
 * same names, types and values, and nothing of the kernel language (no
 * __global__, __aicore__, __gm__ or GM_ADDR: those exist only in the kernel
 * compiler's mode and in kernel_operator.h). Checked against the external
 * ACL headers published in mindspore-ai/graphengine (910/inc/external/acl);
 * see the README's table. Written for npukb, a subset: what the generated
 * programs call. */
#ifndef NPUKB_ASCEND_FAKE_ACL_H
#define NPUKB_ASCEND_FAKE_ACL_H

#include <stddef.h>
#include <stdint.h>

#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

typedef void *aclrtStream;
typedef void *aclrtEvent;
typedef int aclError;

static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_DEVICE = 100007;
static const int ACL_ERROR_RT_FAILURE = 500003;

typedef enum {
	ACL_DT_UNDEFINED = -1,
	ACL_FLOAT = 0,
	ACL_FLOAT16 = 1,
	ACL_INT8 = 2,
	ACL_INT32 = 3,
	ACL_UINT8 = 4,
	ACL_INT16 = 6,
	ACL_UINT16 = 7,
	ACL_UINT32 = 8,
	ACL_INT64 = 9,
	ACL_UINT64 = 10,
	ACL_DOUBLE = 11,
	ACL_BOOL = 12,
	ACL_BF16 = 27
} aclDataType;

typedef enum {
	ACL_FORMAT_UNDEFINED = -1,
	ACL_FORMAT_NCHW = 0,
	ACL_FORMAT_NHWC = 1,
	ACL_FORMAT_ND = 2
} aclFormat;

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

ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);
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
