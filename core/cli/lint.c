/* lint.c - play trivial samples against a task's reference.
 *
 * Each case is prepared twice with different seeds (A, B). The samples are
 * judged on B's expected outputs: zeros; a copy of each input of B with the
 * output's dtype and size; and a constant, namely the first expected value
 * of A — a constant sample cannot know B's inputs, so it must match B with
 * what it would have output for A. Cases run smallest first and a sample is
 * dropped at its first failing case, so a sound task costs little. */
#include "lint.h"

#include "compare.h"
#include "fsutil.h"

#include <npukb/case_data.h>
#include <npukb/util.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED_A 0x6c696e74u /* "lint" */
#define SEED_B 0x6c696e75u

const char *npukb_trivial_name(enum npukb_trivial k)
{
	switch (k) {
	case NPUKB_TRIVIAL_ZEROS: return "zeros";
	case NPUKB_TRIVIAL_COPY: return "copy";
	case NPUKB_TRIVIAL_CONSTANT: return "constant";
	default: return "?";
	}
}

static int allowed(const struct npukb_task *t, const char *word)
{
	const char *p = t->lint_allow;
	size_t n = strlen(word);
	while (p && (p = strstr(p, word)) != NULL) {
		int start = p == t->lint_allow || p[-1] == ' ';
		int end = p[n] == '\0' || p[n] == ' ';
		if (start && end)
			return 1;
		p += n;
	}
	return 0;
}

static size_t case_elements(const struct npukb_task *t, const struct npukb_case *c)
{
	size_t i, total = 0;
	for (i = 0; i < t->ntensors; i++) {
		struct npukb_shape s;
		char err[64];
		if (npukb_case_tensor_absent(c, t->tensors[i].name))
			continue;
		if (npukb_case_tensor_shape(t, c, t->tensors[i].name, &s, err, sizeof(err)) != 0)
			return (size_t)-1;
		total += npukb_shape_numel(&s);
	}
	return total;
}

/* 1 when actual passes as tensor out of d under the task's rule. */
static int accepts(const struct npukb_task *t, const struct npukb_case_tensor *out,
		   const void *actual)
{
	struct npukb_compare_stats st;
	char err[128];
	int rc = npukb_compare_tensors(t->tolerance.rule, t->tolerance.atol, t->tolerance.rtol,
				       out->dtype, actual, out->expected, out->numel, 0, &st,
				       err, sizeof(err));
	return rc == 0;
}

/* Does trivial sample k pass every output of case data b (a: other seed)?
 * For a copy, *copy_in names the input used, or is -1 to try them all. */
static int trivial_passes(const struct npukb_task *t, enum npukb_trivial k,
			  const struct npukb_case_data *a, const struct npukb_case_data *b,
			  int *copy_in)
{
	size_t i, j;
	for (i = 0; i < b->ntensors; i++) {
		const struct npukb_case_tensor *out = &b->tensors[i];
		size_t size = npukb_dtype_size(out->dtype);
		unsigned char *buf;
		int ok = 0;
		if (!out->is_output)
			continue;
		if (k == NPUKB_TRIVIAL_COPY) {
			for (j = 0; j < b->ntensors && !ok; j++) {
				const struct npukb_case_tensor *in = &b->tensors[j];
				/* An in-place tensor's own generated values: the
				 * kernel that does nothing. */
				if ((in->is_output && !in->is_inout) || in->dtype != out->dtype ||
				    in->numel != out->numel ||
				    (*copy_in >= 0 && (size_t)*copy_in != j))
					continue;
				ok = accepts(t, out, in->data);
				if (ok)
					*copy_in = (int)j;
			}
			if (!ok)
				return 0;
			continue;
		}
		buf = calloc(out->numel ? out->numel : 1, size);
		if (!buf)
			return 0;
		if (k == NPUKB_TRIVIAL_CONSTANT && out->numel)
			for (j = 0; j < out->numel; j++)
				memcpy(buf + j * size, a->tensors[i].expected, size);
		ok = accepts(t, out, buf);
		free(buf);
		if (!ok)
			return 0;
	}
	return 1;
}

static int cmp_size(const void *x, const void *y)
{
	const size_t *a = x, *b = y;
	return a[0] < b[0] ? -1 : a[0] > b[0];
}

int npukb_lint_task(const struct npukb_task *t, const char *workdir, size_t max_elements,
		    struct npukb_lint_result *r, char *err, size_t errlen)
{
	size_t (*order)[2];
	size_t i;
	int k, live = NPUKB_TRIVIAL_COUNT_, copy_in = -1, rc = 0;
	char *dir_a = NULL, *dir_b = NULL;

	memset(r, 0, sizeof(*r));
	for (k = 0; k < NPUKB_TRIVIAL_COUNT_; k++) {
		r->passes[k] = 1;
		r->allowed[k] = allowed(t, npukb_trivial_name((enum npukb_trivial)k));
	}
	order = calloc(t->ncases ? t->ncases : 1, sizeof(*order));
	if (!order || asprintf(&dir_a, "%s/a", workdir) < 0 ||
	    asprintf(&dir_b, "%s/b", workdir) < 0) {
		free(order);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < t->ncases; i++) {
		order[i][0] = case_elements(t, &t->cases[i]);
		order[i][1] = i;
	}
	qsort(order, t->ncases, sizeof(*order), cmp_size);

	for (i = 0; i < t->ncases && live > 0 && rc == 0; i++) {
		const struct npukb_case *c = &t->cases[order[i][1]];
		struct npukb_case_data a, b;
		if (order[i][0] > max_elements) {
			r->cases_skipped++;
			continue;
		}
		npukb_mkdir_p(dir_a, 0700);
		npukb_mkdir_p(dir_b, 0700);
		rc = npukb_case_data_prepare(t, c, SEED_A, dir_a, &a, err, errlen);
		if (rc)
			break;
		rc = npukb_case_data_prepare(t, c, SEED_B, dir_b, &b, err, errlen);
		if (rc) {
			npukb_case_data_free(&a);
			break;
		}
		for (k = 0; k < NPUKB_TRIVIAL_COUNT_; k++)
			if (r->passes[k] &&
			    !trivial_passes(t, (enum npukb_trivial)k, &a, &b, &copy_in)) {
				r->passes[k] = 0;
				live--;
			}
		r->cases_checked++;
		npukb_case_data_free(&a);
		npukb_case_data_free(&b);
		npukb_rm_rf(dir_a);
		npukb_rm_rf(dir_b);
	}
	if (rc == 0 && r->passes[NPUKB_TRIVIAL_COPY] && copy_in >= 0)
		snprintf(r->copy_of, sizeof(r->copy_of), "%s", t->tensors[copy_in].name);
	if (r->cases_checked == 0)
		for (k = 0; k < NPUKB_TRIVIAL_COUNT_; k++)
			r->passes[k] = 0; /* nothing was checked: no verdict */
	npukb_rm_rf(dir_a);
	npukb_rm_rf(dir_b);
	free(dir_a);
	free(dir_b);
	free(order);
	return rc;
}

int npukb_lint_flagged(const struct npukb_lint_result *r)
{
	int k;
	for (k = 0; k < NPUKB_TRIVIAL_COUNT_; k++)
		if (r->passes[k] && !r->allowed[k])
			return 1;
	return 0;
}
