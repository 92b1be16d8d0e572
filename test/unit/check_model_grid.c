/* All-to-all across clusters: naive grid (000 Eq. 6), LG (000 Eq. 7) and refined LG, for
 * two clusters and k clusters.  Expected values worked out by hand beside each assertion;
 * the refined model is also checked against a literal simulation of SPEC section 3. */
#include "model.h"
#include "model_check.h"

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
  ck_assert_int_eq(grid2(gc_model_naive_grid, 3, 5, 1000, &lan1, &lan2, AW, BW, &t), 0);
  ck_assert_rel(t, 52.74e-3, REL); /* 2.24 + max(3,5) * 10.1 = 2.24 + 50.5 ms */
  ck_assert_int_eq(grid2(gc_model_lg_grid, 3, 5, 1000, &lan1, &lan2, AW, BW, &t), 0);
  ck_assert_rel(t, 22.84e-3, REL); /* 2.24 + ceil(5/3) * 10.3 = 2.24 + 20.6 ms */
  ck_assert_int_eq(grid2(gc_model_lg_grid, 5, 3, 1000, &lan2, &lan1, AW, BW, &t), 0);
  ck_assert_rel(t, 22.84e-3, REL); /* the smaller cluster plays A whichever comes first */
  /* Refined: A = C1 (a = 3), B = C2 (b = 5), blocks B_0 = B[0..2] (r = 3), B_1 = B[3..4]
   * (r = 2).  Phase 1 in C1: A[x] -> A[y] carries 1 + floor(5/3) + (y < 5 mod 3) blocks:
   * 3 for y = 0, 1 and 2 for y = 2.  msg(3000 B) = 100 + 60 + 1000 = 1160 us, msg(2000) =
   * 1140 us.  A[0] sends 3000 + 2000 (2300 us) and receives 3000 + 3000 (2320 us); A[2]
   * sends 3000 + 3000 (2320 us): C1 busiest = 2.32 ms.  C2 (msg(k*1000) = 200 + 10k us):
   * in B_0, 2 blocks to the block's peers, 1 to others; B[3] -> B[4] 2 blocks, B[4] -> B[3]
   * 3 blocks; busiest B[0]: 2*220 + 2*210 = 860 us < 2.32 ms.
   * Phase 2: step 0 (r = 3): 3000 B each way, 10.3 ms; step 1 (r = 2): A side 10.3 ms, B[3]
   * sends ceil(3/2) = 2 messages of 2000 B: 2 * 10.2 = 20.4 ms.  Wide = 30.7 ms.
   * Total 2.32 + 30.7 = 33.02 ms (Eq. 7 said 22.84). */
  ck_assert_int_eq(grid2(gc_model_lg_refined, 3, 5, 1000, &lan1, &lan2, AW, BW, &t), 0);
  ck_assert_rel(t, 33.02e-3, REL);
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
                            .wan_bandwidth = bw3};
  double t;
  /* T_C: n = 2: 1 * 110 us; n = 4: 3 * 110 = 330 us -> 0.33 ms.  A remote message of 1000 B
   * costs W + 0.1 ms.  Naive: a process of C0 sends 2*10.1 + 4*20.1 = 100.6 ms, of C1
   * 2*10.1 + 4*30.1 = 140.6 ms, of C2 2*20.1 + 2*30.1 = 100.4 ms -> 0.33 + 140.6 ms. */
  ck_assert_int_eq(gc_model_naive_grid(&g, 1000, &t), 0);
  ck_assert_rel(t, 140.93e-3, REL);
  /* LG: pair (0,1) a = b = 2: 1 round of 2000 B: 10.2 ms; (0,2) a = 2, b = 4: 2 rounds of
   * 20.2 ms = 40.4; (1,2): 2 * 30.2 = 60.4 ms -> 0.33 + 60.4 = 60.73 ms. */
  ck_assert_int_eq(gc_model_lg_grid(&g, 1000, &t), 0);
  ck_assert_rel(t, 60.73e-3, REL);
  /* Refined, phase 1: C0 plays A in both its pairs ((0,1) by index on the tie): its one
   * message carries 1 + 1 (for C1) + 2 (for C2) = 4 blocks: 100 + 40 = 140 us.  C1 plays B
   * for (1,0) (1 block) and A for (1,2) (2): also 4 blocks, 140 us.  C2 plays B twice, blocks
   * {0,1}, {2,3} of r = 2: to its block peer 1 + 1 + 1 = 3 blocks (130 us), to the other two
   * 1 block (110 us): 130 + 220 = 350 us.  Phase 2: every a divides b: as LG, 60.4 ms.
   * Total 0.35 + 60.4 = 60.75 ms. */
  ck_assert_int_eq(gc_model_lg_refined(&g, 1000, &t), 0);
  ck_assert_rel(t, 60.75e-3, REL);
}
END_TEST

