/* hostdev.cpp - cpusim's host+device mode: runs the sample's own op_host
 * tiling function on the case and turns its decisions into the harness's
 * kernel arguments.
 *
 * The case file (plugins/cpusim/hostdev_case.h) lists the inputs and
 * outputs in the kernel's order, the attributes and the SoC. The driver
 * finds the operator the sample registered (OP_ADD), fills a
 * gert::TilingContext (shapes, dtypes, attributes in the OpDef's order,
 * the platform), calls the tiling function, and hands the harness: the
 * block count, the tiling key, the tiling data (written to a file the
 * harness maps like kernel-only tiling) and the workspace, whose first
 * NPUKB_SYS_WORKSPACE bytes are the system part GetUserWorkspace skips.
 * The kernel's arguments are then the tensors in order, the workspace and
 * the tiling, as CANN passes them. Errors in the sample's tiling are
 * reported on stderr with exit status 4 (see npukb_hostdev_args). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "npukb_cpusim/ophost.h"
#include "npukb_cpusim/ophost_platform.h"

namespace {

constexpr int TILING_ERROR_EXIT = 4;

[[noreturn]] void tiling_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] void tiling_error(const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "npukb-cpusim-hostdev: %s\n", msg);
	fflush(stderr);
	_exit(TILING_ERROR_EXIT);
}

struct IoItem {
	bool output;
	std::string name, dtype, path;
	std::vector<int64_t> dims;
};

struct Attr {
	std::string name, type, value;
};

ge::DataType ge_dtype(const std::string &n)
{
	static const struct { const char *name; ge::DataType dt; } map[] = {
		{ "float16", ge::DT_FLOAT16 }, { "float32", ge::DT_FLOAT }, { "bfloat16", ge::DT_BF16 },
		{ "float64", ge::DT_DOUBLE }, { "int8", ge::DT_INT8 }, { "int16", ge::DT_INT16 },
		{ "int32", ge::DT_INT32 }, { "int64", ge::DT_INT64 }, { "uint8", ge::DT_UINT8 },
		{ "bool", ge::DT_BOOL }, { "complex64", ge::DT_COMPLEX64 },
	};
	for (const auto &m : map)
		if (n == m.name)
			return m.dt;
	tiling_error("the case file names an unknown dtype '%s'", n.c_str());
}

std::vector<int64_t> parse_dims(const std::string &s)
{
	std::vector<int64_t> dims;
	if (s == "scalar")
		return dims;
	size_t pos = 0;
	while (pos <= s.size()) {
		size_t end = s.find(',', pos);
		if (end == std::string::npos)
			end = s.size();
		dims.push_back(strtoll(s.substr(pos, end - pos).c_str(), nullptr, 10));
		pos = end + 1;
	}
	return dims;
}

void read_case(const char *path, std::vector<IoItem> &io, std::vector<Attr> &attrs, std::string &soc)
{
	FILE *f = fopen(path, "r");
	if (!f)
		tiling_error("cannot read the case file %s: %s", path, strerror(errno));
	char line[8192];
	while (fgets(line, sizeof line, f)) {
		char kind[16], a[512], b[64], c[4096], d[4096];
		int n = sscanf(line, "%15s %511s %63s %4095s %4095s", kind, a, b, c, d);
		if (n <= 0)
			continue;
		if ((strcmp(kind, "input") == 0 || strcmp(kind, "output") == 0) && n == 5)
			io.push_back(IoItem{ kind[0] == 'o', a, b, d, parse_dims(c) });
		else if (strcmp(kind, "attr") == 0 && n == 4)
			attrs.push_back(Attr{ a, b, c });
		else if (strcmp(kind, "soc") == 0 && n >= 2)
			soc = a;
		else
			tiling_error("case file %s: cannot read line '%s'", path, line);
	}
	fclose(f);
}

const Attr *find_attr(const std::vector<Attr> &attrs, const std::string &name)
{
	for (const Attr &a : attrs)
		if (a.name == name)
			return &a;
	return nullptr;
}

/* The attribute values in the OpDef's declaration order (GetAttrs() index
 * i is the i-th Attr(...)): the case's value, else the declared default. */
