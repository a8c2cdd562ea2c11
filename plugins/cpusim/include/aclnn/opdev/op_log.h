/* aclnn/opdev/op_log.h - the op-api logging macros op_host sources include
 * (their own files usually define the OP_LOGD they use). Errors go to
 * stderr; the node name is printed first. */
#pragma once
#include <cstdio>

#define OP_LOGE_WITHOUT_REPORT(nodeName, ...) \
	(std::fprintf(stderr, "%s: ", (const char *)(nodeName)), std::fprintf(stderr, __VA_ARGS__), std::fputc('\n', stderr))
#ifndef OP_LOGE
#define OP_LOGE(nodeName, ...) OP_LOGE_WITHOUT_REPORT(nodeName, __VA_ARGS__)
#endif
