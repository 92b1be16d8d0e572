/* LG-v's part of a communicator's nonblocking reservation (nbc_reserve.c asks it through
 * the op's nbc_reserve, op.h; lgv_nb.c carves from what was reserved): apart from lgv_nb.c
 * so that the reservation, which every nonblocking call reaches first, does not reach back
 * into a call's own code. */
#include <string.h>

#include "alltoall.h"
#include "alltoallv.h"
#include "lg_nb_call.h"
#include "lgv_nb_call.h"

int gc_alltoallv_lg_nb_wanted(void)
{
  return strcmp(gc_alltoallv_op.wanted, "lg") == 0 || strcmp(gc_alltoallv_op.wanted, "auto") == 0;
}

int gc_alltoallv_lg_nb_reserve(struct gc_comm_state *st, size_t *bytes, int *blocks)
{
  *bytes = 0;
  /* LG-v runs on LG's placement: where LG's schedule serves the layout. */
  if (!gc_alltoallv_lg_nb_wanted() || !gc_alltoall_lg_serves(st) ||
      !gc_alltoallv_lg_supports(NULL, st))
    return 0;
  if (gc_alltoall_lg_nb_schedule(st) != 0)
    return -1;
  const struct gc_alltoall_lg_schedule *s = st->nbc_lg;
  /* The block bound agreed is LG's (nbc_reserve.c); LG-v's quota is half of it. */
  *blocks = gc_alltoall_lg_nb_blocks(s, st->size);
  *bytes = gc_alltoallv_lg_nb_call_bytes(
      s, st->size, GC_NBC_LG_BYTES + gc_alltoallv_lg_nb_headers(s) + 4 * 16);
  return 0;
}
