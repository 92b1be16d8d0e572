/* Properties at the edges of what the loader accepts (config/physical.c; issue 24):
 *   - every prediction of every operation's pure rows (gc_alltoall_models,
 *     gc_alltoallv_models, gc_bcast_models), and of every tree builder's tree through the
 *     tree cache, is finite and >= 0, or exactly -1 (no model), for configurations whose
 *     every value sits at either end of its accepted range or anywhere between (random
 *     combinations, fixed seed), on many cluster counts and sizes, at message sizes from
 *     0 to 2^63 bytes;
 *   - the summary's histogram (shim/pure/histogram.c) never leaves its bins, whatever
 *     double it is given (infinities, NaNs, huge, tiny, negative, any bit pattern).
 * A value the loader accepts can make a prediction neither infinite nor NaN; the
 * dispatch's check (prediction.h) is the second line, tested here too. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alltoall_algorithms.h"
#include "alltoallv_algorithms.h"
#include "bcast_algorithms.h"
#include "config.h"
#include "histogram.h"
#include "layout.h"
#include "network.h"
#include "physical.h"
#include "prediction.h"
#include "shape.h"
#include "tree_cache.h"

/* xorshift64*: the same sequence on every machine, unlike rand(). */
static uint64_t seed;
static uint64_t next(void)
{
  seed ^= seed >> 12, seed ^= seed << 25, seed ^= seed >> 27;
  return seed * 0x2545F4914F6CDD1DULL;
}
static int below(int n) { return (int)(next() % (uint64_t)n); }
static double unit_interval(void) { return (double)(next() >> 11) * 0x1p-53; }

/* A value of `unit` the loader accepts: either end of its range, 0 where allowed, or
 * log-uniform between the ends. */
static double accepted(enum gc_unit unit, enum gc_bound bound)
{
  struct gc_physical_range r = gc_physical_range(unit);
  double v;
  switch (below(bound == GC_BOUND_NONNEG ? 5 : 4)) {
  case 0: v = r.lo; break;
  case 1: v = r.hi; break;
  case 4: v = 0; break;
  default: v = exp(log(r.lo) + unit_interval() * (log(r.hi) - log(r.lo))); break;
  }
  if (v > r.hi) /* exp(log(hi)) may round above hi */
    v = r.hi;
  if (v < r.lo && v > 0)
    v = r.lo;
  ck_assert_msg(gc_physical_ok(unit, bound, v), "%.17g is not accepted", v);
  return v;
}

#define T(b) accepted(GC_UNIT_TIME, b)
#define BYTES(b) accepted(GC_UNIT_BYTES, b)
#define BW(b) accepted(GC_UNIT_BANDWIDTH, b)
#define INVBW(b) accepted(GC_UNIT_INVBW, b)
#define P GC_BOUND_POSITIVE
#define NN GC_BOUND_NONNEG

static struct gc_lan random_lan(void)
{
  return (struct gc_lan){.alpha = T(P), .beta = INVBW(P), .gamma = accepted(GC_UNIT_RATIO, P),
                         .delta = T(NN), .threshold = BYTES(NN)};
}

static double *random_matrix(int k, enum gc_unit unit)
{
  double *m = malloc(sizeof *m * (size_t)k * (size_t)k);
  ck_assert_ptr_nonnull(m);
  for (int i = 0; i < k * k; i++)
    m[i] = i % (k + 1) == 0 ? 0 : accepted(unit, P);
  return m;
}

/* A configuration of k clusters (held in memory as the loader leaves it), every value
 * accepted, some of them at its edges. */
static void random_config(struct gc_config *cfg, int k)
{
  gc_config_defaults(cfg);
  cfg->lan = random_lan();
  cfg->topology = GC_TOPOLOGY_CLUSTERS;
  cfg->nclusters = k;
  cfg->clusters = calloc((size_t)k, sizeof *cfg->clusters);
  ck_assert_ptr_nonnull(cfg->clusters);
  for (int c = 0; c < k; c++) {
    struct gc_cluster_spec *s = &cfg->clusters[c];
    snprintf(s->name, sizeof s->name, "c%d", c);
    s->lan = below(3) ? random_lan() : cfg->lan;
    if (below(3) == 0)
      s->hetero = (struct gc_hetero){.set = 1, .C = T(P), .t = INVBW(P), .rate = BW(P),
                                     .S = BYTES(NN), .Gamma = T(NN), .tau = INVBW(NN)};
    if (below(2))
      snprintf(s->site, sizeof s->site, "site%d", below(3));
  }
  if (k > 1 && below(4)) {
    cfg->wan_latency = random_matrix(k, GC_UNIT_TIME);
    cfg->wan_bandwidth = random_matrix(k, GC_UNIT_BANDWIDTH);
    if (below(2))
      cfg->wan_aggregate = random_matrix(k, GC_UNIT_BANDWIDTH);
  }
  cfg->wan_window = BYTES(NN);
  cfg->alltoall_pairwise = BYTES(NN);
  cfg->bcast_segment = BYTES(NN);
  cfg->bcast_eager = BYTES(NN);
}

