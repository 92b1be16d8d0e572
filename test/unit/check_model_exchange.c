/* The all-to-all models of what runs (model/grid_exchange.c): linear-grid, pairwise-grid
 * and lg-backbone, on small grids worked out by hand.  Units are arbitrary (1 s, 1
 * byte/s) so that every term is a small integer. */
#include "model_check.h"

/* Two clusters of n1 and n2: alpha 1, beta 1 (an interface of 1 byte/s), gamma 1; wide
 * area latency `lat` and a link of `bw` bytes/s each way. */
static double lat4[4], bw4[4];
static int size2[2];
static struct gc_lan lan2[2] = {{.alpha = 1, .beta = 1, .gamma = 1}, {.alpha = 1, .beta = 1, .gamma = 1}};

static struct gc_model_grid two(int n1, int n2, double lat, double bw)
{
  size2[0] = n1, size2[1] = n2;
  lat4[0] = lat4[3] = 0, lat4[1] = lat4[2] = lat;
  bw4[0] = bw4[3] = INFINITY, bw4[1] = bw4[2] = bw;
  return (struct gc_model_grid){.k = 2, .size = size2, .lan = lan2, .wan_latency = lat4,
                                .wan_bandwidth = bw4, .scratch = gc_test_scratch(64, 2)};
}

START_TEST(linear_core)
{
  double t;
  /* 2 + 4, m = 3, latency 10, link 2: cluster 0: 1 + max(local 1*3, 10) + max(remote
   * 4*3 = 12, link 2*4*3/2 = 12) = 23; cluster 1: 1 + max(9, 10) + max(6, 12) = 23. */
  struct gc_model_grid g = two(2, 4, 10, 2);
  ck_assert_int_eq(gc_model_linear_grid(&g, 3, &t), 0);
  ck_assert_rel(t, 23, REL);
  /* A link of 4 and an interface twice as fast in cluster 1: cluster 0 still 1 + 10 +
   * max(12, 6) = 23, cluster 1 1 + max(4.5, 10) + max(3, 6) = 17. */
  g = two(2, 4, 10, 4);
  lan2[1].beta = 0.5;
  ck_assert_int_eq(gc_model_linear_grid(&g, 3, &t), 0);
  ck_assert_rel(t, 23, REL);
  /* Latency 1: the local bytes outlast it: 1 + max(3, 1) + 12 = 16 (cluster 1: 1 + 4.5
   * + 6 = 11.5).  At least the interface bound (n-1) m beta = 15 plus alpha. */
  g = two(2, 4, 1, 4);
  ck_assert_int_eq(gc_model_linear_grid(&g, 3, &t), 0);
  ck_assert_rel(t, 16, REL);
  lan2[1].beta = 1;
  /* One cluster: alpha + (n-1) m beta gamma, the latency paid once. */
  int one = 5;
  struct gc_model_grid g1 = {.k = 1, .size = &one, .lan = lan2, .scratch = gc_test_scratch(64, 1)};
  ck_assert_int_eq(gc_model_linear_grid(&g1, 3, &t), 0);
  ck_assert_rel(t, 1 + 4 * 3, REL);
}
END_TEST

/* Latency and link paired per cluster pair (gen8's shape): the most loaded link is a short
 * one.  Clusters of 1, 4 and 4; latency 10 from cluster 0, 2 between 1 and 2; every link
 * 1 byte/s each way; alpha 1, an interface of 100 bytes/s (beta 0.01); m = 1. */
START_TEST(linear_pairs)
{
  static const int size3[3] = {1, 4, 4};
  static const double lat9[9] = {0, 10, 10, 10, 0, 2, 10, 2, 0};
  static const double bw9[9] = {INFINITY, 1, 1, 1, INFINITY, 1, 1, 1, INFINITY};
  struct gc_lan fast[3] = {{.alpha = 1, .beta = 0.01, .gamma = 1}, {.alpha = 1, .beta = 0.01, .gamma = 1},
                           {.alpha = 1, .beta = 0.01, .gamma = 1}};
  struct gc_model_grid g = {.k = 3, .size = size3, .lan = fast, .wan_latency = lat9,
                            .wan_bandwidth = bw9, .scratch = gc_test_scratch(64, 3)};
  double t;
  /* Cluster 1: to 0, 10 + 4*1*1/1 = 14; to 2, max(2, local 3*0.01) + 16 = 18: 1 + 18 = 19
   * (the largest latency plus the largest link would say 1 + 10 + 16 = 27).  Cluster 0:
   * 1 + 10 + 4 = 15. */
  ck_assert_int_eq(gc_model_linear_grid(&g, 1, &t), 0);
  ck_assert_rel(t, 19, REL);
  /* LG, phase 1: cluster 0 (A of both pairs) keeps 4 + 4, holds nothing to send; 1 and 2
   * (B to 0, A to each other: keep 1 + 1) send 8 - 2 = 6 blocks: 1 + 0.06.  Phase 2, from
   * cluster 1: to 0 it sends 1 message of 1 byte (10 + 4*1/1 = 14), to 2 one of 4 bytes
   * (2 + max(16 / 1, 4 / 1) = 18): 1 + 18 = 19.  T = 1.06 + 19. */
  ck_assert_int_eq(gc_model_lg_backbone(&g, 1, &t), 0);
  ck_assert_rel(t, 20.06, REL);
  /* A window of 20 bytes: across 10 (round trip 20) one flow runs at most 1 byte/s, as
   * fast as the link: unchanged; a window of 2 caps it at 0.1: cluster 1's message to 0
   * takes 10 + 1/0.1 = 20 (linear-grid: 1 + 20 = 21). */
  g.window = 20;
  ck_assert_int_eq(gc_model_linear_grid(&g, 1, &t), 0);
  ck_assert_rel(t, 19, REL);
  g.window = 2;
  ck_assert_int_eq(gc_model_linear_grid(&g, 1, &t), 0);
  ck_assert_rel(t, 21, REL);
}
END_TEST

