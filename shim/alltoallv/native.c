/* The MPI library's own MPI_Alltoallv, exactly as the application called it. */
#include "alltoallv.h"
#include "gridcoll.h"

int gc_alltoallv_native_supports(const void *call, const struct gc_comm_state *st)
{
  (void)call, (void)st;
  return 1;
}

int gc_alltoallv_native_run(const void *call, struct gc_comm_state *st, const struct gc_plan *plan)
{
  const struct gc_alltoallv_call *c = call;
  (void)st, (void)plan;
#if GC_HAVE_MPI4
  if (c->large)
    return PMPI_Alltoallv_c(c->sendbuf, c->sendcounts, c->sdispls, c->sendtype, c->recvbuf,
                            c->recvcounts, c->rdispls, c->recvtype, c->comm);
#endif
  return PMPI_Alltoallv(c->sendbuf, c->sendcounts, c->sdispls, c->sendtype, c->recvbuf,
                        c->recvcounts, c->rdispls, c->recvtype, c->comm);
}
