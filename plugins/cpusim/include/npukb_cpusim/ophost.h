/* cpusim emulation of the CANN op-host API subset used by op_host sources:
 * ge types, gert contexts, OpDef registration, platform queries. */
#ifndef NPUKB_CPUSIM_OPHOST_H
#define NPUKB_CPUSIM_OPHOST_H
#include "npukb_cpusim/dt_macros_push.h"
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>
#include "npukb_cpusim/ophost_registry.h"

/* CANN's op-host headers mark exported tiling entry points with it. */
#ifndef ASCENDC_EXTERN_C
#define ASCENDC_EXTERN_C extern "C"
#endif

namespace ge {
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;
/* GE's general status codes, which tiling helpers return too
 * (AddRmsNormQuant's answer compares with SUCCESS) [FAILED's value is
 * unconfirmed]. */
using Status = uint32_t;
constexpr Status SUCCESS = 0;
constexpr Status FAILED = 0xFFFFFFFF;
enum DataType {
	DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6,
	DT_UINT16 = 7, DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12,
	DT_STRING = 13, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_BF16 = 27, DT_UNDEFINED = 28,
	DT_INT4 = 29, DT_MAX
};
enum Format { FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, FORMAT_NC1HWC0 = 3,
	FORMAT_FRACTAL_Z = 4, FORMAT_FRACTAL_NZ = 29, FORMAT_NCDHW = 30, FORMAT_NDHWC = 27,
	FORMAT_RESERVED = 40, FORMAT_MAX = 0xff };
inline size_t GetSizeByDataType(DataType t)
{
	switch (t) {
	case DT_INT8: case DT_UINT8: case DT_BOOL: return 1;
	case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: return 2;
	case DT_FLOAT: case DT_INT32: case DT_UINT32: return 4;
	case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: return 8;
	case DT_COMPLEX128: return 16;
	default: return 0;
	}
}
class TypeUtils {
public:
	static std::string DataTypeToSerialString(DataType t) { return "DT_" + std::to_string((int)t); }
	static std::string FormatToSerialString(Format f) { return "FORMAT_" + std::to_string((int)f); }
	static bool GetDataTypeLength(DataType t, uint32_t &len)
	{
		len = (uint32_t)GetSizeByDataType(t);
		return len != 0;
	}
};
struct AscendString {
	std::string s;
	AscendString(const char *c = "") : s(c ? c : "") {}
	const char *GetString() const { return s.c_str(); }
};
/* graph/types.h: the character type of node names, and the dimension
 * value (and dimension count) of a shape not known before run time. */
using char_t = char;
constexpr int64_t UNKNOWN_DIM = -1;
constexpr int64_t UNKNOWN_DIM_NUM = -2;
/* graph/tensor.h's Shape, which the host-side tiling APIs of the
 * high-level library take (GetSigmoidMaxMinTmpSize ...). */
class Shape {
public:
	Shape() = default;
	explicit Shape(const std::vector<int64_t> &dims) : dims_(dims) {}
	size_t GetDimNum() const { return dims_.size(); }
	int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
	std::vector<int64_t> GetDims() const { return dims_; }
	int64_t GetShapeSize() const /* a scalar's: 0 [unconfirmed] */
	{
		if (dims_.empty())
			return 0;
		int64_t n = 1;
		for (int64_t d : dims_)
			n *= d;
		return n;
	}

private:
	std::vector<int64_t> dims_;
};

/* graph/operator.h's view of a node: what an OpDef's SetCheckSupport or
 * graph-mode callback reads (input/output descriptions by name, attributes).
 * cpusim never builds a graph, so it runs no such callback; these let the
 * op_host file that defines one compile, and a test fill one in. */
constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304; /* [value unconfirmed] */
class TensorDesc {
public:
	TensorDesc() = default;
	TensorDesc(const Shape &shape, DataType dtype, Format format = FORMAT_ND)
		: shape_(shape), dtype_(dtype), format_(format) {}
	Shape GetShape() const { return shape_; }
	Shape GetOriginShape() const { return shape_; }
	DataType GetDataType() const { return dtype_; }
	Format GetFormat() const { return format_; }
	Format GetOriginFormat() const { return format_; }

private:
	Shape shape_;
	DataType dtype_ = DT_UNDEFINED;
	Format format_ = FORMAT_ND;
};
class Operator {
public:
	void SetInput(const std::string &name, const TensorDesc &d) { inputs_[name] = d; }
	void SetOutput(const std::string &name, const TensorDesc &d) { outputs_[name] = d; }
	void SetAttr(const std::string &name, int64_t v) { ints_[name] = v; }
	void SetAttr(const std::string &name, float v) { floats_[name] = v; }
	void SetAttr(const std::string &name, const std::string &v) { strings_[name] = v; }
	/* An unknown name gives an empty description, as GE's does. */
	TensorDesc GetInputDescByName(const char *name) const { return find(inputs_, name); }
	TensorDesc GetOutputDescByName(const char *name) const { return find(outputs_, name); }
	template <class T, std::enable_if_t<std::is_integral<T>::value, int> = 0>
	graphStatus GetAttr(const char *name, T &v) const { return get(ints_, name, v); }
	template <class T, std::enable_if_t<std::is_floating_point<T>::value, int> = 0>
	graphStatus GetAttr(const char *name, T &v) const { return get(floats_, name, v); }
	graphStatus GetAttr(const char *name, std::string &v) const { return get(strings_, name, v); }

private:
	template <class M>
	static TensorDesc find(const M &m, const char *name)
	{
		const auto it = m.find(name);
		return it == m.end() ? TensorDesc() : it->second;
	}
	template <class M, class T>
	static graphStatus get(const M &m, const char *name, T &v)
	{
		const auto it = m.find(name);
		if (it == m.end())
			return GRAPH_FAILED;
		v = (T)it->second;
		return GRAPH_SUCCESS;
	}
	std::map<std::string, TensorDesc> inputs_, outputs_;
	std::map<std::string, int64_t> ints_;
	std::map<std::string, float> floats_;
	std::map<std::string, std::string> strings_;
};
} // namespace ge

