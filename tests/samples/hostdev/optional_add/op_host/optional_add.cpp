// Test sample (host+device): OptionalAdd as a CANN operator project whose
// second input is OPTIONAL. The tiling asks for it by IR index: null when
// the case leaves it out, else it must be x's size; the output is then
// the tiling's instance 0 either way.
#include "optional_add_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const uint32_t n = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    const auto *bias = context->GetOptionalInputShape(1);
    if (bias != nullptr && static_cast<uint32_t>(bias->GetStorageShape().GetShapeSize()) != n) {
        return ge::GRAPH_FAILED;
    }
    if (context->GetOutputShape(0) == nullptr ||
        static_cast<uint32_t>(context->GetOutputShape(0)->GetStorageShape().GetShapeSize()) != n) {
        return ge::GRAPH_FAILED;
    }
    OptionalAddTilingData tiling;
    tiling.set_totalLength(n);
    tiling.set_hasBias(bias != nullptr ? 1 : 0);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class OptionalAdd : public OpDef {
public:
    explicit OptionalAdd(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(OptionalAdd);
} // namespace ops
