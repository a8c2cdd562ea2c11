// Test sample (host+device): AddCustom with a string attribute "mode"
// whose OpDef default is "default". The tiling refuses the default: the
// case's value, the empty string and one with blanks included, must reach it.
#include <cstring>
#include "str_attr_add_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus StrAttrTiling(gert::TilingContext *context)
{
    const char *mode = context->GetAttrs()->GetAttrPointer<char>(0);
    if (mode == nullptr || std::strcmp(mode, "default") == 0)
        return ge::GRAPH_FAILED;
    // A value with blanks must arrive whole, inner runs included.
    if (std::strchr(mode, ' ') != nullptr && std::strcmp(mode, "two  words") != 0)
        return ge::GRAPH_FAILED;
    AddCustomTilingData tiling;
    const uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetBlockDim(8);
    tiling.set_totalLength(totalLength);
    tiling.set_tileNum(TileCount(totalLength));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class StrAttrAdd : public OpDef {
public:
    explicit StrAttrAdd(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Attr("mode").AttrType(OPTIONAL).String("default");
        this->AICore().SetTiling(optiling::StrAttrTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(StrAttrAdd);
} // namespace ops
