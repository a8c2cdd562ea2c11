/* npukb/task.h - the task model: what a manifest (levels/.../task.xml) says.
 *
 * A task is one operator to implement; a case is one concrete configuration
 * of it. All strings and arrays in these structs are owned by the task and
 * released by npukb_task_free(). Plugins read tasks; only the core builds them. */
#ifndef NPUKB_TASK_H
#define NPUKB_TASK_H

#include <stddef.h>
#include <stdint.h>
#include <npukb/dtype.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NPUKB_MAX_DIMS 8

struct npukb_shape {
	int rank;
	int64_t dims[NPUKB_MAX_DIMS];
};

/* Number of elements of a shape (1 for rank 0). */
size_t npukb_shape_numel(const struct npukb_shape *s);

/* Role of one kernel parameter, in the kernel's parameter order. */
enum npukb_param_role {
	NPUKB_PARAM_INPUT = 1,
	NPUKB_PARAM_OUTPUT,
	NPUKB_PARAM_WORKSPACE,
	NPUKB_PARAM_TILING,
	/* A tensor the kernel updates in place (Sscal's x, ScatterList's var):
	 * generated like an input, compared like an output. Several parameters
	 * may carry the same in-place tensor (CANN passes var and varOut). */
	NPUKB_PARAM_INOUT,
	/* A value passed by value (a kernel-launch project's `uint32_t
	 * totalLength`): its type and value, an expression over the case,
	 * as a tiling field's. The backend hands over its bytes, laid out
	 * as a one-field struct. */
	NPUKB_PARAM_SCALAR
};

struct npukb_tiling_field;

struct npukb_param {
	char *name;   /* as in the kernel's signature */
	enum npukb_param_role role;
	char *tensor; /* inputs/outputs/inout: the tensor it carries (the name,
		       * unless the manifest's tensor="..." says otherwise);
		       * NULL means the name */
	/* NPUKB_PARAM_SCALAR: the value's type and expression, named after
	 * the parameter (owned); NULL for every other role. */
	struct npukb_tiling_field *scalar;
};

static inline const char *npukb_param_tensor(const struct npukb_param *p)
{
	return p->tensor ? p->tensor : p->name;
}

enum npukb_dist_kind {
	NPUKB_DIST_UNIFORM = 1, /* a..b */
	NPUKB_DIST_NORMAL,      /* mean a, stddev b */
	NPUKB_DIST_INTEGER,     /* integers a..b inclusive */
	NPUKB_DIST_BOOL,        /* true with probability a */
	NPUKB_DIST_ATTR,        /* every element = the case's value of attribute `attr`;
				 * a list value ("1 0 1", "[True, False]") gives element i
				 * its i-th entry */
	NPUKB_DIST_SLICES,      /* rows of (start, length): length in 1..b, start in
				 * 0..b-length, so start + length <= b */
	NPUKB_DIST_DERIVED      /* made by a named function (derive.h) from another
				 * input's data (from) or from a draw the function
				 * defines (a..b, count) */
};

struct npukb_dist {
	enum npukb_dist_kind kind;
	double a, b;
	/* Uniform/normal/integer: probability that an element is replaced by a
	 * special value (+inf, -inf, NaN, +0, -0, a denormal of the dtype);
	 * 0 for none. Integer dtypes have no special values. */
	double special;
	/* NPUKB_DIST_ATTR: name of an int or float attribute (owned). Scalar
	 * operands the kernel reads from GM (Muls' value, Arange's bounds) take
	 * the case's published value this way. */
	char *attr;
	/* Integer/slices bounds given as expressions over the case (the tiling
	 * expression language, e.g. "dim(x, axis) - 1"), evaluated per case;
	 * NULL when the literal a/b apply. Owned. */
	char *a_expr, *b_expr;
	/* Name of a bool attribute: when a case sets it, one to three elements
	 * of one tensor (of one list member) become +inf, -inf or NaN, and when
	 * it is false none do. NULL for none. Owned. */
	char *plant_nonfinite;
	/* NPUKB_DIST_DERIVED: the function's name, the input it reads (NULL
	 * when it reads none; declared before this one) and the count
	 * expression over the case (NULL when the function takes none), all
	 * owned; a..b are the literal bounds a function may use. */
	char *derive_fn, *from, *count_expr;
};

