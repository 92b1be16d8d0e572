/* A collective's times from its ranks' numbers (span_time.h). */
#include "span_time.h"

#include <float.h>
#include <math.h>

void gc_span_numbers(double q[GC_SPAN_NUMBERS], double entry, double exit, int rooted, int root)
{
  q[GC_SPAN_EXIT] = exit;
  q[GC_SPAN_FIRST] = -entry;
  q[GC_SPAN_LAST] = entry;
  /* A broadcast starts when its root enters: the others' entries do not count. */
  q[GC_SPAN_START] = !rooted || root ? -entry : -DBL_MAX;
}

void gc_span_numbers_alone(double q[GC_SPAN_NUMBERS], double elapsed)
{
  /* An entry at 0 and an exit at elapsed; no last entry says that no rank's arrival is
   * known (a real one, assembled, is never -DBL_MAX). */
  q[GC_SPAN_EXIT] = elapsed;
  q[GC_SPAN_FIRST] = 0;
  q[GC_SPAN_LAST] = -DBL_MAX;
  q[GC_SPAN_START] = 0;
}

/* A number some rank gave (MAX's identity, negated or not, is none). */
static int known(double v)
{
  return fabs(v) < DBL_MAX; /* -DBL_MAX < v < DBL_MAX, in one comparison */
}

/* From a to b, 0 when the clocks' offsets make it negative; none (-1) when either is
 * unknown. */
static double since(double a, double b)
{
  if (!known(a) || !known(b))
    return -1;
  double t = b - a;
  return t > 0 ? t : 0;
}

struct gc_span_time gc_span_time_of(const double q[GC_SPAN_NUMBERS], int rooted)
{
  struct gc_span_time t;
  double first = -q[GC_SPAN_FIRST], last = q[GC_SPAN_LAST];
  /* No root's entry (never, once assembled): the call counts from the first entry. */
  double start = known(q[GC_SPAN_START]) ? -q[GC_SPAN_START] : first;
  t.actual = since(start, q[GC_SPAN_EXIT]);
  if (!known(last)) { /* nothing assembled: the rank's own time, all of it */
    t.own = t.actual;
    t.spread = t.root_late = -1;
    return t;
  }
  t.spread = since(first, last);
  /* A broadcast's own time is its actual one: it can start once its root is in. */
  t.own = rooted ? t.actual : since(last, q[GC_SPAN_EXIT]);
  t.root_late = rooted ? since(first, start) : -1;
  return t;
}
