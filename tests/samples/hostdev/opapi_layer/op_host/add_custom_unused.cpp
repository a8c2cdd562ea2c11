// A file no CMake target names (its line is commented out): CANN does not
// build it, and neither may cpusim.
#error "op_host/add_custom_unused.cpp is in no target_sources() and must not be compiled"
