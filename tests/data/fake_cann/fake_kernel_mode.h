// Forced into every kernel-mode compile by fake-cann-cc: what the kernel
// compiler's language mode adds to C++, for a plain g++. The <<<>>> launch
// is rewritten (by fake-cann-cc) into npukb_fake_kernel_launch(kernel,
// blocks, l2ctrl, stream)(args...), which asks the fake runtime to accept
// the launch, has it check every argument, and runs the kernel once per
// block.
#ifndef NPUKB_FAKE_KERNEL_MODE_H
#define NPUKB_FAKE_KERNEL_MODE_H

#include <cstdint>

extern "C" int fake_acl_launch(uint32_t blocks, void *l2ctrl, void *stream);
extern "C" void fake_acl_launch_arg(const void *arg);
extern "C" void fake_acl_block(uint32_t idx);
extern "C" void fake_acl_launch_done(void);

template <typename K>
auto npukb_fake_kernel_launch(K kernel, uint32_t blocks, void *l2ctrl, void *stream)
{
	int accepted = fake_acl_launch(blocks, l2ctrl, stream) == 0;

	return [=](auto... args) {
		if (!accepted)
			return;
		(fake_acl_launch_arg(reinterpret_cast<const void *>(args)), ...);
		for (uint32_t b = 0; b < blocks; b++) {
			fake_acl_block(b);
			kernel(args...);
		}
		fake_acl_launch_done();
	};
}

#endif
