#pragma once
#include "npukb_cpusim/ophost.h"
