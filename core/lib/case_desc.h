/* case_desc.h - a case in a few words, for report names: the dtype and
 * shape of the task's first input ("float16 48x128x512") (private). */
#ifndef NPUKB_CASE_DESC_H
#define NPUKB_CASE_DESC_H

#include <stddef.h>
#include <npukb/task.h>

/* Writes case c's description into buf: the first input tensor the case
 * has (inputs and in-place tensors, in declaration order, absent optional
 * ones skipped), its dtype then its dims joined by 'x' ("scalar" for rank
 * 0); a list tensor is "<dtype> list-of-N <first member's dims>". 0, or
 * -EINVAL with buf "" when the case has no such tensor or it cannot be
 * resolved; the text is cut to fit len. */
int npukb_case_describe(const struct npukb_task *t, const struct npukb_case *c, char *buf,
			size_t len);

/* Every case of t described, joined by ';' (NPUKB_CASE_DESC_SEP); a case
 * without a description is an empty field. malloc'd; NULL on no memory. */
#define NPUKB_CASE_DESC_SEP ';'
char *npukb_case_describe_all(const struct npukb_task *t);

#endif
