// Test sample (host+device), in the layout of an msopgen operator project
// (op_host/ + op_kernel/, as CANN's AddCustom operator samples): an OpDef
// that declares float16 only, and a tiling that handles only the dtypes
// it declares, trapping (SIGILL on x86) on any other. A float32 case is
// one CANN would reject before any tiling runs. With TRAPS_DECLARE_FLOAT
// (tiling_traps) the OpDef declares float32 too, so the tiling does run
// on it, and traps.
#include "add_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static uint32_t ElementBytes(ge::DataType dt)
{
    switch (dt) {
    case ge::DT_FLOAT16:
        return 2;
    default:
        __builtin_trap(); // "cannot happen": the OpDef declares float16 only
    }
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    AddCustomTilingData tiling;
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    const uint32_t bytes = ElementBytes(context->GetInputDesc(0)->GetDataType());

    tiling.set_totalLength(total);
    tiling.set_tileNum(total * bytes >= 8 * 64 ? 8 : 1);
    context->SetBlockDim(48);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char *name) : OpDef(name)
    {
#ifdef TRAPS_DECLARE_FLOAT
        const std::vector<ge::DataType> types = {ge::DT_FLOAT16, ge::DT_FLOAT};
        const std::vector<ge::Format> formats = {ge::FORMAT_ND, ge::FORMAT_ND};
#else
        const std::vector<ge::DataType> types = {ge::DT_FLOAT16};
        const std::vector<ge::Format> formats = {ge::FORMAT_ND};
#endif
        this->Input("x").ParamType(REQUIRED).DataType(types).Format(formats);
        this->Input("y").ParamType(REQUIRED).DataType(types).Format(formats);
        this->Output("z").ParamType(REQUIRED).DataType(types).Format(formats);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddCustom);
} // namespace ops