namespace gert {
class Shape {
public:
	static constexpr size_t kMaxDimNum = 8;
	Shape() = default;
	Shape(std::initializer_list<int64_t> d) : dims_(d) {}
	size_t GetDimNum() const { return dims_.size(); }
	int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
	void SetDimNum(size_t n) { dims_.resize(n, 0); }
	void SetDim(size_t i, int64_t v) { if (i >= dims_.size()) dims_.resize(i + 1, 0); dims_[i] = v; }
	Shape &AppendDim(int64_t v) { dims_.push_back(v); return *this; }
	int64_t GetShapeSize() const { int64_t n = 1; for (auto d : dims_) n *= d; return n; }
	bool IsScalar() const { return dims_.empty(); }
	int64_t operator[](size_t i) const { return GetDim(i); }
	int64_t &operator[](size_t i) { if (i >= dims_.size()) dims_.resize(i + 1, 0); return dims_[i]; }
	bool operator==(const Shape &o) const { return dims_ == o.dims_; }
	bool operator!=(const Shape &o) const { return dims_ != o.dims_; }
	const std::vector<int64_t> &dims() const { return dims_; }
private:
	std::vector<int64_t> dims_;
};
class StorageShape {
public:
	StorageShape() = default;
	StorageShape(const Shape &o) : origin_(o), storage_(o) {}
	const Shape &GetOriginShape() const { return origin_; }
	const Shape &GetStorageShape() const { return storage_; }
	Shape &MutableOriginShape() { return origin_; }
	Shape &MutableStorageShape() { return storage_; }
	bool operator==(const StorageShape &o) const { return origin_ == o.origin_ && storage_ == o.storage_; }
	bool operator!=(const StorageShape &o) const { return !(*this == o); }
private:
	Shape origin_, storage_;
};
class StorageFormat {
public:
	ge::Format GetOriginFormat() const { return ge::FORMAT_ND; }
	ge::Format GetStorageFormat() const { return ge::FORMAT_ND; }
};
class CompileTimeTensorDesc {
public:
	ge::DataType dtype = ge::DT_FLOAT;
	ge::DataType GetDataType() const { return dtype; }
	ge::Format GetOriginFormat() const { return ge::FORMAT_ND; }
	ge::Format GetStorageFormat() const { return ge::FORMAT_ND; }
	StorageFormat GetFormat() const { return StorageFormat(); }
};
class Tensor {
public:
	StorageShape shape;
	ge::DataType dtype = ge::DT_FLOAT;
	void *addr = nullptr;
	const StorageShape &GetShape() const { return shape; }
	const Shape &GetOriginShape() const { return shape.GetOriginShape(); }
	const Shape &GetStorageShape() const { return shape.GetStorageShape(); }
	int64_t GetShapeSize() const { return shape.GetStorageShape().GetShapeSize(); }
	ge::DataType GetDataType() const { return dtype; }
	template <typename T> const T *GetData() const { return static_cast<const T *>(addr); }
	const void *GetAddr() const { return addr; }
	size_t GetSize() const { return (size_t)GetShapeSize() * ge::GetSizeByDataType(dtype); }
};
class TypedContinuousVector {
public:
	std::vector<int64_t> v;
	size_t GetSize() const { return v.size(); }
	const int64_t *GetData() const { return v.data(); }
};
class ContinuousVectorF {
public:
	std::vector<float> v;
	size_t GetSize() const { return v.size(); }
	const float *GetData() const { return v.data(); }
};
/* One attribute value; the pointer accessors hand out typed storage. */
struct AttrValue {
	enum Kind { INT, FLOAT, BOOL, STR, LIST_INT, LIST_FLOAT } kind = INT;
	int64_t i = 0;
	float f = 0;
	bool b = false;
	std::string s;
	TypedContinuousVector li;
	ContinuousVectorF lf;
};
class RuntimeAttrs {
public:
	std::vector<AttrValue> attrs;
	size_t GetAttrNum() const { return attrs.size(); }
	template <typename T> const T *GetAttrPointer(size_t i) const { return reinterpret_cast<const T *>(raw(i)); }
	const int64_t *GetInt(size_t i) const { return i < attrs.size() ? &attrs[i].i : nullptr; }
	const float *GetFloat(size_t i) const { return i < attrs.size() ? &attrs[i].f : nullptr; }
	const bool *GetBool(size_t i) const { return i < attrs.size() ? &attrs[i].b : nullptr; }
	const char *GetStr(size_t i) const { return i < attrs.size() ? attrs[i].s.c_str() : nullptr; }
	const TypedContinuousVector *GetListInt(size_t i) const { return i < attrs.size() ? &attrs[i].li : nullptr; }
	const ContinuousVectorF *GetListFloat(size_t i) const { return i < attrs.size() ? &attrs[i].lf : nullptr; }
private:
	const void *raw(size_t i) const
	{
		if (i >= attrs.size()) return nullptr;
		const AttrValue &a = attrs[i];
		switch (a.kind) {
		case AttrValue::INT: return &a.i;
		case AttrValue::FLOAT: return &a.f;
		case AttrValue::BOOL: return &a.b;
		case AttrValue::STR: return a.s.c_str();
		case AttrValue::LIST_INT: return &a.li;
		case AttrValue::LIST_FLOAT: return &a.lf;
		}
		return nullptr;
	}
};
class TilingData {
public:
	std::vector<uint8_t> buf = std::vector<uint8_t>(64 * 1024);
	size_t size = 0;
	void *GetData() { return buf.data(); }
	size_t GetCapacity() const { return buf.size(); }
	void SetDataSize(size_t n) { size = n; }
	size_t GetDataSize() const { return size; }
};
/* Where the instances of one IR input or output (a DYNAMIC one has a
 * tensor per list member) sit among the node's inputs or outputs. */
struct AnchorInstanceInfo {
	uint32_t start = 0, num = 0;
	uint32_t GetInstanceStart() const { return start; }
	size_t GetInstanceNum() const { return num; }
};
struct ComputeNodeInfo {
	std::string name, type;
	/* Per IR index; empty: one instance each, at its own index. */
	std::vector<AnchorInstanceInfo> in_inst, out_inst;
	const char *GetNodeName() const { return name.c_str(); }
	const char *GetNodeType() const { return type.c_str(); }
	const AnchorInstanceInfo *GetInputInstanceInfo(size_t ir) const { return ir < in_inst.size() ? &in_inst[ir] : nullptr; }
	const AnchorInstanceInfo *GetOutputInstanceInfo(size_t ir) const { return ir < out_inst.size() ? &out_inst[ir] : nullptr; }
	size_t GetIrInputsNum() const { return in_inst.size(); }
	size_t GetIrOutputsNum() const { return out_inst.size(); }
	/* The instance index of member j of IR input ir, or SIZE_MAX. */
	size_t InputAt(size_t ir, size_t j) const
	{
		if (in_inst.empty())
			return ir + j;
		return ir < in_inst.size() && j < in_inst[ir].num ? in_inst[ir].start + j : SIZE_MAX;
	}
};
} // namespace gert
namespace fe {
enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };
}
namespace gert {
struct PlatformInfoHandle {
	std::string soc;
	uint32_t GetCoreNum() const { return soc.rfind("ascend910b3", 0) == 0 || soc.rfind("ascend910b4", 0) == 0 ? 40 : 48; }
	void GetLocalMemSize(uint64_t &ub) const { ub = 196608; }
	/* fe::PlatFormInfos::GetLocalMemSize: the sizes of
	 * PlatformAscendC::GetCoreMemSize (910B; 310P has a 256 KiB UB). */
	void GetLocalMemSize(fe::LocalMemType t, uint64_t &size) const
	{
		const bool p310 = soc.rfind("ascend310p", 0) == 0;
		switch (t) {
		case fe::LocalMemType::UB: size = p310 ? 262144 : 196608; break;
		case fe::LocalMemType::L1: size = 524288; break;
		case fe::LocalMemType::L0_A: case fe::LocalMemType::L0_B: size = 65536; break;
		case fe::LocalMemType::L0_C: size = p310 ? 262144 : 131072; break;
		default: size = 0; break;
		}
	}
};

/* Inputs/outputs as the harness fills them from the case file. */
struct NpukbIo {
	std::vector<Tensor> inputs, outputs;
	std::vector<CompileTimeTensorDesc> in_desc, out_desc;
	RuntimeAttrs attrs;
	ComputeNodeInfo node;
	PlatformInfoHandle platform;
};

class TilingContext {
public:
	NpukbIo io;
	TilingData raw;
	uint32_t block_dim = 0;
	uint64_t tiling_key = 0;
	bool key_set = false;
	std::vector<size_t> ws = std::vector<size_t>(16, 0);
	size_t ws_num = 0;
	uint32_t schedule_mode = 0;

