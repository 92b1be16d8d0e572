/* Heterogeneous cluster models of 004 (Eq. 5-8).  Expected values worked out by hand. */
#include "model.h"
#include "model_check.h"

/* Node i: C_i = (i+1) * 100 us, t_i = (i+1) ns/byte; every link 1e8 bytes/s (10 ns/byte)
 * except 0 -> 2 at 5e7 (20 ns/byte).  With M = 1000 B:
 *   T_01 = 100 + 1 + 200 + 2 + 10 = 313 us      T_02 = 100 + 1 + 300 + 3 + 20 = 424 us
 *   T_23 = 300 + 3 + 400 + 4 + 10 = 717 us      T_02 at 1e8 would be 414 us */
static const double C[4] = {1e-4, 2e-4, 3e-4, 4e-4};
static const double tb[4] = {1e-9, 2e-9, 3e-9, 4e-9};
static double rate[16];

static struct gc_model_hetero cluster(int n)
{
  for (int i = 0; i < 16; i++)
    rate[i] = 1e8;
  rate[0 * 4 + 2] = 5e7;
  return (struct gc_model_hetero){.n = n, .C = C, .t = tb, .rate = rate};
}

START_TEST(p2p_pairs_core)
{
  struct gc_model_hetero h = cluster(4);
  double t;
  ck_assert_int_eq(gc_model_hetero_p2p(&h, 0, 1, 1000, &t), 0);
  ck_assert_rel(t, 313e-6, REL);
  ck_assert_int_eq(gc_model_hetero_p2p(&h, 0, 2, 1000, &t), 0);
  ck_assert_rel(t, 424e-6, REL);
  ck_assert_int_eq(gc_model_hetero_p2p(&h, 2, 0, 1000, &t), 0);
  ck_assert_rel(t, 414e-6, REL); /* 2 -> 0 runs at 1e8: 300 + 3 + 100 + 1 + 10 */
  /* Eq. 7: pairs 0 -> 1 and 2 -> 3 at once: max(313, 717) us */
  int src[2] = {0, 2}, dst[2] = {1, 3};
  ck_assert_int_eq(gc_model_hetero_pairs(&h, src, dst, 2, 1000, &t), 0);
  ck_assert_rel(t, 717e-6, REL);
}
END_TEST

START_TEST(one_to_many_core)
{
  struct gc_model_hetero h = cluster(3);
  int dst[2] = {1, 2};
  size_t M[2] = {1000, 1000};
  double t;
  /* Destination parts: node 1: 200 + 2 + 10 = 212 us; node 2 (link 20 ns/B): 300 + 3 + 20 =
   * 323 us.  Source part once: 100 us + 1 ns * 2000 B = 102 us. */
  ck_assert_int_eq(gc_model_hetero_one_to_many(&h, 0, dst, M, 2, 1024, &t), 0);
  ck_assert_rel(t, 425e-6, REL); /* M <= S: parallel: 102 + max(212, 323) */
  ck_assert_int_eq(gc_model_hetero_one_to_many(&h, 0, dst, M, 2, 1000, &t), 0);
  ck_assert_rel(t, 425e-6, REL); /* M == S is still small (M_j <= S) */
  ck_assert_int_eq(gc_model_hetero_one_to_many(&h, 0, dst, M, 2, 500, &t), 0);
  ck_assert_rel(t, 637e-6, REL); /* M > S: serial: 102 + 212 + 323 */
  /* Mixed sizes, S = 1000: 2000 B to node 1 (large): 200 + 4 + 20 = 224 us; 100 B to node 2
   * (small): 300 + 0.3 + 2 = 302.3 us; source 100 + 2.1 = 102.1 us: 628.4 us in all. */
  size_t mixed[2] = {2000, 100};
  ck_assert_int_eq(gc_model_hetero_one_to_many(&h, 0, dst, mixed, 2, 1000, &t), 0);
  ck_assert_rel(t, 628.4e-6, REL);
}
END_TEST

