/* The latency probe's pairing schedule and symmetrising (shim/pure/probe_schedule.c). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "probe_schedule.h"

/* Every pair of k clusters meets exactly once, nobody twice in a round, partners agree,
 * in k-1 rounds (k even) or k rounds (k odd), for k = 2..64. */
START_TEST(every_pair_once)
{
  /* Counted with plain C and asserted once per k: Check sends every assertion through
   * a pipe, too slow for the ~10^5 facts checked here. */
  for (int k = 2; k <= 64; k++) {
    int rounds = gc_probe_rounds(k), bad = 0;
    ck_assert_int_eq(rounds, k % 2 ? k : k - 1);
    int *met = calloc((size_t)k * (size_t)k, sizeof *met);
    ck_assert_ptr_nonnull(met);
    for (int r = 0; r < rounds; r++) {
      int idle = 0;
      for (int c = 0; c < k; c++) {
        int p = gc_probe_partner(k, r, c);
        if (p < 0) {
          idle++;
          continue;
        }
        bad += p == c || p >= k || gc_probe_partner(k, r, p) != c; /* one partner per round */
        met[c * k + p]++;
      }
      bad += idle != k % 2; /* a perfect matching, one bye when k is odd */
    }
    for (int a = 0; a < k; a++)
      for (int b = 0; b < k; b++)
        bad += met[a * k + b] != (a != b);
    free(met);
    ck_assert_msg(bad == 0, "k = %d: %d violations", k, bad);
  }
}
END_TEST

START_TEST(symmetrise_takes_smaller_measured)
{
  /* 0-1 measured both ways, 0-2 from 0 only, 1-2 from 2 only; diagonal untouched. */
  double lat[9] = {7, 3e-3, 5e-3, 2e-3, 7, 0, 0, 4e-3, 7};
  ck_assert_int_eq(gc_probe_symmetrise(3, lat), 0);
  double want[9] = {7, 2e-3, 5e-3, 2e-3, 7, 4e-3, 5e-3, 4e-3, 7};
  for (int i = 0; i < 9; i++)
    ck_assert_double_eq(lat[i], want[i]);
}
END_TEST

START_TEST(limits)
{
  ck_assert_int_eq(gc_probe_rounds(1), 0);
  ck_assert_int_eq(gc_probe_rounds(0), 0);
  ck_assert_int_eq(gc_probe_rounds(-3), 0);
  ck_assert_int_eq(gc_probe_partner(1, 0, 0), -1);
  ck_assert_int_eq(gc_probe_partner(4, 3, 0), -1); /* round out of range */
  ck_assert_int_eq(gc_probe_partner(4, -1, 0), -1);
  ck_assert_int_eq(gc_probe_partner(4, 0, 4), -1); /* cluster out of range */
  ck_assert_int_eq(gc_probe_partner(4, 0, -1), -1);
  ck_assert_int_eq(gc_probe_partner(2, 0, 0), 1);
  /* Unmeasured pairs (0 or negative on both sides) are counted and zeroed. */
  double lat[4] = {0, -1, 0, 0};
  ck_assert_int_eq(gc_probe_symmetrise(2, lat), 1);
  ck_assert_double_eq(lat[1], 0);
  ck_assert_double_eq(lat[2], 0);
  ck_assert_int_eq(gc_probe_symmetrise(0, NULL), 0);
  /* What no network measures (a NaN, an infinity, more than an hour) is not measured; a
   * latency under 1 ns, the loader's shortest time, counts as 1 ns. */
  double odd[9] = {0, NAN, 2e-3, INFINITY, 0, 7200, 1e-12, 4e-3, 0};
  ck_assert_int_eq(gc_probe_symmetrise(3, odd), 1);
  ck_assert(odd[1] == 0 && odd[3] == 0); /* 0-1: NaN one way, infinity the other */
  ck_assert(odd[2] == 1e-9 && odd[6] == 1e-9);
  ck_assert(odd[5] == 4e-3 && odd[7] == 4e-3);
}
END_TEST

static Suite *probe_schedule_suite(void)
{
  Suite *s = suite_create("probe_schedule");
  TCase *core = tcase_create("core"), *lim = tcase_create("limits");
  tcase_add_test(core, every_pair_once);
  tcase_add_test(core, symmetrise_takes_smaller_measured);
  tcase_add_test(lim, limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, lim);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(probe_schedule_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed != 0;
}
