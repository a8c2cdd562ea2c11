/* npukb_cpusim/copy_pad.h - DataCopyPad (byte-granular GM<->UB copies with
 * 32-byte padding in UB) and the atomic modes of UB->GM copies.
 *
 * GM->UB: block i is read from GM at i*(blockLen + srcStride) bytes and
 * lands in UB at i*(blockLen rounded up to 32 + dstStride*32) bytes, after
 * leftPadding elements; with isPad the left and right padding elements are
 * filled with paddingValue, else the bytes up to the 32-byte boundary are
 * left as they were. UB->GM: block i is read from UB at i*(blockLen rounded
 * up to 32 + srcStride*32) and written to GM at i*(blockLen + dstStride)
 * bytes, exactly blockLen bytes. */
#ifndef NPUKB_CPUSIM_COPY_PAD_H
#define NPUKB_CPUSIM_COPY_PAD_H

namespace AscendC {

struct DataCopyExtParams {
	uint16_t blockCount = 1;
	uint32_t blockLen = 0;  /* bytes */
	uint32_t srcStride = 0; /* GM side: bytes; UB side: 32-byte blocks */
	uint32_t dstStride = 0;
	uint32_t rsv = 0;
	DataCopyExtParams() = default;
	/* All five, as in CANN: a four-element braced list is DataCopyParams
	 * (DataCopyPad overloads on the two would be ambiguous otherwise). */
	DataCopyExtParams(uint32_t count, uint32_t len, uint32_t src_stride, uint32_t dst_stride, uint32_t r)
		: blockCount((uint16_t)count), blockLen(len), srcStride(src_stride), dstStride(dst_stride), rsv(r) {}
};

template <class T>
struct DataCopyPadExtParams {
	bool isPad = false;
	uint8_t leftPadding = 0, rightPadding = 0; /* elements */
	T paddingValue = T();
	DataCopyPadExtParams() = default;
	DataCopyPadExtParams(bool pad, uint32_t left, uint32_t right, T value)
		: isPad(pad), leftPadding((uint8_t)left), rightPadding((uint8_t)right), paddingValue(value) {}
};

/* The older spelling: DataCopyParams with blockLen in bytes, and a padding
 * value held as raw bits. */
struct DataCopyPadParams {
	bool isPad = false;
	uint8_t leftPadding = 0, rightPadding = 0;
	uint64_t paddingValue = 0;
	DataCopyPadParams() = default;
	DataCopyPadParams(bool pad, uint32_t left, uint32_t right, uint64_t value)
		: isPad(pad), leftPadding((uint8_t)left), rightPadding((uint8_t)right), paddingValue(value) {}
};

namespace detail {

inline uint64_t up32(uint64_t n) { return (n + 31) & ~31ull; }

template <class T>
inline void pad_in(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count, uint32_t len,
		   uint64_t src_gap, uint64_t dst_gap_blocks, bool is_pad, uint32_t left, uint32_t right,
		   T value, SrcLoc loc)
{
	const char *what = "DataCopyPad GM->UB";
	if (left * sizeof(T) > 32 || right * sizeof(T) > 32)
		npukb_cpusim::fail("out-of-bounds", loc, "%s: padding of %u/%u elements exceeds one 32-byte block",
				   what, left, right);
	const uint64_t ublk = up32((uint64_t)left * sizeof(T) + len);
	const uint64_t ustep = ublk + dst_gap_blocks * 32;
	const uint64_t span = count ? (uint64_t)(count - 1) * ustep + ublk : 0;
	npukb_cpusim::ub_check(dst.addr_, span, dst.GetLength(), what, "destination", loc);
	unsigned char *d = (unsigned char *)dst.addr_;
	const unsigned char *s = (const unsigned char *)src.addr_;
	for (uint32_t i = 0; i < count; i++) {
		const unsigned char *si = s + (uint64_t)i * (len + src_gap);
		unsigned char *di = d + (uint64_t)i * ustep;
		npukb_cpusim::gm_check(si, len, "DataCopyPad GM->UB reads", loc);
		if (is_pad)
			for (uint32_t k = 0; k < left; k++)
				memcpy(di + k * sizeof(T), &value, sizeof(T));
		memcpy(di + left * sizeof(T), si, len);
		if (is_pad) {
			const uint64_t from = (uint64_t)left * sizeof(T) + len;
			for (uint32_t k = 0; k < right && from + (k + 1) * sizeof(T) <= ublk; k++)
				memcpy(di + from + k * sizeof(T), &value, sizeof(T));
		}
	}
	npukb_cpusim::cost_dma(npukb_cpusim::P_MTE2, (uint64_t)count * len);
}

template <class T>
inline void pad_out(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count, uint32_t len,
		    uint64_t src_gap_blocks, uint64_t dst_gap, SrcLoc loc)
{
	const char *what = "DataCopyPad UB->GM";
	const uint64_t ustep = up32(len) + src_gap_blocks * 32;
	const uint64_t span = count ? (uint64_t)(count - 1) * ustep + len : 0;
	npukb_cpusim::ub_check(src.addr_, span, src.GetLength(), what, "source", loc);
	unsigned char *d = (unsigned char *)dst.addr_;
	const unsigned char *s = (const unsigned char *)src.addr_;
	for (uint32_t i = 0; i < count; i++) {
		unsigned char *di = d + (uint64_t)i * (len + dst_gap);
		npukb_cpusim::gm_check(di, len, "DataCopyPad UB->GM writes", loc);
		npukb_cpusim::gm_store(di, s + (uint64_t)i * ustep, len, loc);
	}
	npukb_cpusim::cost_dma(npukb_cpusim::P_MTE3, (uint64_t)count * len);
}

} // namespace detail

template <class T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &p,
			const DataCopyPadExtParams<T> &pad, SrcLoc loc = NPUKB_LOC)
{
	detail::pad_in(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad, pad.leftPadding,
		       pad.rightPadding, pad.paddingValue, loc);
}