void fill_attrs(const ops::OpDef &def, const std::vector<Attr> &given, gert::RuntimeAttrs &out)
{
	for (const ops::OpAttrDef &ad : def.attrs) {
		gert::AttrValue v;
		const Attr *a = find_attr(given, ad.name);
		switch (ad.kind) {
		case ops::AttrKind::FLOAT:
			v.kind = gert::AttrValue::FLOAT;
			v.f = a ? strtof(a->value.c_str(), nullptr) : ad.f;
			break;
		case ops::AttrKind::BOOL:
			v.kind = gert::AttrValue::BOOL;
			v.b = a ? (a->value == "true" || a->value == "1") : ad.b;
			break;
		case ops::AttrKind::STR:
			v.kind = gert::AttrValue::STR;
			v.s = a ? a->value : ad.s;
			break;
		case ops::AttrKind::LIST_INT:
		case ops::AttrKind::LIST_BOOL:
			v.kind = gert::AttrValue::LIST_INT;
			if (a) {
				for (int64_t x : parse_dims(a->value))
					v.li.v.push_back(x);
			} else {
				v.li.v = ad.li;
			}
			break;
		case ops::AttrKind::LIST_FLOAT:
			v.kind = gert::AttrValue::LIST_FLOAT;
			v.lf.v = ad.lf;
			break;
		default:
			v.kind = gert::AttrValue::INT;
			v.i = a ? strtoll(a->value.c_str(), nullptr, 10) : ad.i;
			break;
		}
		out.attrs.push_back(v);
	}
}

} // namespace

/* Runs the tiling and appends the kernel's arguments to args (ROLE=VALUE,
 * as the harness's command line takes them). */
extern "C" void npukb_hostdev_args(const char *case_path, uint64_t *blocks, uint64_t *tiling_key,
				   std::vector<std::string> *args)
{
	std::vector<IoItem> io;
	std::vector<Attr> given;
	std::string soc = "ascend910b";
	read_case(case_path, io, given, soc);
	platform_ascendc::npukb_current_soc() = soc;

	ops::Registry &reg = ops::Registry::get();
	if (reg.factories.empty())
		tiling_error("the op_host sources register no operator (no OP_ADD)");
	std::unique_ptr<ops::OpDef> def;
	ops::TilingFunc tiling;
	for (auto &make : reg.factories) {
		std::unique_ptr<ops::OpDef> d(make());
		ops::TilingFunc f = d->aicore.tiling;
		auto impl = reg.impls.find(d->type);
		if (!f && impl != reg.impls.end())
			f = impl->second.tiling;
		if (f) {
			def = std::move(d);
			tiling = f;
			break;
		}
	}
	if (!def)
		tiling_error("no registered operator has a tiling function (AICore().SetTiling or IMPL_OP_OPTILING)");

	auto ctx = std::make_unique<gert::TilingContext>();
	ctx->io.node.name = def->type;
	ctx->io.node.type = def->type;
	ctx->io.platform.soc = soc;
	for (const IoItem &it : io) {
		gert::Tensor t;
		gert::Shape s;
		for (int64_t d : it.dims)
			s.AppendDim(d);
		t.shape = gert::StorageShape(s);
		t.dtype = ge_dtype(it.dtype);
		gert::CompileTimeTensorDesc desc;
		desc.dtype = t.dtype;
		(it.output ? ctx->io.outputs : ctx->io.inputs).push_back(t);
		(it.output ? ctx->io.out_desc : ctx->io.in_desc).push_back(desc);
	}
	fill_attrs(*def, given, ctx->io.attrs);

	const ge::graphStatus st = tiling(ctx.get());
	if (st != ge::GRAPH_SUCCESS)
		tiling_error("the tiling function of %s returned %u (not GRAPH_SUCCESS)", def->type.c_str(),
			     (unsigned)st);
	if (ctx->block_dim == 0)
		tiling_error("the tiling function of %s set no block dim (SetBlockDim)", def->type.c_str());
	if (ctx->block_dim > 65535)
		tiling_error("the tiling function of %s set block dim %u (at most 65535)", def->type.c_str(),
			     ctx->block_dim);
	const size_t tiling_bytes = ctx->raw.GetDataSize();
	if (tiling_bytes > ctx->raw.GetCapacity())
		tiling_error("the tiling data of %s is %zu bytes, more than the %zu-byte buffer", def->type.c_str(),
			     tiling_bytes, ctx->raw.GetCapacity());
	size_t ws = 0;
	for (size_t i = 0; i < ctx->GetWorkspaceNum(); i++)
		ws += ctx->ws[i];

	FILE *tf = fopen("hostdev_tiling.bin", "wb");
	if (!tf || (tiling_bytes && fwrite(ctx->raw.GetData(), 1, tiling_bytes, tf) != tiling_bytes) ||
	    fclose(tf) != 0)
		tiling_error("cannot write the tiling data: %s", strerror(errno));

	*blocks = ctx->block_dim;
	*tiling_key = ctx->tiling_key;
	for (const IoItem &it : io)
		args->push_back(std::string(it.output ? "out=" : "in=") + it.path);
	args->push_back("ws=" + std::to_string(ws));
	args->push_back("tiling=hostdev_tiling.bin");
}
