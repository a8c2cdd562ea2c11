// Test sample (host+device): AddCustom's InferShape, for the opsproto and
// op_host_aclnn targets. It includes the tiling header too, so TileCount
// is defined here as well as in add_custom.cpp (the optiling target):
// linked into separate libraries as in CANN, the two must not collide.
#include "add_custom_tiling.h"
#include "register/op_impl_registry.h"

namespace ops {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_INFERSHAPE(AddCustom).InferShape(InferShape);
} // namespace ops
