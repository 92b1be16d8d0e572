/* The MPI library's own MPI_Alltoall, on the application's communicator: exactly the
 * call the application made (MPI_Alltoall_c stays MPI_Alltoall_c), so its error handler
 * and semantics are untouched. */
#include "alltoall.h"
#include "count.h"

int gc_alltoall_native_supports(const struct gc_alltoall_call *c, const struct gc_comm_state *st)
{
  (void)c, (void)st;
  return 1;
}

int gc_alltoall_native_run(const struct gc_alltoall_call *c, struct gc_comm_state *st)
{
  (void)st;
#if GC_HAVE_MPI4
  if (c->large)
    return PMPI_Alltoall_c(c->sendbuf, c->sendcount, c->sendtype, c->recvbuf, c->recvcount,
                           c->recvtype, c->comm);
#endif
  /* The plain wrapper's counts came in as int. */
  return PMPI_Alltoall(c->sendbuf, (int)c->sendcount, c->sendtype, c->recvbuf,
                       (int)c->recvcount, c->recvtype, c->comm);
}
