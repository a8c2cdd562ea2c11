/* manifest_xml.c - the manifest loader's XML layer: problems collected as
 * "file:line: what is wrong" (libxml2's own reports routed in through this
 * thread's handlers, so the library never prints), reading a manifest
 * (no network, DTDs refused), validating it against the RELAX NG schema,
 * and reading elements, attributes and numbers out of the document
 * (manifest_private.h). */
#include "manifest_private.h"

#include <npukb/util.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/globals.h>
#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#if LIBXML_VERSION >= 21200
#define NPUKB_XML_ERROR const xmlError
#else
#define NPUKB_XML_ERROR xmlError
#endif

/* Manifests are a few KiB; anything far larger is a mistake. */
#define MANIFEST_MAX_BYTES (8u << 20)
/* Problems kept before sorting; only the first MAX_ERRORS are shown. */
#define DIAG_KEEP 256

static const int xml_options = XML_PARSE_NONET | XML_PARSE_BIG_LINES;

/* ---- collecting problems ------------------------------------------------ */

static void diag_vadd(struct diag *d, const char *file, long line, const char *fmt,
		      va_list ap) __attribute__((format(printf, 4, 0)));

static void diag_vadd(struct diag *d, const char *file, long line, const char *fmt,
		      va_list ap)
{
	char what[1024];
	char *text;
	int len;

	vsnprintf(what, sizeof(what), fmt, ap);
	if (line > 0)
		len = snprintf(NULL, 0, "%s:%ld: %s", file, line, what);
	else
		len = snprintf(NULL, 0, "%s: %s", file, what);
	if (len < 0)
		return;
	text = malloc((size_t)len + 1);
	if (!text) {
		d->oom = 1;
		return;
	}
	if (line > 0)
		snprintf(text, (size_t)len + 1, "%s:%ld: %s", file, line, what);
	else
		snprintf(text, (size_t)len + 1, "%s: %s", file, what);
	/* libxml2's RELAX NG validator tends to say the same thing twice. */
	for (size_t i = 0; i < d->n; i++) {
		if (strcmp(d->v[i].text, text) == 0) {
			free(text);
			return;
		}
	}
	if (d->n == DIAG_KEEP) {
		d->dropped++;
		free(text);
		return;
	}
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 16;
		struct diag_entry *v = realloc(d->v, cap * sizeof(*v));

		if (!v) {
			d->oom = 1;
			free(text);
			return;
		}
		d->v = v;
		d->cap = cap;
	}
	d->v[d->n].line = line;
	d->v[d->n].text = text;
	d->n++;
}

__attribute__((format(printf, 4, 5)))
void diag_add(struct diag *d, const char *file, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, file, line, fmt, ap);
	va_end(ap);
}

void diag_free(struct diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].text);
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}

/* Writes the problems, in line order, into err. */
void diag_render(struct diag *d, char *err, size_t errlen)
{
	size_t used = 0, shown = 0;

	if (!err || errlen == 0)
		return;
	err[0] = '\0';
	/* Stable insertion sort: a manifest has a handful of problems. */
	for (size_t i = 1; i < d->n; i++) {
		struct diag_entry e = d->v[i];
		size_t j = i;

		while (j > 0 && d->v[j - 1].line > e.line) {
			d->v[j] = d->v[j - 1];
			j--;
		}
		d->v[j] = e;
	}
	for (size_t i = 0; i < d->n && shown < NPUKB_MANIFEST_MAX_ERRORS; i++, shown++) {
		int w = snprintf(err + used, errlen - used, "%s%s", i ? "\n" : "",
				 d->v[i].text);

		if (w < 0 || (size_t)w >= errlen - used)
			return;
		used += (size_t)w;
	}
	if (d->n + d->dropped > shown)
		snprintf(err + used, errlen - used, "%s%s: %zu more problems not shown",
			 used ? "\n" : "", d->path, d->n + d->dropped - shown);
}

static void on_xml_error(void *ctx, NPUKB_XML_ERROR *e)
{
	struct diag *d = ctx;
	const char *kind, *file;
	char msg[768];
	size_t len;
	long line;

	if (!d || !e || e->level == XML_ERR_WARNING)
		return;
	switch (e->domain) {
	case XML_FROM_RELAXNGV:
		kind = "schema violation";
		break;
	case XML_FROM_RELAXNGP:
		kind = "bad schema";
		break;
	case XML_FROM_IO:
		kind = "cannot read";
		break;
	default:
		kind = "malformed XML";
		break;
	}
	file = e->file ? e->file : d->path;
	line = e->line;
	/* Validity errors point at an element; its line is the exact one
	 * (e->line is capped at 65535 in older libxml2). */
	if (e->node && ((xmlNodePtr)e->node)->type == XML_ELEMENT_NODE)
		line = xmlGetLineNo((xmlNodePtr)e->node);
	snprintf(msg, sizeof(msg), "%s", e->message ? e->message : "(no message)");
	len = strlen(msg);
	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		msg[--len] = '\0';
	diag_add(d, file, line, "%s: %s", kind, msg);
}

