// Test sample (host+device): the add_custom sample's op_host, for the
// optiling target.
#include "../../add_custom/op_host/add_custom.cpp"
