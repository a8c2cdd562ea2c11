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
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "npukb_cpusim/fp16.h"
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
	bool output = false;
	std::string name, dtype, path;
	std::vector<int64_t> dims;
	/* A tensor list: its members' byte offsets and dims ("list:" form). */
	bool list = false;
	/* An optional input the case leaves out ("absent"): no instance. */
	bool absent = false;
	/* The output-shape buffer (see has_shape_buffer): no instance. */
	bool shape_buffer = false;
	std::string list_spec;
	std::vector<std::vector<int64_t>> members;
	std::vector<uint64_t> member_off; /* byte offsets in the file */
};

struct Attr {
	std::string name, type, value;
};

const struct { const char *name; ge::DataType dt; } dtype_names[] = {
	{ "float16", ge::DT_FLOAT16 }, { "float32", ge::DT_FLOAT }, { "bfloat16", ge::DT_BF16 },
	{ "float64", ge::DT_DOUBLE }, { "int8", ge::DT_INT8 }, { "int16", ge::DT_INT16 },
	{ "int32", ge::DT_INT32 }, { "int64", ge::DT_INT64 }, { "uint8", ge::DT_UINT8 },
	{ "uint16", ge::DT_UINT16 }, { "uint32", ge::DT_UINT32 }, { "bool", ge::DT_BOOL },
	{ "complex64", ge::DT_COMPLEX64 },
};

ge::DataType ge_dtype(const std::string &n)
{
	for (const auto &m : dtype_names)
		if (n == m.name)
			return m.dt;
	tiling_error("the case file names an unknown dtype '%s'", n.c_str());
}

const char *dtype_name(ge::DataType t)
{
	for (const auto &m : dtype_names)
		if (t == m.dt)
			return m.name;
	return nullptr;
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

/* "list:OFFxD0xD1,OFF..." of the case file into the members' dims. */
void parse_members(IoItem &it, const std::string &spec, const char *path)
{
	it.list = true;
	it.list_spec = spec;
	size_t pos = 0;
	while (pos <= spec.size()) {
		size_t end = spec.find(',', pos);
		if (end == std::string::npos)
			end = spec.size();
		const std::string m = spec.substr(pos, end - pos);
		std::vector<int64_t> dims;
		size_t x = m.find('x');
		while (x != std::string::npos) {
			const size_t nx = m.find('x', x + 1);
			dims.push_back(strtoll(m.substr(x + 1, nx == std::string::npos ? std::string::npos : nx - x - 1).c_str(),
					       nullptr, 10));
			x = nx;
		}
		if (m.empty())
			tiling_error("case file %s: empty member in the tensor list %s", path, it.name.c_str());
		it.members.push_back(dims);
		it.member_off.push_back(strtoull(m.c_str(), nullptr, 10));
		pos = end + 1;
	}
}

/* "attr NAME str[ VALUE]": the value is the rest of the line, blanks
 * included (none: the empty string). */
bool read_str_attr(const std::string &line, std::vector<Attr> &attrs)
{
	if (line.compare(0, 5, "attr ") != 0)
		return false;
	const size_t name_end = line.find(' ', 5);
	if (name_end == std::string::npos || name_end == 5 || line.compare(name_end, 4, " str") != 0)
		return false;
	std::string value = line.substr(name_end + 4);
	while (!value.empty() && (value.back() == '\n' || value.back() == '\r'))
		value.pop_back();
	if (!value.empty() && value[0] != ' ')
		return false; /* a longer type name */
	attrs.push_back(Attr{ line.substr(5, name_end - 5), "str", value.empty() ? value : value.substr(1) });
	return true;
}

void read_case(const char *path, std::vector<IoItem> &io, std::vector<Attr> &attrs, std::string &soc)
{
	FILE *f = fopen(path, "r");
	if (!f)
		tiling_error("cannot read the case file %s: %s", path, strerror(errno));
	char *line = nullptr;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0) {
		if (read_str_attr(line, attrs))
			continue;
		std::vector<std::string> w;
		for (char *tok = strtok(line, " \t\r\n"); tok; tok = strtok(nullptr, " \t\r\n"))
			w.push_back(tok);
		if (w.empty())
			continue;
		if ((w[0] == "input" || w[0] == "output") && w.size() == 5) {
			IoItem it;
			it.output = w[0] == "output";
			it.name = w[1];
			it.dtype = w[2];
			it.path = w[4];
			if (w[3].rfind("list:", 0) == 0)
				parse_members(it, w[3].substr(5), path);
			else if (w[3] == "absent" && !it.output)
				it.absent = true;
			else
				it.dims = parse_dims(w[3]);
			io.push_back(it);
		} else if (w[0] == "attr" && w.size() == 4) {
			attrs.push_back(Attr{ w[1], w[2], w[3] });
		} else if (w[0] == "soc" && w.size() >= 2) {
			soc = w[1];
		} else {
			tiling_error("case file %s: cannot read a '%s' line", path, w[0].c_str());
		}
	}
	free(line);
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
			if (a && a->value != "-") {
				for (int64_t x : parse_dims(a->value))
					v.li.v.push_back(x);
			} else if (!a) {
				v.li.v = ad.li;
			}
			break;
		case ops::AttrKind::LIST_FLOAT:
			v.kind = gert::AttrValue::LIST_FLOAT;
			if (a && a->value != "-") {
				/* "list" values are comma-separated (hostdev_case.h) */
				const char *p = a->value.c_str();
				for (char *end; *p; p = *end ? end + 1 : end) {
					v.lf.v.push_back(strtof(p, &end));
					if (end == p)
						break;
				}
			} else if (!a) {
				v.lf.v = ad.lf;
			}
			break;
		default:
			v.kind = gert::AttrValue::INT;
			v.i = a ? strtoll(a->value.c_str(), nullptr, 10) : ad.i;
			break;
		}
		out.attrs.push_back(v);
	}
}

