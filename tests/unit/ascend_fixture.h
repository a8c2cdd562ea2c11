/* ascend_fixture.h - what the Ascend backend tests share: a temporary
 * folder, the fake CANN toolkit installed in it (tests/data/fake_cann),
 * and golden files (tests/data/ascend). */
#ifndef NPUKB_ASCEND_FIXTURE_H
#define NPUKB_ASCEND_FIXTURE_H

#include <stddef.h>

#include "cann_probe.h"

/* The temporary folder of the running test ("" outside one). */
extern char fx_tmp[64];

void fx_make_tmp(void);
void fx_remove_tmp(void);

/* fx_tmp/<rel>; the result lives until the fourth call after this one. */
const char *fx_at(const char *rel);

/* Creates fx_tmp/<rel> with its parent folders. */
void fx_put_file(const char *rel, const char *content, int executable);

/* The file's content (malloc'd), or NULL. */
char *fx_slurp(const char *path);

/* Runs a shell command; its exit status, or -1. */
int fx_shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* $NPUKB_SRCDIR (or ".") joined with rel. */
const char *fx_src(const char *rel);

/* A fake toolkit at fx_tmp/cann: the fake compiler as
 * compiler/ccec_compiler/bin/ccec (CANN 8.0.x) or bin/bisheng (8.5+), the
 * fake ACL headers as include/, and lib64/ (8.5+) or runtime/lib64/ (8.0.x)
 * with libascendcl.so built from fake_acl.c and empty libruntime.so and
 * libnnopbase.so; python/site-packages/bin/msopgen (fake-msopgen) and a
 * fake cmake first on PATH. Sets ASCEND_HOME_PATH, ASCEND_FAKE_DIR and
 * ASCEND_FAKE_LOG (fx_tmp/cann-calls.log), and fills info as the probe sees
 * the tree. */
void fx_fake_cann(int bisheng, struct npukb_cann_info *info);

/* text with every occurrence of what replaced by with (malloc'd). */
char *fx_replace(const char *text, const char *what, const char *with);

/* A command as one golden line: "# <what>" then the argv, joined by
 * spaces, with the toolkit root shown as @ROOT@; appended to *acc. */
void fx_add_cmd(char **acc, const struct npukb_cann_cmd *c, const char *root);

/* Writes n bytes to fx_tmp/<rel>. */
void fx_write_bin(const char *rel, const void *buf, size_t n);

/* The fake tools' calls (ASCEND_FAKE_LOG) with the toolkit root shown as
 * @ROOT@ and fx_tmp/work as @WORK@ (malloc'd). */
char *fx_masked_calls(const struct npukb_cann_info *info);

/* Compares actual with tests/data/ascend/<name>, whose leading lines
 * starting with "#|" are notes (which public sample it follows) and not
 * compared. NPUKB_UPDATE_GOLDEN=1 rewrites the file instead (notes kept);
 * review the diff before committing it. */
void fx_assert_golden(const char *name, const char *actual);

#endif
