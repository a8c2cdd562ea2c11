// Test sample (host+device): NonFiniteCheckOp as a CANN operator project
// with a DYNAMIC input. The tiling reads the list through the IR-indexed
// calls (instance info, GetDynamicInputShape/Desc) and hands the kernel the
// members' lengths; the kernel walks the ListTensorDesc.
#include "non_finite_check_op_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const auto *info = context->GetComputeNodeInfo()->GetInputInstanceInfo(0);
    if (info == nullptr || info->GetInstanceNum() == 0 || info->GetInstanceNum() > 16) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t n = static_cast<uint32_t>(info->GetInstanceNum());
    const ge::DataType dtype = context->GetDynamicInputDesc(0, 0)->GetDataType();
    uint64_t lens[16] = {0};
    for (uint32_t i = 0; i < n; i++) {
        if (context->GetDynamicInputDesc(0, i)->GetDataType() != dtype) {
            return ge::GRAPH_FAILED;
        }
        lens[i] = context->GetDynamicInputShape(0, i)->GetStorageShape().GetShapeSize();
    }
    if (context->GetOutputDesc(0)->GetDataType() != ge::DT_FLOAT) {
        return ge::GRAPH_FAILED;
    }
    NonFiniteCheckOpTilingData tiling;
    tiling.set_memberNum(n);
    tiling.set_memberLen(lens);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class NonFiniteCheckOp : public OpDef {
public:
    explicit NonFiniteCheckOp(const char *name) : OpDef(name)
    {
        this->Input("tensor_list")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("found_flag")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(NonFiniteCheckOp);
} // namespace ops
