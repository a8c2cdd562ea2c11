// Test sample (host+device): undeclared_dtype's operator with float32 in
// its OpDef, so that its tiling runs on a float32 case and traps.
#define TRAPS_DECLARE_FLOAT 1
#include "../../undeclared_dtype/op_host/add_custom.cpp"
