/* Broadcast predictions with the 004 parameters of a cluster's processors (network view +
 * bcast_algorithms.c): Eq. 8 where the configuration gives them, the Hockney forms unchanged
 * where it does not. Expected values by hand in the comments. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bcast_algorithms.h"
#include "layout.h"
#include "network.h"
#include "scratch_check.h"

#define REL 1e-12
#define ck_assert_rel(x, want)                                                              \
  ck_assert_msg(fabs((x) - (want)) <= REL * fabs(want), "%s = %.17g, expected %.17g", #x, \
                (double)(x), (double)(want))

/* Cluster a: C = 10 us, t = 1 ns/B, rate = 1e8 B/s, Gamma = 5 us, tau = 0.5 ns/B.
 * Cluster b: no 004 parameters; lan alpha 20 us, beta 2 ns/B. Wide area 1 ms, 1e9 B/s. */
static struct gc_config cfg;
static struct gc_cluster_spec specs[2];
static double lat[] = {0, 1e-3, 1e-3, 0}, bw[] = {0, 1e9, 1e9, 0};

static void setup(void)
{
  gc_config_defaults(&cfg);
  memset(specs, 0, sizeof specs);
  snprintf(specs[0].name, sizeof specs[0].name, "a");
  snprintf(specs[1].name, sizeof specs[1].name, "b");
  specs[0].lan = specs[1].lan = cfg.lan;
  specs[1].lan.alpha = 20e-6, specs[1].lan.beta = 2e-9;
  specs[0].hetero = (struct gc_hetero){.set = 1, .C = 10e-6, .t = 1e-9, .rate = 1e8,
                                       .S = 1024, .Gamma = 5e-6, .tau = 0.5e-9};
  cfg.nclusters = 2;
  cfg.clusters = specs;
  cfg.wan_latency = lat;
  cfg.wan_bandwidth = bw;
}

/* One communicator over `n` ranks with world cluster ids gid; builds layout and view. */
static void build(int n, const int *gid, struct gc_layout *l, struct gc_network *net)
{
  ck_assert_int_eq(gc_layout_build(l, n, gid), 0);
  ck_assert_int_eq(gc_network_build(net, &cfg, l), 0);
}

static void drop(struct gc_layout *l, struct gc_network *net)
{
  gc_network_free(net);
  gc_layout_free(l);
}

/* 4 ranks of cluster a, 1000 bytes. Every edge (004 Eq. 5): 10 + 1 + 10 + 1 + 1000/1e8 s =
 * 10 us  ->  32 us. Binomial tree from 0: 0->1, 0->2, 2->3; leaves 1 (32) and 3 (64).
 * Eq. 8: 64 + Gamma 5 + tau*M 0.5 = 69.5 us. */
START_TEST(native_one_cluster)
{
  int gid[] = {0, 0, 0, 0};
  struct gc_layout l;
  struct gc_network net;
  const char *model = NULL;
  build(4, gid, &l, &net);
  ck_assert_rel(gc_bcast_native_predict(&net, &l, &(struct gc_shape){.m = 1000, .root = 0}, &model), 69.5e-6);
  ck_assert_str_eq(model, gc_model_name(GC_MODEL_HETERO_BCAST));
  /* Root 1 and a slower processor at rank 2 (C = 50 us; the view holds one C per rank).
   * Relative ranks v -> rank (v+1) mod 4: edges 1->2, 1->3, 3->0. Leaf rank 2:
   * 10+1+50+1+10 = 72 us; leaf rank 0: 1->3 (32) + 3->0 (32) = 64 us. 72 + 5.5 = 77.5 us. */
  net.proc_C[2] = 50e-6;
  ck_assert_rel(gc_bcast_native_predict(&net, &l, &(struct gc_shape){.m = 1000, .root = 1}, &model), 77.5e-6);
  /* From root 0 that rank is on the two-hop path: 0->2 (72) + 2->3 (72) = 144 + 5.5. */
  ck_assert_rel(gc_bcast_native_predict(&net, &l, &(struct gc_shape){.m = 1000, .root = 0}, &model), 149.5e-6);
  drop(&l, &net);
}
END_TEST

