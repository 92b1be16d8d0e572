/* The error histogram (histogram.h). */
#include "histogram.h"

#include <math.h>

int gc_histogram_bin(double e)
{
  if (!(e >= 1e-4)) /* NaN and negatives included */
    return 0;
  /* Clamped as a double, before any conversion: (int) of an infinite or huge floor is
   * undefined behaviour, and was an index far outside the bins (issue 24). */
  double x = floor((log10(e) + 4) * GC_HISTOGRAM_PER_DECADE);
  if (!(x >= 0))
    x = 0;
  if (x > GC_HISTOGRAM_BINS - 2)
    x = GC_HISTOGRAM_BINS - 2;
  return 1 + (int)x;
}

void gc_histogram_add(struct gc_histogram *h, double e)
{
  if (!h || isnan(e))
    return;
  if (e < 0)
    e = 0;
  int b = gc_histogram_bin(e);
  h->count[b]++;
  h->sum[b] += e;
}

double gc_histogram_median(const struct gc_histogram *h)
{
  double n = 0, seen = 0;
  for (int b = 0; h && b < GC_HISTOGRAM_BINS; b++)
    n += h->count[b];
  if (!(n >= 1)) /* counts are whole: no call (and no h) */
    return -1;
  int b = 0;
  while (b < GC_HISTOGRAM_BINS - 1 && (seen += h->count[b]) < n / 2)
    b++;
  return h->count[b] > 0 ? h->sum[b] / h->count[b] : 0;
}