struct npukb_tensor_decl {
	char *name;
	int is_output; /* also set for in-place tensors: they are compared */
	/* Either a dtype name, or "$dtype" for the case's dtype. */
	char *dtype;
	/* NULL when each case gives this tensor's shape; otherwise the name of
	 * the tensor whose shape it has. */
	char *shape_of;
	struct npukb_dist dist; /* inputs only */
	int line;
	int is_inout;  /* <inout>: generated like an input, then updated in place */
	/* list="true": a tensor list (CANN's dynamic input, ListTensorDesc on
	 * the kernel side); each case gives its members' shapes. */
	int is_list;
	/* optional="true" (inputs only): a case may leave it out (<absent>);
	 * the kernel then receives a null GM_ADDR, as CANN passes an absent
	 * OPTIONAL input. */
	int is_optional;
};

struct npukb_attr_decl {
	char *name;
	char *type; /* "int", "float", "bool", "string", "dtype" */
};

struct npukb_tiling_field {
	char *name;
	enum npukb_dtype type; /* int32, uint32 (as INT32 with is_unsigned), int64, float32 */
	int is_unsigned;
	/* Integer expression over the case: literals, + - * / %, parentheses,
	 * numel(t), dim(t,i), rank(t), prod(t,from,to) (product of dims
	 * from..to-1, negative indices from the end), count(t) (members of a
	 * list tensor), min, max, ceil_div, blockdim, and attribute names. */
	char *expr;
};

struct npukb_named_shape {
	char *tensor;
	struct npukb_shape shape;
	/* List tensors: the members' shapes (owned); shape is unused. */
	size_t nmembers;
	struct npukb_shape *members;
};

struct npukb_attr_value {
	char *name;
	char *value; /* as written in the manifest */
};

struct npukb_golden {
	char *tensor;
	char *path; /* resolved, inside the task's folder (owned) */
	int line;
};

struct npukb_case {
	char *id;
	enum npukb_dtype dtype; /* substituted for "$dtype" */
	size_t nshapes;
	struct npukb_named_shape *shapes;
	size_t nattrs;
	struct npukb_attr_value *attrs;
	int line; /* manifest line, for messages */
	/* Optional inputs this case leaves out (names owned). */
	size_t nabsent;
	char **absent;
	/* <golden tensor="y" file="y.npy"/>: tensors whose data this case
	 * takes from .npy files: an input's values, an output's expected
	 * result (no reference is called for the case then). */
	size_t ngolden;
	struct npukb_golden *golden;
};

struct npukb_tolerance {
	char *rule; /* "default", "rel-max1", "rel-max1-ulp", "gemm", "ratio", "quant-int8" */
	double atol, rtol; /* < 0 when the rule's defaults apply */
};

struct npukb_task {
	char *id;        /* "level1/Math/AddCustom" */
	int level;
	char *category;
	char *name;
	char *summary;
	char *dir;           /* folder holding task.xml */
	char *manifest_path;
	char *kernel_name;   /* extern "C" symbol of the kernel */

	size_t nparams;
	struct npukb_param *params;
	size_t ntensors;
	struct npukb_tensor_decl *tensors;
	size_t nattrs;
	struct npukb_attr_decl *attrs;

	/* Kernel-only mode: what the framework passes as the tiling argument. */
	char *tiling_struct; /* C struct name the kernel reads (GET_TILING_DATA) */
	int block_dim;       /* blocks launched in kernel-only mode (<tiling>'s
			      * block-dim, or <launch>'s for a kernel that
			      * takes no tiling); 0 when the manifest gives none */
	size_t ntiling;
	struct npukb_tiling_field *tiling;

