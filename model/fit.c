/* Least-squares fits of the Hockney parameters (ping-pong) and of the contention
 * signature gamma, delta, M (000 Sec. 3: "linear regression ... comparing at least four
 * measurement points"; M chosen as the breakpoint that best splits the sample, SPEC 2).
 *
 * Both fits are linear in two non-negative unknowns (a, b) once the rest is fixed:
 *   y_i = a*p_i + b*q_i + residual, weighted by w_i = 1/t_i^2 (relative residuals).
 * ls2() solves that problem exactly, boundaries included. */
#include "fit.h"
#include "model.h"
#include "model_util.h"

/* Row i of a fit: fills y, p, q and the weight w. */
typedef void (*row_fn)(const void *ctx, int i, double *y, double *p, double *q, double *w);

struct ls2_fit {
  double a, b, ssr; /* ssr: weighted sum of squared residuals */
};

static double ssr_of(row_fn row, const void *ctx, int ns, double a, double b)
{
  double ssr = 0.0, y, p, q, w;
  for (int i = 0; i < ns; i++) {
    row(ctx, i, &y, &p, &q, &w);
    double r = y - a * p - b * q;
    ssr += w * r * r;
  }
  return ssr;
}

static void consider(struct ls2_fit *best, row_fn row, const void *ctx, int ns, double a,
                     double b)
{
  if (!isfinite(a) || !isfinite(b) || a < 0.0 || b < 0.0)
    return;
  double ssr = ssr_of(row, ctx, ns, a, b);
  if (isfinite(ssr) && ssr < best->ssr)
    *best = (struct ls2_fit){.a = a, .b = b, .ssr = ssr};
}

/* min over a, b >= 0 of sum w (y - a p - b q)^2.  The objective is convex, so the minimum
 * is the free solution when it is feasible, else the best one on an axis (or 0, 0).  The
 * normal equations are solved on unit-norm columns so that p and q of very different
 * scales (1 and 1e6 bytes) stay well conditioned. */
static struct ls2_fit ls2(row_fn row, const void *ctx, int ns)
{
  double pp = 0, pq = 0, qq = 0, py = 0, qy = 0, y, p, q, w;
  for (int i = 0; i < ns; i++) {
    row(ctx, i, &y, &p, &q, &w);
    pp += w * p * p, pq += w * p * q, qq += w * q * q, py += w * p * y, qy += w * q * y;
  }
  struct ls2_fit best = {.a = 0.0, .b = 0.0, .ssr = INFINITY};
  consider(&best, row, ctx, ns, 0.0, 0.0);
  if (pp > 0.0)
    consider(&best, row, ctx, ns, py / pp, 0.0);
  if (qq > 0.0)
    consider(&best, row, ctx, ns, 0.0, qy / qq);
  if (pp > 0.0 && qq > 0.0) {
    double np = sqrt(pp), nq = sqrt(qq), c = pq / (np * nq);
    double det = 1.0 - c * c, ry = py / np, sy = qy / nq;
    if (det > 1e-12)
      consider(&best, row, ctx, ns, (ry - c * sy) / det / np, (sy - c * ry) / det / nq);
  }
  return best;
}

/* Prediction for sample i of a fitted model; writes the measured time to *t. */
typedef double (*pred_fn)(const void *ctx, int i, double *t);

/* R^2 on the times and max relative residual of a fitted model over its samples. */
static void quality(pred_fn pred, const void *ctx, int ns, struct gc_fit_quality *q)
{
  double mean = 0.0, ss_res = 0.0, ss_tot = 0.0, max_rel = 0.0, t;
  for (int i = 0; i < ns; i++) {
    pred(ctx, i, &t);
    mean += t / ns;
  }
  for (int i = 0; i < ns; i++) {
    double r = pred(ctx, i, &t) - t, d = t - mean;
    ss_res += r * r, ss_tot += d * d;
    max_rel = gc_model_max(max_rel, fabs(r) / t);
  }
  q->r2 = ss_tot > 0.0 ? 1.0 - ss_res / ss_tot : (ss_res > 0.0 ? 0.0 : 1.0);
  q->max_rel = max_rel;
}

static int time_ok(double t)
{
  return isfinite(t) && t > 0.0;
}

/* ---- Hockney from ping-pong: t = alpha*1 + beta*m ---------------------------------- */
static void hockney_row(const void *ctx, int i, double *y, double *p, double *q, double *w)
{
  const struct gc_fit_sample *s = (const struct gc_fit_sample *)ctx + i;
  *y = s->t, *p = 1.0, *q = s->m, *w = 1.0 / (s->t * s->t);
}

struct hockney_ctx {
  const struct gc_fit_sample *s;
  double alpha, beta;
};

static double hockney_pred(const void *ctx, int i, double *t)
{
  const struct hockney_ctx *c = ctx;
  *t = c->s[i].t;
  return c->alpha + c->beta * c->s[i].m;
}

int gc_fit_hockney(const struct gc_fit_sample *s, int ns, double *alpha, double *beta,
                   struct gc_fit_quality *q)
{
  if (!s || !alpha || !beta || ns < 0)
    return GC_MODEL_EINVAL;
  for (int i = 0; i < ns; i++)
    if (!gc_model_param_ok(s[i].m) || !time_ok(s[i].t))
      return GC_MODEL_EINVAL;
  int distinct = 0;
  for (int i = 1; i < ns && !distinct; i++)
    distinct = s[i].m != s[0].m;
  if (ns < 2 || !distinct)
    return GC_MODEL_EDEGENERATE; /* a line needs two different sizes */
  struct ls2_fit f = ls2(hockney_row, s, ns);
  if (!isfinite(f.ssr))
    return GC_MODEL_EDEGENERATE;
  *alpha = f.a, *beta = f.b;
  if (q)
    quality(hockney_pred, &(struct hockney_ctx){.s = s, .alpha = f.a, .beta = f.b}, ns, q);
  return GC_MODEL_OK;
}

