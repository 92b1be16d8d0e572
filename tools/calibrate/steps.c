/* The three measurement steps, one at a time so that they never disturb each other; each
 * measures on the ranks concerned, gathers the times on rank 0, which fits them and says
 * what it found:
 *   1. calibrate_lan: Hockney alpha and beta inside a cluster (gc_fit_hockney) from a
 *      ping-pong between its first two members, one-way time = half the round trip;
 *   2. calibrate_wan: latency = alpha and bandwidth = 1/beta of the same fit between two
 *      cluster leaders, or, when that line fits poorly and the two largest sizes show a
 *      lower bandwidth (a rate-shaped link sends small messages at line rate), that
 *      bandwidth (gc_fit_tail_bandwidth) and the latency of the smallest;
 *   3. calibrate_signature: the contention signature gamma, delta, M of a cluster
 *      (gc_fit_signature, 000 Eq. 5) from MPI_Alltoall on the cluster's own communicator,
 *      with that cluster's alpha and beta. */
#include <stdarg.h>

#include "calibrate.h"

#define POOR_R2 0.9
#define POOR_REL 0.5

static void step_begin(struct progress *p, const char *fmt, ...)
{
  p->step++;
  if (world_rank != 0)
    return;
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  double elapsed = MPI_Wtime() - t_start;
  if (p->step == 1)
    say("step %d of %d: %s", p->step, p->nsteps, what);
  else
    say("step %d of %d: %s; about %.0f s left", p->step, p->nsteps, what,
        elapsed / (p->step - 1) * (p->nsteps - p->step + 1));
}

/* Poor: a large residual somewhere, or a low R^2 with residuals worth the name (R^2
 * says little when the times hardly change with the size, e.g. an all-to-all under M). */
int calibrate_poor(const struct gc_fit_quality *q)
{
  return q->max_rel > POOR_REL || (q->r2 < POOR_R2 && q->max_rel > 0.05);
}

static void warn_fit(const char *what, const struct gc_fit_quality *q)
{
  if (calibrate_poor(q))
    say("warning: poor fit for %s (R^2 = %.3f, max relative residual %.0f%%): noisy "
        "timings (a busy or oversubscribed machine?); more repetitions may help",
        what, q->r2, 100 * q->max_rel);
}

/* Positive floors: the loader refuses a zero alpha, beta or gamma, and a fit clamped at
 * 0 means "too small to see" rather than "free". */
static double floor_at(double v, double lo, int *floored)
{
  if (v < lo) {
    *floored = 1;
    return lo;
  }
  return v;
}

/* Rank 0: alpha and beta of cluster x from its one-way times t. */
static void fit_lan(struct run *r, struct cluster *x)
{
  struct gc_fit_sample s[MAX_SIZES];
  for (int i = 0; i < r->ns; i++)
    s[i] = (struct gc_fit_sample){r->sizes[i], x->p2p_t[i] = r->t[i]};
  double alpha, beta;
  int floored = 0;
  if (gc_fit_hockney(s, r->ns, &alpha, &beta, &x->q_p2p) == 0) {
    x->lan.alpha = floor_at(alpha, 1e-9, &floored);
    x->lan.beta = floor_at(beta, 1e-15, &floored);
    x->measured = 1;
    say("  %s: alpha %.3g us, beta %.3g ns/B (%.3g MB/s)", x->name, x->lan.alpha * 1e6,
        x->lan.beta * 1e9, 1e-6 / x->lan.beta);
    warn_fit("alpha, beta", &x->q_p2p);
  } else {
    say("warning: %s: ping-pong times determined no alpha, beta; defaults kept", x->name);
  }
}

void calibrate_lan(struct run *r, int c)
{
  struct cluster *x = &r->cl[c];
  int a = x->ranks[0], b = x->ranks[1];
  step_begin(&r->p, "ping-pong inside %s (ranks %d and %d)", x->name, a, b);
  calibrate_pingpong(a, b, r->sizes, r->ns, r->o, r->share, r->send, r->t);
  calibrate_to_root(a, r->t, r->ns);
  calibrate_quiet_barrier();
  if (world_rank == 0)
    fit_lan(r, x);
}

/* Rank 0: latency and bandwidth of the link w from its one-way times s; the smallest
 * values the loader accepts, and gc_fit_hockney's error, when the times determine
 * nothing. */
