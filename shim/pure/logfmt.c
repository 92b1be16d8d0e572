/* See logfmt.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "logfmt.h"

int gc_fmt_u64(char *out, unsigned long long v)
{
  char tmp[GC_FMT_MAX];
  int n = 0;
  do
    tmp[n++] = (char)('0' + v % 10);
  while ((v /= 10) != 0);
  for (int i = 0; i < n; i++)
    out[i] = tmp[n - 1 - i];
  out[n] = '\0';
  return n;
}

int gc_fmt_int(char *out, long long v)
{
  if (v >= 0)
    return gc_fmt_u64(out, (unsigned long long)v);
  out[0] = '-';
  /* -(v + 1) + 1: LLONG_MIN has no positive long long. */
  return 1 + gc_fmt_u64(out + 1, (unsigned long long)-(v + 1) + 1);
}

/* 10^0 .. 10^22: every one is a double exactly (5^22 < 2^53). */
static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* v (> 0) to `digits` significant digits, for decimal exponent e (10^e <= v < 10^(e+1)
 * assumed): round(v * 10^(digits-1-e)) with the exact remainder, so the rounding is the
 * one of the real product, not of its double. Returns -1 when the scale is not exact. */
static long long scaled(double v, int digits, int e)
{
  int k = digits - 1 - e;
  double p, rest; /* v * 10^k == p + rest exactly */
  if (k >= 0) {
    if (k > 22)
      return -1;
    double s = pow10_exact[k];
    p = v * s;
    rest = fma(v, s, -p);
  } else {
    if (-k > 22)
      return -1;
    double s = pow10_exact[-k];
    p = v / s;
    rest = -fma(p, s, -v) / s; /* v/s - p, to within a far smaller error than its sign needs */
  }
  double whole = floor(p);
  /* p - whole and (p - whole) - 0.5 are exact (p < 2^53, so its fraction is a multiple of
   * its ulp); |rest| is at most half an ulp of p, so it decides only when the fraction of
   * p is 0.5 itself: above, below, or a true tie (to even, as glibc's printf). */
  double d = (p - whole) - 0.5 + rest;
  long long m = (long long)whole;
  if (d > 0 || (!(d < 0) && (m & 1))) /* above half, or a tie to an odd m */
    m++;
  return m;
}

int gc_fmt_g(char *out, double v, int precision)
{
  double a = fabs(v);
  if (precision < 1 || precision > 15 || !isfinite(v) || (a > 0 && (a < 1e-14 || a >= 1e22)))
    return snprintf(out, GC_FMT_MAX, "%.*g", precision, v);
  int n = 0;
  if (signbit(v))
    out[n++] = '-';
  if (!(a > 0)) { /* +0 or -0 */
    out[n++] = '0';
    out[n] = '\0';
    return n;
  }
  /* The exponent of a: a first guess from the table (10^e for e < 0 is not a double, so
   * the guess may be one off), then checked against the rounded digits. */
  int e = 0;
  if (a >= 1) {
    while (e < 22 && a >= pow10_exact[e + 1])
      e++;
  } else {
    while (a * pow10_exact[-e] < 1)
      e--;
  }
  long long limit = (long long)pow10_exact[precision], m;
  for (int tries = 0;; tries++) {
    m = scaled(a, precision, e);
    if (m < 0 || tries == 3)
      return snprintf(out, GC_FMT_MAX, "%.*g", precision, v);
    if (m >= limit)
      e++; /* rounded up to 10^(e+1) or the guess was low: the exponent is the next one */
    else if (m < limit / 10)
      e--;
    else
      break;
  }
  char digits[16];
  int i = precision;
  do
    digits[--i] = (char)('0' + m % 10), m /= 10;
  while (i > 0);
  int last = precision; /* digits kept: %g drops trailing zeros */
  while (last > 1 && digits[last - 1] == '0')
    last--;
  if (e < -4 || e >= precision) { /* d.ddde-XX */
    out[n++] = digits[0];
    if (last > 1) {
      out[n++] = '.';
      memcpy(out + n, digits + 1, (size_t)(last - 1));
      n += last - 1;
    }
    out[n++] = 'e';
    out[n++] = e < 0 ? '-' : '+';
    int x = e < 0 ? -e : e;
    if (x >= 100)
      out[n++] = (char)('0' + x / 100);
    out[n++] = (char)('0' + x / 10 % 10);
    out[n++] = (char)('0' + x % 10);
  } else if (e < 0) { /* 0.000ddd */
    out[n++] = '0';
    out[n++] = '.';
    for (int i = -1; i > e; i--)
      out[n++] = '0';
    memcpy(out + n, digits, (size_t)last);
    n += last;
  } else { /* ddd.ddd: e + 1 digits before the point */
    memcpy(out + n, digits, (size_t)(e + 1));
    n += e + 1;
    if (last > e + 1) {
      out[n++] = '.';
      memcpy(out + n, digits + e + 1, (size_t)(last - e - 1));
      n += last - e - 1;
    }
  }
  out[n] = '\0';
  return n;
}
