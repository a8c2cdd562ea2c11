/* extract.h - the code in a model's response, and the records that carry
 * responses (private).
 *
 * Rules, in order (README, "Importing model responses"):
 *  1. NPUKernelBench's kernel-only form: the first <kernel_impl>...</kernel_impl>;
 *     a fenced block inside it is taken without its fence lines.
 *  2. NPUKernelBench's host+device form: lines "=== op_host/NAME ===" or
 *     "=== op_kernel/NAME ===" (any run of '='), each followed by a fenced
 *     block: one file per line, at that path in the sample folder.
 *  3. The first fenced block whose language is C or C++ (c, cpp, c++, cc,
 *     cxx, h, hpp, hxx, any case) or unlabelled.
 *  4. Otherwise no code, with the reason.
 * CRLF line ends are read as LF. An unterminated fence runs to the end of
 * the response (a response cut by a token limit keeps what it has, and the
 * compiler says what is missing). Nothing here touches the disk. */
#ifndef NPUKB_EXTRACT_H
#define NPUKB_EXTRACT_H

#include <stddef.h>

enum npukb_extract_form {
	NPUKB_EXTRACT_NONE = 0,     /* no code: see reason */
	NPUKB_EXTRACT_KERNEL_IMPL,  /* rule 1 */
	NPUKB_EXTRACT_FILE_HEADERS, /* rule 2 */
	NPUKB_EXTRACT_FENCE,        /* rule 3 */
};

struct npukb_extracted_file {
	char *path; /* relative to the sample folder; NULL: the kernel-only source */
	char *text;
};

struct npukb_extraction {
	enum npukb_extract_form form;
	size_t nfiles;
	struct npukb_extracted_file *files; /* owned */
	const char *reason;                 /* static text when form is NONE */
};

/* Extract the code of text[0, len) (NUL bytes allowed) into out. Returns 0
 * (out->form NONE when there is no code), -ENOMEM. */
int npukb_extract(const char *text, size_t len, struct npukb_extraction *out);
void npukb_extraction_free(struct npukb_extraction *x);
const char *npukb_extract_form_name(enum npukb_extract_form f);

/* 1 when rel is a safe file path inside a sample folder: relative, made of
 * [A-Za-z0-9._-] components separated by single '/', no "." or ".."
 * component, at most 3 components and 200 bytes. */
int npukb_sample_path_is_safe(const char *rel);

/* A folder name made from s: characters outside [A-Za-z0-9._-] become '_',
 * at most 64 bytes, never empty, ".", ".." or starting with '.'. Owned by
 * the caller; NULL on ENOMEM. */
char *npukb_safe_name(const char *s);

/* One JSONL record of a response. Field names (first one present wins):
 * task "task_id" | "task"; model "model"; sample "sample_id" | "sample";
 * text "response" | "completion". Strings are owned. */
struct npukb_response_record {
	char *task;
	char *model;  /* NULL when the record has none */
	char *sample; /* NULL when the record has none (numbers are taken too) */
	char *text;
};

/* Parse one line. Returns 0; -EINVAL with err saying what is wrong (not a
 * JSON object, no task, no response text); -ENOMEM. */
int npukb_response_parse(const char *line, struct npukb_response_record *out, char *err,
			 size_t errlen);
void npukb_response_record_free(struct npukb_response_record *r);

/* NPUKernelBench's saved generation (<run>/.../log/NAME_code_gen_prompt.json,
 * one JSON object): the text it extracts from, reasoning_content, a
 * newline, then gen_content (its task_object.py reads them so). *text is
 * owned by the caller. Returns 0, -EINVAL (err says why), -ENOMEM. */
int npukb_run_prompt_parse(const char *json, char **text, char *err, size_t errlen);

#endif