/* The k-cluster forms reduce to the published two-cluster ones. */
START_TEST(k_equals_two)
{
  int size[2] = {3, 5};
  struct gc_lan lans[2] = {lan1, lan2};
  double lat[4] = {0, AW, AW, 0}, bw[4] = {INFINITY, 1 / BW, 1 / BW, INFINITY};
  struct gc_model_grid g = {.k = 2, .size = size, .lan = lans, .wan_latency = lat,
                            .wan_bandwidth = bw};
  double t;
  ck_assert_int_eq(gc_model_naive_grid(&g, 1000, &t), 0);
  ck_assert_rel(t, 52.74e-3, REL);
  ck_assert_int_eq(gc_model_lg_grid(&g, 1000, &t), 0);
  ck_assert_rel(t, 22.84e-3, REL);
  /* a divides b: refined phase 2 equals Eq. 7's, ceil(6/3) * (10 ms + 3000*100 ns). */
  size[0] = 3, size[1] = 6;
  double lg, ref;
  gc_model_lg_grid(&g, 1000, &lg);
  gc_model_lg_refined(&g, 1000, &ref);
  ck_assert_rel(lg, 2.24e-3 + 2 * 10.3e-3, REL); /* T_C1 = 2.24 > T_C2 = 5*210 us */
  ck_assert(ref > lg); /* only the staged bytes differ */
}
END_TEST

#define SIM_MAX 12 /* largest cluster of the simulation */

/* One message of 000 Eq. 5. */
static double sig_msg(const struct gc_lan *l, double bytes)
{
  return l->alpha + bytes * l->beta * l->gamma + (bytes >= l->threshold ? l->delta : 0);
}

/* Literal simulation of SPEC section 3: every block's staging holder, then the messages. */
static double sim_refined(int k, const int *size, const struct gc_lan *lan, const double *lat,
                          const double *bw, double m)
{
  int blocks[4][SIM_MAX][SIM_MAX];
  memset(blocks, 0, sizeof blocks);
  for (int c = 0; c < k; c++)
    for (int d = 0; d < k; d++) {
      if (c == d)
        continue;
      int c_a = size[c] < size[d] || (size[c] == size[d] && c < d);
      int a = c_a ? size[c] : size[d], b = c_a ? size[d] : size[c];
      for (int x = 0; x < size[c]; x++)
        for (int y = 0; y < (c_a ? b : a); y++) { /* the block from x for member y of d */
          int s = x / a, r = b - s * a < a ? b - s * a : a;
          int holder = c_a ? y % a : s * a + y % r;
          blocks[c][x][holder]++;
        }
    }
  double local = 0, wide = 0;
  for (int c = 0; c < k; c++)
    for (int x = 0; x < size[c]; x++) {
      double snd = 0, rcv = 0;
      for (int y = 0; y < size[c]; y++) {
        if (y == x)
          continue;
        double bs = (1 + blocks[c][x][y]) * m, br = (1 + blocks[c][y][x]) * m;
        snd += sig_msg(&lan[c], bs);
        rcv += sig_msg(&lan[c], br);
      }
      local = fmax(local, fmax(snd, rcv));
    }
  for (int c = 0; c < k; c++)
    for (int d = c + 1; d < k; d++) {
      int A = size[c] <= size[d] ? c : d, B = A == c ? d : c, a = size[A], b = size[B];
      double tot = 0;
      for (int s = 0; s * a < b; s++) {
        int r = b - s * a < a ? b - s * a : a, most = 0;
        for (int i = 0; i < r; i++) {
          int cnt = 0;
          for (int kk = 0; kk < a; kk++)
            cnt += kk % r == i;
          most = cnt > most ? cnt : most;
        }
        double as = lat[A * k + B] + a * m / bw[A * k + B];
        double bs = most * (lat[B * k + A] + r * m / bw[B * k + A]);
        tot += fmax(as, bs);
      }
      wide = fmax(wide, tot);
    }
  return local + wide;
}

