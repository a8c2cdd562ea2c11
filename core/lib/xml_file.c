/* xml_file.c - atomic XML files through libxml2's writer. */
#include "xml_file.h"

#include "text.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int npukb_xml_file_open(struct npukb_xml_file *f, const char *path, char *err, size_t errlen)
{
	xmlOutputBufferPtr out;
	int rc;

	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path || asprintf(&f->tmp, "%s.tmp", path) < 0) {
		free(f->path);
		memset(f, 0, sizeof(*f));
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	f->fp = fopen(f->tmp, "we");
	if (!f->fp) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot create: %s", f->tmp, strerror(-rc));
		goto fail;
	}
	out = xmlOutputBufferCreateFile(f->fp, NULL);
	f->w = out ? xmlNewTextWriter(out) : NULL;
	if (!f->w) {
		if (out)
			xmlOutputBufferClose(out);
		fclose(f->fp);
		unlink(f->tmp);
		snprintf(err, errlen, "%s: out of memory", path);
		rc = -ENOMEM;
		goto fail;
	}
	xmlTextWriterSetIndent(f->w, 1);
	return 0;
fail:
	free(f->tmp);
	free(f->path);
	memset(f, 0, sizeof(*f));
	return rc;
}

int npukb_xml_file_close(struct npukb_xml_file *f, int ok, const char *what,
			 char *err, size_t errlen)
{
	int rc = ok ? 0 : -EIO;
	/* The writer's last buffer reaches the FILE only now, and a failed
	 * fwrite there (a full disk) is seen by no return value but the
	 * FILE's error flag: without it a cut file would replace a whole one. */
	errno = 0;
	if (xmlTextWriterFlush(f->w) < 0 && rc == 0)
		rc = errno ? -errno : -EIO;
	xmlFreeTextWriter(f->w); /* the FILE stays ours to close */
	if (fflush(f->fp) != 0 && rc == 0)
		rc = errno ? -errno : -EIO;
	if (ferror(f->fp) && rc == 0)
		rc = errno ? -errno : -EIO;
	if (fclose(f->fp) != 0 && rc == 0)
		rc = errno ? -errno : -EIO;
	if (rc == 0 && rename(f->tmp, f->path) != 0)
		rc = -errno;
	if (rc) {
		/* the old file, if any, stays as it was */
		snprintf(err, errlen, "%s: cannot write %s: %s", f->path, what, strerror(-rc));
		unlink(f->tmp);
	}
	free(f->tmp);
	free(f->path);
	memset(f, 0, sizeof(*f));
	return rc;
}

int npukb_xml_attr(xmlTextWriterPtr w, const char *name, const char *value)
{
	char *clean;
	int rc;
	if (!value)
		return 0;
	clean = npukb_text_clean(value);
	rc = clean ? xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST clean) : -1;
	free(clean);
	return rc < 0 ? -1 : 0;
}

int npukb_xml_text(xmlTextWriterPtr w, const char *text, size_t max)
{
	static const char marker[] = "\n[... truncated]\n";
	char *clean;
	size_t n;
	int rc;
	if (!text || !*text)
		return 0;
	clean = npukb_text_clean(text);
	if (!clean)
		return -1;
	n = strlen(clean);
	if (n > max) {
		size_t cut = max > 20 ? max - 20 : 0;
		/* Cut between characters: clean is UTF-8 and must stay so. */
		while (cut > 0 && ((unsigned char)clean[cut] & 0xC0) == 0x80)
			cut--;
		if (n - cut >= sizeof(marker) - 1)
			strcpy(clean + cut, marker);
	}
	rc = xmlTextWriterWriteString(w, BAD_CAST clean);
	free(clean);
	return rc < 0 ? -1 : 0;
}