__attribute__((format(printf, 2, 3)))
static void on_generic_error(void *ctx, const char *fmt, ...)
{
	struct diag *d = ctx;
	size_t used;
	va_list ap;

	if (!d)
		return;
	used = strlen(d->generic);
	if (used + 1 >= sizeof(d->generic))
		return;
	va_start(ap, fmt);
	vsnprintf(d->generic + used, sizeof(d->generic) - used, fmt, ap);
	va_end(ap);
}

void handlers_push(struct xml_handlers *saved, struct diag *d)
{
	saved->serror = xmlStructuredError;
	saved->sctx = xmlStructuredErrorContext;
	saved->gerror = xmlGenericError;
	saved->gctx = xmlGenericErrorContext;
	xmlSetStructuredErrorFunc(d, on_xml_error);
	xmlSetGenericErrorFunc(d, on_generic_error);
}

void handlers_pop(const struct xml_handlers *saved)
{
	xmlSetStructuredErrorFunc(saved->sctx, saved->serror);
	xmlSetGenericErrorFunc(saved->gctx, saved->gerror);
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_once_fn(void)
{
	xmlInitParser();
}

void manifest_xml_init(void)
{
	pthread_once(&init_once, init_once_fn);
}

/* ---- reading XML -------------------------------------------------------- */

struct doctype_probe {
	int seen;
	long line;
};

/* SAX hook called for any <!DOCTYPE ...>: manifests have no use for DTDs,
 * and refusing them before their declarations are read rules out entity
 * tricks altogether. */
static void on_internal_subset(void *ctx, const xmlChar *name, const xmlChar *eid,
			       const xmlChar *sid)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct doctype_probe *probe = ctxt->_private;

	(void)name;
	(void)eid;
	(void)sid;
	if (probe && !probe->seen) {
		probe->seen = 1;
		probe->line = ctxt->input ? ctxt->input->line : 0;
	}
	xmlStopParser(ctxt);
}

/* Reads path into memory and parses it: reading the bytes ourselves keeps
 * libxml2 from treating the path as a URI, and gives a real errno. */
