// The add_custom sample's kernel.
#include "../../add_custom/op_kernel/add_custom.cpp"
