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

/* The contention signature fitted where the network saturates (000 Sec. 3 fits "the
 * sizes where contention appears"): only samples of at least the Hockney half-performance
 * length alpha/beta (a message's transfer then costs at least its start-up, so the
 * network, not the latencies, sets the time), the two largest sizes when fewer reach it.
 * Below it the latencies of an all-to-all's messages overlap (an MPI library posts them
 * together) and a fit over every size drags gamma under 1. *from: the smallest size used.
 * q: the fit's quality on the samples used. Errors as gc_fit_signature. */
int gc_fit_signature_saturated(const struct gc_fit_a2a_sample *s, int ns, double alpha,
                               double beta, struct gc_lan *out, struct gc_fit_quality *q,
                               double *from);

/* ---- fits checked against physical sense ------------------------------------------ */
enum gc_fit_level {
  GC_FIT_GOOD = 0,    /* written as fitted */
  GC_FIT_SUSPECT = 1, /* written as fitted, marked in the file with why and what to do */
  GC_FIT_REFUSED = 2  /* not written: the value it replaces is written, with why */
};

struct gc_fit_verdict {
  enum gc_fit_level level;
  char why[256];  /* what is wrong, with the numbers; "" when good */
  char todo[256]; /* what the user can do about it */
};

#define GC_FIT_POOR_R2 0.9    /* below: the model explains too little of the times ... */
#define GC_FIT_POOR_REL 0.1   /* ... when a residual is also this large, relative; a
                                 residual above 5 times this is poor at any R^2 */
#define GC_FIT_ALIKE_RATIO 10 /* alphas of clusters declared alike may differ this much */

#define GC_FIT_MIN_BYTES_SHARE 0.05 /* the size term's least share of the largest time */

/* Hockney fit of one flow (ping-pong) samples s: refused when the bandwidth 1/beta is not
 * what the samples showed: at the largest size its transfer time m*beta would be under
 * GC_FIT_MIN_BYTES_SHARE of the time measured (the sizes never filled the link, e.g.
 * beta = 0, "1e+09 MB/s", from timings that do not grow with the size); suspect when
 * alpha is 0 or the fit is poor. noise: the largest relative spread
 * of the repetitions, (median - min) / min, over the sizes (negative: unknown); it tells
 * a noisy machine (repetitions differ) from a model that does not fit (they agree, as in
 * a deterministic simulator); refused too when alpha is above an hour or 1/beta outside
 * 1 bit/s .. 1 Pbit/s, what the loader refuses (config/physical.c). Returns v->level. */
int gc_fit_check_hockney(const struct gc_fit_sample *s, int ns, double alpha, double beta,
                         const struct gc_fit_quality *q, double noise,
                         struct gc_fit_verdict *v);

/* Contention signature: gamma is a ratio >= 1 in 000 (contention only slows a message
 * down); gamma below 1 by more than the fit's largest residual (and 5%) is suspect,
 * under 0.5 refused (then the contention-free model,
 * gamma 1 and delta 0, is written instead), as is a gamma above 10000 or a delta above an
 * hour (config/physical.c); a poor fit is suspect. noise as above. */
int gc_fit_check_signature(const struct gc_lan *fit, const struct gc_fit_quality *q,
                           double noise, struct gc_fit_verdict *v);

/* Many concurrent flows between two clusters (aggregate, bytes/s) against one flow
 * (one_flow) and the number of flows: refused above flows * one_flow * 1.25 (more than
 * the flows could carry each at one flow's rate) or outside 1 bit/s .. 1 Pbit/s
 * (config/physical.c, NaN included); suspect below
 * half of one flow (many flows together moved less than one alone). */
int gc_fit_check_aggregate(double aggregate, double one_flow, int flows,
                           struct gc_fit_verdict *v);

/* Alphas of n clusters declared alike (same description): v[i] is made suspect (it is not
 * lowered) for every cluster whose alpha is more than GC_FIT_ALIKE_RATIO times away from
 * the median of the n alphas. Returns how many were marked. */
int gc_fit_check_alike(const double *alpha, const char *const *names, int n,
                       struct gc_fit_verdict *v);

/* ---- refit from a run's records (gridcoll-calibrate --from-log) --------------------- */
/* One record: the model's prediction split into its start-up part L (s) and its
 * size-proportional part B (s), and the time the call really took. */
struct gc_fit_scale_sample {
  double L, B, actual;
};

/* The factors x (start-up) and y (per byte) that make x*L + y*B closest to the actual
 * times, relative least squares, x, y >= 0: the configuration's latencies are then
 * multiplied by x and its inverse bandwidths by y. q: the quality of the refitted model
 * on the samples. EDEGENERATE: fewer than 2 samples, or nothing to tell x from y. */
int gc_fit_scale(const struct gc_fit_scale_sample *s, int ns, double *x, double *y,
                 struct gc_fit_quality *q);

#endif
