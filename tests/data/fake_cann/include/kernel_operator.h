// A stand-in for AscendC's kernel_operator.h for npukb's fake toolkit: only
// what the tests' kernels use. Kernel side: GM_ADDR carries __gm__, which
// the fake compiler's kernel mode defines (empty), as the real kernel
// language mode knows it; a host compile that includes this fails.
#ifndef NPUKB_FAKE_KERNEL_OPERATOR_H
#define NPUKB_FAKE_KERNEL_OPERATOR_H

#include <cstdint>

#define GM_ADDR __gm__ uint8_t *

extern "C" uint32_t fake_acl_block_idx(void);
extern "C" uint32_t fake_acl_block_num(void);

namespace AscendC {
__aicore__ inline int64_t GetBlockIdx() { return fake_acl_block_idx(); }
__aicore__ inline int64_t GetBlockNum() { return fake_acl_block_num(); }
} // namespace AscendC

#endif
