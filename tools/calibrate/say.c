/* Who this process is in the run, and the one voice that speaks for it (calibrate.h):
 * every file of the tool reads them, so they live apart from the main program. */
#include <stdarg.h>

#include "calibrate.h"

int world_rank, world_size;
double t_start;

void say(const char *fmt, ...)
{
  if (world_rank != 0)
    return;
  va_list ap;
  va_start(ap, fmt);
  fputs(PROG ": ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}
