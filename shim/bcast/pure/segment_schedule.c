/* Segment arithmetic of the pipelined broadcast (segment_schedule.h). */
#include "segment_schedule.h"

struct gc_bcast_segments gc_bcast_segments_make(uint64_t m, uint64_t seg)
{
  struct gc_bcast_segments s = {.bytes = m, .seg = m, .n = m > 0};
  if (m > 0 && seg > 0 && seg < m) {
    s.seg = seg;
    s.n = m / seg + (m % seg != 0); /* no m + seg - 1: it may overflow */
  }
  return s;
}

void gc_bcast_segment_range(const struct gc_bcast_segments *s, uint64_t i, uint64_t *first,
                            uint64_t *len)
{
  *first = i * s->seg; /* i < n, so first < m: no overflow */
  *len = s->bytes - *first < s->seg ? s->bytes - *first : s->seg;
}

void gc_bcast_segment_elements(uint64_t end, uint64_t tsize, uint64_t count, uint64_t *whole,
                               uint64_t *touched)
{
  *whole = end / tsize;
  *touched = *whole + (end % tsize != 0);
  if (*whole > count)
    *whole = count;
  if (*touched > count)
    *touched = count;
}