/* An output the operator declares in another dtype than the task (the
 * OpDef's DataType column chosen by the inputs' dtypes): IsFinite writes
 * bool where the task wants x's dtype. NPUKernelBench's glue creates the
 * output in the operator's dtype and converts it (pybind .to(dtype)); so
 * does the driver: the kernel writes a temporary file, and after the launch
 * its elements are converted into the task's output. Elements the kernel
 * never wrote stay the task output's poison (unwritten output is still
 * seen). */
struct Conversion {
	std::string tmp, out;
	ge::DataType from, to;
	size_t numel;
};
std::vector<Conversion> conversions;

size_t dt_size(ge::DataType t)
{
	return t == ge::DT_COMPLEX64 ? 8 : (size_t)ge::GetSizeByDataType(t);
}

/* The dtypes whose elements the driver converts (no int4). A complex64
 * output converts to a real dtype as its real part: NPUKernelBench's glue
 * creates AbsMath's output like its complex input and compares .real. */
bool convertible(ge::DataType t)
{
	switch (t) {
	case ge::DT_BOOL: case ge::DT_INT8: case ge::DT_UINT8: case ge::DT_INT16: case ge::DT_UINT16:
	case ge::DT_INT32: case ge::DT_UINT32: case ge::DT_INT64: case ge::DT_FLOAT16: case ge::DT_BF16:
	case ge::DT_FLOAT: case ge::DT_DOUBLE:
		return true;
	default:
		return false;
	}
}

bool convertible(ge::DataType from, ge::DataType to)
{
	return convertible(to) && (from == ge::DT_COMPLEX64 || convertible(from));
}

double load_elem(ge::DataType t, const unsigned char *p)
{
	switch (t) {
	case ge::DT_BOOL: return *p ? 1.0 : 0.0;
	case ge::DT_COMPLEX64: { float re; memcpy(&re, p, 4); return re; }
	case ge::DT_INT8: return (double)*(const int8_t *)p;
	case ge::DT_UINT8: return (double)*p;
	case ge::DT_INT16: { int16_t v; memcpy(&v, p, 2); return v; }
	case ge::DT_UINT16: { uint16_t v; memcpy(&v, p, 2); return v; }
	case ge::DT_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
	case ge::DT_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
	case ge::DT_INT64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
	case ge::DT_FLOAT16: { uint16_t v; memcpy(&v, p, 2); return npukb_cpusim::f16_to_f32(v); }
	case ge::DT_BF16: { uint16_t v; memcpy(&v, p, 2); return npukb_cpusim::bf16_to_f32(v); }
	case ge::DT_FLOAT: { float v; memcpy(&v, p, 4); return v; }
	default: { double v; memcpy(&v, p, 8); return v; }
	}
}

