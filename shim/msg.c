/* Every line a person reads says "gridcoll:"; nothing ever goes to stdout, which
 * belongs to the application.
 *
 * What each verbosity shows (GRIDCOLL_VERBOSE, else the file's top-level `verbose`, read
 * even from a file with errors; default 1):
 *   0  nothing, except the reason for an abort that strict = true asked for (gc_say);
 *   1  also every warning: a configuration error, the fallback it causes, a file that
 *      cannot be written (gc_warn, gc_warn_any), memory that ran out (gc_warn_oom);
 *   2  also what gridcoll chose at start-up and what the probe measured (gc_debug 2);
 *   3  also per-call debugging (gc_debug 3). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "gridcoll.h"

/* A line longer than the buffer keeps its start and its end: the reason comes last, after
 * whatever long path the message names. */
static void vsay(const char *fmt, va_list ap)
{
  char line[1024];
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  char *big = n >= (int)sizeof line ? malloc((size_t)n + 1) : NULL;
  if (big && vsnprintf(big, (size_t)n + 1, fmt, again) == n)
    fprintf(stderr, "gridcoll: %.300s [...] %s\n", big, big + n - 600);
  else
    fprintf(stderr, "gridcoll: %s\n", line);
  free(big);
  va_end(again);
}

/* vsay with this rank's number before fmt: `prefix` holds a %d (the world rank) and a %s
 * (fmt itself, which then formats ap). */
static void vsay_after(const char *prefix, const char *fmt, va_list ap)
{
  char prefixed[1024];
  snprintf(prefixed, sizeof prefixed, prefix, gc_g.world_rank, fmt);
  vsay(prefixed, ap);
}

void gc_warn(const char *fmt, ...)
{
  if (gc_g.world_rank != 0 || gc_g.cfg.verbose < 1)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsay(fmt, ap);
  va_end(ap);
}

void gc_warn_any(const char *fmt, ...)
{
  if (gc_g.cfg.verbose < 1)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsay(fmt, ap);
  va_end(ap);
}

/* Once per process, whichever site runs out first: a program short of memory that calls a
 * collective in a loop would otherwise get a line per call. The rank says it (only it
 * knows); the others, which followed it onto the same road, say nothing. */
void gc_warn_oom(const char *fmt, ...)
{
  static int said;
  if (gc_g.cfg.verbose < 1 || __atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    return;
  va_list ap;
  va_start(ap, fmt);
  vsay_after("out of memory on rank %d: %s", fmt, ap);
  va_end(ap);
}

void gc_say(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsay(fmt, ap);
  va_end(ap);
}

void gc_debug(int level, const char *fmt, ...)
{
  if (gc_g.cfg.verbose < level)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsay_after("[%d] %s", fmt, ap);
  va_end(ap);
}
