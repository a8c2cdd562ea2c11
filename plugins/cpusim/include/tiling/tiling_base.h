/* tiling/tiling_base.h - the tiling-class framework CANN's operator
 * sources build their tiling on: a TilingBaseClass whose DoTiling() runs
 * the stages a subclass overrides, and a TilingRegistry that tries an
 * operator's registered tiling classes in priority order.
 *
 * DoTiling(): GetShapeAttrsInfo, GetPlatformInfo, then IsCapable (a class
 * that is not capable answers GRAPH_PARAM_INVALID), DoOpTiling,
 * DoLibApiTiling, GetWorkspaceSize, PostTiling, then the tiling key is set
 * from GetTilingKey and DumpTilingInfo runs; the first stage that fails
 * ends it with its status [the stage order is unconfirmed against CANN].
 * DoTilingImpl(context): the classes registered for the context's operator
 * type, lowest priority number first; GRAPH_PARAM_INVALID moves on to the
 * next, any other status is the answer; none capable is GRAPH_FAILED. */
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "npukb_cpusim/ophost.h"
#include "npukb_cpusim/ophost_platform.h"
#include "register/tilingdata_base.h"

namespace optiling {

struct AiCoreParams {
	uint64_t ubSize = 0;
	uint64_t blockDim = 0;
	uint64_t aicNum = 0;
	uint64_t l1Size = 0;
	uint64_t l0aSize = 0;
	uint64_t l0bSize = 0;
	uint64_t l0cSize = 0;
};

class TilingBaseClass {
public:
	explicit TilingBaseClass(gert::TilingContext *context) : context_(context) {}
	TilingBaseClass() = default;
	virtual ~TilingBaseClass() = default;

	ge::graphStatus DoTiling()
	{
		ge::graphStatus st = GetShapeAttrsInfo();
		if (st != ge::GRAPH_SUCCESS)
			return st;
		if ((st = GetPlatformInfo()) != ge::GRAPH_SUCCESS)
			return st;
		if (!IsCapable())
			return ge::GRAPH_PARAM_INVALID;
		if ((st = DoOpTiling()) != ge::GRAPH_SUCCESS || (st = DoLibApiTiling()) != ge::GRAPH_SUCCESS ||
		    (st = GetWorkspaceSize()) != ge::GRAPH_SUCCESS || (st = PostTiling()) != ge::GRAPH_SUCCESS)
			return st;
		context_->SetTilingKey(GetTilingKey());
		DumpTilingInfo();
		return ge::GRAPH_SUCCESS;
	}
	virtual void Reset(gert::TilingContext *context) { context_ = context; }

protected:
	virtual bool IsCapable() { return true; }
	virtual ge::graphStatus GetPlatformInfo() { return ge::GRAPH_SUCCESS; }
	virtual ge::graphStatus GetShapeAttrsInfo() { return ge::GRAPH_SUCCESS; }
	virtual ge::graphStatus DoOpTiling() { return ge::GRAPH_SUCCESS; }
	virtual ge::graphStatus DoLibApiTiling() { return ge::GRAPH_SUCCESS; }
	virtual uint64_t GetTilingKey() const { return 0; }
	virtual ge::graphStatus GetWorkspaceSize() { return ge::GRAPH_SUCCESS; }
	virtual ge::graphStatus PostTiling() { return ge::GRAPH_SUCCESS; }
	virtual void DumpTilingInfo() {}

	gert::TilingContext *context_ = nullptr;
	AiCoreParams aicoreParams_;
	uint64_t workspaceSize_ = 0;
};

class TilingRegistry {
public:
	using Creator = std::function<std::unique_ptr<TilingBaseClass>(gert::TilingContext *)>;

	static TilingRegistry &GetInstance()
	{
		static TilingRegistry r;
		return r;
	}
	int Register(const std::string &op, int32_t priority, Creator make)
	{
		std::vector<Entry> &v = classes_[op];
		v.push_back(Entry{ priority, std::move(make) });
		std::stable_sort(v.begin(), v.end(), [](const Entry &a, const Entry &b) { return a.priority < b.priority; });
		return 0;
	}
	ge::graphStatus DoTilingImpl(gert::TilingContext *context)
	{
		auto it = classes_.find(context->GetNodeType());
		if (it == classes_.end())
			return ge::GRAPH_FAILED;
		for (const Entry &e : it->second) {
			std::unique_ptr<TilingBaseClass> t = e.make(context);
			const ge::graphStatus st = t ? t->DoTiling() : ge::GRAPH_FAILED;
			if (st != ge::GRAPH_PARAM_INVALID)
				return st;
		}
		return ge::GRAPH_FAILED;
	}

private:
	struct Entry {
		int32_t priority;
		Creator make;
	};
	std::map<std::string, std::vector<Entry>> classes_;
};

} // namespace optiling

#define NPUKB_TILING_CAT2(a, b) a##b
#define NPUKB_TILING_CAT(a, b) NPUKB_TILING_CAT2(a, b)
#define REGISTER_TILING_TEMPLATE(op, cls, priority)                                                         \
	static const int NPUKB_TILING_CAT(npukb_tiling_template_, __COUNTER__) =                              \
		::optiling::TilingRegistry::GetInstance().Register(                                           \
			(op), (priority), [](gert::TilingContext *c) -> std::unique_ptr<::optiling::TilingBaseClass> { \
				return std::unique_ptr<::optiling::TilingBaseClass>(new cls(c));              \
			})
