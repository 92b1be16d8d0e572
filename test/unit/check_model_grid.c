/* All-to-all across clusters: the published naive grid (000 Eq. 6) and LG (000 Eq. 7)
 * formulas (grid_reference.h), for two clusters and k clusters, and the limits every grid
 * formula shares (gc_model_grid_check).  Expected values worked out by hand
 * beside each assertion. */
#include "model.h"
#include "model_check.h"
#include "grid_reference.h"

#include <string.h>

/* lan1: 100 us, 10 ns/byte, gamma 2, delta 1 ms from 1000 B; lan2: 200 us, gamma 1, no delta. */
static const struct gc_lan lan1 = {.alpha = 1e-4, .beta = 1e-8, .gamma = 2, .delta = 1e-3,
                                   .threshold = 1000};
static const struct gc_lan lan2 = {.alpha = 2e-4, .beta = 1e-8, .gamma = 1, .delta = 0,
                                   .threshold = 0};
/* Wide area: alpha_w = 10 ms, beta_w = 100 ns/byte (10 MB/s). */
#define AW 1e-2
#define BW 1e-7

/* Hand values for n1 = 3, n2 = 5, m = 1000:
 *   T_C1 = 2 * (100 + 1000*0.01*2 + 1000 us) = 2 * 1120 us = 2.24 ms  (m >= M: delta)
 *   T_C2 = 4 * (200 + 1000*0.01*1 us) = 4 * 210 us = 0.84 ms  -> max = 2.24 ms
 *   wide-area message of m bytes: 10 ms + 1000*100 ns = 10.1 ms; of 3m: 10.3 ms */
START_TEST(two_clusters_core)
{
  double t;
  ck_assert_int_eq(grid2(ref_naive_grid, 3, 5, 1000, &lan1, &lan2, AW, BW, &t), 0);
  ck_assert_rel(t, 52.74e-3, REL); /* 2.24 + max(3,5) * 10.1 = 2.24 + 50.5 ms */
  ck_assert_int_eq(grid2(ref_lg_grid, 3, 5, 1000, &lan1, &lan2, AW, BW, &t), 0);
  ck_assert_rel(t, 22.84e-3, REL); /* 2.24 + ceil(5/3) * 10.3 = 2.24 + 20.6 ms */
  ck_assert_int_eq(grid2(ref_lg_grid, 5, 3, 1000, &lan2, &lan1, AW, BW, &t), 0);
  ck_assert_rel(t, 22.84e-3, REL); /* the smaller cluster plays A whichever comes first */
}
END_TEST

/* k = 3, sizes {2, 2, 4}, same lan everywhere: 100 us, 10 ns/byte, gamma 1, no delta;
 * symmetric latencies W01 = 10 ms, W02 = 20 ms, W12 = 30 ms; every bandwidth 10 MB/s. */
static const int size3[3] = {2, 2, 4};
static const struct gc_lan plain = {.alpha = 1e-4, .beta = 1e-8, .gamma = 1, .delta = 0,
                                    .threshold = 0};
static const double lat3[9] = {0, .01, .02, .01, 0, .03, .02, .03, 0};
static const double bw3[9] = {INFINITY, 1e7, 1e7, 1e7, INFINITY, 1e7, 1e7, 1e7, INFINITY};

START_TEST(k_clusters_core)
{
  struct gc_lan lans[3] = {plain, plain, plain};
  struct gc_model_grid g = {.k = 3, .size = size3, .lan = lans, .wan_latency = lat3,
                            .wan_bandwidth = bw3, .scratch = gc_test_scratch(64, 3)};
  double t;
  /* T_C: n = 2: 1 * 110 us; n = 4: 3 * 110 = 330 us -> 0.33 ms.  A remote message of 1000 B
   * costs W + 0.1 ms.  Naive: a process of C0 sends 2*10.1 + 4*20.1 = 100.6 ms, of C1
   * 2*10.1 + 4*30.1 = 140.6 ms, of C2 2*20.1 + 2*30.1 = 100.4 ms -> 0.33 + 140.6 ms. */
  ck_assert_int_eq(ref_naive_grid(&g, 1000, &t), 0);
  ck_assert_rel(t, 140.93e-3, REL);
  /* LG: pair (0,1) a = b = 2: 1 round of 2000 B: 10.2 ms; (0,2) a = 2, b = 4: 2 rounds of
   * 20.2 ms = 40.4; (1,2): 2 * 30.2 = 60.4 ms -> 0.33 + 60.4 = 60.73 ms. */
  ck_assert_int_eq(ref_lg_grid(&g, 1000, &t), 0);
  ck_assert_rel(t, 60.73e-3, REL);
}
END_TEST