/* What every row promises: seconds, finite and >= 0, or exactly -1. Counted, and the first
 * offender kept, rather than asserted one by one: Check reports every assertion to its
 * parent process, which a million of them would make minutes. */
static long checked, insane;
static char first_insane[256];

static void sane(double t, const char *what, const char *name, double m, int root, int k)
{
  checked++;
  if (t == -1 || (isfinite(t) && t >= 0))
    return;
  if (!insane++)
    snprintf(first_insane, sizeof first_insane, "%s %s: %.17g at m %g, root %d, %d clusters",
             what, name, t, m, root, k);
}

static void assert_all_sane(void)
{
  if (getenv("GC_EXTREMES_VERBOSE"))
    fprintf(stderr, "%ld predictions checked\n", checked);
  ck_assert_msg(insane == 0, "%ld of %ld predictions are not times; the first: %s", insane,
                checked, first_insane);
  ck_assert(checked > 0);
}

static const double sizes[] = {0, 1, 1000, 8192, 65536, 0x1p20, 0x1p30, 0x1p40, 0x1p53, 0x1p63};
enum { NSIZES = sizeof sizes / sizeof *sizes };

/* Every row of every operation, and every tree through the cache, on one layout. */
static void predict_everything(const struct gc_config *cfg, const int *gid, int size)
{
  struct gc_layout layout;
  struct gc_network net;
  struct gc_tree_cache cache;
  const char *model;
  ck_assert_int_eq(gc_layout_build(&layout, size, gid), 0);
  ck_assert_int_eq(gc_network_build(&net, cfg, &layout), 0);
  int k = layout.nclusters;
  ck_assert_int_eq(gc_tree_cache_init(&cache, k), 0);
  double *bytes = malloc(sizeof *bytes * (size_t)k * (size_t)k);
  ck_assert_ptr_nonnull(bytes);
  for (int s = 0; s < NSIZES; s++) {
    double m = sizes[s];
    struct gc_shape shape;
    gc_shape_blocks(&layout, m, -1, bytes, &shape);
    for (int a = 0; a < GC_ALLTOALL_LAST; a++)
      sane(gc_alltoall_models[a].predict(&net, &layout, &shape, &model), "alltoall",
           gc_alltoall_models[a].about.name, m, -1, k);
    /* Per-pair totals: this size per block, or none, or a pair's all. */
    for (int i = 0; i < k * k; i++) {
      int r = below(4);
      bytes[i] = r == 0 ? 0 : r == 1 ? 0x1p62 : m * layout.cluster_size[i / k] * layout.cluster_size[i % k];
    }
    shape = (struct gc_shape){.m = 0, .root = -1, .pair_bytes = bytes};
    for (int a = 0; a < GC_ALLTOALLV_LAST; a++)
      sane(gc_alltoallv_models[a].predict(&net, &layout, &shape, &model), "alltoallv",
           gc_alltoallv_models[a].about.name, m, -1, k);
    int roots[3] = {0, size - 1, below(size)};
    for (int r = 0; r < 3; r++)
      for (int a = 0; a < GC_BCAST_LAST; a++) {
        const struct gc_model_row *row = &gc_bcast_models[a];
        gc_shape_rooted(&layout, m, roots[r], bytes, &shape);
        double t = row->predict(&net, &layout, &shape, &model);
        sane(t, "bcast", row->about.name, m, roots[r], k);
        if (!row->build || k < 2)
          continue;
        /* The cache holds what a fresh build costs, as the dispatch reads it. */
        const struct gc_tree_cache_entry *e;
        if (gc_tree_cache_get(&cache, row->build, &net, &layout, roots[r], (size_t)m, &e) != 0 ||
            gc_model_tree_check(&e->tree) != GC_MODEL_OK ||
            e->predicted != gc_prediction_checked(t))
          sane(NAN, "cached tree (none, invalid, or not the row's prediction)", row->about.name,
               m, roots[r], k);
        else
          sane(e->predicted, "cached tree", row->about.name, m, roots[r], k);
      }
  }
  free(bytes);
  gc_tree_cache_free(&cache);
  gc_network_free(&net);
  gc_layout_free(&layout);
}

