/* A curve (model/curve.h) as configuration text: the points of a `curve` key
 * (config/config_curve.c), and a measured sweep reduced to the points worth writing.
 * Pure C, shared by the measuring writer (write.c) and the refit's (fromlog.c). */
#ifndef GC_CALIBRATE_CURVE_TEXT_H
#define GC_CALIBRATE_CURVE_TEXT_H

#include <stdio.h>

#include "curve.h"

/* `curve = ( (SIZE, TIME), ... );` then a newline, four points a line, each continuation
 * line indented by `indent`.  exact: base units with 17 digits (read back, every value is
 * the same double); else bytes and microseconds to 6 digits, for people. */
void calibrate_write_curve(FILE *f, const char *indent, const struct gc_curve *c, int exact);

/* The curve of a ping-pong sweep, t[i] the one-way time at sizes[i]: times under the
 * loader's shortest (1 ns) raised to it, then gc_curve_from_samples with a tolerance of
 * the sweep's noise (its repetitions' spread), between 1% and 5%: a bend smaller than
 * the noise is none. Returns out->n. */
int calibrate_curve_of(const double *sizes, const double *t, int n, double noise,
                       struct gc_curve *out);

#endif