/* Without 004 parameters the prediction is the homogeneous one it always was. */
START_TEST(native_without_parameters)
{
  int gid[] = {1, 1, 1, 1, 1};
  struct gc_layout l;
  struct gc_network net;
  const char *model = NULL;
  double want;
  build(5, gid, &l, &net);
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(5, 1000, 20e-6, 2e-9, &want), 0);
  ck_assert_rel(gc_bcast_native_predict(&net, &l, &(struct gc_shape){.m = 1000, .root = 3}, &model), want);
  ck_assert_str_eq(model, "binomial-hockney");
  drop(&l, &net);
  specs[0].hetero.set = 0; /* cluster a, now without: same story */
  int gid0[] = {0, 0, 0};
  build(3, gid0, &l, &net);
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(3, 1000, cfg.lan.alpha, cfg.lan.beta, &want), 0);
  ck_assert_rel(gc_bcast_native_predict(&net, &l, &(struct gc_shape){.m = 1000, .root = 0}, &model), want);
  ck_assert_str_eq(model, "binomial-hockney");
  drop(&l, &net);
}
END_TEST

/* Across clusters each leader's own broadcast uses Eq. 8 where its cluster has the
 * parameters: ranks 0-3 in a (69.5 us from its leader, as above), 4-5 in b (Hockney,
 * 1 * (20 us + 2 us) = 22 us). Flat tree from rank 0: a at 0, b after the wide area. */
START_TEST(tree_cluster_terms)
{
  int gid[] = {0, 0, 0, 0, 1, 1};
  struct gc_layout l;
  struct gc_network net;
  struct gc_tree_input in;
  struct gc_tree tree;
  const char *model = NULL;
  double arrival[2], hb, want;
  gc_test_tree(&tree, 2);
  build(6, gid, &l, &net);
  gc_bcast_tree_input(&net, &l, 0, 1000, &in);
  ck_assert_int_eq(gc_bcast_flat_tree(&in, &tree), 0);
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tree, arrival), 0);
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(2, 1000, 20e-6, 2e-9, &hb), 0);
  ck_assert_rel(hb, 22e-6);
  want = fmax(arrival[0] + 69.5e-6, arrival[1] + hb);
  ck_assert_rel(gc_bcast_tree_predict(&net, &l, &in, &tree), want);
  ck_assert_rel(gc_bcast_flat_predict(&net, &l, &(struct gc_shape){.m = 1000, .root = 0}, &model), want);
  /* The native broadcast across clusters keeps its Hockney grid form. */
  gc_bcast_native_predict(&net, &l, &(struct gc_shape){.m = 1000, .root = 0}, &model);
  ck_assert_str_eq(model, gc_model_name(GC_MODEL_BINOMIAL_GRID));
  drop(&l, &net);

  /* Same layout without parameters: cluster a's term is Hockney again. */
  specs[0].hetero.set = 0;
  build(6, gid, &l, &net);
  gc_bcast_tree_input(&net, &l, 0, 1000, &in);
  ck_assert_int_eq(gc_bcast_flat_tree(&in, &tree), 0);
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tree, arrival), 0);
  double ha;
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(4, 1000, cfg.lan.alpha, cfg.lan.beta, &ha), 0);
  ck_assert_rel(gc_bcast_tree_predict(&net, &l, &in, &tree), fmax(arrival[0] + ha, arrival[1] + hb));
  gc_test_tree_free(&tree);
  drop(&l, &net);
}
END_TEST

/* The view: one C and t per rank in members order, NULL model for a cluster without. */
START_TEST(view_limits)
{
  int gid[] = {1, 0, 1, 0}; /* local cluster 0 = b (ranks 0, 2), 1 = a (ranks 1, 3) */
  struct gc_layout l;
  struct gc_network net;
  struct gc_model_hetero h;
  build(4, gid, &l, &net);
  ck_assert_int_eq(gc_network_hetero(&net, &l, 0, &h), -1);
  ck_assert_int_eq(gc_network_hetero(&net, &l, 2, &h), -1);
  ck_assert_int_eq(gc_network_hetero(&net, &l, -1, &h), -1);
  ck_assert_int_eq(gc_network_hetero(&net, &l, 1, &h), 0);
  ck_assert(h.n == 2 && h.C[0] == 10e-6 && h.C[1] == 10e-6 && h.t[1] == 1e-9);
  ck_assert(h.rate == NULL && h.link_rate == 1e8);
  drop(&l, &net);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("bcast_hetero");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_checked_fixture(core, setup, NULL);
  tcase_add_checked_fixture(limits, setup, NULL);
  tcase_add_test(core, native_one_cluster);
  tcase_add_test(core, native_without_parameters);
  tcase_add_test(core, tree_cluster_terms);
  tcase_add_test(limits, view_limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
