/* hostdev_case.c - writes the case file of host+device mode (see
 * hostdev_case.h for its format). */
#include "hostdev_case.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cpusim_ge_datatype(enum npukb_dtype dt)
{
	/* ge::DataType numbering of CANN's graph types (DT_FLOAT = 0 ...). */
	switch (dt) {
	case NPUKB_DT_FLOAT32: return 0;
	case NPUKB_DT_FLOAT16: return 1;
	case NPUKB_DT_INT8: return 2;
	case NPUKB_DT_INT32: return 3;
	case NPUKB_DT_UINT8: return 4;
	case NPUKB_DT_INT16: return 6;
	case NPUKB_DT_INT64: return 9;
	case NPUKB_DT_BOOL: return 12;
	case NPUKB_DT_COMPLEX64: return 16;
	case NPUKB_DT_BFLOAT16: return 27;
	default: return -1;
	}
}

static const struct npukb_case_tensor *find_tensor(const struct npukb_case_data *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->ntensors; i++)
		if (d->tensors[i].name && strcmp(d->tensors[i].name, name) == 0)
			return &d->tensors[i];
	return NULL;
}

/* A value that fits on one line as one field: no blanks, no line breaks. */
static int one_field(const char *s)
{
	return s && *s && strpbrk(s, " \t\r\n") == NULL;
}

/* A value that fits on the rest of one line: no line breaks. */
static int one_line(const char *s)
{
	return s && strpbrk(s, "\r\n") == NULL;
}

static void write_dims(FILE *f, const struct npukb_shape *s)
{
	int i;

	if (s->rank == 0) {
		fputs("scalar", f);
		return;
	}
	for (i = 0; i < s->rank; i++)
		fprintf(f, "%s%lld", i ? "," : "", (long long)s->dims[i]);
}

/* A tensor list: "list:" then per member its byte offset in the file and
 * its dims, "OFFxD0xD1,OFFxD0..." (a member of rank 0 is just "OFF"). */
static void write_members(FILE *f, const struct npukb_case_tensor *t)
{
	const size_t esize = npukb_dtype_size(t->dtype);

	fputs("list:", f);
	for (size_t m = 0; m < t->nmembers; m++) {
		fprintf(f, "%s%zu", m ? "," : "", t->member_offsets[m] * esize);
		for (int i = 0; i < t->members[m].rank; i++)
			fprintf(f, "x%lld", (long long)t->members[m].dims[i]);
	}
}

/* A list attribute ("1 3 224 224" or "[1, 3]") as one field, the values
 * separated by commas (as the driver parses ListInt/ListFloat). */
static int write_list_attr(FILE *f, const struct npukb_attr_value *a, char *err, size_t errlen)
{
	long n = npukb_attr_list_parse(a->value, NULL, 0);
	double *v;

	if (n < 0) {
		snprintf(err, errlen, "attribute %s: '%s' is not a list of numbers", a->name,
			 a->value ? a->value : "");
		return -EINVAL;
	}
	v = calloc((size_t)n + 1, sizeof(*v));
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	npukb_attr_list_parse(a->value, v, (size_t)n);
	fprintf(f, "attr %s list ", a->name);
	for (long i = 0; i < n; i++)
		fprintf(f, "%s%.17g", i ? "," : "", v[i]);
	fputs(n ? "\n" : "-\n", f);
	free(v);
	return 0;
}

static const char *attr_type(const struct npukb_task *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nattrs; i++)
		if (strcmp(t->attrs[i].name, name) == 0)
			return t->attrs[i].type;
	return NULL;
}

int cpusim_hostdev_write_case(const char *path, const struct npukb_task *t,
			      const struct npukb_case *c, const struct npukb_case_data *d,
			      const char *soc, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	size_t i;
	int rc = 0;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
		return rc;
	}
	for (i = 0; i < t->nparams && rc == 0; i++) {
		const struct npukb_param *p = &t->params[i];
		const struct npukb_case_tensor *ct;

		int as_input = p->role == NPUKB_PARAM_INPUT;

		if (p->role != NPUKB_PARAM_INPUT && p->role != NPUKB_PARAM_OUTPUT &&
		    p->role != NPUKB_PARAM_INOUT)
			continue;
		/* An in-place tensor is the OpDef's input; a second parameter
		 * carrying it (var, varOut) is its output. */
		if (p->role == NPUKB_PARAM_INOUT) {
			as_input = 1;
			for (size_t q = 0; q < i; q++)
				if (t->params[q].role == NPUKB_PARAM_INOUT &&
				    strcmp(npukb_param_tensor(&t->params[q]), npukb_param_tensor(p)) == 0)
					as_input = 0;
		}
		ct = find_tensor(d, npukb_param_tensor(p));
		/* An absent optional input: no instance, a null kernel argument. */
		if (ct && ct->is_absent && as_input && npukb_dtype_name(ct->dtype)) {
			fprintf(f, "input %s %s absent -\n", p->name, npukb_dtype_name(ct->dtype));
			continue;
		}
		if (!ct || !one_field(ct->path) || !npukb_dtype_name(ct->dtype)) {
			snprintf(err, errlen, "tensor %s has no usable file for the case file", p->name);
			rc = -EINVAL;
			break;
		}
		fprintf(f, "%s %s %s ", as_input ? "input" : "output", p->name,
			npukb_dtype_name(ct->dtype));
		if (ct->nmembers > 0)
			write_members(f, ct);
		else
			write_dims(f, &ct->shape);
		fprintf(f, " %s\n", ct->path);
	}
	for (i = 0; c && i < c->nattrs && rc == 0; i++) {
		const struct npukb_attr_value *a = &c->attrs[i];
		const char *type = attr_type(t, a->name);

		if (type && strcmp(type, "list") == 0 && one_field(a->name)) {
			rc = write_list_attr(f, a, err, errlen);
		} else if (type && strcmp(type, "string") == 0 && one_field(a->name) && one_line(a->value)) {
			/* the value is the rest of the line, blanks included; the
			 * empty string has no value field */
			fprintf(f, "attr %s str%s%s\n", a->name, *a->value ? " " : "", a->value);
		} else if (!one_field(a->name) || !one_field(a->value) || !type) {
			snprintf(err, errlen, "attribute %s cannot be written to the case file",
				 a->name ? a->name : "?");
			rc = -EINVAL;
		} else if (strcmp(type, "dtype") == 0) {
			int ge = cpusim_ge_datatype(npukb_dtype_from_name(a->value));
			if (ge < 0) {
				snprintf(err, errlen, "attribute %s: unknown dtype %s", a->name, a->value);
				rc = -EINVAL;
			} else {
				fprintf(f, "attr %s int %d\n", a->name, ge);
			}
		} else {
			fprintf(f, "attr %s %s %s\n", a->name, strcmp(type, "string") == 0 ? "str" : type,
				a->value);
		}
	}
	if (rc == 0 && soc && one_field(soc))
		fprintf(f, "soc %s\n", soc);
	if (fclose(f) != 0 && rc == 0) {
		rc = -EIO;
		snprintf(err, errlen, "cannot write %s", path);
	}
	return rc;
}
