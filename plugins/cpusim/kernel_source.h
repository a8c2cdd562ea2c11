/* kernel_source.h - what a C++ source of a sample holds at namespace
 * scope, read lexically: which files are kernel sources, whether the
 * task's kernel is defined there and with which linkage, whether the
 * source defines the tiling struct itself, and the kernel part of a file
 * that also holds host code.
 *
 * A kernel source is one that defines a `__global__` function (a
 * definition, with a body: a host main.cpp declares the kernel for CANN's
 * CPU debug mode, it does not define it). Host code, at namespace scope,
 * is a function definition that carries neither `__aicore__` nor
 * `__global__` (main, the ACL calls around a `<<<>>>` launch); the
 * device's functions and classes carry `__aicore__` on every member. */
#ifndef NPUKB_CPUSIM_KERNEL_SOURCE_H
#define NPUKB_CPUSIM_KERNEL_SOURCE_H

#include <stddef.h>

struct kernel_source_info {
	int kernels;          /* __global__ function definitions */
	int defines_kernel;   /* one of them is named as the task's kernel */
	int kernel_c_linkage; /* ... inside extern "C" (or declared so) */
	int host_functions;   /* namespace-scope definitions of host code */
	int defines_type;     /* a global struct, class, typedef or using of that name */
	int type_line;        /* the line of that definition (1-based), 0 without */
};

/* Scans text (NUL-terminated) for the kernel named `kernel` and the type
 * named `type` (either may be NULL). Never fails. */
void kernel_source_scan(const char *text, const char *kernel, const char *type,
			struct kernel_source_info *out);

/* text with every host function definition at namespace scope, and every
 * #include of an ACL runtime header (acl/..., aclrtlaunch_...), replaced
 * by blanks, line breaks kept (so lines keep their numbers): the kernel
 * part of a single-source file. A malloc'd string in *out; 0 or -ENOMEM. */
int kernel_source_kernel_part(const char *text, char **out);

#endif