static int fit_wan(struct wan_fit *w, const struct gc_fit_sample *s, int ns)
{
  double alpha = 0, beta = 0;
  int rc = gc_fit_hockney(s, ns, &alpha, &beta, &w->q);
  w->latency = floor_at(alpha, 1e-9, &w->floored);
  w->bandwidth = 1 / floor_at(beta, 1e-15, &w->floored);
  /* A poor line through a rate-shaped link (a token bucket sends what fits its
   * bucket at line rate, the rest at the rate): the small messages pull the line's
   * bandwidth above the rate, the largest ones tell the rate, the smallest the
   * latency. Only in that direction: a tail faster than the line is noise (two
   * close times on a busy machine), not a rate limit. */
  double tail;
  if (calibrate_poor(&w->q) && gc_fit_tail_bandwidth(s, ns, &tail) == 0 && tail < w->bandwidth) {
    w->hockney_bandwidth = w->bandwidth;
    w->bandwidth = tail;
    w->latency = floor_at(s[0].t - s[0].m / tail, 1e-9, &w->floored);
    w->tail = 1;
  }
  return rc;
}

void calibrate_wan(struct run *r, int a, int b)
{
  const struct cluster *x = &r->cl[a], *y = &r->cl[b];
  int ra = x->ranks[0], rb = y->ranks[0];
  step_begin(&r->p, "ping-pong between %s and %s (ranks %d and %d)", x->name, y->name, ra, rb);
  calibrate_pingpong(ra, rb, r->sizes, r->ns, r->o, r->share, r->send, r->t);
  calibrate_to_root(ra, r->t, r->ns);
  calibrate_quiet_barrier();
  if (world_rank != 0)
    return;
  struct wan_fit *w = &r->wan[a * r->k + b];
  struct gc_fit_sample s[MAX_SIZES];
  for (int i = 0; i < r->ns; i++)
    s[i] = (struct gc_fit_sample){r->sizes[i], w->t[i] = r->t[i]};
  if (fit_wan(w, s, r->ns) != 0)
    say("warning: %s <-> %s: times determined nothing; smallest values written", x->name,
        y->name);
  char what[2 * GC_NAME_MAX + 16];
  snprintf(what, sizeof what, "%s <-> %s", x->name, y->name);
  warn_fit(what, &w->q);
  say("  %s <-> %s: latency %.3g us, bandwidth %.3g MB/s%s", x->name, y->name,
      w->latency * 1e6, w->bandwidth / 1e6,
      w->tail ? " (the fit being poor: bandwidth of the two largest sizes, latency "
                "of the smallest)" : "");
}

/* Rank 0: gamma, delta and threshold of cluster x from its all-to-all times t. */
static void fit_signature(struct run *r, struct cluster *x)
{
  struct gc_fit_a2a_sample as[MAX_SIZES];
  for (int i = 0; i < r->ns; i++)
    as[i] = (struct gc_fit_a2a_sample){x->n, r->sizes[i], x->a2a_t[i] = r->t[i]};
  struct gc_lan fit;
  int floored = 0;
  if (gc_fit_signature(as, r->ns, x->lan.alpha, x->lan.beta, &fit, &x->q_a2a) == 0) {
    x->lan.gamma = floor_at(fit.gamma, 1e-6, &floored);
    x->lan.delta = fit.delta;
    x->lan.threshold = fit.threshold;
    x->a2a_ok = 1;
    say("  %s: gamma %.4g, delta %.3g ms, threshold %.0f B", x->name, x->lan.gamma,
        x->lan.delta * 1e3, x->lan.threshold);
    warn_fit("gamma, delta, threshold", &x->q_a2a);
  } else {
    say("warning: %s: all-to-all times determined no signature; defaults kept", x->name);
  }
}

void calibrate_signature(struct run *r, MPI_Comm cc, int mine, int c)
{
  struct cluster *x = &r->cl[c];
  step_begin(&r->p, "all-to-all on the %d processes of %s", x->n, x->name);
  if (mine == c)
    calibrate_alltoall_sweep(cc, r->sizes, r->ns, r->o, r->share, r->send, r->recv, r->t);
  calibrate_to_root(x->ranks[0], r->t, r->ns);
  calibrate_quiet_barrier();
  if (world_rank == 0)
    fit_signature(r, x);
}
