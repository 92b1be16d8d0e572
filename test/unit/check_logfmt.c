/* The log's number formatting (shim/pure/logfmt.c): the same text as printf's %llu, %lld
 * and %.Ng, character for character, so every consumer of the log reads what it read
 * before the formatting was done by hand. */
#include <check.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logfmt.h"

/* gc_fmt_g against snprintf, and the returned length against the text's. */
static void same_g(double v, int precision)
{
  char ours[GC_FMT_MAX], libc[64];
  memset(ours, 'x', sizeof ours);
  int n = gc_fmt_g(ours, v, precision);
  snprintf(libc, sizeof libc, "%.*g", precision, v);
  ck_assert_msg(strcmp(ours, libc) == 0, "%.17g at %d: \"%s\", printf \"%s\"", v, precision, ours,
                libc);
  ck_assert_int_eq(n, (int)strlen(ours));
}

static void text_g(double v, int precision, const char *want)
{
  char ours[GC_FMT_MAX];
  gc_fmt_g(ours, v, precision);
  ck_assert_str_eq(ours, want);
  same_g(v, precision);
}

START_TEST(times_as_the_log_writes_them)
{
  text_g(1.2754e-05, 9, "1.2754e-05");          /* a short call: exponent form below 1e-4 */
  text_g(0.000984126, 9, "0.000984126");        /* fixed form from 1e-4 */
  text_g(8.32499995e-06, 9, "8.32499995e-06");
  text_g(0.001336494, 9, "0.001336494");
  text_g(1.5, 9, "1.5");
  text_g(2, 9, "2");                            /* no point when nothing follows it */
  text_g(123456789, 9, "123456789");
  text_g(1234567890, 9, "1.23456789e+09");      /* exponent form from 10^precision */
  text_g(1.2e-05, 6, "1.2e-05");                /* the candidates column */
  text_g(8.1e-06, 6, "8.1e-06");
  text_g(0.123456789, 6, "0.123457");           /* rounded, not cut */
  text_g(0.1, 9, "0.1");
}
END_TEST

START_TEST(rounding_is_printfs)
{
  /* Ties are exact binary halves: to even, as glibc. */
  text_g(0.5, 0 + 1, "0.5");
  text_g(2.5, 1, "2");
  text_g(3.5, 1, "4");
  text_g(1.25, 2, "1.2");
  text_g(1.75, 2, "1.8");
  text_g(1234567895, 9, "1.2345679e+09"); /* exact tie, 8 even: down; trailing 0 dropped */
  text_g(1234567885, 9, "1.23456788e+09");
  /* Rounding up across a power of ten moves the exponent (and the form). */
  text_g(9.9999999999e-05, 9, "0.0001");
  text_g(999999999.6, 9, "1e+09");
  text_g(0.99999999999, 6, "1");
  /* Decimal fractions are not exact in binary: the digits follow the real value. */
  same_g(0.15, 1), same_g(0.25, 1), same_g(1.005, 3), same_g(2.675, 3);
  same_g(1e-5, 9), same_g(1e-14, 9), same_g(1e21, 9), same_g(9.999999995e-7, 9);
}
END_TEST

START_TEST(random_values_match_printf)
{
  /* Doubles of every kind: raw bit patterns (all exponents), uniform mantissas across
   * the log's range, short decimals (ties and near-ties), halves. */
  unsigned long long x = 88172645463325252ULL;
  static const int precisions[] = {1, 3, 6, 9, 15};
  for (int i = 0; i < 200000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    double v;
    switch (i % 4) {
    case 0:
      memcpy(&v, &x, sizeof v);
      break;
    case 1:
      v = (double)(x >> 11) / 9007199254740992.0 * pow(10, (int)(x % 40) - 20);
      break;
    case 2:
      v = (double)(x % 100000000000ULL) * pow(10, -(int)(x >> 60));
      break;
    default:
      v = (double)(x % 2000000) / 2 / pow(10, (int)(x >> 61));
      break;
    }
    same_g(v, precisions[i % 5]);
  }
}
END_TEST

START_TEST(integers)
{
  char out[GC_FMT_MAX], want[64];
  static const long long ints[] = {0,       1,       -1,        9,        10,       -10,
                                   65536,   1048576, INT_MAX,   INT_MIN,  LLONG_MAX, LLONG_MIN};
  for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
    snprintf(want, sizeof want, "%lld", ints[i]);
    ck_assert_int_eq(gc_fmt_int(out, ints[i]), (int)strlen(want));
    ck_assert_str_eq(out, want);
  }
  static const unsigned long long uints[] = {0, 1, 99, 100, 4096, 18446744073709551615ULL};
  for (size_t i = 0; i < sizeof uints / sizeof *uints; i++) {
    snprintf(want, sizeof want, "%llu", uints[i]);
    ck_assert_int_eq(gc_fmt_u64(out, uints[i]), (int)strlen(want));
    ck_assert_str_eq(out, want);
  }
}
END_TEST

START_TEST(limits_of_the_fast_path)
{
  /* Zeros, signs, NaN and infinities (printf's own text), the magnitudes the fast path
   * hands to snprintf (tiny, subnormal, huge), the widest output, and precisions out of
   * 1..15 (0 means 1 for %g; 17 round-trips a double). */
  text_g(0.0, 9, "0");
  text_g(-0.0, 9, "-0");
  text_g(-1.2754e-05, 9, "-1.2754e-05");
  text_g(-123.456, 6, "-123.456");
  same_g(NAN, 9), same_g(-NAN, 9), same_g(INFINITY, 9), same_g(-INFINITY, 6);
  same_g(DBL_MIN, 9), same_g(DBL_TRUE_MIN, 9), same_g(-DBL_TRUE_MIN, 6), same_g(DBL_MAX, 9);
  same_g(-DBL_MAX, 15), same_g(1e-300, 9), same_g(9.99999999e-15, 9), same_g(1e22, 9);
  same_g(-1.23456789012345e-100, 15); /* the widest text: 22 characters */
  same_g(1.0 / 3, 0), same_g(1.0 / 3, 16), same_g(1.0 / 3, 17);
  same_g(0.1, 17);
}
END_TEST

static Suite *logfmt_suite(void)
{
  Suite *s = suite_create("logfmt");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, times_as_the_log_writes_them);
  tcase_add_test(core, rounding_is_printfs);
  tcase_add_test(core, random_values_match_printf);
  tcase_add_test(core, integers);
  tcase_add_test(limits, limits_of_the_fast_path);
  tcase_set_timeout(core, 60);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(logfmt_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
