/* question.c - the host+device question of a task (see question.h). */
#include "question.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sections of the kernel-only question that only hold in kernel-only
 * mode: the host+device question writes its own. */
static const char *const kernel_only_sections[] = {
	"Tiling data", "Launch and hardware", "What to answer", NULL,
};

static int kernel_only_section(const char *title, size_t len)
{
	size_t i;

	for (i = 0; kernel_only_sections[i]; i++)
		if (strlen(kernel_only_sections[i]) == len && strncmp(title, kernel_only_sections[i], len) == 0)
			return 1;
	return 0;
}

/* Attributes a tensor carries (distribution kind="attr") reach the kernel
 * as that tensor, not as an operator attribute. */
static int attr_in_tensor(const struct npukb_task *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ntensors; i++)
		if (t->tensors[i].dist.kind == NPUKB_DIST_ATTR && t->tensors[i].dist.attr &&
		    strcmp(t->tensors[i].dist.attr, name) == 0)
			return 1;
	return 0;
}

/* The dtypes tensor i takes over the cases, comma-separated. */
static void tensor_dtypes(const struct npukb_task *t, size_t i, char *buf, size_t len)
{
	size_t k, n = 0;

	buf[0] = '\0';
	for (k = 0; k < t->ncases; k++) {
		enum npukb_dtype dt;
		char err[128], item[40];
		const char *name;

		if (npukb_case_tensor_dtype(t, &t->cases[k], t->tensors[i].name, &dt, err, sizeof err) != 0)
			continue;
		name = npukb_dtype_name(dt);
		snprintf(item, sizeof item, "`%s`", name ? name : "?");
		if (strstr(buf, item))
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? ", " : "", item);
	}
}

/* 1 when parameter p carries an in-place tensor an earlier one carries. */
static int inout_repeat(const struct npukb_task *t, size_t p)
{
	for (size_t q = 0; q < p; q++)
		if (t->params[q].role == NPUKB_PARAM_INOUT &&
		    strcmp(npukb_param_tensor(&t->params[q]), npukb_param_tensor(&t->params[p])) == 0)
			return 1;
	return 0;
}

static void write_tensors(FILE *f, const struct npukb_task *t, int outputs)
{
	size_t p;
	char dtypes[512];

	for (p = 0; p < t->nparams; p++) {
		const struct npukb_param *pa = &t->params[p];
		size_t i;

		/* An in-place tensor is an input of the OpDef, and an output
		 * too where the kernel takes it a second time (var, varOut). */
		if (pa->role == NPUKB_PARAM_INOUT) {
			if (inout_repeat(t, p) != outputs)
				continue;
		} else if (pa->role != (outputs ? NPUKB_PARAM_OUTPUT : NPUKB_PARAM_INPUT)) {
			continue;
		}
		for (i = 0; i < t->ntensors; i++)
			if (strcmp(t->tensors[i].name, npukb_param_tensor(pa)) == 0)
				break;
		if (i == t->ntensors)
			continue;
		tensor_dtypes(t, i, dtypes, sizeof dtypes);
		fprintf(f, "- `%s`: %s%s%s%s\n", pa->name, dtypes[0] ? dtypes : "(no case)",
			t->tensors[i].is_list ? " (a tensor list: `DYNAMIC` in the OpDef)" : "",
			t->tensors[i].is_optional
				? " (optional: `OPTIONAL` in the OpDef; where a case leaves it out the kernel gets a null `GM_ADDR`)"
				: "",
			pa->role == NPUKB_PARAM_INOUT ? " (updated in place)" : "");
	}
}

static void write_operator_section(FILE *f, const struct npukb_task *t)
{
	size_t i, nattr = 0;

	fprintf(f, "## Operator\n\n"
		   "Operator type `%s` (register it with `OP_ADD(%s)`); kernel function `%s`.\n\n"
		   "Inputs, in this order (with the dtypes the cases use):\n\n",
		t->name, t->name, t->kernel_name);
	write_tensors(f, t, 0);
	fputs("\nOutputs:\n\n", f);
	write_tensors(f, t, 1);
	for (i = 0; i < t->nattrs; i++) {
		const char *type = t->attrs[i].type;

		if (attr_in_tensor(t, t->attrs[i].name))
			continue;
		if (nattr++ == 0)
			fputs("\nAttributes (declare them with `Attr(...)` in the OpDef; the tiling\n"
			      "function reads them with `GetAttrs()`):\n\n", f);
		fprintf(f, "- `%s`: %s\n", t->attrs[i].name,
			strcmp(type, "dtype") == 0 ? "int (a ge::DataType value)" : type);
	}
	fputc('\n', f);
}

