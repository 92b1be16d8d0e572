/* The MPI library's own MPI_Bcast, on the application's communicator: MPI_Bcast_c
 * stays MPI_Bcast_c. */
#include "bcast.h"
#include "count.h"

int gc_bcast_native_supports(const void *call, const struct gc_comm_state *st)
{
  (void)call, (void)st;
  return 1;
}

int gc_bcast_native_run(const void *call, struct gc_comm_state *st, const struct gc_plan *plan)
{
  const struct gc_bcast_call *c = call;
  (void)st, (void)plan;
#if GC_HAVE_MPI4
  if (c->large)
    return PMPI_Bcast_c(c->buffer, c->count, c->datatype, c->root, c->comm);
#endif
  return PMPI_Bcast(c->buffer, (int)c->count, c->datatype, c->root, c->comm); /* came as int */
}