int read_xml(const char *path, struct diag *d, xmlDocPtr *out)
{
	struct doctype_probe probe = { 0, 0 };
	xmlParserCtxtPtr ctxt = NULL;
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	int fd, rc = 0;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		diag_add(d, path, 0, "cannot open: %s", strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		diag_add(d, path, 0, "cannot stat: %s", strerror(-rc));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = -EINVAL;
		diag_add(d, path, 0, "not a regular file");
		goto out;
	}
	if ((uintmax_t)st.st_size > MANIFEST_MAX_BYTES) {
		rc = -EFBIG;
		diag_add(d, path, 0, "file too large (%jd bytes, at most %u)",
			 (intmax_t)st.st_size, MANIFEST_MAX_BYTES);
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		rc = -ENOMEM;
		goto out;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			diag_add(d, path, 0, "cannot read: %s", strerror(-rc));
			goto out;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	ctxt = xmlNewParserCtxt();
	if (!ctxt || !ctxt->sax) {
		rc = -ENOMEM;
		goto out;
	}
	ctxt->_private = &probe;
	ctxt->sax->internalSubset = on_internal_subset;
	/* Without XML_PARSE_NOENT / DTDLOAD no entity is fetched or
	 * expanded; with the hook above there are none to begin with. */
	*out = xmlCtxtReadMemory(ctxt, buf, (int)got, path, NULL, xml_options);
	if (probe.seen) {
		xmlFreeDoc(*out);
		*out = NULL;
		diag_add(d, path, probe.line,
			 "DOCTYPE declarations are not allowed in task manifests");
		rc = -EINVAL;
	} else if (!*out) {
		rc = -EINVAL;
		if (d->n == 0)
			diag_add(d, path, 0, "malformed XML: %s",
				 d->generic[0] ? d->generic : "cannot parse");
	}
out:
	if (ctxt)
		xmlFreeParserCtxt(ctxt);
	free(buf);
	close(fd);
	return rc;
}

int compile_schema(const char *schema_path, struct diag *d, xmlRelaxNGPtr *out)
{
	xmlRelaxNGParserCtxtPtr pctxt;
	xmlDocPtr sdoc;
	int rc;

	*out = NULL;
	rc = read_xml(schema_path, d, &sdoc);
	if (rc < 0)
		return rc;
	/* The parser context copies the document. */
	pctxt = xmlRelaxNGNewDocParserCtxt(sdoc);
	xmlFreeDoc(sdoc);
	if (!pctxt)
		return -ENOMEM;
	xmlRelaxNGSetParserStructuredErrors(pctxt, on_xml_error, d);
	*out = xmlRelaxNGParse(pctxt);
	xmlRelaxNGFreeParserCtxt(pctxt);
	if (!*out) {
		if (d->n == 0)
			diag_add(d, schema_path, 0, "bad schema: %s",
				 d->generic[0] ? d->generic : "cannot compile");
		return -EINVAL;
	}
	return 0;
}

int validate(xmlDocPtr doc, xmlRelaxNGPtr schema, struct diag *d)
{
	xmlRelaxNGValidCtxtPtr vctxt = xmlRelaxNGNewValidCtxt(schema);
	int rc;

	if (!vctxt)
		return -ENOMEM;
	xmlRelaxNGSetValidStructuredErrors(vctxt, on_xml_error, d);
	rc = xmlRelaxNGValidateDoc(vctxt, doc);
	xmlRelaxNGFreeValidCtxt(vctxt);
	if (rc == 0)
		return 0;
	if (d->n == 0)
		diag_add(d, d->path, 0, "schema violation: %s",
			 d->generic[0] ? d->generic : "document does not validate");
	return -EINVAL;
}

/* ---- reading the document's parts ---------------------------------------- */

__attribute__((format(printf, 3, 4)))
void fail(struct loader *L, xmlNodePtr at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(L->d, L->path, at ? xmlGetLineNo(at) : 0, fmt, ap);
	va_end(ap);
}

long line_of(xmlNodePtr n)
{
	return n ? xmlGetLineNo(n) : 0;
}

int is_elem(xmlNodePtr n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && n->ns && n->ns->href &&
	       strcmp((const char *)n->ns->href, NPUKB_MANIFEST_NS) == 0 &&
	       strcmp((const char *)n->name, name) == 0;
}

xmlNodePtr next_elem(xmlNodePtr n, const char *name)
{
	for (; n; n = n->next)
		if (is_elem(n, name))
			return n;
	return NULL;
}

xmlNodePtr first_child(xmlNodePtr parent, const char *name)
{
	return parent ? next_elem(parent->children, name) : NULL;
}

size_t count_children(xmlNodePtr parent, const char *name)
{
	size_t k = 0;
	xmlNodePtr n;

	FOR_EACH_CHILD(n, parent, name)
		k++;
	return k;
}

int is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* A malloc'd copy of s with surrounding white space removed and, when
 * collapse is set, inner runs of white space turned into one space. */
char *dup_trimmed(struct loader *L, const char *s, int collapse)
{
	size_t len;
	char *out, *w;

	while (is_space(*s))
		s++;
	len = strlen(s);
	while (len > 0 && is_space(s[len - 1]))
		len--;
	out = malloc(len + 1);
	if (!out) {
		L->oom = 1;
		return NULL;
	}
	w = out;
	for (size_t i = 0; i < len; i++) {
		if (collapse && is_space(s[i])) {
			if (!is_space(s[i - 1]))
				*w++ = ' ';
			continue;
		}
		*w++ = s[i];
	}
	*w = '\0';
	return out;
}

/* The attribute's value, trimmed (the schema's token types ignore
 * surrounding white space, so must we); NULL when absent. */
char *get_attr(struct loader *L, xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)name);
	char *out;

	if (!v)
		return NULL;
	out = dup_trimmed(L, (const char *)v, 0);
	xmlFree(v);
	return out;
}

/* Like get_attr, for attributes the schema requires. */
char *need_attr(struct loader *L, xmlNodePtr n, const char *name)
{
	char *v = get_attr(L, n, name);

	if (!v && !L->oom)
		fail(L, n, "<%s> has no attribute '%s'", (const char *)n->name, name);
	return v;
}

char *get_text(struct loader *L, xmlNodePtr n, int collapse)
{
	xmlChar *v = xmlNodeGetContent(n);
	char *out;

	if (!v) {
		out = strdup("");
		if (!out)
			L->oom = 1;
		return out;
	}
	out = dup_trimmed(L, (const char *)v, collapse);
	xmlFree(v);
	return out;
}

char *dup_str(struct loader *L, const char *s)
{
	char *out = strdup(s);

	if (!out)
		L->oom = 1;
	return out;
}

void *alloc_array(struct loader *L, size_t n, size_t size)
{
	void *p;

	if (n == 0)
		return NULL;
	p = calloc(n, size);
	if (!p)
		L->oom = 1;
	return p;
}

int parse_ll(const char *s, long long *out)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*out = strtoll(s, &end, 10);
	return (errno == ERANGE || *end != '\0') ? -1 : 0;
}

int parse_double(const char *s, double *out)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	/* Numbers in manifests are written the C way whatever the process
	 * locale. */
	*out = npukb_strtod(s, &end);
	return (errno == ERANGE || *end != '\0') ? -1 : 0;
}
