// Test sample: the scalar_after_mte2 kernel in a project that builds it
// with --cce-auto-sync=off (CMakeLists.txt): nothing orders the scalar
// reads after the copies, a race cpusim must report.
#include "../scalar_after_mte2/add_custom.cpp"
