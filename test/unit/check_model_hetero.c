/* Heterogeneous cluster broadcast of 004 (Eq. 8 over Eq. 5).  Expected values worked
 * out by hand. */
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
}
END_TEST

/* One rate for every link (rate = NULL, link_rate = 1e8) is the uniform matrix's answer:
 * the binomial broadcast of 4 from 1 is the same either way. */
START_TEST(link_rate_core)
{
  struct gc_model_hetero m = cluster(4);
  for (int i = 0; i < 16; i++)
    rate[i] = 1e8;
  struct gc_model_hetero u = {.n = 4, .C = C, .t = tb, .rate = NULL, .link_rate = 1e8};
  double a, b;
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&u, 1, 1000, 5e-5, 1e-9, &a), 0);
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&m, 1, 1000, 5e-5, 1e-9, &b), 0);
  ck_assert_rel(a, b, REL);
  u.link_rate = 0; /* no matrix and no rate: nothing to send on */
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&u, 1, 1000, 5e-5, 1e-9, &a),
                   GC_MODEL_EINVAL);
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
  /* M = 0: every edge is C_i + C_j; from 0: paths 0 -> 1 (300 us) and 0 -> 2 -> 3
   * (400 + 700 us) -> 1100 us + Gamma 50 us. */
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&h, 0, 0, 5e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 1150e-6, REL);

  t = -1;
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(NULL, 0, 1000, 0, 0, &t), GC_MODEL_EINVAL);
  rate[0 * 4 + 1] = 0; /* a dead link */
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&h, 0, 1000, 0, 0, &t), GC_MODEL_EINVAL);
  h = cluster(4);
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&h, 4, 1000, 0, 0, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&h, 0, 1000, -1, 0, &t), GC_MODEL_EINVAL);
  double badC[4] = {1e-4, NAN, 0, 0};
  struct gc_model_hetero bad = {.n = 4, .C = badC, .t = tb, .rate = rate};
  ck_assert_int_eq(gc_model_hetero_bcast_binomial(&bad, 0, 1000, 0, 0, &t), GC_MODEL_EINVAL);
  ck_assert_rel(t, -1, 0);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("model_hetero");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, bcast_core);
  tcase_add_test(core, link_rate_core);
  tcase_add_test(limits, hetero_limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return gc_run_suite(s);
}
