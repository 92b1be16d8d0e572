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
/* The same points under another key: `KEY = ( (SIZE, TIME), ... );` (native.alltoall). */
void calibrate_write_points(FILE *f, const char *indent, const char *key,
                            const struct gc_curve *c, int exact);

/* The curve of a ping-pong sweep, t[i] the one-way time at sizes[i]: times under the
 * loader's shortest (1 ns) raised to it, then gc_curve_from_samples with a tolerance of
 * the sweep's noise (its repetitions' spread), between 1% and 5%: a bend smaller than
 * the noise is none. Returns out->n. */
int calibrate_curve_of(const double *sizes, const double *t, int n, double noise,
                       struct gc_curve *out);

/* Where a sweep of n points needs more sizes: 1 when the segment from point i to i+1 holds
 * a step (an MPI library switching protocol between the two sizes): the time at i+1 is off
 * the line that the segment before extends, and the time at i off the line that the
 * segment after extends backwards (when there is one), each by more than tol (relative).
 * 0 for the first segment, which has no line before it. */
int calibrate_curve_step(const double *m, const double *t, int n, int i, double tol);

/* Bisecting the step of segment i: 1 when the time t at size m is already past the step,
 * nearer the line after it (through point i+1, the next segment's slope) than the line
 * before it (through point i, the previous segment's slope). */
int calibrate_curve_past(const double *m, const double *t, int n, int i, double size, double time);

#endif
