/* The summary's histograms of relative prediction errors: pure C, no MPI, so that every
 * input, however absurd, is tested (test/unit/check_extremes.c); shim/summary.c keeps a
 * signed one per row and merges them across ranks.
 *
 * An error's magnitude, |predicted - own| / own, goes into log-spaced bins so that the median over every
 * rank's calls merges with a sum: bin 0 below 1e-4 (0.01 %), then GC_HISTOGRAM_PER_DECADE
 * bins per decade up to 1e4 (10^6 %), the last one open. Each bin also sums its errors: the
 * median is read as the mean of the errors in its bin, which lie within a factor
 * 10^(1/16) of each other. A mean of ratios would let one call with a tiny actual time
 * swamp the rest. */
#ifndef GC_HISTOGRAM_H
#define GC_HISTOGRAM_H

#define GC_HISTOGRAM_PER_DECADE 16
#define GC_HISTOGRAM_BINS (8 * GC_HISTOGRAM_PER_DECADE + 1)

/* Plain doubles only: summary.c reduces an array of them as 2 * GC_HISTOGRAM_BINS
 * doubles each (MPI_SUM). All zero: empty. */
struct gc_histogram {
  double count[GC_HISTOGRAM_BINS], sum[GC_HISTOGRAM_BINS];
};

/* The bin of an error e, in [0, GC_HISTOGRAM_BINS) for every double: below 1e-4, NaN and
 * negatives in bin 0, 1e4 and above (infinity included) in the last. */
int gc_histogram_bin(double e);

/* Counts one error e (a NaN is no error: not counted; a negative one counts as 0). */
void gc_histogram_add(struct gc_histogram *h, double e);

/* The median error of h (the mean of the errors in the bin that holds the median call);
 * -1 when h is NULL or empty. */
double gc_histogram_median(const struct gc_histogram *h);

/* The q-quantile of h, 0 <= q <= 1 (outside: clamped; NaN: the median), read as the median
 * is: the mean of the bin that holds the call ranked q; -1 when h is NULL or empty. */
double gc_histogram_quantile(const struct gc_histogram *h, double q);

/* A signed error, (predicted - own) / own: > 0 over-predicted, < 0 under. Its magnitude
 * goes into one of two histograms by its sign, so that merging still is a sum (4 *
 * GC_HISTOGRAM_BINS plain doubles) and the absolute error's histogram is theirs added.
 * The sign is what a reader needs: an unsigned median of 240 % says neither that the
 * model is 3.4 times too slow nor too fast. All zero: empty. */
struct gc_signed_histogram {
  struct gc_histogram under, over; /* e < 0 | e >= 0 (0 and -0 over) */
};

/* Counts one signed error e (a NaN is no error: not counted; -infinity lands in the last
 * bin of under, +infinity in the last of over). */
void gc_signed_histogram_add(struct gc_signed_histogram *h, double e);

/* The q-quantile of the signed errors (q as gc_histogram_quantile's): the most negative
 * bin first, under's bins downwards, then over's upwards; a bin read as its mean, with
 * its sign. NaN when h is NULL or empty (every other value is a possible error). */
double gc_signed_histogram_quantile(const struct gc_signed_histogram *h, double q);

/* The median of |e| over the signed errors, as gc_histogram_median reads it: -1 when h is
 * NULL or empty. */
double gc_signed_histogram_abs_median(const struct gc_signed_histogram *h);

#endif
