/* manifest_golden.c - a case's golden files: <golden tensor="y"
 * file="golden/c0_y.npy"/> gives a tensor's data as a .npy file, an
 * input's values or an output's expected result, instead of a generated
 * input or a reference function. */
#include "manifest_private.h"

#include <npukb/npy.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void build_golden(struct loader *L, xmlNodePtr n, struct npukb_case *c)
{
	const struct npukb_task *t = L->t;
	const char *cid = c->id ? c->id : "?";
	xmlNodePtr s;
	size_t i = 0;

	c->golden = alloc_array(L, count_children(n, "golden"), sizeof(*c->golden));
	FOR_EACH_CHILD(s, n, "golden") {
		struct npukb_golden *g;
		const struct npukb_tensor_decl *td;

		if (!c->golden)
			break;
		g = &c->golden[i];
		g->tensor = need_attr(L, s, "tensor");
		g->path = need_attr(L, s, "file");
		g->line = (int)line_of(s);
		c->ngolden = ++i;
		if (!g->tensor || !g->path)
			continue;
		td = npukb_task_tensor(t, g->tensor);
		if (!td)
			fail(L, s, "case '%s': golden file for unknown tensor '%s'", cid, g->tensor);
		else if (td->is_inout || td->is_list)
			fail(L, s, "case '%s': %s tensor '%s' cannot take a golden file", cid,
			     td->is_inout ? "in-place" : "list", g->tensor);
		for (size_t j = 0; j + 1 < i; j++)
			if (c->golden[j].tensor && strcmp(c->golden[j].tensor, g->tensor) == 0)
				fail(L, s, "case '%s': second golden file for tensor '%s'", cid,
				     g->tensor);
		if (npukb_case_tensor_absent(c, g->tensor))
			fail(L, s, "case '%s': tensor '%s' is absent but has a golden file", cid,
			     g->tensor);
	}
}

/* g->path, relative to the task's folder, becomes the file's real path;
 * it must exist and stay inside the folder (no "..", no symbolic link
 * out). 0, or 1 when reported. */
static int resolve_path(struct loader *L, xmlNodePtr at, const char *cid, struct npukb_golden *g)
{
	const char *dir = L->t->dir;
	char *joined = NULL, *real, *root;
	size_t rlen;
	int bad = 0;

	if (g->path[0] == '/' || g->path[0] == '\0') {
		fail(L, at, "case '%s': golden file '%s' must be a path relative to the task's folder",
		     cid, g->path);
		return 1;
	}
	root = realpath(dir, NULL);
	if (!root || asprintf(&joined, "%s/%s", root, g->path) < 0) {
		free(root);
		L->oom = 1;
		return 1;
	}
	real = realpath(joined, NULL);
	rlen = strlen(root);
	if (!real) {
		fail(L, at, "case '%s': golden file %s: %s", cid, joined, strerror(errno));
		bad = 1;
	} else if (strncmp(real, root, rlen) != 0 || real[rlen] != '/') {
		fail(L, at, "case '%s': golden file '%s' lies outside the task's folder %s", cid,
		     g->path, root);
		bad = 1;
	} else {
		free(g->path);
		g->path = real;
		real = NULL;
	}
	free(real);
	free(joined);
	free(root);
	return bad;
}

static xmlNodePtr golden_node(xmlNodePtr n, size_t k)
{
	xmlNodePtr s;
	FOR_EACH_CHILD(s, n, "golden")
		if (k-- == 0)
			return s;
	return n;
}

int check_golden(struct loader *L, xmlNodePtr n, struct npukb_case *c)
{
	const struct npukb_task *t = L->t;
	int bad = 0, outputs = 0;

	for (size_t k = 0; k < c->ngolden; k++) {
		struct npukb_golden *g = &c->golden[k];
		xmlNodePtr at = golden_node(n, k);
		struct npukb_shape shape;
		enum npukb_dtype dt;
		char why[1024];
		const struct npukb_tensor_decl *td = npukb_task_tensor(t, g->tensor);

		if (!td || resolve_path(L, at, c->id, g)) {
			bad = 1;
			continue;
		}
		outputs += td->is_output;
		if (npukb_case_tensor_dtype(t, c, g->tensor, &dt, why, sizeof(why)) < 0 ||
		    npukb_case_tensor_shape(t, c, g->tensor, &shape, why, sizeof(why)) < 0 ||
		    npukb_npy_read(g->path, dt, &shape, NULL, why, sizeof(why)) < 0) {
			fail(L, at, "case '%s': golden %s: %s", c->id, g->tensor, why);
			bad = 1;
		}
	}
	/* Golden outputs hold for one set of inputs: the case's inputs must
	 * be fixed too, not drawn from the seed. */
	for (size_t i = 0; outputs && i < t->ntensors; i++) {
		const struct npukb_tensor_decl *td = &t->tensors[i];
		if (npukb_case_golden(c, td->name) || npukb_case_tensor_absent(c, td->name))
			continue;
		fail(L, n, "case '%s': it has golden outputs, so %s '%s' needs a golden file too%s",
		     c->id, td->is_output ? "output" : "input", td->name,
		     td->is_output ? "" : " (generated inputs change with the seed)");
		bad = 1;
	}
	if (!outputs && !t->reference) {
		fail(L, n, "case '%s' has no golden outputs and the task names no <reference>",
		     c->id);
		bad = 1;
	}
	return bad;
}
