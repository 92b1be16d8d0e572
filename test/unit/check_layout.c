/* Per-communicator layout, the network view and algorithm selection: the pure parts of
 * the shim that decide, identically on every rank, what a call will do. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "alltoall_algorithms.h"
#include "layout.h"
#include "network.h"
#include "select.h"

START_TEST(clusters_by_first_appearance) {
  /* world cluster ids 7,3,7,3,9: local clusters 0 (ranks 0,2), 1 (1,3), 2 (4). */
  int gid[] = {7, 3, 7, 3, 9};
  struct gc_layout l;
  ck_assert_int_eq(gc_layout_build(&l, 5, gid), 0);
  ck_assert_int_eq(l.nclusters, 3);
  ck_assert(l.global_id[0] == 7 && l.global_id[1] == 3 && l.global_id[2] == 9);
  ck_assert(l.cluster_size[0] == 2 && l.cluster_size[1] == 2 && l.cluster_size[2] == 1);
  ck_assert(gc_layout_member(&l, 0, 0) == 0 && gc_layout_member(&l, 0, 1) == 2);
  ck_assert(gc_layout_member(&l, 1, 0) == 1 && gc_layout_member(&l, 1, 1) == 3);
  ck_assert(gc_layout_leader(&l, 2) == 4);
  ck_assert(l.index_in_cluster[2] == 1 && l.index_in_cluster[3] == 1 && l.index_in_cluster[4] == 0);
  ck_assert(l.cluster_of[0] == 0 && l.cluster_of[3] == 1 && l.cluster_of[4] == 2);
  gc_layout_free(&l);
}
END_TEST

START_TEST(every_rank_listed_once) {
  srand(42);
  for (int trial = 0; trial < 200; trial++) {
    int n = 1 + rand() % 64, gid[64], seen[64] = {0};
    for (int r = 0; r < n; r++)
      gid[r] = rand() % 6;
    struct gc_layout l;
    ck_assert_int_eq(gc_layout_build(&l, n, gid), 0);
    ck_assert_int_eq(l.cluster_start[l.nclusters], n);
    for (int c = 0; c < l.nclusters; c++)
      for (int k = 0; k < l.cluster_size[c]; k++) {
        int r = gc_layout_member(&l, c, k);
        seen[r]++;
        ck_assert_int_eq(gid[r], l.global_id[c]);
        ck_assert_int_eq(l.index_in_cluster[r], k);
        ck_assert(k == 0 || r > gc_layout_member(&l, c, k - 1)); /* ascending */
      }
    for (int r = 0; r < n; r++)
      ck_assert_int_eq(seen[r], 1);
    gc_layout_free(&l);
  }
}
END_TEST

START_TEST(network_follows_local_numbering) {
  /* Two configured clusters, listed in the communicator as b then a. */
  struct gc_config cfg;
  gc_config_defaults(&cfg);
  cfg.nclusters = 2;
  double lat[] = {0, 5e-3, 7e-3, 0}, bw[] = {0, 1e9, 2e9, 0};
  cfg.wan_latency = lat;
  cfg.wan_bandwidth = bw;
  struct gc_cluster_spec specs[2] = {{.name = "a", .lan = cfg.lan}, {.name = "b", .lan = cfg.lan}};
  specs[1].lan.alpha = 10e-6;
  cfg.clusters = specs;
  int gid[] = {1, 1, 0};
  struct gc_layout l;
  struct gc_network net;
  ck_assert_int_eq(gc_layout_build(&l, 3, gid), 0);
  ck_assert_int_eq(gc_network_build(&net, &cfg, &l), 0);
  ck_assert(net.lan[0].alpha == 10e-6 && net.lan[1].alpha == cfg.lan.alpha);
  ck_assert(net.latency[0 * 2 + 1] == 7e-3 && net.latency[1 * 2 + 0] == 5e-3); /* b->a, a->b */
  ck_assert(net.bandwidth[0 * 2 + 1] == 2e9);
  /* The grid the models read: binomial-grid from rank 0 sends to rank 2 first (cluster 1,
   * across: latency + m/bandwidth), then to rank 1 (inside: alpha + m*beta). */
  double t;
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&net.grid, 3, 0, l.cluster_of, 2000000,
                                                net.eager, &t), 0);
  /* 2 MB is above bcast.native_eager (64 KiB): the sends follow one another; the one
   * across runs at the 4 MiB window per 14 ms round trip, below the 2e9 B/s link. */
  ck_assert(net.eager == 65536 && net.grid.window == 4194304);
  ck_assert(fabs(t - (7e-3 + 2e6 / (4194304 / 14e-3) + 10e-6 + 2e6 * cfg.lan.beta)) < 1e-15);
  ck_assert(net.grid.k == 2 && net.grid.size[0] == 2 && net.grid.size[1] == 1);
  gc_network_free(&net);
  gc_layout_free(&l);
}
END_TEST

