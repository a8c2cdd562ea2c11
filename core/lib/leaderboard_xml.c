/* leaderboard_xml.c - leaderboard.xml: one <entry> per run with its
 * <metrics>, through the same writer as results.xml so page and JSON
 * report share their number format. */
#include "config.h"
#include "leaderboard_xml.h"
#include "xml_file.h"

#include "metrics_xml.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libxml/xmlwriter.h>

static int write_doc(xmlTextWriterPtr w, const struct npukb_lb_entry *e, size_t n,
		     size_t ntasks)
{
	char buf[32];
	size_t i, j;
	if (xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0 ||
	    xmlTextWriterStartElement(w, BAD_CAST "leaderboard") < 0 || npukb_xml_attr(w, "format", "1") ||
	    npukb_xml_attr(w, "version", PACKAGE_VERSION))
		return -1;
	snprintf(buf, sizeof(buf), "%zu", ntasks);
	if (npukb_xml_attr(w, "tasks", buf))
		return -1;
	for (i = 0; i < n; i++) {
		const struct npukb_run_metrics *m = e[i].metrics;
		if (xmlTextWriterStartElement(w, BAD_CAST "entry") < 0 ||
		    npukb_xml_attr(w, "run", m->run_id) || npukb_xml_attr(w, "label", m->label) ||
		    /* what a page shows for the run: its label, else its id */
		    npukb_xml_attr(w, "name", m->label ? m->label : m->run_id) ||
		    npukb_xml_attr(w, "backend", m->backend) ||
		    npukb_xml_attr(w, "soc", m->soc) || npukb_xml_attr(w, "started", m->started) ||
		    npukb_xml_attr(w, "report", e[i].report_href) ||
		    npukb_xml_attr(w, "complete", e[i].incomplete ? "no" : NULL))
			return -1;
		for (j = 0; j < m->nsources; j++)
			if (xmlTextWriterWriteElement(w, BAD_CAST "journal", BAD_CAST m->sources[j]) < 0)
				return -1;
		if (npukb_metrics_xml_write(w, m) || xmlTextWriterEndElement(w) < 0)
			return -1;
	}
	if (xmlTextWriterEndElement(w) < 0 || xmlTextWriterEndDocument(w) < 0)
		return -1;
	return 0;
}

int npukb_leaderboard_xml_write(const struct npukb_lb_entry *entries, size_t n,
				size_t ntasks_universe, const char *path, char *err,
				size_t errlen)
{
	struct npukb_xml_file f;
	int rc = npukb_xml_file_open(&f, path, err, errlen);
	if (rc)
		return rc;
	rc = write_doc(f.w, entries, n, ntasks_universe);
	return npukb_xml_file_close(&f, rc == 0, "the leaderboard data", err, errlen);
}
