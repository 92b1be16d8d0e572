/* What physical sense allows of the quantities a configuration gives: one range per kind
 * of quantity (units.h's enum gc_unit), checked by the loader for every value of the file
 * (config_keys.c, the wan matrices of config_clusters.c), so that no value a network
 * cannot have reaches the models, and none can overflow them (a latency of 1e308 s made
 * a prediction infinite, and the summary's histogram indexed out of its bounds).
 *
 * Ranges of the non-zero values (0 is allowed only where the key's bound allows it):
 *   time            1 ns .. 1 hour
 *   size            1 B .. 2^53 B (8 PiB)
 *   bandwidth       1 bit/s .. 1 Pbit/s
 *   inverse bandwidth  8e-15 s/B .. 8 s/B (the bandwidths inverted)
 *   ratio (gamma)   0.01 .. 10000
 * physical.c says why each bound is where it is. Within them, every model's prediction
 * is finite (test/unit/check_extremes.c drives them at both ends). Pure C, no MPI. */
#ifndef GC_PHYSICAL_H
#define GC_PHYSICAL_H

#include <stddef.h>

#include "units.h"

#define GC_PHYSICAL_TIME_MIN 1e-9
#define GC_PHYSICAL_TIME_MAX 3600.0
#define GC_PHYSICAL_BYTES_MIN 1.0
#define GC_PHYSICAL_BYTES_MAX 0x1p53
#define GC_PHYSICAL_BANDWIDTH_MIN 0.125  /* bytes/s: 1 bit/s */
#define GC_PHYSICAL_BANDWIDTH_MAX 1.25e14 /* bytes/s: 1 Pbit/s */
#define GC_PHYSICAL_RATIO_MIN 0.01
#define GC_PHYSICAL_RATIO_MAX 1e4

/* The non-zero values a quantity of `unit` may take, in SI (units.h), both ends included. */
struct gc_physical_range {
  double lo, hi;
};
struct gc_physical_range gc_physical_range(enum gc_unit unit);

/* 1 when v (in SI) is a value of `unit` that physical sense allows under `bound`: finite,
 * 0 only under GC_BOUND_NONNEG or GC_BOUND_ANY, never negative (GC_BOUND_ANY: its
 * magnitude is checked), otherwise within gc_physical_range(unit); 0 otherwise. */
int gc_physical_ok(enum gc_unit unit, enum gc_bound bound, double v);

/* 0 when gc_physical_ok, else -1 with the loader's fragment in err (err may be NULL):
 *   expected a time from 1 ns to 1 hour (3600 s), got <got>
 * `got` is the value as the file wrote it (gc_config_describe). */
int gc_physical_check(enum gc_unit unit, enum gc_bound bound, double v, const char *got,
                      char *err, size_t errlen);

#endif
