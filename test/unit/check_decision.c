/* The decision cache (shim/pure/decision.c): what `auto` chose is found again only for the
 * same bytes, the same root cluster and the same network version. */
#include <check.h>
#include <limits.h>
#include <stdint.h>

#include "decision.h"

START_TEST(found_for_the_same_call)
{
  struct gc_decision t[GC_DECISIONS] = {{0}};
  ck_assert_int_eq(gc_decision_find(t, 8, 0, 0), -1); /* empty */
  gc_decision_put(t, 8, 0, 0, 3);
  ck_assert_int_eq(gc_decision_find(t, 8, 0, 0), 3);
  ck_assert_int_eq(gc_decision_find(t, 8, 1, 0), -1);  /* another root cluster */
  ck_assert_int_eq(gc_decision_find(t, 9, 0, 0), -1);  /* same size class, other bytes */
  ck_assert_int_eq(gc_decision_find(t, 16, 0, 0), -1); /* another class */
  /* Sizes of different classes coexist; one of the same class replaces. */
  gc_decision_put(t, 65536, -1, 0, 0);
  ck_assert_int_eq(gc_decision_find(t, 8, 0, 0), 3);
  ck_assert_int_eq(gc_decision_find(t, 65536, -1, 0), 0);
  gc_decision_put(t, 12, 2, 0, 5);
  ck_assert_int_eq(gc_decision_find(t, 8, 0, 0), -1);
  ck_assert_int_eq(gc_decision_find(t, 12, 2, 0), 5);
}
END_TEST

/* A new network view (the probe bumps the version) makes every entry a miss until the
 * choice is made again under it. */
START_TEST(version_bump_invalidates)
{
  struct gc_decision t[GC_DECISIONS] = {{0}};
  for (size_t b = 1; b < ((size_t)1 << GC_DECISIONS); b <<= 1)
    gc_decision_put(t, b, 0, 4, 1);
  for (size_t b = 1; b < ((size_t)1 << GC_DECISIONS); b <<= 1) {
    ck_assert_int_eq(gc_decision_find(t, b, 0, 4), 1);
    ck_assert_int_eq(gc_decision_find(t, b, 0, 5), -1);
    ck_assert_int_eq(gc_decision_find(t, b, 0, 3), -1);
  }
  gc_decision_put(t, 64, 0, 5, 2);
  ck_assert_int_eq(gc_decision_find(t, 64, 0, 5), 2);
  ck_assert_int_eq(gc_decision_find(t, 64, 0, 4), -1);
}
END_TEST

/* Sizes 16 classes apart share an entry; a zero-byte call, SIZE_MAX, algorithm 0 (the
 * MPI library's own, a real choice) and the largest versions. */
START_TEST(limits)
{
  struct gc_decision t[GC_DECISIONS] = {{0}};
  gc_decision_put(t, 1, 0, 0, 2);
  gc_decision_put(t, (size_t)1 << GC_DECISIONS, 0, 0, 4); /* same class as 1 */
  ck_assert_int_eq(gc_decision_find(t, 1, 0, 0), -1);
  ck_assert_int_eq(gc_decision_find(t, (size_t)1 << GC_DECISIONS, 0, 0), 4);
  gc_decision_put(t, 0, 0, 0, 0);
  ck_assert_int_eq(gc_decision_find(t, 0, 0, 0), 0);
  ck_assert_int_eq(gc_decision_find(t, 1, 0, 0), -1);
  gc_decision_put(t, SIZE_MAX, INT_MAX, 0, 1);
  ck_assert_int_eq(gc_decision_find(t, SIZE_MAX, INT_MAX, 0), 1);
  ck_assert_int_eq(gc_decision_find(t, SIZE_MAX, -1, 0), -1);
  gc_decision_put(t, 100, 0, ULLONG_MAX - 1, 3);
  ck_assert_int_eq(gc_decision_find(t, 100, 0, ULLONG_MAX - 1), 3);
  /* version + 1 wraps to the empty stamp: a miss, never a wrong hit. */
  gc_decision_put(t, 200, 0, ULLONG_MAX, 3);
  ck_assert_int_eq(gc_decision_find(t, 200, 0, ULLONG_MAX), -1);
  ck_assert_int_eq(gc_decision_find(t, 200, 0, 0), -1);
}
END_TEST

static Suite *decision_suite(void)
{
  Suite *s = suite_create("decision");
  TCase *core = tcase_create("core"), *lim = tcase_create("limits");
  tcase_add_test(core, found_for_the_same_call);
  tcase_add_test(core, version_bump_invalidates);
  tcase_add_test(lim, limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, lim);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(decision_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed != 0;
}
