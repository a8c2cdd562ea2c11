/* A stand-in for CANN's acl/acl.h for npukb's tests on machines without
 * CANN. As the real one, it includes acl_rt.h (which includes acl_base.h)
 * and declares init, finalize and aclGetRecentErrMsg itself.
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

#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif
#endif