/* Ranks of `size` processes over k configured clusters: in blocks or interleaved, some
 * matched by no cluster (a cluster of their own, with the defaults). */
static int *random_ranks(int k, int size)
{
  int *gid = malloc(sizeof *gid * (size_t)size);
  ck_assert_ptr_nonnull(gid);
  int interleaved = below(2);
  for (int r = 0; r < size; r++) {
    gid[r] = interleaved ? below(k) : (int)((long)r * k / size);
    if (below(50) == 0)
      gid[r] = k + r; /* unmatched */
  }
  return gid;
}

/* Random accepted configurations, many layouts: one cluster to 16, one process each to
 * a thousand. */
START_TEST(models_stay_finite)
{
  checked = insane = 0;
  seed = 0x9E3779B97F4A7C15ULL + (uint64_t)_i;
  for (int round = 0; round < 12; round++) {
    static const int counts[] = {1, 2, 3, 4, 5, 8, 16};
    int k = counts[below((int)(sizeof counts / sizeof *counts))];
    struct gc_config cfg;
    random_config(&cfg, k);
    int size = below(4) == 0 ? k + below(1000) : k + below(3 * k + 8);
    int *gid = random_ranks(k, size);
    predict_everything(&cfg, gid, size);
    /* A sub-communicator: every other rank (other clusters, other sizes). */
    if (size >= 2) {
      for (int r = 0; r < size / 2; r++)
        gid[r] = gid[2 * r + 1];
      predict_everything(&cfg, gid, size / 2);
    }
    free(gid);
    gc_config_free(&cfg);
  }
  assert_all_sane();
}
END_TEST

/* Every value at the same end of its range, written as a file and loaded by the loader
 * itself (so "accepted" is the loader's word, not this test's), then every model. */
static const char *write_config(char *path, size_t len, int top)
{
  const char *t = top ? "3600 s" : "1 ns", *bw = top ? "1000 Tbit/s" : "1 bit/s";
  const char *inv = top ? "1 bit/s" : "1000 Tbit/s"; /* the slowest beta is 1 bit/s */
  const char *b = top ? "8192 TiB" : "1 B";
  double gamma = top ? 1e4 : 0.01;
  snprintf(path, len, "/tmp/gc-extremes-%d.cfg", (int)getpid());
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f, "clusters = (\n");
  for (int c = 0; c < 3; c++)
    fprintf(f, " { name = \"c%d\"; ranks = \"%d-%d\"; site = \"s%d\";\n"
               "   lan = { alpha = \"%s\"; beta = \"%s\"; gamma = %g; delta = \"%s\"; threshold = \"%s\"; };\n"
               "   hetero = { C = \"%s\"; t = \"%s\"; rate = \"%s\"; S = \"%s\"; Gamma = \"%s\"; tau = \"%s\"; }; }%s\n",
            c, 4 * c, 4 * c + 3, c / 2, t, inv, gamma, t, b, t, inv, bw, b, t, inv, c < 2 ? "," : "");
  fprintf(f, ");\nnetwork = { lan = { alpha = \"%s\"; beta = \"%s\"; gamma = %g; delta = \"%s\"; threshold = \"%s\"; };\n"
             " wan = { latency = ( (0, \"%s\", \"%s\"), (\"%s\", 0, \"%s\"), (\"%s\", \"%s\", 0) );\n"
             "  bandwidth = ( (0, \"%s\", \"%s\"), (\"%s\", 0, \"%s\"), (\"%s\", \"%s\", 0) );\n"
             "  aggregate = ( (0, \"%s\", \"%s\"), (\"%s\", 0, \"%s\"), (\"%s\", \"%s\", 0) );\n"
             "  window = \"%s\"; }; };\n"
             "alltoall = { native_pairwise = \"%s\"; };\nbcast = { segment = \"%s\"; native_eager = \"%s\"; };\n",
          t, inv, gamma, t, b, t, t, t, t, t, t, bw, bw, bw, bw, bw, bw, bw, bw, bw, bw, bw, bw, b, b, b, b);
  ck_assert_int_eq(fclose(f), 0);
  return path;
}

