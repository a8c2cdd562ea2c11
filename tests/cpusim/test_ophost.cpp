// Unit test of the cpusim op-host emulation (plain program: exit 0 = pass).
#include <cstdio>
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "tiling/tiling_templates_registry.h"
#include "error/ops_error.h"
#include "tiling/tiling_base.h"
#include "tiling/tiling_type.h"
#include "experiment/metadef/common/util/error_manager/error_manager.h"
#include "aclnn/opdev/op_log.h"

static int failures;
#define CHECK(c) do { if (!(c)) { std::fprintf(stderr, "FAIL %s:%d %s\n", __FILE__, __LINE__, #c); failures++; } } while (0)

namespace optiling {
BEGIN_TILING_DATA_DEF(WithSoftMax)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmax);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(WithCube)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(Inner)
TILING_DATA_FIELD_DEF(uint16_t, a);
TILING_DATA_FIELD_DEF(uint64_t, b);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(TestTiling)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF_ARR(int64_t, 3, dims);
TILING_DATA_FIELD_DEF_STRUCT(Inner, inner);
TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TestOp, TestTiling)
}

// What the kernel side would declare by hand: same layout expected.
struct KInner { uint16_t a; uint64_t b; };
struct KTiling { uint32_t total; int64_t dims[3]; KInner inner; float scale; };

static ge::graphStatus tiling_fn(gert::TilingContext *ctx)
{
	optiling::TestTiling t;
	t.set_total((uint32_t)ctx->GetInputShape(0)->GetStorageShape().GetShapeSize());
	int64_t d[3] = {1, 2, 3};
	t.set_dims(d);
	ctx->SetBlockDim(8);
	ctx->SetTilingKey(7);
	ctx->GetWorkspaceSizes(1)[0] = 100;
	if (!t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity()))
		return ge::GRAPH_FAILED;
	ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
	return ge::GRAPH_SUCCESS;
}

namespace ops {
class TestOp : public OpDef {
public:
	explicit TestOp(const char *name) : OpDef(name)
	{
		Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
		Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
		Attr("alpha").AttrType(OPTIONAL).Float(1.5f);
		this->AICore().SetTiling(tiling_fn).AddConfig("ascend910b");
	}
};
OP_ADD(TestOp);
}

/* ge's char_t, UNKNOWN_DIM, Shape; std's map in namespace optiling. */
namespace optiling {
static const map<ge::DataType, int32_t> kBufCount = { { ge::DT_FLOAT, 3 } };
}
static void test_ge_names(void)
{
	const ge::char_t *name = "op";
	CHECK(name[0] == 'o');
	CHECK(ge::UNKNOWN_DIM == -1);
	CHECK(ge::UNKNOWN_DIM_NUM == -2);
	ge::Shape s(std::vector<int64_t>{ 2, 3, 4 });
	CHECK(s.GetDimNum() == 3);
	CHECK(s.GetDim(1) == 3);
	CHECK(s.GetShapeSize() == 24);
	CHECK(s.GetDims().size() == 3 && s.GetDims()[2] == 4);
	CHECK(ge::Shape().GetDimNum() == 0);
	CHECK(optiling::kBufCount.at(ge::DT_FLOAT) == 3);
}

// The error/ops_error.h macros: a check that holds runs nothing; one
// that fails runs its expression (the return).
static ge::graphStatus checked(gert::TilingContext *ctx, const int *ptr, bool bad)
{
	OPS_LOG_D(ctx->GetNodeName(), "debug %d", 1);
	OPS_LOG_E_IF_NULL(ctx, ptr, return ge::GRAPH_FAILED);
	OPS_CHECK(bad, OPS_REPORT_VECTOR_INNER_ERR(ctx->GetNodeName(), "bad %s", "input"), return ge::GRAPH_PARAM_INVALID);
	return ge::SUCCESS;
}

ASCENDC_EXTERN_C int exported_with_c_linkage(void) { return 3; }