template <class T> void put(unsigned char *p, T v) { memcpy(p, &v, sizeof v); }

void store_elem(ge::DataType t, unsigned char *p, double v)
{
	switch (t) {
	case ge::DT_BOOL: *p = v != 0; break;
	case ge::DT_INT8: put(p, (int8_t)v); break;
	case ge::DT_UINT8: put(p, (uint8_t)v); break;
	case ge::DT_INT16: put(p, (int16_t)v); break;
	case ge::DT_UINT16: put(p, (uint16_t)v); break;
	case ge::DT_INT32: put(p, (int32_t)v); break;
	case ge::DT_UINT32: put(p, (uint32_t)v); break;
	case ge::DT_INT64: put(p, (int64_t)v); break;
	case ge::DT_FLOAT16: put(p, npukb_cpusim::f64_to_f16(v)); break;
	case ge::DT_BF16: put(p, npukb_cpusim::f64_to_bf16(v)); break;
	case ge::DT_FLOAT: put(p, (float)v); break;
	default: put(p, v); break;
	}
}

/* The temporary's poison: one byte pattern per element, which no element
 * the kernel writes is likely to repeat exactly (bool: neither 0 nor 1). */
constexpr unsigned char TMP_POISON = 0xA5;

bool is_tmp_poison(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != TMP_POISON)
			return false;
	return true;
}

