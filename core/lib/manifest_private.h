/* manifest_private.h - what the files of the manifest loader share
 * (private to manifest.c, manifest_xml.c and manifest_cases.c):
 *   manifest_xml.c    the XML layer: collecting problems, libxml2's
 *                     handlers, reading, schema validation, and reading
 *                     elements, attributes and numbers out of the document;
 *   manifest.c        building the task's declarations, and the entry points;
 *   manifest_cases.c  the cases, and the checks that evaluate every case.
 * The names are hidden: nothing here leaves libnpukb. */
#ifndef NPUKB_MANIFEST_PRIVATE_H
#define NPUKB_MANIFEST_PRIVATE_H

#include "manifest.h"

#include <stdarg.h>
#include <stddef.h>

#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#pragma GCC visibility push(hidden)

/* ---- collecting problems (manifest_xml.c) ---------------------------------- */

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

__attribute__((format(printf, 4, 5)))
void diag_add(struct diag *d, const char *file, long line, const char *fmt, ...);
void diag_free(struct diag *d);
/* The problems, sorted by line, at most NPUKB_MANIFEST_MAX_ERRORS. */
void diag_render(struct diag *d, char *err, size_t errlen);

/* Routes this thread's libxml2 reports into d while it lives. */
struct xml_handlers {
	xmlStructuredErrorFunc serror;
	void *sctx;
	xmlGenericErrorFunc gerror;
	void *gctx;
};

void handlers_push(struct xml_handlers *saved, struct diag *d);
void handlers_pop(const struct xml_handlers *saved);

/* libxml2's one-time set-up; call before anything below. */
void manifest_xml_init(void);

/* ---- reading XML (manifest_xml.c) ------------------------------------------- */

int read_xml(const char *path, struct diag *d, xmlDocPtr *out);
int compile_schema(const char *schema_path, struct diag *d, xmlRelaxNGPtr *out);
int validate(xmlDocPtr doc, xmlRelaxNGPtr schema, struct diag *d);

/* ---- reading the document's parts (manifest_xml.c) --------------------------- */

struct loader {
	struct diag *d;
	const char *path; /* as the caller gave it, for messages */
	struct npukb_task *t;
	int oom;
};

__attribute__((format(printf, 3, 4)))
void fail(struct loader *L, xmlNodePtr at, const char *fmt, ...);
long line_of(xmlNodePtr n);
int is_elem(xmlNodePtr n, const char *name);
xmlNodePtr next_elem(xmlNodePtr n, const char *name);
xmlNodePtr first_child(xmlNodePtr parent, const char *name);

#define FOR_EACH_CHILD(n, parent, name) \
	for ((n) = first_child((parent), (name)); (n); (n) = next_elem((n)->next, (name)))

size_t count_children(xmlNodePtr parent, const char *name);
int is_space(char ch);
char *dup_trimmed(struct loader *L, const char *s, int collapse);
char *get_attr(struct loader *L, xmlNodePtr n, const char *name);
char *need_attr(struct loader *L, xmlNodePtr n, const char *name);
char *get_text(struct loader *L, xmlNodePtr n, int collapse);
char *dup_str(struct loader *L, const char *s);
void *alloc_array(struct loader *L, size_t n, size_t size);
int parse_ll(const char *s, long long *out);
int parse_double(const char *s, double *out);

/* ---- the task (manifest.c) ----------------------------------------------------- */

const struct npukb_attr_decl *find_attr_decl(const struct npukb_task *t, const char *name);

/* ---- the cases (manifest_cases.c) ------------------------------------------------ */

void build_cases(struct loader *L, xmlNodePtr root, unsigned char **badp);
void check_cases_and_tiling(struct loader *L, xmlNodePtr root, unsigned char *bad);

/* ---- golden files (manifest_golden.c) ------------------------------------------- */

/* Read case node n's <golden> elements into c (names, paths as written). */
void build_golden(struct loader *L, xmlNodePtr n, struct npukb_case *c);
/* For a well-formed case: every golden file lies inside the task's folder
 * and holds the dtype and shape the case gives its tensor; golden outputs
 * come with every output and every input golden. Returns 1 when bad. */
int check_golden(struct loader *L, xmlNodePtr n, struct npukb_case *c);

#pragma GCC visibility pop

#endif
