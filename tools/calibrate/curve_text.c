/* Curves as configuration text (curve_text.h). */
#include "curve_text.h"

#include <math.h>
#include <string.h>

#include "physical.h"

void calibrate_write_curve(FILE *f, const char *indent, const struct gc_curve *c, int exact)
{
  calibrate_write_points(f, indent, "curve", c, exact);
}

void calibrate_write_points(FILE *f, const char *indent, const char *key,
                            const struct gc_curve *c, int exact)
{
  fprintf(f, "%s = (", key);
  for (int i = 0; i < c->n; i++) {
    if (i > 0 && i % 4 == 0)
      fprintf(f, "\n%s%*s", indent, (int)strlen(key) + 4, "");
    if (exact)
      fprintf(f, " (\"%.17g B\", \"%.17g s\")", c->m[i], c->t[i]);
    else
      fprintf(f, " (\"%.0f B\", \"%.6g us\")", c->m[i], c->t[i] * 1e6);
    fprintf(f, "%s", i + 1 < c->n ? "," : " );\n");
  }
}

int calibrate_curve_of(const double *sizes, const double *t, int n, double noise,
                       struct gc_curve *out)
{
  double floored[GC_CURVE_SAMPLES_MAX];
  if (n > GC_CURVE_SAMPLES_MAX)
    n = GC_CURVE_SAMPLES_MAX;
  for (int i = 0; i < n; i++)
    floored[i] = t[i] < GC_PHYSICAL_TIME_MIN ? GC_PHYSICAL_TIME_MIN : t[i];
  double tol = fmin(fmax(noise, 0.01), 0.05);
  return gc_curve_from_samples(sizes, floored, n, tol, out);
}

/* The slope of segment j (points j, j+1). */
static double slope(const double *m, const double *t, int j)
{
  return (t[j + 1] - t[j]) / (m[j + 1] - m[j]);
}

/* The line before segment i's step, and the line after it, at size x. */
static double before(const double *m, const double *t, int i, double x)
{
  return t[i] + (x - m[i]) * slope(m, t, i - 1);
}

static double after(const double *m, const double *t, int n, int i, double x)
{
  double s = i + 2 < n ? slope(m, t, i + 1) : slope(m, t, i - 1);
  return t[i + 1] - (m[i + 1] - x) * s;
}

int calibrate_curve_step(const double *m, const double *t, int n, int i, double tol)
{
  if (i < 1 || i + 1 >= n)
    return 0;
  int off_before = fabs(t[i + 1] - before(m, t, i, m[i + 1])) > tol * t[i + 1];
  int off_after = i + 2 >= n || fabs(t[i] - after(m, t, n, i, m[i])) > tol * t[i];
  return off_before && off_after;
}

int calibrate_curve_past(const double *m, const double *t, int n, int i, double size, double time)
{
  return fabs(time - after(m, t, n, i, size)) < fabs(time - before(m, t, i, size));
}
