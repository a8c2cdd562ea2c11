/* trans5hd.h - TransDataTo5HD: per repeat, the 32-byte blocks at 16 source
 * addresses transposed into 16 destination blocks (NCHW -> NC1HWC0, or a
 * small matrix transpose). Included by kernel_operator.h only.
 *
 * One repeat, by element width:
 *   16 bits: destination block j holds element j of source blocks 0..15;
 *   32 bits: element j of source blocks 0..15 fills destination blocks 2j
 *            (sources 0..7) and 2j+1 (sources 8..15);
 *    8 bits: destination block j gets, in its low or high 16 bytes
 *            (dstHighHalf), byte j (or 16 + j: srcHighHalf) of source
 *            blocks 0..15; its other half is left alone.
 * Repeat r moves every address r * RepStride 32-byte blocks on. All
 * sources are read before anything is written. */
#ifndef NPUKB_CPUSIM_TRANS5HD_H
#define NPUKB_CPUSIM_TRANS5HD_H

namespace AscendC {

constexpr int NCHW_CONV_ADDR_LIST_SIZE = 16;

struct TransDataTo5HDParams {
	bool dstHighHalf = false, srcHighHalf = false;
	uint8_t repeatTimes = 1;
	uint16_t dstRepStride = 0, srcRepStride = 0;
	TransDataTo5HDParams() = default;
	TransDataTo5HDParams(bool dh, bool sh, uint8_t rep, uint16_t dr, uint16_t sr)
		: dstHighHalf(dh), srcHighHalf(sh), repeatTimes(rep), dstRepStride(dr), srcRepStride(sr) {}
};

namespace detail {

/* The UB offset of address a, checked: 32-byte aligned and `bytes` inside UB. */
inline uint32_t trans_addr(uintptr_t a, uint64_t bytes, const char *operand, int i, SrcLoc loc)
{
	const uintptr_t base = (uintptr_t)npukb_cpusim::ub_arena;
	if (a < base || a + bytes > base + npukb_cpusim::g.soc.ub_bytes)
		npukb_cpusim::fail("out-of-bounds", loc, "TransDataTo5HD: %s %d (%llu bytes with its repeats) is not inside the unified buffer",
				   operand, i, (unsigned long long)bytes);
	const uint32_t off = (uint32_t)(a - base);
	if (off % 32 != 0)
		npukb_cpusim::fail("misaligned", loc, "TransDataTo5HD: %s %d at UB address 0x%x is not 32-byte aligned",
				   operand, i, off);
	npukb_cpusim::ub_owner_check(off, "TransDataTo5HD", operand, loc);
	return off;
}

template <class T>
inline void trans5hd(const uintptr_t *dst, const uintptr_t *src, const TransDataTo5HDParams &p, SrcLoc loc)
{
	static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
		      "TransDataTo5HD: element type not supported (8-, 16- or 32-bit types)");
	const uint64_t reps = p.repeatTimes;
	unsigned char *ub = npukb_cpusim::ub_arena;
	uint32_t s[16], d[16];
	for (int i = 0; i < 16; i++) {
		s[i] = trans_addr(src[i], reps ? (reps - 1) * p.srcRepStride * 32ull + 32 : 0, "source", i, loc);
		d[i] = trans_addr(dst[i], reps ? (reps - 1) * p.dstRepStride * 32ull + 32 : 0, "destination", i, loc);
	}
	for (int i = 0; i < 16 && reps > 0; i++) {
		/* The first repeat's blocks (later repeats' are not noted). */
		npukb_cpusim::ub_note_access(s[i], 32, "TransDataTo5HD", "source", loc);
		npukb_cpusim::ub_note_access(d[i], 32, "TransDataTo5HD", "destination", loc);
	}
	for (uint64_t r = 0; r < reps; r++) {
		unsigned char in[16][32];
		for (int i = 0; i < 16; i++)
			memcpy(in[i], ub + s[i] + r * p.srcRepStride * 32u, 32);
		unsigned char *out[16];
		for (int j = 0; j < 16; j++)
			out[j] = ub + d[j] + r * p.dstRepStride * 32u;
		if (sizeof(T) == 2) {
			for (int j = 0; j < 16; j++)
				for (int i = 0; i < 16; i++)
					memcpy(out[j] + 2 * i, in[i] + 2 * j, 2);
		} else if (sizeof(T) == 4) {
			for (int j = 0; j < 8; j++)
				for (int i = 0; i < 16; i++)
					memcpy(out[2 * j + i / 8] + 4 * (i % 8), in[i] + 4 * j, 4);
		} else {
			const int from = p.srcHighHalf ? 16 : 0, to = p.dstHighHalf ? 16 : 0;
			for (int j = 0; j < 16; j++)
				for (int i = 0; i < 16; i++)
					out[j][to + i] = in[i][from + j];
		}
	}
	npukb_cpusim::cost_vec_rep(reps, rep());
}

/* The UB address of one entry of the three list forms. */
template <class T>
inline uintptr_t list_address(const LocalTensor<T> &t) { return (uintptr_t)t.addr_; }
inline uintptr_t list_address(uint64_t a) { return (uintptr_t)a; }
template <class T>
inline uintptr_t list_address(T *p) { return (uintptr_t)p; }

template <class T, class A>
inline void trans5hd_lists(const A (&dst)[NCHW_CONV_ADDR_LIST_SIZE], const A (&src)[NCHW_CONV_ADDR_LIST_SIZE],
			   const TransDataTo5HDParams &p, SrcLoc loc)
{
	uintptr_t d[16], s[16];
	for (int i = 0; i < 16; i++) {
		d[i] = list_address(dst[i]);
		s[i] = list_address(src[i]);
	}
	trans5hd<T>(d, s, p, loc);
}

} // namespace detail

template <class T>
inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
			   const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams &params,
			   SrcLoc loc = NPUKB_LOC)
{
	detail::trans5hd_lists<T>(dstList, srcList, params, loc);
}

/* The addresses as GetPhyAddr() gives them. */
template <class T>
inline void TransDataTo5HD(const uint64_t (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
			   const uint64_t (&srcList)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams &params,
			   SrcLoc loc = NPUKB_LOC)
{
	detail::trans5hd_lists<T>(dstList, srcList, params, loc);
}

/* The pointer form behind the public ones, which kernels also call. */
template <class T>
inline void TransDataTo5HDImpl(T *const (&dstList)[NCHW_CONV_ADDR_LIST_SIZE], T *const (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
			       const TransDataTo5HDParams &params, SrcLoc loc = NPUKB_LOC)
{
	detail::trans5hd_lists<T>(dstList, srcList, params, loc);
}

} // namespace AscendC

#endif
