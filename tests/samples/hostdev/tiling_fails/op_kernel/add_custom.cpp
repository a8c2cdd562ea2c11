// Test sample (host+device): the kernel is AddCustom's expert answer, whose
// tiling struct has the fields this project's op_host registers.
#include "../../../../../levels/level1/Math/AddCustom/answer/add_custom.cpp"
