/* The trees' part of a communicator's nonblocking reservation (nbc_reserve.c asks it
 * through the op's nbc_reserve, tree_nb.c carves from what was reserved): apart from
 * tree_nb.c so that the reservation, which every nonblocking call reaches first, does not
 * reach back into a call's own code. */
#include <string.h>

#include "bcast.h"
#include "gridcoll.h"
#include "nbc.h"
#include "tree_nb_call.h"
#include "tree_steps.h"

/* What my largest tree call carves: the whole message, or with bcast.segment set (and a
 * tree wanted) the most segments, staged (nbc.h: GC_NBC_STAGE_BYTES). Nothing to build:
 * never out of memory. */
int gc_bcast_tree_nb_reserve(struct gc_comm_state *st, size_t *bytes, int *blocks)
{
  (void)blocks; /* a tree carves no LG buffers */
  int bound = gc_bcast_tree_steps_bound(&st->layout, st->rank);
  *bytes = gc_bcast_tree_nb_call_bytes(bound, 1, 0);
  if (gc_g.cfg.bcast_segment > 0 && strcmp(gc_bcast_op.wanted, "native") != 0) {
    size_t seg = gc_bcast_tree_nb_call_bytes(bound, GC_BCAST_NB_SEGMENTS, GC_NBC_STAGE_BYTES);
    *bytes = seg > *bytes ? seg : *bytes;
  }
  return 0;
}
