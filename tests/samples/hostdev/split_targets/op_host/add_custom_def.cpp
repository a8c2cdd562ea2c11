// Test sample (host+device): AddCustom's OpDef, for the opsproto and
// op_host_aclnn targets. It includes the tiling header too, so TileCount
// is defined here as well as in add_custom.cpp (the optiling target).
#include "add_custom_tiling.h"
#include "register/op_def_registry.h"

namespace ops {
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddCustom);
} // namespace ops
