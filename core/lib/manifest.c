/* manifest.c - task manifests: read, validate, check, build.
 *
 * Three layers of checking, each reporting "file:line: what is wrong":
 *   1. well-formedness (libxml2's parser; no network, DTDs are refused),
 *   2. structure and lexical form (the RELAX NG schema, levels/schema/task.rng),
 *   3. meaning: names that must refer to each other, uniqueness, dtype names,
 *      shapes, and every tiling expression evaluated for every case.
 * A layer runs only when the one before passed, so that one mistake does not
 * come back as a cascade of confusing ones; within a layer as many problems
 * as possible are collected.
 *
 * libxml2 reports through handlers; while a load runs, this thread's handlers
 * point into a collector (struct diag) and are restored afterwards, so the
 * library never prints. */
#include "derive.h"
#include "manifest.h"

#include <npukb/dtype.h>
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

struct diag_entry {
	long line;
	char *text;
};

struct diag {
	struct diag_entry *v;
	size_t n, cap;
	size_t dropped;
	int oom;
	const char *path;  /* file to name when libxml2 names none */
	char generic[512]; /* libxml2's unstructured messages (last resort) */
};

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
static void diag_add(struct diag *d, const char *file, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, file, line, fmt, ap);
	va_end(ap);
}

static void diag_free(struct diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].text);
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}

/* Writes the problems, in line order, into err. */
static void diag_render(struct diag *d, char *err, size_t errlen)
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

/* Routes this thread's libxml2 reports into d while it lives. */
struct xml_handlers {
	xmlStructuredErrorFunc serror;
	void *sctx;
	xmlGenericErrorFunc gerror;
	void *gctx;
};

static void handlers_push(struct xml_handlers *saved, struct diag *d)
{
	saved->serror = xmlStructuredError;
	saved->sctx = xmlStructuredErrorContext;
	saved->gerror = xmlGenericError;
	saved->gctx = xmlGenericErrorContext;
	xmlSetStructuredErrorFunc(d, on_xml_error);
	xmlSetGenericErrorFunc(d, on_generic_error);
}