START_TEST(bcast_core)
{
  struct gc_model_hetero h = cluster(4);
  double t;
  /* Binomial on 4 from root 0: 0 -> 1, 0 -> 2 -> 3; leaves 1 and 3.  Paths: 313 us and
   * 424 + 717 = 1141 us; + Gamma 50 us + tau 1 ns * 1000 = 1 us -> 1192 us. */
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&h, 0, 1000, 5e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 1192e-6, REL);
  /* Root 2: virtual ranks 1, 2, 3 are nodes 3, 0, 1: 2 -> 3, 2 -> 0 -> 1.
   * T_23 = 717; T_20 = 414; T_01 = 313: paths 717 and 727 -> 727 + 51 = 778 us. */
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&h, 2, 1000, 5e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 778e-6, REL);
  /* The same binomial tree handed as a gc_tree gives the same answer. */
  int parent[4] = {-1, 0, 0, 2}, start[5] = {0, 2, 2, 3, 3}, children[3] = {2, 1, 3};
  struct gc_tree tr = {.n = 4, .root = 0, .parent = parent, .child_start = start,
                       .children = children};
  ck_assert_int_eq(gc_model_hetero_bcast_tree(&h, &tr, 1000, 5e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 1192e-6, REL);
  /* A chain 0 -> 1 -> 2 -> 3: T_01 + T_12 + T_23 = 313 + (200+2+300+3+10 = 515) + 717
   * = 1545 us, + 51 us = 1596 us. */
  int cp[4] = {-1, 0, 1, 2}, cs[5] = {0, 1, 2, 3, 3}, cc[3] = {1, 2, 3};
  struct gc_tree chain = {.n = 4, .root = 0, .parent = cp, .child_start = cs, .children = cc};
  ck_assert_int_eq(gc_model_hetero_bcast_tree(&h, &chain, 1000, 5e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 1596e-6, REL);
}
END_TEST

/* One rate for every link (rate = NULL, link_rate = 1e8) is the uniform matrix's answer:
 * 0 -> 2 at 1e8 is 414 us; the binomial broadcast of 4 from 0 is the same either way. */
START_TEST(link_rate_core)
{
  struct gc_model_hetero m = cluster(4);
  for (int i = 0; i < 16; i++)
    rate[i] = 1e8;
  struct gc_model_hetero u = {.n = 4, .C = C, .t = tb, .rate = NULL, .link_rate = 1e8};
  double a, b;
  ck_assert_int_eq(gc_model_hetero_p2p(&u, 0, 2, 1000, &a), 0);
  ck_assert_rel(a, 414e-6, REL);
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&u, 1, 1000, 5e-5, 1e-9, &a), 0);
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&m, 1, 1000, 5e-5, 1e-9, &b), 0);
  ck_assert_rel(a, b, REL);
  u.link_rate = 0; /* no matrix and no rate: nothing to send on */
  ck_assert_int_eq(gc_model_hetero_p2p(&u, 0, 2, 1000, &a), GC_MODEL_EINVAL);
}
END_TEST

START_TEST(hetero_limits)
{
  struct gc_model_hetero h = cluster(4);
  double t = -1;
  /* n = 1: a broadcast is only its fixed overhead, Gamma + tau*M = 50 + 1 us. */
  struct gc_model_hetero one = {.n = 1, .C = C, .t = tb, .rate = NULL};
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&one, 0, 1000, 5e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 51e-6, REL);
  ck_assert_int_eq(gc_model_hetero_p2p(&h, 1, 1, 1000, &t), GC_MODEL_EINVAL); /* i == j */
  ck_assert_int_eq(gc_model_hetero_p2p(&h, 0, 0 + 1, 0, &t), 0);
  ck_assert_rel(t, 300e-6, REL); /* M = 0: C_0 + C_1 */
  ck_assert_int_eq(gc_model_hetero_one_to_many(&h, 0, NULL, NULL, 0, 1024, &t), 0);
  ck_assert_rel(t, 0, 0); /* nobody to send to */
  ck_assert_int_eq(gc_model_hetero_pairs(&h, NULL, NULL, 0, 1000, &t), 0);
  ck_assert_rel(t, 0, 0);

  t = -1;
  int src[2] = {0, 1}, dst[2] = {1, 2}; /* share node 1: not disjoint */
  ck_assert_int_eq(gc_model_hetero_pairs(&h, src, dst, 2, 1000, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_hetero_p2p(&h, 0, 4, 1000, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_hetero_p2p(NULL, 0, 1, 1000, &t), GC_MODEL_EINVAL);
  int to_self[1] = {0};
  size_t M1[1] = {10};
  ck_assert_int_eq(gc_model_hetero_one_to_many(&h, 0, to_self, M1, 1, 1024, &t),
                   GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_hetero_one_to_many(&h, 0, dst, NULL, 2, 1024, &t),
                   GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_hetero_one_to_many(&h, 0, dst, M1, 1, NAN, &t), GC_MODEL_EINVAL);
  rate[0 * 4 + 1] = 0; /* a dead link */
  ck_assert_int_eq(gc_model_hetero_p2p(&h, 0, 1, 1000, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&h, 0, 1000, 0, 0, &t), GC_MODEL_EINVAL);
  h = cluster(4);
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&h, 4, 1000, 0, 0, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&h, 0, 1000, -1, 0, &t), GC_MODEL_EINVAL);
  int p3[3] = {-1, 0, 0}, s3[4] = {0, 2, 2, 2}, c3[2] = {1, 2};
  struct gc_tree small = {.n = 3, .root = 0, .parent = p3, .child_start = s3, .children = c3};
  ck_assert_int_eq(gc_model_hetero_bcast_tree(&h, &small, 1000, 0, 0, &t),
                   GC_MODEL_EINVAL); /* tree of 3 nodes on a cluster of 4 */
  double badC[4] = {1e-4, NAN, 0, 0};
  struct gc_model_hetero bad = {.n = 4, .C = badC, .t = tb, .rate = rate};
  ck_assert_int_eq(gc_model_hetero_p2p(&bad, 0, 2, 1000, &t), GC_MODEL_EINVAL);
  ck_assert_rel(t, -1, 0);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("model_hetero");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, p2p_pairs_core);
  tcase_add_test(core, one_to_many_core);
  tcase_add_test(core, bcast_core);
  tcase_add_test(core, link_rate_core);
  tcase_add_test(limits, hetero_limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return gc_run_suite(s);
}
