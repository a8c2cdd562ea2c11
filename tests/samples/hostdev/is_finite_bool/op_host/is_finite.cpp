// Test sample (host+device): IsFinite as CANN's operator declares it, with
// a bool output where the task wants x's dtype: the driver runs the kernel
// on a bool tensor and converts it, as NPUKernelBench's glue does.
#include "is_finite_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    if (context->GetOutputDesc(0)->GetDataType() != ge::DT_BOOL) {
        return ge::GRAPH_FAILED; // the operator's own output dtype
    }
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t blocks = (total + 4095) / 4096;
    if (blocks > platform.GetCoreNumAiv()) {
        blocks = platform.GetCoreNumAiv();
    }
    if (blocks == 0) {
        blocks = 1;
    }
    IsFiniteTilingData tiling;
    tiling.set_total(total);
    tiling.set_perBlock((total + blocks - 1) / blocks);
    context->SetBlockDim(static_cast<uint32_t>(blocks));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class IsFinite : public OpDef {
public:
    explicit IsFinite(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(IsFinite);
} // namespace ops
