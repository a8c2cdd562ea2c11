/* softmax.h - AscendC's SoftMax high-level API on rows: per row of the
 * shape info's srcM rows (srcK elements apart), over its first oriSrcK
 * elements (srcK when oriSrcK is 0 or larger), dst = exp(x - max) / sum.
 * Elements beyond oriSrcK in a row are left alone. Each element is computed
 * exactly (double) and rounded once. A shape info of zeros takes srcM/srcK
 * from the tiling. The forms with sumTensor/maxTensor also write each row's
 * sum and max, repeated across one 32-byte block per row [layout as
 * documented for the default ND format; unconfirmed]. The tiling's split
 * fields and the temporary buffer's size are not used. Cost: five
 * transcendental-rate repeats per 256 bytes (max, sub, exp, sum, div)
 * [unconfirmed]. */
#ifndef NPUKB_CPUSIM_SOFTMAX_H
#define NPUKB_CPUSIM_SOFTMAX_H

#include <math.h>
#include <vector>

namespace AscendC {
namespace detail {

/* The rows SoftMax and SoftmaxGrad work on: m rows of k elements (the
 * shape info's, else the tiling's), of which the first n count (oriSrcK);
 * a row must be whole 32-byte blocks. */
struct SoftmaxRows {
	uint64_t m, k, n;
};
template <class T>
inline SoftmaxRows softmax_shape(const SoftMaxTiling &tiling, const SoftMaxShapeInfo &info, const char *what,
				 SrcLoc loc)
{
	SoftmaxRows r;
	r.m = info.srcM ? info.srcM : tiling.srcM;
	r.k = info.srcK ? info.srcK : tiling.srcK;
	r.n = info.oriSrcK && info.oriSrcK <= r.k ? info.oriSrcK : r.k;
	if (r.k * sizeof(T) % 32 != 0)
		npukb_cpusim::fail("misaligned", loc, "%s: srcK %llu x %zu bytes is not a multiple of 32 bytes", what,
				   (unsigned long long)r.k, sizeof(T));
	return r;
}

template <class T>
inline void softmax_rows(const LocalTensor<T> &dst, const LocalTensor<T> *sum, const LocalTensor<T> *max,
			 const LocalTensor<T> &src, const SoftMaxTiling &tiling, const SoftMaxShapeInfo &info,
			 SrcLoc loc)
{
	static_assert(one_of_float<T>::value, "SoftMax: element type not supported (half, float)");
	static const char what[] = "SoftMax";
	const SoftmaxRows rows = softmax_shape<T>(tiling, info, what, loc);
	const uint64_t m = rows.m, k = rows.k, n = rows.n;
	const uint64_t bytes = m * k * sizeof(T), per_block = 32 / sizeof(T);
	npukb_cpusim::ub_check(src.addr_, bytes, src.GetLength(), what, "source", loc);
	if (sum)
		npukb_cpusim::ub_check(sum->addr_, m * 32, sum->GetLength(), what, "sum tensor", loc);
	if (max)
		npukb_cpusim::ub_check(max->addr_, m * 32, max->GetLength(), what, "max tensor", loc);
	npukb_cpusim::ub_check(dst.addr_, bytes, dst.GetLength(), what, "destination", loc);
	std::vector<double> e(n);
	for (uint64_t r = 0; r < m; r++) {
		const T *x = src.addr_ + r * k;
		double mx = -INFINITY, s = 0;
		for (uint64_t j = 0; j < n; j++)
			mx = better(true, widen(x[j]), mx) ? widen(x[j]) : mx;
		for (uint64_t j = 0; j < n; j++)
			s += e[j] = exp(widen(x[j]) - mx);
		for (uint64_t j = 0; j < n; j++)
			dst.addr_[r * k + j] = narrow<T>(e[j] / s);
		for (uint64_t j = 0; j < per_block; j++) {
			if (sum)
				sum->addr_[r * per_block + j] = narrow<T>(s);
			if (max)
				max->addr_[r * per_block + j] = narrow<T>(mx);
		}
	}
	npukb_cpusim::cost_vec(bytes, 5 * rep_tr());
}

} // namespace detail

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const SoftMaxTiling &tiling,
		    const SoftMaxShapeInfo &shapeInfo = {}, SrcLoc loc = NPUKB_LOC)
{
	detail::softmax_rows<T>(dst, nullptr, nullptr, src, tiling, shapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
		    const SoftMaxTiling &tiling, const SoftMaxShapeInfo &shapeInfo = {}, SrcLoc loc = NPUKB_LOC)
{
	detail::tmp_check(sharedTmpBuffer, "SoftMax", loc);
	detail::softmax_rows<T>(dst, nullptr, nullptr, src, tiling, shapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftMax(const LocalTensor<T> &dst, const LocalTensor<T> &sumTensor, const LocalTensor<T> &maxTensor,
		    const LocalTensor<T> &src, const SoftMaxTiling &tiling, const SoftMaxShapeInfo &shapeInfo = {},
		    SrcLoc loc = NPUKB_LOC)
{
	detail::softmax_rows<T>(dst, &sumTensor, &maxTensor, src, tiling, shapeInfo, loc);
}

/* ... with the caller's scratch (GetSoftMaxMaxMinTmpSize's bytes). */
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftMax(const LocalTensor<T> &dst, const LocalTensor<T> &sumTensor, const LocalTensor<T> &maxTensor,
		    const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
		    const SoftMaxShapeInfo &shapeInfo = {}, SrcLoc loc = NPUKB_LOC)
{
	detail::tmp_check(sharedTmpBuffer, "SoftMax", loc);
	detail::softmax_rows<T>(dst, &sumTensor, &maxTensor, src, tiling, shapeInfo, loc);
}

/* SoftmaxGrad: per row of the shape info's srcM rows (srcK apart), over the
 * first oriSrcK elements, s = sum(grad * src); dst = (grad - s) * src, or
 * with isFront only s, repeated across one 32-byte block per row (dst then
 * holds srcM blocks). Exact in double, rounded once; the tiling's split
 * fields and the temporary buffer are not used, as for SoftMax. Cost: four
 * simple repeats per 256 bytes (mul, sum, sub, mul) [unconfirmed]. */
namespace detail {
template <class T>
inline void softmax_grad_rows(const LocalTensor<T> &dst, const LocalTensor<T> &grad, const LocalTensor<T> &src,
			      const SoftMaxTiling &tiling, bool isFront, const SoftMaxShapeInfo &info, SrcLoc loc)
{
	static_assert(one_of_float<T>::value, "SoftmaxGrad: element type not supported (half, float)");
	static const char what[] = "SoftmaxGrad";
	const SoftmaxRows rows = softmax_shape<T>(tiling, info, what, loc);
	const uint64_t m = rows.m, k = rows.k, n = rows.n;
	const uint64_t bytes = m * k * sizeof(T), per_block = 32 / sizeof(T);
	npukb_cpusim::ub_check(grad.addr_, bytes, grad.GetLength(), what, "gradient", loc);
	npukb_cpusim::ub_check(src.addr_, bytes, src.GetLength(), what, "source", loc);
	npukb_cpusim::ub_check(dst.addr_, isFront ? m * 32 : bytes, dst.GetLength(), what, "destination", loc);
	std::vector<double> out(isFront ? 0 : n);
	for (uint64_t r = 0; r < m; r++) {
		const T *g = grad.addr_ + r * k, *y = src.addr_ + r * k;
		double s = 0;
		for (uint64_t j = 0; j < n; j++)
			s += widen(g[j]) * widen(y[j]);
		if (isFront) {
			for (uint64_t j = 0; j < per_block; j++)
				dst.addr_[r * per_block + j] = narrow<T>(s);
			continue;
		}
		/* all of the row is read before dst (which may alias it) is written */
		for (uint64_t j = 0; j < n; j++)
			out[j] = (widen(g[j]) - s) * widen(y[j]);
		for (uint64_t j = 0; j < n; j++)
			dst.addr_[r * k + j] = narrow<T>(out[j]);
	}
	npukb_cpusim::cost_vec(bytes, 4 * npukb_cpusim::g.soc.vec_repeat_cycles);
}
} // namespace detail

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T> &dst, const LocalTensor<T> &grad, const LocalTensor<T> &src,
			const SoftMaxTiling &tiling, bool isFront = false, const SoftMaxShapeInfo &shapeInfo = {},
			SrcLoc loc = NPUKB_LOC)
{
	detail::softmax_grad_rows<T>(dst, grad, src, tiling, isFront, shapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T> &dst, const LocalTensor<T> &grad, const LocalTensor<T> &src,
			const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling, bool isFront = false,
			const SoftMaxShapeInfo &shapeInfo = {}, SrcLoc loc = NPUKB_LOC)
{
	detail::tmp_check(sharedTmpBuffer, "SoftmaxGrad", loc);
	detail::softmax_grad_rows<T>(dst, grad, src, tiling, isFront, shapeInfo, loc);
}

} // namespace AscendC


#endif
