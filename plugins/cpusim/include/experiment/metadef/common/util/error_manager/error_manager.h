/* experiment/metadef/common/util/error_manager/error_manager.h - CANN's
 * error reporting, as op_host InferShape code uses it: the report goes to
 * stderr (cpusim runs no InferShape; the sources only have to compile). */
#pragma once
#include <cstdio>

#define REPORT_INNER_ERROR(code, ...) \
	(std::fprintf(stderr, "[%s] ", (const char *)(code)), std::fprintf(stderr, __VA_ARGS__), std::fputc('\n', stderr))
