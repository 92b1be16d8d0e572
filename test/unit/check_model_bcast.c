/* Broadcast models: binomial (Hockney, LogGP), flat tree (001 Eq. 3) and the cost of any
 * tree over clusters (001 Eq. 2, published and position-aware).  Expected values are
 * worked out by hand beside each assertion. */
#include "model.h"
#include "model_check.h"

START_TEST(binomial_core)
{
  double t;
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(8, 1000, 1e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 33e-6, REL); /* ceil(log2 8) = 3 rounds of 10 + 1 us */
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(5, 1000, 1e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 33e-6, REL); /* ceil(log2 5) = 3 as well */
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(2, 1000, 1e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 11e-6, REL); /* one round */
  struct gc_model_loggp p = {.L = 5e-6, .o = 1e-6, .g = 2e-6, .G = 1e-9};
  ck_assert_int_eq(gc_model_bcast_binomial_loggp(16, 1001, &p, &t), 0);
  ck_assert_rel(t, 32e-6, REL); /* 4 * (5 + 2*1 + 1000*0.001 us) = 4 * 8 us */
  ck_assert_int_eq(gc_model_bcast_binomial_loggp(17, 1001, &p, &t), 0);
  ck_assert_rel(t, 40e-6, REL); /* ceil(log2 17) = 5 rounds */
}
END_TEST