/* The launch section for a vector kernel (AIV) or, when the kernel-only
 * question targets the cube (AIC), for a cube kernel: its core count and
 * buffers differ, and a cube task told "vector cores, 48" would size its
 * blocks and tiles wrongly. */
static void write_target(FILE *f, int cube)
{
	if (cube)
		fputs("- Target: Ascend 910B (`ascend910b` in `AddConfig`), AI cores with the cube\n"
		      "  unit (AIC) for the matrix products. Your tiling function chooses the\n"
		      "  number of blocks (`SetBlockDim`); ask\n"
		      "  `platform_ascendc::PlatformAscendC(context->GetPlatformInfo())` for the\n"
		      "  core count (`GetCoreNumAic()`: 24) and the buffer sizes\n"
		      "  (`GetCoreMemSize(platform_ascendc::CoreMemType::L1, ...)`: 512 KiB; L0_A and\n"
		      "  L0_B: 64 KiB; L0_C: 128 KiB; UB: 192 KiB).\n"
		      "- Everything a core allocates with `TPipe::InitBuffer` must fit in the buffer\n"
		      "  of its position (L1, L0A, L0B, L0C, UB); UB buffers and `DataCopy` lengths\n"
		      "  must be multiples of 32 bytes (use `DataCopyPad` or padding for tails).\n",
		      f);
	else
		fputs("- Target: Ascend 910B (`ascend910b` in `AddConfig`), vector cores (AIV).\n"
		      "  Your tiling function chooses the number of blocks (`SetBlockDim`); ask\n"
		      "  `platform_ascendc::PlatformAscendC(context->GetPlatformInfo())` for the\n"
		      "  core count (`GetCoreNumAiv()`: 48) and the UB size\n"
		      "  (`GetCoreMemSize(platform_ascendc::CoreMemType::UB, ...)`: 192 KiB).\n"
		      "- Everything a core allocates with `TPipe::InitBuffer` must fit in its UB;\n"
		      "  UB buffers and `DataCopy` lengths must be multiples of 32 bytes (use\n"
		      "  `DataCopyPad` or padding for tails).\n",
		      f);
}

static void write_hostdev_sections(FILE *f, const struct npukb_task *t, int cube)
{
	char macro[64] = "X";
	const char *first = t->nparams && t->params[0].name ? t->params[0].name : "x";
	size_t i;

	for (i = 0; first[i] && i + 1 < sizeof macro; i++)
		macro[i] = (first[i] >= 'a' && first[i] <= 'z') ? (char)(first[i] - 'a' + 'A') : first[i];
	macro[i] = '\0';
	fputs("## Launch and hardware\n\n", f);
	write_target(f, cube);
	fprintf(f,
		"- The kernel is compiled once for each dtype combination of the cases, with\n"
		"  `DTYPE_<TENSOR>` (the tensor's name in capitals, e.g. `DTYPE_%s`) naming\n"
		"  each tensor's element type; or choose a tiling key per dtype with\n"
		"  `SetTilingKey` and test it with `TILING_KEY_IS`.\n"
		"- Set the workspace size with `GetWorkspaceSizes(1)[0]` (0 when none is needed).\n\n",
		macro);
	fprintf(f,
		"## What to answer\n\n"
		"A custom operator project as CANN's `msopgen` lays it out:\n\n"
		"- `op_host/%s_tiling.h`: your tiling data, declared with\n"
		"  `BEGIN_TILING_DATA_DEF` / `TILING_DATA_FIELD_DEF` / `END_TILING_DATA_DEF`\n"
		"  and registered with `REGISTER_TILING_DATA_CLASS(%s, <your struct>)`.\n"
		"- `op_host/%s.cpp`: the tiling function (`gert::TilingContext`: input\n"
		"  shapes and dtypes, attributes; fill the tiling data, `SaveToBuffer` into\n"
		"  `GetRawTilingData()`, `SetDataSize`, `SetBlockDim`, the workspace size)\n"
		"  and the operator definition (`OpDef` with the inputs, outputs and\n"
		"  attributes above, `AICore().SetTiling(...)`, `OP_ADD(%s)`).\n"
		"- `op_kernel/%s.cpp`: the kernel function above; it reads its tiling with\n"
		"  `GET_TILING_DATA(tilingData, tiling)`.\n\n"
		"Do not hard-code the shapes: the tiling function reads them from the context.\n\n",
		t->kernel_name, t->name, t->kernel_name, t->name, t->kernel_name);
}

