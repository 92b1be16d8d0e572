/* The ranges physical sense allows (physical.h), and why each bound is where it is.
 *
 * time, 1 ns .. 1 hour: light crosses 30 cm in a nanosecond, so no message leaves one
 *   processor for another, and no processor handles one, faster (gridcoll-calibrate writes
 *   what it fits below it as 1 ns); an hour is a whole run, and the slowest link gridcoll
 *   may meet (a satellite hop, a TCP retransmission timeout) takes seconds at most, so a
 *   larger start-up time is a typing error (1e308, or microseconds given as seconds).
 * size, 1 B .. 2^53 B: a size counts bytes, and a fraction of one is no size (a window of
 *   1e-300 B would cap one flow at 1e-300 B/s and make a prediction infinite); every count
 *   up to 2^53 is a whole double, and the shim converts the sizes to size_t, where a
 *   larger double would be undefined behaviour (found by test/fuzz).
 * bandwidth, 1 bit/s .. 1 Pbit/s: slower than any modem ever built at one end; at the
 *   other a thousand times today's fastest interfaces (400 Gbit/s), and above the memory
 *   bandwidth a shared-memory transport moves (a few Tbit/s). An inverse bandwidth
 *   (Hockney's beta, 004's t and tau) is a bandwidth inverted: 8e-15 s/B .. 8 s/B.
 * ratio (the contention ratio gamma, 000 Eq. 5), 0.01 .. 10000: gamma is 1 without
 *   contention and grows with the flows that share one link; those are at most the
 *   processes of a node (hundreds) times a switch's oversubscription (a few), far below
 *   10000. Below 1 an all-to-all would beat its own bytes on the link; gridcoll-calibrate
 *   refuses a fit under 0.5 (model/fit.h), and 0.01, 100 times faster than the link, is
 *   beyond any measurement's noise.
 * Within these bounds no model overflows: n processes (at most 2^31) times an hour, or
 * 2^64 bytes at one bit per second, stay below 1e21 s. */
#include "physical.h"

#include <math.h>
#include <stdio.h>

struct kind {
  const char *noun;  /* "time" */
  const char *range; /* "from 1 ns to 1 hour (3600 s)" */
};

static const struct kind kinds[GC_UNIT_LAST] = {
    [GC_UNIT_TIME] = {"time", "from 1 ns to 1 hour (3600 s)"},
    [GC_UNIT_BYTES] = {"size", "from 1 B to 2^53 B (8 PiB)"},
    [GC_UNIT_BANDWIDTH] = {"bandwidth", "from 1 bit/s to 1 Pbit/s"},
    [GC_UNIT_INVBW] = {"bandwidth", "from 1 bit/s to 1 Pbit/s (an inverse bandwidth from "
                                    "8e-15 s/B to 8 s/B)"},
    [GC_UNIT_RATIO] = {"ratio", "from 0.01 to 10000"},
};

struct gc_physical_range gc_physical_range(enum gc_unit unit)
{
  switch (unit) {
  case GC_UNIT_TIME: return (struct gc_physical_range){GC_PHYSICAL_TIME_MIN, GC_PHYSICAL_TIME_MAX};
  case GC_UNIT_BYTES: return (struct gc_physical_range){GC_PHYSICAL_BYTES_MIN, GC_PHYSICAL_BYTES_MAX};
  case GC_UNIT_BANDWIDTH:
    return (struct gc_physical_range){GC_PHYSICAL_BANDWIDTH_MIN, GC_PHYSICAL_BANDWIDTH_MAX};
  /* The same division the parser makes of "1000 Tbit/s" and "1 bit/s" (units.c), so
   * both ends are accepted exactly. */
  case GC_UNIT_INVBW:
    return (struct gc_physical_range){1.0 / GC_PHYSICAL_BANDWIDTH_MAX,
                                      1.0 / GC_PHYSICAL_BANDWIDTH_MIN};
  case GC_UNIT_RATIO: return (struct gc_physical_range){GC_PHYSICAL_RATIO_MIN, GC_PHYSICAL_RATIO_MAX};
  default: break;
  }
  return (struct gc_physical_range){1, 0}; /* an unknown unit: nothing is within */
}

int gc_physical_ok(enum gc_unit unit, enum gc_bound bound, double v)
{
  if (!isfinite(v) || (v < 0 && bound != GC_BOUND_ANY))
    return 0;
  double a = fabs(v);
  if (!(a > 0)) /* zero, either sign */
    return bound != GC_BOUND_POSITIVE && (unsigned)unit < GC_UNIT_LAST;
  struct gc_physical_range r = gc_physical_range(unit);
  return a >= r.lo && a <= r.hi;
}

int gc_physical_check(enum gc_unit unit, enum gc_bound bound, double v, const char *got,
                      char *err, size_t errlen)
{
  if (gc_physical_ok(unit, bound, v))
    return 0;
  if (err && errlen) {
    int known = (unsigned)unit < GC_UNIT_LAST;
    snprintf(err, errlen, "expected %sa %s %s, got %s", bound == GC_BOUND_POSITIVE ? "" : "0 or ",
             known ? kinds[unit].noun : "value", known ? kinds[unit].range : "of a known unit",
             got ? got : "?");
  }
  return -1;
}
