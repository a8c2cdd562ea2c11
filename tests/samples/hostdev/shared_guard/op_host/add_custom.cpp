// Test sample (host+device): AddCustom's op_host, as a CANN operator
// project writes it: the tiling function reads the input shape, and the
// core count from the compile info its TilingParse function filled from
// the platform; the OpDef registers inputs, output and the tiling.
#include "add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
struct AddCustomCompileInfo {
    uint32_t coreNum = 0;
};

static ge::graphStatus TilingPrepare(gert::TilingParseContext *context)
{
    auto info = context->GetCompiledInfo<AddCustomCompileInfo>();
    if (info == nullptr || context->GetPlatformInfo() == nullptr)
        return ge::GRAPH_FAILED;
    info->coreNum = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    AddCustomTilingData tiling;
    const uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto info = static_cast<const AddCustomCompileInfo *>(context->GetCompileInfo());
    if (info == nullptr || info->coreNum == 0)
        return ge::GRAPH_FAILED;
    context->SetBlockDim(info->coreNum);
    tiling.set_totalLength(totalLength);
    tiling.set_tileNum(TileCount(totalLength));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(AddCustom).TilingParse<AddCustomCompileInfo>(TilingPrepare);
} // namespace optiling

namespace ops {
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddCustom);
} // namespace ops
