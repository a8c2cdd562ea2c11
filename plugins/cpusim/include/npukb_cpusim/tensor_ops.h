/* tensor_ops.h - AscendC's operator forms on whole LocalTensors:
 * `dst = a + b` (also -, *, /, &, |) and `dst = a < b` (also >, <=, >=, ==, !=).
 *
 * The right-hand side builds an expression object; assigning it to dst runs the
 * matching count-form API. As in AscendC, arithmetic covers dst.GetSize()
 * elements, And/Or on 32-bit types run as the 16-bit instruction over twice the
 * count, and a comparison covers src0.GetSize() elements, one bit each in dst.
 * An operator has no room for a source-location argument, so a check that fires
 * inside one names this form instead of the kernel's line. */
#ifndef NPUKB_CPUSIM_TENSOR_OPS_H
#define NPUKB_CPUSIM_TENSOR_OPS_H

namespace AscendC {
namespace detail {

inline SrcLoc operator_loc()
{
	return SrcLoc(npukb_cpusim::SrcLocTag(), "(a LocalTensor operator expression; kernel line unknown)", 0);
}

enum class TensorOp { ADD, SUB, MUL, DIV, AND, OR };

template <class T> using as_b16_t = std::conditional_t<std::is_signed<T>::value, int16_t, uint16_t>;

template <class T, TensorOp Op>
struct TensorBinaryExpr {
	LocalTensor<T> a, b;

	void assign_to(const LocalTensor<T> &dst) const
	{
		const SrcLoc loc = operator_loc();
		const int32_t n = (int32_t)dst.GetSize();
		if constexpr (Op == TensorOp::ADD)
			Add(dst, a, b, n, loc);
		else if constexpr (Op == TensorOp::SUB)
			Sub(dst, a, b, n, loc);
		else if constexpr (Op == TensorOp::MUL)
			Mul(dst, a, b, n, loc);
		else if constexpr (Op == TensorOp::DIV)
			Div(dst, a, b, n, loc);
		else if constexpr (sizeof(T) == 4)
			/* The bitwise instructions are 16-bit: a 32-bit tensor is
			 * processed as twice as many halves. */
			TensorBinaryExpr<as_b16_t<T>, Op>{a.template ReinterpretCast<as_b16_t<T>>(),
							  b.template ReinterpretCast<as_b16_t<T>>()}
				.assign_to(dst.template ReinterpretCast<as_b16_t<T>>());
		else if constexpr (Op == TensorOp::AND)
			And(dst, a, b, n, loc);
		else
			Or(dst, a, b, n, loc);
	}
};

template <class T>
struct TensorCompareExpr {
	LocalTensor<T> a, b;
	CMPMODE mode;

	template <class U>
	void assign_to(const LocalTensor<U> &dst) const
	{
		Compare(dst, a, b, mode, a.GetSize(), operator_loc());
	}
};

} // namespace detail

#define NPUKB_TENSOR_BINARY(SYM, OP)                                                             \
	template <class T>                                                                      \
	inline detail::TensorBinaryExpr<T, detail::TensorOp::OP> operator SYM(const LocalTensor<T> &a, \
									     const LocalTensor<T> &b) \
	{                                                                                       \
		return {a, b};                                                                  \
	}
NPUKB_TENSOR_BINARY(+, ADD)
NPUKB_TENSOR_BINARY(-, SUB)
NPUKB_TENSOR_BINARY(*, MUL)
NPUKB_TENSOR_BINARY(/, DIV)
NPUKB_TENSOR_BINARY(&, AND)
NPUKB_TENSOR_BINARY(|, OR)
#undef NPUKB_TENSOR_BINARY

#define NPUKB_TENSOR_COMPARE(SYM, MODE)                                                          \
	template <class T>                                                                      \
	inline detail::TensorCompareExpr<T> operator SYM(const LocalTensor<T> &a, const LocalTensor<T> &b) \
	{                                                                                       \
		return {a, b, CMPMODE::MODE};                                                   \
	}
NPUKB_TENSOR_COMPARE(<, LT)
NPUKB_TENSOR_COMPARE(>, GT)
NPUKB_TENSOR_COMPARE(<=, LE)
NPUKB_TENSOR_COMPARE(>=, GE)
NPUKB_TENSOR_COMPARE(==, EQ)
NPUKB_TENSOR_COMPARE(!=, NE)
#undef NPUKB_TENSOR_COMPARE

} // namespace AscendC

#endif
