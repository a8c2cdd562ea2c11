/* cpusim op-host registry: what op_host sources register, for the harness. */
#ifndef NPUKB_CPUSIM_OPHOST_REGISTRY_H
#define NPUKB_CPUSIM_OPHOST_REGISTRY_H
#include <cstddef>
#include <map>
#include <string>
#include <vector>
namespace npukb_ophost {
struct TilingClass { std::string op, name; size_t size; };
inline std::vector<TilingClass> &tiling_classes() { static std::vector<TilingClass> v; return v; }
inline int register_tiling_class(const char *op, const char *name, size_t size)
{
	tiling_classes().push_back(TilingClass{op, name, size});
	return 0;
}
} // namespace npukb_ophost
#endif
