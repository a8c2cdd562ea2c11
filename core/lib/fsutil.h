/* fsutil.h - small file-system helpers the core shares (private). */
#ifndef NPUKB_FSUTIL_H
#define NPUKB_FSUTIL_H

#include <stddef.h>

/* Remove a tree without following symlinks out of it; 0 or negative errno. */
int npukb_rm_rf(const char *path);
/* Read at most max bytes of a file into a NUL-terminated malloc'd string;
 * when the file is longer, the text ends with a "[... truncated]" marker. */
int npukb_read_text(const char *path, size_t max, char **out);
int npukb_write_file(const char *path, const void *data, size_t len);
/* All len bytes to fd, again after a signal or a short write: 0 or a
 * negative errno. */
int npukb_write_full(int fd, const void *data, size_t len);
/* Absolute, malloc'd version of path (realpath when it exists). */
char *npukb_abspath(const char *path);
int npukb_is_dir(const char *path);
/* 0 when path is a folder; else a negative errno with err saying which of
 * "not found", "a symbolic link loop", "not a folder" it is, with what
 * ("sample folder") and the path. */
int npukb_check_dir(const char *path, const char *what, char *err, size_t errlen);
int npukb_is_file(const char *path);

/* Sorted names of the non-hidden subfolders of dir (malloc'd array of
 * malloc'd names; free with npukb_free_names). */
int npukb_list_subdirs(const char *dir, char ***names, size_t *n);
void npukb_free_names(char **names, size_t n);

#endif
