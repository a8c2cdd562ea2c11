#pragma once
#include "npukb_cpusim/ophost_platform.h"