START_TEST(refined_matches_simulation)
{
  /* 2..4 clusters of 1..12 processes (every assignment for k <= 3, one in 7 for k = 4, about
   * 5k cases), two block sizes, delta thresholds between 1 and 7 blocks so that message
   * sizes matter: the fast per-cell sums of lg_refined.c against the literal staging. */
  struct gc_lan lans[4] = {lan1, lan2, lan1, plain};
  lans[0].threshold = 2500, lans[2].threshold = 1500, lans[1].delta = 2e-3;
  lans[1].threshold = 2700;
  double lat[16], bw[16];
  for (int i = 0; i < 16; i++)
    lat[i] = 1e-3 * (1 + i % 5), bw[i] = 1e6 * (1 + i % 3);
  int size[4];
  for (int k = 2; k <= 4; k++) {
    int total = 1;
    for (int c = 0; c < k; c++)
      total *= SIM_MAX;
    for (int code = 0; code < total; code += (k == 4 ? 7 : 1)) {
      for (int c = 0, v = code; c < k; c++, v /= SIM_MAX)
        size[c] = 1 + v % SIM_MAX;
      struct gc_model_grid g = {.k = k, .size = size, .lan = lans, .wan_latency = lat,
                                .wan_bandwidth = bw};
      for (size_t m = 400; m <= 1000; m += 600) {
        double t;
        ck_assert_int_eq(gc_model_lg_refined(&g, m, &t), 0);
        ck_assert_rel(t, sim_refined(k, size, lans, lat, bw, (double)m), 1e-12);
      }
    }
  }
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
  struct gc_model_grid g = {2, size, lan, lat, bw, NULL};
  ck_assert_int_eq(gc_model_naive_grid(&g, m, &t), 0);
  ck_assert_rel(t, local + 32 * (5.5e-3 + m / 1.25e8), REL);
  ck_assert_int_eq(gc_model_lg_grid(&g, m, &t), 0);
  ck_assert_rel(t, local + 5.5e-3 + 32.0 * m / 1.25e8, REL);
  g.wan_aggregate = none;
  ck_assert_int_eq(gc_model_lg_grid(&g, m, &t), 0);
  ck_assert_rel(t, local + 5.5e-3 + 32.0 * m / 1.25e8, REL);
  g.wan_aggregate = agg;
  double backbone = 5.5e-3 + 1024.0 * m / 1.25e9;
  ck_assert_int_eq(gc_model_naive_grid(&g, m, &t), 0);
  ck_assert_rel(t, local + backbone, REL);
  ck_assert_int_eq(gc_model_lg_grid(&g, m, &t), 0);
  ck_assert_rel(t, local + backbone, REL);
  const double bad[4] = {0, NAN, 1.25e9, 0};
  g.wan_aggregate = bad;
  ck_assert_int_eq(gc_model_lg_grid(&g, m, &t), GC_MODEL_EINVAL);
}
END_TEST