static void test_error_macros_and_tmp_sizes(void)
{
	gert::TilingContext ctx;
	int v = 0;
	CHECK(checked(&ctx, &v, false) == ge::GRAPH_SUCCESS);
	CHECK(checked(&ctx, nullptr, false) == ge::GRAPH_FAILED);
	CHECK(checked(&ctx, &v, true) == ge::GRAPH_PARAM_INVALID);
	CHECK(ge::SUCCESS == 0 && ge::FAILED != ge::SUCCESS);
	CHECK(exported_with_c_linkage() == 3);
	// The InferShape reporting macros compile and print (to stderr).
	REPORT_INNER_ERROR("89999", "report %d", 1);
	OP_LOGE_WITHOUT_REPORT(ctx.GetNodeName(), "log %s", "e");
	OP_LOGE(ctx.GetNodeName(), "log %d", 2);

	uint32_t mx = 0, mn = 0;
	AscendC::GetSigmoidMaxMinTmpSize(ge::Shape(std::vector<int64_t>{1000}), 2, false, mx, mn);
	CHECK(mn == 512 && mx == 8000);
	AscendC::GetSigmoidMaxMinTmpSize(ge::Shape(std::vector<int64_t>{4}), 4, false, mx, mn);
	CHECK(mn == 512 && mx == 512);
	AscendC::GetMeanMaxMinTmpSize(100, 2, 4, false, mx, mn);
	CHECK(mn == 416 && mx == 416);
}

// The tiling-class framework: stages in order, a class that is not
// capable passes to the next registered one (lowest priority first).
namespace optiling {
static std::string stages;
class FirstTiling : public TilingBaseClass {
public:
	explicit FirstTiling(gert::TilingContext *c) : TilingBaseClass(c) {}

protected:
	bool IsCapable() override { stages += "first-capable? "; return false; }
	ge::graphStatus GetShapeAttrsInfo() override { stages += "first-shape "; return ge::GRAPH_SUCCESS; }
};
class SecondTiling : public TilingBaseClass {
public:
	explicit SecondTiling(gert::TilingContext *c) : TilingBaseClass(c) {}

protected:
	ge::graphStatus GetShapeAttrsInfo() override { stages += "shape "; return ge::GRAPH_SUCCESS; }
	ge::graphStatus GetPlatformInfo() override { stages += "platform "; return ge::GRAPH_SUCCESS; }
	bool IsCapable() override { stages += "capable "; return true; }
	ge::graphStatus DoOpTiling() override { stages += "op "; context_->SetBlockDim(4); return ge::GRAPH_SUCCESS; }
	ge::graphStatus DoLibApiTiling() override { stages += "lib "; return ge::GRAPH_SUCCESS; }
	ge::graphStatus GetWorkspaceSize() override { stages += "ws "; return ge::GRAPH_SUCCESS; }
	ge::graphStatus PostTiling() override { stages += "post "; return ge::GRAPH_SUCCESS; }
	uint64_t GetTilingKey() const override { return 42; }
	void DumpTilingInfo() override { stages += "dump"; }
};
class NeverTried : public TilingBaseClass {
public:
	explicit NeverTried(gert::TilingContext *c) : TilingBaseClass(c) {}

protected:
	ge::graphStatus GetShapeAttrsInfo() override { stages += "never "; return ge::GRAPH_FAILED; }
};
} // namespace optiling
REGISTER_TILING_TEMPLATE("TemplOp", optiling::NeverTried, 300);
REGISTER_TILING_TEMPLATE("TemplOp", optiling::FirstTiling, 10);
REGISTER_TILING_TEMPLATE("TemplOp", optiling::SecondTiling, 20);

static void test_tiling_templates(void)
{
	gert::TilingContext ctx;
	ctx.io.node.type = "TemplOp";
	CHECK(optiling::TilingRegistry::GetInstance().DoTilingImpl(&ctx) == ge::GRAPH_SUCCESS);
	CHECK(optiling::stages == "first-shape first-capable? shape platform capable op lib ws post dump");
	CHECK(ctx.GetTilingKey() == 42 && ctx.GetBlockDim() == 4);
	ctx.io.node.type = "Unregistered";
	CHECK(optiling::TilingRegistry::GetInstance().DoTilingImpl(&ctx) == ge::GRAPH_FAILED);

	// InferShapeRange contexts compile against their ranges.
	gert::Shape lo({1}), hi({8});
	gert::InferShapeRangeContext rc;
	rc.in.push_back(gert::Range<gert::Shape>(&lo, &hi));
	CHECK(rc.GetInputShapeRange(0)->GetMax()->GetDim(0) == 8 && rc.GetOutputShapeRange(0) == nullptr);
}

