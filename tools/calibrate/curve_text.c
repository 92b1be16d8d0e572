/* Curves as configuration text (curve_text.h). */
#include "curve_text.h"

#include <math.h>

#include "physical.h"

void calibrate_write_curve(FILE *f, const char *indent, const struct gc_curve *c, int exact)
{
  fprintf(f, "curve = (");
  for (int i = 0; i < c->n; i++) {
    if (i > 0 && i % 4 == 0)
      fprintf(f, "\n%s         ", indent);
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
  double floored[GC_CURVE_MAX];
  if (n > GC_CURVE_MAX)
    n = GC_CURVE_MAX;
  for (int i = 0; i < n; i++)
    floored[i] = t[i] < GC_PHYSICAL_TIME_MIN ? GC_PHYSICAL_TIME_MIN : t[i];
  double tol = fmin(fmax(noise, 0.01), 0.05);
  return gc_curve_from_samples(sizes, floored, n, tol, out);
}
