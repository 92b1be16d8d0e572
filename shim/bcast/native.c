/* The MPI library's own MPI_Bcast, on the application's communicator. */
#include "bcast.h"

int gc_bcast_native_supports(const struct gc_bcast_call *c, const struct gc_comm_state *st)
{
  (void)c, (void)st;
  return 1;
}

int gc_bcast_native_run(const struct gc_bcast_call *c, struct gc_comm_state *st)
{
  (void)st;
  return PMPI_Bcast(c->buffer, c->count, c->datatype, c->root, c->comm);
}
