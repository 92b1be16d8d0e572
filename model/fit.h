/* Fitting model parameters from measurements (pure C, no MPI).
 *
 * Least squares in relative terms: each sample's residual is divided by its measured
 * time, i.e. generalized least squares with a variance proportional to t^2 (000 fits by
 * GLS; timings spread over three decades of sizes, and their noise is relative).  Fitted
 * parameters are kept >= 0 (a negative latency or ratio predicts nonsense): when the free
 * solution has a negative component, the best fit with that component at 0 is taken.
 * Every function checks all of its input (count, NaN, infinities, times <= 0) and returns
 * a negative GC_MODEL_E* code (model.h) instead of a NaN; outputs are written only on
 * success. */
#ifndef GC_FIT_H
#define GC_FIT_H

#include "config.h"

struct gc_fit_sample {
  double m; /* bytes, >= 0 */
  double t; /* one-way time, s (half a ping-pong round trip), > 0 */
};

struct gc_fit_a2a_sample {
  int n;    /* processes in the all-to-all, >= 2 */
  double m; /* bytes per block, >= 0 */
  double t; /* completion time, s, > 0 */
};

struct gc_fit_quality {
  double r2;      /* 1 - SS_res/SS_tot on the times (1 when both are 0) */
  double max_rel; /* max over samples of |predicted - measured| / measured */
};

/* Hockney alpha (s) and beta (s/byte) from ping-pong samples (t = alpha + m*beta).
 * EINVAL: bad argument; EDEGENERATE: fewer than 2 samples or fewer than 2 distinct sizes. */
int gc_fit_hockney(const struct gc_fit_sample *s, int ns, double *alpha, double *beta,
                   struct gc_fit_quality *q);

/* Bandwidth (bytes/s) of the largest messages: the slope between the two largest
 * distinct sizes, (m2 - m1) / (t2 - t1), each size's smallest time. A rate-shaped link
 * (a token bucket) sends messages that fit its bucket at line rate, so a fit over every
 * size, weighted by relative error, follows the small ones; only the large ones see the
 * rate. EINVAL: bad argument; EDEGENERATE: fewer than 2 distinct sizes, or no more time
 * for the larger size. */
int gc_fit_tail_bandwidth(const struct gc_fit_sample *s, int ns, double *bandwidth);

/* Contention signature (000 Eq. 5) from all-to-all samples with alpha, beta known: fills
 * out->{alpha, beta, gamma, delta, threshold}.  The threshold M is the breakpoint that
 * minimises the residual; convention: M = the first (smallest) sample size at which delta
 * applies, so the true breakpoint lies in (previous sample size, M].  When no breakpoint
 * beats "no delta", delta = 0 and M = 0.  q may be NULL.
 * EDEGENERATE: fewer than 2 samples or fewer than 2 distinct sizes. */
int gc_fit_signature(const struct gc_fit_a2a_sample *s, int ns, double alpha, double beta,
                     struct gc_lan *out, struct gc_fit_quality *q);

#endif
