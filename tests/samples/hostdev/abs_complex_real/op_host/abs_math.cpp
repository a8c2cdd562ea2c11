// Test sample (host+device): an AbsMath operator whose complex64 output has
// the input's dtype, as NPUKernelBench's answer declares it (its glue
// creates the output like x and compares the real part); the task wants
// float32, so the driver converts the real parts.
#include "abs_math_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    if (context->GetOutputDesc(0)->GetDataType() != ge::DT_COMPLEX64) {
        return ge::GRAPH_FAILED;
    }
    AbsMathTilingData tiling;
    tiling.set_total(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class AbsMath : public OpDef {
public:
    explicit AbsMath(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AbsMath);
} // namespace ops
