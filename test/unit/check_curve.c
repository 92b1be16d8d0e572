/* model/curve.c: a link's time over message size, interpolated between measured points,
 * extended beyond them, checked, and reduced from a sweep to its breakpoints. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "curve.h"

#define ck_close(a, b) ck_assert_msg(fabs((a) - (b)) <= 1e-12 * fabs(b) + 1e-300, "%.17g != %.17g", (a), (b))

/* A curve shaped as SimGrid's default network: a line to 64 KiB, a jump, a steeper line. */
static struct gc_curve bent(void)
{
  return (struct gc_curve){4, {1, 65535, 65536, 1048576}, {10e-6, 80e-6, 150e-6, 1e-3}};
}

START_TEST(interpolates)
{
  struct gc_curve c = bent();
  ck_assert(gc_curve_set(&c));
  for (int i = 0; i < c.n; i++)
    ck_close(gc_curve_time(&c, c.m[i]), c.t[i]);
  /* A curve that falls where a protocol's constants change (within the slack). */
  struct gc_curve dip = {3, {1000, 2000, 4000}, {20e-3, 16e-3, 19e-3}};
  ck_assert_int_eq(gc_curve_check(dip.m, dip.t, dip.n, NULL, 0), 0);
  ck_close(gc_curve_time(&dip, 1500), 18e-3);
  ck_close(gc_curve_time(&c, 32768), 10e-6 + (32768.0 - 1) * (70e-6 / 65534));
  ck_close(gc_curve_time(&c, 65536 + (1048576 - 65536) / 2.0), (150e-6 + 1e-3) / 2);
}
END_TEST

START_TEST(extrapolates)
{
  struct gc_curve c = bent();
  double slope = (1e-3 - 150e-6) / (1048576 - 65536);
  ck_close(gc_curve_time(&c, 2 * 1048576.0), 1e-3 + 1048576 * slope);
  ck_close(gc_curve_time(&c, 0x1p53), 1e-3 + (0x1p53 - 1048576) * slope);
  ck_assert(isfinite(gc_curve_time(&c, DBL_MAX)));
  /* Below the first point: the first segment extended, never below 0. */
  ck_close(gc_curve_time(&c, 0), 10e-6 - 70e-6 / 65534);
  struct gc_curve steep = {2, {1000, 2000}, {1e-6, 1e-3}};
  ck_assert(gc_curve_time(&steep, 0) == 0.0);
  /* A last segment that falls (within the slack) is extended flat, not downwards. */
  struct gc_curve fall = {3, {1, 2, 3}, {1e-6, 2e-6, 1.99e-6}};
  ck_close(gc_curve_time(&fall, 1e9), 1.99e-6);
  /* Time grows with size past the last point on a rising curve. */
  ck_assert(gc_curve_time(&c, 4e6) > gc_curve_time(&c, 2e6));
}
END_TEST

START_TEST(unset)
{
  struct gc_curve none = {0};
  struct gc_curve one = {1, {1}, {1e-6}};
  ck_assert(!gc_curve_set(NULL));
  ck_assert(!gc_curve_set(&none));
  ck_assert(!gc_curve_set(&one));
}
END_TEST

START_TEST(checks)
{
  char why[256];
  struct gc_curve c = bent();
  ck_assert_int_eq(gc_curve_check(c.m, c.t, c.n, why, sizeof why), 0);
  ck_assert_int_eq(gc_curve_check(c.m, c.t, 1, why, sizeof why), -1);
  ck_assert_int_eq(gc_curve_check(c.m, c.t, GC_CURVE_MAX + 1, why, sizeof why), -1);
  double m_dup[] = {1, 1}, t2[] = {1e-6, 2e-6};
  ck_assert_int_eq(gc_curve_check(m_dup, t2, 2, why, sizeof why), 2);
  ck_assert_msg(strstr(why, "sizes must increase"), "%s", why);
  double m_down[] = {8192, 4096};
  ck_assert_int_eq(gc_curve_check(m_down, t2, 2, why, sizeof why), 2);
  double m2[] = {1, 2}, t_zero[] = {0, 1e-6}, t_nan[] = {1e-6, NAN}, t_inf[] = {1e-6, INFINITY},
         t_neg[] = {-1e-6, 1e-6};
  ck_assert_int_eq(gc_curve_check(m2, t_zero, 2, why, sizeof why), 1);
  ck_assert_int_eq(gc_curve_check(m2, t_nan, 2, why, sizeof why), 2);
  ck_assert_int_eq(gc_curve_check(m2, t_inf, 2, why, sizeof why), 2);
  ck_assert_int_eq(gc_curve_check(m2, t_neg, 2, why, sizeof why), 1);
  double m_nan[] = {1, NAN}, m_neg[] = {-1, 2};
  ck_assert_int_eq(gc_curve_check(m_nan, t2, 2, why, sizeof why), 2);
  ck_assert_int_eq(gc_curve_check(m_neg, t2, 2, why, sizeof why), 1);
  /* A fall within the slack is noise; beyond it, an error. */
  double t_noise[] = {1e-6, 0.8e-6}, t_fall[] = {1e-6, 0.7e-6};
  ck_assert_int_eq(gc_curve_check(m2, t_noise, 2, why, sizeof why), 0);
  ck_assert_int_eq(gc_curve_check(m2, t_fall, 2, why, sizeof why), 2);
  ck_assert_msg(strstr(why, "may not fall"), "%s", why);
  /* Extremes: 0 B and 2^53 B, a nanosecond and an hour. */
  double m_ext[] = {0, 0x1p53}, t_ext[] = {1e-9, 3600};
  ck_assert_int_eq(gc_curve_check(m_ext, t_ext, 2, NULL, 0), 0);
  struct gc_curve ext = {2, {0, 0x1p53}, {1e-9, 3600}};
  ck_close(gc_curve_time(&ext, 0x1p52), 1e-9 + (3600 - 1e-9) / 2);
}
END_TEST

