// Test sample (host+device): a Fill whose tiling takes the shape twice, as
// the ValueDepend input dims (its data) and as the ListInt attribute dims
// (the task's list attribute), and fails unless both match y's shape.
#include "fill_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Tensor *dims = context->GetInputTensor(0);
    const auto *attr = context->GetAttrs()->GetListInt(0);
    const gert::Shape &y = context->GetOutputShape(0)->GetStorageShape();
    const size_t rank = y.GetDimNum();
    if (dims == nullptr || dims->GetData<int64_t>() == nullptr || attr == nullptr || attr->GetSize() != rank ||
        static_cast<size_t>(dims->GetShapeSize()) != rank) {
        return ge::GRAPH_FAILED;
    }
    const int64_t *a = attr->GetData();
    for (size_t i = 0; i < rank; i++) {
        if (dims->GetData<int64_t>()[i] != y.GetDim(i) || a[i] != y.GetDim(i)) {
            return ge::GRAPH_FAILED;
        }
    }
    FillTilingData tiling;
    tiling.set_total(y.GetShapeSize());
    context->SetBlockDim(4);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class Fill : public OpDef {
public:
    explicit Fill(const char *name) : OpDef(name)
    {
        this->Input("dims").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND}).ValueDepend(REQUIRED);
        this->Input("value").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Attr("dims").ListInt();
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Fill);
} // namespace ops
