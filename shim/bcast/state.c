/* What the broadcast keeps per communicator (bcast.h: struct gc_bcast_state), made once
 * with the communicator's state and freed with it, so that a call allocates nothing: the
 * tree cache with room for a tree over every cluster in each entry (tree_cache.h), the
 * send requests of a leader with more children than tree_exec.c keeps on its stack, and
 * the staging buffer of segmented broadcasts (grown, agreed, by tree_stage.c). */
#include "bcast.h"

#include <stdlib.h>

#include "gridcoll.h"
#include "segment_schedule.h"

static void state_free(struct gc_comm_state *st, void *data)
{
  struct gc_bcast_state *b = data;
  if (b->cache.builds)
    gc_debug(3, "comm %llu: %llu broadcast tree(s) built, %llu taken from the cache", st->id,
             b->cache.builds, b->cache.hits);
  gc_tree_cache_free(&b->cache);
  gc_bcast_stage_cache_free(&b->stage);
  free(b->reqs);
  free(b);
}

int gc_bcast_state_make(struct gc_comm_state *st)
{
  struct gc_op_state *slot = &st->op[GC_OP_BCAST];
  int k = st->layout.nclusters;
  if (slot->data || k < 2) /* made already, or no tree can serve this communicator */
    return 0;
  struct gc_bcast_state *b = calloc(1, sizeof *b);
  if (!b)
    return -1;
  /* A leader has at most k - 1 children; up to GC_BCAST_SEND_REQS of them its sends fit
   * the executor's stack (tree_exec.c). */
  if (k - 1 > GC_BCAST_SEND_REQS && !(b->reqs = malloc(sizeof(MPI_Request) * (size_t)(k - 1)))) {
    free(b);
    return -1;
  }
  if (gc_tree_cache_init(&b->cache, k) != 0) {
    free(b->reqs);
    free(b);
    return -1;
  }
  b->version = st->version;
  slot->data = b;
  slot->free_data = state_free;
  return 0;
}

struct gc_bcast_state *gc_bcast_state(struct gc_comm_state *st)
{
  return st->op[GC_OP_BCAST].data;
}
