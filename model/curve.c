/* Piecewise-linear time over message size (curve.h). */
#include "curve.h"

#include <math.h>
#include <stdio.h>

int gc_curve_set(const struct gc_curve *c)
{
  return c && c->n >= 2;
}

/* The line through points i and i+1, at m. */
static double segment(const struct gc_curve *c, int i, double m)
{
  double slope = (c->t[i + 1] - c->t[i]) / (c->m[i + 1] - c->m[i]);
  return c->t[i] + (m - c->m[i]) * slope;
}

double gc_curve_time(const struct gc_curve *c, double m)
{
  int last = c->n - 1;
  if (m <= c->m[0])
    return fmax(segment(c, 0, m), 0.0);
  if (m >= c->m[last]) {
    double slope = (c->t[last] - c->t[last - 1]) / (c->m[last] - c->m[last - 1]);
    return c->t[last] + (m - c->m[last]) * fmax(slope, 0.0);
  }
  int lo = 0, hi = last; /* m[lo] < m < m[hi] */
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (c->m[mid] <= m)
      lo = mid;
    else
      hi = mid;
  }
  return segment(c, lo, m);
}

static int check(const double *m, const double *t, int n, double slack, char *why, size_t len)
{
  char dummy[8];
  if (!why || !len)
    why = dummy, len = sizeof dummy;
  if (n < 2 || n > GC_CURVE_MAX) {
    snprintf(why, len, "expected 2 to %d points, got %d", GC_CURVE_MAX, n);
    return -1;
  }
  double top = 0;
  for (int i = 0; i < n; i++) {
    if (!isfinite(m[i]) || m[i] < 0) {
      snprintf(why, len, "expected a size of 0 or more bytes, got %g", m[i]);
      return i + 1;
    }
    if (!isfinite(t[i]) || !(t[i] > 0)) {
      snprintf(why, len, "expected a positive time, got %g s", t[i]);
      return i + 1;
    }
    if (i > 0 && !(m[i] > m[i - 1])) {
      snprintf(why, len, "sizes must increase: %.17g B after %.17g B", m[i], m[i - 1]);
      return i + 1;
    }
    if (t[i] < top * (1 - slack)) {
      snprintf(why, len, "times may not fall by more than %.0f%% below a smaller size's: "
               "%g s at %.17g B after %g s", 100 * slack, t[i], m[i], top);
      return i + 1;
    }
    top = fmax(top, t[i]);
  }
  return 0;
}

int gc_curve_check(const double *m, const double *t, int n, char *why, size_t len)
{
  return check(m, t, n, GC_CURVE_SLACK, why, len);
}

int gc_curve_check_falls(const double *m, const double *t, int n, char *why, size_t len)
{
  return check(m, t, n, 1, why, len);
}

/* 1 when every point strictly between a and b lies within tol (relative) of the line
 * from a to b. */
static int collinear(const double *m, const double *t, int a, int b, double tol)
{
  for (int i = a + 1; i < b; i++) {
    double line = t[a] + (m[i] - m[a]) * (t[b] - t[a]) / (m[b] - m[a]);
    if (fabs(line - t[i]) > tol * t[i])
      return 0;
  }
  return 1;
}

/* The greedy reduction at one tolerance: from each kept point, reach as far as the
 * dropped points stay on the line.  Returns the points it needs, writing at most
 * GC_CURVE_MAX of them. */
static int reduce(const double *m, const double *t, int n, double tol, struct gc_curve *out)
{
  int a = 0, kept = 0;
  out->m[kept] = m[0], out->t[kept++] = t[0];
  while (a < n - 1) {
    int b = a + 1;
    while (b + 1 < n && collinear(m, t, a, b + 1, tol))
      b++;
    if (kept < GC_CURVE_MAX)
      out->m[kept] = m[b], out->t[kept] = t[b];
    kept++;
    a = b;
  }
  return kept;
}

static int from_samples(const double *m, const double *t, int n, double tol, int lift,
                        struct gc_curve *out)
{
  double lifted[GC_CURVE_SAMPLES_MAX], top = 0;
  if (n > GC_CURVE_SAMPLES_MAX)
    n = GC_CURVE_SAMPLES_MAX;
  out->n = 0;
  for (int i = 0; i < n; i++) {
    /* Halfway into the slack (and from a hair above its edge), so that a curve written to
     * fewer digits still loads. */
    lifted[i] = lift && t[i] < top * (1 - GC_CURVE_SLACK + 1e-3) ? top * (1 - GC_CURVE_SLACK / 2) : t[i];
    top = fmax(top, t[i]);
  }
  if (n < 2)
    return 0;
  /* Each doubling drops points; at a tolerance above every time's range two points are
   * left, so this ends. */
  int kept;
  for (double at = tol > 0 ? tol : 1e-9; (kept = reduce(m, lifted, n, at, out)) > GC_CURVE_MAX;
       at *= 2)
    ;
  out->n = kept;
  return kept;
}

int gc_curve_from_samples(const double *m, const double *t, int n, double tol,
                          struct gc_curve *out)
{
  return from_samples(m, t, n, tol, 1, out);
}

int gc_curve_from_samples_falls(const double *m, const double *t, int n, double tol,
                                struct gc_curve *out)
{
  return from_samples(m, t, n, tol, 0, out);
}