	const StorageShape *GetInputShape(size_t i) const { return i < io.inputs.size() ? &io.inputs[i].shape : nullptr; }
	const StorageShape *GetOutputShape(size_t i) const { return i < io.outputs.size() ? &io.outputs[i].shape : nullptr; }
	const Tensor *GetInputTensor(size_t i) const { return i < io.inputs.size() ? &io.inputs[i] : nullptr; }
	/* Optional and dynamic inputs are named by IR index (the OpDef's
	 * Input order); plain GetInput* by instance index. */
	const Tensor *GetOptionalInputTensor(size_t ir) const { return GetInputTensor(io.node.InputAt(ir, 0)); }
	const StorageShape *GetOptionalInputShape(size_t ir) const { return GetInputShape(io.node.InputAt(ir, 0)); }
	const Tensor *GetDynamicInputTensor(size_t ir, size_t j) const { return GetInputTensor(io.node.InputAt(ir, j)); }
	const StorageShape *GetDynamicInputShape(size_t ir, size_t j) const { return GetInputShape(io.node.InputAt(ir, j)); }
	const CompileTimeTensorDesc *GetInputDesc(size_t i) const { return i < io.in_desc.size() ? &io.in_desc[i] : nullptr; }
	const CompileTimeTensorDesc *GetOptionalInputDesc(size_t ir) const { return GetInputDesc(io.node.InputAt(ir, 0)); }
	const CompileTimeTensorDesc *GetDynamicInputDesc(size_t ir, size_t j) const { return GetInputDesc(io.node.InputAt(ir, j)); }
	const CompileTimeTensorDesc *GetOutputDesc(size_t i) const { return i < io.out_desc.size() ? &io.out_desc[i] : nullptr; }
	const RuntimeAttrs *GetAttrs() const { return &io.attrs; }
	TilingData *GetRawTilingData() { return &raw; }
	/* The newest op_host generation's typed view of the raw tiling buffer:
	 * the tiling's size becomes sizeof(T); null when T does not fit. */
	template <typename T> T *GetTilingData()
	{
		if (raw.buf.size() < sizeof(T))
			return nullptr;
		raw.size = sizeof(T);
		return reinterpret_cast<T *>(raw.buf.data());
	}
	ge::graphStatus SetBlockDim(uint32_t n) { block_dim = n; return ge::GRAPH_SUCCESS; }
	uint32_t GetBlockDim() const { return block_dim; }
	/* CANN 9's names of the two: the number of SIMD blocks (vector or cube
	 * cores, or AIC/AIV groups for a mixed kernel), the launch's blockDim. */
	ge::graphStatus SetSimdNumBlocks(uint32_t n) { return SetBlockDim(n); }
	uint32_t GetSimdNumBlocks() const { return block_dim; }
	ge::graphStatus SetTilingKey(uint64_t k) { tiling_key = k; key_set = true; return ge::GRAPH_SUCCESS; }
	uint64_t GetTilingKey() const { return tiling_key; }
	size_t *GetWorkspaceSizes(size_t n) { if (n > ws.size()) ws.resize(n, 0); if (n > ws_num) ws_num = n; return ws.data(); }
	size_t GetWorkspaceNum() const { return ws_num; }
	PlatformInfoHandle *GetPlatformInfo() const { return const_cast<PlatformInfoHandle *>(&io.platform); }
	const ComputeNodeInfo *GetComputeNodeInfo() const { return &io.node; }
	const char *GetNodeName() const { return io.node.name.c_str(); }
	const char *GetNodeType() const { return io.node.type.c_str(); }
	ge::graphStatus SetScheduleMode(uint32_t m) { schedule_mode = m; return ge::GRAPH_SUCCESS; }
	const void *compile_info = nullptr;
	const void *GetCompileInfo() const { return compile_info; }
	template <typename T> const T *GetCompileInfo() const { return static_cast<const T *>(compile_info); }
	int32_t GetDeterministic() const { return 0; }
	size_t GetComputeNodeInputNum() const { return io.inputs.size(); }
	size_t GetComputeNodeOutputNum() const { return io.outputs.size(); }
	size_t GetInputNum() const { return io.inputs.size(); }
	size_t GetOutputNum() const { return io.outputs.size(); }
};

/* The common part of CANN's kernel contexts: op_host code reaches it by
 * casting an InferShapeContext (its first base here, so the cast holds). */
class ExtendedKernelContext {
public:
	ComputeNodeInfo ext_node;
	size_t ext_nin = 0, ext_nout = 0;
	const ComputeNodeInfo *GetComputeNodeInfo() const { return &ext_node; }
	const char *GetNodeName() const { return ext_node.name.c_str(); }
	const char *GetNodeType() const { return ext_node.type.c_str(); }
	size_t GetComputeNodeInputNum() const { return ext_nin; }
	size_t GetComputeNodeOutputNum() const { return ext_nout; }
};

class InferShapeContext : public ExtendedKernelContext {
public:
	std::vector<Shape> in, out;
	RuntimeAttrs *attrs = nullptr;
	std::vector<const Tensor *> tensors;
	ComputeNodeInfo node;
	const Shape *GetInputShape(size_t i) const { return i < in.size() ? &in[i] : nullptr; }
	const Shape *GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
	const Shape *GetDynamicInputShape(size_t i, size_t j) const { return GetInputShape(i + j); }
	Shape *GetOutputShape(size_t i) { if (i >= out.size()) out.resize(i + 1); return &out[i]; }
	const Tensor *GetInputTensor(size_t i) const { return i < tensors.size() ? tensors[i] : nullptr; }
	const RuntimeAttrs *GetAttrs() const { return attrs; }
	const char *GetNodeName() const { return node.name.c_str(); }
	const ComputeNodeInfo *GetComputeNodeInfo() const { return &node; }
	size_t GetComputeNodeInputNum() const { return in.size(); }
	size_t GetComputeNodeOutputNum() const { return out.size(); }
	std::vector<CompileTimeTensorDesc> in_desc;
	const CompileTimeTensorDesc *GetInputDesc(size_t i) const { return i < in_desc.size() ? &in_desc[i] : nullptr; }
};
class InferDataTypeContext : public ExtendedKernelContext {
public:
	std::vector<ge::DataType> in, out;
	RuntimeAttrs *attrs = nullptr;
	const RuntimeAttrs *GetAttrs() const { return attrs; }
	ge::DataType GetInputDataType(size_t i) const { return i < in.size() ? in[i] : ge::DT_UNDEFINED; }
	ge::DataType GetOptionalInputDataType(size_t i) const { return GetInputDataType(i); }
	ge::DataType GetDynamicInputDataType(size_t i, size_t j) const { return GetInputDataType(i + j); }
	ge::graphStatus SetOutputDataType(size_t i, ge::DataType t) { if (i >= out.size()) out.resize(i + 1); out[i] = t; return ge::GRAPH_SUCCESS; }
	ge::DataType GetOutputDataType(size_t i) const { return i < out.size() ? out[i] : ge::DT_UNDEFINED; }
};
/* A shape range (InferShapeRange functions; accepted, never run). */
template <typename T>
class Range {
public:
	Range() = default;
	Range(T *min, T *max) : min_(min), max_(max) {}
	const T *GetMin() const { return min_; }
	const T *GetMax() const { return max_; }
	T *GetMin() { return min_; }
	T *GetMax() { return max_; }

private:
	T *min_ = nullptr, *max_ = nullptr;
};
class InferShapeRangeContext : public ExtendedKernelContext {
public:
	std::vector<Range<Shape>> in, out;
	RuntimeAttrs *attrs = nullptr;
	const Range<Shape> *GetInputShapeRange(size_t i) const { return i < in.size() ? &in[i] : nullptr; }
	const Range<Shape> *GetOptionalInputShapeRange(size_t i) const { return GetInputShapeRange(i); }
	Range<Shape> *GetOutputShapeRange(size_t i) { return i < out.size() ? &out[i] : nullptr; }
	const RuntimeAttrs *GetAttrs() const { return attrs; }
};
/* What an operator's TilingParse function gets: the compile info object
 * to fill (of the type IMPL_OP_OPTILING(...).TilingParse<T> names) and the
 * SoC's platform. */
class TilingParseContext {
public:
	void *compiled = nullptr;
	PlatformInfoHandle *platform = nullptr;
	std::string node_name;
	template <typename T> T *GetCompiledInfo() { return static_cast<T *>(compiled); }
	const char *GetNodeName() const { return node_name.c_str(); }
	PlatformInfoHandle *GetPlatformInfo() const { return platform; }
};
using OpImplKernelRegistry = int;
} // namespace gert

