/* Variable-count all-to-all models: linear-grid-v and lgv-backbone from per-pair byte
 * totals. Hand values beside each assertion; with equal blocks they are exactly the
 * fixed-size models (linear-grid, lg-backbone) on every layout; on random matrices they
 * grow with every pair's bytes and never fall below the bounds every exchange pays. */
#include "model.h"
#include "model_check.h"

#include <math.h>

/* As check_model_grid.c: lan1 100 us, 10 ns/B, gamma 2, delta 1 ms from 1000 B; lan2
 * 200 us, 10 ns/B, gamma 1; wide area 10 ms and 10 MB/s both ways. */
static const struct gc_lan lan1 = {.alpha = 1e-4, .beta = 1e-8, .gamma = 2, .delta = 1e-3,
                                   .threshold = 1000};
static const struct gc_lan lan2 = {.alpha = 2e-4, .beta = 1e-8, .gamma = 1, .delta = 0,
                                   .threshold = 0};
static const double lat[4] = {0, 1e-2, 1e-2, 0};
static const double band[4] = {INFINITY, 1e7, 1e7, INFINITY};

static struct gc_model_grid grid(const int *size, const struct gc_lan *lan)
{
  return (struct gc_model_grid){.k = 2, .size = size, .lan = lan, .wan_latency = lat,
                                .wan_bandwidth = band,
                                .scratch = gc_test_scratch(size[0] + size[1], 2)};
}

/* Three clusters, asymmetric latencies, a backbone aggregate on two directions. */
static const double lat3[9] = {0, 5e-3, 2e-2, 5e-3, 0, 1e-2, 2e-2, 1e-2, 0};
static const double band3[9] = {INFINITY, 1e8, 5e7, 1e8, INFINITY, 2e8, 5e7, 2e8, INFINITY};
static const double agg3[9] = {0, 1e9, 0, 1e9, 0, 0, 0, 0, 0};

static struct gc_model_grid grid3(const int *size, const struct gc_lan *lan)
{
  return (struct gc_model_grid){.k = 3, .size = size, .lan = lan, .wan_latency = lat3,
                                .wan_bandwidth = band3, .wan_aggregate = agg3,
                                .scratch = gc_test_scratch(size[0] + size[1] + size[2], 3)};
}

/* bytes[c][d] = n_c n_d m on grid g. */
static void uniform(const struct gc_model_grid *g, double m, double *bytes)
{
  for (int c = 0; c < g->k; c++)
    for (int d = 0; d < g->k; d++)
      bytes[c * g->k + d] = (double)g->size[c] * g->size[d] * m;
}

/* Every block m bytes: the fixed-size models exactly, on even, uneven and three-cluster
 * layouts (LG's roles, partial last groups, aggregates). */
START_TEST(uniform_meets_fixed_models)
{
  static const int layouts[][3] = {{3, 5, 0}, {5, 3, 0}, {4, 4, 0}, {1, 6, 0}, {2, 7, 3}, {6, 1, 4}};
  static const size_t sizes[] = {0, 1, 1000, 65536, 1 << 22};
  struct gc_lan lan[3] = {lan1, lan2, lan1};
  for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      struct gc_model_grid g = layouts[l][2] ? grid3(layouts[l], lan) : grid(layouts[l], lan);
      double bytes[9], t, fixed;
      uniform(&g, (double)sizes[s], bytes);
      ck_assert_int_eq(gc_model_linear_grid_v(&g, bytes, &t), 0);
      ck_assert_int_eq(gc_model_linear_grid(&g, sizes[s], &fixed), 0);
      ck_assert_rel(t, fixed, 1e-12);
      ck_assert_int_eq(gc_model_lgv_backbone(&g, bytes, &t), 0);
      ck_assert_int_eq(gc_model_lg_backbone(&g, sizes[s], &fixed), 0);
      ck_assert_rel(t, fixed, 1e-12);
    }
}
END_TEST

