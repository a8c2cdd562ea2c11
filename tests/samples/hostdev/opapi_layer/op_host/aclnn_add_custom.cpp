// The aclnn two-stage API of the operator: built by CANN into the op-api
// library against headers cpusim does not emulate, so compiling this file
// would fail. cpusim launches the kernel itself and must skip it.
#include "aclnn/aclnn_base.h"
#include "opdev/op_executor.h"

aclnnStatus aclnnAddCustomGetWorkspaceSize(const aclTensor *x, const aclTensor *y, aclTensor *z,
                                           uint64_t *workspaceSize, aclOpExecutor **executor);