int gc_fit_tail_bandwidth(const struct gc_fit_sample *s, int ns, double *bandwidth)
{
  if (!s || !bandwidth || ns < 0)
    return GC_MODEL_EINVAL;
  for (int i = 0; i < ns; i++)
    if (!gc_model_param_ok(s[i].m) || !time_ok(s[i].t))
      return GC_MODEL_EINVAL;
  /* m2: the largest size; m1: the largest below it; t: the smallest time of each. */
  double m2 = -1, t2 = 0, m1 = -1, t1 = 0;
  for (int i = 0; i < ns; i++)
    if (s[i].m > m2)
      m2 = s[i].m;
  for (int i = 0; i < ns; i++)
    if (s[i].m < m2 && s[i].m > m1)
      m1 = s[i].m;
  if (m1 < 0)
    return GC_MODEL_EDEGENERATE;
  for (int i = 0; i < ns; i++) {
    if (s[i].m == m2 && (t2 == 0 || s[i].t < t2))
      t2 = s[i].t;
    if (s[i].m == m1 && (t1 == 0 || s[i].t < t1))
      t1 = s[i].t;
  }
  if (!(t2 > t1))
    return GC_MODEL_EDEGENERATE;
  *bandwidth = (m2 - m1) / (t2 - t1);
  return GC_MODEL_OK;
}

/* ---- contention signature: T/(n-1) = alpha + gamma*m*beta + delta*[m >= M] ---------- */
struct sig_ctx {
  const struct gc_fit_a2a_sample *s;
  double alpha, beta;
  double M;      /* delta applies from this size on ... */
  int use_delta; /* ... when set */
  double gamma, delta;
};

static void sig_row(const void *ctx, int i, double *y, double *p, double *q, double *w)
{
  const struct sig_ctx *c = ctx;
  const struct gc_fit_a2a_sample *s = &c->s[i];
  double k = s->n - 1;
  *y = s->t - k * c->alpha, *p = k * s->m * c->beta;
  *q = c->use_delta && s->m >= c->M ? k : 0.0, *w = 1.0 / (s->t * s->t);
}

static double sig_pred(const void *ctx, int i, double *t)
{
  const struct sig_ctx *c = ctx;
  const struct gc_fit_a2a_sample *s = &c->s[i];
  *t = s->t;
  double delta = c->use_delta && s->m >= c->M ? c->delta : 0.0;
  return (s->n - 1) * (c->alpha + c->gamma * s->m * c->beta + delta);
}

/* Smallest sample size above `above`, or INFINITY when there is none. */
static double next_size(const struct gc_fit_a2a_sample *s, int ns, double above)
{
  double next = INFINITY;
  for (int i = 0; i < ns; i++)
    if (s[i].m > above && s[i].m < next)
      next = s[i].m;
  return next;
}

/* Candidates for M: "no delta" first, then every distinct sample size in ascending order
 * (delta from it on).  A candidate replaces the best so far only when it lowers the
 * residual by more than rounding (rms relative residual 1e-12), so on a tie the earlier
 * one stays: no delta rather than a delta of 1e-20 s, and the smaller M; the result does
 * not depend on the order of the samples. */
int gc_fit_signature(const struct gc_fit_a2a_sample *s, int ns, double alpha, double beta,
                     struct gc_lan *out, struct gc_fit_quality *q)
{
  if (!s || !out || ns < 0 || !gc_model_param_ok(alpha) || !gc_model_param_ok(beta) ||
      beta <= 0.0)
    return GC_MODEL_EINVAL; /* beta == 0 leaves gamma undetermined */
  for (int i = 0; i < ns; i++)
    if (s[i].n < 2 || !gc_model_param_ok(s[i].m) || !time_ok(s[i].t))
      return GC_MODEL_EINVAL;
  int distinct = 0;
  for (int i = 1; i < ns && !distinct; i++)
    distinct = s[i].m != s[0].m;
  if (ns < 2 || !distinct)
    return GC_MODEL_EDEGENERATE; /* gamma and delta need two different sizes */

  const double tol = 1e-24 * ns;
  struct sig_ctx c = {.s = s, .alpha = alpha, .beta = beta, .use_delta = 0};
  struct ls2_fit f = ls2(sig_row, &c, ns);
  struct sig_ctx best = c;
  best.gamma = f.a, best.delta = 0.0;
  double best_ssr = f.ssr;
  c.use_delta = 1;
  for (c.M = next_size(s, ns, -1.0); c.M != INFINITY; c.M = next_size(s, ns, c.M)) {
    f = ls2(sig_row, &c, ns);
    /* A fit with delta = 0 is the "no delta" candidate again. */
    if (f.b > 0.0 && f.ssr < best_ssr - tol) {
      best = c, best.gamma = f.a, best.delta = f.b;
      best_ssr = f.ssr;
    }
  }
  if (!isfinite(best_ssr))
    return GC_MODEL_EDEGENERATE;
  *out = (struct gc_lan){.alpha = alpha, .beta = beta, .gamma = best.gamma,
                         .delta = best.delta, .threshold = best.use_delta ? best.M : 0.0};
  if (q)
    quality(sig_pred, &best, ns, q);
  return GC_MODEL_OK;
}