START_TEST(loaded_edges_stay_finite)
{
  checked = insane = 0;
  char path[64], err[GC_ERR_MAX];
  struct gc_config cfg;
  gc_config_defaults(&cfg);
  seed = 12345 + (uint64_t)_i;
  ck_assert_msg(gc_config_load(&cfg, write_config(path, sizeof path, _i), NULL, err, sizeof err) == 0,
                "%s", err);
  unlink(path);
  ck_assert(cfg.nclusters == 3 && cfg.wan_aggregate && cfg.clusters[2].hetero.set);
  for (int size = 1; size <= 12; size++) {
    int gid[12];
    for (int r = 0; r < size; r++)
      gid[r] = r / 4; /* the file's rank ranges */
    predict_everything(&cfg, gid, size);
  }
  gc_config_free(&cfg);
  assert_all_sane();
}
END_TEST

/* The histogram's bin, for every kind of double: inside [0, GC_HISTOGRAM_BINS), ordered
 * with the error, the bin edges where histogram.h puts them. */
START_TEST(histogram_bins)
{
  static const double special[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, DBL_MIN,
                                   4.9e-324, DBL_MAX, -DBL_MAX, 1e308, -1e308, 1e-4,
                                   9.9999e-5, 1e4, 9999.99, 1e300, 1e-300, -1, 1, 0.5};
  for (size_t i = 0; i < sizeof special / sizeof *special; i++) {
    int b = gc_histogram_bin(special[i]);
    ck_assert_msg(b >= 0 && b < GC_HISTOGRAM_BINS, "%g: bin %d", special[i], b);
  }
  long outside = 0, disordered = 0;
  ck_assert_int_eq(gc_histogram_bin(NAN), 0);
  ck_assert_int_eq(gc_histogram_bin(-5), 0);
  ck_assert_int_eq(gc_histogram_bin(nextafter(1e-4, 0)), 0);
  ck_assert_int_eq(gc_histogram_bin(1e-4), 1);
  ck_assert_int_eq(gc_histogram_bin(1), 1 + 4 * GC_HISTOGRAM_PER_DECADE);
  ck_assert_int_eq(gc_histogram_bin(nextafter(1e4, 0)), GC_HISTOGRAM_BINS - 1);
  ck_assert_int_eq(gc_histogram_bin(1e4), GC_HISTOGRAM_BINS - 1);
  ck_assert_int_eq(gc_histogram_bin(INFINITY), GC_HISTOGRAM_BINS - 1);
  /* Any bit pattern: NaNs with payloads, subnormals, both signs. */
  seed = 42;
  for (int i = 0; i < 1000000; i++) {
    uint64_t bits = next();
    double e;
    memcpy(&e, &bits, sizeof e);
    int b = gc_histogram_bin(e);
    outside += b < 0 || b >= GC_HISTOGRAM_BINS;
  }
  ck_assert_int_eq(outside, 0);
  /* Ordered: a larger error never falls in a lower bin. */
  int last = 0;
  for (double e = 1e-6; e < 1e6; e *= 1.01) {
    int b = gc_histogram_bin(e);
    disordered += b < last;
    last = b;
  }
  ck_assert_int_eq(disordered, 0);
  ck_assert_int_eq(last, GC_HISTOGRAM_BINS - 1);
}
END_TEST

/* Adding anything keeps the counts in the bins; the median of what was added. issue 24's
 * crash: a prediction of 1e308 s against a call of 10 us, an infinite error. */