/* The k-cluster forms reduce to the published two-cluster ones. */
START_TEST(k_equals_two)
{
  int size[2] = {3, 5};
  struct gc_lan lans[2] = {lan1, lan2};
  double lat[4] = {0, AW, AW, 0}, bw[4] = {INFINITY, 1 / BW, 1 / BW, INFINITY};
  struct gc_model_grid g = {.k = 2, .size = size, .lan = lans, .wan_latency = lat,
                            .wan_bandwidth = bw, .scratch = gc_test_scratch(64, 2)};
  double t;
  ck_assert_int_eq(ref_naive_grid(&g, 1000, &t), 0);
  ck_assert_rel(t, 52.74e-3, REL);
  ck_assert_int_eq(ref_lg_grid(&g, 1000, &t), 0);
  ck_assert_rel(t, 22.84e-3, REL);
}
END_TEST

/* network.wan.aggregate (issue 14): 32+32 processes, 1 MiB blocks, one flow 125 MB/s at
 * 5.5 ms, backbone 1.25 GB/s. Per process (Eq. 6): 32 * (5.5 ms + 8.389 ms) = 444.4 ms;
 * the backbone carries 32*32 MiB = 1.074e9 B: 5.5 ms + 858.99 ms = 864.5 ms, so it sets
 * the wide-area part. LG: ceil(32/32) * (5.5 ms + 32 MiB / 125 MB/s = 268.4 ms) = 273.9 ms,
 * also below the backbone bound. Without the matrix, or with 0 (none for that pair), the
 * predictions stay what they were. */
START_TEST(aggregate_backbone)
{
  const int size[2] = {32, 32};
  const struct gc_lan lan[2] = {plain, plain};
  const double lat[4] = {0, 5.5e-3, 5.5e-3, 0}, bw[4] = {0, 1.25e8, 1.25e8, 0};
  const double agg[4] = {0, 1.25e9, 1.25e9, 0}, none[4] = {0};
  const size_t m = 1 << 20;
  double local = 31 * (1e-4 + m * 1e-8), t;
  struct gc_model_grid g = {2, size, lan, lat, bw, NULL, 0, gc_test_scratch(64, 2), NULL};
  ck_assert_int_eq(ref_naive_grid(&g, m, &t), 0);
  ck_assert_rel(t, local + 32 * (5.5e-3 + m / 1.25e8), REL);
  ck_assert_int_eq(ref_lg_grid(&g, m, &t), 0);
  ck_assert_rel(t, local + 5.5e-3 + 32.0 * m / 1.25e8, REL);
  g.wan_aggregate = none;
  ck_assert_int_eq(ref_lg_grid(&g, m, &t), 0);
  ck_assert_rel(t, local + 5.5e-3 + 32.0 * m / 1.25e8, REL);
  g.wan_aggregate = agg;
  double backbone = 5.5e-3 + 1024.0 * m / 1.25e9;
  ck_assert_int_eq(ref_naive_grid(&g, m, &t), 0);
  ck_assert_rel(t, local + backbone, REL);
  ck_assert_int_eq(ref_lg_grid(&g, m, &t), 0);
  ck_assert_rel(t, local + backbone, REL);
  const double bad[4] = {0, NAN, 1.25e9, 0};
  g.wan_aggregate = bad;
  ck_assert_int_eq(ref_lg_grid(&g, m, &t), GC_MODEL_EINVAL);
}
END_TEST