START_TEST(binomial_limits)
{
  double t = -1;
  struct gc_model_loggp p = {.L = 5e-6, .o = 1e-6, .g = 2e-6, .G = 1e-9};
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(1, 1000, 1e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 0, 0); /* P = 1: no round */
  ck_assert_int_eq(gc_model_bcast_binomial_loggp(1, 1000, &p, &t), 0);
  ck_assert_rel(t, 0, 0);
  ck_assert_int_eq(gc_model_bcast_binomial_loggp(4, 0, &p, &t), 0);
  ck_assert_rel(t, 14e-6, REL); /* m = 0: 2 * (L + 2o) = 2 * 7 us */
  t = -1;
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(0, 1, 1e-5, 1e-9, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(4, 1, -1e-5, 1e-9, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_bcast_binomial_loggp(4, 1, NULL, &t), GC_MODEL_EINVAL);
  p.G = NAN;
  ck_assert_int_eq(gc_model_bcast_binomial_loggp(4, 1, &p, &t), GC_MODEL_EINVAL);
  ck_assert_rel(t, -1, 0);
}
END_TEST

/* Latency matrix of 4 clusters (ms as s-free units: the models are linear in them). */
static const double W4[16] = {
  0, 10, 20, 40, /* from 0 */
  10, 0, 30, 5,  /* from 1 */
  20, 30, 0, 25, /* from 2 */
  40, 5, 25, 0,  /* from 3 */
};

START_TEST(flat_core)
{
  double t;
  ck_assert_int_eq(gc_model_bcast_flat(4, 0, W4, &t), 0);
  ck_assert_rel(t, 40, REL); /* max(10, 20, 40) */
  ck_assert_int_eq(gc_model_bcast_flat(4, 1, W4, &t), 0);
  ck_assert_rel(t, 30, REL); /* max(10, 30, 5) */
}
END_TEST

START_TEST(flat_limits)
{
  double t = -1;
  ck_assert_int_eq(gc_model_bcast_flat(1, 0, NULL, &t), 0);
  ck_assert_rel(t, 0, 0); /* one cluster: nothing crosses a wide area */
  t = -1;
  ck_assert_int_eq(gc_model_bcast_flat(4, 4, W4, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_bcast_flat(4, -1, W4, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_bcast_flat(4, 0, NULL, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_bcast_flat(0, 0, W4, &t), GC_MODEL_EINVAL);
  double bad[4] = {0, NAN, NAN, 0};
  ck_assert_int_eq(gc_model_bcast_flat(2, 0, bad, &t), GC_MODEL_EINVAL);
  ck_assert_rel(t, -1, 0);
}
END_TEST

/* Tree: 0 -> (1, 2) in that order, 1 -> 3. */
static int parent[4] = {-1, 0, 0, 1};
static int child_start[5] = {0, 2, 3, 3, 3};
static int children12[3] = {1, 2, 3};
static int children21[3] = {2, 1, 3}; /* same tree, 0 sends to 2 first */

START_TEST(tree_core)
{
  struct gc_tree tr = {.n = 4, .root = 0, .parent = parent, .child_start = child_start,
                       .children = children12};
  struct gc_model_tree_params p = {.o_s = 1, .g = 2, .o_r = 0.5, .latency = W4};
  double t, times[4];
  ck_assert_int_eq(gc_model_tree_check(&tr), 0);
  /* Published (001 Eq. 2), o_s + g = 3, node 0 has c = 2 children:
   *   T1 = 0 + 1*3 + 10 + 0.5 = 13.5;  T2 = 0 + 1*3 + 20 + 0.5 = 23.5;
   *   T3 = 13.5 + 0*3 + L(1,3) = 5 + 0.5 = 19  -> max 23.5 */
  ck_assert_int_eq(gc_model_tree_times(&tr, &p, 0, times), 0);
  ck_assert_rel(times[0], 0, 0);
  ck_assert_rel(times[1], 13.5, REL);
  ck_assert_rel(times[2], 23.5, REL);
  ck_assert_rel(times[3], 19, REL);
  ck_assert_int_eq(gc_model_tree_001(&tr, &p, &t), 0);
  ck_assert_rel(t, 23.5, REL);
  /* Position-aware, 1 first: T1 = 10.5, T2 = 3 + 20.5 = 23.5, T3 = 10.5 + 5.5 = 16 */
  ck_assert_int_eq(gc_model_tree_times(&tr, &p, 1, times), 0);
  ck_assert_rel(times[1], 10.5, REL);
  ck_assert_rel(times[3], 16, REL);
  ck_assert_int_eq(gc_model_tree_001_position(&tr, &p, &t), 0);
  ck_assert_rel(t, 23.5, REL);
  /* Send to 2 first: published unchanged (23.5); position-aware T2 = 20.5, T1 = 3 + 10.5 =
   * 13.5, T3 = 13.5 + 5.5 = 19 -> 20.5: the order matters only in the refinement. */
  tr.children = children21;
  ck_assert_int_eq(gc_model_tree_001(&tr, &p, &t), 0);
  ck_assert_rel(t, 23.5, REL);
  ck_assert_int_eq(gc_model_tree_001_position(&tr, &p, &t), 0);
  ck_assert_rel(t, 20.5, REL);
  /* Intra-cluster broadcasts {0, 1, 2, 10}, published, 1 first:
   * max(0 + 0, 13.5 + 1, 23.5 + 2, 19 + 10) = 29 */
  tr.children = children12;
  double local[4] = {0, 1, 2, 10};
  p.local = local;
  ck_assert_int_eq(gc_model_tree_001(&tr, &p, &t), 0);
  ck_assert_rel(t, 29, REL);
  /* Message size: 500 bytes at 1000 bytes/s adds 0.5 per edge:
   * T1 = 14, T2 = 24, T3 = 14 + 5.5 + 0.5 = 20 -> 24 (local off) */
  double bw[16];
  for (int i = 0; i < 16; i++)
    bw[i] = 1000;
  p.local = NULL, p.bandwidth = bw, p.m = 500;
  ck_assert_int_eq(gc_model_tree_001(&tr, &p, &t), 0);
  ck_assert_rel(t, 24, REL);
}
END_TEST

/* With o_s = g = o_r = 0, the cost of a flat tree is 001 Eq. 3, and of any tree Eq. 4. */
START_TEST(tree_reduces_to_eq3_eq4)
{
  int fparent[4] = {-1, 0, 0, 0}, fstart[5] = {0, 3, 3, 3, 3}, fchildren[3] = {3, 1, 2};
  struct gc_tree flat = {.n = 4, .root = 0, .parent = fparent, .child_start = fstart,
                         .children = fchildren};
  struct gc_model_tree_params p = {.latency = W4};
  double t, eq3;
  ck_assert_int_eq(gc_model_tree_001(&flat, &p, &t), 0);
  ck_assert_int_eq(gc_model_bcast_flat(4, 0, W4, &eq3), 0);
  ck_assert_rel(t, eq3, REL); /* 40 */
  /* Eq. 4 on 0 -> 1 -> 3 and 0 -> 2: max(10 + 5, 20) = 20 beats the flat tree's 40. */
  struct gc_tree tr = {.n = 4, .root = 0, .parent = parent, .child_start = child_start,
                       .children = children12};
  ck_assert_int_eq(gc_model_tree_001(&tr, &p, &t), 0);
  ck_assert_rel(t, 20, REL);
}
END_TEST

START_TEST(tree_limits)
{
  /* A single cluster: T = its own intra-cluster broadcast, or 0. */
  int p1[1] = {-1}, s1[2] = {0, 0};
  struct gc_tree one = {.n = 1, .root = 0, .parent = p1, .child_start = s1, .children = NULL};
  struct gc_model_tree_params p = {.o_s = 1, .g = 2, .o_r = 0.5, .latency = NULL};
  double t = -1, local[1] = {7};
  ck_assert_int_eq(gc_model_tree_001(&one, &p, &t), 0);
  ck_assert_rel(t, 0, 0);
  p.local = local;
  ck_assert_int_eq(gc_model_tree_001_position(&one, &p, &t), 0);
  ck_assert_rel(t, 7, REL);

  /* Malformed trees. */
  struct gc_tree tr = {.n = 4, .root = 0, .parent = parent, .child_start = child_start,
                       .children = children12};
  p = (struct gc_model_tree_params){.latency = W4};
  int badp[4] = {-1, 0, 0, 2}; /* parent says 2, the lists say 1 */
  tr.parent = badp;
  ck_assert_int_eq(gc_model_tree_check(&tr), GC_MODEL_EINVAL);
  int cyc_p[3] = {-1, 2, 1}, cyc_s[4] = {0, 0, 1, 2}, cyc_c[2] = {2, 1}; /* 1 <-> 2 */
  struct gc_tree cyc = {.n = 3, .root = 0, .parent = cyc_p, .child_start = cyc_s,
                        .children = cyc_c};
  ck_assert_int_eq(gc_model_tree_check(&cyc), GC_MODEL_EINVAL);
  int dup_s[5] = {0, 3, 3, 3, 3}, dup_c[3] = {1, 1, 2}, dup_p[4] = {-1, 0, 0, 0};
  struct gc_tree dup = {.n = 4, .root = 0, .parent = dup_p, .child_start = dup_s,
                        .children = dup_c}; /* 1 twice, 3 never */
  ck_assert_int_eq(gc_model_tree_check(&dup), GC_MODEL_EINVAL);
  int wild_s[5] = {0, 9, 1, 3, 3}; /* child_start out of range, then decreasing */
  struct gc_tree wild = {.n = 4, .root = 0, .parent = parent, .child_start = wild_s,
                         .children = children12};
  ck_assert_int_eq(gc_model_tree_check(&wild), GC_MODEL_EINVAL);
  tr.parent = parent, tr.root = 4;
  ck_assert_int_eq(gc_model_tree_check(&tr), GC_MODEL_EINVAL);
  tr.root = 1; /* parent[1] != -1 */
  ck_assert_int_eq(gc_model_tree_check(&tr), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_tree_check(NULL), GC_MODEL_EINVAL);

  /* Bad parameters on a good tree. */
  tr.root = 0;
  t = -1;
  ck_assert_int_eq(gc_model_tree_001(&tr, NULL, &t), GC_MODEL_EINVAL);
  p.latency = NULL;
  ck_assert_int_eq(gc_model_tree_001(&tr, &p, &t), GC_MODEL_EINVAL);
  p.latency = W4, p.o_s = NAN;
  ck_assert_int_eq(gc_model_tree_001(&tr, &p, &t), GC_MODEL_EINVAL);
  double bw0[16] = {0};
  p.o_s = 0, p.bandwidth = bw0;
  ck_assert_int_eq(gc_model_tree_001_position(&tr, &p, &t), GC_MODEL_EINVAL);
  double badlocal[4] = {0, -1, 0, 0};
  p.bandwidth = NULL, p.local = badlocal;
  ck_assert_int_eq(gc_model_tree_001(&tr, &p, &t), GC_MODEL_EINVAL);
  p.local = NULL;
  ck_assert_int_eq(gc_model_tree_001(&tr, &p, NULL), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_tree_times(&tr, &p, 0, NULL), GC_MODEL_EINVAL);
  ck_assert_rel(t, -1, 0);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("model_bcast");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, binomial_core);
  tcase_add_test(core, flat_core);
  tcase_add_test(core, tree_core);
  tcase_add_test(core, tree_reduces_to_eq3_eq4);
  tcase_add_test(limits, binomial_limits);
  tcase_add_test(limits, flat_limits);
  tcase_add_test(limits, tree_limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return gc_run_suite(s);
}