START_TEST(grid_limits)
{
  struct gc_lan lans[3] = {plain, plain, plain};
  int size[3] = {5, 1, 3};
  struct gc_model_grid g = {.k = 1, .size = size, .lan = lans};
  double t = -1, sig;
  /* k = 1 (no matrices needed): all three are the signature of the one cluster,
   * 4 * (100 + 10 us) = 440 us. */
  gc_model_alltoall_signature(5, 1000, &plain, &sig);
  ck_assert_rel(sig, 440e-6, REL);
  ck_assert_int_eq(gc_model_naive_grid(&g, 1000, &t), 0);
  ck_assert_rel(t, sig, REL);
  ck_assert_int_eq(gc_model_lg_grid(&g, 1000, &t), 0);
  ck_assert_rel(t, sig, REL);
  ck_assert_int_eq(gc_model_lg_refined(&g, 1000, &t), 0);
  ck_assert_rel(t, sig, REL);
  /* A cluster of one process (a = 1) against 3: LG has 3 rounds of m bytes:
   * T_C = 2 * 110 us = 0.22 ms; 3 * (10 ms + 0.1 ms) = 30.3 ms; refined stages nothing. */
  ck_assert_int_eq(grid2(gc_model_lg_grid, 1, 3, 1000, &plain, &plain, AW, BW, &t), 0);
  ck_assert_rel(t, 30.52e-3, REL);
  ck_assert_int_eq(grid2(gc_model_lg_refined, 1, 3, 1000, &plain, &plain, AW, BW, &t), 0);
  ck_assert_rel(t, 30.52e-3, REL);
  /* m = 0: only latencies: naive 1 vs 1: T_C = 0, 1 * 10 ms. */
  ck_assert_int_eq(grid2(gc_model_naive_grid, 1, 1, 0, &plain, &plain, AW, BW, &t), 0);
  ck_assert_rel(t, 10e-3, REL);
  /* beta_w = 0 (infinite bandwidth): 2 rounds of 10 ms for 2 vs 4 + T_C = 3 * 100 us. */
  ck_assert_int_eq(grid2(gc_model_lg_grid, 2, 4, 0, &plain, &plain, AW, 0, &t), 0);
  ck_assert_rel(t, 20.3e-3, REL);

  t = -1;
  g.k = 3; /* matrices missing */
  ck_assert_int_eq(gc_model_lg_grid(&g, 1000, &t), GC_MODEL_EINVAL);
  g.wan_latency = lat3, g.wan_bandwidth = bw3;
  ck_assert_int_eq(gc_model_lg_grid(&g, 1000, &t), 0);
  size[1] = 0; /* an empty cluster */
  t = -1;
  ck_assert_int_eq(gc_model_lg_refined(&g, 1000, &t), GC_MODEL_EINVAL);
  size[1] = 1;
  double badbw[9];
  memcpy(badbw, bw3, sizeof badbw);
  badbw[1] = 0; /* zero bandwidth off the diagonal */
  g.wan_bandwidth = badbw;
  ck_assert_int_eq(gc_model_naive_grid(&g, 1000, &t), GC_MODEL_EINVAL);
  badbw[1] = NAN;
  ck_assert_int_eq(gc_model_naive_grid(&g, 1000, &t), GC_MODEL_EINVAL);
  g.wan_bandwidth = bw3, g.size = NULL;
  ck_assert_int_eq(gc_model_naive_grid(&g, 1000, &t), GC_MODEL_EINVAL);
  g.size = size, g.lan = NULL;
  ck_assert_int_eq(gc_model_naive_grid(&g, 1000, &t), GC_MODEL_EINVAL);
  g.k = 0;
  ck_assert_int_eq(gc_model_naive_grid(&g, 1000, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_naive_grid(NULL, 1000, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(grid2(gc_model_lg_grid, 0, 3, 1, &plain, &plain, AW, BW, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(grid2(gc_model_lg_grid, 2, 3, 1, NULL, &plain, AW, BW, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(grid2(gc_model_lg_grid, 2, 3, 1, &plain, &plain, -1, BW, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(grid2(gc_model_lg_refined, 2, 3, 1, &plain, &plain, AW, NAN, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(grid2(gc_model_lg_grid, 2, 3, 1, &plain, &plain, AW, BW, NULL), GC_MODEL_EINVAL);
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
  tcase_add_test(core, refined_matches_simulation);
  tcase_add_test(core, aggregate_backbone);
  tcase_add_test(limits, grid_limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return gc_run_suite(s);
}
