// Test sample (host+device): a tiling function that reads an input's data
// (GetInputTensor(i)->GetData<T>(), as Fill's reads its ValueDepend dims):
// it fails without the data, and hands x's first and last elements to the
// kernel, which checks them against x in GM. It includes TilingContext
// by its CANN path and declares the dependency in the braced-list form
// CANN operators use (both must build).
#include "exe_graph/runtime/tiling_context.h"
#include "add_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Tensor *x = context->GetInputTensor(0);
    const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (x == nullptr || x->GetData<uint16_t>() == nullptr || total == 0) {
        return ge::GRAPH_FAILED;
    }
    AddCustomTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_firstBits(x->GetData<uint16_t>()[0]);
    tiling.set_lastBits(x->GetData<uint16_t>()[total - 1]);
    context->SetBlockDim(8);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(AddCustom).TilingInputsDataDependency({0});
} // namespace optiling

namespace ops {
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND}).ValueDepend(OPTIONAL);
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddCustom);
} // namespace ops
