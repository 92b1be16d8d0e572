/* LG's part of a communicator's nonblocking reservation (nbc_reserve.c asks it through the
 * op's nbc_reserve, op.h; lg_nb.c carves from what was reserved): apart from lg_nb.c so
 * that the reservation, which every nonblocking call reaches first, does not reach back
 * into a call's own code. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alltoall.h"
#include "alltoall_algorithms.h"
#include "lg_nb_call.h"
#include "lg_schedule.h"
#include "nbc.h"

int gc_alltoall_lg_nb_wanted(void)
{
  return strcmp(gc_alltoall_op.wanted, "lg") == 0 || strcmp(gc_alltoall_op.wanted, "auto") == 0;
}

static void lg_nb_schedule_free(void *p)
{
  gc_alltoall_lg_schedule_free(p);
  free(p);
}

int gc_alltoall_lg_nb_schedule(struct gc_comm_state *st)
{
  if (st->nbc_lg)
    return 0;
  struct gc_alltoall_lg_schedule *s = malloc(sizeof *s);
  if (!s || gc_alltoall_lg_schedule_build(s, &st->layout, st->rank) != 0) {
    free(s);
    return -1;
  }
  st->nbc_lg = s, st->nbc_lg_free = lg_nb_schedule_free;
  return 0;
}

/* With `lg` or `auto` (gc_alltoall_lg_nb_wanted) where LG serves the layout, my schedule
 * built once (kept in st) and what one call carves beyond its buffers, plus
 * GC_NBC_LG_BYTES' worth of them (*bytes), and my blocks per byte of a block (*blocks);
 * nothing elsewhere. 0, or -1 when out of memory. */
int gc_alltoall_lg_nb_reserve(struct gc_comm_state *st, size_t *bytes, int *blocks)
{
  *bytes = 0;
  if (!gc_alltoall_lg_nb_wanted() || !gc_alltoall_lg_serves(st))
    return 0;
  if (gc_alltoall_lg_nb_schedule(st) != 0)
    return -1;
  const struct gc_alltoall_lg_schedule *s = st->nbc_lg;
  *blocks = gc_alltoall_lg_nb_blocks(s, st->size);
  *bytes = gc_alltoall_lg_nb_call_bytes(s, st->size, GC_NBC_LG_BYTES);
  return 0;
}