START_TEST(pairwise_core)
{
  double t;
  /* 4 ranks {0,0,1,1}: XOR partners.  Step 1 stays inside: 1 + 3 = 4.  Steps 2 and 3
   * cross, two flows each way share the link of 2: rate min(1, 1) = 1, 10 + 1 + 3 = 14.
   * 4 + 14 + 14 = 32. */
  struct gc_model_grid g = two(2, 2, 10, 2);
  int of4[4] = {0, 0, 1, 1};
  ck_assert_int_eq(gc_model_pairwise_grid(&g, 4, of4, 3, &t), 0);
  ck_assert_rel(t, 32, REL);
  /* A link of 1: two flows at 0.5 each, 10 + 1 + 6 = 17: 4 + 17 + 17 = 38. */
  g = two(2, 2, 10, 1);
  ck_assert_int_eq(gc_model_pairwise_grid(&g, 4, of4, 3, &t), 0);
  ck_assert_rel(t, 38, REL);
  /* 3 ranks {0,0,1} (not a power of two: r sends to r+i mod 3): step 1 has 0->1 inside
   * and one flow each way across: 14; step 2 the same: 28. */
  g = two(2, 1, 10, 2);
  int of3[3] = {0, 0, 1};
  ck_assert_int_eq(gc_model_pairwise_grid(&g, 3, of3, 3, &t), 0);
  ck_assert_rel(t, 28, REL);
}
END_TEST

START_TEST(lg_core)
{
  double t;
  /* 2 + 4, m = 3: cluster 0 plays A, keeps 4/2 = 2 of the blocks it stages and sends 5 -
   * 2 = 3 in phase 1: 1 + 9 = 10; a member of B keeps 1, sends 4: 1 + 12 = 13.  Phase 2:
   * 1 + 10, then max(link 2*4*3/2 = 12, A's ceil(4/2) messages of 2*3 = 12 bytes through
   * its interface) = 12: 13 + 11 + 12 = 36. */
  struct gc_model_grid g = two(2, 4, 10, 2);
  ck_assert_int_eq(gc_model_lg_backbone(&g, 3, &t), 0);
  ck_assert_rel(t, 36, REL);
  /* 2 + 3: A keeps 1, sends 3: 10; B's last block has 1 member: it sends ceil(2/1) = 2
   * messages of 3 bytes; B keeps 1, sends 3: 10.  Phase 2: 11 + max(2*3*3/2 = 9, A's
   * 2 messages of 6 = 12) = 23: 33. */
  g = two(2, 3, 10, 2);
  ck_assert_int_eq(gc_model_lg_backbone(&g, 3, &t), 0);
  ck_assert_rel(t, 33, REL);
  /* Never below the shared link's bound: latency + 2*4*m/bw with a slow link. */
  g = two(2, 4, 10, 0.01);
  ck_assert_int_eq(gc_model_lg_backbone(&g, 3, &t), 0);
  ck_assert(t >= 10 + 2 * 4 * 3 / 0.01);
}
END_TEST

START_TEST(exchange_limits)
{
  double t = -1;
  struct gc_model_grid g = two(2, 2, 10, 2);
  int of4[4] = {0, 0, 1, 1}, bad[4] = {0, 0, 1, 2};
  ck_assert_int_eq(gc_model_linear_grid(NULL, 3, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_linear_grid(&g, 3, NULL), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_lg_backbone(NULL, 3, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_pairwise_grid(&g, 4, bad, 3, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_pairwise_grid(&g, 0, of4, 3, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_pairwise_grid(&g, 4, NULL, 3, &t), GC_MODEL_EINVAL);
  bw4[1] = NAN;
  ck_assert_int_eq(gc_model_linear_grid(&g, 3, &t), GC_MODEL_EINVAL);
  ck_assert_rel(t, -1, 0); /* untouched by every failed call */
}
END_TEST

int main(void)
{
  Suite *s = suite_create("model_exchange");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, linear_core);
  tcase_add_test(core, linear_pairs);
  tcase_add_test(core, pairwise_core);
  tcase_add_test(core, lg_core);
  tcase_add_test(limits, exchange_limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return gc_run_suite(s);
}
