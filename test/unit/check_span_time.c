/* A collective's times from its ranks' numbers (shim/pure/span_time.c): three ranks'
 * numbers reduced by MAX here as the window's allreduce reduces them, then the
 * completion time, the collective's own time and the wait apart: a late rank in an
 * all-to-all, a late root and a late receiver in a broadcast, numbers that say only one
 * rank's time, and clocks whose offsets put an exit before an entry. */
#include <check.h>
#include <float.h>
#include <stdlib.h>

#include "span_time.h"

#define EPS 1e-12

/* Ranks' (entry, exit) in one clock, their numbers reduced by MAX, the times read. */
static struct gc_span_time assembled(int n, const double *entry, const double *exit,
                                     int rooted, int root)
{
  double q[GC_SPAN_NUMBERS], mine[GC_SPAN_NUMBERS];
  for (int k = 0; k < GC_SPAN_NUMBERS; k++)
    q[k] = -DBL_MAX;
  for (int r = 0; r < n; r++) {
    gc_span_numbers(mine, entry[r], exit[r], rooted, r == root);
    for (int k = 0; k < GC_SPAN_NUMBERS; k++)
      q[k] = mine[k] > q[k] ? mine[k] : q[k];
  }
  return gc_span_time_of(q, rooted);
}

START_TEST(alltoall_late_rank_is_wait_not_own_time)
{
  /* Rank 2 enters 20 ms late; the exchange itself takes ~1 ms once it is in. */
  double entry[] = {1.000, 1.001, 1.021}, exit[] = {1.0215, 1.0220, 1.0222};
  struct gc_span_time t = assembled(3, entry, exit, 0, -1);
  ck_assert_double_eq_tol(t.actual, 0.0222, EPS);
  ck_assert_double_eq_tol(t.own, 0.0012, EPS);
  ck_assert_double_eq_tol(t.spread, 0.021, EPS);
  ck_assert_double_eq(t.root_late, -1);
}
END_TEST

START_TEST(bcast_late_root_is_the_receivers_wait)
{
  /* Root 1 enters 20 ms after rank 0: the broadcast starts then. */
  double entry[] = {1.000, 1.020, 1.001}, exit[] = {1.0205, 1.0203, 1.0208};
  struct gc_span_time t = assembled(3, entry, exit, 1, 1);
  ck_assert_double_eq_tol(t.actual, 0.0008, EPS);
  ck_assert_double_eq_tol(t.own, t.actual, EPS);
  ck_assert_double_eq_tol(t.spread, 0.020, EPS);
  ck_assert_double_eq_tol(t.root_late, 0.020, EPS);
}
END_TEST

START_TEST(bcast_late_receiver_stays_in_own_time)
{
  /* Root 0 on time and gone at once, rank 2 20 ms late: the broadcast is done when rank 2
   * has it, so its own time holds the lateness, and spread shows it. */
  double entry[] = {1.000, 1.0002, 1.020}, exit[] = {1.0001, 1.0005, 1.0210};
  struct gc_span_time t = assembled(3, entry, exit, 1, 0);
  ck_assert_double_eq_tol(t.actual, 0.021, EPS);
  ck_assert_double_eq_tol(t.own, 0.021, EPS);
  ck_assert_double_eq_tol(t.spread, 0.020, EPS);
  ck_assert_double_eq(t.root_late, 0);
}
END_TEST

START_TEST(alone_is_the_ranks_own_time)
{
  double q[GC_SPAN_NUMBERS];
  for (int rooted = 0; rooted < 2; rooted++) {
    gc_span_numbers_alone(q, 0.005);
    struct gc_span_time t = gc_span_time_of(q, rooted);
    ck_assert_double_eq(t.actual, 0.005);
    ck_assert_double_eq(t.own, 0.005);
    ck_assert_double_eq(t.spread, -1);
    ck_assert_double_eq(t.root_late, -1);
    struct gc_span_time a = gc_span_time_alone(0.005);
    ck_assert(a.actual == t.actual && a.own == t.own && a.spread == t.spread &&
              a.root_late == t.root_late);
  }
}
END_TEST

START_TEST(clock_offsets_never_give_a_negative_time)
{
  /* Rank 1's offset estimate is 2 ms off: its entry reads after every exit. */
  double entry[] = {1.000, 1.003}, exit[] = {1.001, 1.002};
  struct gc_span_time t = assembled(2, entry, exit, 0, -1);
  ck_assert_double_eq_tol(t.actual, 0.002, EPS);
  ck_assert_double_eq(t.own, 0);
  ck_assert_double_eq_tol(t.spread, 0.003, EPS);
  /* A root that reads later than every exit: its broadcast took no time. */
  t = assembled(2, entry, exit, 1, 1);
  ck_assert_double_eq(t.actual, 0);
  ck_assert_double_eq(t.own, 0);
  ck_assert_double_eq_tol(t.root_late, 0.003, EPS);
}
END_TEST

START_TEST(no_root_number_counts_from_the_first_entry)
{
  /* A broadcast whose root gave nothing (never once assembled): no -DBL_MAX arithmetic. */
  double q[GC_SPAN_NUMBERS] = {2.0, -1.5, 1.75, -DBL_MAX};
  struct gc_span_time t = gc_span_time_of(q, 1);
  ck_assert_double_eq(t.actual, 0.5);
  ck_assert_double_eq(t.own, 0.5);
  ck_assert_double_eq(t.spread, 0.25);
  ck_assert_double_eq(t.root_late, 0);
}
END_TEST

static Suite *span_time_suite(void)
{
  Suite *s = suite_create("span_time");
  TCase *core = tcase_create("core");
  tcase_add_test(core, alltoall_late_rank_is_wait_not_own_time);
  tcase_add_test(core, bcast_late_root_is_the_receivers_wait);
  tcase_add_test(core, bcast_late_receiver_stays_in_own_time);
  tcase_add_test(core, alone_is_the_ranks_own_time);
  tcase_add_test(core, clock_offsets_never_give_a_negative_time);
  tcase_add_test(core, no_root_number_counts_from_the_first_entry);
  suite_add_tcase(s, core);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(span_time_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
