/* The error histogram (histogram.h). */
#include "histogram.h"

#include <math.h>
#include <stddef.h>

/* Bin b >= 1 holds the errors from 10^((b - 1) / GC_HISTOGRAM_PER_DECADE - 4) on: its floor
 * is a power of ten times a sixteenth-of-a-decade step, both exact table entries, so a
 * binary search finds the bin in 7 comparisons where log10 cost about 90 instructions on
 * every call comm rank 0 logs. */
static const double decade[8] = {1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3};
static const double step[GC_HISTOGRAM_PER_DECADE] = {
    1.0,                1.1547819846894583, 1.333521432163324,  1.539926526059492,
    1.7782794100389228, 2.053525026457146,  2.371373705661655,  2.7384196342643614,
    3.1622776601683795, 3.651741272548377,  4.216965034285822,  4.869675251658631,
    5.623413251903491,  6.493816315762113,  7.498942093324558,  8.659643233600654};

static double bin_floor(int b)
{
  return decade[(b - 1) / GC_HISTOGRAM_PER_DECADE] * step[(b - 1) % GC_HISTOGRAM_PER_DECADE];
}

int gc_histogram_bin(double e)
{
  if (!(e >= 1e-4)) /* NaN and negatives included */
    return 0;
  /* The last bin whose floor is at most e: infinity and huge errors land in the last one,
   * never outside the bins (issue 24). */
  int lo = 1, hi = GC_HISTOGRAM_BINS - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (bin_floor(mid) <= e)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
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

static double count_of(const struct gc_histogram *h)
{
  double n = 0;
  for (int b = 0; h && b < GC_HISTOGRAM_BINS; b++)
    n += h->count[b];
  return n;
}

/* The calls ranked q * n of n and below must be seen: at least one (q = 0: the least). */
static double rank_of(double q, double n)
{
  if (isnan(q))
    q = 0.5;
  q = q < 0 ? 0 : q > 1 ? 1 : q;
  return q * n > 0 ? q * n : 0.5;
}

/* A bin's mean error (0 for an empty one, never read as a rank's). */
static double bin_mean(const struct gc_histogram *h, int b)
{
  return h->count[b] > 0 ? h->sum[b] / h->count[b] : 0;
}

double gc_histogram_quantile(const struct gc_histogram *h, double q)
{
  double n = count_of(h), seen = 0;
  if (!(n >= 1)) /* counts are whole: no call (and no h) */
    return -1;
  double rank = rank_of(q, n);
  int b = 0;
  while (b < GC_HISTOGRAM_BINS - 1 && (seen += h->count[b]) < rank)
    b++;
  return bin_mean(h, b);
}

double gc_histogram_median(const struct gc_histogram *h)
{
  return gc_histogram_quantile(h, 0.5);
}

void gc_signed_histogram_add(struct gc_signed_histogram *h, double e)
{
  if (!h || isnan(e))
    return;
  if (e < 0)
    gc_histogram_add(&h->under, -e);
  else
    gc_histogram_add(&h->over, e);
}

double gc_signed_histogram_quantile(const struct gc_signed_histogram *h, double q)
{
  double nu = count_of(h ? &h->under : NULL), n = nu + count_of(h ? &h->over : NULL);
  if (!(n >= 1))
    return NAN;
  double rank = rank_of(q, n), seen = 0;
  /* under's bins from the largest magnitude (the most negative error) down to 0 */
  for (int b = GC_HISTOGRAM_BINS - 1; b >= 0; b--)
    if ((seen += h->under.count[b]) >= rank && h->under.count[b] > 0)
      return -bin_mean(&h->under, b);
  for (int b = 0; b < GC_HISTOGRAM_BINS; b++)
    if ((seen += h->over.count[b]) >= rank && h->over.count[b] > 0)
      return bin_mean(&h->over, b);
  return bin_mean(&h->over, GC_HISTOGRAM_BINS - 1); /* not reached: seen is n at the end */
}

double gc_signed_histogram_abs_median(const struct gc_signed_histogram *h)
{
  if (!h)
    return -1;
  struct gc_histogram all;
  for (int b = 0; b < GC_HISTOGRAM_BINS; b++) {
    all.count[b] = h->under.count[b] + h->over.count[b];
    all.sum[b] = h->under.sum[b] + h->over.sum[b];
  }
  return gc_histogram_median(&all);
}
