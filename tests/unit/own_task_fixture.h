/* own_task_fixture.h - tasks of your own for the tests: a manifest written
 * into a fresh temporary folder (y = f(x), float32, one case), with the
 * test plugins or .npy files the test puts beside it. */
#ifndef NPUKB_OWN_TASK_FIXTURE_H
#define NPUKB_OWN_TASK_FIXTURE_H

#include <stddef.h>
#include <npukb/task.h>

/* A new empty folder (removed by own_task_cleanup). */
void own_task_mkdir(char *dir, size_t len);
void own_task_cleanup(const char *dir);
/* dir/rel with text, parents made. */
void own_task_write(const char *dir, const char *rel, const char *text);
/* Copies the test plugin NAME.so (tests/refplugins, else tests/plugins)
 * into dir. */
void own_task_copy_plugin(const char *dir, const char *name);
/* dir/task.xml: input x "4 8" float32 uniform(-1,1), output y; reference is
 * the <reference .../> element or "" for none; case_extra goes inside the
 * case element (golden files). */
void own_task_manifest(const char *dir, const char *reference, const char *case_extra);
/* Loads dir/task.xml against the source tree's schema. */
int own_task_load(const char *dir, struct npukb_task **t, char *err, size_t errlen);

#endif