/* A SetCheckSupport callback reads the node through ge::Operator. */
static ge::graphStatus check_supported(const ge::Operator &op, ge::AscendString &result)
{
	int64_t axis = 0;
	if (op.GetAttr("axis", axis) != ge::GRAPH_SUCCESS)
		return ge::GRAPH_FAILED;
	const ge::TensorDesc x = op.GetInputDescByName("x");
	if (x.GetShape().GetDimNum() <= (size_t)axis)
		return ge::GRAPH_NOT_CHANGED;
	result = ge::AscendString(x.GetDataType() == ge::DT_FLOAT16 ? "half" : "other");
	return ge::GRAPH_SUCCESS;
}

static void test_graph_operator(void)
{
	ge::Operator op;
	ge::AscendString r;
	CHECK(check_supported(op, r) == ge::GRAPH_FAILED); /* no attribute */
	op.SetAttr("axis", (int64_t)2);
	CHECK(check_supported(op, r) == ge::GRAPH_NOT_CHANGED); /* no input x: no dims */
	op.SetInput("x", ge::TensorDesc(ge::Shape({4, 5, 6}), ge::DT_FLOAT16));
	CHECK(check_supported(op, r) == ge::GRAPH_SUCCESS);
	CHECK(std::string(r.GetString()) == "half");
	CHECK(op.GetOutputDescByName("y").GetDataType() == ge::DT_UNDEFINED);
	float f = 0;
	CHECK(op.GetAttr("axis", f) == ge::GRAPH_FAILED); /* an int attribute is not a float one */
}

/* SoftMax's host side: a tiling struct embeds the SoftMaxTiling that
 * SoftMaxTilingFunc fills, sized from the temporary-buffer queries. */
static void test_softmax_tiling(void)
{
	const ge::Shape shape(std::vector<int64_t>{3, 7, 64});
	const uint32_t lo = AscendC::GetSoftMaxMinTmpSize(shape, 2, false);
	const uint32_t hi = AscendC::GetSoftMaxMaxTmpSize(shape, 2, false);
	CHECK(lo > 0 && hi == 21 * lo);
	CHECK(AscendC::GetSoftMaxMinTmpSize(shape, 4, false) < lo); /* half needs a float copy too */
	optiling::WithSoftMax t;
	AscendC::SoftMaxTilingFunc(shape, 2, 4 * lo, t.softmax);
	CHECK(t.softmax.srcM == 21 && t.softmax.srcK == 64 && t.softmax.srcSize == 21 * 64);
	CHECK(t.softmax.splitM == 4 && t.softmax.rangeM == 5 && t.softmax.tailM == 1);
	CHECK(t.softmax.get_outMaxK() == 16);
	unsigned char buf[sizeof t];
	CHECK(t.SaveToBuffer(buf, sizeof buf));
	SoftMaxTiling k;
	std::memcpy(&k, buf + offsetof(optiling::WithSoftMax, softmax), sizeof k);
	CHECK(k.splitM == 4); /* the kernel side reads the same bytes */
}


/* MultiCoreMatmulTiling: M and N split over the SetDim cores so that the
 * single shapes cover the shape, K whole, base blocks fractal multiples
 * inside L0; nonsense (a shape beyond the org shape) is -1. */