	struct npukb_tolerance tolerance;
	char *reference; /* a function's name: built in, or in reference_plugin;
			  * NULL when every case names golden files */
	/* <reference plugin="NAME">: the reference plugin NAME.so (in the
	 * task's folder, else the plugin search path) that exports the
	 * function; NULL for npukb's built-in references. */
	char *reference_plugin;
	int reference_line; /* manifest line of <reference>, 0 without one */

	size_t ncases;
	struct npukb_case *cases;

	/* <lint allow="zeros copy constant" why="..."/>: trivial outputs the
	 * operator itself produces (Fill is a constant), or NULL. */
	char *lint_allow;
	char *lint_why;
};

void npukb_task_free(struct npukb_task *t);

const struct npukb_tensor_decl *npukb_task_tensor(const struct npukb_task *t,
						  const char *name);
/* Index into t->tensors, or -1. */
int npukb_task_tensor_index(const struct npukb_task *t, const char *name);
const char *npukb_case_attr(const struct npukb_case *c, const char *name);

/* Parse a list attribute value: numbers or true/false, separated by white
 * space or commas, optionally in brackets ("1 0 1", "[True, False]").
 * Stores up to max values in out (may be NULL) and returns how many there
 * are, or -1 when the text is not such a list. */
long npukb_attr_list_parse(const char *text, double *out, size_t max);

/* 1 when case c leaves out the optional input `name` (<absent>), else 0. */
int npukb_case_tensor_absent(const struct npukb_case *c, const char *name);

/* The golden file case c names for tensor `name`, or NULL. */
const struct npukb_golden *npukb_case_golden(const struct npukb_case *c, const char *name);

/* Resolve the dtype and shape tensor `name` has in case c. Return 0, or a
 * negative errno value with a message in err (the shape of a tensor the
 * case leaves out, or one taking its shape, is such an error). */
int npukb_case_tensor_dtype(const struct npukb_task *t, const struct npukb_case *c,
			    const char *name, enum npukb_dtype *out,
			    char *err, size_t errlen);
int npukb_case_tensor_shape(const struct npukb_task *t, const struct npukb_case *c,
			    const char *name, struct npukb_shape *out,
			    char *err, size_t errlen);

/* A list tensor's members are stored one after another in one buffer, each
 * starting at a multiple of NPUKB_LIST_ALIGN bytes as device allocations
 * do. npukb_case_tensor_shape gives a list tensor the flat shape of that
 * buffer; this gives its members' shapes (borrowed from the case) and their
 * element offsets in it (offsets: nmembers entries, malloc'd, or NULL when
 * not wanted). A tensor that is not a list has one member, its shape. */
#define NPUKB_LIST_ALIGN 512
int npukb_case_tensor_members(const struct npukb_task *t, const struct npukb_case *c,
			      const char *name, size_t *nmembers,
			      const struct npukb_shape **members, size_t **offsets,
			      char *err, size_t errlen);

/* Evaluate a tiling expression for case c (see npukb_tiling_field). */
int npukb_tiling_eval(const struct npukb_task *t, const struct npukb_case *c,
		      const char *expr, int64_t *out, char *err, size_t errlen);

/* A float32 tiling field: the case's value of a float attribute when the
 * expression is just that attribute's name (Sscal's alpha), else the
 * integer expression's value. */
int npukb_tiling_eval_float(const struct npukb_task *t, const struct npukb_case *c,
			    const char *expr, double *out, char *err, size_t errlen);

/* C/C++ source declaring the kernel-only tiling struct (fields in manifest
 * order, the layout npukb_case_data packs), for backends to put in front of
 * a kernel: in kernel-only mode the framework provides the struct, as CANN
 * generates it from the op_host's tiling definition. *out is malloc'd. */
int npukb_tiling_struct_source(const struct npukb_task *t, char **out);

#ifdef __cplusplus
}
#endif
#endif