static void handlers_pop(const struct xml_handlers *saved)
{
	xmlSetStructuredErrorFunc(saved->sctx, saved->serror);
	xmlSetGenericErrorFunc(saved->gctx, saved->gerror);
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_once_fn(void)
{
	xmlInitParser();
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
static int read_xml(const char *path, struct diag *d, xmlDocPtr *out)
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

static int compile_schema(const char *schema_path, struct diag *d, xmlRelaxNGPtr *out)
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

static int validate(xmlDocPtr doc, xmlRelaxNGPtr schema, struct diag *d)
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

/* ---- building the task -------------------------------------------------- */

struct loader {
	struct diag *d;
	const char *path; /* as the caller gave it, for messages */
	struct npukb_task *t;
	int oom;
};

__attribute__((format(printf, 3, 4)))
static void fail(struct loader *L, xmlNodePtr at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(L->d, L->path, at ? xmlGetLineNo(at) : 0, fmt, ap);
	va_end(ap);
}

static long line_of(xmlNodePtr n)
{
	return n ? xmlGetLineNo(n) : 0;
}

static int is_elem(xmlNodePtr n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && n->ns && n->ns->href &&
	       strcmp((const char *)n->ns->href, NPUKB_MANIFEST_NS) == 0 &&
	       strcmp((const char *)n->name, name) == 0;
}

static xmlNodePtr next_elem(xmlNodePtr n, const char *name)
{
	for (; n; n = n->next)
		if (is_elem(n, name))
			return n;
	return NULL;
}

static xmlNodePtr first_child(xmlNodePtr parent, const char *name)
{
	return parent ? next_elem(parent->children, name) : NULL;
}

#define FOR_EACH_CHILD(n, parent, name) \
	for ((n) = first_child((parent), (name)); (n); (n) = next_elem((n)->next, (name)))

static size_t count_children(xmlNodePtr parent, const char *name)
{
	size_t k = 0;
	xmlNodePtr n;

	FOR_EACH_CHILD(n, parent, name)
		k++;
	return k;
}

static int is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* A malloc'd copy of s with surrounding white space removed and, when
 * collapse is set, inner runs of white space turned into one space. */
static char *dup_trimmed(struct loader *L, const char *s, int collapse)
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
static char *get_attr(struct loader *L, xmlNodePtr n, const char *name)
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
static char *need_attr(struct loader *L, xmlNodePtr n, const char *name)
{
	char *v = get_attr(L, n, name);

	if (!v && !L->oom)
		fail(L, n, "<%s> has no attribute '%s'", (const char *)n->name, name);
	return v;
}

static char *get_text(struct loader *L, xmlNodePtr n, int collapse)
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

static char *dup_str(struct loader *L, const char *s)
{
	char *out = strdup(s);

	if (!out)
		L->oom = 1;
	return out;
}

static void *alloc_array(struct loader *L, size_t n, size_t size)
{
	void *p;

	if (n == 0)
		return NULL;
	p = calloc(n, size);
	if (!p)
		L->oom = 1;
	return p;
}

static int parse_ll(const char *s, long long *out)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*out = strtoll(s, &end, 10);
	return (errno == ERANGE || *end != '\0') ? -1 : 0;
}

static int parse_double(const char *s, double *out)
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

/* Names that tiling expressions or dtype references give a meaning of
 * their own as plain names; attributes may not take them. Function names
 * (dim, numel, rank, min, max, ceil_div, prod, count) are free: a name
 * followed by '(' is the function, alone it is the attribute (SwiGlu's and
 * GeGluV2's operators have an attribute called dim). */
static int is_reserved_name(const char *s)
{
	static const char *const words[] = { "blockdim", "dtype" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(s, words[i]) == 0)
			return 1;
	return 0;
}

static const struct npukb_attr_decl *find_attr_decl(const struct npukb_task *t,
						    const char *name)
{
	for (size_t i = 0; i < t->nattrs; i++)
		if (t->attrs[i].name && strcmp(t->attrs[i].name, name) == 0)
			return &t->attrs[i];
	return NULL;
}

static void build_root(struct loader *L, xmlNodePtr root)
{
	struct npukb_task *t = L->t;
	char *level = need_attr(L, root, "level");
	long long lv = 0;
	xmlNodePtr n;

	t->id = need_attr(L, root, "id");
	t->category = need_attr(L, root, "category");
	t->name = need_attr(L, root, "name");
	if (level && (parse_ll(level, &lv) < 0 || lv < 1 || lv > 9))
		fail(L, root, "level '%s' is not a number from 1 to 9", level);
	t->level = (int)lv;
	free(level);
	if (t->id && t->category && t->name && t->level > 0) {
		char want[512];

		snprintf(want, sizeof(want), "level%d/%s/%s", t->level, t->category,
			 t->name);
		if (strcmp(want, t->id) != 0)
			fail(L, root, "task id '%s' does not match level, category and name: expected '%s'",
			     t->id, want);
	}
	n = first_child(root, "summary");
	if (n)
		t->summary = get_text(L, n, 1);
	n = first_child(root, "reference");
	if (n)
		t->reference = need_attr(L, n, "function");
	n = first_child(root, "lint");
	if (n) {
		t->lint_allow = need_attr(L, n, "allow");
		t->lint_why = need_attr(L, n, "why");
	}
	n = first_child(root, "tolerance");
	t->tolerance.atol = -1.0;
	t->tolerance.rtol = -1.0;
	if (n) {
		static const char *const tol_attr[2] = { "atol", "rtol" };
		double *tol_val[2] = { &t->tolerance.atol, &t->tolerance.rtol };

		t->tolerance.rule = need_attr(L, n, "rule");
		for (int i = 0; i < 2; i++) {
			char *v = get_attr(L, n, tol_attr[i]);

			if (v && (parse_double(v, tol_val[i]) < 0 || !(*tol_val[i] >= 0)))
				fail(L, n, "tolerance %s '%s' is not a non-negative number",
				     tol_attr[i], v);
			free(v);
		}
	}
}

static void build_attrs(struct loader *L, xmlNodePtr root)
{
	struct npukb_task *t = L->t;
	xmlNodePtr list = first_child(root, "attributes"), n;
	size_t i = 0;

	t->attrs = alloc_array(L, count_children(list, "attr"), sizeof(*t->attrs));
	if (!t->attrs)
		return;
	FOR_EACH_CHILD(n, list, "attr") {
		struct npukb_attr_decl *a = &t->attrs[i];

		a->name = need_attr(L, n, "name");
		a->type = need_attr(L, n, "type");
		t->nattrs = ++i;
		if (!a->name)
			continue;
		if (is_reserved_name(a->name))
			fail(L, n, "attribute name '%s' is reserved", a->name);
		for (size_t j = 0; j + 1 < i; j++)
			if (t->attrs[j].name && strcmp(t->attrs[j].name, a->name) == 0)
				fail(L, n, "duplicate attribute '%s'", a->name);
	}
}

/* kind="attr": the tensor holds the case's value of a numeric attribute. */
static void build_attr_dist(struct loader *L, xmlNodePtr n, struct npukb_tensor_decl *td)
{
	const struct npukb_attr_decl *a;

	td->dist.kind = NPUKB_DIST_ATTR;
	td->dist.attr = need_attr(L, n, "attr");
	if (!td->dist.attr)
		return;
	a = find_attr_decl(L->t, td->dist.attr);
	if (!a)
		fail(L, n, "input '%s': distribution attr '%s' names no declared attribute",
		     td->name ? td->name : "?", td->dist.attr);
	else if (!a->type || (strcmp(a->type, "int") != 0 && strcmp(a->type, "float") != 0 &&
			       strcmp(a->type, "bool") != 0 && strcmp(a->type, "list") != 0))
		fail(L, n, "input '%s': distribution attr '%s' has type %s, not int, float, bool or list",
		     td->name ? td->name : "?", td->dist.attr, a->type ? a->type : "?");
}

/* Optional special="p": share of elements replaced by inf/NaN/zero/denormal. */
static void build_special(struct loader *L, xmlNodePtr n, struct npukb_tensor_decl *td)
{
	char *sp = get_attr(L, n, "special");

	if (sp && (parse_double(sp, &td->dist.special) < 0 ||
		   !(td->dist.special >= 0 && td->dist.special <= 1)))
		fail(L, n, "distribution: special share '%s' is not in [0, 1]", sp);
	free(sp);
}

/* Optional plant-nonfinite="attr": a bool attribute saying whether the case
 * holds non-finite values (NonFiniteCheckOp's contains_non_finite). */
static void build_plant(struct loader *L, xmlNodePtr n, struct npukb_tensor_decl *td)
{
	const struct npukb_attr_decl *a;

	td->dist.plant_nonfinite = get_attr(L, n, "plant-nonfinite");
	if (!td->dist.plant_nonfinite)
		return;
	a = find_attr_decl(L->t, td->dist.plant_nonfinite);
	if (!a)
		fail(L, n, "input '%s': plant-nonfinite '%s' names no declared attribute",
		     td->name ? td->name : "?", td->dist.plant_nonfinite);
	else if (!a->type || strcmp(a->type, "bool") != 0)
		fail(L, n, "input '%s': plant-nonfinite '%s' has type %s, not bool",
		     td->name ? td->name : "?", a->name, a->type ? a->type : "?");
}

/* kind="derived": a function of derive.h, with what it needs: the input
 * it reads (declared before this one, never absent), a count expression,
 * literal bounds a..b. */
static void build_derived_dist(struct loader *L, xmlNodePtr n, struct npukb_tensor_decl *td)
{
	const struct npukb_task *t = L->t;
	const struct npukb_derive_fn *fn;
	const char *name = td->name ? td->name : "?";
	char *a = get_attr(L, n, "a"), *b = get_attr(L, n, "b");

	td->dist.kind = NPUKB_DIST_DERIVED;
	td->dist.derive_fn = need_attr(L, n, "fn");
	td->dist.from = get_attr(L, n, "from");
	td->dist.count_expr = get_attr(L, n, "count");
	fn = npukb_derive_find(td->dist.derive_fn);
	if (!fn) {
		if (td->dist.derive_fn)
			fail(L, n, "input '%s': unknown derive function '%s'", name, td->dist.derive_fn);
		goto out;
	}
	if (fn->needs_from != (td->dist.from != NULL))
		fail(L, n, "input '%s': derive function '%s' %s", name, fn->name,
		     fn->needs_from ? "needs from=\"<input>\"" : "reads no input (no from)");
	if (fn->needs_count != (td->dist.count_expr != NULL))
		fail(L, n, "input '%s': derive function '%s' %s", name, fn->name,
		     fn->needs_count ? "needs count=\"<expression>\"" : "takes no count");
	if (fn->needs_bounds && (!a || !b || parse_double(a, &td->dist.a) < 0 ||
				 parse_double(b, &td->dist.b) < 0 || td->dist.a > td->dist.b))
		fail(L, n, "input '%s': derive function '%s' needs numbers a <= b", name, fn->name);
	if (td->dist.from) {
		/* Inputs are made in declaration order: the source comes first. */
		size_t j, self = (size_t)(td - t->tensors);
		for (j = 0; j < self; j++)
			if (t->tensors[j].name && strcmp(t->tensors[j].name, td->dist.from) == 0)
				break;
		if (j == self)
			fail(L, n, "input '%s': from '%s' names no input declared before it", name,
			     td->dist.from);
		else if (t->tensors[j].is_output && !t->tensors[j].is_inout)
			fail(L, n, "input '%s': from '%s' is an output", name, td->dist.from);
		else if (t->tensors[j].is_optional)
			fail(L, n, "input '%s': from '%s' is optional; a derived input needs its source",
			     name, td->dist.from);
	}
out:
	free(a);
	free(b);
}

static void build_dist(struct loader *L, xmlNodePtr in, struct npukb_tensor_decl *td)
{
	xmlNodePtr n = first_child(in, "distribution");
	char *kind, *a, *b;

	if (!n) {
		fail(L, in, "input '%s' has no <distribution>", td->name ? td->name : "?");
		return;
	}
	kind = need_attr(L, n, "kind");
	if (kind && strcmp(kind, "attr") == 0) {
		build_attr_dist(L, n, td);
		free(kind);
		return;
	}
	if (kind && strcmp(kind, "derived") == 0) {
		build_derived_dist(L, n, td);
		free(kind);
		return;
	}
	if (kind && strcmp(kind, "slices") == 0) {
		td->dist.kind = NPUKB_DIST_SLICES;
		td->dist.b_expr = need_attr(L, n, "b");
		free(kind);
		return;
	}
	a = need_attr(L, n, "a");
	b = get_attr(L, n, "b");
	if (!kind || !a)
		goto out;
	build_special(L, n, td);
	build_plant(L, n, td);
	if (strcmp(kind, "uniform") == 0)
		td->dist.kind = NPUKB_DIST_UNIFORM;
	else if (strcmp(kind, "normal") == 0)
		td->dist.kind = NPUKB_DIST_NORMAL;
	else if (strcmp(kind, "integer") == 0)
		td->dist.kind = NPUKB_DIST_INTEGER;
	else if (strcmp(kind, "bool") == 0)
		td->dist.kind = NPUKB_DIST_BOOL;
	else {
		fail(L, n, "unknown distribution kind '%s'", kind);
		goto out;
	}
	/* Integer bounds may be expressions over the case (an index bounded
	 * by the dimension it indexes); they are checked per case. */
	if (td->dist.kind == NPUKB_DIST_INTEGER && b &&
	    (parse_double(a, &td->dist.a) < 0 || parse_double(b, &td->dist.b) < 0)) {
		td->dist.a_expr = dup_str(L, a);
		td->dist.b_expr = dup_str(L, b);
		goto out;
	}
	if (parse_double(a, &td->dist.a) < 0 || td->dist.a != td->dist.a) {
		fail(L, n, "distribution parameter a '%s' is not a number", a);
		goto out;
	}
	if (td->dist.kind == NPUKB_DIST_BOOL) {
		if (!(td->dist.a >= 0 && td->dist.a <= 1))
			fail(L, n, "bool distribution: probability %s is not in [0, 1]", a);
		goto out;
	}
	if (!b) {
		fail(L, n, "%s distribution needs b", kind);
		goto out;
	}
	if (parse_double(b, &td->dist.b) < 0 || td->dist.b != td->dist.b) {
		fail(L, n, "distribution parameter b '%s' is not a number", b);
		goto out;
	}
	switch (td->dist.kind) {
	case NPUKB_DIST_UNIFORM:
		if (td->dist.a > td->dist.b)
			fail(L, n, "uniform distribution: a (%s) is greater than b (%s)", a, b);
		break;
	case NPUKB_DIST_NORMAL:
		if (!(td->dist.b > 0))
			fail(L, n, "normal distribution: stddev b (%s) must be positive", b);
		break;
	case NPUKB_DIST_INTEGER:
		if (td->dist.a != (double)(long long)td->dist.a ||
		    td->dist.b != (double)(long long)td->dist.b)
			fail(L, n, "integer distribution: bounds %s and %s must be integers", a, b);
		else if (td->dist.a > td->dist.b)
			fail(L, n, "integer distribution: a (%s) is greater than b (%s)", a, b);
		break;
	default:
		break;
	}
out:
	free(kind);
	free(a);
	free(b);
}

static void check_tensor_dtype(struct loader *L, xmlNodePtr n,
			       const struct npukb_tensor_decl *td)
{
	const struct npukb_attr_decl *a;

	if (td->dtype[0] != '$') {
		if (npukb_dtype_from_name(td->dtype) == NPUKB_DT_INVALID)
			fail(L, n, "tensor '%s': unknown dtype '%s'", td->name, td->dtype);
		return;
	}
	if (strcmp(td->dtype, "$dtype") == 0)
		return;
	a = find_attr_decl(L->t, td->dtype + 1);
	if (!a)
		fail(L, n, "tensor '%s': dtype '%s' names no declared attribute (use '$dtype' for the case's dtype)",
		     td->name, td->dtype);
	else if (!a->type || strcmp(a->type, "dtype") != 0)
		fail(L, n, "tensor '%s': dtype '%s' names attribute '%s' of type %s, not dtype",
		     td->name, td->dtype, a->name, a->type ? a->type : "?");
}

static void build_tensors(struct loader *L, xmlNodePtr root)
{
	struct npukb_task *t = L->t;
	xmlNodePtr list = first_child(root, "tensors"), n;
	size_t count = 0, i = 0;

	for (n = list ? list->children : NULL; n; n = n->next)
		if (is_elem(n, "input") || is_elem(n, "output") || is_elem(n, "inout"))
			count++;
	t->tensors = alloc_array(L, count, sizeof(*t->tensors));
	if (!t->tensors)
		return;
	for (n = list->children; n; n = n->next) {
		struct npukb_tensor_decl *td;

		char *list_attr;

		if (!is_elem(n, "input") && !is_elem(n, "output") && !is_elem(n, "inout"))
			continue;
		td = &t->tensors[i];
		td->is_inout = is_elem(n, "inout");
		td->is_output = is_elem(n, "output") || td->is_inout;
		list_attr = get_attr(L, n, "list");
		td->is_list = list_attr && strcmp(list_attr, "true") == 0;
		free(list_attr);
		list_attr = get_attr(L, n, "optional");
		td->is_optional = list_attr && strcmp(list_attr, "true") == 0;
		free(list_attr);
		td->line = (int)line_of(n);
		td->name = need_attr(L, n, "name");
		td->dtype = need_attr(L, n, "dtype");
		td->shape_of = get_attr(L, n, "shape-of");
		t->ntensors = ++i;
		if (!td->name)
			continue;
		for (size_t j = 0; j + 1 < i; j++)
			if (t->tensors[j].name && strcmp(t->tensors[j].name, td->name) == 0)
				fail(L, n, "duplicate tensor name '%s' (first declared on line %d)",
				     td->name, t->tensors[j].line);
		if (td->dtype)
			check_tensor_dtype(L, n, td);
		if (td->is_optional && td->is_output)
			fail(L, n, "%s '%s' cannot be optional: only an input can be absent",
			     td->is_inout ? "in-place tensor" : "output", td->name);
		if (!td->is_output || td->is_inout)
			build_dist(L, n, td);
	}
}

/* shape-of must name a tensor and must end, following the chain, at a
 * tensor whose shape each case gives. */
static void check_shape_of(struct loader *L)
{
	const struct npukb_task *t = L->t;

	for (size_t i = 0; i < t->ntensors; i++) {
		const struct npukb_tensor_decl *td = &t->tensors[i];
		int cur, in_cycle = 0, lowest = (int)i;
		char chain[512];
		size_t used;

		if (!td->name || !td->shape_of)
			continue;
		if (npukb_task_tensor_index(t, td->shape_of) < 0) {
			diag_add(L->d, L->path, td->line,
				 "tensor '%s': shape-of names unknown tensor '%s'",
				 td->name, td->shape_of);
			continue;
		}
		if (strcmp(td->shape_of, td->name) == 0) {
			diag_add(L->d, L->path, td->line,
				 "tensor '%s' has shape-of itself", td->name);
			continue;
		}
		/* A list's members copy another list's (ForeachXxx's y those of
		 * x); a plain tensor cannot take a list's flat buffer shape. */
		if (td->is_list != t->tensors[npukb_task_tensor_index(t, td->shape_of)].is_list) {
			diag_add(L->d, L->path, td->line,
				 td->is_list ? "list '%s' has shape-of '%s', which is not a list"
					     : "tensor '%s' has shape-of list '%s'; only a list can",
				 td->name, td->shape_of);
			continue;
		}
		cur = npukb_task_tensor_index(t, td->shape_of);
		for (size_t hops = 0; cur >= 0 && hops < t->ntensors; hops++) {
			if ((size_t)cur == i) {
				in_cycle = 1;
				break;
			}
			if (cur < lowest)
				lowest = cur;
			cur = t->tensors[cur].shape_of
				      ? npukb_task_tensor_index(t, t->tensors[cur].shape_of)
				      : -1;
		}
		/* Report a loop once, at its first tensor. */
		if (!in_cycle || lowest != (int)i)
			continue;
		used = (size_t)snprintf(chain, sizeof(chain), "%s", td->name);
		cur = npukb_task_tensor_index(t, td->shape_of);
		while (used < sizeof(chain)) {
			used += (size_t)snprintf(chain + used, sizeof(chain) - used, " -> %s",
						 t->tensors[cur].name);
			if ((size_t)cur == i)
				break;
			cur = npukb_task_tensor_index(t, t->tensors[cur].shape_of);
		}
		diag_add(L->d, L->path, td->line, "shape-of loop: %s", chain);
	}
}

static int param_seen(const struct npukb_task *t, size_t before, const char *name)
{
	for (size_t j = 0; j < before; j++)
		if (t->params[j].name && strcmp(t->params[j].name, name) == 0)
			return 1;
	return 0;
}


static void build_params(struct loader *L, xmlNodePtr root, int has_tiling_elem)
{
	static const char *const role_names[] = { "", "input", "output", "workspace",
						  "tiling", "inout" };
	struct npukb_task *t = L->t;
	xmlNodePtr kernel = first_child(root, "kernel"), n, tiling_param = NULL;
	size_t i = 0;

	if (!kernel)
		return;
	t->kernel_name = need_attr(L, kernel, "name");
	t->params = alloc_array(L, count_children(kernel, "param"), sizeof(*t->params));
	if (!t->params)
		return;
	FOR_EACH_CHILD(n, kernel, "param") {
		struct npukb_param *p = &t->params[i];
		char *role = need_attr(L, n, "role");
		const struct npukb_tensor_decl *td;

		p->name = need_attr(L, n, "name");
		p->tensor = get_attr(L, n, "tensor");
		if (!p->tensor && p->name)
			p->tensor = dup_str(L, p->name);
		t->nparams = ++i;
		if (role && strcmp(role, "input") == 0)
			p->role = NPUKB_PARAM_INPUT;
		else if (role && strcmp(role, "output") == 0)
			p->role = NPUKB_PARAM_OUTPUT;
		else if (role && strcmp(role, "workspace") == 0)
			p->role = NPUKB_PARAM_WORKSPACE;
		else if (role && strcmp(role, "tiling") == 0)
			p->role = NPUKB_PARAM_TILING;
		else if (role && strcmp(role, "inout") == 0)
			p->role = NPUKB_PARAM_INOUT;
		else if (role)
			fail(L, n, "parameter role '%s' is not input, output, inout, workspace or tiling",
			     role);
		free(role);
		if (!p->name || !p->role)
			continue;
		if (param_seen(t, i - 1, p->name)) {
			fail(L, n, "duplicate kernel parameter '%s'", p->name);
			continue;
		}
		if (!p->tensor)
			continue;
		/* Only an in-place tensor may be passed twice (CANN's var and
		 * varOut). */
		for (size_t j = 0; j + 1 < i; j++)
			if (t->params[j].tensor && strcmp(t->params[j].tensor, p->tensor) == 0 &&
			    (p->role != NPUKB_PARAM_INOUT || t->params[j].role != NPUKB_PARAM_INOUT))
				fail(L, n, "kernel parameters '%s' and '%s' carry the same tensor '%s'",
				     t->params[j].name, p->name, p->tensor);
		td = npukb_task_tensor(t, p->tensor);
		switch (p->role) {
		case NPUKB_PARAM_INOUT:
			if (!td)
				fail(L, n, "kernel parameter '%s' (inout) names no declared tensor",
				     p->name);
			else if (!td->is_inout)
				fail(L, n, "kernel parameter '%s' has role inout but '%s' is declared as an %s",
				     p->name, p->tensor, td->is_output ? "output" : "input");
			break;
		case NPUKB_PARAM_INPUT:
		case NPUKB_PARAM_OUTPUT:
			if (!td)
				fail(L, n, "kernel parameter '%s' (%s) names no declared tensor",
				     p->name, role_names[p->role]);
			else if (td->is_inout)
				fail(L, n, "kernel parameter '%s' has role %s but '%s' is declared as inout",
				     p->name, role_names[p->role], p->tensor);
			else if (td->is_output != (p->role == NPUKB_PARAM_OUTPUT))
				fail(L, n, "kernel parameter '%s' has role %s but '%s' is declared as an %s",
				     p->name, role_names[p->role], p->tensor,
				     td->is_output ? "output" : "input");
			break;
		case NPUKB_PARAM_WORKSPACE:
		case NPUKB_PARAM_TILING:
			if (td)
				fail(L, n, "kernel parameter '%s' has role %s but is the name of a tensor",
				     p->name, role_names[p->role]);
			for (size_t j = 0; j + 1 < i; j++)
				if (t->params[j].role == p->role)
					fail(L, n, "second %s parameter '%s'",
					     role_names[p->role], p->name);
			if (p->role == NPUKB_PARAM_TILING)
				tiling_param = n;
			break;
		}
	}
	/* Every tensor travels as exactly one GM_ADDR parameter. */
	for (size_t k = 0; k < t->ntensors; k++) {
		const struct npukb_tensor_decl *td = &t->tensors[k];
		int found = 0;

		for (size_t j = 0; j < t->nparams; j++)
			if (t->params[j].tensor && td->name &&
			    strcmp(t->params[j].tensor, td->name) == 0)
				found = 1;
		if (td->name && !found)
			diag_add(L->d, L->path, td->line,
				 "tensor '%s' is not a parameter of kernel '%s'", td->name,
				 t->kernel_name ? t->kernel_name : "?");
	}
	if (tiling_param && !has_tiling_elem)
		fail(L, tiling_param,
		     "the kernel takes a tiling parameter but the manifest has no <tiling>");
}

static void build_tiling(struct loader *L, xmlNodePtr root, int has_tiling_param)
{
	struct npukb_task *t = L->t;
	xmlNodePtr tiling = first_child(root, "tiling"), n;
	char *bd;
	long long v = 0;
	size_t i = 0;

	if (!tiling)
		return;
	if (!has_tiling_param)
		fail(L, tiling, "<tiling> is given but the kernel has no parameter with role tiling");
	t->tiling_struct = need_attr(L, tiling, "struct");
	bd = need_attr(L, tiling, "block-dim");
	if (bd && (parse_ll(bd, &v) < 0 || v < 1 || v > 65535))
		fail(L, tiling, "block-dim '%s' is not a number from 1 to 65535", bd);
	else
		t->block_dim = (int)v;
	free(bd);
	t->tiling = alloc_array(L, count_children(tiling, "field"), sizeof(*t->tiling));
	if (!t->tiling)
		return;
	FOR_EACH_CHILD(n, tiling, "field") {
		struct npukb_tiling_field *f = &t->tiling[i];
		char *type = need_attr(L, n, "type");

		f->name = need_attr(L, n, "name");
		f->expr = need_attr(L, n, "value");
		t->ntiling = ++i;
		if (type && strcmp(type, "uint32") == 0) {
			f->type = NPUKB_DT_INT32;
			f->is_unsigned = 1;
		} else if (type && strcmp(type, "int32") == 0) {
			f->type = NPUKB_DT_INT32;
		} else if (type && strcmp(type, "uint64") == 0) {
			f->type = NPUKB_DT_INT64;
			f->is_unsigned = 1;
		} else if (type && strcmp(type, "int64") == 0) {
			f->type = NPUKB_DT_INT64;
		} else if (type && strcmp(type, "float32") == 0) {
			f->type = NPUKB_DT_FLOAT32;
		} else if (type) {
			fail(L, n, "tiling field type '%s' is not one of uint32, int32, uint64, int64, float32",
			     type);
		}
		free(type);
		if (!f->name)
			continue;
		for (size_t j = 0; j + 1 < i; j++)
			if (t->tiling[j].name && strcmp(t->tiling[j].name, f->name) == 0)
				fail(L, n, "duplicate tiling field '%s'", f->name);
	}
}

/* Parses "48 128 512" (empty: a scalar). Returns 0, or -1 after reporting. */
static int parse_dims(struct loader *L, xmlNodePtr n, const char *cid,
		      const char *tensor, const char *text, struct npukb_shape *s)
{
	const char *p = text;
	uint64_t numel = 1;

	memset(s, 0, sizeof(*s));
	for (;;) {
		const char *tok;
		size_t len = 0;
		uint64_t v = 0;
		int ok = 1;

		while (is_space(*p))
			p++;
		if (!*p)
			return 0;
		tok = p;
		while (p[len] && !is_space(p[len]))
			len++;
		p += len;
		for (size_t k = 0; k < len && ok; k++) {
			if (tok[k] < '0' || tok[k] > '9' || v > ((uint64_t)INT64_MAX - 9) / 10)
				ok = 0;
			else
				v = v * 10 + (uint64_t)(tok[k] - '0');
		}
		if (!ok || v == 0) {
			fail(L, n, "case '%s': dimension '%.*s' of tensor '%s' is not a positive integer",
			     cid, (int)(len > 40 ? 40 : len), tok, tensor);
			return -1;
		}
		if (s->rank == NPUKB_MAX_DIMS) {
			fail(L, n, "case '%s': tensor '%s' has more than %d dimensions", cid,
			     tensor, NPUKB_MAX_DIMS);
			return -1;
		}
		if (v > (uint64_t)INT64_MAX / numel) {
			fail(L, n, "case '%s': tensor '%s' has too many elements", cid, tensor);
			return -1;
		}
		numel *= v;
		s->dims[s->rank++] = (int64_t)v;
	}
}

/* A list's member shapes: "32 64 64; 32 64 64". */
static void parse_members(struct loader *L, xmlNodePtr n, const char *cid,
			  struct npukb_named_shape *ns, char *text)
{
	size_t count = 1, k = 0;
	char *p = text, *semi;

	for (const char *q = text; *q; q++)
		count += *q == ';';
	ns->members = alloc_array(L, count, sizeof(*ns->members));
	if (!ns->members)
		return;
	for (;;) {
		semi = strchr(p, ';');
		if (semi)
			*semi = '\0';
		if (parse_dims(L, n, cid, ns->tensor, p, &ns->members[k]) < 0)
			return;
		if (ns->members[k].rank == 0) {
			fail(L, n, "case '%s': member %zu of list '%s' has no dimensions", cid, k,
			     ns->tensor);
			return;
		}
		ns->nmembers = ++k;
		if (!semi)
			break;
		p = semi + 1;
	}
}

static int check_attr_value(struct loader *L, xmlNodePtr n, const char *cid,
			    const struct npukb_attr_decl *a, const char *v)
{
	long long ll;
	double dv;
	const char *type = a->type ? a->type : "string";
	int ok = 1;

	if (strcmp(type, "int") == 0)
		ok = parse_ll(v, &ll) == 0;
	else if (strcmp(type, "float") == 0)
		ok = parse_double(v, &dv) == 0;
	else if (strcmp(type, "bool") == 0)
		ok = strcmp(v, "true") == 0 || strcmp(v, "false") == 0 ||
		     strcmp(v, "1") == 0 || strcmp(v, "0") == 0;
	else if (strcmp(type, "dtype") == 0)
		ok = npukb_dtype_from_name(v) != NPUKB_DT_INVALID;
	else if (strcmp(type, "list") == 0)
		ok = npukb_attr_list_parse(v, NULL, 0) >= 0;
	if (!ok)
		fail(L, n, "case '%s': attribute '%s' = '%s' is not a valid %s", cid,
		     a->name, v, type);
	return ok ? 0 : -1;
}

/* Builds case c from node n; returns the number of problems found. */
static int build_case(struct loader *L, xmlNodePtr n, struct npukb_case *c)
{
	const struct npukb_task *t = L->t;
	size_t before = L->d->n + L->d->dropped;
	const char *cid;
	char *dtype;
	xmlNodePtr s;
	size_t i;

	c->line = (int)line_of(n);
	c->id = need_attr(L, n, "id");
	cid = c->id ? c->id : "?";
	dtype = get_attr(L, n, "dtype");
	if (dtype) {
		c->dtype = npukb_dtype_from_name(dtype);
		if (c->dtype == NPUKB_DT_INVALID)
			fail(L, n, "case '%s': unknown dtype '%s'", cid, dtype);
		free(dtype);
	} else {
		for (i = 0; i < t->ntensors; i++) {
			if (t->tensors[i].dtype && strcmp(t->tensors[i].dtype, "$dtype") == 0) {
				fail(L, n, "case '%s' has no dtype, but tensor '%s' has dtype $dtype",
				     cid, t->tensors[i].name);
				break;
			}
		}
	}

	c->shapes = alloc_array(L, count_children(n, "shape"), sizeof(*c->shapes));
	i = 0;
	FOR_EACH_CHILD(s, n, "shape") {
		struct npukb_named_shape *ns;
		char *text;

		if (!c->shapes)
			break;
		ns = &c->shapes[i];
		ns->tensor = need_attr(L, s, "tensor");
		c->nshapes = ++i;
		if (!ns->tensor)
			continue;
		if (npukb_task_tensor_index(t, ns->tensor) < 0) {
			fail(L, s, "case '%s': shape for unknown tensor '%s'", cid, ns->tensor);
			continue;
		}
		for (size_t j = 0; j + 1 < i; j++)
			if (c->shapes[j].tensor && strcmp(c->shapes[j].tensor, ns->tensor) == 0)
				fail(L, s, "case '%s': second shape for tensor '%s'", cid,
				     ns->tensor);
		text = get_text(L, s, 0);
		if (text && npukb_task_tensor(t, ns->tensor)->is_list)
			parse_members(L, s, cid, ns, text);
		else if (text)
			parse_dims(L, s, cid, ns->tensor, text, &ns->shape);
		free(text);
	}

	c->absent = alloc_array(L, count_children(n, "absent"), sizeof(*c->absent));
	i = 0;
	FOR_EACH_CHILD(s, n, "absent") {
		const struct npukb_tensor_decl *td;
		char *name;

		if (!c->absent)
			break;
		name = need_attr(L, s, "tensor");
		if (!name)
			continue;
		c->absent[i] = name;
		c->nabsent = ++i;
		td = npukb_task_tensor(t, name);
		if (!td)
			fail(L, s, "case '%s': absent tensor '%s' is not declared", cid, name);
		else if (!td->is_optional)
			fail(L, s, "case '%s': tensor '%s' is not optional (optional=\"true\"), so it cannot be absent",
			     cid, name);
		for (size_t j = 0; j + 1 < i; j++)
			if (strcmp(c->absent[j], name) == 0)
				fail(L, s, "case '%s': tensor '%s' is absent twice", cid, name);
		for (size_t j = 0; j < c->nshapes; j++)
			if (c->shapes[j].tensor && strcmp(c->shapes[j].tensor, name) == 0)
				fail(L, s, "case '%s': tensor '%s' is absent but has a shape", cid, name);
	}

	c->attrs = alloc_array(L, count_children(n, "attr"), sizeof(*c->attrs));
	i = 0;
	FOR_EACH_CHILD(s, n, "attr") {
		struct npukb_attr_value *av;
		const struct npukb_attr_decl *a;

		if (!c->attrs)
			break;
		av = &c->attrs[i];
		av->name = need_attr(L, s, "name");
		av->value = get_text(L, s, 0);
		c->nattrs = ++i;
		if (!av->name || !av->value)
			continue;
		a = find_attr_decl(t, av->name);
		if (!a) {
			fail(L, s, "case '%s': attribute '%s' is not declared in <attributes>",
			     cid, av->name);
			continue;
		}
		for (size_t j = 0; j + 1 < i; j++)
			if (c->attrs[j].name && strcmp(c->attrs[j].name, av->name) == 0)
				fail(L, s, "case '%s': second value for attribute '%s'", cid,
				     av->name);
		check_attr_value(L, s, cid, a, av->value);
	}
	for (i = 0; i < t->nattrs; i++)
		if (t->attrs[i].name && !npukb_case_attr(c, t->attrs[i].name))
			fail(L, n, "case '%s' gives no value for attribute '%s'", cid,
			     t->attrs[i].name);
	for (i = 0; i < t->ntensors; i++) {
		const struct npukb_tensor_decl *td = &t->tensors[i];
		int given = 0;

		if (!td->name || td->shape_of || npukb_case_tensor_absent(c, td->name))
			continue;
		for (size_t j = 0; j < c->nshapes; j++)
			if (c->shapes[j].tensor && strcmp(c->shapes[j].tensor, td->name) == 0)
				given = 1;
		if (!given)
			fail(L, n, "case '%s' gives no shape for %s '%s'", cid,
			     td->is_output ? "output" : "input", td->name);
	}
	return (int)(L->d->n + L->d->dropped - before);
}

/* Resolves every tensor of a well-formed case, as consumers will. */
static int resolve_case(struct loader *L, xmlNodePtr n, const struct npukb_case *c)
{
	const struct npukb_task *t = L->t;
	char why[512];
	int bad = 0;

	for (size_t i = 0; i < t->ntensors; i++) {
		struct npukb_shape s;
		enum npukb_dtype dt;

		if (npukb_case_tensor_absent(c, t->tensors[i].name))
			continue;
		if (npukb_case_tensor_dtype(t, c, t->tensors[i].name, &dt, why,
					    sizeof(why)) < 0 ||
		    npukb_case_tensor_shape(t, c, t->tensors[i].name, &s, why,
					    sizeof(why)) < 0) {
			fail(L, n, "case '%s': %s", c->id, why);
			bad = 1;
		}
	}
	return bad;
}

static void build_cases(struct loader *L, xmlNodePtr root, unsigned char **badp)
{
	struct npukb_task *t = L->t;
	xmlNodePtr list = first_child(root, "cases"), n;
	unsigned char *bad;
	size_t count = count_children(list, "case"), i = 0;

	*badp = NULL;
	if (count == 0) {
		fail(L, list ? list : root, "the manifest has no cases");
		return;
	}
	t->cases = alloc_array(L, count, sizeof(*t->cases));
	bad = alloc_array(L, count, 1);
	*badp = bad;
	if (!t->cases || !bad)
		return;
	FOR_EACH_CHILD(n, list, "case") {
		struct npukb_case *c = &t->cases[i];

		t->ncases = ++i;
		bad[i - 1] = build_case(L, n, c) > 0;
		if (!c->id)
			continue;
		for (size_t j = 0; j + 1 < i; j++)
			if (t->cases[j].id && strcmp(t->cases[j].id, c->id) == 0)
				fail(L, n, "duplicate case id '%s' (first on line %d)", c->id,
				     t->cases[j].line);
	}
}

/* Distribution bounds written as expressions must evaluate in every case,
 * to a non-empty range. One report per tensor. */
static void check_dist_exprs(struct loader *L, const unsigned char *bad)
{
	const struct npukb_task *t = L->t;

	for (size_t i = 0; i < t->ntensors; i++) {
		const struct npukb_tensor_decl *td = &t->tensors[i];

		if (!td->dist.a_expr && !td->dist.b_expr && !td->dist.count_expr)
			continue;
		for (size_t k = 0; k < t->ncases; k++) {
			const struct npukb_case *c = &t->cases[k];
			char why[512];
			int64_t a = 0, b = 0;
			int rc = 0;

			if (bad[k])
				continue;
			/* A derived input's count: a number of elements. */
			if (td->dist.count_expr) {
				rc = npukb_tiling_eval(t, c, td->dist.count_expr, &a, why, sizeof(why));
				if (rc < 0 || a < 0) {
					diag_add(L->d, L->path, td->line,
						 "input '%s': derive count (case '%s'): %s", td->name,
						 c->id, rc < 0 ? why : "negative");
					break;
				}
				continue;
			}
			if (td->dist.a_expr)
				rc = npukb_tiling_eval(t, c, td->dist.a_expr, &a, why, sizeof(why));
			if (rc == 0 && td->dist.b_expr)
				rc = npukb_tiling_eval(t, c, td->dist.b_expr, &b, why, sizeof(why));
			if (rc < 0) {
				diag_add(L->d, L->path, td->line,
					 "input '%s': distribution bound (case '%s'): %s", td->name,
					 c->id, why);
				break;
			}
			if (td->dist.kind == NPUKB_DIST_SLICES ? b < 1 : a > b) {
				diag_add(L->d, L->path, td->line,
					 "input '%s': distribution range is empty in case '%s' (a = %lld, b = %lld)",
					 td->name, c->id, (long long)a, (long long)b);
				break;
			}
		}
	}
}

static void check_cases_and_tiling(struct loader *L, xmlNodePtr root,
				   unsigned char *bad)
{
	const struct npukb_task *t = L->t;
	xmlNodePtr n, tiling = first_child(root, "tiling");
	size_t i = 0;

	FOR_EACH_CHILD(n, first_child(root, "cases"), "case") {
		if (i < t->ncases && !bad[i])
			bad[i] = (unsigned char)resolve_case(L, n, &t->cases[i]);
		i++;
	}
	check_dist_exprs(L, bad);
	i = 0;
	FOR_EACH_CHILD(n, tiling, "field") {
		const struct npukb_tiling_field *f;

		if (i >= t->ntiling)
			break;
		f = &t->tiling[i++];
		if (!f->name || !f->expr)
			continue;
		/* One report per field: every case would repeat it. */
		for (size_t k = 0; k < t->ncases; k++) {
			const struct npukb_case *c = &t->cases[k];
			char why[512];
			const char *range = NULL;
			int64_t v;

			if (bad[k])
				continue;
			double fv;

			if (f->type == NPUKB_DT_FLOAT32
				    ? npukb_tiling_eval_float(t, c, f->expr, &fv, why, sizeof(why)) < 0
				    : npukb_tiling_eval(t, c, f->expr, &v, why, sizeof(why)) < 0) {
				fail(L, n, "tiling field '%s' (case '%s'): %s", f->name, c->id, why);
				break;
			}
			if (f->type == NPUKB_DT_INT32 && f->is_unsigned &&
			    (v < 0 || v > (int64_t)UINT32_MAX))
				range = "uint32";
			else if (f->type == NPUKB_DT_INT32 && !f->is_unsigned &&
				 (v < INT32_MIN || v > INT32_MAX))
				range = "int32";
			else if (f->type == NPUKB_DT_INT64 && f->is_unsigned && v < 0)
				range = "uint64";
			if (range) {
				fail(L, n, "tiling field '%s' (case '%s'): value %lld of '%s' does not fit %s",
				     f->name, c->id, (long long)v, f->expr, range);
				break;
			}
		}
	}
}

static void set_paths(struct loader *L, const char *path)
{
	struct npukb_task *t = L->t;
	char *real = realpath(path, NULL);
	char *slash;

	t->manifest_path = real ? real : dup_str(L, path);
	if (!t->manifest_path)
		return;
	slash = strrchr(t->manifest_path, '/');
	if (!slash)
		t->dir = dup_str(L, ".");
	else if (slash == t->manifest_path)
		t->dir = dup_str(L, "/");
	else {
		t->dir = malloc((size_t)(slash - t->manifest_path) + 1);
		if (!t->dir) {
			L->oom = 1;
			return;
		}
		memcpy(t->dir, t->manifest_path, (size_t)(slash - t->manifest_path));
		t->dir[slash - t->manifest_path] = '\0';
	}
}

/* Checks meaning and builds the task; problems go to L->d. */
static void build_task(struct loader *L, xmlDocPtr doc, const char *path)
{
	xmlNodePtr root = xmlDocGetRootElement(doc);
	unsigned char *bad = NULL;
	int has_tiling_param = 0;
	size_t decl_problems;

	set_paths(L, path);
	build_root(L, root);
	build_attrs(L, root);
	build_tensors(L, root);
	check_shape_of(L);
	build_params(L, root, first_child(root, "tiling") != NULL);
	for (size_t i = 0; i < L->t->nparams; i++)
		if (L->t->params[i].role == NPUKB_PARAM_TILING)
			has_tiling_param = 1;
	build_tiling(L, root, has_tiling_param);
	decl_problems = L->d->n + L->d->dropped;
	build_cases(L, root, &bad);
	/* Evaluating cases against broken declarations would only repeat
	 * what is already reported. */
	if (decl_problems == 0 && bad && !L->oom)
		check_cases_and_tiling(L, root, bad);
	free(bad);
}

static int finish(struct diag *d, int rc, char *err, size_t errlen)
{
	if (rc == -ENOMEM || d->oom) {
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", d->path);
		rc = -ENOMEM;
	} else if (rc < 0) {
		diag_render(d, err, errlen);
	} else if (err && errlen) {
		err[0] = '\0';
	}
	diag_free(d);
	return rc;
}

int npukb_manifest_load(const char *path, const char *schema_path,
			struct npukb_task **out, char *err, size_t errlen)
{
	struct diag d;
	struct xml_handlers saved;
	struct loader L;
	xmlRelaxNGPtr schema = NULL;
	xmlDocPtr doc = NULL;
	int rc;

	if (out)
		*out = NULL;
	if (!path || !schema_path || !out) {
		if (err && errlen)
			snprintf(err, errlen, "manifest load: %s missing",
				 !path ? "manifest path" : !schema_path ? "schema path" : "result");
		return -EINVAL;
	}
	pthread_once(&init_once, init_once_fn);
	memset(&d, 0, sizeof(d));
	d.path = path;
	memset(&L, 0, sizeof(L));
	L.d = &d;
	L.path = path;
	handlers_push(&saved, &d);

	rc = read_xml(path, &d, &doc);
	if (rc < 0)
		goto out;
	if (!xmlDocGetRootElement(doc)) {
		diag_add(&d, path, 0, "malformed XML: no root element");
		rc = -EINVAL;
		goto out;
	}
	d.path = schema_path;
	rc = compile_schema(schema_path, &d, &schema);
	d.path = path;
	if (rc < 0)
		goto out;
	rc = validate(doc, schema, &d);
	if (rc < 0)
		goto out;

	L.t = calloc(1, sizeof(*L.t));
	if (!L.t) {
		rc = -ENOMEM;
		goto out;
	}
	build_task(&L, doc, path);
	if (L.oom)
		rc = -ENOMEM;
	else if (d.n > 0 || d.dropped > 0)
		rc = -EINVAL;
out:
	handlers_pop(&saved);
	xmlRelaxNGFree(schema);
	xmlFreeDoc(doc);
	if (rc == 0)
		*out = L.t;
	else
		npukb_task_free(L.t);
	return finish(&d, rc, err, errlen);
}

int npukb_manifest_schema_check(const char *schema_path, char *err, size_t errlen)
{
	struct diag d;
	struct xml_handlers saved;
	xmlRelaxNGPtr schema = NULL;
	int rc;

	if (!schema_path) {
		if (err && errlen)
			snprintf(err, errlen, "schema check: schema path missing");
		return -EINVAL;
	}
	pthread_once(&init_once, init_once_fn);
	memset(&d, 0, sizeof(d));
	d.path = schema_path;
	handlers_push(&saved, &d);
	rc = compile_schema(schema_path, &d, &schema);
	handlers_pop(&saved);
	xmlRelaxNGFree(schema);
	return finish(&d, rc, err, errlen);
}
