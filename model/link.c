/* One message over one link as the configuration measured it (issue 25): the curve of a
 * cluster network or of a pair of clusters (curve.h) where there is one, Hockney's line
 * (reference.md section 2, point to point) where there is none, computed exactly as
 * before so that a configuration without curves predicts what it always did.
 *
 * What a curve replaces: the time of one message alone on its link, alpha + m*beta
 * inside a cluster and W + m/rate across (binomial-hockney's rounds, binomial-grid's and
 * pairwise-grid's messages).  What it leaves: every term of concurrency, which a curve
 * measured one message at a time cannot know: the contention signature (gamma, delta,
 * 000 Eq. 5), the interface shared by a process's flows, the wide-area link shared by a
 * pair's flows (network.wan.aggregate), the window cap.  The wide-area messages of the
 * all-to-all models (grid_exchange.c) and of the broadcast trees (tree_cost.c) take their
 * pair's curve too.  Where a model moves a message at a rate that concurrency may lower,
 * the curve enters as a latency and a rate (gc_model_curve_message): the message alone takes the
 * curve's time, shared it takes longer by what the share costs. */
#include "model.h"
#include "model_util.h"

int gc_model_p2p_lan(const struct gc_lan *l, size_t m, double *t)
{
  if (!t || !l)
    return GC_MODEL_EINVAL;
  if (!gc_curve_set(&l->curve))
    return gc_model_p2p_hockney(m, l->alpha, l->beta, t);
  *t = gc_curve_time(&l->curve, (double)m);
  return GC_MODEL_OK;
}

const struct gc_curve *gc_model_link_curve(const struct gc_model_grid *g, int c, int d)
{
  const struct gc_curve *cv = c == d ? &g->lan[c].curve
                              : g->wan_curve ? g->wan_curve[(size_t)c * (size_t)g->k + (size_t)d]
                                             : NULL;
  return gc_curve_set(cv) ? cv : NULL;
}

int gc_model_curve_message(const struct gc_curve *cv, double m, double *latency, double *rate)
{
  if (!gc_curve_set(cv))
    return 0;
  double t = gc_curve_time(cv, m);
  double moving = m > 0.0 && *rate > 0.0 && isfinite(*rate) ? m / *rate : 0.0;
  if (t >= moving) {
    *latency = t - moving;
  } else { /* t > 0 here: moving > t >= 0 */
    *latency = 0.0;
    *rate = m / t;
  }
  return 1;
}

double gc_model_flow_rate(const struct gc_model_grid *g, int c, int d)
{
  const struct gc_curve *cv = gc_model_link_curve(g, c, d);
  return cv ? gc_model_curve_rate(cv) : gc_model_wan_rate(g, c, d);
}

double gc_model_wan_message(const struct gc_model_grid *g, int c, int d, double msg,
                            double *rate)
{
  double lat = g->wan_latency[(size_t)c * (size_t)g->k + (size_t)d];
  *rate = gc_model_flow_rate(g, c, d);
  gc_model_curve_message(gc_model_link_curve(g, c, d), msg, &lat, rate);
  return lat;
}

double gc_model_curve_rate(const struct gc_curve *cv)
{
  if (!gc_curve_set(cv))
    return 0.0;
  int last = cv->n - 1;
  double dt = cv->t[last] - cv->t[last - 1], dm = cv->m[last] - cv->m[last - 1];
  return dt > 0.0 ? dm / dt : INFINITY;
}