/* One heavy pair: C1 (2 ranks) sends 4 MB to C2 (2 ranks), nothing else moves. */
START_TEST(one_heavy_pair)
{
  int size[2] = {2, 2};
  struct gc_lan lan[2] = {lan1, lan2};
  struct gc_model_grid g = grid(size, lan);
  double bytes[4] = {0, 4e6, 0, 0}, t;
  /* linear-grid-v: the link carries 4 MB at 10 MB/s (0.4 s), more than a process's
   * interface (2 MB at 10 ns/B, 20 ms); C2's side: 200 us + 10 ms + 0.4 s. The former
   * naive-grid-v said 200 us + 2 x 110 ms: two latencies in a row, the link unshared. */
  ck_assert_int_eq(gc_model_linear_grid_v(&g, bytes, &t), 0);
  ck_assert_rel(t, 200e-6 + 1e-2 + 0.4, REL);
  /* lgv-backbone: C1 plays A (equal sizes, lower index); a C1 process holds 2 MB, keeps
   * one 1 MB block it stages, sends the other to its partner: 100 us + 1 MB x 20 ns =
   * 20.1 ms; then 200 us + 10 ms + the link's 0.4 s. Staging a bandwidth-bound transfer
   * costs a local copy: native wins by exactly that. */
  ck_assert_int_eq(gc_model_lgv_backbone(&g, bytes, &t), 0);
  ck_assert_rel(t, 20.1e-3 + 10.2e-3 + 0.4, REL);
  /* Latencies only: both pay the wide-area latency once, LG-v its local size messages
   * too (200 us): the library's exchange is faster on empty blocks. */
  double zeros[4] = {0, 0, 0, 0}, tn;
  ck_assert_int_eq(gc_model_lgv_backbone(&g, zeros, &t), 0);
  ck_assert_int_eq(gc_model_linear_grid_v(&g, zeros, &tn), 0);
  ck_assert_rel(t, 200e-6 + 200e-6 + 1e-2, REL);
  ck_assert_rel(tn, 200e-6 + 1e-2, REL);
}
END_TEST

/* Deterministic pseudo-random numbers in [0, 1) (tests must not depend on libc's rand). */
static double next(unsigned long long *x)
{
  *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*x >> 11) / 9007199254740992.0;
}

static double link_of(const struct gc_model_grid *g, int c, int d)
{
  size_t cd = (size_t)c * g->k + d;
  return g->wan_aggregate && g->wan_aggregate[cd] > 0 ? g->wan_aggregate[cd] : g->wan_bandwidth[cd];
}

/* Random matrices (zeros, one heavy pair, spread over 6 orders of magnitude) on the
 * three-cluster grid: adding bytes to any pair never lowers a prediction; each is at least
 * every process's send bytes through its interface, and every link's bytes over its
 * capacity after the pair's latency; with equal networks in every cluster LG-v
 * is never below the posted-at-once exchange (the same wide-area bytes and latency, and
 * its local phase on top): what keeps `auto` on the library's alltoallv. */
