/* The aclnn header of the fake AddCustom operator library (what opbuild
 * generates for a custom operator: the two phases, inputs then outputs). */
#ifndef FAKE_ACLNN_ADD_CUSTOM_H
#define FAKE_ACLNN_ADD_CUSTOM_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnAddCustomGetWorkspaceSize(const aclTensor *x, const aclTensor *y,
					   const aclTensor *z, uint64_t *workspaceSize,
					   aclOpExecutor **executor);
aclnnStatus aclnnAddCustom(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
			   aclrtStream stream);

#ifdef __cplusplus
}
#endif
#endif
