/* Number formatting for the per-call log (issue 13: logging must cost the application
 * < 2% at 64 KiB). Pure C, no MPI.
 *
 * printf's %f, %g and %llu cost a logged call ~10,000 instructions (locale, varargs, the
 * general conversion); these write the same text for the values the log holds, at a few
 * dozen each. gc_fmt_g(out, v, p) writes what snprintf(out, GC_FMT_MAX, "%.<p>g", v) writes,
 * character for character: the same p significant digits, correctly rounded (ties to
 * even, as glibc), the same choice of fixed or exponent form and the same trimming of
 * trailing zeros. Where the fast path cannot be exact it calls snprintf itself: NaN and
 * infinities, magnitudes outside [1e-14, 1e22) (subnormals included), p outside 1..15.
 * So a consumer (scripts/gridcoll-report, tools/calibrate/fromlog.c, the tests) reads
 * exactly what printf would have written. */
#ifndef GC_LOGFMT_H
#define GC_LOGFMT_H

#define GC_FMT_MAX 32 /* bytes gc_fmt_u64, gc_fmt_int and gc_fmt_g write, the NUL included */
/* bytes gc_fmt_fixed9 writes at most: -DBL_MAX has 309 digits before the point */
#define GC_FMT_FIXED9_MAX 328

/* Each writes a NUL-terminated string into out (GC_FMT_MAX bytes) and returns its length. */
int gc_fmt_u64(char *out, unsigned long long v);
int gc_fmt_int(char *out, long long v);
int gc_fmt_g(char *out, double v, int precision);
/* What snprintf(out, GC_FMT_FIXED9_MAX, "%.9f", v) writes: seconds to the nanosecond,
 * the clock's own resolution (%.9g printed digits below it that a difference of two
 * clock reads does not have). Fast and exact for 0 <= v < 10^9 (31 years; at most 19
 * characters) where the compiler has 128-bit integers (GCC and Clang on 64-bit targets),
 * printf itself otherwise and outside (-0, negatives, NaN, infinities, 10^9 and above). */
int gc_fmt_fixed9(char *out, double v);

#endif
