/* A link's measured time of one message over its size: a piecewise-linear curve through
 * (bytes, seconds) points (issue 25).  Hockney's alpha + m*beta (reference.md section 2)
 * is one straight line, which cannot bend where the MPI library changes protocol (eager
 * to rendezvous: SimGrid's default network adds latency from 64 KiB, MPICH switches too);
 * a curve follows the bend.  Pure C, no MPI, no allocation: a curve is a fixed array so
 * that a struct gc_lan holding one is still copied by assignment.
 *
 * Between two points: the straight line through them.  Beyond the last point: the last
 * segment extended (its slope, never below 0: a large message never costs less than a
 * smaller one).  Below the first point: the first segment extended, never below 0. */
#ifndef GC_CURVE_H
#define GC_CURVE_H

#include <stddef.h>

#define GC_CURVE_MAX 48 /* points: 1 B .. 4 MiB, powers of 2 and midpoints, is 45 */
/* Times may fall by this fraction below the largest before them: a larger message can be
 * faster where the MPI library changes its constants (SimGrid's default network: 17%
 * from 1425 B to 1426 B, its latency factor falling from 1.95 to 1.61), and two close
 * sizes differ by noise.  A larger fall is an error (a typing error, or sizes and times
 * out of step). */
#define GC_CURVE_SLACK 0.25
/* Samples gc_curve_from_samples takes: a sweep and the sizes its refinement adds. */
#define GC_CURVE_SAMPLES_MAX 256

struct gc_curve {
  int n;                  /* points; 0: no curve (the Hockney line applies) */
  double m[GC_CURVE_MAX]; /* bytes, strictly increasing, each >= 0 */
  double t[GC_CURVE_MAX]; /* one-way seconds, finite and > 0 */
};

/* 1 when c holds a curve (n >= 2); 0 for NULL or an empty one. */
int gc_curve_set(const struct gc_curve *c);

/* The time of one message of m bytes on curve c (gc_curve_set(c) must hold). */
double gc_curve_time(const struct gc_curve *c, double m);

/* 0 when the n points are a curve: 2 <= n <= GC_CURVE_MAX, sizes finite, >= 0 and strictly
 * increasing, times finite and > 0, each at least (1 - GC_CURVE_SLACK) times the largest
 * before.  Otherwise the index of the first bad point plus one (or -1 for a bad count),
 * and a fragment in why (may be NULL) such as "sizes must increase: 4096 B after 8192 B". */
int gc_curve_check(const double *m, const double *t, int n, char *why, size_t len);
/* The same, with falls of any size allowed: a collective's time, where the MPI library
 * switches algorithm by size (SMPI's all-to-all of 16 ranks: 40 ms at 4 B, its log rounds
 * across a 10 ms wide area, then 12 ms at 16 KiB, every message at once). */
int gc_curve_check_falls(const double *m, const double *t, int n, char *why, size_t len);

/* The points of a measured sweep (sizes increasing) worth keeping: a time more than
 * GC_CURVE_SLACK below the largest before it is noise, raised
 * (raised halfway into the slack, so that the curve written to a few digits still
 * passes gc_curve_check), then the first and last kept and every point whose removal would move the interpolated
 * curve by more than `tol` (relative) at some dropped point; where that keeps more than
 * GC_CURVE_MAX points, again with twice the tolerance.  At most GC_CURVE_SAMPLES_MAX
 * samples are read (the rest are ignored); returns out->n. */
int gc_curve_from_samples(const double *m, const double *t, int n, double tol,
                          struct gc_curve *out);

/* gc_curve_from_samples with nothing raised: the samples of a collective whose time may
 * fall (gc_curve_check_falls). */
int gc_curve_from_samples_falls(const double *m, const double *t, int n, double tol,
                                struct gc_curve *out);

#endif