START_TEST(histogram_add_and_median)
{
  struct gc_histogram *h = calloc(1, sizeof *h);
  ck_assert_ptr_nonnull(h);
  ck_assert(gc_histogram_median(h) == -1 && gc_histogram_median(NULL) == -1);
  gc_histogram_add(h, fabs(1e308 - 1e-5) / 1e-5);
  ck_assert(h->count[GC_HISTOGRAM_BINS - 1] == 1 && isinf(gc_histogram_median(h)));
  gc_histogram_add(h, NAN); /* no error: not counted */
  gc_histogram_add(h, -2);  /* as 0 */
  gc_histogram_add(h, 0.5);
  gc_histogram_add(h, 0.5);
  double n = 0;
  for (int b = 0; b < GC_HISTOGRAM_BINS; b++)
    n += h->count[b];
  ck_assert(n == 4 && h->count[0] == 1 && h->sum[0] == 0);
  ck_assert_double_eq(gc_histogram_median(h), 0.5);
  /* A million random doubles: the median is always -1, 0, a finite error or infinite,
   * never a NaN, and only NaNs go uncounted. */
  memset(h, 0, sizeof *h);
  seed = 7;
  double added = 0;
  for (int i = 0; i < 1000000; i++) {
    uint64_t bits = next();
    double e;
    memcpy(&e, &bits, sizeof e);
    gc_histogram_add(h, e);
    added += !isnan(e);
  }
  n = 0;
  for (int b = 0; b < GC_HISTOGRAM_BINS; b++)
    n += h->count[b];
  ck_assert(n == added);
  ck_assert(!isnan(gc_histogram_median(h)) && gc_histogram_median(h) >= 0);
  free(h);
}
END_TEST

/* Quantiles of the plain histogram: the median's reading at q = 0.5, the least and the
 * largest error at the ends, any q (NaN, outside [0, 1]) read inside the bins. */
START_TEST(histogram_quantiles)
{
  struct gc_histogram *h = calloc(1, sizeof *h);
  ck_assert_ptr_nonnull(h);
  ck_assert(gc_histogram_quantile(h, 0.5) == -1 && gc_histogram_quantile(NULL, 0.1) == -1);
  for (int i = 1; i <= 10; i++)
    gc_histogram_add(h, i); /* 1 .. 10, each in a bin of its own */
  ck_assert_double_eq(gc_histogram_quantile(h, 0), 1);
  ck_assert_double_eq(gc_histogram_quantile(h, 0.1), 1);
  ck_assert_double_eq(gc_histogram_quantile(h, 0.25), 3);
  ck_assert_double_eq(gc_histogram_quantile(h, 0.5), gc_histogram_median(h));
  ck_assert_double_eq(gc_histogram_quantile(h, 0.5), 5);
  ck_assert_double_eq(gc_histogram_quantile(h, 0.75), 8);
  ck_assert_double_eq(gc_histogram_quantile(h, 1), 10);
  ck_assert_double_eq(gc_histogram_quantile(h, -INFINITY), 1);
  ck_assert_double_eq(gc_histogram_quantile(h, 1e300), 10);
  ck_assert_double_eq(gc_histogram_quantile(h, NAN), 5);
  free(h);
}
END_TEST

/* Signed errors (issue 25): over- and under-prediction told apart, the median's sign
 * right, and every double, infinities and NaNs included, inside the bins. */
