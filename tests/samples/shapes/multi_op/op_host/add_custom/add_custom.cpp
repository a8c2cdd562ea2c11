// Test sample (host+device): the AddCustom operator of a two-operator
// project (see ../../README.md), float16, on 48 blocks of 8 tiles.
#include "add_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus AddTiling(gert::TilingContext *context)
{
    AddCustomTilingData data;
    const gert::StorageShape *x = context->GetInputShape(0);

    data.set_totalLength(static_cast<uint32_t>(x->GetStorageShape().GetShapeSize()));
    data.set_tileNum(8);
    context->SetBlockDim(48);
    data.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(data.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char *name) : OpDef(name)
    {
        for (const char *in : {"x", "y"})
            this->Input(in).ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::AddTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddCustom);
} // namespace ops
