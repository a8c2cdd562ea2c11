// Test sample (host+device): y[m x n] = x[m x k] w[k x n] as a mix
// operator. The rows are split over an even number of vector blocks (at
// most the SoC's vector cores), two per AI core, so the block dim is half
// of them; MultiCoreMatmulTiling fills the cube tiling.
#include "mix_matmul_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 2 || ws.GetDimNum() != 2 || xs.GetDim(1) != ws.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t m = static_cast<uint32_t>(xs.GetDim(0));
    const uint32_t k = static_cast<uint32_t>(xs.GetDim(1));
    const uint32_t n = static_cast<uint32_t>(ws.GetDim(1));
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t vec = platform.GetCoreNumAiv() < m ? platform.GetCoreNumAiv() : m;
    vec = (vec + 1) / 2 * 2;
    const uint32_t rows = (m + vec - 1) / vec;

    MixMatmulTilingData tiling;
    tiling.set_m(m);
    tiling.set_n(n);
    tiling.set_k(k);
    tiling.set_rowsPerBlock(rows);
    tiling.set_vectorBlocks(vec);
    const auto dt = static_cast<matmul_tiling::DataType>(context->GetInputDesc(0)->GetDataType());
    matmul_tiling::MultiCoreMatmulTiling cube(platform);
    cube.SetDim(vec);
    cube.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    cube.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    cube.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    cube.SetOrgShape(m, n, k);
    cube.SetShape(m, n, k);
    cube.SetBias(false);
    cube.SetBufferSpace(-1, -1, -1);
    if (cube.GetTiling(tiling.cube) != 0) {
        return ge::GRAPH_FAILED;
    }
    context->SetBlockDim(vec / 2);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class MixMatmul : public OpDef {
public:
    explicit MixMatmul(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("w")
            .ParamType(REQUIRED)
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
OP_ADD(MixMatmul);
} // namespace ops