namespace fe { using PlatFormInfos = gert::PlatformInfoHandle; }

namespace ops {
using TilingFunc = std::function<ge::graphStatus(gert::TilingContext *)>;
using InferShapeFunc = std::function<ge::graphStatus(gert::InferShapeContext *)>;
using InferDataTypeFunc = std::function<ge::graphStatus(gert::InferDataTypeContext *)>;
enum Option { REQUIRED = 0, OPTIONAL = 1, DYNAMIC = 2, IGNORE = 3, VIRTUAL = 4 };
enum class AttrKind { NONE, INT, FLOAT, BOOL, STR, LIST_INT, LIST_FLOAT, LIST_BOOL, LIST_LIST_INT };

class OpParamDef {
public:
	std::string name;
	Option param_type = REQUIRED;
	std::vector<ge::DataType> dtypes;
	std::vector<ge::Format> formats;
	/* The kernel computes this output's shape: CANN then passes one more
	 * kernel argument after the outputs, where the kernel writes it. */
	bool shape_depends_on_compute = false;
	/* DataTypeList: any of dtypes with every column of the others (not
	 * a column of its own); Follow: another parameter's dtype. */
	bool dtype_any = false, follows = false;
	explicit OpParamDef(const char *n = "") : name(n) {}
	OpParamDef &ParamType(Option o) { param_type = o; return *this; }
	OpParamDef &DataType(std::vector<ge::DataType> v) { dtypes = std::move(v); return *this; }
	OpParamDef &DataTypeList(std::vector<ge::DataType> v)
	{
		dtypes = std::move(v);
		dtype_any = true;
		return *this;
	}
	OpParamDef &Format(std::vector<ge::Format> v) { formats = std::move(v); return *this; }
	OpParamDef &FormatList(std::vector<ge::Format> v) { formats = std::move(v); return *this; }
	OpParamDef &UnknownShapeFormat(std::vector<ge::Format>) { return *this; }
	OpParamDef &AutoContiguous() { return *this; }
	OpParamDef &Scalar() { return *this; }
	OpParamDef &ScalarList() { return *this; }
	OpParamDef &ValueDepend(Option) { return *this; }
	OpParamDef &IgnoreContiguous() { return *this; }
	OpParamDef &OutputShapeDependOnCompute() { shape_depends_on_compute = true; return *this; }
	OpParamDef &InitValue(uint64_t) { return *this; }
	OpParamDef &Follow(const char *)
	{
		follows = true;
		return *this;
	}
	OpParamDef &To(const char *) { return *this; }
	OpParamDef &To(ge::DataType) { return *this; }
};
class OpAttrDef {
public:
	std::string name;
	Option attr_type = REQUIRED;
	AttrKind kind = AttrKind::NONE;
	int64_t i = 0;
	float f = 0;
	bool b = false;
	std::string s;
	std::vector<int64_t> li;
	std::vector<float> lf;
	explicit OpAttrDef(const char *n = "") : name(n) {}
	OpAttrDef &AttrType(Option o) { attr_type = o; return *this; }
	OpAttrDef &Int(int64_t v = 0) { kind = AttrKind::INT; i = v; return *this; }
	OpAttrDef &Float(float v = 0) { kind = AttrKind::FLOAT; f = v; return *this; }
	OpAttrDef &Bool(bool v = false) { kind = AttrKind::BOOL; b = v; return *this; }
	OpAttrDef &String(const char *v = "") { kind = AttrKind::STR; s = v; return *this; }
	OpAttrDef &ListInt(std::vector<int64_t> v = {}) { kind = AttrKind::LIST_INT; li = std::move(v); return *this; }
	OpAttrDef &ListFloat(std::vector<float> v = {}) { kind = AttrKind::LIST_FLOAT; lf = std::move(v); return *this; }
	OpAttrDef &ListBool(std::vector<bool> = {}) { kind = AttrKind::LIST_BOOL; return *this; }
	OpAttrDef &ListListInt(std::vector<std::vector<int64_t>> = {}) { kind = AttrKind::LIST_LIST_INT; return *this; }
	OpAttrDef &Version(uint32_t) { return *this; }
	OpAttrDef &Comment(const char *) { return *this; }
};
class OpAICoreConfig {
public:
	std::vector<OpParamDef> inputs, outputs;
	OpAICoreConfig() = default;
	explicit OpAICoreConfig(const char *) {}
	OpParamDef &Input(const char *n) { inputs.emplace_back(n); return inputs.back(); }
	OpParamDef &Output(const char *n) { outputs.emplace_back(n); return outputs.back(); }
	OpAICoreConfig &DynamicCompileStaticFlag(bool) { return *this; }
	OpAICoreConfig &DynamicFormatFlag(bool) { return *this; }
	OpAICoreConfig &DynamicRankSupportFlag(bool) { return *this; }
	OpAICoreConfig &DynamicShapeSupportFlag(bool) { return *this; }
	OpAICoreConfig &NeedCheckSupportFlag(bool) { return *this; }
	OpAICoreConfig &PrecisionReduceFlag(bool) { return *this; }
	OpAICoreConfig &ExtendCfgInfo(const char *, const char *) { return *this; }
};
class OpAICoreDef {
public:
	TilingFunc tiling;
	std::vector<std::string> socs;
	OpAICoreDef &SetTiling(TilingFunc f) { tiling = std::move(f); return *this; }
	template <typename F> OpAICoreDef &SetTilingParse(F) { return *this; }
	template <typename F> OpAICoreDef &SetCheckSupport(F) { return *this; }
	template <typename F> OpAICoreDef &SetOpSelectFormat(F) { return *this; }
	OpAICoreDef &AddConfig(const char *soc) { socs.push_back(soc); return *this; }
	OpAICoreDef &AddConfig(const char *soc, OpAICoreConfig &) { socs.push_back(soc); return *this; }
};
class OpMC2Def {
public:
	OpMC2Def &HcclGroup(const char *) { return *this; }
};
class OpDef {
public:
	std::string type;
	std::vector<OpParamDef> inputs, outputs;
	std::vector<OpAttrDef> attrs;
	InferShapeFunc infer_shape;
	InferDataTypeFunc infer_dtype;
	OpAICoreDef aicore;
	OpMC2Def mc2;
	explicit OpDef(const char *t) : type(t) {}
	virtual ~OpDef() = default;
	OpParamDef &Input(const char *n) { inputs.emplace_back(n); return inputs.back(); }
	OpParamDef &Output(const char *n) { outputs.emplace_back(n); return outputs.back(); }
	OpAttrDef &Attr(const char *n) { attrs.emplace_back(n); return attrs.back(); }
	OpDef &SetInferShape(InferShapeFunc f) { infer_shape = std::move(f); return *this; }
	template <typename F> OpDef &SetInferShapeRange(F) { return *this; }
	OpDef &SetInferDataType(InferDataTypeFunc f) { infer_dtype = std::move(f); return *this; }
	OpAICoreDef &AICore() { return aicore; }
	OpMC2Def &MC2() { return mc2; }
	OpDef &Comment(int, const char *) { return *this; }
};

/* The registry the harness queries: one factory per OP_ADD, plus the
 * IMPL_OP_OPTILING / IMPL_OP_INFERSHAPE style registrations. */
using TilingParseRun = std::function<ge::graphStatus(gert::TilingParseContext *, std::shared_ptr<void> *)>;
struct OpImpl {
	std::string type;
	TilingFunc tiling;
	InferShapeFunc infer_shape;
	InferDataTypeFunc infer_dtype;
	OpImpl &Tiling(TilingFunc f) { tiling = std::move(f); return *this; }
	/* TilingParse<CompileInfo>(f): the harness runs f once on a new
	 * CompileInfo and gives it to the tiling (GetCompileInfo). */
	TilingParseRun parse;
	template <typename T, typename F> OpImpl &TilingParse(F f)
	{
		parse = [f](gert::TilingParseContext *pc, std::shared_ptr<void> *out) {
			auto info = std::make_shared<T>();
			pc->compiled = info.get();
			*out = info;
			return (ge::graphStatus)f(pc);
		};
		return *this;
	}
	OpImpl &InferShape(InferShapeFunc f) { infer_shape = std::move(f); return *this; }
	OpImpl &InferDataType(InferDataTypeFunc f) { infer_dtype = std::move(f); return *this; }
	template <typename F> OpImpl &InferShapeRange(F) { return *this; }
	/* The braced-list forms, as operators write them (`({1})`), which
	 * the templates cannot deduce; cpusim hands every input's data to
	 * the tiling anyway, so the list is not kept. */
	OpImpl &InputsDataDependency(std::initializer_list<int32_t>) { return *this; }
	OpImpl &TilingInputsDataDependency(std::initializer_list<int32_t>) { return *this; }
	template <typename... A> OpImpl &InputsDataDependency(A...) { return *this; }
	template <typename... A> OpImpl &TilingInputsDataDependency(A...) { return *this; }
	template <typename... A> OpImpl &PrivateAttr(A...) { return *this; }
};
struct Registry {
	std::vector<std::function<OpDef *()>> factories;
	std::map<std::string, OpImpl> impls;
	static Registry &get() { static Registry r; return r; }
};
inline int add_op(std::function<OpDef *()> f) { Registry::get().factories.push_back(std::move(f)); return 0; }
inline OpImpl &impl_op(const char *t) { OpImpl &i = Registry::get().impls[t]; i.type = t; return i; }
} // namespace ops

#define OP_ADD(Op, ...) \
	static const int npukb_op_add_##Op = ::ops::add_op([]() -> ::ops::OpDef * { return new Op(#Op); });

#define NPUKB_OPHOST_CAT2(a, b) a##b
#define NPUKB_OPHOST_CAT(a, b) NPUKB_OPHOST_CAT2(a, b)
#define IMPL_OP_OPTILING(Op) \
	static ::ops::OpImpl &NPUKB_OPHOST_CAT(npukb_impl_tiling_, __COUNTER__) = ::ops::impl_op(#Op)
#define IMPL_OP_INFERSHAPE(Op) \
	static ::ops::OpImpl &NPUKB_OPHOST_CAT(npukb_impl_is_, __COUNTER__) = ::ops::impl_op(#Op)
#define IMPL_OP(Op) IMPL_OP_OPTILING(Op)
namespace ge { using ::ops::OpImpl; }

#include "npukb_cpusim/ophost_tmpsize.h"
#include "npukb_cpusim/ophost_softmax.h"
#include "npukb_cpusim/cube_tiling.h"

#include "npukb_cpusim/dt_macros_pop.h"
#endif