START_TEST(grid_limits)
{
  struct gc_lan lans[3] = {plain, plain, plain};
  int size[3] = {5, 1, 3};
  struct gc_model_grid g = {.k = 1, .size = size, .lan = lans, .scratch = gc_test_scratch(64, 1)};
  double t = -1, sig;
  /* k = 1 (no matrices needed): all three are the signature of the one cluster,
   * 4 * (100 + 10 us) = 440 us. */
  gc_model_alltoall_signature(5, 1000, &plain, &sig);
  ck_assert_rel(sig, 440e-6, REL);
  ck_assert_int_eq(ref_naive_grid(&g, 1000, &t), 0);
  ck_assert_rel(t, sig, REL);
  ck_assert_int_eq(ref_lg_grid(&g, 1000, &t), 0);
  ck_assert_rel(t, sig, REL);
  /* A cluster of one process (a = 1) against 3: LG has 3 rounds of m bytes:
   * T_C = 2 * 110 us = 0.22 ms; 3 * (10 ms + 0.1 ms) = 30.3 ms. */
  ck_assert_int_eq(grid2(ref_lg_grid, 1, 3, 1000, &plain, &plain, AW, BW, &t), 0);
  ck_assert_rel(t, 30.52e-3, REL);
  /* m = 0: only latencies: naive 1 vs 1: T_C = 0, 1 * 10 ms. */
  ck_assert_int_eq(grid2(ref_naive_grid, 1, 1, 0, &plain, &plain, AW, BW, &t), 0);
  ck_assert_rel(t, 10e-3, REL);
  /* beta_w = 0 (infinite bandwidth): 2 rounds of 10 ms for 2 vs 4 + T_C = 3 * 100 us. */
  ck_assert_int_eq(grid2(ref_lg_grid, 2, 4, 0, &plain, &plain, AW, 0, &t), 0);
  ck_assert_rel(t, 20.3e-3, REL);

  t = -1;
  g.k = 3; /* matrices missing */
  ck_assert_int_eq(ref_lg_grid(&g, 1000, &t), GC_MODEL_EINVAL);
  g.wan_latency = lat3, g.wan_bandwidth = bw3;
  ck_assert_int_eq(ref_lg_grid(&g, 1000, &t), 0);
  size[1] = 0; /* an empty cluster */
  t = -1;
  ck_assert_int_eq(gc_model_lg_backbone(&g, 1000, &t), GC_MODEL_EINVAL);
  size[1] = 1;
  double badbw[9];
  memcpy(badbw, bw3, sizeof badbw);
  badbw[1] = 0; /* zero bandwidth off the diagonal */
  g.wan_bandwidth = badbw;
  ck_assert_int_eq(ref_naive_grid(&g, 1000, &t), GC_MODEL_EINVAL);
  badbw[1] = NAN;
  ck_assert_int_eq(ref_naive_grid(&g, 1000, &t), GC_MODEL_EINVAL);
  g.wan_bandwidth = bw3, g.size = NULL;
  ck_assert_int_eq(ref_naive_grid(&g, 1000, &t), GC_MODEL_EINVAL);
  g.size = size, g.lan = NULL;
  ck_assert_int_eq(ref_naive_grid(&g, 1000, &t), GC_MODEL_EINVAL);
  g.k = 0;
  ck_assert_int_eq(ref_naive_grid(&g, 1000, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(ref_naive_grid(NULL, 1000, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(grid2(ref_lg_grid, 0, 3, 1, &plain, &plain, AW, BW, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(grid2(ref_lg_grid, 2, 3, 1, NULL, &plain, AW, BW, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(grid2(ref_lg_grid, 2, 3, 1, &plain, &plain, -1, BW, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(grid2(gc_model_lg_backbone, 2, 3, 1, &plain, &plain, AW, NAN, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(grid2(ref_lg_grid, 2, 3, 1, &plain, &plain, AW, BW, NULL), GC_MODEL_EINVAL);
  ck_assert_rel(t, -1, 0); /* untouched by every failed call */
}
END_TEST

int main(void)
{
  Suite *s = suite_create("model_grid");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, two_clusters_core);
  tcase_add_test(core, k_clusters_core);
  tcase_add_test(core, k_equals_two);
  tcase_add_test(core, aggregate_backbone);
  tcase_add_test(limits, grid_limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return gc_run_suite(s);
}
