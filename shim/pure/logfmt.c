/* See logfmt.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "logfmt.h"

/* "00" "01" .. "99": two digits a division, the way fast integer printers do it. */
static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                               "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                               "8081828384858687888990919293949596979899";

static int digits_of(unsigned long long v)
{
  int n = 1;
  for (;;) {
    if (v < 10)
      return n;
    if (v < 100)
      return n + 1;
    if (v < 1000)
      return n + 2;
    if (v < 10000)
      return n + 3;
    v /= 10000;
    n += 4;
  }
}

/* One 2-byte copy, not two byte stores (which compilers merge by shifts and ors). */
static void put_pair(char *out, unsigned r)
{
  memcpy(out, pairs + 2 * r, 2);
}

/* The n digits of w ending at out + n, two at a time from the last, in 32-bit arithmetic
 * (a division by a constant is a multiply, cheaper narrow). */
static void put_digits32(char *out, unsigned w, int n)
{
  while (n >= 2) {
    n -= 2;
    put_pair(out + n, w % 100);
    w /= 100;
  }
  if (n)
    out[0] = (char)('0' + w);
}

/* The n digits of v (n = digits_of(v), or more for leading zeros) ending at out + n:
 * counted first, so they are written in place, from the last, narrow once v fits. */
static void put_digits(char *out, unsigned long long v, int n)
{
  while (v > 0xffffffffu) {
    n -= 2;
    put_pair(out + n, (unsigned)(v % 100));
    v /= 100;
  }
  put_digits32(out, (unsigned)v, n);
}

/* v < 10^9 as exactly nine digits, leading zeros included: the nanoseconds. */
static void put_nine(char *out, unsigned v)
{
  unsigned hi = v / 100000, lo = v % 100000; /* 4 and 5 digits */
  put_pair(out, hi / 100);
  put_pair(out + 2, hi % 100);
  put_pair(out + 4, lo / 1000);
  put_pair(out + 6, lo / 10 % 100);
  out[8] = (char)('0' + lo % 10);
}

/* The digits of a value below 2^32, in 32-bit arithmetic throughout: the log's integers
 * (ranks, sizes, call indices, bytes) nearly always are. */
static int fmt32(char *out, unsigned v)
{
  int n = v < 100000 ? (v < 100 ? 1 + (v >= 10) : v < 1000 ? 3 : 4 + (v >= 10000))
                     : v < 10000000 ? 6 + (v >= 1000000)
                                    : v < 100000000 ? 8 : 9 + (v >= 1000000000);
  put_digits32(out, v, n);
  out[n] = '\0';
  return n;
}

int gc_fmt_u64(char *out, unsigned long long v)
{
  if (v <= 0xffffffffu)
    return fmt32(out, (unsigned)v);
  int n = digits_of(v);
  put_digits(out, v, n);
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

int gc_fmt_fixed9(char *out, double v)
{
#ifdef __SIZEOF_INT128__
  unsigned long long bits;
  memcpy(&bits, &v, sizeof bits);
  /* A positive double's bits order as its value: below 10^9's, the sign bit clear, is
   * +0 <= v < 10^9. -0, negatives, NaN and the infinities are above: printf's road. */
  if (bits < 0x41cdcd6500000000ULL) { /* 1e9 */
    if (!bits) { /* +0: a spread or a lateness of none, as often as not */
      memcpy(out, "0.000000000", 12);
      return 11;
    }
    /* v = m 2^(e-1075) exactly, so v 10^9 = m 5^9 2^(e-1066): an integer product (74
     * bits at most) and a shift, rounded with the bits shifted out: above half up, a
     * true half to even, as glibc's printf (the last digit's parity is the integer's). */
    int e = (int)(bits >> 52);
    unsigned long long m = bits & ((1ULL << 52) - 1), ns = 0;
    if (e)
      m |= 1ULL << 52;
    else
      e = 1; /* subnormal */
    int shift = 1066 - e; /* >= 14: v < 2^30 */
    if (shift < 75) {     /* else v 10^9 < 2^74 / 2^75: rounds to 0 */
      /* The product's 13 low bits apart (shift > 13), the rest in 64 bits. */
      unsigned __int128 x = (unsigned __int128)m * 1953125;
      unsigned long long high = (unsigned long long)(x >> 13), low = (unsigned long long)x & 0x1fff;
      int r = shift - 13;
      unsigned long long rest = high & ((1ULL << r) - 1), half = 1ULL << (r - 1);
      ns = high >> r;
      ns += rest > half || (rest == half && (low || (ns & 1)));
    }
    unsigned s = (unsigned)(ns / 1000000000), frac = (unsigned)(ns % 1000000000);
    int n = 1; /* a call of less than 10 s: one digit, the common case */
    if (s < 10)
      out[0] = (char)('0' + s);
    else
      put_digits(out, s, n = digits_of(s));
    out[n] = '.';
    put_nine(out + n + 1, frac);
    out[n + 10] = '\0';
    return n + 10;
  }
#endif
  return snprintf(out, GC_FMT_FIXED9_MAX, "%.9f", v);
}
