/* gen_program.h - what the generated C++ programs of the Ascend backends
 * share: the helpers every one of them contains (failing with the
 * runtime's message, reading and writing argument files, the stats file,
 * the --health check), and the template expansion that writes them. */
#ifndef NPUKB_GEN_PROGRAM_H
#define NPUKB_GEN_PROGRAM_H

#include <stddef.h>
#include <stdio.h>

/* C++ text for inside the program's anonymous namespace, after its
 * `const char kProgram[]` (the name its messages start with): CHECK(call),
 * failed(), usage(), number(), read_file(a), write_file(a) (for any struct
 * with path, host and bytes), write_stats() and health(). It needs
 * acl/acl.h, <algorithm>, <cstdio>, <cstdlib>, <cstring>, <string> and
 * <vector>. Exit statuses: 2 usage, 3 a failed call, 4 an unhealthy device. */
extern const char npukb_gen_common_cxx[];

/* 1 when s is a C identifier. */
int npukb_gen_is_identifier(const char *s);

/* Writes the placeholder `key` (klen bytes, between two '@') to f and
 * returns 1, or returns 0 when key is not one (the text is kept). */
typedef int (*npukb_gen_put)(FILE *f, const char *key, size_t klen, void *ctx);

/* tpl with @KEY@ placeholders replaced by put (and @COMMON@ by
 * npukb_gen_common_cxx), malloc'd; NULL when out of memory. */
char *npukb_gen_expand(const char *tpl, npukb_gen_put put, void *ctx);

#endif
