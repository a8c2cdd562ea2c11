/* tiling_data_def.h - the op_host tiling-data struct macros.  One expansion
 * serves both sides: a standard-layout struct whose data members are the
 * fields in declaration order (natural alignment), plus non-virtual
 * accessors.  Member functions do not change layout, so the kernel side
 * (compiled with -DNPUKB_CPUSIM_KERNEL_SIDE and the op_host tiling header
 * force-included) sees byte-identical structs.  No registry here:
 * kernel_operator.h includes this (SoftMaxTiling) and every kernel build
 * parses it, so it stays free of <map> and <string>. */
#ifndef NPUKB_CPUSIM_TILING_DATA_DEF_H
#define NPUKB_CPUSIM_TILING_DATA_DEF_H
#include <cstddef>
#include <cstdint>
#include <cstring>

#ifdef NPUKB_CPUSIM_KERNEL_SIDE
/* The kernel sees the tiling structs by name at global scope, as CANN
 * generates them for it, but none of the op_host header's other names (its
 * constants would clash with the kernel's own). A macro expanded inside
 * namespace optiling cannot declare at global scope, so every struct also
 * gets an alias in a namespace nested where it is defined,
 * npukb_tiling_types, which the forced header brings into global scope
 * (using-directive) for optiling and for the global namespace. */
#define NPUKB_TILING_EXPORT(Alias, Name)                                        \
	namespace npukb_tiling_types { using Alias = Name; }
#define NPUKB_TILING_EXPORT_STRUCT(Name)                                        \
	struct Name;                                                                 \
	using npukb_tiling_local_##Name = Name;                                      \
	NPUKB_TILING_EXPORT(Name, npukb_tiling_local_##Name)
#else
#define NPUKB_TILING_EXPORT_STRUCT(Name)
#endif

#define BEGIN_TILING_DATA_DEF(Name)                                              \
	NPUKB_TILING_EXPORT_STRUCT(Name)                                             \
	struct Name {                                                                \
		using npukb_self = Name;                                                 \
		size_t GetDataSize() const { return sizeof(Name); }                      \
		const uint8_t *GetDataPtr() const { return reinterpret_cast<const uint8_t *>(this); } \
		bool SaveToBuffer(void *buf, size_t cap) const {                         \
			if (buf == nullptr || cap < sizeof(Name)) return false;              \
			std::memcpy(buf, this, sizeof(Name));                                \
			return true;                                                         \
		}                                                                        \
		void SetDataPtr(void *p) { if (p) std::memcpy(this, p, sizeof(Name)); }

#define TILING_DATA_FIELD_DEF(T, n)                                             \
	T n{};                                                                       \
	void set_##n(T v) { n = v; }                                                 \
	T get_##n() const { return n; }

#define TILING_DATA_FIELD_DEF_ARR(T, cnt, n)                                    \
	T n[cnt]{};                                                                  \
	void set_##n(const T *v) { if (v) std::memcpy(n, v, sizeof(n)); }            \
	T *get_##n() { return n; }

#define TILING_DATA_FIELD_DEF_STRUCT(S, n)                                      \
	S n{};                                                                       \
	S &get_##n() { return n; }                                                   \
	void set_##n(const S &v) { n = v; }

#define END_TILING_DATA_DEF };

#endif
