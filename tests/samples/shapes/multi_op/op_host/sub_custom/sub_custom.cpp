// Test sample (host+device): the second operator of the project, z = x - y
// in float16, one block per 2048 elements.
#include "sub_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus SubTiling(gert::TilingContext *context)
{
    AddCustomTilingData tiling;
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());

    tiling.set_totalLength(total);
    tiling.set_tileNum(1);
    context->SetBlockDim((total + 2047) / 2048);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class SubCustom : public OpDef {
public:
    explicit SubCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::SubTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SubCustom);
} // namespace ops
