/* platform/platform_ascendc.h - PlatformAscendC as kernel-launch projects
 * include it: CANN installs the header under include/tiling/ and the
 * projects' CMake puts that folder on the include path, so both spellings
 * name one header. */
#pragma once
#include "tiling/platform/platform_ascendc.h"
