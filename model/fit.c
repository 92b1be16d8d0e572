/* Least-squares fits of the Hockney parameters (ping-pong) and of the contention
 * signature gamma, delta, M (000 Sec. 3: "linear regression ... comparing at least four
 * measurement points"; M chosen as the breakpoint that best splits the sample, reference.md section 2).
 *
 * Both fits are linear in two non-negative unknowns (a, b) once the rest is fixed:
 *   y_i = a*p_i + b*q_i + residual, weighted by w_i = 1/t_i^2 (relative residuals).
 * ls2() solves that problem exactly, boundaries included. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "fit.h"
#include "model.h"
#include "model_util.h"
#include "physical.h"

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

/* The smallest and largest size of the samples: two different sizes are there when the
 * largest lies above the smallest. */
static double smallest(const struct gc_fit_sample *s, int ns)
{
  double v = INFINITY;
  for (int i = 0; i < ns; i++)
    if (s[i].m < v)
      v = s[i].m;
  return v;
}

static double largest(const struct gc_fit_sample *s, int ns)
{
  double v = -INFINITY;
  for (int i = 0; i < ns; i++)
    if (s[i].m > v)
      v = s[i].m;
  return v;
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
  if (ns < 2 || !(largest(s, ns) > smallest(s, ns)))
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
  double m2 = -1, t2 = INFINITY, m1 = -1, t1 = INFINITY;
  for (int i = 0; i < ns; i++)
    if (s[i].m > m2)
      m2 = s[i].m;
  for (int i = 0; i < ns; i++)
    if (s[i].m < m2 && s[i].m > m1)
      m1 = s[i].m;
  if (m1 < 0)
    return GC_MODEL_EDEGENERATE;
  for (int i = 0; i < ns; i++) {
    if (s[i].m >= m2 && s[i].t < t2) /* at the largest size */
      t2 = s[i].t;
    if (s[i].m >= m1 && s[i].m < m2 && s[i].t < t1) /* at the largest below it */
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

static double a2a_largest(const struct gc_fit_a2a_sample *s, int ns)
{
  double v = -INFINITY;
  for (int i = 0; i < ns; i++)
    if (s[i].m > v)
      v = s[i].m;
  return v;
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
  if (ns < 2 || !(next_size(s, ns, -1.0) < a2a_largest(s, ns)))
    return GC_MODEL_EDEGENERATE; /* gamma and delta need two different sizes */

  const double tol = 1e-24 * ns;
  struct sig_ctx c = {.s = s, .alpha = alpha, .beta = beta, .use_delta = 0};
  struct ls2_fit f = ls2(sig_row, &c, ns);
  struct sig_ctx best = c;
  best.gamma = f.a, best.delta = 0.0;
  double best_ssr = f.ssr;
  c.use_delta = 1;
  for (c.M = next_size(s, ns, -1.0); isfinite(c.M); c.M = next_size(s, ns, c.M)) {
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

/* ---- the signature where the network saturates -------------------------------------- */
int gc_fit_signature_saturated(const struct gc_fit_a2a_sample *s, int ns, double alpha,
                               double beta, struct gc_lan *out, struct gc_fit_quality *q,
                               double *from)
{
  if (!s || !out || !from || ns < 0 || !gc_model_param_ok(alpha) ||
      !gc_model_param_ok(beta) || beta <= 0.0)
    return GC_MODEL_EINVAL;
  for (int i = 0; i < ns; i++)
    if (s[i].n < 2 || !gc_model_param_ok(s[i].m) || !time_ok(s[i].t))
      return GC_MODEL_EINVAL;
  /* The two largest distinct sizes bound the threshold from above: a fit needs two. */
  double top = -1.0, second = -1.0;
  for (int i = 0; i < ns; i++)
    if (s[i].m > top)
      top = s[i].m;
  for (int i = 0; i < ns; i++)
    if (s[i].m < top && s[i].m > second)
      second = s[i].m;
  if (second < 0.0)
    return GC_MODEL_EDEGENERATE;
  double lo = gc_model_max(0.0, alpha / beta); /* half-performance length n_1/2 */
  if (lo > second)
    lo = second;
  struct gc_fit_a2a_sample *kept = malloc(sizeof *kept * (size_t)ns);
  if (!kept)
    return GC_MODEL_ENOMEM;
  int nk = 0;
  double smallest = INFINITY;
  for (int i = 0; i < ns; i++)
    if (s[i].m >= lo) {
      kept[nk++] = s[i];
      smallest = s[i].m < smallest ? s[i].m : smallest;
    }
  struct gc_lan fit;
  int rc = gc_fit_signature(kept, nk, alpha, beta, &fit, q);
  free(kept);
  if (rc != GC_MODEL_OK)
    return rc;
  *out = fit;
  *from = smallest;
  return GC_MODEL_OK;
}

/* ---- checks ------------------------------------------------------------------------- */
static void verdict(struct gc_fit_verdict *v, enum gc_fit_level level, const char *todo,
                    const char *fmt, ...)
{
  if (level < v->level)
    return; /* the worse finding stays */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v->why, sizeof v->why, fmt, ap);
  va_end(ap);
  snprintf(v->todo, sizeof v->todo, "%s", todo);
  v->level = level;
}

static int fit_poor(const struct gc_fit_quality *q)
{
  return q->max_rel > 5 * GC_FIT_POOR_REL || (q->r2 < GC_FIT_POOR_R2 && q->max_rel > GC_FIT_POOR_REL);
}

/* A poor fit's cause: noisy repetitions, or a model that does not describe the times. */
static void poor_fit(struct gc_fit_verdict *v, const struct gc_fit_quality *q, double noise,
                     const char *model)
{
  if (noise > q->max_rel / 2)
    verdict(v, GC_FIT_SUSPECT,
            "more repetitions (-r) or a quieter machine (fewer processes than cores)",
            "poor fit (R^2 %.3f, largest residual %.0f%%) on noisy timings: repetitions "
            "of one size differ by up to %.0f%%", q->r2, 100 * q->max_rel, 100 * noise);
  else
    verdict(v, GC_FIT_SUSPECT,
            "check the samples below; measure other sizes (-s), or describe this network "
            "by hand",
            "poor fit (R^2 %.3f, largest residual %.0f%%) though repetitions agree%s: %s "
            "does not describe these times", q->r2, 100 * q->max_rel,
            noise >= 0 ? "" : " (spread unknown)", model);
}

int gc_fit_check_hockney(const struct gc_fit_sample *s, int ns, double alpha, double beta,
                         const struct gc_fit_quality *q, double noise,
                         struct gc_fit_verdict *v)
{
  if (!s || !q || !v || ns < 1)
    return GC_MODEL_EINVAL;
  *v = (struct gc_fit_verdict){GC_FIT_GOOD, "", ""};
  double top = -1.0, t_top = 0.0; /* the largest size and its time */
  for (int i = 0; i < ns; i++)
    if (s[i].m > top)
      top = s[i].m, t_top = s[i].t;
  if (fit_poor(q))
    poor_fit(v, q, noise, "a line (Hockney alpha + m*beta)");
  if (alpha <= 0.0)
    verdict(v, GC_FIT_SUSPECT, "measure smaller sizes (-s 1B:1MiB)",
            "alpha fitted as 0: the start-up time is too small to see at these sizes");
  if (!(beta > 0.0) || top * beta < GC_FIT_MIN_BYTES_SHARE * t_top)
    verdict(v, GC_FIT_REFUSED, "measure larger sizes (-s 64B:16MiB) so that the time grows "
            "with the size",
            "bandwidth %.4g MB/s is not what one flow showed: at the largest size (%.0f B, "
            "%.4g MB/s measured) it would be %.2g%% of the time: the sizes never filled the "
            "link", beta > 0 ? 1e-6 / beta : INFINITY, top, top / t_top * 1e-6,
            100 * top * beta / t_top);
  /* What the loader would refuse (config/physical.c) is no fit to write either; an alpha
   * under its 1 ns is written as 1 ns (gridcoll-calibrate), not refused. */
  if (alpha > GC_PHYSICAL_TIME_MAX ||
      (beta > 0.0 && !gc_physical_ok(GC_UNIT_INVBW, GC_BOUND_POSITIVE, beta)))
    verdict(v, GC_FIT_REFUSED, "check the timings: no network has these values",
            "alpha %.4g s or bandwidth %.4g MB/s is beyond what gridcoll accepts (1 hour, 1 "
            "bit/s to 1 Pbit/s)", alpha, beta > 0 ? 1e-6 / beta : INFINITY);
  return v->level;
}

int gc_fit_check_signature(const struct gc_lan *fit, const struct gc_fit_quality *q,
                           double noise, struct gc_fit_verdict *v)
{
  if (!fit || !q || !v)
    return GC_MODEL_EINVAL;
  *v = (struct gc_fit_verdict){GC_FIT_GOOD, "", ""};
  if (fit_poor(q))
    poor_fit(v, q, noise, "the contention signature (000 Eq. 5)");
  /* Below 1 by less than the fit's own residual is within what the samples can tell. */
  if (fit->gamma < 0.5 || fit->gamma < 1.0 - gc_model_max(0.05, q->max_rel))
    verdict(v, fit->gamma < 0.5 ? GC_FIT_REFUSED : GC_FIT_SUSPECT,
            "check alpha and beta of this cluster (the signature is relative to them); "
            "measure larger sizes (-s)",
            "gamma %.3g < 1: an all-to-all moved bytes faster than one ping-pong flow, "
            "which contention cannot do", fit->gamma);
  if (fit->gamma > GC_PHYSICAL_RATIO_MAX || fit->delta > GC_PHYSICAL_TIME_MAX)
    verdict(v, GC_FIT_REFUSED, "check the timings: no network has these values",
            "gamma %.3g or delta %.3g s is beyond what gridcoll accepts (gamma 0.01 to "
            "10000, delta up to 1 hour)", fit->gamma, fit->delta);
  return v->level;
}

int gc_fit_check_aggregate(double aggregate, double one_flow, int flows,
                           struct gc_fit_verdict *v)
{
  if (!v || flows < 1)
    return GC_MODEL_EINVAL;
  *v = (struct gc_fit_verdict){GC_FIT_GOOD, "", ""};
  if (!gc_physical_ok(GC_UNIT_BANDWIDTH, GC_BOUND_POSITIVE, aggregate) ||
      (one_flow > 0.0 && aggregate > 1.25 * flows * one_flow))
    verdict(v, GC_FIT_REFUSED, "measure larger sizes (-s) so that the flows fill the links",
            "%d flows together at %.4g MB/s, more than %d times one flow (%.4g MB/s)",
            flows, aggregate * 1e-6, flows, one_flow * 1e-6);
  else if (one_flow > 0.0 && aggregate < 0.5 * one_flow)
    verdict(v, GC_FIT_SUSPECT, "check the wide-area link for losses; more repetitions (-r)",
            "%d flows together moved %.4g MB/s, less than half of one flow alone (%.4g MB/s)",
            flows, aggregate * 1e-6, one_flow * 1e-6);
  return v->level;
}

static int cmp_dbl(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int gc_fit_check_alike(const double *alpha, const char *const *names, int n,
                       struct gc_fit_verdict *v)
{
  if (!alpha || !v || n < 0)
    return GC_MODEL_EINVAL;
  if (n < 2)
    return 0;
  double *sorted = malloc(sizeof *sorted * (size_t)n);
  if (!sorted)
    return GC_MODEL_ENOMEM;
  for (int i = 0; i < n; i++)
    sorted[i] = alpha[i];
  qsort(sorted, (size_t)n, sizeof *sorted, cmp_dbl);
  double med = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  double lo = sorted[0], hi = sorted[n - 1];
  free(sorted);
  int marked = 0;
  for (int i = 0; i < n; i++) {
    /* Two clusters: no median to trust, both are marked when they disagree. */
    int off = n == 2 ? hi > GC_FIT_ALIKE_RATIO * lo
                     : alpha[i] > GC_FIT_ALIKE_RATIO * med || GC_FIT_ALIKE_RATIO * alpha[i] < med;
    if (!off)
      continue;
    int other = n == 2 ? 1 - i : -1;
    verdict(&v[i], GC_FIT_SUSPECT,
            "these clusters were described alike: rerun with one process per core and more "
            "repetitions (-r), or describe them apart",
            "alpha %.3g us is more than %d times away from %s%s (%.3g us)", alpha[i] * 1e6,
            GC_FIT_ALIKE_RATIO, other >= 0 ? "cluster " : "the median of alike clusters",
            other >= 0 && names ? names[other] : "", (other >= 0 ? alpha[other] : med) * 1e6);
    marked++;
  }
  return marked;
}

/* ---- x, y scaling of a model's two parts ---------------------------------------------- */
static void scale_row(const void *ctx, int i, double *y, double *p, double *q, double *w)
{
  const struct gc_fit_scale_sample *s = (const struct gc_fit_scale_sample *)ctx + i;
  *y = s->actual, *p = s->L, *q = s->B, *w = 1.0 / (s->actual * s->actual);
}

struct scale_ctx {
  const struct gc_fit_scale_sample *s;
  double x, y;
};

static double scale_pred(const void *ctx, int i, double *t)
{
  const struct scale_ctx *c = ctx;
  *t = c->s[i].actual;
  return c->x * c->s[i].L + c->y * c->s[i].B;
}

int gc_fit_scale(const struct gc_fit_scale_sample *s, int ns, double *x, double *y,
                 struct gc_fit_quality *q)
{
  if (!s || !x || !y || ns < 0)
    return GC_MODEL_EINVAL;
  for (int i = 0; i < ns; i++)
    if (!gc_model_param_ok(s[i].L) || !gc_model_param_ok(s[i].B) || !time_ok(s[i].actual))
      return GC_MODEL_EINVAL;
  /* x and y are told apart only by samples whose parts differ in proportion. */
  int told = 0;
  for (int i = 1; i < ns && !told; i++)
    told = fabs(s[i].L * s[0].B - s[0].L * s[i].B) >
           1e-9 * (s[i].L * s[0].B + s[0].L * s[i].B);
  if (ns < 2 || !told)
    return GC_MODEL_EDEGENERATE;
  struct ls2_fit f = ls2(scale_row, s, ns);
  if (!isfinite(f.ssr))
    return GC_MODEL_EDEGENERATE;
  *x = f.a, *y = f.b;
  if (q)
    quality(scale_pred, &(struct scale_ctx){.s = s, .x = f.a, .y = f.b}, ns, q);
  return GC_MODEL_OK;
}
