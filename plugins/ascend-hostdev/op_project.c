/* op_project.c - op.json and the aclnn program from a manifest (see
 * op_project.h). */
#include "op_project.h"
#include "../ascend-common/gen_program.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OP_PARAMS 64
#define MAX_COMBOS 64

int npukb_op_params(const struct npukb_task *t, struct npukb_op_param *out, size_t max,
		    char *err, size_t errlen)
{
	size_t n = 0, nplain = 0;

	/* Two passes: inputs (and in-place tensors), then outputs. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < t->nparams; i++) {
			const struct npukb_param *p = &t->params[i];
			const struct npukb_tensor_decl *d;
			enum npukb_op_role role;
			int seen = 0;

			if (p->role == NPUKB_PARAM_INPUT)
				role = NPUKB_OP_IN;
			else if (p->role == NPUKB_PARAM_INOUT)
				role = NPUKB_OP_INOUT;
			else if (p->role == NPUKB_PARAM_OUTPUT)
				role = NPUKB_OP_OUT;
			else
				continue;
			if ((pass == 0) != (role != NPUKB_OP_OUT))
				continue;
			d = npukb_task_tensor(t, npukb_param_tensor(p));
			if (!d) {
				snprintf(err, errlen, "parameter %s carries undeclared tensor %s",
					 p->name, npukb_param_tensor(p));
				return -EINVAL;
			}
			/* CANN passes an in-place tensor twice (var, varOut):
			 * the operator has it once. */
			for (size_t k = 0; k < n; k++)
				seen |= out[k].tensor == d;
			if (seen)
				continue;
			if (n == max) {
				snprintf(err, errlen, "more than %zu operator tensors", max);
				return -EINVAL;
			}
			out[n].tensor = d;
			out[n].role = role;
			n++;
			nplain += role == NPUKB_OP_IN;
		}
	}
	/* Something must come back: an output or an in-place tensor (declared
	 * as an input and copied back [how CANN declares an in-place custom
	 * operator is unconfirmed]). */
	if (n == 0 || nplain == n) {
		snprintf(err, errlen, "task %s has no %s tensor", t->id ? t->id : "?",
			 n == 0 ? "input or output" : "output");
		return -EINVAL;
	}
	return (int)n;
}

int npukb_op_attr_is_operator(const struct npukb_task *t, const struct npukb_attr_decl *a)
{
	for (size_t i = 0; i < t->ntensors; i++) {
		const struct npukb_dist *d = &t->tensors[i].dist;

		if ((d->kind == NPUKB_DIST_ATTR && d->attr && strcmp(d->attr, a->name) == 0) ||
		    (d->plant_nonfinite && strcmp(d->plant_nonfinite, a->name) == 0))
			return 0;
	}
	return 1;
}

int npukb_op_names(const struct npukb_task *t, char *op_type, size_t tlen, char *snake,
		   size_t slen, char *err, size_t errlen)
{
	const char *name = t->name;
	size_t o = 0;

	if (!npukb_gen_is_identifier(name) || !isupper((unsigned char)name[0])) {
		snprintf(err, errlen, "operator type '%s' is not a CamelCase identifier",
			 name ? name : "(none)");
		return -EINVAL;
	}
	snprintf(op_type, tlen, "%s", name);
	/* An underscore before each capital that starts a word: after a lower
	 * case letter or digit, or before a lower case letter after capitals
	 * (ABCDef -> abc_def) [the acronym rule is unconfirmed]. */
	for (size_t i = 0; name[i] && o + 2 < slen; i++) {
		unsigned char c = (unsigned char)name[i];

		if (i > 0 && isupper(c) &&
		    (!isupper((unsigned char)name[i - 1]) ||
		     (name[i + 1] && islower((unsigned char)name[i + 1]))))
			snake[o++] = '_';
		snake[o++] = (char)tolower(c);
	}
	snake[o] = '\0';
	return 0;
}

int npukb_acl_dtype(enum npukb_dtype dt)
{
	switch (dt) {
	case NPUKB_DT_FLOAT32: return 0;
	case NPUKB_DT_FLOAT16: return 1;
	case NPUKB_DT_INT8: return 2;
	case NPUKB_DT_INT32: return 3;
	case NPUKB_DT_UINT8: return 4;
	case NPUKB_DT_INT16: return 6;
	case NPUKB_DT_INT64: return 9;
	case NPUKB_DT_FLOAT64: return 11;
	case NPUKB_DT_BOOL: return 12;
	case NPUKB_DT_BFLOAT16: return 27;
	default: return -1;
	}
}

/* msopgen's type names. */
static const char *json_type(enum npukb_dtype dt)
{
	switch (dt) {
	case NPUKB_DT_FLOAT32: return "float";
	case NPUKB_DT_FLOAT16: return "float16";
	case NPUKB_DT_BFLOAT16: return "bfloat16";
	case NPUKB_DT_FLOAT64: return "double";
	case NPUKB_DT_INT8: return "int8";
	case NPUKB_DT_UINT8: return "uint8";
	case NPUKB_DT_INT16: return "int16";
	case NPUKB_DT_INT32: return "int32";
	case NPUKB_DT_INT64: return "int64";
	case NPUKB_DT_BOOL: return "bool";
	default: return NULL;
	}
}

