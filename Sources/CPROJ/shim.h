#ifndef MYTAXI_CPROJ_SHIM_H
#define MYTAXI_CPROJ_SHIM_H
#include <proj.h>
#endif
