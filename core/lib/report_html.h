/* report_html.h - render the HTML run report from results.xml with the
 * XSLT templates in reports/html/ (private). The C side only drives
 * libxslt; every word and pixel of the report is in the templates. */
#ifndef NPUKB_REPORT_HTML_H
#define NPUKB_REPORT_HTML_H

#include <stddef.h>

/* Writes <output_dir>/report/index.html, one page per (task, sample) and
 * a copy of style.css beside them, from results_xml with
 * <reports_dir>/html/run.xsl. The stylesheet may write files only inside
 * <output_dir>/report/ and may not touch the network. 0 or a negative
 * errno value with err filled (libxslt's own messages included). */
int npukb_report_html_render(const char *results_xml, const char *reports_dir,
			     const char *output_dir, char *err, size_t errlen);

/* The same for any page: <page_dir>/index.html (and whatever the template
 * writes inside page_dir) from xml with <reports_dir>/html/<template_name>,
 * plus style.css; used by the leaderboard. */
int npukb_report_html_render_page(const char *xml, const char *reports_dir,
				  const char *template_name, const char *page_dir, char *err,
				  size_t errlen);

#endif
