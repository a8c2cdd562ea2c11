/* The fake AddCustom operator library (libcust_opapi.so) of npukb's tests:
 * z = x + y over float32 tensors. Phase one checks the tensors and that
 * the operator's kernel binary was installed under ASCEND_CUSTOM_OPP_PATH
 * (as the real runtime needs to find it); phase two checks the workspace
 * and the stream and "launches" through the fake runtime. */
#include "aclnn_add_custom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fake_acl_tensor(const aclTensor *t, int *dtype, int64_t *numel, void **data);
int fake_acl_stream_ok(void *stream);
int fake_acl_device_memory(const void *p, size_t n);
void fake_acl_note(const char *what);
int fake_acl_launch(uint32_t blocks, void *l2ctrl, void *stream);
void fake_acl_launch_done(void);

struct aclOpExecutor {
	float *x, *y, *z;
	int64_t n;
};

#define WORKSPACE 1024

aclnnStatus aclnnAddCustomGetWorkspaceSize(const aclTensor *x, const aclTensor *y,
					   const aclTensor *z, uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	const char *opp = getenv("ASCEND_CUSTOM_OPP_PATH");
	char path[4096];
	int dt[3];
	int64_t n[3];
	void *d[3];
	struct aclOpExecutor *e;

	fake_acl_note("aclnnAddCustomGetWorkspaceSize");
	snprintf(path, sizeof path, "%s/op_impl/ai_core/tbe/kernel/npukb_fake_binary",
		 opp ? opp : "");
	if (!opp || access(path, F_OK) != 0)
		return 561003; /* no kernel binary for the operator */
	if (fake_acl_tensor(x, &dt[0], &n[0], &d[0]) || fake_acl_tensor(y, &dt[1], &n[1], &d[1]) ||
	    fake_acl_tensor(z, &dt[2], &n[2], &d[2]) || !workspaceSize || !executor)
		return 161001; /* a null argument */
	if (dt[0] != ACL_FLOAT || dt[1] != ACL_FLOAT || dt[2] != ACL_FLOAT || n[0] != n[1] ||
	    n[0] != n[2])
		return 161002; /* dtypes or shapes the operator does not support */
	e = calloc(1, sizeof *e);
	if (!e)
		return 361001;
	e->x = d[0];
	e->y = d[1];
	e->z = d[2];
	e->n = n[0];
	*workspaceSize = WORKSPACE;
	*executor = e;
	return 0;
}

aclnnStatus aclnnAddCustom(void *workspace, uint64_t workspaceSize, aclOpExecutor *e,
			   aclrtStream stream)
{
	fake_acl_note("aclnnAddCustom");
	if (!e || workspaceSize < WORKSPACE || !fake_acl_device_memory(workspace, workspaceSize) ||
	    !fake_acl_stream_ok(stream))
		return 161001;
	if (fake_acl_launch(8, NULL, stream) == 0) {
		for (int64_t i = 0; i < e->n; i++)
			e->z[i] = e->x[i] + e->y[i];
		fake_acl_launch_done();
	}
	free(e);
	return 0;
}
