/* cpusim emulation of platform_ascendc::PlatformAscendC.  Values come from the
 * SoC name handed over by the harness (case file "soc" line, default ascend910b). */
#ifndef NPUKB_CPUSIM_OPHOST_PLATFORM_H
#define NPUKB_CPUSIM_OPHOST_PLATFORM_H
#include <cstdint>
#include <string>
#include "npukb_cpusim/ophost.h"
namespace platform_ascendc {
enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND310P, ASCEND310B, ASCEND910_95, RESERVED_VERSION = 99999 };
class PlatformAscendC {
public:
	PlatformAscendC() = default;
	explicit PlatformAscendC(const gert::PlatformInfoHandle *p) : soc_(p && !p->soc.empty() ? p->soc : "ascend910b") {}
	explicit PlatformAscendC(const std::string &soc) : soc_(soc.empty() ? "ascend910b" : soc) {}
	SocVersion GetSocVersion() const
	{
		if (soc_.rfind("ascend910_93", 0) == 0) return SocVersion::ASCEND910_93;
		if (soc_.rfind("ascend910b", 0) == 0) return SocVersion::ASCEND910B;
		if (soc_.rfind("ascend310p", 0) == 0) return SocVersion::ASCEND310P;
		return SocVersion::ASCEND910B;
	}
	/* 910B/910_93: decoupled AIC/AIV, 1 cube + 2 vector cores per AI core. */
	uint32_t GetCoreNumAic() const { return is310p() ? 8 : (soc_.rfind("ascend910b3", 0) == 0 || soc_.rfind("ascend910b4", 0) == 0 ? 20 : 24); }
	uint32_t GetCoreNumAiv() const { return is310p() ? 8 : GetCoreNumAic() * 2; }
	uint32_t GetCoreNum() const { return GetCoreNumAiv(); }
	uint32_t GetCoreNumVector() const { return 0; }
	void GetCoreMemSize(CoreMemType t, uint64_t &size) const
	{
		switch (t) {
		case CoreMemType::UB: size = is310p() ? 262144 : 196608; break;
		case CoreMemType::L1: size = 524288; break;
		case CoreMemType::L0_A: case CoreMemType::L0_B: size = 65536; break;
		case CoreMemType::L0_C: size = is310p() ? 262144 : 131072; break;
		case CoreMemType::L2: size = 201326592; break;
		case CoreMemType::HBM: size = 68719476736ULL; break;
		default: size = 0; break;
		}
	}
	void GetCoreMemBw(CoreMemType, uint64_t &bw) const { bw = 32; }
	/* System workspace the kernel-side library reserves at the front of the
	 * workspace; GetUserWorkspace skips exactly this many bytes. */
	uint32_t GetLibApiWorkSpaceSize() const { return 16u * 1024u * 1024u; }
	uint32_t CalcTschBlockDim(uint32_t slice, uint32_t aic, uint32_t aiv) const
	{
		if (aic == 0 || aiv == 0) return slice;
		uint32_t ratio = aiv / aic;
		return ratio ? (slice + ratio - 1) / ratio : slice;
	}
	uint32_t ReserveLocalMemory(int, uint32_t) const { return 0; }
	std::string GetSocName() const { return soc_; }
private:
	bool is310p() const { return soc_.rfind("ascend310p", 0) == 0; }
	std::string soc_ = "ascend910b";
};
/* The SoC of the case being run; the host+device driver sets it. */
inline std::string &npukb_current_soc()
{
	static std::string soc = "ascend910b";
	return soc;
}

/* What tiling functions reach through
 * PlatformAscendCManager::GetInstance()->GetCoreNumAiv() and the like. */
class PlatformAscendCManager {
public:
	static PlatformAscendC *GetInstance()
	{
		static PlatformAscendC p;
		p = PlatformAscendC(npukb_current_soc());
		return &p;
	}
	static PlatformAscendC *GetInstance(const char *) { return GetInstance(); }
};
} // namespace platform_ascendc
#endif