START_TEST(signed_histogram)
{
  struct gc_signed_histogram *h = calloc(1, sizeof *h);
  ck_assert_ptr_nonnull(h);
  ck_assert(isnan(gc_signed_histogram_quantile(h, 0.5)) && isnan(gc_signed_histogram_quantile(NULL, 0.5)));
  ck_assert(gc_signed_histogram_abs_median(h) == -1 && gc_signed_histogram_abs_median(NULL) == -1);
  /* The user's case: the median call predicted 3.4 times its own time, a few far below. */
  for (int i = 0; i < 7; i++)
    gc_signed_histogram_add(h, 2.4);
  for (int i = 0; i < 3; i++)
    gc_signed_histogram_add(h, -0.9);
  ck_assert_double_eq_tol(gc_signed_histogram_quantile(h, 0.5), 2.4, 1e-12);
  ck_assert_double_eq_tol(gc_signed_histogram_quantile(h, 0.25), -0.9, 1e-12);
  ck_assert_double_eq_tol(gc_signed_histogram_quantile(h, 0), -0.9, 1e-12);
  ck_assert_double_eq_tol(gc_signed_histogram_quantile(h, 1), 2.4, 1e-12);
  ck_assert_double_eq_tol(gc_signed_histogram_abs_median(h), 2.4, 1e-12);
  /* Mostly under: the median negative, its magnitude the absolute median. */
  memset(h, 0, sizeof *h);
  static const double under[] = {-0.5, -0.5, -0.5, 0.1, -0.01};
  for (size_t i = 0; i < sizeof under / sizeof *under; i++)
    gc_signed_histogram_add(h, under[i]);
  ck_assert_double_eq_tol(gc_signed_histogram_quantile(h, 0.5), -0.5, 1e-12);
  ck_assert_double_eq_tol(gc_signed_histogram_abs_median(h), 0.5, 1e-12);
  ck_assert_double_eq_tol(gc_signed_histogram_quantile(h, 0.9), 0.1, 1e-12);
  /* Extremes: 0 and -0 over, below 1e-4 in bin 0 of their side, infinities in the last
   * bins, NaN not counted, huge finite magnitudes in the last bins too. */
  memset(h, 0, sizeof *h);
  static const double edge[] = {0.0, -0.0, 1e-300, -1e-300, 4.9e-324, INFINITY, -INFINITY,
                                DBL_MAX, -DBL_MAX, NAN, -NAN};
  for (size_t i = 0; i < sizeof edge / sizeof *edge; i++)
    gc_signed_histogram_add(h, edge[i]);
  ck_assert(h->over.count[0] == 4 && h->under.count[0] == 1);
  ck_assert(h->over.count[GC_HISTOGRAM_BINS - 1] == 2 && h->under.count[GC_HISTOGRAM_BINS - 1] == 2);
  ck_assert(isinf(gc_signed_histogram_quantile(h, 0)) && gc_signed_histogram_quantile(h, 0) < 0);
  ck_assert(isinf(gc_signed_histogram_quantile(h, 1)) && gc_signed_histogram_quantile(h, 1) > 0);
  ck_assert(gc_signed_histogram_quantile(h, 0.5) == 0 || fabs(gc_signed_histogram_quantile(h, 0.5)) < 1e-4);
  ck_assert(!isnan(gc_signed_histogram_abs_median(h)) && gc_signed_histogram_abs_median(h) >= 0);
  gc_signed_histogram_add(NULL, 1); /* no histogram: nothing, no crash */
  /* A million random doubles: counted unless NaN, every quantile a number. */
  memset(h, 0, sizeof *h);
  seed = 11;
  double added = 0, n = 0;
  for (int i = 0; i < 1000000; i++) {
    uint64_t bits = next();
    double e;
    memcpy(&e, &bits, sizeof e);
    gc_signed_histogram_add(h, e);
    added += !isnan(e);
  }
  for (int b = 0; b < GC_HISTOGRAM_BINS; b++)
    n += h->under.count[b] + h->over.count[b];
  ck_assert(n == added);
  for (double q = -0.5; q <= 1.5; q += 0.05)
    ck_assert_msg(!isnan(gc_signed_histogram_quantile(h, q)), "q %g", q);
  ck_assert(gc_signed_histogram_quantile(h, 0.1) <= gc_signed_histogram_quantile(h, 0.9));
  free(h);
}
END_TEST

/* The one check every prediction passes (prediction.h). */
START_TEST(prediction_checked)
{
  ck_assert(gc_prediction_checked(0) == 0 && !signbit(gc_prediction_checked(-0.0)));
  ck_assert(gc_prediction_checked(1.5) == 1.5 && gc_prediction_checked(DBL_MAX) == DBL_MAX);
  ck_assert(gc_prediction_checked(4.9e-324) == 4.9e-324);
  static const double none[] = {-1, NAN, -NAN, INFINITY, -INFINITY, -1e-300, -5, -DBL_MAX};
  for (size_t i = 0; i < sizeof none / sizeof *none; i++)
    ck_assert_msg(gc_prediction_checked(none[i]) == -1, "%g", none[i]);
}
END_TEST

static Suite *extremes_suite(void)
{
  Suite *s = suite_create("extremes");
  TCase *models = tcase_create("models"), *limits = tcase_create("limits");
  tcase_add_loop_test(models, models_stay_finite, 0, 4);
  tcase_add_loop_test(models, loaded_edges_stay_finite, 0, 2);
  tcase_add_test(limits, histogram_bins);
  tcase_add_test(limits, histogram_add_and_median);
  tcase_add_test(limits, histogram_quantiles);
  tcase_add_test(limits, signed_histogram);
  tcase_add_test(limits, prediction_checked);
  suite_add_tcase(s, models);
  suite_add_tcase(s, limits);
  return s;
}

int main(void)
{
  SRunner *r = srunner_create(extremes_suite());
  srunner_run_all(r, CK_ENV);
  int failed = srunner_ntests_failed(r);
  srunner_free(r);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
