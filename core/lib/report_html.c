/* report_html.c - results.xml --libxslt--> report/ (index + sample pages).
 *
 * libxslt over libxml2: the results are already XML written by libxml2,
 * XSLT 1.0 keeps all presentation in reports/, and EXSLT's exsl:document
 * (built into libxslt) writes the per-sample pages in the same pass. */
#include "report_html.h"

#include "fsutil.h"
#include "report_source.h"

#include <npukb/util.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libxml/parser.h>
#include <libxml/uri.h>
#include <libxslt/security.h>
#include <libxslt/transform.h>
#include <libxslt/xslt.h>
#include <libxslt/xsltInternals.h>
#include <libxslt/xsltutils.h>
#include <libexslt/exslt.h>

/* libxml2 and libxslt report errors through process-wide callbacks: the
 * messages are collected here instead of going to stderr. */
struct msgbuf {
	char text[2048];
	size_t len;
};

static void collect(void *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void collect(void *ctx, const char *fmt, ...)
{
	struct msgbuf *m = ctx;
	va_list ap;
	int n;
	if (m->len + 1 >= sizeof(m->text))
		return;
	va_start(ap, fmt);
	n = vsnprintf(m->text + m->len, sizeof(m->text) - m->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->len += (size_t)n < sizeof(m->text) - m->len ? (size_t)n
							      : sizeof(m->text) - m->len - 1;
}

/* The folder writes are confined to, as an absolute path ending in '/'. */
static char confine_dir[PATH_MAX + 2];

static int inside_report(const char *value)
{
	char *path = NULL;
	int ok;
	if (!value)
		return 0;
	if (strncmp(value, "file://", 7) == 0) {
		path = xmlURIUnescapeString(value + 7, 0, NULL);
		if (!path)
			return 0;
		value = path;
	}
	ok = strstr(value, "/../") == NULL &&
	     strncmp(value, confine_dir, strlen(confine_dir)) == 0;
	xmlFree(path);
	return ok;
}

static int allow_write(xsltSecurityPrefsPtr sec, xsltTransformContextPtr ctxt,
		       const char *value)
{
	(void)sec;
	(void)ctxt;
	return inside_report(value);
}

static int deny(xsltSecurityPrefsPtr sec, xsltTransformContextPtr ctxt, const char *value)
{
	(void)sec;
	(void)ctxt;
	(void)value;
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	char buf[8192];
	size_t n;
	int rc = 0;
	FILE *in = fopen(from, "re"), *out;
	if (!in)
		return -errno;
	out = fopen(to, "we");
	if (!out) {
		rc = -errno;
		fclose(in);
		return rc;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n) {
			rc = -EIO;
			break;
		}
	if (ferror(in))
		rc = -EIO;
	fclose(in);
	if (fclose(out) != 0 && rc == 0)
		rc = -EIO;
	return rc;
}

int npukb_report_html_render(const char *results_xml, const char *reports_dir,
			     const char *output_dir, char *err, size_t errlen)
{
	char *dir;
	int rc;
	if (asprintf(&dir, "%s/report", output_dir) < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = npukb_report_html_render_page(results_xml, reports_dir, "run.xsl", dir, err, errlen);
	free(dir);
	return rc;
}

int npukb_report_html_render_page(const char *xml, const char *reports_dir,
				  const char *template_name, const char *page_dir, char *err,
				  size_t errlen)
{
	const char *results_xml = xml;
	struct msgbuf msgs = { "", 0 };
	char *xsl = NULL, *css = NULL, *dir = NULL, *index = NULL, *css_out = NULL;
	char absdir[PATH_MAX];
	xsltStylesheetPtr style = NULL;
	xmlDocPtr doc = NULL, res = NULL;
	xsltTransformContextPtr ctxt = NULL;
	xsltSecurityPrefsPtr sec = NULL;
	int rc = 0;

	if (asprintf(&xsl, "%s/html/%s", reports_dir, template_name) < 0 ||
	    asprintf(&css, "%s/html/style.css", reports_dir) < 0 ||
	    asprintf(&dir, "%s", page_dir) < 0 ||
	    asprintf(&index, "%s/index.html", page_dir) < 0 ||
	    asprintf(&css_out, "%s/style.css", page_dir) < 0) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if ((rc = npukb_mkdir_p(dir, 0755)) != 0 || !realpath(dir, absdir)) {
		rc = rc ? rc : -errno;
		snprintf(err, errlen, "%s: cannot create the report folder: %s", dir,
			 strerror(-rc));
		goto out;
	}
	snprintf(confine_dir, sizeof(confine_dir), "%s/", absdir);

	xmlSetGenericErrorFunc(&msgs, collect);
	xsltSetGenericErrorFunc(&msgs, collect);
	exsltCommonRegister(); /* exsl:document for the sample pages */
	style = xsltParseStylesheetFile(BAD_CAST xsl);
	if (!style) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s: cannot load the report template: %s", xsl,
			 msgs.len ? msgs.text : "unknown error");
		goto out;
	}
	doc = xmlReadFile(results_xml, NULL, XML_PARSE_NONET);
	if (!doc) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s: cannot read: %s", results_xml, msgs.text);
		goto out;
	}
	/* the sample pages show the model samples' source (results.xml names
	 * their folders; a run report only: other documents have no samples) */
	if ((rc = npukb_report_sources_attach(doc)) != 0) {
		snprintf(err, errlen, "%s: cannot read the samples' source: %s", results_xml,
			 strerror(-rc));
		goto out;
	}
	sec = xsltNewSecurityPrefs();
	ctxt = sec ? xsltNewTransformContext(style, doc) : NULL;
	if (!ctxt) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (xsltSetSecurityPrefs(sec, XSLT_SECPREF_WRITE_FILE, allow_write) ||
	    xsltSetSecurityPrefs(sec, XSLT_SECPREF_CREATE_DIRECTORY, allow_write) ||
	    xsltSetSecurityPrefs(sec, XSLT_SECPREF_READ_NETWORK, deny) ||
	    xsltSetSecurityPrefs(sec, XSLT_SECPREF_WRITE_NETWORK, deny) ||
	    xsltSetCtxtSecurityPrefs(sec, ctxt)) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	/* exsl:document resolves its relative hrefs against this name */
	{
		char absindex[PATH_MAX + 16];
		snprintf(absindex, sizeof(absindex), "%s/index.html", absdir);
		res = xsltApplyStylesheetUser(style, doc, NULL, absindex, NULL, ctxt);
	}
	if (!res || ctxt->state != XSLT_STATE_OK) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s: rendering the report failed: %s", xsl,
			 msgs.len ? msgs.text : "unknown error");
		goto out;
	}
	if (xsltSaveResultToFilename(index, res, style, 0) < 0) {
		rc = -EIO;
		snprintf(err, errlen, "%s: cannot write", index);
		goto out;
	}
	if ((rc = copy_file(css, css_out)) != 0)
		snprintf(err, errlen, "%s: cannot copy to %s: %s", css, css_out, strerror(-rc));
out:
	xmlSetGenericErrorFunc(NULL, NULL);
	xsltSetGenericErrorFunc(NULL, NULL);
	if (ctxt)
		xsltFreeTransformContext(ctxt);
	if (sec)
		xsltFreeSecurityPrefs(sec);
	xmlFreeDoc(res);
	xmlFreeDoc(doc);
	if (style)
		xsltFreeStylesheet(style);
	free(xsl);
	free(css);
	free(dir);
	free(index);
	free(css_out);
	return rc;
}
