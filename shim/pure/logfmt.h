/* Number formatting for the per-call log (issue 13: logging must cost the application
 * < 2% at 64 KiB). Pure C, no MPI.
 *
 * printf's %g and %llu cost a logged call ~10,000 instructions (locale, varargs, the
 * general conversion); these write the same text for the values the log holds, at a few
 * hundred. gc_fmt_g(out, v, p) writes what snprintf(out, GC_FMT_MAX, "%.<p>g", v) writes,
 * character for character: the same p significant digits, correctly rounded (ties to
 * even, as glibc), the same choice of fixed or exponent form and the same trimming of
 * trailing zeros. Where the fast path cannot be exact it calls snprintf itself: NaN and
 * infinities, magnitudes outside [1e-14, 1e22) (subnormals included), p outside 1..15.
 * So a consumer (scripts/gridcoll-report, tools/calibrate/fromlog.c, the tests) reads the
 * very numbers it read before. */
#ifndef GC_LOGFMT_H
#define GC_LOGFMT_H

#define GC_FMT_MAX 32 /* bytes any gc_fmt_* writes, the terminating NUL included */

/* Each writes a NUL-terminated string into out (GC_FMT_MAX bytes) and returns its length. */
int gc_fmt_u64(char *out, unsigned long long v);
int gc_fmt_int(char *out, long long v);
int gc_fmt_g(char *out, double v, int precision);

#endif