template <class T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p,
			const DataCopyPadParams &pad, SrcLoc loc = NPUKB_LOC)
{
	T value;
	memcpy(&value, &pad.paddingValue, sizeof(T));
	detail::pad_in(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad, pad.leftPadding,
		       pad.rightPadding, value, loc);
}

template <class T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyExtParams &p,
			SrcLoc loc = NPUKB_LOC)
{
	detail::pad_out(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, loc);
}

template <class T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p,
			SrcLoc loc = NPUKB_LOC)
{
	detail::pad_out(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, loc);
}

/* ---- atomic UB->GM copies ------------------------------------------------------ */

namespace detail {
enum AtomicOp { AT_ADD, AT_MAX, AT_MIN };
template <class T, int op>
inline void atomic_apply(void *dst, const void *src, uint64_t bytes)
{
	unsigned char *d = (unsigned char *)dst;
	const unsigned char *s = (const unsigned char *)src;
	for (uint64_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
		T a, b;
		memcpy(&a, d + i, sizeof a);
		memcpy(&b, s + i, sizeof b);
		const wide_t<T> x = widen(a), y = widen(b);
		const T r = narrow<T>(op == AT_ADD ? x + y : op == AT_MAX ? (x > y ? x : y) : (x < y ? x : y));
		memcpy(d + i, &r, sizeof r);
	}
}
template <class T> struct one_of_atomic
	: std::integral_constant<bool, std::is_same<T, half>::value || std::is_same<T, float>::value ||
					       std::is_same<T, int16_t>::value || std::is_same<T, int32_t>::value ||
					       std::is_same<T, int8_t>::value> {};
} // namespace detail

template <class T>
inline void SetAtomicAdd()
{
	static_assert(detail::one_of_atomic<T>::value, "SetAtomicAdd: element type not supported (half, float, int8_t, int16_t, int32_t)");
	npukb_cpusim::g.atomic_fn = detail::atomic_apply<T, detail::AT_ADD>;
}
template <class T>
inline void SetAtomicMax()
{
	static_assert(detail::one_of_atomic<T>::value, "SetAtomicMax: element type not supported (half, float, int8_t, int16_t, int32_t)");
	npukb_cpusim::g.atomic_fn = detail::atomic_apply<T, detail::AT_MAX>;
}
template <class T>
inline void SetAtomicMin()
{
	static_assert(detail::one_of_atomic<T>::value, "SetAtomicMin: element type not supported (half, float, int8_t, int16_t, int32_t)");
	npukb_cpusim::g.atomic_fn = detail::atomic_apply<T, detail::AT_MIN>;
}
inline void SetAtomicNone() { npukb_cpusim::g.atomic_fn = nullptr; }

} // namespace AscendC

#endif
