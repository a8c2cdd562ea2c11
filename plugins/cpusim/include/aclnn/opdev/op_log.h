/* aclnn/opdev/op_log.h - the op-api logging macros op_host sources include
 * (their own files usually define the OP_LOGD they use). Errors go to
 * stderr as error/ops_error.h's do: node name first. */
#pragma once
#include "error/ops_error.h"

#define OP_LOGE_WITHOUT_REPORT(nodeName, ...) OPS_LOG_E(nodeName, __VA_ARGS__)
#ifndef OP_LOGE
#define OP_LOGE(nodeName, ...) OP_LOGE_WITHOUT_REPORT(nodeName, __VA_ARGS__)
#endif
