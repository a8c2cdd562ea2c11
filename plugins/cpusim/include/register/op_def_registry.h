#pragma once
#include "npukb_cpusim/ophost.h"
#include "register/tilingdata_base.h"
