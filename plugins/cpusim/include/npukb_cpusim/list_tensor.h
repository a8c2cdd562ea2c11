/* list_tensor.h - ListTensorDesc and TensorDesc: the kernel side of a tensor
 * list (CANN's dynamic inputs: ForeachXxx, NonFiniteCheckOp, ScatterList).
 *
 * The argument points at a descriptor the framework builds (the harness's
 * build_list): u64 byte offset of the address table; per member a u64 rank
 * followed by its dims; the table of member addresses. Kernels written for
 * the hardware read it through these classes or by hand (offset first,
 * then the table); both work. Every read is bounds-checked against the
 * descriptor, so an index past the list is a verdict, not a stray read. */
#ifndef NPUKB_CPUSIM_LIST_TENSOR_H
#define NPUKB_CPUSIM_LIST_TENSOR_H

namespace AscendC {

template <class T>
class TensorDesc {
public:
	TensorDesc() = default;
	void SetShapeAddr(uint64_t *shapePtr) { shape_ = shapePtr; }
	uint64_t GetDim() const { return dim_; }
	uint64_t GetIndex() const { return index_; }
	uint64_t GetShape(uint32_t offset, SrcLoc loc = NPUKB_LOC) const
	{
		if (!shape_)
			npukb_cpusim::fail("out-of-bounds", loc, "TensorDesc::GetShape before SetShapeAddr and GetDesc");
		if (offset >= dim_)
			npukb_cpusim::fail("out-of-bounds", loc, "TensorDesc::GetShape(%u) of a rank-%llu tensor",
					   offset, (unsigned long long)dim_);
		return shape_[offset];
	}
	T *GetDataPtr() const { return data_; }
	GlobalTensor<T> GetDataObj() const
	{
		GlobalTensor<T> g;
		uint64_t n = 1;
		for (uint64_t i = 0; shape_ && i < dim_; i++)
			n *= shape_[i];
		g.SetGlobalBuffer(data_, n);
		return g;
	}

	/* Filled by ListTensorDesc::GetDesc. */
	uint64_t *shape_ = nullptr;
	uint64_t dim_ = 0;
	uint64_t index_ = 0;
	T *data_ = nullptr;
};

class ListTensorDesc {
public:
	ListTensorDesc() = default;
	explicit ListTensorDesc(void *data, uint32_t length = 0xffffffffu,
				uint32_t shapeSize = 0xffffffffu, SrcLoc loc = NPUKB_LOC)
	{
		Init(data, length, shapeSize, loc);
	}
	void Init(void *data, uint32_t length = 0xffffffffu, uint32_t shapeSize = 0xffffffffu,
		  SrcLoc loc = NPUKB_LOC)
	{
		base_ = (uint64_t *)data;
		const uint64_t table = word(0, loc);
		if (table % sizeof(uint64_t) || table < sizeof(uint64_t))
			npukb_cpusim::fail("out-of-bounds", loc, "ListTensorDesc: %p does not hold a tensor list", data);
		table_ = table / sizeof(uint64_t);
		const npukb_cpusim::GmRange *r = npukb_cpusim::gm_find((uintptr_t)data);
		count_ = (uint32_t)(((r->hi - (uintptr_t)data) / sizeof(uint64_t)) - table_);
		if (length != 0xffffffffu && length != (uint32_t)(r->hi - (uintptr_t)data))
			npukb_cpusim::fail("out-of-bounds", loc, "ListTensorDesc: length %u, but the list holds %llu bytes",
					   length, (unsigned long long)(r->hi - (uintptr_t)data));
		if (shapeSize != 0xffffffffu && shapeSize != count_)
			npukb_cpusim::fail("out-of-bounds", loc, "ListTensorDesc: shapeSize %u, but the list holds %u tensors",
					   shapeSize, count_);
	}
	uint32_t GetSize() const { return count_; }
	template <class T>
	T *GetDataPtr(uint32_t index, SrcLoc loc = NPUKB_LOC) const
	{
		check_index(index, "GetDataPtr", loc);
		return (T *)(uintptr_t)word(table_ + index, loc);
	}
	template <class T>
	void GetDesc(TensorDesc<T> &desc, uint32_t index, SrcLoc loc = NPUKB_LOC) const
	{
		check_index(index, "GetDesc", loc);
		uint64_t at = 1;
		for (uint32_t i = 0; i < index; i++)
			at += 1 + word(at, loc);
		desc.dim_ = word(at, loc);
		desc.index_ = index;
		if (!desc.shape_)
			npukb_cpusim::fail("out-of-bounds", loc, "ListTensorDesc::GetDesc: call SetShapeAddr on the TensorDesc first");
		for (uint64_t d = 0; d < desc.dim_; d++)
			desc.shape_[d] = word(at + 1 + d, loc);
		desc.data_ = GetDataPtr<T>(index, loc);
	}

private:
	uint64_t word(uint64_t i, SrcLoc loc) const
	{
		npukb_cpusim::gm_check(base_ + i, sizeof(uint64_t), "ListTensorDesc", loc);
		return base_[i];
	}
	void check_index(uint32_t index, const char *what, SrcLoc loc) const
	{
		if (!base_)
			npukb_cpusim::fail("out-of-bounds", loc, "ListTensorDesc::%s before Init", what);
		if (index >= count_)
			npukb_cpusim::fail("out-of-bounds", loc, "ListTensorDesc::%s(%u) of a list of %u tensors",
					   what, index, count_);
	}
	uint64_t *base_ = nullptr;
	uint64_t table_ = 0;
	uint32_t count_ = 0;
};

} // namespace AscendC

#endif
