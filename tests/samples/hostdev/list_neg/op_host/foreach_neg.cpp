// Test sample (host+device): ListNeg (a ForeachNeg) as a CANN operator project with a
// DYNAMIC input and a DYNAMIC output. The tiling finds the output list's
// members by IR index as it finds the input's, and refuses lists whose
// members differ; the kernel walks both ListTensorDescs.
#include "foreach_neg_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const auto *node = context->GetComputeNodeInfo();
    const auto *in = node->GetInputInstanceInfo(0);
    const auto *out = node->GetOutputInstanceInfo(0);
    if (in == nullptr || out == nullptr || in->GetInstanceNum() == 0 || in->GetInstanceNum() > 8 ||
        out->GetInstanceNum() != in->GetInstanceNum()) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t n = static_cast<uint32_t>(in->GetInstanceNum());
    uint64_t lens[8] = {0};
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t len = context->GetDynamicInputShape(0, i)->GetStorageShape().GetShapeSize();
        const auto *y = context->GetOutputShape(out->GetInstanceStart() + i);
        if (y == nullptr || static_cast<uint64_t>(y->GetStorageShape().GetShapeSize()) != len) {
            return ge::GRAPH_FAILED;
        }
        lens[i] = len;
    }
    ForeachNegTilingData tiling;
    tiling.set_memberNum(n);
    tiling.set_memberLen(lens);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class ListNeg : public OpDef {
public:
    explicit ListNeg(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ListNeg);
} // namespace ops
