/* MPI_Ialltoallv, MPI_Alltoallv_init and their _c variants: the MPI library's own call,
 * logged untimed, as the other nonblocking and persistent collectives are
 * (alltoall_nb.c says why gridcoll has no nonblocking grid algorithm). */
#include "alltoallv.h"
#include "dispatch.h"
#include "gridcoll.h"

static int enter(struct gc_alltoallv_call *call, enum gc_entry entry)
{
  if (!gc_is_active() || !gc_guard_enter())
    return 0;
  gc_dispatch_issued(&gc_alltoallv_op, call, call->comm, entry);
  return 1;
}

static void leave(int entered)
{
  if (entered)
    gc_guard_leave();
}

GC_EXPORT int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
  struct gc_alltoallv_call call = {sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                   recvcounts, rdispls, recvtype, comm, 0, 0, 0, 0};
  int entered = enter(&call, GC_ENTRY_NONBLOCKING);
  int rc = PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, comm, request);
  leave(entered);
  return rc;
}

#if GC_HAVE_MPI4
GC_EXPORT int MPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  struct gc_alltoallv_call call = {sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                   recvcounts, rdispls, recvtype, comm, 1, 0, 0, 0};
  int entered = enter(&call, GC_ENTRY_NONBLOCKING);
  int rc = PMPI_Ialltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                             rdispls, recvtype, comm, request);
  leave(entered);
  return rc;
}

GC_EXPORT int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
  struct gc_alltoallv_call call = {sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                   recvcounts, rdispls, recvtype, comm, 0, 0, 0, 0};
  int entered = enter(&call, GC_ENTRY_PERSISTENT);
  int rc = PMPI_Alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                               rdispls, recvtype, comm, info, request);
  leave(entered);
  return rc;
}

GC_EXPORT int MPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], MPI_Datatype sendtype,
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
  struct gc_alltoallv_call call = {sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                   recvcounts, rdispls, recvtype, comm, 1, 0, 0, 0};
  int entered = enter(&call, GC_ENTRY_PERSISTENT);
  int rc = PMPI_Alltoallv_init_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                 rdispls, recvtype, comm, info, request);
  leave(entered);
  return rc;
}
#endif
