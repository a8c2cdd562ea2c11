/* A stand-in for CANN's acl/acl_base.h for npukb's tests on machines
 * without CANN: the types, error codes, data types and formats the
 * generated programs use, with the names, types and values of the external
 * ACL headers published in mindspore-ai/graphengine (910/inc/external/acl),
 * and nothing of the kernel language (see acl.h). Written for npukb. */
#ifndef NPUKB_ASCEND_FAKE_ACL_BASE_H
#define NPUKB_ASCEND_FAKE_ACL_BASE_H

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
static const int ACL_ERROR_INVALID_DEVICE = 200002;
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

#ifdef __cplusplus
}
#endif
#endif
