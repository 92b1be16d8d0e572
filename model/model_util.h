/* Helpers shared by the model files (internal: not part of the model API).
 * Argument checks live here so that every model rejects the same inputs. */
#ifndef GC_MODEL_UTIL_H
#define GC_MODEL_UTIL_H

#include <math.h>
#include <stddef.h>
#include "config.h"
#include "model.h"

/* A time, an inverse bandwidth or a ratio: finite and >= 0 (this also rejects NaN). */
static inline int gc_model_param_ok(double x)
{
  return isfinite(x) && x >= 0.0;
}

/* A bandwidth in bytes/s: > 0, INFINITY allowed (no size term). */
static inline int gc_model_bw_ok(double bw)
{
  return !isnan(bw) && bw > 0.0;
}

static inline int gc_model_lan_ok(const struct gc_lan *l)
{
  return l && gc_model_param_ok(l->alpha) && gc_model_param_ok(l->beta) &&
         gc_model_param_ok(l->gamma) && gc_model_param_ok(l->delta) &&
         gc_model_param_ok(l->threshold);
}

/* Cost of one message of `bytes` under the contention signature (000 Eq. 5, one term of
 * its sum): alpha + bytes*beta*gamma, plus delta from the threshold M on. */
static inline double gc_model_sig_msg(const struct gc_lan *l, double bytes)
{
  return l->alpha + bytes * l->beta * l->gamma + (bytes >= l->threshold ? l->delta : 0.0);
}

/* ceil(log2 P) for P >= 1: the number of rounds of a binomial tree. */
static inline int gc_model_ceil_log2(int P)
{
  int r = 0;
  while (r < 31 && (1L << r) < (long)P)
    r++;
  return r;
}

static inline int gc_model_min_int(int a, int b)
{
  return a < b ? a : b;
}

static inline double gc_model_max(double a, double b)
{
  return a > b ? a : b;
}

/* 0 when every size is >= 1, every lan valid and (k > 1) both matrices present and valid. */
int gc_model_grid_check(const struct gc_model_grid *g);

/* One wide-area message of `bytes` from cluster c to cluster d: alpha_w + bytes*beta_w. */
static inline double gc_model_wan_msg(const struct gc_model_grid *g, int c, int d, double bytes)
{
  return g->wan_latency[c * g->k + d] + bytes / g->wan_bandwidth[c * g->k + d];
}

/* What one wide-area flow from c to d may reach: the bandwidth, and no more than one
 * window per round trip, window / (2 W) (TCP; SimGrid caps its flows the same way). */
static inline double gc_model_wan_rate(const struct gc_model_grid *g, int c, int d)
{
  size_t cd = (size_t)c * (size_t)g->k + (size_t)d;
  double bw = g->wan_bandwidth[cd], w = g->wan_latency[cd];
  if (g->window > 0.0 && w > 0.0 && g->window / (2.0 * w) < bw)
    return g->window / (2.0 * w);
  return bw;
}

/* Flows sharing one interface: nk flows of `bytes` each, flow j starting to send at
 * release[j] (its latency paid; NULL: all at 0), at most cap[j] bytes/s, the flows in
 * progress sharing nic bytes/s in proportion to weight[j] (NULL: evenly), flow j
 * carrying sizes[j] bytes when sizes is not NULL; x[j] receives
 * when flow j ends, counted from 0 (tree_cost.c).  left[], rate[]: scratch of nk doubles. */
void gc_model_fan_out(int nk, const double *cap, const double *weight, const double *release,
                      double nic, double bytes, const double *sizes, double *left, double *rate,
                      double *x);

/* A flow's share of a link it contends for: TCP's throughput falls as the inverse of the
 * round trip (Mathis et al. 1997; SimGrid's network models weight max-min sharing by the
 * route's latency the same way), so a flow of one-way latency `lat` weighs 1/lat; the
 * floor keeps a zero latency finite (such flows then share evenly among themselves). */
static inline double gc_model_rtt_weight(double lat)
{
  return 1.0 / (lat > 1e-9 ? lat : 1e-9);
}

#endif
