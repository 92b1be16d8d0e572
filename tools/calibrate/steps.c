/* The measurement steps, one at a time so that they never disturb each other; each
 * measures on the ranks concerned, gathers the times on rank 0, which fits them, checks
 * the fit against physical sense (model/fit.h: gc_fit_check_*) and says what it found:
 *   1. calibrate_lan: Hockney alpha and beta inside a cluster (gc_fit_hockney) from a
 *      ping-pong between its first two members, one-way time = half the round trip;
 *   2. calibrate_wan: one flow between two cluster leaders: latency = alpha and bandwidth
 *      = 1/beta of the same fit, or, when that line fits poorly and the two largest sizes
 *      show a lower bandwidth (a rate-shaped link sends small messages at line rate), that
 *      bandwidth (gc_fit_tail_bandwidth) and the latency of the smallest;
 *   3. calibrate_backbone: many flows, every member of one cluster to every member of the
 *      other, both ways at once (what an all-to-all puts on the backbone): the aggregate
 *      bandwidth of the two largest sizes, where the links are full;
 *   4. calibrate_signature: the contention signature gamma, delta, M of a cluster from
 *      MPI_Alltoall on the cluster's own communicator, fitted where the network saturates
 *      (gc_fit_signature_saturated, 000 Eq. 5) with that cluster's alpha and beta.
 * A refused fit keeps what the cluster was described with (or, for a signature, the
 * contention-free gamma 1, delta 0); a suspect one is kept; both are said here, marked in
 * the file and in the final table, never changed in silence. */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "calibrate.h"
#include "physical.h"

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

static void warn_verdict(const char *what, const struct gc_fit_verdict *v, const char *instead)
{
  if (v->level == GC_FIT_SUSPECT)
    say("warning: %s: suspect: %s; to do: %s", what, v->why, v->todo);
  else if (v->level == GC_FIT_REFUSED)
    say("warning: %s: refused: %s; written instead: %s; to do: %s", what, v->why, instead,
        v->todo);
}

/* The loader refuses a zero alpha or beta, and a time under 1 ns (config/physical.c): the
 * smallest it accepts is written, and the check has already marked a zero alpha as
 * suspect (never a silent floor). */
static double positive(double v, double lo)
{
  return v < lo ? lo : v;
}

/* Rank 0: alpha and beta of cluster x from its one-way times t. */
static void fit_lan(struct run *r, struct cluster *x)
{
  struct gc_fit_sample s[MAX_SIZES];
  for (int i = 0; i < r->ns; i++)
    s[i] = (struct gc_fit_sample){r->sizes[i], x->p2p_t[i] = r->t[i]};
  x->p2p_noise = r->t[r->ns];
  double alpha, beta;
  char what[GC_NAME_MAX + 32];
  snprintf(what, sizeof what, "%s alpha, beta", x->name);
  if (gc_fit_hockney(s, r->ns, &alpha, &beta, &x->q_p2p) != 0) {
    x->v_p2p = (struct gc_fit_verdict){GC_FIT_REFUSED, "the ping-pong times determine no line",
                                       "check that the processes can exchange messages"};
    warn_verdict(what, &x->v_p2p, "the described values");
    return;
  }
  x->measured = 1;
  x->fit_alpha = alpha;
  gc_fit_check_hockney(s, r->ns, alpha, beta, &x->q_p2p, x->p2p_noise, &x->v_p2p);
  if (x->v_p2p.level == GC_FIT_REFUSED) {
    warn_verdict(what, &x->v_p2p, "the described values");
    return;
  }
  x->lan.alpha = positive(alpha, GC_PHYSICAL_TIME_MIN);
  x->lan.beta = beta;
  say("  %s: alpha %.3g us, beta %.3g ns/B (%.3g MB/s)", x->name, x->lan.alpha * 1e6,
      x->lan.beta * 1e9, 1e-6 / x->lan.beta);
  warn_verdict(what, &x->v_p2p, "");
}

/* The curve's sweep between world ranks a and b (--curve): one-way times at r->csizes,
 * every step between two of them bisected (calibrate_refine), on rank 0, reduced to the
 * points worth writing (curve_text.c). Nothing when no curve is asked for. */