START_TEST(monotone_and_bounded)
{
  static const int layouts[][3] = {{2, 7, 3}, {4, 4, 4}, {1, 5, 2}, {8, 3, 1}};
  struct gc_lan mixed[3] = {lan1, lan2, lan1}, same[3] = {lan2, lan2, lan2};
  unsigned long long x = 42;
  for (int trial = 0; trial < 400; trial++) {
    const int *size = layouts[trial % 4];
    int eq = trial % 2;
    struct gc_model_grid g = grid3(size, eq ? same : mixed);
    double bytes[9];
    for (int i = 0; i < 9; i++)
      bytes[i] = next(&x) < 0.2 ? 0.0 : pow(10.0, 6.0 * next(&x));
    double lin, lgv;
    ck_assert_int_eq(gc_model_linear_grid_v(&g, bytes, &lin), 0);
    ck_assert_int_eq(gc_model_lgv_backbone(&g, bytes, &lgv), 0);
    for (int c = 0; c < 3; c++) {
      double out = 0.0;
      for (int d = 0; d < 3; d++)
        if (d != c) {
          out += bytes[c * 3 + d] / size[c];
          /* Each pair's bytes wait for the pair's latency, then cross its link. */
          double pair = g.lan[c].alpha + lat3[c * 3 + d] + bytes[c * 3 + d] / link_of(&g, c, d);
          ck_assert(lin >= pair * (1 - 1e-12));
          ck_assert(lgv >= pair * (1 - 1e-12));
        }
      double nic = g.lan[c].alpha + out * g.lan[c].beta;
      ck_assert(lin >= nic * (1 - 1e-12));
      ck_assert(lgv >= nic * (1 - 1e-12));
    }
    if (eq)
      ck_assert_msg(lgv >= lin * (1 - 1e-12), "trial %d: lgv %g < linear %g; %g %g %g / %g %g %g / %g %g %g",
                    trial, lgv, lin, bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8]);
    int i = (int)(next(&x) * 9);
    bytes[i] = bytes[i] * 2 + 1000;
    double lin2, lgv2;
    ck_assert_int_eq(gc_model_linear_grid_v(&g, bytes, &lin2), 0);
    ck_assert_int_eq(gc_model_lgv_backbone(&g, bytes, &lgv2), 0);
    ck_assert(lin2 >= lin * (1 - 1e-12));
    ck_assert(lgv2 >= lgv * (1 - 1e-12));
  }
}
END_TEST

START_TEST(limits)
{
  int size[2] = {3, 5};
  struct gc_lan lan[2] = {lan1, lan2};
  struct gc_model_grid g = grid(size, lan);
  double bytes[4] = {1, 2, 3, 4}, t = 42;
  ck_assert_int_eq(gc_model_lgv_backbone(&g, NULL, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_linear_grid_v(&g, NULL, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_lgv_backbone(&g, bytes, NULL), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_linear_grid_v(&g, bytes, NULL), GC_MODEL_EINVAL);
  bytes[2] = -1;
  ck_assert_int_eq(gc_model_lgv_backbone(&g, bytes, &t), GC_MODEL_EINVAL);
  bytes[2] = NAN;
  ck_assert_int_eq(gc_model_linear_grid_v(&g, bytes, &t), GC_MODEL_EINVAL);
  bytes[2] = INFINITY;
  ck_assert_int_eq(gc_model_lgv_backbone(&g, bytes, &t), GC_MODEL_EINVAL);
  ck_assert_rel(t, 42, REL); /* untouched on error */
  /* One cluster: linear-grid-v is linear-grid's alpha + (n-1) m beta gamma; LG-v's local
   * phase alone (it never runs there: gc_alltoallv_lg_applies). 1000 B blocks on 4. */
  int one[1] = {4};
  struct gc_model_grid g1 = {.k = 1, .size = one, .lan = lan,
                             .scratch = gc_test_scratch(one[0], 1)};
  double b1[1] = {16000};
  ck_assert_int_eq(gc_model_linear_grid_v(&g1, b1, &t), 0);
  ck_assert_rel(t, 100e-6 + 3 * 1000 * 2e-8, REL);
  ck_assert_int_eq(gc_model_lgv_backbone(&g1, b1, &t), 0);
  ck_assert_rel(t, 100e-6 + 3 * 1000 * 2e-8, REL);
  /* Huge totals stay finite. */
  double big[4] = {0x1p60, 0x1p60, 0x1p60, 0x1p60};
  ck_assert_int_eq(gc_model_lgv_backbone(&g, big, &t), 0);
  ck_assert(isfinite(t));
  ck_assert_str_eq(gc_model_name(GC_MODEL_LGV_BACKBONE), "lgv-backbone");
  ck_assert_str_eq(gc_model_name(GC_MODEL_LINEAR_GRID_V), "linear-grid-v");
}
END_TEST

int main(void)
{
  Suite *s = suite_create("model_alltoallv");
  TCase *core = tcase_create("core"), *lim = tcase_create("limits");
  tcase_add_test(core, uniform_meets_fixed_models);
  tcase_add_test(core, one_heavy_pair);
  tcase_add_test(core, monotone_and_bounded);
  tcase_add_test(lim, limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, lim);
  return gc_run_suite(s);
}
