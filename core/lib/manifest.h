/* manifest.h - loading task manifests (levels/.../task.xml) into tasks.
 *
 * Owns: reading a manifest with libxml2 (no network, no DTDs, no entities),
 * validating it against the RELAX NG schema (levels/schema/task.rng), the
 * checks the schema cannot express, and building the struct npukb_task.
 * Every problem is reported as "file:line: what is wrong", one per line. */
#ifndef NPUKB_MANIFEST_H
#define NPUKB_MANIFEST_H

#include <stddef.h>
#include <npukb/task.h>

/* The XML namespace of task manifests. */
#define NPUKB_MANIFEST_NS "urn:npukb:task:1"

/* Most problems reported for one manifest; the rest are counted. */
#define NPUKB_MANIFEST_MAX_ERRORS 20

/* Load the manifest at `path`, validated against the schema at
 * `schema_path`. On success *out is a task owned by the caller (release it
 * with npukb_task_free) and 0 is returned. On failure *out is NULL, err
 * holds the problems found (as many as could be found, up to
 * NPUKB_MANIFEST_MAX_ERRORS, newline-separated) and the return value is
 * -EINVAL for a bad manifest or schema, -ENOENT/-EACCES/... when a file
 * cannot be read, -ENOMEM when memory ran out.
 *
 * Thread-safe as far as libxml2 is (error handlers are per thread). */
int npukb_manifest_load(const char *path, const char *schema_path,
			struct npukb_task **out, char *err, size_t errlen);

/* Check that the schema at `schema_path` can be read and compiled. */
int npukb_manifest_schema_check(const char *schema_path, char *err, size_t errlen);

#endif
