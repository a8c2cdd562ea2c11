/* op_project.h - what ascend-hostdev generates from a task manifest: the
 * msopgen operator description (op.json) and the program that calls the
 * built operator through its aclnn two-phase API.
 *
 * The operator's parameters are the manifest's kernel tensors in kernel
 * parameter order (CANN binds OpDef inputs and outputs to the kernel's
 * GM_ADDR parameters in that order): inputs and in-place tensors as
 * inputs, then outputs; a list tensor is a dynamic input (an
 * aclTensorList), an optional one an optional input (nullptr when a case
 * leaves it out). Attributes follow, in manifest order, between inputs and
 * outputs in the aclnn call, as the generated aclnn headers order them.
 *
 * The aclnn program's command line (argument order = the operator's):
 *   npukb_aclnn [--stats FILE --warmup W --runs R] ARG... | --health
 *   ARG: in=T | inout=T | out=T | attr=VALUE
 *   T:   PATH:ACLDTYPE:MEMBER[;MEMBER...]   (PATH "-": an absent optional input)
 *   MEMBER: d0,d1,...@OFFSET   (dims; element offset of the member in the file)
 * Exit status as the ascend-device launch program's (host_program.h). */
#ifndef NPUKB_OP_PROJECT_H
#define NPUKB_OP_PROJECT_H

#include <stddef.h>

#include <npukb/task.h>

enum npukb_op_role { NPUKB_OP_IN, NPUKB_OP_INOUT, NPUKB_OP_OUT };

struct npukb_op_param {
	const struct npukb_tensor_decl *tensor;
	enum npukb_op_role role;
};

/* The operator's tensors in aclnn order (inputs, then outputs). Returns
 * how many (at most max), or -EINVAL with a message (a parameter's tensor
 * is not declared, none at all). */
int npukb_op_params(const struct npukb_task *t, struct npukb_op_param *out, size_t max,
		    char *err, size_t errlen);

/* 1 when the manifest's attribute a is one of the operator's attributes;
 * 0 when it only shapes the generated data (a tensor takes its values
 * from it, as GatherV3's axis input, or it plants non-finite values, as
 * NonFiniteCheckOp's contains_non_finite): those reach the operator as
 * tensors, or not at all. */
int npukb_op_attr_is_operator(const struct npukb_task *t, const struct npukb_attr_decl *a);

/* Operator type (the task's name, CamelCase) and the snake_case name of
 * its aclnn header (AddCustom -> add_custom: aclnn_add_custom.h). */
int npukb_op_names(const struct npukb_task *t, char *op_type, size_t tlen, char *snake,
		   size_t slen, char *err, size_t errlen);

/* ACL's aclDataType number of a dtype (ACL_FLOAT16 = 1 ...), or -1. */
int npukb_acl_dtype(enum npukb_dtype dt);

/* op.json for msopgen (malloc'd), or NULL with a reason in err. One format
 * and type entry per dtype combination the task's cases use. */
char *npukb_op_json(const struct npukb_task *t, char *err, size_t errlen);

/* The aclnn program's C++ source (malloc'd), or NULL with a reason
 * (aclnn_program.c). */
char *npukb_aclnn_source(const struct npukb_task *t, char *err, size_t errlen);

/* The program's argument kinds, one letter each, in argument order: i
 * input, l input list, b in place, o output, m output list; I, F, B, S
 * int, float, bool, string attributes. Returns their number, or a negative
 * errno with a reason. */
int npukb_aclnn_kinds(const struct npukb_task *t, char *kinds, size_t len, char *err,
		      size_t errlen);

#endif
