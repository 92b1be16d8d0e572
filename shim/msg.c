/* Every line a person reads says "gridcoll:"; nothing ever goes to stdout, which
 * belongs to the application. */
#include <stdarg.h>
#include <stdio.h>

#include "gridcoll.h"

static void vsay(const char *fmt, va_list ap)
{
  char line[1024];
  vsnprintf(line, sizeof line, fmt, ap);
  fprintf(stderr, "gridcoll: %s\n", line);
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

void gc_debug(int level, const char *fmt, ...)
{
  if (gc_g.cfg.verbose < level)
    return;
  char prefixed[1024];
  snprintf(prefixed, sizeof prefixed, "[%d] %s", gc_g.world_rank, fmt);
  va_list ap;
  va_start(ap, fmt);
  vsay(prefixed, ap);
  va_end(ap);
}
