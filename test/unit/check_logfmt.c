/* The log's number formatting (shim/pure/logfmt.c): the same text as printf's %llu, %lld,
 * %.Ng and %.9f, character for character, so every consumer of the log reads what it read
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

/* gc_fmt_fixed9 against snprintf's %.9f, and the returned length against the text's. */
static void same_f(double v)
{
  char ours[GC_FMT_FIXED9_MAX], libc[GC_FMT_FIXED9_MAX];
  memset(ours, 'x', sizeof ours);
  int n = gc_fmt_fixed9(ours, v);
  snprintf(libc, sizeof libc, "%.9f", v);
  ck_assert_msg(strcmp(ours, libc) == 0, "%.17g: \"%s\", printf \"%s\"", v, ours, libc);
  ck_assert_int_eq(n, (int)strlen(ours));
}

static void text_f(double v, const char *want)
{
  char ours[GC_FMT_FIXED9_MAX];
  gc_fmt_fixed9(ours, v);
  ck_assert_str_eq(ours, want);
  same_f(v);
}

START_TEST(times_to_the_nanosecond)
{
  text_f(1.2754e-05, "0.000012754"); /* the log's times: seconds, nanosecond digits */
  text_f(0.000984126, "0.000984126");
  text_f(4.22590001e-05, "0.000042259"); /* %.9g printed 4.22590001e-05: digits no clock has */
  text_f(0.0563122105, "0.056312211"); /* a tie in decimal, not in binary: the real value decides */
  text_f(0, "0.000000000");
  text_f(1.5, "1.500000000");
  text_f(2, "2.000000000");
  text_f(123456789, "123456789.000000000");
  text_f(999999999.99999988, "999999999.999999881"); /* the last double of the fast range */
  text_f(4e-10, "0.000000000");
  text_f(6e-10, "0.000000001");
  /* Rounding up carries into the seconds. */
  text_f(0.9999999996, "1.000000000");
  text_f(41.9999999999, "42.000000000");
}
END_TEST

START_TEST(nanosecond_ties_are_printfs)
{
  /* Exact binary halves of a nanosecond: to even, as glibc (the digit's parity is the
   * nanoseconds', 10^9 being even). */
  for (int k = 0; k < 64; k++) {
    same_f(ldexp(1, -k)); /* 2^-31 and below: ties and near ties at the last digit */
    same_f(1 + ldexp(1, -k));
    same_f(ldexp(2 * k + 1, -31));
  }
  same_f(0.5e-9), same_f(1.5e-9), same_f(2.5e-9); /* not exact halves in binary */
  /* A true tie needs f * 10^9 = n + 1/2, f = (2n + 1) / (2 * 10^9) = (2n + 1) * 5^-9 *
   * 2^-10: a dyadic only when 5^9 divides 2n + 1. */
  for (long long odd = 1953125; odd < 2000000000LL; odd += 2 * 1953125 * 37)
    for (int s = 0; s < 3; s++)
      same_f(s * 1000.0 + (double)odd / 2e9);
}
END_TEST

START_TEST(random_times_match_printf)
{
  /* Uniform mantissas at every magnitude from 1e-12 to 1e8 s, short decimals, and
   * exact binary fractions (ties), 250,000 of them. */
  unsigned long long x = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < 250000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    double v;
    switch (i % 4) {
    case 0:
    case 1:
      v = (double)(x >> 11) / 9007199254740992.0 * pow(10, (int)(x % 21) - 12);
      break;
    case 2:
      v = (double)(x % 10000000000000ULL) * pow(10, -(int)(x >> 59));
      break;
    default:
      v = ldexp((double)(x >> 20), -(int)(x % 60));
      break;
    }
    same_f(v);
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
  /* Every digit count at its edges (the count decides where the digits go), then random
   * values of every bit width, both signs. */
  for (unsigned long long p = 1; p <= 10000000000000000000ULL; p *= 10) {
    for (unsigned long long v = p - 1; v <= p + 1; v++) {
      snprintf(want, sizeof want, "%llu", v);
      ck_assert_int_eq(gc_fmt_u64(out, v), (int)strlen(want));
      ck_assert_str_eq(out, want);
      snprintf(want, sizeof want, "%lld", -(long long)v);
      ck_assert_int_eq(gc_fmt_int(out, -(long long)v), (int)strlen(want));
      ck_assert_str_eq(out, want);
    }
    if (p == 10000000000000000000ULL)
      break;
  }
  unsigned long long x = 0x2545f4914f6cdd1dULL;
  for (int i = 0; i < 100000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    unsigned long long v = x >> (x % 64);
    snprintf(want, sizeof want, "%llu", v);
    ck_assert_int_eq(gc_fmt_u64(out, v), (int)strlen(want));
    ck_assert_str_eq(out, want);
    snprintf(want, sizeof want, "%lld", (long long)v);
    ck_assert_int_eq(gc_fmt_int(out, (long long)v), (int)strlen(want));
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

START_TEST(limits_of_the_fixed_fast_path)
{
  /* Outside [0, 10^9) printf writes it: negatives, -0, NaN, infinities, the huge. */
  same_f(-0.0), same_f(-1e-12), same_f(-1.5), same_f(NAN), same_f(INFINITY), same_f(-INFINITY);
  same_f(1e9), same_f(999999999.5), same_f(1e15 + 0.5), same_f(DBL_MAX), same_f(-DBL_MAX);
  same_f(DBL_MIN), same_f(DBL_TRUE_MIN), same_f(1e-300);
  text_f(1e9, "1000000000.000000000");
  text_f(-1.5, "-1.500000000");
  text_f(-0.0, "-0.000000000");
  /* 10^9 - ulp, the fast path's last double, and its neighbours in powers of ten. */
  same_f(nextafter(1e9, 0)), same_f(nextafter(1e8, 0)), same_f(nextafter(1e8, 1e9));
  for (int e = -12; e <= 8; e++)
    same_f(pow(10, e)), same_f(nextafter(pow(10, e), 0)), same_f(nextafter(pow(10, e), 1e9));
}
END_TEST

START_TEST(zero_and_its_neighbours)
{
  /* +0 is written as a constant (a spread or lateness of none); its neighbours are not. */
  text_f(0.0, "0.000000000");
  same_f(-0.0), same_f(DBL_TRUE_MIN), same_f(-DBL_TRUE_MIN), same_f(4.999999999e-10);
  same_f(5e-10), same_f(nextafter(5e-10, 0)), same_f(nextafter(5e-10, 1));
  /* Consecutive nanoseconds through every carry of the nine digits and into the seconds. */
  for (long long ns = 999999990LL; ns <= 1000000010LL; ns++)
    same_f((double)ns * 1e-9);
  for (long long ns = 0; ns < 200000; ns += 7)
    same_f((double)ns * 1e-9), same_f((double)ns * 1e-9 + 1), same_f(-(double)ns * 1e-9);
}
END_TEST

static Suite *logfmt_suite(void)
{
  Suite *s = suite_create("logfmt");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, times_as_the_log_writes_them);
  tcase_add_test(core, rounding_is_printfs);
  tcase_add_test(core, random_values_match_printf);
  tcase_add_test(core, times_to_the_nanosecond);
  tcase_add_test(core, nanosecond_ties_are_printfs);
  tcase_add_test(core, random_times_match_printf);
  tcase_add_test(core, integers);
  tcase_add_test(limits, limits_of_the_fast_path);
  tcase_add_test(limits, limits_of_the_fixed_fast_path);
  tcase_add_test(limits, zero_and_its_neighbours);
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
