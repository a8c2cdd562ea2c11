// Test sample (host+device): AddCustom as an operator project whose
// CMakeLists.txt builds the tiling and OpDef from this file and gives an
// aclnn layer to the opapi target, which cpusim must not compile. The
// operator itself is the add_custom sample's.
#include "../../add_custom/op_host/add_custom.cpp"
