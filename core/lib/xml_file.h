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

#endif
