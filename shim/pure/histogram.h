/* The summary's histogram of relative prediction errors: pure C, no MPI, so that every
 * input, however absurd, is tested (test/unit/check_extremes.c); shim/summary.c keeps
 * one per row and merges them across ranks.
 *
 * |predicted - actual| / actual goes into log-spaced bins so that the median over every
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

#endif
