/* error/ops_error.h - the logging and check macros CANN's operator
 * sources use in their op_host code. Debug logs are dropped; errors go to
 * stderr, where npukb keeps a failing tiling's output. */
#pragma once
#include <cstdio>

#include "npukb_cpusim/ophost.h"

#define OPS_LOG_D(nodeName, ...) ((void)(nodeName))
#define OPS_LOG_I(nodeName, ...) ((void)(nodeName))
#define OPS_LOG_W(nodeName, ...) ((void)(nodeName))
#define OPS_LOG_E(nodeName, ...) \
	(std::fprintf(stderr, "%s: ", (const char *)(nodeName)), std::fprintf(stderr, __VA_ARGS__), std::fputc('\n', stderr))
#define OPS_REPORT_VECTOR_INNER_ERR(nodeName, ...) OPS_LOG_E(nodeName, __VA_ARGS__)
#define OPS_REPORT_CUBE_INNER_ERR(nodeName, ...) OPS_LOG_E(nodeName, __VA_ARGS__)
/* cond true: log, then run the expression (usually a return). */
#define OPS_CHECK(cond, log_func, expr) \
	do {                            \
		if (cond) {             \
			log_func;       \
			expr;           \
		}                       \
	} while (0)
#define OPS_LOG_E_IF_NULL(context, ptr, expr)                                    \
	do {                                                                      \
		if ((ptr) == nullptr) {                                           \
			OPS_LOG_E((context)->GetNodeName(), "%s is nullptr", #ptr); \
			expr;                                                     \
		}                                                                 \
	} while (0)
#define OPS_CHECK_NULL_WITH_CONTEXT(context, ptr) OPS_LOG_E_IF_NULL(context, ptr, return ge::GRAPH_FAILED)