/* Writes [p, end) with every `from` replaced by `to`. */
static void write_replacing(FILE *f, const char *p, const char *end, const char *from, const char *to)
{
	size_t fl = strlen(from);

	while (p < end) {
		const char *hit = memmem(p, (size_t)(end - p), from, fl);
		if (!hit) {
			fwrite(p, 1, (size_t)(end - p), f);
			return;
		}
		fwrite(p, 1, (size_t)(hit - p), f);
		fputs(to, f);
		p = hit + fl;
	}
}

int npukb_question_hostdev(const struct npukb_task *t, const char *kernel_md, char **out,
			   char *err, size_t errlen)
{
	const char *p = kernel_md, *first_section, *nl;
	char *buf = NULL;
	size_t size = 0;
	FILE *f;

	*out = NULL;
	if (!t->name || !t->kernel_name) {
		snprintf(err, errlen, "%s: the manifest names no task or kernel", t->id ? t->id : "?");
		return -EINVAL;
	}
	first_section = strstr(kernel_md, "\n## ");
	if (strncmp(kernel_md, "# ", 2) != 0 || !first_section) {
		snprintf(err, errlen, "%s: question-kernel.md has no '# ' title or no '## ' section", t->id);
		return -EINVAL;
	}
	f = open_memstream(&buf, &size);
	if (!f)
		return -errno;

	/* Title and introduction, restated for an operator project. */
	nl = strchr(p, '\n');
	fprintf(f, "# %s (host and device)\n", t->name);
	p = nl + 1;
	while (p < first_section + 1) {
		static const char ask[] = "Write an AscendC kernel for this operator:";
		nl = strchr(p, '\n');
		if (!nl || nl > first_section)
			nl = first_section;
		if ((size_t)(nl - p) == sizeof(ask) - 1 && strncmp(p, ask, sizeof(ask) - 1) == 0)
			fputs("Write an AscendC custom operator (op_host and op_kernel) for this operator:", f);
		else
			fwrite(p, 1, (size_t)(nl - p), f);
		fputc('\n', f);
		p = nl + 1;
	}
	write_operator_section(f, t);

	/* The kernel-only sections that hold in both modes, in their order;
	 * the host+device ones go before "Cases" (or at the end). */
	p = first_section + 1;
	int wrote_hostdev = 0;
	int cube = strstr(kernel_md, "cube unit (AIC)") != NULL;
	while (*p) {
		const char *title = p + 3, *end = strstr(p, "\n## ");
		size_t tlen = strcspn(title, "\n");

		end = end ? end + 1 : p + strlen(p);
		if (!wrote_hostdev && tlen == 5 && strncmp(title, "Cases", 5) == 0) {
			write_hostdev_sections(f, t, cube);
			wrote_hostdev = 1;
		}
		if (!kernel_only_section(title, tlen)) {
			if (tlen == 16 && strncmp(title, "Kernel signature", 16) == 0) {
				/* Same function in both modes; its tiling is the sample's own. */
				fputs("## Kernel function\n", f);
				write_replacing(f, title + tlen + 1, end, "the tiling data described below",
						"the tiling data your tiling function saved");
			} else {
				fwrite(p, 1, (size_t)(end - p), f);
			}
		}
		p = end;
	}
	if (!wrote_hostdev)
		write_hostdev_sections(f, t, cube);
	if (fclose(f) != 0) {
		free(buf);
		return -ENOMEM;
	}
	*out = buf;
	return 0;
}
