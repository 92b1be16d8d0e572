/* Memory in use, read by the long-run and churn tests (longrun.c, churn.c): resident
 * set and its peak from /proc/self/status, and the heap in use from mallinfo2 (small
 * blocks and mmap-ed large ones), all in KiB. */
#ifndef GC_TEST_MEMUSAGE_H
#define GC_TEST_MEMUSAGE_H

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct usage {
  long rss, hwm, heap; /* KiB */
};

static long status_kib(const char *key)
{
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  size_t n = strlen(key);
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, key, n) == 0 && line[n] == ':')
      v = atol(line + n + 1);
  if (f)
    fclose(f);
  return v;
}

static struct usage usage_now(void)
{
  struct mallinfo2 mi = mallinfo2();
  return (struct usage){status_kib("VmRSS"), status_kib("VmHWM"), (long)((mi.uordblks + mi.hblkhd) >> 10)};
}

#endif