/* A sweep along SimGrid's default shape keeps its bends and drops what lies on a line. */
START_TEST(from_samples)
{
  double m[GC_CURVE_MAX], t[GC_CURVE_MAX];
  int n = 0;
  for (double s = 1; s <= 4194304; s *= 2, n++) {
    m[n] = s;
    t[n] = s < 65536 ? 10e-6 + s * 1e-9 : 100e-6 + s * 2e-9;
  }
  struct gc_curve c;
  int kept = gc_curve_from_samples(m, t, n, 0.01, &c);
  ck_assert_int_eq(kept, c.n);
  ck_assert_int_lt(kept, n);
  ck_assert_int_ge(kept, 3);
  ck_assert(c.m[0] == 1 && c.m[kept - 1] == 4194304);
  ck_assert_int_eq(gc_curve_check(c.m, c.t, c.n, NULL, 0), 0);
  for (int i = 0; i < n; i++)
    ck_assert_msg(fabs(gc_curve_time(&c, m[i]) - t[i]) <= 0.01 * t[i], "%g B: %g vs %g", m[i],
                  gc_curve_time(&c, m[i]), t[i]);
  /* A fall within the slack is kept (a protocol's constants change); a larger one is
   * lifted halfway into the slack below the largest before it. */
  double mm[] = {1, 2, 3, 4}, tt[] = {2e-6, 1.8e-6, 1e-6, 3e-6};
  ck_assert_int_eq(gc_curve_from_samples(mm, tt, 4, 0.0, &c), 4);
  ck_assert(c.t[1] == 1.8e-6 && c.t[2] == 2e-6 * (1 - GC_CURVE_SLACK / 2));
  ck_assert_int_eq(gc_curve_check(c.m, c.t, c.n, NULL, 0), 0);
  /* More samples than a curve holds: the tolerance grows until it fits. */
  double big_m[GC_CURVE_SAMPLES_MAX], big_t[GC_CURVE_SAMPLES_MAX];
  for (int i = 0; i < GC_CURVE_SAMPLES_MAX; i++)
    big_m[i] = i + 1, big_t[i] = 1e-6 * (1 + (i % 2)) * (1 + i); /* a zigzag */
  ck_assert_int_le(gc_curve_from_samples(big_m, big_t, GC_CURVE_SAMPLES_MAX, 0.0, &c), GC_CURVE_MAX);
  ck_assert_int_ge(c.n, 2);
  ck_assert_int_eq(gc_curve_check(c.m, c.t, c.n, NULL, 0), 0);
  /* Collinear points collapse to the two ends; fewer than two points make no curve. */
  double tl[] = {1e-6, 2e-6, 3e-6};
  ck_assert_int_eq(gc_curve_from_samples(mm, tl, 3, 1e-9, &c), 2);
  ck_assert_int_eq(gc_curve_from_samples(mm, tl, 1, 0.01, &c), 0);
  ck_assert(!gc_curve_set(&c));
}
END_TEST

static Suite *curve_suite(void)
{
  Suite *s = suite_create("curve");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, interpolates);
  tcase_add_test(tc, extrapolates);
  tcase_add_test(tc, unset);
  tcase_add_test(tc, checks);
  tcase_add_test(tc, from_samples);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(curve_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