unsigned char *map_rw(const std::string &path, size_t bytes)
{
	int fd = open(path.c_str(), O_RDWR);
	if (fd < 0)
		tiling_error("cannot open %s: %s", path.c_str(), strerror(errno));
	void *p = mmap(nullptr, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		tiling_error("cannot map %s: %s", path.c_str(), strerror(errno));
	return (unsigned char *)p;
}

/* Whether column j of the OpDef's inputs (or outputs) has the case's
 * dtypes; matched counts the tensors compared. */
bool column_has(const std::vector<ops::OpParamDef> &params, const std::vector<IoItem> &io, bool outputs, size_t j,
		size_t &matched)
{
	size_t k = 0;
	matched = 0;
	for (const IoItem &it : io) {
		if (it.output != outputs)
			continue;
		if (k >= params.size())
			break;
		const std::vector<ge::DataType> &dts = params[k++].dtypes;
		if (j >= dts.size() || dts[j] != ge_dtype(it.dtype))
			return false;
		matched++;
	}
	return true;
}

/* The OpDef DataType column of the case: one whose inputs and outputs
 * both have the case's dtypes means no conversion (-1); else the first
 * whose inputs have them, or -1. */
int dtype_column(const ops::OpDef &def, const std::vector<IoItem> &io)
{
	size_t ncols = 0, m_in, m_out;
	for (const ops::OpParamDef &pd : def.inputs)
		ncols = pd.dtypes.size() > ncols ? pd.dtypes.size() : ncols;
	for (size_t j = 0; j < ncols; j++)
		if (column_has(def.inputs, io, false, j, m_in) && column_has(def.outputs, io, true, j, m_out))
			return -1;
	for (size_t j = 0; j < ncols; j++)
		if (column_has(def.inputs, io, false, j, m_in) && m_in > 0)
			return (int)j;
	return -1;
}

/* An input's data, for the tiling (GetInputTensor(i)->GetData<T>(), which
 * CANN fills for ValueDepend inputs such as Fill's dims): the file mapped
 * read-only for the rest of the run; null when it is empty or unreadable
 * (the tiling then sees no data, as for a non-constant input). */
const unsigned char *map_input(const std::string &path)
{
	int fd = open(path.c_str(), O_RDONLY);
	if (fd < 0)
		return nullptr;
	struct stat st;
	void *p = MAP_FAILED;
	if (fstat(fd, &st) == 0 && st.st_size > 0)
		p = mmap(nullptr, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	return p == MAP_FAILED ? nullptr : (const unsigned char *)p;
}

/* The message a crash inside the sample's tiling function prints (built
 * before the call: the handler only write()s it). */
char crash_msg[512];
size_t crash_len;

void on_tiling_crash(int sig)
{
	ssize_t r = write(2, crash_msg, crash_len);
	(void)r;
	char num[8];
	int n = 0;
	for (int v = sig; v > 0 && n < 7; v /= 10)
		num[n++] = (char)('0' + v % 10);
	while (n > 0) {
		r = write(2, &num[--n], 1);
		(void)r;
	}
	r = write(2, ")\n", 2);
	(void)r;
	_exit(TILING_ERROR_EXIT);
}

/* Every signal a function's own fault raises: a tiling that dies of any
 * is a failed tiling, never a kernel crash (a trap, __builtin_trap or a
 * function that falls off its end, is SIGILL on x86, SIGTRAP elsewhere).
 * Not SIGSYS (the sandbox's) or SIGXCPU (the time limit): those keep
 * their own verdicts. The handler runs on a stack of its own, so that a
 * tiling that overflows its stack is reported too. */
const int tiling_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL, SIGTRAP };
constexpr size_t NSIGNALS = sizeof tiling_signals / sizeof tiling_signals[0];
alignas(16) char crash_stack[64 * 1024];

ge::graphStatus run_guarded(const std::function<ge::graphStatus()> &f, const char *what, const std::string &op)
{
	crash_len = (size_t)snprintf(crash_msg, sizeof crash_msg, "npukb-cpusim-hostdev: the %s of %s crashed (signal ",
				     what, op.c_str());
	if (crash_len >= sizeof crash_msg)
		crash_len = sizeof crash_msg - 1;
	struct sigaction sa, old[NSIGNALS];
	stack_t alt, old_alt;
	memset(&sa, 0, sizeof sa);
	memset(&alt, 0, sizeof alt);
	alt.ss_sp = crash_stack;
	alt.ss_size = sizeof crash_stack;
	const bool have_alt = sigaltstack(&alt, &old_alt) == 0;
	sa.sa_handler = on_tiling_crash;
	sa.sa_flags = have_alt ? SA_ONSTACK : 0;
	for (size_t i = 0; i < NSIGNALS; i++)
		sigaction(tiling_signals[i], &sa, &old[i]);
	const ge::graphStatus st = f();
	for (size_t i = 0; i < NSIGNALS; i++)
		sigaction(tiling_signals[i], &old[i], nullptr);
	if (have_alt)
		sigaltstack(&old_alt, nullptr);
	return st;
}

/* The case must give the operator's inputs and outputs in the OpDef's
 * order: a task that passes a different set (the op takes dims as a
 * tensor, the task as an attribute) cannot run the sample's tiling. */
/* An operator with outputs whose shape the kernel computes (OpDef
 * OutputShapeDependOnCompute, e.g. MaskedSelect) takes one more kernel
 * argument after its outputs: a uint64 buffer where the kernel writes, per
 * such output, its rank and then its dims (9 words each). */
bool has_shape_buffer(const ops::OpDef &def)
{
	for (const ops::OpParamDef &p : def.outputs)
		if (p.shape_depends_on_compute)
			return true;
	return false;
}

void check_interface(const ops::OpDef &def, const std::vector<IoItem> &io)
{
	std::string want_in, want_out, got_in, got_out;
	size_t nin = 0, nout = 0, required_in = 0;
	const size_t shape_buffer = has_shape_buffer(def) ? 1 : 0;
	for (const ops::OpParamDef &p : def.inputs) {
		want_in += (want_in.empty() ? "" : ", ") + p.name;
		if (p.param_type != ops::OPTIONAL)
			required_in++;
	}
	for (const ops::OpParamDef &p : def.outputs)
		want_out += (want_out.empty() ? "" : ", ") + p.name;
	if (shape_buffer)
		want_out += ", and the buffer for the output shapes it computes";
	for (const IoItem &it : io) {
		std::string &g = it.output ? got_out : got_in;
		g += (g.empty() ? "" : ", ") + it.name;
		(it.output ? nout : nin)++;
	}
	if (nin > def.inputs.size() || nin < required_in || nout != def.outputs.size() + shape_buffer)
		tiling_error("the operator %s takes inputs (%s) and outputs (%s); the task passes inputs (%s) and "
			     "outputs (%s)",
			     def.type.c_str(), want_in.c_str(), want_out.c_str(), got_in.c_str(), got_out.c_str());
}

/* CANN builds an operator for the DataType columns its OpDef declares, and
 * the aclnn API rejects a call whose input dtypes match no column, before
 * any tiling or kernel runs. A case with such dtypes ends here with that
 * reason (its tiling would run on a dtype its author never handled). A
 * DataTypeList input accepts any of its dtypes in every column; an OpDef
 * that gives some input no DataType (or Follow) is not checked. */
bool column_declares(const ops::OpDef &def, const std::vector<IoItem> &io, size_t j)
{
	size_t k = 0;
	for (const IoItem &it : io) {
		if (it.output)
			continue;
		if (k >= def.inputs.size())
			break;
		const ops::OpParamDef &pd = def.inputs[k++];
		const ge::DataType dt = ge_dtype(it.dtype);
		bool ok = false;
		if (pd.dtype_any)
			for (ge::DataType d : pd.dtypes)
				ok = ok || d == dt;
		else
			ok = j < pd.dtypes.size() && pd.dtypes[j] == dt;
		if (!ok)
			return false;
	}
	return true;
}

void check_declared_dtypes(const ops::OpDef &def, const std::vector<IoItem> &io)
{
	size_t ncols = 1;
	std::string got;

	for (const ops::OpParamDef &pd : def.inputs) {
		if (pd.dtypes.empty() || pd.follows)
			return;
		if (!pd.dtype_any)
			ncols = pd.dtypes.size() > ncols ? pd.dtypes.size() : ncols;
	}
	for (size_t j = 0; j < ncols; j++)
		if (column_declares(def, io, j))
			return;
	for (const IoItem &it : io)
		if (!it.output)
			got += (got.empty() ? "" : ", ") + it.name + " " + it.dtype;
	tiling_error("the OpDef of %s declares no DataType combination for the case's inputs (%s): CANN would "
		     "reject the call (aclnn%sGetWorkspaceSize) before any tiling or kernel runs",
		     def.type.c_str(), got.c_str(), def.type.c_str());
}

/* The output after the OpDef's (check_interface let one through only for
 * an operator with a shape buffer) is that buffer: a kernel argument, not
 * one of the operator's outputs for the tiling. */
void mark_shape_buffer(const ops::OpDef &def, std::vector<IoItem> &io)
{
	size_t nout = 0;
	for (IoItem &it : io)
		if (it.output && ++nout > def.outputs.size())
			it.shape_buffer = true;
}

} // namespace

