/* report_source.h - a sample's source files into the results document the
 * run report is rendered from (private; see report_source.c).
 *
 * <sample dir="/abs"> gains <source [truncated="true"]> with one
 * <file path="rel" bytes="N" [binary|truncated="true"]> per regular file
 * under the folder, each with <line n="1">text</line> children. */
#ifndef NPUKB_REPORT_SOURCE_H
#define NPUKB_REPORT_SOURCE_H

#include <libxml/tree.h>

#define NPUKB_SOURCE_FILES_MAX 32          /* files listed per sample */
#define NPUKB_SOURCE_FILE_MAX (64 * 1024)  /* bytes shown per file */
#define NPUKB_SOURCE_BYTES_MAX (256 * 1024) /* bytes shown per sample */
#define NPUKB_SOURCE_DEPTH_MAX 3           /* folder levels below the sample's */
#define NPUKB_SOURCE_ENTRIES_MAX 4096      /* entries read per folder */

/* Attach the files under dir (absolute; anything else: nothing) to
 * sample. 0 or -ENOMEM; unreadable files are left out. */
int npukb_report_source_attach(xmlNodePtr sample, const char *dir);
/* The same for every failing model sample (answer != "true", its compile
 * or a case failed) of a results.xml document that names its folder. */
int npukb_report_sources_attach(xmlDocPtr doc);

#endif
