/* The re-entry guard's flag (gridcoll.h: gc_guard_enter). */
#include "gridcoll.h"

GC_TLS int gc_guard_inside;
