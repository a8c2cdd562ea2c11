/* A stand-in for CANN's aclnn/acl_meta.h for npukb's tests: the tensor
 * objects of the aclnn API, declared as the real header declares them
 * (checked against mindspore-ai/graphengine 910/inc/external/aclnn/
 * acl_meta.h); a subset, what the generated programs call. */
#ifndef NPUKB_ASCEND_FAKE_ACL_META_H
#define NPUKB_ASCEND_FAKE_ACL_META_H

#include <stdint.h>
#include <stdlib.h>

/* As the real acl_meta.h: the base types only, not the runtime's calls. */
#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;
typedef struct aclTensorList aclTensorList;
typedef int32_t aclnnStatus;

ACL_FUNC_VISIBILITY aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum,
					       aclDataType dataType, const int64_t *stride,
					       int64_t offset, aclFormat format,
					       const int64_t *storageDims, uint64_t storageDimsNum,
					       void *tensorData);
ACL_FUNC_VISIBILITY aclTensorList *aclCreateTensorList(const aclTensor *const *value,
						       uint64_t size);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor *tensor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensorList(const aclTensorList *array);

#ifdef __cplusplus
}
#endif
#endif
