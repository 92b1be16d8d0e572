/* The MPI library's own MPI_Alltoall, on the application's communicator: exactly the
 * call the application made (MPI_Alltoall_c stays MPI_Alltoall_c), so its error handler
 * and semantics are untouched. */
#include "alltoall.h"
#include "count.h"

int gc_alltoall_native_supports(const void *call, const struct gc_comm_state *st)
{
  (void)call, (void)st;
  return 1;
}

int gc_alltoall_native_run(const void *call, struct gc_comm_state *st, const struct gc_plan *plan)
{
  const struct gc_alltoall_call *c = call;
  (void)st, (void)plan;
#if GC_HAVE_MPI4
  if (c->large)
    return PMPI_Alltoall_c(c->sendbuf, c->sendcount, c->sendtype, c->recvbuf, c->recvcount,
                           c->recvtype, c->comm);
#endif
  /* The plain wrapper's counts came in as int. */
  return PMPI_Alltoall(c->sendbuf, (int)c->sendcount, c->sendtype, c->recvbuf,
                       (int)c->recvcount, c->recvtype, c->comm);
}
