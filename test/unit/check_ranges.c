/* Rank lists "0-3,8,10-11". */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ranges.h"

static char err[256];
static struct gc_rank_range *r;
static int n;

static void teardown(void) {
  free(r);
  r = NULL;
  n = 0;
}

START_TEST(parses_lists) {
  char buf[64];
  ck_assert_int_eq(gc_ranges_parse("0-3,8,10-11", &r, &n, err, sizeof err), 0);
  ck_assert_int_eq(n, 3);
  ck_assert(r[0].lo == 0 && r[0].hi == 3);
  ck_assert(r[1].lo == 8 && r[1].hi == 8);
  ck_assert(r[2].lo == 10 && r[2].hi == 11);
  ck_assert_str_eq(gc_ranges_format(r, n, buf, sizeof buf), "0-3,8,10-11");
  ck_assert(gc_ranges_contains(r, n, 0) && gc_ranges_contains(r, n, 3) && gc_ranges_contains(r, n, 11));
  ck_assert(!gc_ranges_contains(r, n, 4) && !gc_ranges_contains(r, n, 9) && !gc_ranges_contains(r, n, 12));
  teardown();
  ck_assert_int_eq(gc_ranges_parse(" 32 - 63 , 7 ", &r, &n, err, sizeof err), 0);
  ck_assert(n == 2 && r[0].lo == 32 && r[0].hi == 63 && r[1].lo == 7 && r[1].hi == 7);
  teardown();
  ck_assert_int_eq(gc_ranges_parse("5", &r, &n, err, sizeof err), 0);
  ck_assert(n == 1 && r[0].lo == 5 && r[0].hi == 5);
  teardown();
  ck_assert_int_eq(gc_ranges_parse("4-4", &r, &n, err, sizeof err), 0);
  ck_assert(n == 1 && r[0].lo == 4 && r[0].hi == 4);
}
END_TEST

START_TEST(single_int) {
  ck_assert_int_eq(gc_ranges_single(7, &r, &n, err, sizeof err), 0);
  ck_assert(n == 1 && r[0].lo == 7 && r[0].hi == 7);
  teardown();
  ck_assert_int_eq(gc_ranges_single(0, &r, &n, err, sizeof err), 0);
  ck_assert(n == 1 && r[0].lo == 0);
}
END_TEST

START_TEST(overlap) {
  struct gc_rank_range a[] = {{0, 3}, {8, 8}}, b[] = {{4, 7}, {9, 12}}, c[] = {{12, 20}, {2, 2}};
  int at = -1;
  ck_assert(!gc_ranges_overlap(a, 2, b, 2, &at));
  ck_assert(gc_ranges_overlap(b, 2, c, 2, &at) && at == 12);
  ck_assert(gc_ranges_overlap(a, 2, c, 2, &at) && at == 2);
  ck_assert(gc_ranges_overlap(a, 2, c, 2, NULL));
  ck_assert(!gc_ranges_overlap(a, 0, c, 2, &at));
}
END_TEST

START_TEST(rejects_bad_lists) {
  ck_assert_int_eq(gc_ranges_parse("3-1", &r, &n, err, sizeof err), -1);
  ck_assert_str_eq(err, "expected rank ranges such as \"0-3,8,10-11\", got \"3-1\" (range 3-1 is reversed)");
  ck_assert(r == NULL && n == 0);
  ck_assert_int_eq(gc_ranges_parse("-1", &r, &n, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "negative"));
  ck_assert_int_eq(gc_ranges_parse("2--1", &r, &n, err, sizeof err), -1);
  ck_assert_int_eq(gc_ranges_parse("", &r, &n, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "(empty)"));
  ck_assert_int_eq(gc_ranges_parse("  ", &r, &n, err, sizeof err), -1);
  ck_assert_int_eq(gc_ranges_parse(NULL, &r, &n, err, sizeof err), -1);
  ck_assert_int_eq(gc_ranges_parse("a", &r, &n, err, sizeof err), -1);
  ck_assert_int_eq(gc_ranges_parse("1-3x", &r, &n, err, sizeof err), -1);
  ck_assert_int_eq(gc_ranges_parse("1 2", &r, &n, err, sizeof err), -1);
  ck_assert_int_eq(gc_ranges_parse("1,", &r, &n, err, sizeof err), -1);
  ck_assert_int_eq(gc_ranges_parse(",1", &r, &n, err, sizeof err), -1);
  ck_assert_int_eq(gc_ranges_parse("1,,2", &r, &n, err, sizeof err), -1);
  ck_assert_int_eq(gc_ranges_parse("3-", &r, &n, err, sizeof err), -1);
  ck_assert_int_eq(gc_ranges_parse("1.5", &r, &n, err, sizeof err), -1);
  ck_assert_int_eq(gc_ranges_parse("99999999999", &r, &n, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "too large"));
  ck_assert_int_eq(gc_ranges_parse("0-3,3", &r, &n, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "rank 3 appears twice"));
  ck_assert_int_eq(gc_ranges_parse("5-9,0-5", &r, &n, NULL, 0), -1);
  ck_assert_int_eq(gc_ranges_single(-2, &r, &n, err, sizeof err), -1);
  ck_assert_str_eq(err, "expected rank ranges such as \"0-3,8,10-11\", got \"-2\" (ranks are never negative)");
  ck_assert_int_eq(gc_ranges_single(1LL << 40, &r, &n, err, sizeof err), -1);
  ck_assert(r == NULL && n == 0);
}
END_TEST

START_TEST(format_truncates) {
  struct gc_rank_range a[] = {{0, 3}, {8, 8}, {100, 2000}};
  char buf[6];
  ck_assert_str_eq(gc_ranges_format(a, 3, buf, sizeof buf), "0-3,8");
  ck_assert_str_eq(gc_ranges_format(a, 0, buf, sizeof buf), "");
}
END_TEST

static Suite *ranges_suite(void) {
  Suite *s = suite_create("ranges");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_checked_fixture(core, NULL, teardown);
  tcase_add_checked_fixture(limits, NULL, teardown);
  tcase_add_test(core, parses_lists);
  tcase_add_test(core, single_int);
  tcase_add_test(core, overlap);
  tcase_add_test(limits, rejects_bad_lists);
  tcase_add_test(limits, format_truncates);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(ranges_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
