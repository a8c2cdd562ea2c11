/* metrics_xml.h - a run's metrics (metrics.h) as a <metrics> element for
 * results.xml, so the HTML report shows exactly the figures `npukb report
 * --json` gives for the same journal (private).
 *
 * Numbers are written as the JSON writes them (6 significant digits, C
 * locale); a figure that is not available has available="false" and its
 * reason (e.g. "n<k") instead of a value. */
#ifndef NPUKB_METRICS_XML_H
#define NPUKB_METRICS_XML_H

#include <stddef.h>
#include <libxml/xmlwriter.h>

#include "metrics.h"

/* Write <metrics> for m at the writer's current position. 0 or -EIO. */
int npukb_metrics_xml_write(xmlTextWriterPtr w, const struct npukb_run_metrics *m);

/* Read the journal at path, compute its first run's metrics into out
 * (to be freed with npukb_run_metrics_free). 0 or a negative errno, err
 * filled; -ENOENT with err filled when the journal holds no run. */
int npukb_metrics_from_journal(const char *path, struct npukb_run_metrics *out, char *err,
			       size_t errlen);

#endif