/* After the launch: the converted outputs (see Conversion). */
extern "C" void npukb_hostdev_finish(void)
{
	for (const Conversion &c : conversions) {
		const size_t fs = dt_size(c.from), ts = dt_size(c.to);
		unsigned char *src = map_rw(c.tmp, c.numel * fs), *dst = map_rw(c.out, c.numel * ts);
		for (size_t i = 0; i < c.numel; i++)
			if (!is_tmp_poison(src + i * fs, fs))
				store_elem(c.to, dst + i * ts, load_elem(c.from, src + i * fs));
		munmap(src, c.numel * fs > 0 ? c.numel * fs : 1);
		munmap(dst, c.numel * ts > 0 ? c.numel * ts : 1);
	}
}

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
	ops::TilingParseRun parse;
	for (auto &make : reg.factories) {
		std::unique_ptr<ops::OpDef> d(make());
		ops::TilingFunc f = d->aicore.tiling;
		auto impl = reg.impls.find(d->type);
		if (!f && impl != reg.impls.end())
			f = impl->second.tiling;
		if (f) {
			if (impl != reg.impls.end())
				parse = impl->second.parse;
			def = std::move(d);
			tiling = f;
			break;
		}
	}
	if (!def)
		tiling_error("no registered operator has a tiling function (AICore().SetTiling or IMPL_OP_OPTILING)");

	check_interface(*def, io);
	mark_shape_buffer(*def, io);
	check_declared_dtypes(*def, io);

	/* Outputs the operator declares in another dtype: a temporary each. */
	const int col = dtype_column(*def, io);
	size_t nout = 0;
	for (IoItem &it : io) {
		if (!it.output)
			continue;
		const size_t k = nout++;
		if (it.list || col < 0 || k >= def->outputs.size() || (size_t)col >= def->outputs[k].dtypes.size())
			continue;
		const ge::DataType want = ge_dtype(it.dtype), has = def->outputs[k].dtypes[(size_t)col];
		if (has == want || !convertible(has, want) || !dtype_name(has))
			continue;
		size_t numel = 1;
		for (int64_t d : it.dims)
			numel *= (size_t)d;
		Conversion c{ "hostdev_out" + std::to_string(k) + ".bin", it.path, has, want, numel };
		const size_t bytes = numel * dt_size(has);
		int fd = open(c.tmp.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0)
			tiling_error("cannot create %s: %s", c.tmp.c_str(), strerror(errno));
		close(fd);
		if (bytes) {
			unsigned char *p = map_rw(c.tmp, bytes);
			memset(p, TMP_POISON, bytes);
			munmap(p, bytes);
		}
		it.path = c.tmp;
		it.dtype = dtype_name(has);
		conversions.push_back(c);
	}

	auto ctx = std::make_unique<gert::TilingContext>();
	ctx->io.node.name = def->type;
	ctx->io.node.type = def->type;
	ctx->io.platform.soc = soc;
	/* One instance per tensor, one per member of a list; the IR index of
	 * each (its position among the case's inputs or outputs) records where
	 * its instances start. */
	for (const IoItem &it : io) {
		if (it.shape_buffer)
			continue;
		std::vector<gert::Tensor> &ts = it.output ? ctx->io.outputs : ctx->io.inputs;
		std::vector<gert::CompileTimeTensorDesc> &ds = it.output ? ctx->io.out_desc : ctx->io.in_desc;
		gert::AnchorInstanceInfo inst;
		inst.start = (uint32_t)ts.size();
		const std::vector<std::vector<int64_t>> one{ it.dims }, none;
		const unsigned char *data = it.output || it.absent ? nullptr : map_input(it.path);
		size_t m = 0;
		for (const std::vector<int64_t> &dims : it.list ? it.members : it.absent ? none : one) {
			gert::Tensor t;
			if (data)
				t.addr = (void *)(data + (it.list ? it.member_off[m] : 0));
			m++;
			gert::Shape s;
			for (int64_t d : dims)
				s.AppendDim(d);
			t.shape = gert::StorageShape(s);
			t.dtype = ge_dtype(it.dtype);
			gert::CompileTimeTensorDesc desc;
			desc.dtype = t.dtype;
			ts.push_back(t);
			ds.push_back(desc);
			inst.num++;
		}
		(it.output ? ctx->io.node.out_inst : ctx->io.node.in_inst).push_back(inst);
	}
	fill_attrs(*def, given, ctx->io.attrs);

	/* CANN runs the TilingParse function once, when the operator is
	 * compiled, and hands each tiling call the compile info it filled. */
	std::shared_ptr<void> compile_info;
	if (parse) {
		gert::TilingParseContext pc;
		pc.platform = &ctx->io.platform;
		pc.node_name = def->type;
		const ge::graphStatus pst = run_guarded([&] { return parse(&pc, &compile_info); },
							"tiling-parse function", def->type);
		if (pst != ge::GRAPH_SUCCESS)
			tiling_error("the tiling-parse function of %s returned %u (not GRAPH_SUCCESS)",
				     def->type.c_str(), (unsigned)pst);
		ctx->compile_info = compile_info.get();
	}

	gert::TilingContext *tc = ctx.get();
	const ge::graphStatus st = run_guarded([&] { return tiling(tc); }, "tiling function", def->type);
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
	/* The kernel's workspace argument is never null: at least the system
	 * part is there even when the tiling asks for nothing, as kernels that
	 * return early on a null GetSysWorkSpacePtr() expect [unconfirmed]. */
	const size_t sys_ws = platform_ascendc::PlatformAscendC(soc).GetLibApiWorkSpaceSize();
	if (ws < sys_ws)
		ws = sys_ws;

	FILE *tf = fopen("hostdev_tiling.bin", "wb");
	if (!tf || (tiling_bytes && fwrite(ctx->raw.GetData(), 1, tiling_bytes, tf) != tiling_bytes) ||
	    fclose(tf) != 0)
		tiling_error("cannot write the tiling data: %s", strerror(errno));

	*blocks = ctx->block_dim;
	*tiling_key = ctx->tiling_key;
	for (const IoItem &it : io) {
		if (it.list)
			args->push_back("list=" + it.list_spec + "@" + it.path);
		else if (it.absent)
			args->push_back("none=");
		else
			args->push_back(std::string(it.output ? "out=" : "in=") + it.path);
	}
	args->push_back("ws=" + std::to_string(ws));
	args->push_back("tiling=hostdev_tiling.bin");
}
