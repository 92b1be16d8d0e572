/* Segments of the pipelined broadcast: cut in bytes, the same on every rank whatever its
 * datatype (segment_schedule.h). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "segment_schedule.h"

/* The segments tile [0, m) in order, each non-empty and at most seg bytes, all but the
 * last exactly seg. */
static void assert_tiles(uint64_t m, uint64_t seg)
{
  struct gc_bcast_segments s = gc_bcast_segments_make(m, seg);
  uint64_t next = 0, first, len;
  for (uint64_t i = 0; i < s.n; i++) {
    gc_bcast_segment_range(&s, i, &first, &len);
    ck_assert_uint_eq(first, next);
    ck_assert(len > 0 && len <= s.seg);
    if (i + 1 < s.n)
      ck_assert_uint_eq(len, s.seg);
    next = first + len;
  }
  ck_assert_uint_eq(next, m);
}

START_TEST(cuts_in_bytes) {
  struct gc_bcast_segments s = gc_bcast_segments_make(100, 30);
  uint64_t first, len;
  ck_assert_uint_eq(s.n, 4);
  gc_bcast_segment_range(&s, 0, &first, &len);
  ck_assert(first == 0 && len == 30);
  gc_bcast_segment_range(&s, 2, &first, &len);
  ck_assert(first == 60 && len == 30);
  gc_bcast_segment_range(&s, 3, &first, &len); /* the short last one */
  ck_assert(first == 90 && len == 10);
  ck_assert_uint_eq(gc_bcast_segments_make(120, 30).n, 4); /* exact multiple */
  ck_assert_uint_eq(gc_bcast_segments_make(100, 0).n, 1);  /* not segmented */
  for (uint64_t m = 1; m <= 64; m++)
    for (uint64_t seg = 0; seg <= 70; seg++)
      assert_tiles(m, seg);
}
END_TEST

START_TEST(elements_of_a_prefix) {
  uint64_t whole, touched;
  gc_bcast_segment_elements(0, 12, 5, &whole, &touched);
  ck_assert(whole == 0 && touched == 0);
  gc_bcast_segment_elements(1, 12, 5, &whole, &touched);
  ck_assert(whole == 0 && touched == 1);
  gc_bcast_segment_elements(12, 12, 5, &whole, &touched);
  ck_assert(whole == 1 && touched == 1);
  gc_bcast_segment_elements(25, 12, 5, &whole, &touched);
  ck_assert(whole == 2 && touched == 3);
  gc_bcast_segment_elements(60, 12, 5, &whole, &touched);
  ck_assert(whole == 5 && touched == 5);
}
END_TEST

/* Two ranks with different types of one signature (12-byte and 4-byte elements of the
 * same 60 bytes) see the same cuts, and packing the touched elements before each send /
 * unpacking the whole ones after each receive covers every element exactly once. */
START_TEST(types_agree) {
  const uint64_t m = 60, sizes[] = {4, 12}, segs[] = {1, 3, 7, 8, 13, 59, 60, 1000};
  for (size_t k = 0; k < sizeof segs / sizeof segs[0]; k++) {
    struct gc_bcast_segments s = gc_bcast_segments_make(m, segs[k]);
    for (size_t t = 0; t < 2; t++) {
      uint64_t count = m / sizes[t], packed = 0, unpacked = 0, first, len, whole, touched;
      for (uint64_t i = 0; i < s.n; i++) {
        gc_bcast_segment_range(&s, i, &first, &len);
        gc_bcast_segment_elements(first + len, sizes[t], count, &whole, &touched);
        ck_assert(touched >= packed && whole >= unpacked);
        ck_assert(touched * sizes[t] >= first + len); /* every byte sent was packed */
        packed = touched, unpacked = whole;
      }
      ck_assert(packed == count && unpacked == count);
    }
  }
}
END_TEST

START_TEST(one_byte_and_empty) {
  struct gc_bcast_segments s = gc_bcast_segments_make(7, 1);
  uint64_t first, len;
  ck_assert_uint_eq(s.n, 7);
  gc_bcast_segment_range(&s, 6, &first, &len);
  ck_assert(first == 6 && len == 1);
  s = gc_bcast_segments_make(0, 1);
  ck_assert_uint_eq(s.n, 0);
  ck_assert_uint_eq(gc_bcast_segments_make(0, 0).n, 0);
  s = gc_bcast_segments_make(5, 1000); /* segment larger than the message */
  ck_assert(s.n == 1 && s.seg == 5);
  gc_bcast_segment_range(&s, 0, &first, &len);
  ck_assert(first == 0 && len == 5);
}
END_TEST

START_TEST(huge_counts) {
  const uint64_t m = (UINT64_C(1) << 53) + 12345;
  struct gc_bcast_segments s = gc_bcast_segments_make(m, 3);
  uint64_t first, len, whole, touched;
  ck_assert_uint_eq(s.n, m / 3 + 1);
  gc_bcast_segment_range(&s, s.n - 1, &first, &len);
  ck_assert(first + len == m && len == m % 3);
  s = gc_bcast_segments_make(UINT64_MAX, UINT64_C(1) << 20); /* no m + seg - 1 overflow */
  ck_assert_uint_eq(s.n, (UINT64_MAX >> 20) + 1);
  gc_bcast_segment_range(&s, s.n - 1, &first, &len);
  ck_assert(first + len == UINT64_MAX && len == (UINT64_C(1) << 20) - 1);
  s = gc_bcast_segments_make(UINT64_MAX, UINT64_MAX - 1);
  ck_assert_uint_eq(s.n, 2);
  gc_bcast_segment_elements(m, 12, m / 12, &whole, &touched);
  ck_assert(whole == m / 12 && touched == m / 12); /* capped at count */
  gc_bcast_segment_elements(UINT64_MAX, 1, UINT64_MAX, &whole, &touched);
  ck_assert(whole == UINT64_MAX && touched == UINT64_MAX);
}
END_TEST

static Suite *segments_suite(void) {
  Suite *s = suite_create("bcast_segments");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, cuts_in_bytes);
  tcase_add_test(core, elements_of_a_prefix);
  tcase_add_test(core, types_agree);
  tcase_add_test(limits, one_byte_and_empty);
  tcase_add_test(limits, huge_counts);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(segments_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