static void test_matmul_tiling(void)
{
	using namespace matmul_tiling;
	platform_ascendc::PlatformAscendC p(std::string("ascend910b2"));
	MultiCoreMatmulTiling mt(p);
	mt.SetDim(8);
	mt.SetAType(TPosition::GM, CubeFormat::ND, static_cast<matmul_tiling::DataType>(ge::DT_FLOAT16));
	mt.SetBType(TPosition::GM, CubeFormat::ND, static_cast<matmul_tiling::DataType>(ge::DT_FLOAT16), true);
	mt.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
	mt.SetOrgShape(300, 200, 64);
	mt.SetShape(300, 200, 64);
	mt.SetBias(false);
	mt.SetBufferSpace(-1, -1, -1);
	optiling::WithCube w;
	CHECK(mt.GetTiling(w.cube) == 0);
	const TCubeTiling &t = w.get_cube();
	CHECK(t.M == 300 && t.N == 200 && t.Ka == 64 && t.Kb == 64);
	CHECK(t.singleCoreK == 64);
	const int mDim = (300 + t.singleCoreM - 1) / t.singleCoreM, nDim = (200 + t.singleCoreN - 1) / t.singleCoreN;
	CHECK(mDim * nDim <= 8 && t.usedCoreNum == mDim * nDim);
	CHECK(mDim * t.singleCoreM >= 300 && nDim * t.singleCoreN >= 200);
	CHECK(t.usedCoreNum >= 6); /* 8 cores give a real split */
	CHECK(t.baseM % 16 == 0 && t.baseN % 16 == 0 && t.baseK % 16 == 0);
	CHECK(t.baseM * t.baseN * 4 <= 131072 && t.baseM * t.baseK * 2 <= 65536 && t.baseK * t.baseN * 2 <= 65536);
	CHECK(t.stepKa >= 1 && t.depthA1 >= t.stepKa && t.dbL0A >= 1 && t.isBias == 0);
	int32_t sm = 0, sn = 0, sk = 0, dim = 0, md = 0, nd = 0;
	CHECK(mt.GetSingleShape(sm, sn, sk) == 0 && sm == t.singleCoreM && sn == t.singleCoreN && sk == 64);
	CHECK(mt.GetCoreNum(dim, md, nd) == 0 && md == mDim && nd == nDim && dim == t.usedCoreNum);
	/* one core: the single shape is the shape */
	MultiCoreMatmulTiling one(p);
	one.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_BF16);
	one.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_BF16);
	one.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
	one.SetDim(1);
	one.SetShape(37, 5, 3);
	TCubeTiling u;
	CHECK(one.GetTiling(u) == 0 && u.singleCoreM == 37 && u.singleCoreN == 5 && u.usedCoreNum == 1);
	one.SetOrgShape(16, 5, 3);
	CHECK(one.GetTiling(u) == -1);
}

int main()
{
	test_matmul_tiling();
	test_softmax_tiling();
	test_graph_operator();
	test_tiling_templates();
	test_error_macros_and_tmp_sizes();
	test_ge_names();
	CHECK(sizeof(optiling::TestTiling) == sizeof(KTiling));
	CHECK(offsetof(optiling::TestTiling, scale) == offsetof(KTiling, scale));
	CHECK(offsetof(optiling::TestTiling, inner) == offsetof(KTiling, inner));
	optiling::TestTiling t;
	char small[8];
	CHECK(!t.SaveToBuffer(small, sizeof small));
	CHECK(npukb_ophost::tiling_classes().size() == 1 && npukb_ophost::tiling_classes()[0].op == "TestOp");

	auto &reg = ops::Registry::get();
	CHECK(reg.factories.size() == 1);
	std::unique_ptr<ops::OpDef> def(reg.factories[0]());
	CHECK(def->type == "TestOp" && def->inputs.size() == 1 && def->inputs[0].dtypes.size() == 2);
	CHECK(def->attrs.size() == 1 && def->attrs[0].kind == ops::AttrKind::FLOAT && def->attrs[0].f == 1.5f);

	gert::TilingContext ctx;
	gert::Tensor x;
	x.shape = gert::StorageShape(gert::Shape({4, 8}));
	ctx.io.inputs.push_back(x);
	CHECK(def->aicore.tiling(&ctx) == ge::GRAPH_SUCCESS);
	CHECK(ctx.GetBlockDim() == 8 && ctx.GetTilingKey() == 7 && ctx.GetWorkspaceSizes(1)[0] == 100);
	KTiling k;
	std::memcpy(&k, ctx.GetRawTilingData()->GetData(), sizeof k);
	CHECK(k.total == 32 && k.dims[2] == 3);

	gert::AttrValue a; a.kind = gert::AttrValue::LIST_INT; a.li.v = {1, 2};
	gert::AttrValue b; b.kind = gert::AttrValue::STR; b.s = "mean";
	ctx.io.attrs.attrs = {a, b};
	CHECK(ctx.GetAttrs()->GetListInt(0)->GetSize() == 2);
	CHECK(std::string(ctx.GetAttrs()->GetAttrPointer<char>(1)) == "mean");

	ctx.io.platform.soc = "ascend910b";
	platform_ascendc::PlatformAscendC p(ctx.GetPlatformInfo());
	uint64_t ub = 0;
	p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
	CHECK(ub == 196608 && p.GetCoreNumAiv() == 48 && p.GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B);
	ctx.io.platform.soc = "ascend910_93";
	platform_ascendc::PlatformAscendC p2(ctx.GetPlatformInfo());
	CHECK(p2.GetSocVersion() == platform_ascendc::SocVersion::ASCEND910_93);

	if (failures) return 1;
	std::puts("test_ophost: all passed");
	return 0;
}