/* The attribute's type as msopgen and aclnn spell it. */
static int attr_kind(const struct npukb_attr_decl *a, const char **json, const char **cxx)
{
	static const struct {
		const char *ours, *json, *cxx;
	} map[] = {
		{ "int", "int", "int64_t" },
		{ "float", "float", "double" },
		{ "bool", "bool", "bool" },
		{ "string", "string", "char *" },
		/* A dtype attribute reaches the kernel as its enum value. */
		{ "dtype", "int", "int64_t" },
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (a->type && strcmp(a->type, map[i].ours) == 0) {
			*json = map[i].json;
			*cxx = map[i].cxx;
			return 0;
		}
	return -EINVAL;
}

char *npukb_op_json(const struct npukb_task *t, char *err, size_t errlen)
{
	struct npukb_op_param ps[MAX_OP_PARAMS];
	enum npukb_dtype combos[MAX_COMBOS][MAX_OP_PARAMS];
	char op_type[128], snake[160];
	size_t ncombos = 0, nattrs = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int n = npukb_op_params(t, ps, MAX_OP_PARAMS, err, errlen);

	if (n < 0 || npukb_op_names(t, op_type, sizeof op_type, snake, sizeof snake, err, errlen))
		return NULL;
	for (size_t a = 0; a < t->nattrs; a++)
		nattrs += (size_t)npukb_op_attr_is_operator(t, &t->attrs[a]);
	/* The distinct dtype combinations over the cases. */
	for (size_t c = 0; c < t->ncases; c++) {
		enum npukb_dtype row[MAX_OP_PARAMS];
		int dup = 0;

		for (int i = 0; i < n; i++)
			if (npukb_case_tensor_dtype(t, &t->cases[c], ps[i].tensor->name, &row[i], err,
						    errlen) < 0)
				return NULL;
		for (size_t k = 0; k < ncombos && !dup; k++)
			dup = memcmp(combos[k], row, (size_t)n * sizeof row[0]) == 0;
		if (dup)
			continue;
		if (ncombos == MAX_COMBOS) {
			snprintf(err, errlen, "more than %d dtype combinations", MAX_COMBOS);
			return NULL;
		}
		memcpy(combos[ncombos++], row, (size_t)n * sizeof row[0]);
	}
	if (ncombos == 0) {
		snprintf(err, errlen, "task %s has no cases", t->id ? t->id : "?");
		return NULL;
	}
	f = open_memstream(&text, &len);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	fprintf(f, "[\n  {\n    \"op\": \"%s\",\n    \"language\": \"cpp\",\n", op_type);
	for (int out = 0; out < 2; out++) {
		int first = 1;

		fprintf(f, "    \"%s\": [", out ? "output_desc" : "input_desc");
		for (int i = 0; i < n; i++) {
			const struct npukb_tensor_decl *d = ps[i].tensor;

			if ((ps[i].role == NPUKB_OP_OUT) != out)
				continue;
			fprintf(f, "%s\n      {\n        \"name\": \"%s\",\n        \"param_type\": "
				   "\"%s\",\n        \"format\": [",
				first ? "" : ",", d->name,
				d->is_list ? "dynamic" : d->is_optional ? "optional" : "required");
			for (size_t k = 0; k < ncombos; k++)
				fprintf(f, "%s\"ND\"", k ? ", " : "");
			fprintf(f, "],\n        \"type\": [");
			for (size_t k = 0; k < ncombos; k++) {
				const char *ty = json_type(combos[k][i]);

				if (!ty) {
					fclose(f);
					free(text);
					snprintf(err, errlen, "tensor %s: dtype %s has no CANN name",
						 d->name, npukb_dtype_name(combos[k][i]));
					return NULL;
				}
				fprintf(f, "%s\"%s\"", k ? ", " : "", ty);
			}
			fprintf(f, "]\n      }");
			first = 0;
		}
		fprintf(f, "\n    ]%s\n", out && nattrs == 0 ? "" : ",");
	}
	if (nattrs > 0) {
		int first = 1;

		fprintf(f, "    \"attr\": [");
		for (size_t a = 0; a < t->nattrs; a++) {
			const char *json, *cxx;

			if (!npukb_op_attr_is_operator(t, &t->attrs[a]))
				continue;
			if (attr_kind(&t->attrs[a], &json, &cxx) < 0) {
				fclose(f);
				free(text);
				snprintf(err, errlen, "attribute %s has type %s, which msopgen lacks",
					 t->attrs[a].name, t->attrs[a].type ? t->attrs[a].type : "?");
				return NULL;
			}
			fprintf(f, "%s\n      {\n        \"name\": \"%s\",\n        \"param_type\": "
				   "\"required\",\n        \"type\": \"%s\"\n      }",
				first ? "" : ",", t->attrs[a].name, json);
			first = 0;
		}
		fprintf(f, "\n    ]\n");
	}
	fprintf(f, "  }\n]\n");
	if (fclose(f) != 0 || !text) {
		free(text);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return text;
}
