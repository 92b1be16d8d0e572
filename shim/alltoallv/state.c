/* What every rank keeps of MPI_Alltoallv on a communicator (alltoallv.h: struct
 * gc_alltoallv_state): made with the communicator's state, kept in its slot and freed
 * with it, LG-v's context included. Apart from the table (alltoallv.c) and LG-v (lgv.c),
 * which both read it through the inline gc_alltoallv_state. */
#include "alltoallv.h"

#include <stdlib.h>

static void state_free(struct gc_comm_state *st, void *data)
{
  struct gc_alltoallv_state *vs = data;
  (void)st;
  gc_alltoallv_lg_free(vs->lg);
  free(vs->bytes); /* and the zeros, in the same block */
  free(vs);
}

int gc_alltoallv_state_make(struct gc_comm_state *st)
{
  struct gc_op_state *slot = &st->op[GC_OP_ALLTOALLV];
  struct gc_alltoallv_state *vs = calloc(1, sizeof *vs);
  size_t kk = (size_t)st->layout.nclusters * (size_t)st->layout.nclusters;
  /* One block: the learnt matrix, then the zeros (alltoallv.h). */
  if (!vs || !(vs->bytes = calloc(2 * kk, sizeof(double)))) {
    free(vs);
    return -1;
  }
  vs->zeros = vs->bytes + kk;
  slot->data = vs;
  slot->free_data = state_free;
  return 0;
}
