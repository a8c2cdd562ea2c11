/* impl_forms.h - CANN-internal pointer forms that kernels call directly
 * (DuplicateImpl, DataCopyUB2GMImpl): the functions behind the public
 * LocalTensor APIs, taking raw UB and GM addresses. They run the public
 * forms, so the same checks apply; a raw UB address carries no tensor
 * length, so such an operand is bounded only by the end of the SoC's UB.
 * TransDataTo5HDImpl lives with TransDataTo5HD (trans5hd.h). */
#ifndef NPUKB_CPUSIM_IMPL_FORMS_H
#define NPUKB_CPUSIM_IMPL_FORMS_H

namespace AscendC {
namespace detail {

/* The UB address p as a tensor reaching to the end of the unified buffer. */
template <class T>
inline LocalTensor<T> ub_address_view(T *p, const char *what, SrcLoc loc)
{
	const uintptr_t base = (uintptr_t)npukb_cpusim::ub_arena, a = (uintptr_t)p;
	if (a < base || a >= base + npukb_cpusim::g.soc.ub_bytes)
		npukb_cpusim::fail("out-of-bounds", loc, "%s: address %p is not inside the unified buffer", what,
				   (const void *)p);
	return LocalTensor<T>(p, (uint32_t)((base + npukb_cpusim::g.soc.ub_bytes - a) / sizeof(T)));
}

} // namespace detail

template <class T>
inline void DuplicateImpl(T *dst, const T &scalar, const int32_t &count, SrcLoc loc = NPUKB_LOC)
{
	Duplicate(detail::ub_address_view(dst, "DuplicateImpl", loc), scalar, count, loc);
}

template <class T>
inline void DataCopyUB2GMImpl(T *dst, T *src, const DataCopyParams &params, SrcLoc loc = NPUKB_LOC)
{
	GlobalTensor<T> gm;
	gm.SetGlobalBuffer(dst);
	DataCopy(gm, detail::ub_address_view(src, "DataCopyUB2GMImpl", loc), params, loc);
}

} // namespace AscendC

#endif