static void sweep_curve(struct run *r, int a, int b, struct gc_curve *out, int *measured,
                        double *noise)
{
  double sizes[GC_CURVE_SAMPLES_MAX], t[GC_CURVE_SAMPLES_MAX];
  if (!r->ncs)
    return;
  calibrate_pingpong(a, b, r->csizes, r->ncs, r->o, r->share, r->send, r->t);
  for (int i = 0; i < r->ncs; i++)
    sizes[i] = r->csizes[i], t[i] = r->t[i];
  /* A step smaller than the repetitions' spread is noise: a noisy machine bisects little. */
  double spread = r->t[r->ncs], tol = fmax(spread, 0.01);
  int n = calibrate_refine(a, b, sizes, t, r->ncs, GC_CURVE_SAMPLES_MAX, tol, r->o,
                           r->share / r->ncs, r->send);
  /* The samples to rank 0: their count, sizes and times, and the spread. */
  if (a != 0 && world_rank == a) {
    MPI_Send(&n, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    MPI_Send(sizes, n, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD);
    MPI_Send(t, n, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD);
    MPI_Send(&spread, 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD);
  } else if (a != 0 && world_rank == 0) {
    MPI_Recv(&n, 1, MPI_INT, a, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(sizes, n, MPI_DOUBLE, a, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(t, n, MPI_DOUBLE, a, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&spread, 1, MPI_DOUBLE, a, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  calibrate_quiet_barrier();
  if (world_rank != 0)
    return;
  *noise = spread;
  *measured = n;
  calibrate_curve_of(sizes, t, n, spread, out);
}

void calibrate_lan(struct run *r, int c)
{
  struct cluster *x = &r->cl[c];
  int a = x->ranks[0], b = x->ranks[1];
  step_begin(&r->p, "ping-pong inside %s (ranks %d and %d)", x->name, a, b);
  calibrate_pingpong(a, b, r->sizes, r->ns, r->o, r->share, r->send, r->t);
  calibrate_to_root(a, r->t, r->ns + 1);
  calibrate_quiet_barrier();
  if (world_rank == 0)
    fit_lan(r, x);
  x->lan.curve.n = 0; /* measured now, or none: never the described one beside new alpha, beta */
  sweep_curve(r, a, b, &x->lan.curve, &x->curve_measured, &x->curve_noise);
  if (world_rank == 0 && gc_curve_set(&x->lan.curve))
    say("  %s: curve of %d points from %d sizes, %.0f B to %.0f B", x->name, x->lan.curve.n,
        x->curve_measured, r->csizes[0], r->csizes[r->ncs - 1]);
}

/* Rank 0: latency and bandwidth of the link w from its one-way times s, checked. */
static void fit_wan(struct wan_fit *w, const struct gc_fit_sample *s, int ns)
{
  double alpha = 0, beta = 0;
  if (gc_fit_hockney(s, ns, &alpha, &beta, &w->q) != 0) {
    w->v = (struct gc_fit_verdict){GC_FIT_REFUSED, "the ping-pong times determine no line",
                                   "check that the leaders can exchange messages"};
    return;
  }
  w->latency = alpha;
  w->bandwidth = beta > 0 ? 1 / beta : INFINITY;
  /* A poor line through a rate-shaped link (a token bucket sends what fits its
   * bucket at line rate, the rest at the rate): the small messages pull the line's
   * bandwidth above the rate, the largest ones tell the rate, the smallest the
   * latency. Only in that direction: a tail faster than the line is noise (two
   * close times on a busy machine), not a rate limit. */
  double tail;
  int poor = w->q.max_rel > 5 * GC_FIT_POOR_REL ||
             (w->q.r2 < GC_FIT_POOR_R2 && w->q.max_rel > GC_FIT_POOR_REL);
  if (poor && gc_fit_tail_bandwidth(s, ns, &tail) == 0 && tail < w->bandwidth) {
    w->hockney_bandwidth = w->bandwidth;
    w->bandwidth = tail;
    w->latency = s[0].t - s[0].m / tail;
    w->tail = 1;
    beta = 1 / tail;
    struct gc_fit_quality q = {1, 0}; /* judged on its own terms below, not the line's */
    gc_fit_check_hockney(s, ns, w->latency, beta, &q, w->noise, &w->v);
  } else {
    gc_fit_check_hockney(s, ns, alpha, beta, &w->q, w->noise, &w->v);
  }
  w->floored = w->latency < GC_PHYSICAL_TIME_MIN;
  w->latency = positive(w->latency, GC_PHYSICAL_TIME_MIN);
}

/* What a refused wide-area value is replaced with: the input's matrices, or gridcoll's
 * default (network.lan's alpha and 1/beta). */
static void wan_fallback(const struct run *r, int a, int b, struct wan_fit *w)
{
  int ga = r->cl[a].spec ? (int)(r->cl[a].spec - r->cfg.clusters) : -1;
  int gb = r->cl[b].spec ? (int)(r->cl[b].spec - r->cfg.clusters) : -1;
  w->latency = gc_config_wan_latency(&r->cfg, ga < 0 ? -1 : ga, gb < 0 ? -2 : gb);
  w->bandwidth = gc_config_wan_bandwidth(&r->cfg, ga < 0 ? -1 : ga, gb < 0 ? -2 : gb);
}

void calibrate_wan(struct run *r, int a, int b)
{
  const struct cluster *x = &r->cl[a], *y = &r->cl[b];
  int ra = x->ranks[0], rb = y->ranks[0];
  struct wan_fit *w = &r->wan[a * r->k + b];
  step_begin(&r->p, "one flow between %s and %s (ranks %d and %d)", x->name, y->name, ra, rb);
  sweep_curve(r, ra, rb, &w->curve, &w->curve_measured, &w->curve_noise);
  if (world_rank == 0 && gc_curve_set(&w->curve))
    say("  %s <-> %s: curve of %d points from %d sizes", x->name, y->name, w->curve.n,
        w->curve_measured);
  calibrate_pingpong(ra, rb, r->sizes, r->ns, r->o, r->share, r->send, r->t);
  calibrate_to_root(ra, r->t, r->ns + 1);
  calibrate_quiet_barrier();
  if (world_rank != 0)
    return;
  struct gc_fit_sample s[MAX_SIZES];
  for (int i = 0; i < r->ns; i++)
    s[i] = (struct gc_fit_sample){r->sizes[i], w->t[i] = r->t[i]};
  w->noise = r->t[r->ns];
  fit_wan(w, s, r->ns);
  char what[2 * GC_NAME_MAX + 16];
  snprintf(what, sizeof what, "%s <-> %s one flow", x->name, y->name);
  if (w->v.level == GC_FIT_REFUSED) {
    wan_fallback(r, a, b, w);
    warn_verdict(what, &w->v, "the described latency and bandwidth");
    return;
  }
  say("  %s <-> %s: latency %.3g us, bandwidth %.3g MB/s%s", x->name, y->name,
      w->latency * 1e6, w->bandwidth / 1e6,
      w->tail ? " (the fit being poor: bandwidth of the two largest sizes, latency "
                "of the smallest)" : "");
  warn_verdict(what, &w->v, "");
}

/* Rank 0: the aggregate bandwidth of many flows from their times: bytes per direction
 * n_a*n_b*m, the slope of the two largest sizes (where the links are full). */
static void fit_backbone(struct wan_fit *w, int flows, const double *sizes, int ns)
{
  struct gc_fit_sample s[MAX_SIZES];
  for (int i = 0; i < ns; i++)
    s[i] = (struct gc_fit_sample){.m = (double)flows * sizes[i], .t = w->agg_t[i]};
  double bw = 0;
  if (gc_fit_tail_bandwidth(s, ns, &bw) != 0)
    bw = 0;
  w->agg_fitted = bw;
  gc_fit_check_aggregate(bw, w->v.level == GC_FIT_REFUSED ? 0 : w->bandwidth, flows, &w->v_agg);
  w->aggregate = w->v_agg.level == GC_FIT_REFUSED ? 0 : bw;
}

void calibrate_backbone(struct run *r, int a, int b)
{
  const struct cluster *x = &r->cl[a], *y = &r->cl[b];
  step_begin(&r->p, "many flows between %s and %s (%d x %d, both ways)", x->name, y->name,
             x->n, y->n);
  int in = -1;
  for (int i = 0; i < x->n && in < 0; i++)
    in = x->ranks[i] == world_rank ? i : in;
  for (int i = 0; i < y->n && in < 0; i++)
    in = y->ranks[i] == world_rank ? x->n + i : in;
  MPI_Comm pair;
  MPI_Comm_split(MPI_COMM_WORLD, in >= 0 ? 0 : MPI_UNDEFINED, in, &pair);
  if (pair != MPI_COMM_NULL) {
    calibrate_flows(pair, x->n, r->sizes, r->ns, r->o, r->share, r->send, r->recv, r->t);
    MPI_Comm_free(&pair);
  }
  calibrate_to_root(x->ranks[0], r->t, r->ns + 1);
  calibrate_quiet_barrier();
  if (world_rank != 0)
    return;
  struct wan_fit *w = &r->wan[a * r->k + b];
  for (int i = 0; i < r->ns; i++)
    w->agg_t[i] = r->t[i];
  w->agg_noise = r->t[r->ns];
  w->flows = x->n * y->n;
  fit_backbone(w, w->flows, r->sizes, r->ns);
  char what[2 * GC_NAME_MAX + 32];
  snprintf(what, sizeof what, "%s <-> %s %d flows", x->name, y->name, w->flows);
  if (w->v_agg.level == GC_FIT_REFUSED) {
    warn_verdict(what, &w->v_agg, "no aggregate (the models use one flow's bandwidth)");
    return;
  }
  say("  %s <-> %s: %d flows each way together %.4g MB/s (one flow %.4g MB/s)", x->name,
      y->name, w->flows, w->aggregate / 1e6, w->bandwidth / 1e6);
  warn_verdict(what, &w->v_agg, "");
}

/* Rank 0: gamma, delta and threshold of cluster x from its all-to-all times t. */
static void fit_signature(struct run *r, struct cluster *x)
{
  struct gc_fit_a2a_sample as[MAX_SIZES];
  for (int i = 0; i < r->ns; i++)
    as[i] = (struct gc_fit_a2a_sample){x->n, r->sizes[i], x->a2a_t[i] = r->t[i]};
  x->a2a_noise = r->t[r->ns];
  struct gc_lan fit;
  char what[GC_NAME_MAX + 32];
  snprintf(what, sizeof what, "%s gamma, delta, threshold", x->name);
  if (gc_fit_signature_saturated(as, r->ns, x->lan.alpha, x->lan.beta, &fit, &x->q_a2a,
                                 &x->a2a_from) != 0) {
    x->v_a2a = (struct gc_fit_verdict){GC_FIT_REFUSED,
                                       "the all-to-all times determine no signature",
                                       "measure more sizes (-s)"};
    warn_verdict(what, &x->v_a2a, "the described values");
    return;
  }
  x->a2a_ok = 1;
  gc_fit_check_signature(&fit, &x->q_a2a, x->a2a_noise, &x->v_a2a);
  x->lan.gamma = fit.gamma, x->lan.delta = fit.delta, x->lan.threshold = fit.threshold;
  /* A start-up overload under a nanosecond, the loader's shortest time, is none. */
  if (x->lan.delta < GC_PHYSICAL_TIME_MIN)
    x->lan.delta = 0;
  if (x->v_a2a.level == GC_FIT_REFUSED) {
    x->lan.gamma = 1, x->lan.delta = 0, x->lan.threshold = 0;
    warn_verdict(what, &x->v_a2a, "gamma 1, delta 0 (the contention-free model, 000 Eq. 1)");
    return;
  }
  say("  %s: gamma %.4g, delta %.3g ms, threshold %.0f B (fitted from %.0f B, where the "
      "network saturates)", x->name, x->lan.gamma, x->lan.delta * 1e3, x->lan.threshold,
      x->a2a_from);
  warn_verdict(what, &x->v_a2a, "");
}

void calibrate_signature(struct run *r, MPI_Comm cc, int mine, int c)
{
  struct cluster *x = &r->cl[c];
  step_begin(&r->p, "all-to-all on the %d processes of %s", x->n, x->name);
  if (mine == c)
    calibrate_alltoall_sweep(cc, r->sizes, r->ns, r->o, r->share, r->send, r->recv, r->t);
  calibrate_to_root(x->ranks[0], r->t, r->ns + 1);
  calibrate_quiet_barrier();
  if (world_rank == 0)
    fit_signature(r, x);
}

/* Rank 0: clusters described with the same lan (both from -C, both left to the defaults,
 * or given the same values) should measure alike; one whose alpha is ten times away is
 * marked, whichever it is (the check cannot tell which one the machine disturbed). */
void calibrate_check_alike(struct run *r)
{
  if (world_rank != 0)
    return;
  double alpha[r->k];
  const char *names[r->k];
  struct gc_fit_verdict v[r->k];
  int members[r->k];
  for (int c = 0; c < r->k; c++) {
    if (!r->cl[c].measured || r->cl[c].v_p2p.level == GC_FIT_REFUSED)
      continue;
    int n = 0;
    for (int d = 0; d < r->k; d++)
      if (r->cl[d].measured && r->cl[d].v_p2p.level != GC_FIT_REFUSED &&
          memcmp(&r->cl[d].lan_in, &r->cl[c].lan_in, sizeof(struct gc_lan)) == 0) {
        members[n] = d;
        alpha[n] = r->cl[d].fit_alpha;
        names[n] = r->cl[d].name;
        v[n++] = (struct gc_fit_verdict){GC_FIT_GOOD, "", ""};
      }
    if (members[0] != c || n < 2) /* each group once, from its first member */
      continue;
    gc_fit_check_alike(alpha, names, n, v);
    for (int i = 0; i < n; i++)
      if (v[i].level > r->cl[members[i]].v_p2p.level) {
        struct cluster *x = &r->cl[members[i]];
        x->v_p2p = v[i];
        char what[GC_NAME_MAX + 32];
        snprintf(what, sizeof what, "%s alpha, beta", x->name);
        warn_verdict(what, &x->v_p2p, "");
      }
  }
}