START_TEST(lg_applies_only_across_clusters) {
  int one[] = {0, 0, 0}, singles[] = {0, 1, 2}, two[] = {0, 1, 1};
  struct gc_layout l;
  gc_layout_build(&l, 3, one);
  ck_assert(!gc_alltoall_lg_applies(&l));
  gc_layout_free(&l);
  gc_layout_build(&l, 3, singles);
  ck_assert(!gc_alltoall_lg_applies(&l));
  gc_layout_free(&l);
  gc_layout_build(&l, 3, two);
  ck_assert(gc_alltoall_lg_applies(&l));
  gc_layout_free(&l);
}
END_TEST

static const char *names[] = {"native", "lg", "other"};

START_TEST(forced_algorithm) {
  int all[] = {1, 1, 1}, no_lg[] = {1, 0, 1};
  double p[] = {1, 2, 3};
  ck_assert_int_eq(gc_select("lg", 3, names, all, p), 1);        /* slower, but forced */
  ck_assert_int_eq(gc_select("lg", 3, names, no_lg, p), GC_NATIVE); /* cannot serve */
  ck_assert_int_eq(gc_select("native", 3, names, all, p), GC_NATIVE);
}
END_TEST

START_TEST(auto_takes_fastest_and_ties_go_native) {
  int all[] = {1, 1, 1}, no_other[] = {1, 1, 0};
  double faster[] = {3, 2, 1}, tie[] = {1, 1, 2}, none[] = {-1, 0.5, 0.1}, unknown[] = {2, -1, 1};
  ck_assert_int_eq(gc_select("auto", 3, names, all, faster), 2);
  ck_assert_int_eq(gc_select("auto", 3, names, no_other, faster), 1);
  ck_assert_int_eq(gc_select("auto", 3, names, all, tie), GC_NATIVE);
  double rounding[] = {0.1, 0.1 * (1 - 1e-15), 1};
  ck_assert_int_eq(gc_select("auto", 3, names, all, rounding), GC_NATIVE);
  ck_assert_int_eq(gc_select("auto", 3, names, all, none), GC_NATIVE); /* nothing to compare */
  ck_assert_int_eq(gc_select("auto", 3, names, all, unknown), 2);
}
END_TEST

START_TEST(limits) {
  struct gc_layout l;
  int gid[] = {5};
  ck_assert_int_eq(gc_layout_build(&l, 1, gid), 0);
  ck_assert(l.nclusters == 1 && gc_layout_leader(&l, 0) == 0);
  gc_layout_free(&l);
  gc_layout_free(&l); /* freeing twice is harmless */
  int all[] = {1, 1, 1};
  double p[] = {1, 2, 3};
  ck_assert_int_eq(gc_select("no-such", 3, names, all, p), GC_NATIVE); /* never guess */
}
END_TEST

int main(void)
{
  Suite *s = suite_create("layout");
  TCase *core = tcase_create("core");
  tcase_add_test(core, clusters_by_first_appearance);
  tcase_add_test(core, every_rank_listed_once);
  tcase_add_test(core, network_follows_local_numbering);
  tcase_add_test(core, lg_applies_only_across_clusters);
  tcase_add_test(core, forced_algorithm);
  tcase_add_test(core, auto_takes_fastest_and_ties_go_native);
  suite_add_tcase(s, core);
  TCase *lim = tcase_create("limits");
  tcase_add_test(lim, limits);
  suite_add_tcase(s, lim);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
