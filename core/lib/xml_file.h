/* xml_file.h - write an XML file through libxml2's writer, atomically.
 *
 * The document goes to <path>.tmp on a FILE we open ourselves (libxml2
 * would print its own I/O errors) and is renamed over <path> only when
 * complete, so a reader never sees half a report (private). */
#ifndef NPUKB_XML_FILE_H
#define NPUKB_XML_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <libxml/xmlwriter.h>

struct npukb_xml_file {
	char *path;
	char *tmp;
	FILE *fp;
	xmlTextWriterPtr w; /* indenting writer, valid after open */
};

int npukb_xml_file_open(struct npukb_xml_file *f, const char *path, char *err, size_t errlen);
/* Finish: ok != 0 keeps the document (renamed over path), else it is
 * removed. Returns 0, or -EIO with "<path>: cannot write <what>". */
int npukb_xml_file_close(struct npukb_xml_file *f, int ok, const char *what,
			 char *err, size_t errlen);

/* What every writer of ours writes strings with: value cleaned to valid
 * XML text (npukb_text_clean) and escaped by libxml2. Nothing is written
 * for a NULL value. 0, or -1 when the writer failed. */
int npukb_xml_attr(xmlTextWriterPtr w, const char *name, const char *value);
/* Text content, cleaned and escaped the same way, cut at max bytes with a
 * "[... truncated]" line (compiler output can be megabytes); nothing for
 * NULL or "". 0, or -1. */
int npukb_xml_text(xmlTextWriterPtr w, const char *text, size_t max);

#endif
