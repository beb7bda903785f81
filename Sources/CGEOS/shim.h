#ifndef MYTAXI_CGEOS_SHIM_H
#define MYTAXI_CGEOS_SHIM_H
/* Only GEOS's reentrant (_r) C API is visible to Swift. */
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
#endif
